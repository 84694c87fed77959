#pragma once
// The text nuclear-data library: one ASCII file per nuclide in a nested directory tree, and an index,
// the way production codes still ship ACE data. It exists to be converted and to measure what parsing
// thousands of small files costs; the layout is documented in io/library/LIBRARY_FORMAT.md.
#include "io/library/library_reader.hpp"
#include "io/library/nuclear_data.hpp"

#include <string>

namespace keff {

inline constexpr int text_library_version = 1;

// Writes `dir`/index.txt and one file per nuclide under `dir` (created if needed). Doubles are written
// with 17 significant digits, so reading the library back gives the same bits. The index is written
// last and atomically: a directory with an index is a complete library.
void write_text_library(const std::string& dir, const NuclideLibrary& library);

// Reads and checks `dir`/index.txt. Throws DataError naming the file and line of anything malformed.
std::unique_ptr<LibraryReader> open_text_library(const std::string& dir);

}  // namespace keff
