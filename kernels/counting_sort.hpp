#pragma once
// A stable counting sort by small integer keys, computed as positions: position(i) is where item i goes
// when the items are ordered by key, items with equal keys keeping their order. Any payload then moves
// with one scatter. The communication plan (mpi/communication_plan.hpp) groups messages by destination
// rank with it.
//
// Stable without atomics: the items are cut into consecutive blocks, at most one per thread the
// execution space runs at once and at least counting_sort_min_block items each. Each block counts its
// keys; an exclusive scan of those counts laid out key-major ([key][block]) gives every block its first
// position for each key; each block then walks its items in order, bumping cursors no other block
// touches. O(n + keys x blocks) work, and the positions depend on the keys alone. A cursor bumped with
// atomic_fetch_add (Cabana's countSendsAndCreateSteering, Kokkos' BinSort) leaves the order within a
// key to the scheduler.
#include "kernels/contracts.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>

namespace keff {

// A GPU gets many short blocks (neighbouring threads then write neighbouring counters); a CPU thread
// one long block.
inline constexpr int counting_sort_min_block = 32;

// The blocks the sort of n items uses on exec. Non-decreasing in n, so scratch sized for the largest n
// fits every smaller one.
template <class Exec>
int counting_sort_blocks(const Exec& exec, std::int64_t n) {
  const std::int64_t wanted = (n + counting_sort_min_block - 1) / counting_sort_min_block;
  return static_cast<int>(std::clamp<std::int64_t>(wanted, 1, exec.concurrency()));
}

// position(i) for the n items with keys(i) in [0, n_keys), and key_offsets(k) = the first position of
// key k. `blocks` is counting_sort_blocks(exec, n); block_counts holds n_keys * blocks ints of scratch.
template <class Exec>
void stable_counting_sort(const Exec& exec, Kokkos::View<const int*, typename Exec::memory_space> keys, int n,
                          int n_keys, int blocks, Kokkos::View<int*, typename Exec::memory_space> block_counts,
                          Kokkos::View<int*, typename Exec::memory_space> key_offsets,
                          Kokkos::View<int*, typename Exec::memory_space> position) {
  using Policy = Kokkos::RangePolicy<Exec>;
  const std::int64_t per_block = (static_cast<std::int64_t>(n) + blocks - 1) / blocks;
  Kokkos::parallel_for(
      "keff::counting_sort::count", Policy(exec, 0, blocks), KOKKOS_LAMBDA(int b) {
        for (int k = 0; k < n_keys; ++k) block_counts(k * blocks + b) = 0;
        const std::int64_t end = Kokkos::min<std::int64_t>(n, (b + 1) * per_block);
        for (std::int64_t i = b * per_block; i < end; ++i) {
          KEFF_EXPECT(keys(i) >= 0 && keys(i) < n_keys);
          ++block_counts(keys(i) * blocks + b);
        }
      });
  Kokkos::parallel_scan(
      "keff::counting_sort::offsets", Policy(exec, 0, n_keys * blocks), KOKKOS_LAMBDA(int j, int& running, bool final) {
        const int count = block_counts(j);
        if (final) {
          block_counts(j) = running;
          if (j % blocks == 0) key_offsets(j / blocks) = running;
        }
        running += count;
      });
  Kokkos::parallel_for(
      "keff::counting_sort::place", Policy(exec, 0, blocks), KOKKOS_LAMBDA(int b) {
        const std::int64_t end = Kokkos::min<std::int64_t>(n, (b + 1) * per_block);
        for (std::int64_t i = b * per_block; i < end; ++i) position(i) = block_counts(keys(i) * blocks + b)++;
      });
}

// out(position(i)) = in(i) for i in [0, n). Reads are coalesced; writes within one key are consecutive.
template <class Exec, class In, class Out>
void scatter_by_position(const Exec& exec, Kokkos::View<const int*, typename Exec::memory_space> position, int n,
                         const In& in, const Out& out) {
  Kokkos::parallel_for(
      "keff::counting_sort::scatter", Kokkos::RangePolicy<Exec>(exec, 0, n),
      KOKKOS_LAMBDA(int i) { out(position(i)) = in(i); });
}

}  // namespace keff
