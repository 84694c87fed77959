#pragma once
// Event: empty slots take the next histories of the source. Slot queue(i) starts the history of source
// site first_site + i, whose global index is source_index(site) when the source was routed to this
// domain, else coords.local.first + site; a particle outside every cell is lost at birth and its slot
// stays empty.
#include "kernels/transport/event_kernel.hpp"
#include "kernels/transport/step_finish.hpp"
#include "kernels/transport/step_start.hpp"

namespace keff {

template <class Exec, class Physics>
struct StartEvent : EventKernel<Exec, Physics> {
  Kokkos::View<const Site*, typename Exec::memory_space> source;
  Kokkos::View<const std::int64_t*, typename Exec::memory_space> source_index;  // empty: a contiguous range
  std::int64_t first_site = 0;

  KOKKOS_INLINE_FUNCTION void operator()(int i) const {
    using namespace slot_fields;
    const int s = this->queue(i);
    const std::int64_t site = first_site + i;
    const std::int64_t index =
        source_index.extent(0) > 0 ? source_index(site) : this->ctx.control.coords.local.first + site;
    Particle p = start_history(this->ctx, source(site), index);
    count_start(p, this->slots.ended(s));
    this->slots.template retire_or_park<all, all>(s, p, this->ctx);
  }
};

}  // namespace keff
