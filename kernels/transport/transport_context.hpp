#pragma once
// What every step of every history reads and writes in one batch: the geometry and physics Params, the
// fission bank, the tallies, CMFD's coarse-mesh tally (inactive without CMFD), the lost-particle
// record, the batch's control values and the k sums of independent populations (settings.populations).
// History-based and event-based transport hold one each and pass it to the same step functions
// (kernels/transport/step_*.hpp).
#include "kernels/batch_control.hpp"
#include "kernels/cmfd_tally.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/geometry_data.hpp"
#include "kernels/lost_record.hpp"
#include "kernels/particle.hpp"
#include "kernels/population_scores.hpp"
#include "kernels/tally/tally_score.hpp"
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
};

}  // namespace keff
