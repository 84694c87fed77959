#pragma once
// Per-thread scratch, allocated once per run and handed to kernels: nothing in a transport step allocates.
// A thread acquires a UniqueToken and uses row token.value() of each buffer. On a CPU the token count is
// the thread count; on a GPU it is the number of resident threads (~270k on an H100), so each buffer
// costs token.size() * row length.
#include "types.hpp"

#include <string>

namespace keff {

template <class Exec>
struct Workspace {
  using Mem = typename Exec::memory_space;
  Kokkos::Experimental::UniqueToken<Exec> token;
  // Micro-XS cache: density * sigma_t of each nuclide of the current material, used to sample the
  // collision nuclide without a second lookup.
  Kokkos::View<Real**, Kokkos::LayoutRight, Mem> micro_xs;

  Workspace() = default;
  Workspace(const Exec& exec, int max_nuclides_per_material)
      : token(exec),
        micro_xs(Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("keff::workspace::micro_xs")),
                 token.size(), max_nuclides_per_material > 0 ? max_nuclides_per_material : 1) {}
};

}  // namespace keff
