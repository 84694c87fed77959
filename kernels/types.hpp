#pragma once
// Scalar types, strong identifiers and physical constants shared by device and host code.
#include <Kokkos_Core.hpp>
#include <Kokkos_Profiling_ScopedRegion.hpp>

#include <cstdint>

namespace keff {

using Real = double;

// A typed index: a MaterialId cannot be passed where a NuclideId is expected. The invalid value is -1.
// Trivially copyable, so it lives in Views and kernel captures like the int it wraps.
template <class Tag, class T = std::int32_t>
class OpaqueId {
 public:
  using value_type = T;
  KOKKOS_DEFAULTED_FUNCTION constexpr OpaqueId() = default;
  KOKKOS_INLINE_FUNCTION constexpr explicit OpaqueId(T v) : value_(v) {}
  KOKKOS_INLINE_FUNCTION constexpr T get() const { return value_; }
  KOKKOS_INLINE_FUNCTION constexpr bool valid() const { return value_ >= 0; }
  KOKKOS_INLINE_FUNCTION constexpr explicit operator bool() const { return valid(); }
  KOKKOS_INLINE_FUNCTION friend constexpr bool operator==(OpaqueId a, OpaqueId b) { return a.value_ == b.value_; }
  KOKKOS_INLINE_FUNCTION friend constexpr bool operator!=(OpaqueId a, OpaqueId b) { return a.value_ != b.value_; }
  KOKKOS_INLINE_FUNCTION friend constexpr bool operator<(OpaqueId a, OpaqueId b) { return a.value_ < b.value_; }

 private:
  T value_ = T(-1);
};

using SurfaceId = OpaqueId<struct SurfaceTag>;
using CellId = OpaqueId<struct CellTag>;
using UniverseId = OpaqueId<struct UniverseTag>;
using LatticeId = OpaqueId<struct LatticeTag>;
using MaterialId = OpaqueId<struct MaterialTag>;
using NuclideId = OpaqueId<struct NuclideTag>;

namespace constants {
inline constexpr Real energy_min_ev = 1.0e-5;  // bottom of every continuous-energy grid
inline constexpr Real energy_max_ev = 2.0e7;   // top of every continuous-energy grid
inline constexpr Real pi = 3.14159265358979323846;
inline constexpr Real infinity = 1.0e300;      // "no surface ahead"
}  // namespace constants

}  // namespace keff
