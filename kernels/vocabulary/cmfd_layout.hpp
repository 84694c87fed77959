#pragma once
// The CMFD tallies' arrays in the one order in which they are allocated, packed, summed over the window
// and written to a statepoint: their shapes, and where each starts in that flat list of values. The
// device's CmfdTallies (kernels/cmfd_data.hpp, for_each_cmfd_array) and the host's restart check
// (io/output/restart_check.cpp) both read it here, so neither restates the other's offsets. No Kokkos.
#include <array>
#include <cstddef>

namespace keff {

// What each array holds: kernels/cmfd_data.hpp.
enum class CmfdArray : int { flux = 0, total, scatter, nu_fission, current, track_total, track_absorption, track_nu_fission };
inline constexpr int cmfd_array_count = 8;

struct CmfdLayout {
  std::size_t groups = 0, cells = 0, faces = 0;

  // A rate is [group][cell], a transfer [from group][to group][cell], the current [sense][group][face];
  // the cell (face) index is fastest in each.
  constexpr std::size_t size(CmfdArray a) const {
    switch (a) {
      case CmfdArray::scatter:
      case CmfdArray::nu_fission:
        return groups * groups * cells;
      case CmfdArray::current:
        return 2 * groups * faces;
      default:
        return groups * cells;
    }
  }
  // Where array `a` starts among the values: after every array before it in CmfdArray's order.
  constexpr std::size_t offset(CmfdArray a) const {
    std::size_t at = 0;
    for (int i = 0; i < static_cast<int>(a); ++i) at += size(static_cast<CmfdArray>(i));
    return at;
  }
  constexpr std::size_t values() const { return offset(CmfdArray::track_nu_fission) + size(CmfdArray::track_nu_fission); }
};

// The layout of `groups` coarse groups on a coarse mesh of shape nx x ny x nz, whose faces are numbered
// axis by axis ((nx+1) ny nz normal to x, then y, then z; kernels/cmfd_data.hpp's CmfdMesh).
constexpr CmfdLayout cmfd_layout(std::size_t groups, const std::array<int, 3>& shape) {
  const auto nx = static_cast<std::size_t>(shape[0]), ny = static_cast<std::size_t>(shape[1]),
             nz = static_cast<std::size_t>(shape[2]);
  return {groups, nx * ny * nz, (nx + 1) * ny * nz + nx * (ny + 1) * nz + nx * ny * (nz + 1)};
}

}  // namespace keff
