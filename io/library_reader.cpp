#include "io/library_reader.hpp"

#include "io/data_error.hpp"
#include "io/hdf5_library.hpp"
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

}  // namespace keff
