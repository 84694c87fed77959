#pragma once
// Per-thread scratch for history-based transport, allocated once per run and handed to kernels: nothing
// in a transport step allocates. A thread acquires a row from the UniqueToken and releases it after.
//
// Layout: [token][nuclide] in the execution space's own array layout. On a CPU (LayoutRight) a thread's
// row is contiguous and no two threads share a cache line but at row ends; on a GPU (LayoutLeft) entry k
// of neighbouring tokens is adjacent, and neighbouring threads of a warp acquire neighbouring tokens
// (Kokkos starts each thread's search at its global thread index), so a warp's writes coalesce.
// Size: token.size() rows, which is the thread count on a CPU and the resident-thread count on a GPU
// (exec.concurrency(), ~270k on an H100).
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

namespace keff {

template <class Exec>
struct Workspace {
  using Mem = typename Exec::memory_space;
  using Layout = typename Exec::array_layout;

  // Made from an execution-space instance only: a default-constructed UniqueToken allocates its lock
  // array (on CUDA and HIP), so a Workspace member must never be default-constructed inside a batch.
  Workspace(const Exec& exec, int max_nuclides_per_material)
      : token(exec),
        micro_xs(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::workspace::micro_xs")),
                 token.size(), max_nuclides_per_material > 0 ? max_nuclides_per_material : 1) {}

  Kokkos::Experimental::UniqueToken<Exec> token;
  // Micro-XS cache: density * sigma_t of each nuclide of the current material, used to sample the
  // collision nuclide without a second lookup.
  Kokkos::View<Real**, Layout, Mem> micro_xs;

  std::size_t bytes() const { return micro_xs.span() * sizeof(Real); }
};

}  // namespace keff
