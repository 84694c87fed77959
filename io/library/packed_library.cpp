// Packing a library into two flat buffers and back.
#include "io/library/packed_library.hpp"

#include "io/checksum.hpp"
#include "io/library/data_error.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace keff {

namespace {

constexpr std::size_t scalar_reals = 5;  // awr, nu0, nu1, watt_a, watt_b
constexpr std::size_t fixed_ints = 4;    // id, fissile, points, name length

std::size_t name_words(std::size_t length) { return (length + 7) / 8; }

}  // namespace

PackedSizes packed_sizes(const NuclideLibrary& library, std::size_t first, std::size_t count) {
  PackedSizes s{1, 0};
  for (std::size_t i = first; i < first + count; ++i) {
    const NuclideData& n = library.nuclides[i];
    s.ints += fixed_ints + name_words(n.name.size());
    s.reals += scalar_reals + 4 * n.energy.size();
  }
  return s;
}

PackedSizes packed_sizes(const NuclideLibrary& library) { return packed_sizes(library, 0, library.nuclides.size()); }

void pack_into(const NuclideLibrary& library, std::size_t first, std::size_t count, std::span<std::int64_t> ints,
               std::span<double> reals) {
  std::size_t i_at = 0, r_at = 0;
  ints[i_at++] = static_cast<std::int64_t>(count);
  for (std::size_t k = first; k < first + count; ++k) {
    const NuclideData& n = library.nuclides[k];
    const std::size_t points = n.energy.size();
    ints[i_at++] = n.id;
    ints[i_at++] = n.fissile ? 1 : 0;
    ints[i_at++] = static_cast<std::int64_t>(points);
    ints[i_at++] = static_cast<std::int64_t>(n.name.size());
    const std::size_t words = name_words(n.name.size());
    std::fill_n(ints.begin() + static_cast<std::ptrdiff_t>(i_at), words, 0);
    std::memcpy(ints.data() + i_at, n.name.data(), n.name.size());
    i_at += words;
    reals[r_at++] = n.awr;
    reals[r_at++] = n.nu0;
    reals[r_at++] = n.nu1;
    reals[r_at++] = n.watt_a;
    reals[r_at++] = n.watt_b;
    for (const auto* column : {&n.energy, &n.elastic, &n.capture, &n.fission}) {
      // Every column has the grid's length (checked where data enters keff), so the layout is fixed.
      std::copy_n(column->begin(), points, reals.begin() + static_cast<std::ptrdiff_t>(r_at));
      r_at += points;
    }
  }
}

PackedLibrary pack(const NuclideLibrary& library) {
  const PackedSizes s = packed_sizes(library);
  PackedLibrary p;
  p.ints.resize(s.ints);
  p.reals.resize(s.reals);
  pack_into(library, 0, library.nuclides.size(), p.ints, p.reals);
  return p;
}

void unpack_append(std::span<const std::int64_t> ints, std::span<const double> reals, NuclideLibrary& library) {
  const auto bad = [](const std::string& what) -> DataError {
    return DataError("packed nuclear data is inconsistent: " + what);
  };
  if (ints.empty()) throw bad("no header");
  const std::int64_t count = ints[0];
  std::size_t i_at = 1, r_at = 0;
  for (std::int64_t k = 0; k < count; ++k) {
    if (i_at + fixed_ints > ints.size()) throw bad("integer buffer ends inside nuclide " + std::to_string(k));
    NuclideData n;
    n.id = static_cast<std::int32_t>(ints[i_at]);
    n.fissile = ints[i_at + 1] != 0;
    const auto points = static_cast<std::size_t>(ints[i_at + 2]);
    const auto length = static_cast<std::size_t>(ints[i_at + 3]);
    i_at += fixed_ints;
    if (i_at + name_words(length) > ints.size()) throw bad("integer buffer ends inside a name");
    n.name.assign(reinterpret_cast<const char*>(ints.data() + i_at), length);
    i_at += name_words(length);
    if (r_at + scalar_reals + 4 * points > reals.size()) throw bad("real buffer ends inside nuclide '" + n.name + "'");
    n.awr = reals[r_at++];
    n.nu0 = reals[r_at++];
    n.nu1 = reals[r_at++];
    n.watt_a = reals[r_at++];
    n.watt_b = reals[r_at++];
    for (auto* column : {&n.energy, &n.elastic, &n.capture, &n.fission}) {
      column->assign(reals.begin() + static_cast<std::ptrdiff_t>(r_at),
                     reals.begin() + static_cast<std::ptrdiff_t>(r_at + points));
      r_at += points;
    }
    library.nuclides.push_back(std::move(n));
  }
  if (i_at != ints.size() || r_at != reals.size()) throw bad("buffers are longer than their nuclides");
}

NuclideLibrary unpack(std::span<const std::int64_t> ints, std::span<const double> reals) {
  NuclideLibrary library;
  unpack_append(ints, reals, library);
  return library;
}

std::uint64_t library_checksum(const NuclideLibrary& library) {
  const PackedLibrary p = pack(library);
  const std::uint64_t a = checksum64(std::span<const std::int64_t>(p.ints));
  const std::uint64_t b = checksum64(std::span<const double>(p.reals));
  const std::uint64_t both[2] = {a, b};
  return checksum64(both, sizeof both);
}

}  // namespace keff
