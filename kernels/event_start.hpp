#pragma once
// Event: empty slots take the next histories of the source. Slot queue(i) starts the history of source
// site first_site + i; a particle outside every cell is lost at birth and its slot stays empty.
#include "kernels/event_kernel.hpp"
#include "kernels/step_start.hpp"

namespace keff {

template <class Exec, class Physics>
struct StartEvent : EventKernel<Exec, Physics> {
  Kokkos::View<const Site*, typename Exec::memory_space> source;
  std::int64_t first_site = 0;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    const int s = this->queue(i);
    const std::int64_t site = first_site + i;
    Particle p = start_history(this->ctx, source(site), this->ctx.control.coords.local.first + site);
    this->slots.template retire_or_park<all, all>(s, p);
  }
};

}  // namespace keff
