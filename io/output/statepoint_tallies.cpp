#include "io/output/statepoint_tallies.hpp"

#include "io/limits.hpp"
#include "io/names.hpp"
#include "io/output/results_check.hpp"
#include "io/output_error.hpp"
#include "io/printable.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace keff::detail {

namespace {

// The results' shape: the bins of each filter, then the scores.
std::vector<std::size_t> shape_of(const TallyResult& t) {
  std::vector<std::size_t> shape;
  for (const auto& f : t.filters) shape.push_back(static_cast<std::size_t>(f.bins));
  shape.push_back(t.scores.size());
  return shape;
}

void write_filter(const H5Group& g, const TallyFilterResult& f) {
  g.set_attribute("kind", f.kind);
  g.set_attribute("form", f.form);
  g.set_attribute("units", f.units);
  g.set_attribute("bins", f.bins);
  if (carries_mesh_box(f.kind)) {
    g.write("shape", std::vector<std::int64_t>(f.shape.begin(), f.shape.end()));
    g.write("lower", std::vector<double>(f.lower.begin(), f.lower.end()));
    g.write("upper", std::vector<double>(f.upper.begin(), f.upper.end()));
  }
  if (!f.bounds.empty()) g.write("bounds", f.bounds);
  if (!f.names.empty()) g.write("names", std::span<const std::string>(f.names));
  if (!f.positions.empty()) {
    std::vector<double> xyz;
    for (const auto& p : f.positions) xyz.insert(xyz.end(), p.begin(), p.end());
    g.write("positions", xyz, {f.positions.size(), 3});
  }
}

// That dataset `name` in `g` holds exactly `expected` values, checked before anything is read.
void expect_values(const H5Group& g, const std::string& path, const std::string& name, std::size_t expected) {
  std::size_t values = 1;
  for (const auto d : g.shape(name)) values = d != 0 && values > limits::max_tally_values / d ? 0 : values * d;
  if (values != expected) {
    throw OutputError("statepoint '" + printable_cut(path) + "': dataset '" + g.path() + "/" + name + "' holds " +
                      std::to_string(values) + " values (allowed: " + std::to_string(expected) + ")");
  }
}

std::vector<double> read_values(const H5Group& g, const std::string& path, const std::string& name, std::size_t expected) {
  expect_values(g, path, name, expected);
  return g.read_doubles(name);
}

std::vector<std::int64_t> read_int64s(const H5Group& g, const std::string& path, const std::string& name,
                                      std::size_t expected) {
  expect_values(g, path, name, expected);
  return g.read_int64s(name);
}

std::vector<std::string> read_strings(const H5Group& g, const std::string& path, const std::string& name,
                                      std::size_t expected) {
  expect_values(g, path, name, expected);
  return g.read_strings(name);
}

TallyFilterResult read_filter(const H5Group& g, const std::string& path) {
  TallyFilterResult f;
  f.kind = g.attribute_string("kind");
  f.form = g.attribute_string("form");
  f.units = g.attribute_string("units");
  f.bins = g.attribute_int64("bins");
  if (f.bins < 1 || f.bins > limits::max_tally_values) {
    throw OutputError("statepoint '" + printable_cut(path) + "': " + g.path() + " has " + std::to_string(f.bins) + " bins");
  }
  const auto n = static_cast<std::size_t>(f.bins);
  if (carries_mesh_box(f.kind)) {
    const auto shape = read_int64s(g, path, "shape", 3);
    const auto lower = read_values(g, path, "lower", 3), upper = read_values(g, path, "upper", 3);
    for (std::size_t a = 0; a < 3; ++a) {
      f.shape[a] = static_cast<int>(std::clamp<std::int64_t>(shape[a], 0, limits::max_tally_values + 1));
      f.lower[a] = lower[a];
      f.upper[a] = upper[a];
    }
  }
  if (g.contains("bounds")) f.bounds = read_values(g, path, "bounds", n + 1);
  if (g.contains("names")) f.names = read_strings(g, path, "names", n);
  if (g.contains("positions")) {
    const auto xyz = read_values(g, path, "positions", 3 * n);
    for (std::size_t i = 0; i < n; ++i) f.positions.push_back({xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2]});
  }
  return f;
}

}  // namespace

void write_tallies(const H5Group& tallies, const std::vector<TallyResult>& results) {
  std::vector<std::string> names;
  for (const auto& t : results) names.push_back(t.name);
  tallies.write("names", std::span<const std::string>(names));
  for (const auto& t : results) {
    const H5Group g = tallies.create_group(t.name);
    g.set_attribute("estimator", t.estimator);
    g.write("scores", std::span<const std::string>(t.scores));
    g.write("units", std::span<const std::string>(t.units));
    const H5Group filters = g.create_group("filters");
    for (std::size_t i = 0; i < t.filters.size(); ++i) write_filter(filters.create_group(std::to_string(i)), t.filters[i]);
    const auto shape = shape_of(t);
    g.write("mean", t.mean, shape);
    g.write("std_dev", t.std_dev, shape);
    g.write("sum", t.sum);
    g.write("sum_sq", t.sum_sq);
  }
}

std::vector<TallyResult> read_tallies(const H5Group& tallies, const std::string& path) {
  std::vector<TallyResult> out;
  const auto names_shape = tallies.shape("names");
  if (names_shape.size() != 1 || names_shape[0] > static_cast<std::size_t>(limits::max_tally_values)) {
    throw OutputError("statepoint '" + printable_cut(path) + "': /tallies/names is not a list of tally names");
  }
  for (const auto& name : tallies.read_strings("names")) {
    if (!valid_tally_name(name)) {
      throw OutputError("statepoint '" + printable_cut(path) + "': /tallies/names lists '" + printable_cut(name) +
                        "' (allowed: " + std::string(tally_name_rule) + ")");
    }
    if (!tallies.contains(name)) throw OutputError("statepoint '" + printable_cut(path) + "': tally '" + name + "' is listed but absent");
    const H5Group g = tallies.open_group(name);
    TallyResult t;
    t.name = name;
    const auto sum_shape = g.shape("sum");
    if (sum_shape.size() != 1 || sum_shape[0] > static_cast<std::size_t>(limits::max_tally_values)) {
      throw OutputError("statepoint '" + printable_cut(path) + "': " + g.path() + "/sum is larger than a run writes");
    }
    t.sum = g.read_doubles("sum");
    t.sum_sq = read_values(g, path, "sum_sq", t.sum.size());
    {
      t.estimator = g.attribute_string("estimator");
      const auto scores = g.shape("scores");
      if (scores.size() != 1 || scores[0] < 1 || scores[0] > tally_score_count) {
        throw OutputError("statepoint '" + printable_cut(path) + "': " + g.path() + "/scores is not a list of 1 to " +
                          std::to_string(tally_score_count) + " scores");
      }
      t.scores = g.read_strings("scores");
      t.units = read_strings(g, path, "units", t.scores.size());
      const H5Group filters = g.open_group("filters");
      for (std::size_t i = 0; i <= static_cast<std::size_t>(max_tally_filters) && filters.contains(std::to_string(i)); ++i) {
        t.filters.push_back(read_filter(filters.open_group(std::to_string(i)), path));
      }
      t.mean = read_values(g, path, "mean", t.sum.size());
      t.std_dev = read_values(g, path, "std_dev", t.sum.size());
      if (std::string what = tally_description_problem(t); !what.empty()) {
        throw OutputError("statepoint '" + printable_cut(path) + "': tally '" + printable_cut(name) + "': " + what);
      }
    }
    out.push_back(std::move(t));
  }
  return out;
}

}  // namespace keff::detail
