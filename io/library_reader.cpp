#include "io/library_reader.hpp"

#include "io/data_error.hpp"
#include "io/hdf5_library.hpp"
#include "io/limits.hpp"
#include "io/text_library.hpp"

#include <filesystem>

namespace keff {

std::unique_ptr<LibraryReader> open_library(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (!fs::exists(status)) throw DataError(path + ": nuclear-data library does not exist");
  if (fs::is_directory(status)) return open_text_library(path);
  if (fs::is_regular_file(status)) return open_hdf5_library(path);
  throw DataError(path + ": not a nuclear-data library (allowed: an HDF5 file or a text-library directory)");
}

void check_index_sizes(const std::vector<LibraryIndexEntry>& index, const std::string& path) {
  if (index.empty() || static_cast<std::int64_t>(index.size()) > limits::max_nuclides) {
    throw DataError(path + ": the index lists " + std::to_string(index.size()) + " nuclides (allowed: " +
                    limits::integer_range(1, limits::max_nuclides) + ")");
  }
  std::int64_t total = 0;
  for (const auto& e : index) {
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
