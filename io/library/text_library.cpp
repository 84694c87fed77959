// The text nuclear-data library: writing it, and parsing it line by line.
#include "io/library/text_library.hpp"

#include "io/atomic_write.hpp"
#include "io/input_file.hpp"
#include "io/library/data_error.hpp"
#include "io/limits.hpp"
#include "io/output_error.hpp"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string_view>

namespace keff {

namespace fs = std::filesystem;

namespace {

constexpr const char* nuclide_magic = "# keff text nuclide, format ";
constexpr const char* index_magic = "# keff text nuclear-data library, format ";

// "z0xx/Z092/U235.txt": by tens of Z, then Z (id / 1000), like an evaluation's directory tree.
std::string nuclide_file(const NuclideData& n) {
  const int z = n.id / 1000;
  char buf[64];
  std::snprintf(buf, sizeof buf, "z%02dx/Z%03d/", z / 10, z);
  return buf + n.name + ".txt";
}

// 17 significant digits in scientific notation: enough for any double to read back to the same bits.
void append_double(std::string& out, double v) {
  char buf[40];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific, 16);
  out.append(buf, res.ptr);
}

// ---- parsing ---------------------------------------------------------------------------------------

// Walks a file's text line by line, knowing the line number for messages.
class Lines {
 public:
  Lines(std::string file, std::string text) : file_(std::move(file)), text_(std::move(text)) {}

  bool next(std::string_view& line) {
    if (at_ >= text_.size()) return false;
    const std::size_t end = text_.find('\n', at_);
    const std::size_t stop = end == std::string::npos ? text_.size() : end;
    line = std::string_view(text_).substr(at_, stop - at_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    at_ = stop + 1;
    ++number_;
    return true;
  }
  std::string_view require(const char* what) {
    std::string_view line;
    if (!next(line)) fail("file ends early: expected " + std::string(what));
    return line;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw DataError(file_ + ":" + std::to_string(number_) + ": " + what);
  }
  const std::string& file() const { return file_; }

 private:
  std::string file_;
  std::string text_;
  std::size_t at_ = 0;
  int number_ = 0;
};

// A file of the library, of at most `max_bytes` (io/limits.hpp): never a FIFO or a device, which would
// block or give bytes without end (io/input_file.hpp).
std::string read_text(const std::string& path, std::int64_t max_bytes) {
  try {
    return read_regular_file(path, max_bytes);
  } catch (const InputFileError& e) {
    throw DataError(std::string("cannot open nuclear-data file ") + e.what());
  }
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

// Splits off the next whitespace-separated field of `rest`.
std::string_view field(std::string_view& rest) {
  std::size_t i = 0;
  while (i < rest.size() && is_space(rest[i])) ++i;
  std::size_t j = i;
  while (j < rest.size() && !is_space(rest[j])) ++j;
  const std::string_view f = rest.substr(i, j - i);
  rest.remove_prefix(j);
  return f;
}

template <class T>
bool parse(std::string_view text, T& value) {
  const auto res = std::from_chars(text.data(), text.data() + text.size(), value);
  return res.ec == std::errc() && res.ptr == text.data() + text.size();
}

// "<key> <v1> ... <vn>": exactly n values of type T.
template <class T, std::size_t N>
void keyed(Lines& lines, const char* key, T (&values)[N]) {
  const std::string_view line = lines.require(key);
  std::string_view rest = line;
  const std::string expected = std::string("'") + key + (N == 1 ? " <value>'" : " <values>'") + " with " +
                               std::to_string(N) + " value(s)";
  if (field(rest) != key) lines.fail("expected " + expected + ", got '" + std::string(line) + "'");
  for (std::size_t i = 0; i < N; ++i) {
    if (!parse(field(rest), values[i])) lines.fail("expected " + expected + ", got '" + std::string(line) + "'");
  }
  if (!field(rest).empty()) lines.fail("expected " + expected + ", got '" + std::string(line) + "'");
}

std::string keyed_word(Lines& lines, const char* key) {
  const std::string_view line = lines.require(key);
  std::string_view rest = line;
  const std::string_view k = field(rest);
  const std::string_view v = field(rest);
  if (k != key || v.empty() || !field(rest).empty()) {
    lines.fail(std::string("expected '") + key + " <word>', got '" + std::string(line) + "'");
  }
  return std::string(v);
}

void check_magic(Lines& lines, const char* magic) {
  const std::string_view line = lines.require("the format line");
  int version = 0;
  if (!line.starts_with(magic) || !parse(line.substr(std::string_view(magic).size()), version)) {
    lines.fail("not a keff text library file (expected '" + std::string(magic) + "1')");
  }
  if (version != text_library_version) {
    lines.fail("format version " + std::to_string(version) + " is not supported (allowed: " +
               std::to_string(text_library_version) + ")");
  }
}

NuclideData read_nuclide_file(const std::string& path, const LibraryIndexEntry& entry) {
  Lines lines(path, read_text(path, limits::max_text_nuclide_bytes(entry.points)));
  check_magic(lines, nuclide_magic);
  NuclideData d;
  d.name = keyed_word(lines, "name");
  if (d.name != entry.name) lines.fail("nuclide '" + d.name + "' where the index says '" + entry.name + "'");
  std::int32_t id[1];
  keyed(lines, "id", id);
  d.id = id[0];
  double awr[1], nu[2], watt[2];
  int fissile[1];
  std::int64_t points[1];
  keyed(lines, "awr", awr);
  keyed(lines, "fissile", fissile);
  keyed(lines, "nu", nu);
  keyed(lines, "watt", watt);
  keyed(lines, "points", points);
  if (d.id != entry.id || points[0] != entry.points) {
    lines.fail("id " + std::to_string(d.id) + " and points " + std::to_string(points[0]) +
               " differ from the index (id " + std::to_string(entry.id) + ", points " + std::to_string(entry.points) + ")");
  }
  d.awr = awr[0];
  d.fissile = fissile[0] != 0;
  d.nu0 = nu[0];
  d.nu1 = nu[1];
  d.watt_a = watt[0];
  d.watt_b = watt[1];
  const auto n = static_cast<std::size_t>(points[0]);
  d.energy.resize(n);
  d.elastic.resize(n);
  d.capture.resize(n);
  d.fission.resize(n);
  std::vector<double>* columns[4] = {&d.energy, &d.elastic, &d.capture, &d.fission};
  std::string_view line;
  std::size_t j = 0;
  while (lines.next(line)) {
    if (line.empty() || line.front() == '#') continue;
    if (j == n) lines.fail("more than the " + std::to_string(n) + " data lines 'points' announces");
    std::string_view rest = line;
    for (auto* column : columns) {
      if (!parse(field(rest), (*column)[j])) {
        lines.fail("expected 4 numbers (energy elastic capture fission), got '" + std::string(line) + "'");
      }
    }
    if (!field(rest).empty()) {
      lines.fail("expected 4 numbers (energy elastic capture fission), got '" + std::string(line) + "'");
    }
    ++j;
  }
  if (j != n) lines.fail("file ends after " + std::to_string(j) + " of " + std::to_string(n) + " data lines");
  check_nuclide(d, path);
  return d;
}

class TextLibraryReader final : public LibraryReader {
 public:
  explicit TextLibraryReader(const std::string& dir);
  const char* format() const override { return "text"; }
  std::int64_t format_version() const override { return text_library_version; }
  const std::vector<LibraryIndexEntry>& index() const override { return index_; }
  NuclideLibrary read(std::size_t first, std::size_t count) const override {
    if (first + count > index_.size()) throw DataError(path_ + ": nuclide range past the end of the library");
    NuclideLibrary lib;
    lib.nuclides.reserve(count);
    for (std::size_t i = first; i < first + count; ++i) {
      lib.nuclides.push_back(read_nuclide_file((fs::path(path_) / index_[i].file).string(), index_[i]));
    }
    return lib;
  }
  std::vector<std::string> files() const override {
    std::vector<std::string> out{path_, (fs::path(path_) / "index.txt").string()};
    for (const auto& e : index_) out.push_back((fs::path(path_) / e.file).string());
    return out;
  }

 private:
  std::vector<LibraryIndexEntry> index_;
};

TextLibraryReader::TextLibraryReader(const std::string& dir) : LibraryReader(dir) {
  try {
    require_directory(dir);
  } catch (const InputFileError& e) {
    throw DataError(std::string("not a text nuclear-data library directory: ") + e.what());
  }
  const std::string index_path = (fs::path(dir) / "index.txt").string();
  std::error_code ec;
  if (!fs::exists(index_path, ec)) throw DataError(dir + ": not a text nuclear-data library (no index.txt)");
  Lines lines(index_path, read_text(index_path, limits::max_text_index_bytes));
  check_magic(lines, index_magic);
  std::int64_t count[1];
  keyed(lines, "nuclides", count);
  std::string_view line;
  while (lines.next(line)) {
    if (line.empty() || line.front() == '#') continue;
    std::string_view rest = line;
    LibraryIndexEntry e;
    e.name = std::string(field(rest));
    const bool ok = parse(field(rest), e.id) && parse(field(rest), e.points);
    e.file = std::string(field(rest));
    if (!ok || e.file.empty() || !field(rest).empty()) {
      lines.fail("expected '<name> <id> <points> <file>', got '" + std::string(line) + "'");
    }
    if (!valid_nuclide_name(e.name) || e.points < 2 || e.file.find("..") != std::string::npos || e.file.front() == '/') {
      lines.fail("invalid entry '" + std::string(line) + "' (allowed: a nuclide name, an id, points >= 2, a relative path)");
    }
    index_.push_back(std::move(e));
  }
  if (count[0] < 1 || static_cast<std::size_t>(count[0]) != index_.size()) {
    lines.fail("the index lists " + std::to_string(index_.size()) + " nuclides, its header says " +
               std::to_string(count[0]));
  }
  check_index(index_, index_path);
}

}  // namespace

std::unique_ptr<LibraryReader> open_text_library(const std::string& dir) {
  return std::make_unique<TextLibraryReader>(dir);
}

void write_text_library(const std::string& dir, const NuclideLibrary& library) {
  check_library(library, dir);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw OutputError("cannot create directory '" + dir + "': " + ec.message());
  std::string index = std::string(index_magic) + std::to_string(text_library_version) + "\n";
  index += "nuclides " + std::to_string(library.nuclides.size()) + "\n# name id points file\n";
  std::string text;
  for (const NuclideData& n : library.nuclides) {
    const std::string rel = nuclide_file(n);
    const fs::path file = fs::path(dir) / rel;
    fs::create_directories(file.parent_path(), ec);
    if (ec) throw OutputError("cannot create directory '" + file.parent_path().string() + "': " + ec.message());
    text.clear();
    text += std::string(nuclide_magic) + std::to_string(text_library_version) + "\n";
    text += "name " + n.name + "\nid " + std::to_string(n.id) + "\nawr ";
    append_double(text, n.awr);
    text += "\nfissile " + std::string(n.fissile ? "1" : "0") + "\nnu ";
    append_double(text, n.nu0);
    text += ' ';
    append_double(text, n.nu1);
    text += "\nwatt ";
    append_double(text, n.watt_a);
    text += ' ';
    append_double(text, n.watt_b);
    text += "\npoints " + std::to_string(n.energy.size()) + "\n";
    text += "# energy_ev elastic_b capture_b fission_b\n";
    for (std::size_t j = 0; j < n.energy.size(); ++j) {
      append_double(text, n.energy[j]);
      for (const auto* column : {&n.elastic, &n.capture, &n.fission}) {
        text += "  ";
        append_double(text, (*column)[j]);
      }
      text += '\n';
    }
    detail::write_file_atomically(file.string(), text, "the nuclear-data file");
    index += n.name + " " + std::to_string(n.id) + " " + std::to_string(n.energy.size()) + " " + rel + "\n";
  }
  detail::write_file_atomically((fs::path(dir) / "index.txt").string(), index, "the nuclear-data library index");
}

}  // namespace keff
