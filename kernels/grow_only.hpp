#pragma once
// Buffers that grow only, with head room (x1.25 + 64), so that sizes that fluctuate from batch to batch
// stop reallocating after the first few batches. For host code between kernels; contents are not kept.
#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <string>

namespace keff {

template <class View>
void reserve_grow_only(View& v, std::int64_t n, const std::string& label) {
  if (static_cast<std::int64_t>(v.extent(0)) >= n) return;
  const auto size = static_cast<std::int64_t>(std::ceil(1.25 * static_cast<double>(n))) + 64;
  v = View();  // free the old buffer first
  v = View(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), static_cast<std::size_t>(size));
}

}  // namespace keff
