#pragma once
// Sums that every thread of a transport kernel adds to (CMFD's scores, the populations' k sums): Kokkos
// ScatterViews, chosen per backend. On the host, where threads are few and memory plenty, each thread adds
// into its own copy with plain adds, and the copies are summed into the View after the kernel: a
// lock-prefixed add per score, and two threads passing the cache lines of the same hot sums back and
// forth, made transport on LA-13511's UD2O sphere 1.8 times as slow with CMFD's tallies on 2 threads,
// against 1.4 times on one (perf/RESULTS.md, "CMFD on a 3-D 10 x 10 x 10 mesh"). On GPUs, with 10^5
// threads in flight, a copy each would not fit: the ScatterView is the View itself, added to atomically.
// The sums are fixed-point integers (kernels/fixed_point.hpp), so copies summed in any order give the
// atomics' bits.
#include "kernels/fixed_point.hpp"

#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace keff {

template <class Mem>
inline constexpr bool sums_per_thread = std::is_same_v<Mem, Kokkos::HostSpace>;

// A ScatterView over a View<Data, LayoutRight, Mem>; make it with scatter_sums_over.
template <class Data, class Mem>
using ScatterSums = Kokkos::Experimental::ScatterView<
    Data, Kokkos::LayoutRight, Kokkos::Device<typename Mem::execution_space, Mem>, Kokkos::Experimental::ScatterSum,
    std::conditional_t<sums_per_thread<Mem>, Kokkos::Experimental::ScatterDuplicated, Kokkos::Experimental::ScatterNonDuplicated>,
    std::conditional_t<sums_per_thread<Mem>, Kokkos::Experimental::ScatterNonAtomic, Kokkos::Experimental::ScatterAtomic>>;

// The ScatterSums over `view`. On the host its copies are labelled "<the View's label>_per_thread"
// (ScatterView's constructor from a View would call them "duplicated_<label>", outside keff::<area>::);
// on GPUs it is the View itself.
template <class Exec, class View>
ScatterSums<typename View::data_type, typename Exec::memory_space> scatter_sums_over(const Exec& exec, const View& view) {
  using Sums = ScatterSums<typename View::data_type, typename Exec::memory_space>;
  if constexpr (sums_per_thread<typename Exec::memory_space>) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return Sums(Kokkos::view_alloc(exec, view.label() + "_per_thread"), view.extent(I)...);
    }(std::make_index_sequence<View::rank_dynamic>{});
  } else {
    return Sums(exec, view);
  }
}

// The copies a ScatterSums on `exec` keeps besides its View: one per thread that can add on the host, none
// on GPUs (what the memory checks count).
template <class Exec>
int scatter_copies(const Exec& exec) {
  return sums_per_thread<typename Exec::memory_space> ? exec.concurrency() : 0;
}

// Before a kernel: the View and its copies zeroed.
template <class Exec, class View, class Sums>
void reset_scatter_sums(const Exec& exec, const View& view, Sums sums) {  // a handle: reset is not const
  Kokkos::deep_copy(exec, view, typename View::non_const_value_type(0));
  sums.reset_except(exec, view);
}

// After it: the copies summed into the View (nothing to do on GPUs, where the kernel added to the View).
template <class Exec, class View, class Sums>
void gather_scatter_sums(const Exec& exec, const View& view, const Sums& sums) {
  sums.contribute_into(exec, view);  // not Kokkos::Experimental::contribute: Kokkos 4.6's wants a non-const View
}

}  // namespace keff
