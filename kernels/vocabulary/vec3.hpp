#pragma once
// A small 3-vector for positions and directions, usable on host and device.
#include "kernels/vocabulary/macros.hpp"
#include "kernels/vocabulary/types.hpp"

namespace keff {

struct Vec3 {
  Real x = 0, y = 0, z = 0;
  KEFF_INLINE_FUNCTION Real operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  KEFF_INLINE_FUNCTION Real& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
};
KEFF_INLINE_FUNCTION Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
KEFF_INLINE_FUNCTION Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
KEFF_INLINE_FUNCTION Vec3 operator*(Real s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
KEFF_INLINE_FUNCTION Real dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

}  // namespace keff
