#pragma once
// What every step of every history reads and writes in one batch: the geometry and physics Params, the
// fission bank, the tallies, CMFD's coarse-mesh tally (inactive without CMFD), the lost-particle
// record, the batch's control values, the k sums of independent populations (settings.populations) and
// the secondary neutrons waiting in histories (evaluated data's (n,xn) reactions).
// History-based and event-based transport hold one each and pass it to the same step functions
// (kernels/transport/step_*.hpp).
#include "kernels/batch_control.hpp"
#include "kernels/cmfd_tally.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/geometry.hpp"
#include "kernels/lost_record.hpp"
#include "kernels/particle.hpp"
#include "kernels/population_scores.hpp"
#include "kernels/tally/tally_score.hpp"
#include "kernels/transport/secondary_stack.hpp"
#include "kernels/transport/step_finish.hpp"

namespace keff {

template <class Mem, class Physics>
struct TransportContext {
  GeometryParams<Mem> geometry;
  Physics physics;
  FissionBank<Mem> bank;
  Tallies<Mem> tallies;
  CmfdTally<Mem> cmfd;
  LostRecord<Mem> lost;
  BatchControl control;
  PopulationScores<Mem> populations;
  SecondaryStack<Mem> secondaries;

  // The particle cannot go on: outside every cell, a flight to infinity, or too many events (`reason`).
  KOKKOS_INLINE_FUNCTION void lose(Particle& p, LostReason reason) const {
    p.fate = Fate::lost;
    lost.record(p, reason);
  }

  // A history has ended: its estimator scores into the batch's counters and its population's row.
  KOKKOS_INLINE_FUNCTION void finish(const Particle& p, BatchCounters& sums) const {
    finish_history(p, sums);
    populations.score(p);
  }

  // Once p has ended (and finish counted it): the next secondary neutron of its history becomes p, at
  // the collision that made it, with the history's random stream and fission-site count; counted as a
  // secondary start. Returns false when none waits. Both transport modes call it where a neutron ends.
  KOKKOS_INLINE_FUNCTION bool resume_secondary(Particle& p, BatchCounters& sums) const {
    if (p.secondary_top < 0) return false;
    const SecondaryRecord rec = secondaries.top(p);
    Particle next;
    next.r = rec.r;
    next.u = rec.u;
    next.energy = rec.energy;
    next.weight = rec.weight;
    next.urr_seed = p.urr_seed;
    next.rng = p.rng;
    next.index = p.index;
    next.n_progeny = p.n_progeny;
    next.secondary_top = rec.below;
    p = next;
    ++sums.secondaries;
    sums.weight_secondary += to_fixed<estimator_fraction_bits>(p.weight);
    if (!locate(geometry, p.r, p.u, p.geo)) lose(p, LostReason::at_source);
    cmfd.start(p);
    return true;
  }
};

}  // namespace keff
