// The parts of library reading that need no HDF5 (the index check every reader runs, and a reader's
// files named for messages), in a file of their own so that the text reader builds without HDF5 (the
// fuzz target of tests/fuzz/ drives it so).
#include "io/library/library_reader.hpp"

#include "io/library/data_error.hpp"
#include "io/limits.hpp"
#include "io/printable.hpp"

#include <unordered_map>

namespace keff {

std::vector<InputFile> LibraryReader::input_files() const {
  const std::string library = "the nuclear-data library '" + printable(path_) + "'";
  std::vector<InputFile> out;
  for (const std::string& file : files()) {
    out.push_back({file, file == path_ ? library : "the file '" + printable(file) + "' of " + library});
  }
  return out;
}

void check_index(const std::vector<LibraryIndexEntry>& index, const std::string& path) {
  if (index.empty() || static_cast<std::int64_t>(index.size()) > limits::max_nuclides) {
    throw DataError(path + ": the index lists " + std::to_string(index.size()) + " nuclides (allowed: " +
                    limits::integer_range(1, limits::max_nuclides) + ")");
  }
  std::int64_t total = 0;
  std::unordered_map<std::string, std::size_t> names;
  std::unordered_map<std::int32_t, std::size_t> ids;
  for (std::size_t i = 0; i < index.size(); ++i) {
    const auto& e = index[i];
    if (!valid_nuclide_name(e.name)) {
      throw DataError(path + ": index entry " + std::to_string(i + 1) + ": invalid nuclide name '" + printable(e.name) +
                      "' (allowed: " + nuclide_name_rule + ")");
    }
    // A name read twice would shadow the first (the HDF5 format stores a group per name); an id twice
    // would make the sorted id index ambiguous. The writers refuse both (check_library).
    if (const auto [at, fresh] = names.emplace(e.name, i); !fresh) {
      throw DataError(path + ": nuclide '" + e.name + "' appears twice in the index (entries " +
                      std::to_string(at->second + 1) + " and " + std::to_string(i + 1) +
                      "; allowed: each name once)");
    }
    if (const auto [at, fresh] = ids.emplace(e.id, i); !fresh) {
      throw DataError(path + ": nuclide '" + e.name + "': id " + std::to_string(e.id) + " is used twice (also by '" +
                      index[at->second].name + "'; allowed: each id once)");
    }
    if (e.points < 2 || e.points > limits::max_gridpoints) {
      throw DataError(path + ": nuclide '" + e.name + "' has " + std::to_string(e.points) + " energy points (allowed: " +
                      limits::integer_range(2, limits::max_gridpoints) + ")");
    }
    total += e.points;  // at most 2^16 x 2^24: no overflow
    if (total > limits::max_total_gridpoints) {
      throw DataError(path + ": more than " + limits::number_text(limits::max_total_gridpoints) +
                      " energy points in all (allowed: at most that many over all nuclides)");
    }
  }
}

}  // namespace keff
