#pragma once
// What every step of every history reads and writes in one batch: the geometry and physics Params, the
// fission bank, the tallies, CMFD's coarse-mesh tally (inactive without CMFD), the lost-particle
// record and the batch's control values. History-based and event-based transport hold one each and pass
// it to the same step functions (kernels/transport/step_*.hpp).
#include "kernels/batch_control.hpp"
#include "kernels/cmfd_tally.hpp"
#include "kernels/fission_bank.hpp"
#include "kernels/geometry_data.hpp"
#include "kernels/lost_record.hpp"
#include "kernels/particle.hpp"
#include "kernels/tally/tally_score.hpp"

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

  // The particle cannot go on: outside every cell, a flight to infinity, or too many events (`reason`).
  KOKKOS_INLINE_FUNCTION void lose(Particle& p, LostReason reason) const {
    p.fate = Fate::lost;
    lost.record(p, reason);
  }
};

}  // namespace keff
