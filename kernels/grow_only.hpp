#pragma once
// Buffers that grow only, with head room, so that sizes that fluctuate from batch to batch stop
// reallocating after the first few batches. For host code between kernels.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace keff {

// The one growth rule of every grow-only buffer (banks, exchange and routing buffers): a quarter more
// than asked for, plus a little so that small buffers do not regrow one site at a time.
inline std::int64_t grown_capacity(std::int64_t n) {
  return static_cast<std::int64_t>(std::ceil(1.25 * static_cast<double>(n))) + 64;
}

// Makes v hold at least n entries; contents are not kept.
template <class View>
void reserve_grow_only(View& v, std::int64_t n, const std::string& label) {
  if (static_cast<std::int64_t>(v.extent(0)) >= n) return;
  v = View();  // free the old buffer first
  v = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), static_cast<std::size_t>(grown_capacity(n)));
}

}  // namespace keff
