#pragma once
// Scoring tallies from the transport steps: a flight (track-length estimator), a collision about to
// happen (collision estimator) and what a collision did (analog estimator). Each contribution is rounded
// to fixed point (tally_fraction_bits) and added as an integer, so a batch's sums are the same bits for
// any thread count, rank count, transport mode or domain decomposition (kernels/fixed_point.hpp): on the
// host into the thread's own copy of the sums (kernels/scatter_sums.hpp) where the copies fit in
// tally_copies_max_bytes (kernels/transport/transport_state.hpp), otherwise and on GPUs with an atomic.
#include "kernels/collision_outcome.hpp"
#include "kernels/fixed_point.hpp"
#include "kernels/scatter_sums.hpp"
#include "kernels/tally/mesh_track.hpp"
#include "kernels/tally/tally_filters.hpp"
#include "kernels/tally/tally_params.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// The state before a collision that its analog scores need: the direction, energy and group it happened
// with (the scattering changes them), the weight and the cross sections.
struct TallyCollision {
  Vec3 u;
  Real energy = 0;
  int group = 0;
  Real weight = 0;
  MacroXs xs;
};

namespace detail {

// A score's macroscopic rate per unit flux: what a track length or a collision estimate multiplies.
KOKKOS_INLINE_FUNCTION Real rate_of(TallyScore s, const MacroXs& xs) {
  switch (s) {
    case TallyScore::flux: return 1;
    case TallyScore::total: return xs.total;
    case TallyScore::absorption: return xs.absorption;
    case TallyScore::scatter: return xs.total - xs.absorption;
    case TallyScore::fission: return xs.fission;
    case TallyScore::nu_fission: return xs.nu_fission;
    case TallyScore::events:
    case TallyScore::inelastic:
    case TallyScore::n2n: break;
  }
  return 0;
}

// What one collision scores analog: every collision its weight (total) and a count (events), an
// absorption its weight and its expected fission and neutron production, a scattering its weight, and
// an inelastic or (n,2n) reaction (MT 51-91, 16) its weight.
KOKKOS_INLINE_FUNCTION Real analog_value(TallyScore s, const TallyCollision& c, bool absorbed, int mt) {
  const Real per_absorption = c.xs.absorption > 0 ? c.weight / c.xs.absorption : 0;
  switch (s) {
    case TallyScore::total: return c.weight;
    case TallyScore::events: return 1;
    case TallyScore::absorption: return absorbed ? c.weight : 0;
    case TallyScore::scatter: return absorbed ? 0 : c.weight;
    case TallyScore::fission: return absorbed ? per_absorption * c.xs.fission : 0;
    case TallyScore::nu_fission: return absorbed ? per_absorption * c.xs.nu_fission : 0;
    case TallyScore::inelastic: return mt >= 51 && mt <= 91 ? c.weight : 0;
    case TallyScore::n2n: return mt == 16 ? c.weight : 0;
    case TallyScore::flux: break;
  }
  return 0;
}

}  // namespace detail

// What transport scores into: the tallies' Params and this batch's fixed-point sums, or on the host
// each thread's copy of them.
template <class Mem>
struct Tallies {
  TallyParams<Mem> params;
  Kokkos::View<Fixed*, Mem> sums;
  ScatterSums<Fixed*, Mem> copies;  // with per_thread: what each thread adds to, gathered into sums
  bool per_thread = false;

  // A flight from r0 over distance d along p.u, in the particle's cell, material and energy; called
  // before the particle moves (kernels/transport/step_advance.hpp).
  KOKKOS_INLINE_FUNCTION void score_flight(const GeometryParams<Mem>& g, const Particle& p, Vec3 r0, Real d) const {
    if (!params.tracklength || !(d > 0)) return;
    for (int i = 0; i < params.n_tallies(); ++i) {
      const TallyLayout t = params.tallies(i);
      if (t.estimator != TallyEstimator::tracklength) continue;
      const auto rate = [&](TallyScore s) { return detail::rate_of(s, p.xs); };
      if (!scores_anything(t, rate)) continue;
      FilterMatches m[max_tally_filters];
      if (!match_filters(g, t, {r0, p.u, p.energy, p.group}, p.geo, true, m)) continue;
      if (t.mesh_filter < 0) {
        add(t, m, -1, p.weight * d, rate);
        continue;
      }
      const TallyFilterParams mesh = params.filters(t.first_filter + t.mesh_filter);
      for_each_mesh_piece(params.meshes(mesh.mesh), r0, p.u, d,
                          [&](int bin, Real length) { add(t, m, bin, p.weight * length, rate); });
    }
  }

  // The collision estimator at a collision about to happen, with the cross sections it happens with.
  KOKKOS_INLINE_FUNCTION void score_collision(const GeometryParams<Mem>& g, const Particle& p, const MacroXs& xs) const {
    if (!params.collision || !(xs.total > 0)) return;
    for (int i = 0; i < params.n_tallies(); ++i) {
      const TallyLayout t = params.tallies(i);
      if (t.estimator != TallyEstimator::collision) continue;
      FilterMatches m[max_tally_filters];
      if (!match_filters(g, t, {p.r, p.u, p.energy, p.group}, p.geo, false, m)) continue;
      add(t, m, -1, p.weight / xs.total, [&](TallyScore s) { return detail::rate_of(s, xs); });
    }
  }

  // The analog estimator once the collision `c` has happened, with `outcome`; `after` is the particle
  // afterwards (alive when it scattered), in the place and cells of the collision.
  KOKKOS_INLINE_FUNCTION void score_analog(const GeometryParams<Mem>& g, const TallyCollision& c,
                                           const CollisionOutcome& outcome, const Particle& after) const {
    if (!params.analog) return;
    const bool absorbed = !after.alive();
    for (int i = 0; i < params.n_tallies(); ++i) {
      const TallyLayout t = params.tallies(i);
      if (t.estimator != TallyEstimator::analog) continue;
      FilterMatches m[max_tally_filters];
      if (!match_filters(g, t, {after.r, c.u, c.energy, c.group}, after.geo, false, m)) continue;
      add(t, m, -1, 1, [&](TallyScore s) { return detail::analog_value(s, c, absorbed, outcome.mt); });
    }
  }

 private:
  // Every filter's bins for tally t; false when some filter has none (nothing to score). With
  // `split_mesh` the mesh filter is left to the caller, which walks the flight through the mesh.
  KOKKOS_INLINE_FUNCTION bool match_filters(const GeometryParams<Mem>& g, const TallyLayout& t, const FilterPoint& x,
                                            const GeometryState& s, bool split_mesh, FilterMatches* m) const {
    for (int j = 0; j < t.n_filters; ++j) {
      if (split_mesh && j == t.mesh_filter) {
        m[j].n = 1;  // the mesh bin comes with each piece of the flight
        continue;
      }
      match_filter(params, g, params.filters(t.first_filter + j), x, s, m[j]);
      if (m[j].n == 0) return false;
    }
    return true;
  }

  // Whether some score of tally t has a positive rate: a flight where none has (a fission tally's flight
  // through water, most of a reactor's) adds nothing anywhere, so its bins are not looked for.
  template <class Rate>
  KOKKOS_INLINE_FUNCTION bool scores_anything(const TallyLayout& t, const Rate& rate) const {
    for (int k = 0; k < t.n_scores; ++k) {
      if (rate(params.scores(t.first_score + k)) > 0) return true;
    }
    return false;
  }

  // Adds amount * rate(score) to every score of tally t in each bin the filters' matches combine into
  // (with mesh_bin >= 0, the mesh filter's bin is mesh_bin).
  template <class Rate>
  KOKKOS_INLINE_FUNCTION void add(const TallyLayout& t, const FilterMatches* m, int mesh_bin, Real amount,
                                  const Rate& rate) const {
    int pick[max_tally_filters] = {};
    for (;;) {
      std::int64_t bin = 0;
      for (int j = 0; j < t.n_filters; ++j) {
        const int b = j == t.mesh_filter && mesh_bin >= 0 ? mesh_bin : m[j].bin[pick[j]];
        bin += b * params.filters(t.first_filter + j).stride;
      }
      const std::int64_t base = t.offset + bin * t.n_scores;
      for (int k = 0; k < t.n_scores; ++k) {
        const Real value = amount * rate(params.scores(t.first_score + k));
        if (value > 0) add_fixed(base + k, to_fixed<tally_fraction_bits>(value));
      }
      int j = t.n_filters - 1;  // the next combination, the last filter fastest
      while (j >= 0 && ++pick[j] == m[j].n) pick[j--] = 0;
      if (j < 0) return;
    }
  }

  // One fixed-point value into sum i: plain into this thread's copy, or atomically into the batch's sums.
  KOKKOS_INLINE_FUNCTION void add_fixed(std::int64_t i, Fixed value) const {
    if constexpr (sums_per_thread<Mem>) {
      if (per_thread) {
        copies.access()(i) += value;
        return;
      }
    }
    Kokkos::atomic_add(&sums(i), value);
  }
};

}  // namespace keff
