// The HDF5 nuclear-data library (io/library/LIBRARY_FORMAT.md). Every array carries a checksum and every
// nuclide its sizes, so a bit flip in a value or a size is reported as corruption with the file,
// nuclide and dataset, instead of turning into wrong answers; HDF5 itself detects a truncated file
// when it opens it (the stored end of file lies past the real one).
#include "io/library/hdf5_library.hpp"

#include "io/atomic_write.hpp"
#include "io/checksum.hpp"
#include "io/hdf5_file.hpp"
#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/limits.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>
#include <optional>

namespace keff {

namespace {

constexpr const char* columns[4] = {"energy", "elastic", "capture", "fission"};

std::int64_t as_int64(std::uint64_t v) { return std::bit_cast<std::int64_t>(v); }

// The scalars of a nuclide, hashed as one record: a flipped id, flag, size or parameter is caught too.
std::uint64_t scalars_checksum(std::int64_t id, std::int64_t fissile, std::int64_t points, const double (&reals)[5]) {
  std::uint64_t words[8] = {std::bit_cast<std::uint64_t>(id), std::bit_cast<std::uint64_t>(fissile),
                            std::bit_cast<std::uint64_t>(points)};
  for (int i = 0; i < 5; ++i) words[3 + i] = std::bit_cast<std::uint64_t>(reals[i]);
  return checksum64(words, sizeof words);
}

std::uint64_t index_checksum(const std::vector<std::string>& names, const std::vector<std::int64_t>& ids,
                             const std::vector<std::int64_t>& points) {
  std::string joined;
  for (const auto& n : names) joined += n + '\n';
  const std::uint64_t parts[3] = {checksum64(joined.data(), joined.size()),
                                  checksum64(std::span<const std::int64_t>(ids)),
                                  checksum64(std::span<const std::int64_t>(points))};
  return checksum64(parts, sizeof parts);
}

std::vector<std::int64_t> sorted_positions(const std::vector<std::int64_t>& ids) {
  std::vector<std::int64_t> order(ids.size());
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    return ids[static_cast<std::size_t>(a)] < ids[static_cast<std::size_t>(b)];
  });
  return order;
}

class Hdf5LibraryReader final : public LibraryReader {
 public:
  explicit Hdf5LibraryReader(const std::string& path);
  const char* format() const override { return "hdf5"; }
  std::int64_t format_version() const override { return hdf5_library_version; }
  const std::vector<LibraryIndexEntry>& index() const override { return index_; }
  NuclideLibrary read(std::size_t first, std::size_t count) const override;
  std::vector<std::string> files() const override { return {path_}; }

 private:
  [[noreturn]] void corrupt(const std::string& object, const std::string& what) const {
    throw DataError(path_ + ": " + object + ": " + what + " (file is corrupt)");
  }
  NuclideData read_nuclide(const H5Group& nuclides, const LibraryIndexEntry& entry) const;

  std::optional<H5File> file_;
  std::vector<LibraryIndexEntry> index_;
};

Hdf5LibraryReader::Hdf5LibraryReader(const std::string& path) : LibraryReader(path) {
  try {
    file_.emplace(H5File::open(path));
  } catch (const OutputError& e) {
    throw DataError(path + ": cannot open as an HDF5 nuclear-data library (truncated, corrupt or not HDF5): " + e.what());
  }
  try {
    const H5File& f = *file_;
    const std::string filetype = f.has_attribute("filetype") ? f.attribute_string("filetype") : "";
    if (filetype != hdf5_library_filetype) {
      throw DataError(path + ": not a keff nuclear-data library (attribute 'filetype' is '" + filetype +
                      "', expected '" + hdf5_library_filetype + "')");
    }
    if (!f.has_attribute("format_version")) throw DataError(path + ": attribute 'format_version' is missing");
    const std::int64_t version = f.attribute_int64("format_version");
    if (version != hdf5_library_version) {
      throw DataError(path + ": attribute 'format_version': format version " + std::to_string(version) +
                      " is not supported (allowed: " + std::to_string(hdf5_library_version) + ")");
    }
    const std::int64_t n = f.attribute_int64("nuclides");
    if (n < 1 || n > limits::max_nuclides) {
      throw DataError(path + ": attribute 'nuclides' = " + std::to_string(n) + " (allowed: " +
                      limits::integer_range(1, limits::max_nuclides) + ")");
    }
    const H5Group idx = f.open_group("index");
    // Sizes first: a dataset is allocated as large as its shape says before a checksum can be compared.
    for (const char* name : {"name", "id", "points"}) {
      if (idx.shape(name) != std::vector<std::size_t>{static_cast<std::size_t>(n)}) {
        corrupt(std::string("/index/") + name, "its shape disagrees with attribute 'nuclides' = " + std::to_string(n));
      }
    }
    const auto names = idx.read_strings("name");
    const auto ids = idx.read_int64s("id");
    const auto points = idx.read_int64s("points");
    if (n < 1 || names.size() != static_cast<std::size_t>(n) || ids.size() != names.size() ||
        points.size() != names.size()) {
      corrupt("/index", "sizes disagree with attribute 'nuclides' = " + std::to_string(n));
    }
    if (as_int64(index_checksum(names, ids, points)) != f.attribute_int64("index_checksum")) {
      corrupt("/index", "checksum mismatch");
    }
    index_.resize(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (points[i] < 2) corrupt("/index", "nuclide '" + names[i] + "' has " + std::to_string(points[i]) + " points");
      if (ids[i] < std::numeric_limits<std::int32_t>::min() || ids[i] > std::numeric_limits<std::int32_t>::max()) {
        corrupt("/index", "nuclide '" + names[i] + "' has id " + std::to_string(ids[i]) + " (allowed: a 32-bit integer)");
      }
      index_[i] = {names[i], static_cast<std::int32_t>(ids[i]), points[i], ""};
    }
    check_index(index_, path);
  } catch (const OutputError& e) {
    throw DataError(path + ": " + e.what());
  }
}

NuclideData Hdf5LibraryReader::read_nuclide(const H5Group& nuclides, const LibraryIndexEntry& entry) const {
  const std::string object = "nuclide '" + entry.name + "'";
  const H5Group g = nuclides.open_group(entry.name);
  NuclideData d;
  d.name = entry.name;
  const std::int64_t id = g.attribute_int64("id");
  const std::int64_t fissile = g.attribute_int64("fissile");
  const std::int64_t points = g.attribute_int64("points");
  const double reals[5] = {g.attribute_double("awr"), g.attribute_double("nu0"), g.attribute_double("nu1"),
                           g.attribute_double("watt_a"), g.attribute_double("watt_b")};
  if (as_int64(scalars_checksum(id, fissile, points, reals)) != g.attribute_int64("scalars_checksum")) {
    corrupt(object, "attributes: checksum mismatch");
  }
  if (id != entry.id || points != entry.points) corrupt(object, "id or point count differs from /index");
  d.id = static_cast<std::int32_t>(id);
  d.fissile = fissile != 0;
  d.awr = reals[0];
  d.nu0 = reals[1];
  d.nu1 = reals[2];
  d.watt_a = reals[3];
  d.watt_b = reals[4];
  std::vector<double>* targets[4] = {&d.energy, &d.elastic, &d.capture, &d.fission};
  for (int c = 0; c < 4; ++c) {
    targets[c]->resize(static_cast<std::size_t>(points));
    try {
      g.read_into(columns[c], *targets[c]);  // checks the size against `points`
    } catch (const OutputError& e) {
      corrupt(object + " dataset '" + columns[c] + "'", e.what());
    }
    const std::uint64_t expected = std::bit_cast<std::uint64_t>(g.attribute_int64(std::string(columns[c]) + "_checksum"));
    if (checksum64(std::span<const double>(*targets[c])) != expected) {
      corrupt(object + " dataset '" + columns[c] + "'", "checksum mismatch");
    }
  }
  return d;
}

NuclideLibrary Hdf5LibraryReader::read(std::size_t first, std::size_t count) const {
  NuclideLibrary lib;
  if (first + count > index_.size()) throw DataError(path_ + ": nuclide range past the end of the library");
  lib.nuclides.reserve(count);
  try {
    const H5Group nuclides = file_->open_group("nuclides");
    for (std::size_t i = first; i < first + count; ++i) lib.nuclides.push_back(read_nuclide(nuclides, index_[i]));
  } catch (const OutputError& e) {
    throw DataError(path_ + ": " + e.what());
  }
  // The checksums prove the file is unchanged since it was written, not that what was written is
  // physical: a file from another writer of LIBRARY_FORMAT.md is checked like a text library.
  for (const auto& n : lib.nuclides) check_nuclide(n, path_);
  return lib;
}

}  // namespace

std::unique_ptr<LibraryReader> open_hdf5_library(const std::string& path) {
  if (file_kind(path) == FileKind::missing) throw DataError(path + ": nuclear-data library file does not exist");
  try {
    require_regular_file(path);
  } catch (const InputFileError& e) {
    throw DataError(std::string("not an HDF5 nuclear-data library file: ") + e.what());
  }
  return std::make_unique<Hdf5LibraryReader>(path);
}

void write_hdf5_library(const std::string& path, const NuclideLibrary& library) {
  check_library(library, path);
  const std::size_t n = library.nuclides.size();
  std::vector<std::string> names(n);
  std::vector<std::int64_t> ids(n), points(n);
  for (std::size_t i = 0; i < n; ++i) {
    names[i] = library.nuclides[i].name;
    ids[i] = library.nuclides[i].id;
    points[i] = static_cast<std::int64_t>(library.nuclides[i].energy.size());
  }
  const auto order = sorted_positions(ids);
  std::vector<std::int64_t> sorted_ids(n);
  for (std::size_t k = 0; k < n; ++k) sorted_ids[k] = ids[static_cast<std::size_t>(order[k])];

  H5File f = H5File::create(path);  // in memory; written whole below (io/hdf5_file.hpp)
  f.set_attribute("filetype", std::string_view(hdf5_library_filetype));
  f.set_attribute("format_version", hdf5_library_version);
  f.set_attribute("nuclides", static_cast<std::int64_t>(n));
  f.set_attribute("total_points", std::accumulate(points.begin(), points.end(), std::int64_t{0}));
  f.set_attribute("checksum_algorithm", std::string_view("fnv1a64-words-x4"));
  f.set_attribute("index_checksum", as_int64(index_checksum(names, ids, points)));
  {
    const H5Group idx = f.create_group("index");
    idx.write("name", std::span<const std::string>(names));
    idx.write("id", std::span<const std::int64_t>(ids));
    idx.write("points", std::span<const std::int64_t>(points));
    idx.write("sorted_id", std::span<const std::int64_t>(sorted_ids));
    idx.write("sorted_position", std::span<const std::int64_t>(order));
  }
  {
    const H5Group nuclides = f.create_group("nuclides");
    for (std::size_t i = 0; i < n; ++i) {
      const NuclideData& d = library.nuclides[i];
      const H5Group g = nuclides.create_group(d.name);
      const double reals[5] = {d.awr, d.nu0, d.nu1, d.watt_a, d.watt_b};
      g.set_attribute("id", ids[i]);
      g.set_attribute("fissile", std::int64_t{d.fissile ? 1 : 0});
      g.set_attribute("points", points[i]);
      g.set_attribute("awr", d.awr);
      g.set_attribute("nu0", d.nu0);
      g.set_attribute("nu1", d.nu1);
      g.set_attribute("watt_a", d.watt_a);
      g.set_attribute("watt_b", d.watt_b);
      g.set_attribute("scalars_checksum", as_int64(scalars_checksum(ids[i], d.fissile ? 1 : 0, points[i], reals)));
      const std::vector<double>* data[4] = {&d.energy, &d.elastic, &d.capture, &d.fission};
      for (int c = 0; c < 4; ++c) {
        g.write(columns[c], std::span<const double>(*data[c]));
        g.set_attribute(std::string(columns[c]) + "_checksum", as_int64(checksum64(std::span<const double>(*data[c]))));
      }
    }
  }
  detail::write_file_atomically(path, f.close_to_image(), "the nuclear-data library");
}

}  // namespace keff
