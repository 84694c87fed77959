#pragma once
// Secondary neutrons: the extra neutrons of an (n,2n), (n,3n), (n,n'alpha) ... collision wait here until
// the neutron that made them has ended, then are transported one after the other in the same history
// (kernels/transport/step_secondary.hpp), last made first, continuing its random stream and its count
// of fission sites. That order is the same in history- and event-based transport and on any rank or
// thread count, so results keep their bits.
//
// Storage: one preallocated array of records for the batch and a bump counter, as the fission bank; a
// history's waiting neutrons form a stack linked through `below`, its top in the particle
// (Particle::secondary_top). A stack per thread would do for history-based transport, but event-based
// transport moves particles between slots when it sorts them: a link moves with the particle, a stack
// would not. A push past capacity only counts: the host sees count > capacity after the batch, grows the
// array and reruns the batch (src/driver/transporter.cpp), as it does for the fission bank; the most
// secondaries any batch made is reported with the run's results.
#include "kernels/particle.hpp"

namespace keff {

struct SecondaryRecord {
  Vec3 r;
  Vec3 u;
  Real energy = 0;
  Real weight = 0;
  int below = -1;  // the record under it on its history's stack
};

template <class Mem>
struct SecondaryStack {
  Kokkos::View<SecondaryRecord*, Mem> records;
  Kokkos::View<std::int64_t, Mem> count;  // pushed this batch, including those that did not fit

  // A neutron of `energy` along `u` leaving p's collision, with p's weight, onto p's stack.
  KOKKOS_INLINE_FUNCTION void push(Particle& p, Real energy, Vec3 u) const {
    const std::int64_t slot = Kokkos::atomic_fetch_add(&count(), std::int64_t(1));
    if (slot >= static_cast<std::int64_t>(records.extent(0))) return;  // the batch is rerun
    SecondaryRecord& rec = records(slot);
    rec.r = p.r;
    rec.u = u;
    rec.energy = energy;
    rec.weight = p.weight;
    rec.below = p.secondary_top;
    p.secondary_top = static_cast<int>(slot);
  }

  KOKKOS_INLINE_FUNCTION const SecondaryRecord& top(const Particle& p) const { return records(p.secondary_top); }
};

}  // namespace keff
