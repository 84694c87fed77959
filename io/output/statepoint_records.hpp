#pragma once
// What every part of a statepoint is written and checked with: the content checksum's words, and the
// tables of records (BatchResult, Site, CmfdResult) as one dataset per field of the record's list
// (for_each_field, io/output/run_results.hpp), read back with every dataset's shape checked first.
// Shared by statepoint.cpp and statepoint_cmfd.cpp.
#include "io/checksum.hpp"
#include "io/hdf5_file.hpp"
#include "io/output/run_results.hpp"
#include "io/output_error.hpp"

#include <bit>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace keff::detail {

// The checksum of everything a restart or a reader of the results reads, word by word (io/checksum.hpp),
// over the values as held in RunResults, so the writer and the reader compute it alike.
class ContentChecksum {
 public:
  void add(std::string_view text) { add(checksum64(text.data(), text.size())); }
  void add(std::span<const double> v) { add(checksum64(v.data(), v.size_bytes())); }
  void add(std::uint64_t word) { words_.push_back(word); }
  void add_real(double v) { add(std::bit_cast<std::uint64_t>(v)); }
  // A field of a record's list: a real by its bits, a vector as three, an integer or a flag as a word.
  template <class T>
  void add_field(const T& v) {
    if constexpr (std::is_same_v<T, Vec3>) {
      for (int d = 0; d < 3; ++d) add_real(v[d]);
    } else if constexpr (std::is_floating_point_v<T>) {
      add_real(v);
    } else {
      add(static_cast<std::uint64_t>(v));
    }
  }
  // A flag in the low bit of the word before it.
  void add_flag(bool v) { words_.back() = words_.back() * 2 + (v ? 1 : 0); }
  std::uint64_t value() const { return checksum64(words_.data(), words_.size() * sizeof(std::uint64_t)); }

 private:
  std::vector<std::uint64_t> words_;
};

// A batch: its integers, the flag `active` in the low bit of the batch number before it, then its reals,
// each in its list's order (the words statepoints of this version are checked with).
inline void add_batch(ContentChecksum& c, const BatchResult& b) {
  for_each_field(b, [&](const char*, const auto& v) {
    using T = std::decay_t<decltype(v)>;
    if constexpr (std::is_same_v<T, bool>) {
      c.add_flag(v);
    } else if constexpr (std::is_integral_v<T>) {
      c.add_field(v);
    }
  });
  for_each_field(b, [&](const char*, const auto& v) {
    if constexpr (std::is_floating_point_v<std::decay_t<decltype(v)>>) c.add_field(v);
  });
}

// A site or a CMFD solve: its fields in its list's order.
template <class Record>
void add_fields(ContentChecksum& c, const Record& record) {
  for_each_field(record, [&](const char*, const auto& v) { c.add_field(v); });
}

// ---------------------------------------------------------------------------------------------------
// Tables: /batches, /source_bank and CMFD's solves hold records (BatchResult, Site, CmfdResult) as one
// dataset per field of the record's list (for_each_field), in the list's order, each with that field of
// every record: integers and flags int64 [n], reals float64 [n], vectors float64 [n][3].

// One field of every record.
struct Column {
  const char* name;
  std::size_t width;  // values per record
  bool real;          // float64, else int64
  std::vector<std::int64_t> ints;
  std::vector<double> reals;
};

template <class T>
Column empty_column(const char* name) {
  constexpr bool vec3 = std::is_same_v<T, Vec3>;
  return {name, vec3 ? 3u : 1u, vec3 || std::is_floating_point_v<T>, {}, {}};
}

template <class T>
void append(Column& c, const T& v) {
  if constexpr (std::is_same_v<T, Vec3>) {
    c.reals.insert(c.reals.end(), {v.x, v.y, v.z});
  } else if constexpr (std::is_floating_point_v<T>) {
    c.reals.push_back(v);
  } else {
    c.ints.push_back(static_cast<std::int64_t>(v));
  }
}

template <class T>
void assign(T& v, const Column& c, std::size_t row) {
  if constexpr (std::is_same_v<T, Vec3>) {
    v = {c.reals[3 * row], c.reals[3 * row + 1], c.reals[3 * row + 2]};
  } else if constexpr (std::is_floating_point_v<T>) {
    v = c.reals[row];
  } else if constexpr (std::is_same_v<T, bool>) {
    v = c.ints[row] != 0;
  } else {
    v = static_cast<T>(c.ints[row]);
  }
}

// A record type's columns, named and typed by its list, with no values yet.
template <class Record>
std::vector<Column> empty_columns() {
  std::vector<Column> columns;
  const Record blank{};
  for_each_field(blank, [&](const char* name, const auto& v) {
    columns.push_back(empty_column<std::decay_t<decltype(v)>>(name));
  });
  return columns;
}

template <class Record>
void write_table(const H5Group& g, const std::vector<Record>& records) {
  auto columns = empty_columns<Record>();
  for (Column& c : columns) {  // one allocation per column: a bank holds up to millions of sites
    c.ints.reserve(c.real ? 0 : records.size() * c.width);
    c.reals.reserve(c.real ? records.size() * c.width : 0);
  }
  for (const Record& record : records) {
    auto column = columns.begin();
    for_each_field(record, [&](const char*, const auto& v) { append(*column++, v); });
  }
  for (const Column& c : columns) {
    const std::vector<std::size_t> shape =
        c.width == 1 ? std::vector<std::size_t>{} : std::vector<std::size_t>{records.size(), c.width};
    if (c.real) {
      g.write(c.name, c.reals, shape);
    } else {
      g.write(c.name, c.ints, shape);
    }
  }
}

// The length of dataset `name` in `g` (its values over `width`, a row's size), checked before anything is
// allocated for it: at most `max` rows, and `expected` rows when given. A crafted file can announce any
// shape; the checksum is only compared once everything is read.
inline std::size_t rows_of(const std::string& path, const H5Group& g, const std::string& group, const char* name,
                    std::size_t width, std::int64_t max, std::optional<std::size_t> expected = std::nullopt) {
  const auto shape = g.shape(name);
  std::size_t values = 1;
  for (const auto d : shape) values = d != 0 && values > std::numeric_limits<std::size_t>::max() / d ? 0 : values * d;
  const bool ok = !shape.empty() && shape[0] <= static_cast<std::size_t>(max) && values == shape[0] * width &&
                  (!expected || shape[0] == *expected);
  if (!ok) {
    std::string dims;
    for (const auto d : shape) dims += (dims.empty() ? "" : " x ") + std::to_string(d);
    throw OutputError("statepoint '" + path + "': dataset '/" + group + "/" + name + "' has shape [" + dims +
                      "] (allowed: " + (expected ? std::to_string(*expected) : "at most " + std::to_string(max)) +
                      " rows of " + std::to_string(width) + ")");
  }
  return shape[0];
}

// The records of a table in group `g` (named `group` in messages): at most `max` of them, and `rows` when
// given, else as many as its first field has. Each dataset's shape is checked before it is read.
template <class Record>
std::vector<Record> read_table(const std::string& path, const H5Group& g, const std::string& group, std::int64_t max,
                               std::optional<std::size_t> rows = std::nullopt) {
  auto columns = empty_columns<Record>();
  for (Column& c : columns) {
    rows = rows_of(path, g, group, c.name, c.width, max, rows);
    if (c.real) {
      c.reals = g.read_doubles(c.name);
    } else {
      c.ints = g.read_int64s(c.name);
    }
  }
  std::vector<Record> records(rows.value_or(0));
  for (std::size_t i = 0; i < records.size(); ++i) {
    auto column = columns.cbegin();
    for_each_field(records[i], [&](const char*, auto& v) { assign(v, *column++, i); });
  }
  return records;
}

}  // namespace keff::detail
