#pragma once
// What a tally can score, with which estimator and by which filters: the one list of each, read by the
// input reader, the device scoring, the output writers and the checks alike (a score's name, units and
// estimators are written here once). No Kokkos: host-only code includes this.
#include "kernels/vocabulary/enum_names.hpp"
#include "kernels/vocabulary/types.hpp"

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

namespace keff {

// How a score is estimated (OpenMC's names and meanings):
//   tracklength  each flight scores its length times the rate's cross section (flight by flight the
//                particle is in one cell, material and energy; a mesh splits the flight at its planes);
//   collision    each collision scores the rate's cross section over the total one;
//   analog       each collision scores what happened in it (scattered or absorbed), weight by weight.
enum class TallyEstimator : int { tracklength = 0, collision = 1, analog = 2 };
inline constexpr EnumName<TallyEstimator> tally_estimator_names[] = {{TallyEstimator::tracklength, "tracklength"},
                                                                     {TallyEstimator::collision, "collision"},
                                                                     {TallyEstimator::analog, "analog"}};
constexpr std::span<const EnumName<TallyEstimator>> enum_names(TallyEstimator) { return tally_estimator_names; }

enum class TallyScore : int { flux = 0, total, absorption, scatter, fission, nu_fission, events, inelastic, n2n };

// A score: its name in the input and outputs, its units (per source particle, like k, so per unit of
// source weight) and the estimators that can make it. Flux has no analog estimate (a collision is not
// a path length); events (collisions) are counted only as they happen. Inelastic scattering (ENDF's
// MT 51-91, the levels and the continuum: OpenMC's "(n,level)") and (n,2n) (MT 16) are reactions only
// evaluated data tell apart, counted as they happen.
struct TallyScoreInfo {
  TallyScore score;
  std::string_view name;
  std::string_view units;
  bool tracklength, collision, analog;
  bool evaluated_only = false;  // a reaction of evaluated data ([nuclear_data] ace = true)

  constexpr bool estimated_by(TallyEstimator e) const {
    return e == TallyEstimator::tracklength ? tracklength : (e == TallyEstimator::collision ? collision : analog);
  }
};
inline constexpr TallyScoreInfo tally_scores[] = {
    {TallyScore::flux, "flux", "particle-cm per source particle", true, true, false},
    {TallyScore::total, "total", "reactions per source particle", true, true, true},
    {TallyScore::absorption, "absorption", "reactions per source particle", true, true, true},
    {TallyScore::scatter, "scatter", "reactions per source particle", true, true, true},
    {TallyScore::fission, "fission", "reactions per source particle", true, true, true},
    {TallyScore::nu_fission, "nu-fission", "neutrons per source particle", true, true, true},
    {TallyScore::events, "events", "collisions per source particle", false, false, true},
    {TallyScore::inelastic, "inelastic", "reactions per source particle", false, false, true, true},
    {TallyScore::n2n, "(n,2n)", "reactions per source particle", false, false, true, true},
};
inline constexpr std::size_t tally_score_count = std::size(tally_scores);

constexpr const TallyScoreInfo& info_of(TallyScore s) { return tally_scores[static_cast<std::size_t>(s)]; }

namespace detail {
inline constexpr auto tally_score_names = enum_name_table(tally_scores, &TallyScoreInfo::score);
}  // namespace detail
constexpr std::span<const EnumName<TallyScore>> enum_names(TallyScore) { return detail::tally_score_names; }

// The filters a tally's bins are a product of (examples/INPUT.md, "`[[mesh]]` and `[[tally]]`"). Each
// kind is one row of tally_filters below, the host's one description of it; match_filter
// (kernels/tally/tally_filters.hpp) is its one case on the device.
enum class TallyFilterKind : int { mesh = 0, cell, material, universe, cell_instance, energy, group, polar };

// Where a filter's bins come from: what its input key gives, how many bins that makes and how the
// outputs describe them (a mesh's shape and box, a name per bin, bounds, nothing for groups).
enum class FilterBins : int {
  mesh,        // one [[mesh]]: a bin per mesh bin
  names,       // listed cells, materials or universes: a bin each
  placements,  // listed cells: a bin per placement of each in the lattices, with its position
  bounds,      // ascending bounds: a bin between each two
  groups,      // nothing to give: a bin per group of the multigroup data
};
// A form: its name, which the outputs write beside each filter's kind (keff_results reads a filter by
// its form, so a new kind of an existing form needs nothing there), what the outputs hold of its bins
// (the statepoint, the JSON summary, their check and `keff tally show` read these flags, not the form)
// and the word of a bin that has nothing else to name it. Besides its row, a new form is a case in the
// four places that give its bins their meaning: the input's read (io/input/input_tally.cpp), the count
// (filter_bins, io/input/cell_placements.cpp), the device's parameters (src/params/build_tallies.cpp)
// and the outputs' description (src/tally/run_tallies.cpp).
struct FilterFormInfo {
  FilterBins form;
  std::string_view name;
  bool mesh_box;       // a mesh's shape (bins per axis) and box
  bool bin_names;      // a name per bin
  bool bin_positions;  // a position per bin
  bool bounds;         // bins + 1 ascending bounds
  std::string_view bin_word;
};
inline constexpr FilterFormInfo filter_forms[] = {
    {FilterBins::mesh, "mesh", true, false, false, false, ""},
    {FilterBins::names, "names", false, true, false, false, ""},
    {FilterBins::placements, "placements", false, true, true, false, ""},
    {FilterBins::bounds, "bounds", false, false, false, true, ""},
    {FilterBins::groups, "groups", false, false, false, false, "group"},
};
constexpr const FilterFormInfo& info_of(FilterBins form) { return filter_forms[static_cast<std::size_t>(form)]; }
static_assert([] {
  for (std::size_t i = 0; i < std::size(filter_forms); ++i) {
    if (static_cast<std::size_t>(filter_forms[i].form) != i) return false;
  }
  return true;
}());
inline constexpr auto filter_bins_names = enum_name_table(filter_forms, &FilterFormInfo::form);
constexpr std::span<const EnumName<FilterBins>> enum_names(FilterBins) { return filter_bins_names; }

// A `bounds` filter's range: the bounds the input may give (lowest to highest), and the values a particle
// takes (reach_low to reach_high; bins that all lie outside them never score, which the input refuses).
struct BoundsRange {
  double lowest = 0, highest = 0;
  double reach_low = 0, reach_high = 0;
};

// Where a range allows bounds, in words ("in [0, 3.14159]", ">= 0, at most 1e+300"), each number as
// `number` writes it: the input's message and the statepoint check's say it alike. A range open above
// still ends at constants::infinity, which the words say: a bound of 1e308 was refused under ">= 0".
template <class Number>
std::string allowed_bounds(const BoundsRange& range, Number number) {
  std::string text = range.highest < constants::infinity ? "in [" : ">= ";
  text += number(range.lowest);
  if (range.highest < constants::infinity) {
    text.append(", ").append(number(range.highest)).append("]");
  } else {
    text.append(", at most ").append(number(range.highest));
  }
  return text;
}

// What a `names` or `placements` filter lists.
enum class FilterItems : int { none, cells, materials, universes };

// The physics mode a filter works in.
enum class FilterPhysics : int { any, continuous_energy, multigroup };

// A filter kind: its name (in `filters`, the statepoint, the JSON summary and keff_results), the input
// key that gives its bins ("" when nothing is given) and what that key allows, where its bins come
// from, what it lists or the units and range of its bounds, whether its bin depends on the particle's geometry
// levels (cells, universes, placements: an event that scores it at collisions must load the slot's
// geometry fields, TallyParams' geometry_at_collisions; match_filter checks the levels are there), its
// physics mode and, for the other mode, what to use instead, and what it does (`keff tally filters`).
struct TallyFilterInfo {
  TallyFilterKind kind;
  std::string_view name;
  std::string_view bins_key;
  std::string_view bins_allowed;
  FilterBins bins;
  FilterItems items;
  std::string_view units;
  BoundsRange range;
  bool reads_levels;
  FilterPhysics physics;
  std::string_view instead;
  std::string_view description;
};
inline constexpr TallyFilterInfo tally_filters[] = {
    {TallyFilterKind::mesh, "mesh", "mesh", "the name of a [[mesh]]", FilterBins::mesh, FilterItems::none, "", {}, false,
     FilterPhysics::any, "", "the bin of a regular mesh the particle is in (a track is split at the mesh planes)"},
    {TallyFilterKind::cell, "cell", "cells", "names of [[cell]]s", FilterBins::names, FilterItems::cells, "", {}, true,
     FilterPhysics::any, "", "a listed cell the particle is in, at any level of the geometry"},
    {TallyFilterKind::material, "material", "materials", "names of [[material]]s", FilterBins::names,
     FilterItems::materials, "", {}, false, FilterPhysics::any, "", "the listed material it is in"},
    {TallyFilterKind::universe, "universe", "universes", "names of universes", FilterBins::names,
     FilterItems::universes, "", {}, true, FilterPhysics::any, "", "a listed universe it is in, at any level"},
    {TallyFilterKind::cell_instance, "cell_instance", "cell_instance", "names of [[cell]]s", FilterBins::placements,
     FilterItems::cells, "", {}, true, FilterPhysics::any, "",
     "one placement of a listed cell in the lattices (OpenMC's distribcell): pin by pin"},
    {TallyFilterKind::energy, "energy", "energy", "energies", FilterBins::bounds, FilterItems::none, "eV",
     {0, constants::infinity, constants::energy_min_ev, constants::energy_max_ev}, false, FilterPhysics::continuous_energy, "the group filter: one bin per group of the data",
     "an energy band, continuous energy (bounds in eV)"},
    {TallyFilterKind::group, "group", "", "", FilterBins::groups, FilterItems::none, "", {}, false,
     FilterPhysics::multigroup,
     "the energy filter, with bounds in eV", "a group of the multigroup data, one bin each"},
    {TallyFilterKind::polar, "polar", "polar", "polar angles", FilterBins::bounds, FilterItems::none, "rad",
     {0, constants::pi, 0, constants::pi}, false, FilterPhysics::any, "",
     "the angle of the direction from +z, acos(u_z) (OpenMC's polar filter): of the flight, or at a collision "
     "of the particle coming in"},
};
inline constexpr std::size_t tally_filter_count = std::size(tally_filters);

constexpr const TallyFilterInfo& info_of(TallyFilterKind kind) { return tally_filters[static_cast<std::size_t>(kind)]; }

// Rows in the enum's order, so info_of is an index.
static_assert([] {
  for (std::size_t i = 0; i < tally_filter_count; ++i) {
    if (static_cast<std::size_t>(tally_filters[i].kind) != i) return false;
  }
  return true;
}());

namespace detail {
inline constexpr auto tally_filter_names = enum_name_table(tally_filters, &TallyFilterInfo::kind);
}  // namespace detail
constexpr std::span<const EnumName<TallyFilterKind>> enum_names(TallyFilterKind) { return detail::tally_filter_names; }

// The row of the filter kind called `name`, or none: the outputs hold kinds by name.
constexpr const TallyFilterInfo* filter_named(std::string_view name) {
  for (const auto& f : tally_filters) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// "a group filter", "an energy filter": a kind in a message.
inline std::string a_filter(std::string_view name) {
  std::string text = !name.empty() && std::string_view("aeiou").find(name.front()) != std::string_view::npos ? "an " : "a ";
  text += name;
  text += " filter";
  return text;
}

// Whether the outputs hold a mesh's shape and box for the filter kind called `name`.
constexpr bool carries_mesh_box(std::string_view name) {
  const TallyFilterInfo* f = filter_named(name);
  return f != nullptr && info_of(f->bins).mesh_box;
}

// A tally's filters at most, and the bins one filter can match at once (a cell or universe at every
// level of the geometry; kernels/tally/tally_filters.hpp).
inline constexpr int max_tally_filters = 6;

}  // namespace keff
