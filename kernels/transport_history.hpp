#pragma once
// History-based transport: one thread follows one neutron from its source site until it is absorbed,
// leaks or is lost. Each flight: cross sections at the particle's energy, distance to collision, distance
// to the nearest boundary, move, then cross the boundary or collide. Estimators accumulate in registers
// and reach the batch total through a fixed-point parallel reduction (order-independent).
#include "batch_control.hpp"
#include "fission_bank.hpp"
#include "geometry.hpp"
#include "particle.hpp"
#include "site.hpp"
#include "tally_data.hpp"
#include "workspace.hpp"

namespace keff {

template <class Exec, class Physics>
struct HistoryTransport {
  using Mem = typename Exec::memory_space;
  using value_type = BatchCounters;

  GeometryParams<Mem> geometry;
  Physics physics;
  Kokkos::View<const Site*, Mem> source;
  FissionBank<Mem> bank;
  MeshTally<Mem> mesh;
  LostRecord<Mem> lost;
  Workspace<Exec> ws;
  BatchControl control;

  KOKKOS_INLINE_FUNCTION Particle start(std::int64_t i) const {
    const Site& s = source(i);
    Particle p;
    p.r = s.r;
    p.u = s.u;
    p.energy = s.energy;
    p.group = s.group;
    p.weight = s.weight;
    p.index = control.first_index + i;
    p.rng = history_rng(control.seed, RngStream::tracking, control.batch, control.n_global,
                        static_cast<std::uint64_t>(p.index));
    return p;
  }

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, BatchCounters& sums) const {
    Kokkos::Experimental::AcquireUniqueToken<Exec> token(ws.token);
    const auto cache = Kokkos::subview(ws.micro_xs, token.value(), Kokkos::ALL);

    Particle p = start(i);
    Real k_col = 0, k_abs = 0, k_tl = 0;
    if (!locate(geometry, p.r, p.u, p.geo)) {
      lose(p, sums);
      return;
    }
    // Cross sections change only with material or energy; a crossing between cells of the same
    // material (a lattice wall in water, say) keeps them, and keeps the micro-XS cache valid too.
    MacroXs xs;
    int xs_material = -2;
    Real xs_energy = -1;
    int xs_group = -1;
    while (p.alive) {
      if (++p.n_events > control.max_events) {
        lose(p, sums);
        break;
      }
      if (p.geo.material != xs_material || p.energy != xs_energy || p.group != xs_group) {
        xs = physics.macro_xs(p, cache);
        xs_material = p.geo.material;
        xs_energy = p.energy;
        xs_group = p.group;
      }
      const Real d_collision =
          xs.total > 0 ? -Kokkos::log(1.0 - p.rng.next()) / xs.total : constants::infinity;
      const BoundaryHit hit = distance_to_boundary(geometry, p.geo, p.r, p.u);
      const Real d = Kokkos::fmin(d_collision, hit.distance);
      if (!(d < constants::infinity)) {  // streaming forever in a void: a geometry error
        lose(p, sums);
        break;
      }
      k_tl += p.weight * d * xs.nu_fission;
      p.r = p.r + d * p.u;

      if (hit.distance <= d_collision) {
        const CrossingResult crossed = cross_boundary(geometry, p.geo, p.r, p.u, hit);
        if (crossed == CrossingResult::leaked) {
          p.alive = false;
          ++sums.leaked;
        } else if (crossed == CrossingResult::lost) {
          lose(p, sums);
        }
        continue;
      }
      ++sums.collisions;
      k_col += p.weight * xs.nu_fission / xs.total;
      mesh.score_collision(p, xs);
      k_abs += physics.collide(p, xs, cache, bank, control.k_prev).k_absorption;
    }
    sums.k_collision += to_fixed<estimator_fraction_bits>(k_col);
    sums.k_absorption += to_fixed<estimator_fraction_bits>(k_abs);
    sums.k_tracklength += to_fixed<estimator_fraction_bits>(k_tl);
  }

  KOKKOS_INLINE_FUNCTION void lose(Particle& p, BatchCounters& sums) const {
    p.alive = false;
    ++sums.lost;
    lost.record(p);
  }

  KOKKOS_INLINE_FUNCTION void init(BatchCounters& v) const { v = BatchCounters{}; }
  KOKKOS_INLINE_FUNCTION void join(BatchCounters& dst, const BatchCounters& src) const { dst += src; }
};

// Runs one batch of histories over source sites [0, n) on `exec`.
template <class Exec, class Physics>
BatchCounters transport_histories(const Exec& exec, const HistoryTransport<Exec, Physics>& kernel,
                                  std::int64_t n) {
  Kokkos::Profiling::ScopedRegion region("keff::transport::histories");
  BatchCounters sums;
  Kokkos::parallel_reduce("keff::transport::histories",
                          Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>(exec, 0, n),
                          kernel, sums);
  return sums;
}

}  // namespace keff
