#pragma once
// The HDF5 nuclear-data library: one file, one group per nuclide, a sorted identifier index, a format
// version, sizes and checksums. The layout is documented in io/library/LIBRARY_FORMAT.md.
#include "io/library/library_reader.hpp"
#include "io/library/nuclear_data.hpp"

#include <cstdint>
#include <string>

namespace keff {

inline constexpr const char* hdf5_library_filetype = "keff nuclear data";
inline constexpr std::int64_t hdf5_library_version = 1;

// Checks the library (check_library) and writes it atomically (temporary file + rename). Throws
// DataError for data that cannot be stored, OutputError when writing fails.
void write_hdf5_library(const std::string& path, const NuclideLibrary& library);

// Opens the file and reads its index. Throws DataError for a missing file, a file that is not HDF5 or
// not a keff library, another format version, or an index whose checksum does not match.
std::unique_ptr<LibraryReader> open_hdf5_library(const std::string& path);

}  // namespace keff
