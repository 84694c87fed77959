#pragma once
// What a tally can score, with which estimator and by which filters: the one list of each, read by the
// input reader, the device scoring, the output writers and the checks alike (a score's name, units and
// estimators are written here once). No Kokkos: host-only code includes this.
#include "kernels/vocabulary/enum_names.hpp"

#include <array>
#include <cstddef>
#include <span>
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

enum class TallyScore : int { flux = 0, total, absorption, scatter, fission, nu_fission, events };

// A score: its name in the input and outputs, its units (per source particle, like k, so per unit of
// source weight) and the estimators that can make it. Flux has no analog estimate (a collision is not
// a path length); events (collisions) are counted only as they happen.
struct TallyScoreInfo {
  TallyScore score;
  std::string_view name;
  std::string_view units;
  bool tracklength, collision, analog;

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
};
inline constexpr std::size_t tally_score_count = std::size(tally_scores);

constexpr const TallyScoreInfo& info_of(TallyScore s) { return tally_scores[static_cast<std::size_t>(s)]; }

namespace detail {
constexpr auto tally_score_name_table() {
  std::array<EnumName<TallyScore>, tally_score_count> names{};
  for (std::size_t i = 0; i < tally_score_count; ++i) names[i] = {tally_scores[i].score, tally_scores[i].name};
  return names;
}
inline constexpr auto tally_score_names = tally_score_name_table();
}  // namespace detail
constexpr std::span<const EnumName<TallyScore>> enum_names(TallyScore) { return detail::tally_score_names; }

// The filters a tally's bins are a product of (examples/INPUT.md, "`[[mesh]]` and `[[tally]]`"):
//   mesh           the bin of a regular mesh the particle is in (a track is split at the mesh planes)
//   cell           a listed cell the particle is in, at any level of the geometry
//   material       the listed material it is in
//   universe       a listed universe it is in, at any level
//   cell_instance  one placement of a listed cell in the lattices (OpenMC's distribcell): pin by pin
//   energy         an energy band, continuous energy (bounds in eV)
//   group          a group of the multigroup data, one bin each
enum class TallyFilterKind : int { mesh = 0, cell, material, universe, cell_instance, energy, group };
inline constexpr EnumName<TallyFilterKind> tally_filter_names[] = {
    {TallyFilterKind::mesh, "mesh"},         {TallyFilterKind::cell, "cell"},
    {TallyFilterKind::material, "material"}, {TallyFilterKind::universe, "universe"},
    {TallyFilterKind::cell_instance, "cell_instance"}, {TallyFilterKind::energy, "energy"},
    {TallyFilterKind::group, "group"}};
constexpr std::span<const EnumName<TallyFilterKind>> enum_names(TallyFilterKind) { return tally_filter_names; }

// Whether a filter's bin depends on the particle's geometry levels (cells, universes, placements): an
// event that scores it at collisions must load the slot's geometry fields (TallyParams'
// geometry_at_collisions, set from this; match_filter checks the levels are there).
constexpr bool filter_reads_levels(TallyFilterKind kind) {
  return kind == TallyFilterKind::cell || kind == TallyFilterKind::universe ||
         kind == TallyFilterKind::cell_instance;
}

// A tally's filters at most, and the bins one filter can match at once (a cell or universe at every
// level of the geometry; kernels/tally/tally_filters.hpp).
inline constexpr int max_tally_filters = 6;

}  // namespace keff
