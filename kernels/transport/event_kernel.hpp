#pragma once
// What every event kernel holds: the batch's transport context, the slots and the queue it runs over
// (thread i takes slot queue(i)), and how it is launched. Each event (kernels/transport/event_*.hpp) adds only its
// operator(): load the fields its step reads, call the step, store what it wrote.
#include "kernels/transport/particle_slots.hpp"
#include "kernels/transport/transport_context.hpp"

namespace keff {

template <class Exec, class Physics>
struct EventKernel {
  using Mem = typename Exec::memory_space;
  using Slots = ParticleSlots<Exec>;
  TransportContext<Mem, Physics> ctx;
  Slots slots;
  Kokkos::View<const int*, Mem> queue;
};

// Runs `kernel` over the first n queue entries, scheduled as `Schedule` says (on a CPU; a GPU ignores it).
template <class Exec, class Kernel, class Schedule = Kokkos::Static>
void launch_event(const Exec& exec, const char* label, const Kernel& kernel, int n, Schedule = {}) {
  if (n > 0) Kokkos::parallel_for(label, Kokkos::RangePolicy<Exec, Kokkos::Schedule<Schedule>>(exec, 0, n), kernel);
}

}  // namespace keff
