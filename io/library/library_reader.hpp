#pragma once
// Reading a nuclear-data library from either format by nuclide range, so a loader can hand each reader
// rank its own part. Opening reads only the index; read() reads, checks and returns nuclides.
#include "io/library/nuclear_data.hpp"
#include "io/output_path.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace keff {

struct LibraryIndexEntry {
  std::string name;
  std::int32_t id = 0;
  std::int64_t points = 0;
  std::string file;  // text library: the nuclide's file, relative to the library directory
};

class LibraryReader {
 public:
  virtual ~LibraryReader() = default;
  // "hdf5" or "text"
  virtual const char* format() const = 0;
  virtual std::int64_t format_version() const = 0;
  // Nuclides in library order.
  virtual const std::vector<LibraryIndexEntry>& index() const = 0;
  // Nuclides [first, first + count), checked; throws DataError naming the file and the object.
  virtual NuclideLibrary read(std::size_t first, std::size_t count) const = 0;
  // Every file and directory reading the whole library reads: the HDF5 file; or the text library's
  // directory, its index and each nuclide file.
  virtual std::vector<std::string> files() const = 0;
  // files(), named for messages: "the nuclear-data library '<path>'" and "the file '<file>' of" it.
  std::vector<InputFile> input_files() const;

  const std::string& path() const { return path_; }
  std::size_t size() const { return index().size(); }
  NuclideLibrary read_all() const { return read(0, size()); }

 protected:
  explicit LibraryReader(std::string path) : path_(std::move(path)) {}
  std::string path_;
};

// A directory is a text library (it must hold index.txt), a file an HDF5 library. Throws DataError
// when the path does not exist or is neither.
std::unique_ptr<LibraryReader> open_library(const std::string& path);

// The files of the library at `path` (LibraryReader::input_files), for the check that no output of a command
// replaces one (io/output_path.hpp, check_not_an_input); only `path` itself when it cannot be opened,
// whose error the command's reading of the library reports.
std::vector<InputFile> library_input_files(const std::string& path);

// An index, before anything is allocated for it or read through it: the sizes it announces against
// io/limits.hpp (at most limits::max_nuclides nuclides, each with 2 to limits::max_gridpoints points,
// at most limits::max_total_gridpoints in all), and what the library writers refuse too
// (check_library): a name that is not a valid nuclide name, a name or an id listed twice. Throws
// DataError naming the file, the nuclide and what is allowed.
void check_index(const std::vector<LibraryIndexEntry>& index, const std::string& path);

}  // namespace keff
