#include "io/library/library_reader.hpp"

#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/library/hdf5_library.hpp"
#include "io/library/text_library.hpp"
#include "io/printable.hpp"

namespace keff {

std::unique_ptr<LibraryReader> open_library(const std::string& path) {
  // By kind, before anything is opened: a FIFO or a device would block or be read without end
  // (io/input_file.hpp).
  switch (file_kind(path)) {
    case FileKind::missing: throw DataError(path + ": nuclear-data library does not exist");
    case FileKind::regular: return open_hdf5_library(path);
    case FileKind::directory: return open_text_library(path);
    case FileKind::other: break;
  }
  throw DataError(path + ": not a nuclear-data library: " + file_kind_problem(path) +
                  " (allowed: an HDF5 file or a text-library directory; symbolic links are followed)");
}

std::vector<InputFile> library_input_files(const std::string& path) {
  try {
    return open_library(path)->input_files();
  } catch (const std::exception&) {
    return {{path, "the nuclear-data library '" + printable(path) + "'"}};
  }
}

}  // namespace keff
