#pragma once
// History-based transport: one thread follows one neutron from its source site until it is absorbed,
// leaks or is lost, calling the step functions in turn: lookup -> advance -> cross | collide; then the
// secondary neutrons its collisions made, one after the other (kernels/transport/secondary_stack.hpp). Estimators
// accumulate in the particle and reach the batch total through a fixed-point parallel reduction
// (order-independent), so the result equals event-based transport's bit for bit.
#include "kernels/transport/step_advance.hpp"
#include "kernels/transport/step_collide.hpp"
#include "kernels/transport/step_cross.hpp"
#include "kernels/transport/step_finish.hpp"
#include "kernels/transport/step_lookup.hpp"
#include "kernels/transport/step_start.hpp"
#include "kernels/workspace.hpp"

#include <Kokkos_Profiling_ScopedRegion.hpp>

namespace keff {

// Built by aggregate initialisation, never default-constructed (see Workspace).
template <class Exec, class Physics>
struct HistoryTransport {
  using Mem = typename Exec::memory_space;
  using value_type = BatchCounters;

  TransportContext<Mem, Physics> ctx;
  Kokkos::View<const Site*, Mem> source;  // site i starts history ctx.control.coords.local.first + i
  Workspace<Exec> ws;

  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i, BatchCounters& sums) const {
    // The token itself, not an AcquireUniqueToken: that copies the token, and on the host a copy holds the
    // execution space instance, whose reference count every history would then add to atomically.
    const int row = ws.token.acquire();
    const auto cache = Kokkos::subview(ws.micro_xs, row, Kokkos::ALL);
    Particle p = start_history(ctx, source(i), ctx.control.coords.local.first + i);
    count_start(p, sums);
    do {
      while (p.alive()) {
        lookup_xs(ctx, p, cache);
        switch (advance(ctx, p)) {
          case FlightEnd::boundary: cross_surface(ctx, p); break;
          case FlightEnd::collision: collide(ctx, p, cache); break;
          case FlightEnd::lost: break;
        }
      }
      ctx.finish(p, sums);
    } while (ctx.resume_secondary(p, sums));
    ws.token.release(row);
  }

  KOKKOS_INLINE_FUNCTION void init(BatchCounters& v) const { v = BatchCounters{}; }
  KOKKOS_INLINE_FUNCTION void join(BatchCounters& dst, const BatchCounters& src) const { dst += src; }
};

// Runs the histories of source sites `sites` on `exec`.
template <class Exec, class Physics>
BatchCounters transport_histories(const Exec& exec, const HistoryTransport<Exec, Physics>& kernel, IndexRange sites) {
  Kokkos::Profiling::ScopedRegion region("keff::transport::histories");
  BatchCounters sums;
  Kokkos::parallel_reduce(
      "keff::transport::histories",
      Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>(exec, sites.first,
                                                                                                   sites.end()),
      kernel, sums);
  return sums;
}

}  // namespace keff
