#include "io/library/ace/ace_table.hpp"

#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/limits.hpp"

#include <charconv>
#include <cmath>
#include <string_view>

namespace keff::ace {
namespace {

// The lines of `text` from `first` (1-based) on, one at a time, counted for messages.
class Lines {
 public:
  Lines(std::string_view text, std::int64_t first, std::string where) : text_(text), where_(std::move(where)) {
    for (std::int64_t skip = 1; skip < first; ++skip) {
      if (!next(nullptr)) fail("the file has fewer than " + std::to_string(first) + " lines (the table's address)");
    }
  }
  // The next line, or false at the end of the text.
  bool next(std::string_view* line) {
    if (position_ >= text_.size()) return false;
    std::size_t end = text_.find('\n', position_);
    if (end == std::string_view::npos) end = text_.size();
    if (line) *line = text_.substr(position_, end - position_);
    position_ = end + 1;
    ++number_;
    return true;
  }
  std::string_view require(const char* what) {
    std::string_view line;
    if (!next(&line)) fail("truncated: the file ends before " + std::string(what));
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    return line;
  }
  std::int64_t number() const { return number_; }
  std::string_view rest() const { return position_ < text_.size() ? text_.substr(position_) : std::string_view{}; }
  void rename(std::string where) { where_ = std::move(where); }
  [[noreturn]] void fail(const std::string& what) const {
    throw DataError(where_ + (number_ > 0 ? ", line " + std::to_string(number_) : std::string()) + ": " + what);
  }

 private:
  std::string_view text_;
  std::string where_;
  std::size_t position_ = 0;
  std::int64_t number_ = 0;
};

// Whitespace-separated fields of a line.
std::vector<std::string_view> fields(std::string_view line) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

// A Fortran real: "1.234E+02", "1.234e-5", and the exponent without its letter that Fortran writes
// for three-digit exponents ("1.234-100"). False for anything else, and for NaN and infinities.
bool parse_real(std::string_view token, double* value) {
  const char* begin = token.data();
  const char* end = begin + token.size();
  auto [ptr, ec] = std::from_chars(begin, end, *value);
  if (ec == std::errc() && ptr == end) return std::isfinite(*value);
  if (ec != std::errc() || ptr == begin || (*ptr != '+' && *ptr != '-')) return false;
  std::string with_letter(begin, ptr);
  with_letter += 'E';
  with_letter.append(ptr, end);
  auto [ptr2, ec2] = std::from_chars(with_letter.data(), with_letter.data() + with_letter.size(), *value);
  return ec2 == std::errc() && ptr2 == with_letter.data() + with_letter.size() && std::isfinite(*value);
}

bool parse_integer(std::string_view token, std::int64_t* value) {
  auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), *value);
  return ec == std::errc() && ptr == token.data() + token.size();
}

// The name of the block that XSS(index) lies in: the JXS entry with the largest pointer at or below it.
std::string block_of(const AceTable& t, std::int64_t index) {
  static const char* const names[32] = {"ESZ",  "NU",   "MTR",   "LQR",  "TYR",   "LSIG", "SIG",  "LAND",
                                        "AND",  "LDLW", "DLW",   "GPD",  "MTRP",  "LSIGP", "SIGP", "LANDP",
                                        "ANDP", "LDLWP", "DLWP", "YP",   "FIS",   "END",  "LUNR", "DNU",
                                        "BDD",  "DNEDL", "DNED", "JXS(28)", "JXS(29)", "JXS(30)", "JXS(31)", "JXS(32)"};
  int best = -1;
  for (int j = 0; j < 32; ++j) {
    if (j == 21 || t.jxs[static_cast<std::size_t>(j)] < 1 || t.jxs[static_cast<std::size_t>(j)] > index) continue;
    if (best < 0 || t.jxs[static_cast<std::size_t>(j)] >= t.jxs[static_cast<std::size_t>(best)]) best = j;
  }
  return best < 0 ? std::string("before the first block") : std::string("block ") + names[best];
}

std::string quoted(std::string_view s) {
  std::string out(1, '\'');
  out.append(s.substr(0, 40));
  out.push_back('\'');
  return out;
}

// NXS or JXS: `count` integers over the next lines.
template <std::size_t N>
void read_integers(Lines& lines, std::array<std::int64_t, N>& out, const char* name) {
  std::size_t filled = 0;
  while (filled < N) {
    for (std::string_view f : fields(lines.require(name))) {
      if (filled == N) lines.fail(std::string(name) + ": more than " + std::to_string(N) + " integers");
      if (!parse_integer(f, &out[filled])) lines.fail(std::string(name) + ": " + quoted(f) + " is not an integer");
      ++filled;
    }
  }
}

}  // namespace

AceTable parse_ace_table(const std::string& text, const std::string& path, std::int64_t line,
                         const std::string& expected_zaid, const std::string& nuclide) {
  AceTable t;
  t.file = path;
  auto where = [&](const std::string& zaid) {
    return "'" + path + "'" + (nuclide.empty() ? (zaid.empty() ? "" : ": table " + zaid) : ": nuclide " + nuclide + " (" + zaid + ")");
  };
  Lines lines(text, line, where(expected_zaid));

  // Header: legacy (ZAID AWR kT date / comment MAT) or 2.0 (version SZAID source / AWR kT date N / N lines).
  std::vector<std::string_view> first = fields(lines.require("the header"));
  std::string_view awr_field, temperature_field;
  if (!first.empty() && first[0].substr(0, 2) == "2.") {
    if (first.size() < 2) lines.fail("2.0 header: the first line needs a version and a ZAID");
    t.zaid = std::string(first[1]);
    std::vector<std::string_view> second = fields(lines.require("the header's second line"));
    std::int64_t comments = 0;
    if (second.size() < 4 || !parse_integer(second[3], &comments) || comments < 0 || comments > 1000) {
      lines.fail("2.0 header: the second line must be AWR, temperature, date and the number of comment lines");
    }
    awr_field = second[0];
    temperature_field = second[1];
    t.date = std::string(second[2]);
    for (std::int64_t c = 0; c < comments; ++c) t.comment += std::string(lines.require("the header's comments")) + "\n";
  } else {
    if (first.size() < 3) lines.fail("header: the first line must be ZAID, AWR and temperature (kT, MeV)");
    t.zaid = std::string(first[0]);
    awr_field = first[1];
    temperature_field = first[2];
    if (first.size() > 3) t.date = std::string(first[3]);
    t.comment = std::string(lines.require("the header's comment line"));
  }
  if (!parse_real(awr_field, &t.awr) || t.awr <= 0.0) lines.fail("header: AWR " + quoted(awr_field) + " is not a positive number");
  if (!parse_real(temperature_field, &t.temperature_mev) || t.temperature_mev < 0.0) {
    lines.fail("header: temperature " + quoted(temperature_field) + " is not a non-negative number (kT in MeV)");
  }
  lines.rename(where(t.zaid));
  if (!expected_zaid.empty() && t.zaid != expected_zaid) {
    lines.fail("header: the table here is " + t.zaid + ", not " + expected_zaid + " (is the xsdir's address right?)");
  }
  for (int i = 0; i < 4; ++i) lines.require("the IZ/AW lines");
  read_integers(lines, t.nxs, "NXS");
  read_integers(lines, t.jxs, "JXS");

  const std::int64_t length = t.nxs_at(1);
  if (length < 1 || length > limits::max_ace_xss_values) {
    lines.fail("NXS(1), the length of XSS, is " + std::to_string(length) + " (allowed: 1 to " +
               std::to_string(limits::max_ace_xss_values) + ")");
  }
  for (int j = 1; j <= 32; ++j) {
    if (t.jxs_at(j) < 0 || t.jxs_at(j) > length) {
      lines.fail("JXS(" + std::to_string(j) + ") = " + std::to_string(t.jxs_at(j)) + " points outside XSS (1 to " +
                 std::to_string(length) + ")");
    }
  }
  t.xss.reserve(static_cast<std::size_t>(length));
  while (static_cast<std::int64_t>(t.xss.size()) < length) {
    std::string_view next_line;
    if (!lines.next(&next_line)) {
      lines.fail("truncated: the file ends at XSS(" + std::to_string(t.xss.size()) + "), in " +
                 block_of(t, static_cast<std::int64_t>(t.xss.size())) + ", of NXS(1) = " + std::to_string(length));
    }
    for (std::string_view f : fields(next_line)) {
      double v = 0.0;
      const std::int64_t index = static_cast<std::int64_t>(t.xss.size()) + 1;
      if (!parse_real(f, &v)) lines.fail("XSS(" + std::to_string(index) + ") in " + block_of(t, index) + ": " + quoted(f) + " is not a finite number");
      if (static_cast<std::int64_t>(t.xss.size()) == length) {
        lines.fail("XSS has more values on its last line than NXS(1) = " + std::to_string(length));
      }
      t.xss.push_back(v);
    }
  }
  return t;
}

AceTable read_ace_table(const std::string& path, std::int64_t line, const std::string& expected_zaid,
                        const std::string& nuclide) {
  std::string text;
  try {
    text = read_regular_file(path, limits::max_ace_file_bytes);
  } catch (const InputFileError& e) {
    throw DataError("cannot read ACE file: " + std::string(e.what()));
  }
  return parse_ace_table(text, path, line, expected_zaid, nuclide);
}

}  // namespace keff::ace
