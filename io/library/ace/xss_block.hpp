#pragma once
// Reading one block of XSS with its name at hand: every index is checked against XSS before it is
// used, and every failure names the file, the nuclide, the block and what is wrong. Shared by the block
// readers (ace_blocks.cpp, ace_laws.cpp); not a public interface.
#include "io/library/ace/ace_data.hpp"
#include "io/library/ace/ace_table.hpp"
#include "io/library/data_error.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace keff::ace {

class XssBlock {
 public:
  XssBlock(const AceTable& table, std::string nuclide, std::string block)
      : table_(table), nuclide_(std::move(nuclide)), block_(std::move(block)) {}
  // The same table and nuclide, another block name ("DLW, MT 16").
  XssBlock named(std::string block) const { return XssBlock(table_, nuclide_, std::move(block)); }

  [[noreturn]] void fail(const std::string& what) const {
    throw DataError("'" + table_.file + "': nuclide " + nuclide_ + " (" + table_.zaid + "): " + block_ + ": " + what);
  }
  std::int64_t size() const { return static_cast<std::int64_t>(table_.xss.size()); }
  // XSS(i), 1-based.
  double real(std::int64_t i) const {
    if (i < 1 || i > size()) {
      fail("reads XSS(" + std::to_string(i) + "), outside XSS (1 to " + std::to_string(size()) + "): truncated or a wrong pointer");
    }
    return table_.xss[static_cast<std::size_t>(i - 1)];
  }
  // XSS(i) as an integer in [lo, hi], named `what` in messages.
  std::int64_t integer(std::int64_t i, const char* what, std::int64_t lo, std::int64_t hi) const {
    double v = real(i);
    if (v != std::floor(v) || v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
      fail(std::string(what) + " is " + number(v) + " (allowed: an integer from " + std::to_string(lo) + " to " +
           std::to_string(hi) + ")");
    }
    return static_cast<std::int64_t>(v);
  }
  // XSS(i .. i+n-1).
  std::vector<double> reals(std::int64_t i, std::int64_t n) const {
    if (n < 0 || i < 1 || i + n - 1 > size()) {
      fail(std::to_string(n) + " values from XSS(" + std::to_string(i) + ") run past XSS's end (" +
           std::to_string(size()) + "): truncated or a wrong count");
    }
    return {table_.xss.begin() + (i - 1), table_.xss.begin() + (i - 1 + n)};
  }
  // A count read at XSS(i): at most what is left of XSS.
  std::int64_t count(std::int64_t i, const char* what, std::int64_t lo = 0) const {
    return integer(i, what, lo, size());
  }
  const AceTable& table() const { return table_; }
  static std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
  }

  // Checks on what was read.
  void ascending(const std::vector<double>& x, const char* what, bool strictly = false) const {
    for (std::size_t i = 1; i < x.size(); ++i) {
      if (strictly ? !(x[i] > x[i - 1]) : x[i] < x[i - 1]) {
        fail(std::string(what) + " is not " + (strictly ? "strictly " : "") + "ascending: point " + std::to_string(i + 1) +
             " (" + number(x[i]) + ") after " + number(x[i - 1]));
      }
    }
  }
  void non_negative(const std::vector<double>& x, const char* what) const {
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (x[i] < 0.0) fail(std::string(what) + " is negative at point " + std::to_string(i + 1) + " (" + number(x[i]) + ")");
    }
  }
  // A CDF: from >= 0, non-decreasing, ending at 1.
  void cdf(const std::vector<double>& c, const char* what, double end_tolerance) const {
    if (c.empty()) fail(std::string(what) + " is empty");
    ascending(c, what);
    if (c.front() < 0.0) fail(std::string(what) + " starts below 0 (" + number(c.front()) + ")");
    if (std::fabs(c.back() - 1.0) > end_tolerance) {
      fail(std::string(what) + " ends at " + number(c.back()) + ", not 1");
    }
  }

 private:
  const AceTable& table_;
  std::string nuclide_, block_;
};

// A TAB1 record at XSS(i): NR, NBT(NR), INT(NR), NE, X(NE), Y(NE). `*next` is the index after it.
Tab1 read_tab1(const XssBlock& b, std::int64_t i, std::int64_t* next = nullptr);
// Angle tables of law 61 and of the AND block: JJ, NP, mu(NP), PDF(NP), CDF(NP) at XSS(i).
AngleTable read_tabular_angle(const XssBlock& b, std::int64_t i);
// The energy laws of one reaction or delayed group: the chain that starts at locator `first` (relative
// to `base`, the block's JXS pointer).
std::vector<EnergyLaw> read_energy_laws(const XssBlock& b, std::int64_t base, std::int64_t first);

}  // namespace keff::ace
