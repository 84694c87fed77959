#pragma once
// An ACE table as its file lays it out: the header, NXS (16 integers), JXS (32 pointers into XSS) and
// XSS, the one array every block lives in. read_ace_table reads one type-1 (ASCII) table, in the legacy
// header or in the 2.0 header, and checks what every block reader relies on: the header fields, NXS(1)
// values in XSS, each of them a finite number, and the JXS pointers inside XSS. It throws DataError naming
// the file, the table and what is wrong; the block readers (ace_reader.hpp) check their blocks.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace keff::ace {

struct AceTable {
  std::string file;        // for messages
  std::string zaid;        // "92235.00c"
  double awr = 0.0;
  double temperature_mev = 0.0;
  std::string date, comment;
  std::array<std::int64_t, 16> nxs{};  // NXS(1..16) at [0..15]
  std::array<std::int64_t, 32> jxs{};  // JXS(1..32) at [0..31]
  std::vector<double> xss;             // XSS(1..NXS(1)) at [0..NXS(1)-1]
  std::int64_t nxs_at(int one_based) const { return nxs[static_cast<std::size_t>(one_based - 1)]; }
  std::int64_t jxs_at(int one_based) const { return jxs[static_cast<std::size_t>(one_based - 1)]; }
};

// Reads the table that begins at `line` (1-based; an xsdir's address for type-1 files) of `path`.
// `expected_zaid`, when not empty, must be the table's; `nuclide` names it in messages ("'u.ace': nuclide
// U235 (92235.00c), line 12: ..."), and a value of XSS that is wrong is placed in its block. Throws
// DataError.
AceTable read_ace_table(const std::string& path, std::int64_t line = 1, const std::string& expected_zaid = "",
                        const std::string& nuclide = "");

// The same from text already in memory; `path` names it in messages.
AceTable parse_ace_table(const std::string& text, const std::string& path, std::int64_t line = 1,
                         const std::string& expected_zaid = "", const std::string& nuclide = "");

}  // namespace keff::ace
