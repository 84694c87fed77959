#pragma once
// Reading TOML for io/input/input*.cpp: a Section is one TOML table with its dotted path and typed,
// range-checked accessors; every failure throws InputError shaped
//   <file>:<line>: <table>[<name>].<key>: <what is wrong> (allowed: <what is allowed>)
#include "io/input/input.hpp"
#include "io/limits.hpp"
#include "io/names.hpp"
#include "io/printable.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace keff::detail {

using model::SourceLoc;

inline constexpr std::int64_t int_max = std::numeric_limits<int>::max();
inline constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();

// ---------------------------------------------------------------------------------------------------
// Message helpers

inline std::string format_number(double v) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof(buf), v);  // shortest text that reads back as v
  return std::string(buf, res.ptr);
}

// "a, b, c"; long lists are cut so a message stays one readable line.
inline std::string join(const std::vector<std::string>& items) {
  if (items.empty()) return "none defined";
  constexpr std::size_t max_listed = 20;
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < max_listed; ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  if (items.size() > max_listed) out += ", ... (" + std::to_string(items.size()) + " in all)";
  return out;
}

inline std::string join(std::span<const std::string_view> items) {
  std::vector<std::string> v;
  for (auto s : items) v.emplace_back(s);
  return join(v);
}
inline std::string join(std::initializer_list<std::string_view> items) { return join(std::span(items.begin(), items.size())); }

inline std::string in_quotes(std::string_view s) {
  std::string out;  // built in place: "'" + std::string(s) + "'" trips GCC 12's false -Wrestrict when inlined
  out.reserve(s.size() + 2);
  out += '\'';
  out += s;
  out += '\'';
  return out;
}

inline std::string type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a floating-point number";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "nothing";
  }
}

inline int line_of(const toml::node& n) { return static_cast<int>(n.source().begin.line); }

// Orders nodes as they appear in the file (toml++ tables iterate in key order).
inline bool before(const toml::source_region& a, const toml::source_region& b) {
  return std::pair(a.begin.line, a.begin.column) < std::pair(b.begin.line, b.begin.column);
}

// The input being read: its name, and the one way to report a problem in it.
struct Source {
  std::string name;

  // Keys, names and values in the message may hold any character TOML allows in a quoted string (NUL
  // and other control characters included): the whole message is made printable.
  [[noreturn]] void fail(int line, std::string_view path, std::string_view what,
                         std::string_view allowed) const {
    std::string msg = name + ":" + std::to_string(line) + ": " + std::string(path) + ": " + std::string(what);
    if (!allowed.empty()) msg += " (allowed: " + std::string(allowed) + ")";
    throw InputError(printable(msg));
  }
  SourceLoc loc(int line) const { return {name, line}; }
};

// ---------------------------------------------------------------------------------------------------
// Section: one TOML table with its dotted path, typed and range-checked accessors that fail with a
// message pointing at the offending key.

class Section {
 public:
  Section(const Source& src, const toml::table& table, std::string path)
      : src_(&src), table_(&table), path_(std::move(path)) {}

  const Source& source() const { return *src_; }
  const toml::table& raw() const { return *table_; }
  const std::string& path() const { return path_; }
  void set_path(std::string path) { path_ = std::move(path); }
  int line() const { return line_of(*table_); }
  SourceLoc loc() const { return src_->loc(line()); }

  const toml::node* find(std::string_view key) const { return table_->get(key); }
  bool has(std::string_view key) const { return find(key) != nullptr; }
  int line(std::string_view key) const {
    const auto* n = find(key);
    return n ? line_of(*n) : line();
  }
  std::string key_path(std::string_view key) const {
    if (key.empty()) return path_;
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
  }

  // At the key (or at the table's header when the key is absent).
  [[noreturn]] void fail(std::string_view key, std::string_view what, std::string_view allowed = {}) const {
    src_->fail(line(key), key_path(key), what, allowed);
  }
  // At one element of the key's array value.
  [[noreturn]] void fail_at(const toml::node& n, std::string_view key, std::string_view what,
                            std::string_view allowed = {}) const {
    src_->fail(line_of(n), key_path(key), what, allowed);
  }

  // Unknown keys are errors: a misspelt optional key would otherwise be silently ignored.
  void allow_only(std::initializer_list<std::string_view> allowed) const { allow_only(std::span(allowed.begin(), allowed.size())); }
  void allow_only(std::span<const std::string_view> allowed) const {
    const toml::key* first = nullptr;
    for (auto&& [k, v] : *table_) {
      (void)v;
      if (std::find(allowed.begin(), allowed.end(), k.str()) != allowed.end()) continue;
      if (!first || before(k.source(), first->source())) first = &k;
    }
    if (first) {
      src_->fail(static_cast<int>(first->source().begin.line), key_path(first->str()), "unknown key",
                 join(allowed));
    }
  }

  // Typed access: std::nullopt when absent, an error when present with the wrong type.
  std::optional<std::int64_t> integer(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_integer()) fail(key, "expected an integer, got " + type_name(*n), "an integer");
    return n->as_integer()->get();
  }
  std::optional<double> number(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    return as_number(*n, key);
  }
  std::optional<std::string> string(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_string()) fail(key, "expected a string, got " + type_name(*n), "a string");
    return n->as_string()->get();
  }
  std::optional<bool> boolean(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_boolean()) fail(key, "expected true or false, got " + type_name(*n), "true, false");
    return n->as_boolean()->get();
  }
  const toml::array* array(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return nullptr;
    if (!n->is_array()) fail(key, "expected an array, got " + type_name(*n), "an array");
    return n->as_array();
  }
  std::optional<Section> table(std::string_view key) const {
    const auto* n = find(key);
    if (!n) return std::nullopt;
    if (!n->is_table()) fail(key, "expected a table, got " + type_name(*n), "a table");
    return Section(*src_, *n->as_table(), key_path(key));
  }

  double as_number(const toml::node& n, std::string_view key) const {
    if (n.is_integer()) return static_cast<double>(n.as_integer()->get());
    if (n.is_floating_point()) {
      const double v = n.as_floating_point()->get();
      if (!std::isfinite(v)) fail_at(n, key, "expected a finite number, got " + format_number(v), "a finite number");
      return v;
    }
    fail_at(n, key, "expected a number, got " + type_name(n), "a number");
  }

  // Range-checked forms with defaults.
  std::int64_t integer(std::string_view key, std::int64_t fallback, std::int64_t min, std::int64_t max) const {
    const auto v = integer(key);
    if (!v) return fallback;
    if (*v < min || *v > max) fail(key, "invalid value " + std::to_string(*v), integer_range(min, max));
    return *v;
  }
  std::int64_t required_integer(std::string_view key, std::int64_t min, std::int64_t max) const {
    if (!has(key)) fail(key, "missing required key", integer_range(min, max));
    return integer(key, 0, min, max);
  }
  // `ok` decides, `allowed` says in words what it accepts.
  double number(std::string_view key, double fallback, const std::function<bool(double)>& ok,
                std::string_view allowed) const {
    const auto v = number(key);
    if (!v) return fallback;
    if (!ok(*v)) fail(key, "invalid value " + format_number(*v), allowed);
    return *v;
  }
  // One of the names in an enum's table (kernels/vocabulary/enum_names.hpp), or `fallback` without the key.
  template <class E>
  E choice(std::string_view key, E fallback) const {
    const auto v = string(key);
    if (!v) return fallback;
    const std::optional<E> e = enum_from_name<E>(*v);
    if (!e) fail(key, "invalid value " + in_quotes(*v), allowed_names<E>());
    return *e;
  }
  std::string required_string(std::string_view key, std::string_view allowed) const {
    const auto v = string(key);
    if (!v) fail(key, "missing required key", allowed);
    return *v;
  }

  // An array of numbers with a length in [min_len, max_len].
  std::vector<double> numbers(std::string_view key, std::size_t min_len, std::size_t max_len,
                              std::string_view allowed) const {
    const auto* arr = array(key);
    if (!arr) return {};
    if (arr->size() < min_len || arr->size() > max_len) {
      fail(key, "expected " + count_text(min_len, max_len) + " numbers, got " + std::to_string(arr->size()), allowed);
    }
    std::vector<double> out;
    for (const auto& n : *arr) out.push_back(as_number(n, key));
    return out;
  }
  std::vector<std::int64_t> integers(std::string_view key, std::size_t len, std::string_view allowed) const {
    const auto* arr = array(key);
    if (!arr) return {};
    if (arr->size() != len) {
      fail(key, "expected " + std::to_string(len) + " integers, got " + std::to_string(arr->size()), allowed);
    }
    std::vector<std::int64_t> out;
    for (const auto& n : *arr) {
      if (!n.is_integer()) fail_at(n, key, "expected an integer, got " + type_name(n), allowed);
      out.push_back(n.as_integer()->get());
    }
    return out;
  }

  static std::string integer_range(std::int64_t min, std::int64_t max) { return limits::integer_range(min, max); }

 private:
  static std::string count_text(std::size_t lo, std::size_t hi) {
    return lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
  }

  const Source* src_;
  const toml::table* table_;
  std::string path_;
};

// The elements of a top-level [[key]] array, each as a Section named "key[#n]" (1-based) until the
// caller renames it after its id or name.
inline std::vector<Section> array_of_tables(const Section& root, std::string_view key) {
  std::vector<Section> out;
  const auto* n = root.find(key);
  if (!n) return out;
  const std::string header = "[[" + std::string(key) + "]] tables";
  if (!n->is_array()) root.fail(key, "expected an array of tables, got " + type_name(*n), header);
  int index = 0;
  for (const auto& elem : *n->as_array()) {
    ++index;
    const std::string path = std::string(key) + "[#" + std::to_string(index) + "]";
    if (!elem.is_table()) root.source().fail(line_of(elem), path, "expected a table, got " + type_name(elem), header);
    out.emplace_back(root.source(), *elem.as_table(), path);
  }
  return out;
}

using keff::name_rule;
using keff::tally_name_rule;
using keff::valid_name;
using keff::valid_tally_name;

}  // namespace keff::detail
