#pragma once
// Event: empty slots take the next histories of the source. Slot queue(i) starts the history of source
// site first_site + i; a particle outside every cell is lost at birth and its slot stays empty.
#include "kernels/particle_slots.hpp"
#include "kernels/step_finish.hpp"
#include "kernels/step_start.hpp"

namespace keff {

template <class Exec, class Physics>
struct StartEvent {
  using Mem = typename Exec::memory_space;
  TransportContext<Mem, Physics> ctx;
  ParticleSlots<Exec> slots;
  Kokkos::View<const int*, Mem> queue;   // empty slots
  Kokkos::View<const Site*, Mem> source;
  std::int64_t first_site = 0;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    const int s = queue(i);
    const std::int64_t site = first_site + i;
    const Particle p = start_history(ctx, source(site), ctx.control.coords.local.first + site);
    if (!p.alive()) {
      finish_history(p, slots.ended(s));
      return;
    }
    slots.park(s, p);
  }
};

template <class Exec, class Physics>
void start_event(const Exec& exec, const StartEvent<Exec, Physics>& kernel, int n) {
  Kokkos::parallel_for("keff::event::start", Kokkos::RangePolicy<Exec>(exec, 0, n), kernel);
}

}  // namespace keff
