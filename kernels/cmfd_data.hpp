#pragma once
// CMFD (coarse-mesh finite difference) data layouts: the coarse mesh with its face numbering, the
// coarse energy groups, and the tallies the CMFD operator is built from. The solver is in src/cmfd/;
// these layouts are here because transport kernels score into them. Nothing here needs Kokkos Kernels.
//
// Index order, chosen so that neighbouring GPU threads touch neighbouring addresses: one thread per
// (group, cell) or (group, face), cells (faces) fastest. Every per-cell array is [group][cell] (or
// [from group][to group][cell]) in LayoutRight, and the CMFD vectors flatten it as g * n_cells + c.
#include "kernels/regular_mesh.hpp"
#include "kernels/vocabulary/cmfd_layout.hpp"
#include "kernels/vocabulary/cmfd_options.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>

namespace keff {

// A regular coarse mesh with an albedo on each outer face.
//
// Cells are numbered x fastest (RegularMesh::bin). Faces are numbered axis by axis: first the (nx+1) ny nz
// faces normal to x, then the nx (ny+1) nz normal to y, then the nx ny (nz+1) normal to z; within an
// axis, like cells (x fastest) on the face grid whose extent along that axis is one more. The face at
// index i along its axis is the lower face of cell i and the upper face of cell i - 1.
//
// Outer faces are numbered 2 * axis + side (side 0 lower, 1 upper): -x, +x, -y, +y, -z, +z. The albedo
// of an outer face is the partial current coming back in per partial current going out (OpenMC's
// `albedo`): 0 vacuum, 1 reflective, in between for a reflector left out of the mesh. A negative albedo
// (cmfd_measured_albedo) means the ratio the tallies measure on that face, for a mesh edge inside the
// geometry, where what lies beyond is neither vacuum nor a mirror.
struct CmfdMesh {
  RegularMesh grid;  // lower corner, cells per cm, shape
  Real albedo[6] = {0, 0, 0, 0, 0, 0};

  KOKKOS_INLINE_FUNCTION int n_cells() const { return grid.n_bins(); }
  KOKKOS_INLINE_FUNCTION Real width(int axis) const { return 1 / grid.inv_width[axis]; }
  KOKKOS_INLINE_FUNCTION Real volume() const { return width(0) * width(1) * width(2); }
  // Area of a face normal to `axis`.
  KOKKOS_INLINE_FUNCTION Real face_area(int axis) const { return volume() / width(axis); }

  // In int arithmetic (a cell number fits an int): every flight of a neutron in the mesh asks, and 64-bit
  // divisions cost several times more.
  KOKKOS_INLINE_FUNCTION void cell_indices(int c, int idx[3]) const {
    const int row = c / grid.shape[0];
    idx[0] = c - row * grid.shape[0];
    idx[1] = row % grid.shape[1];
    idx[2] = row / grid.shape[1];
  }
  KOKKOS_INLINE_FUNCTION int cell(const int idx[3]) const { return grid.bin_of(idx); }
  // Distance in the cell numbering between neighbours along `axis`.
  KOKKOS_INLINE_FUNCTION int cell_stride(int axis) const {
    return axis == 0 ? 1 : (axis == 1 ? grid.shape[0] : grid.shape[0] * grid.shape[1]);
  }

  KOKKOS_INLINE_FUNCTION int n_faces(int axis) const {
    int n = 1;
    for (int d = 0; d < 3; ++d) n *= grid.shape[d] + (d == axis ? 1 : 0);
    return n;
  }
  KOKKOS_INLINE_FUNCTION int n_faces() const { return n_faces(0) + n_faces(1) + n_faces(2); }
  // The face normal to `axis` at face-grid indices idx (idx[axis] in [0, shape[axis]]).
  KOKKOS_INLINE_FUNCTION int face(int axis, const int idx[3]) const {
    int offset = 0;
    for (int d = 0; d < axis; ++d) offset += n_faces(d);
    const int sx = grid.shape[0] + (axis == 0 ? 1 : 0);
    const int sy = grid.shape[1] + (axis == 1 ? 1 : 0);
    return offset + idx[0] + sx * (idx[1] + sy * idx[2]);
  }
  // The axis and face-grid indices of face f.
  KOKKOS_INLINE_FUNCTION int face_indices(int f, int idx[3]) const {
    int axis = 0;
    while (f >= n_faces(axis)) f -= n_faces(axis++);
    const int sx = grid.shape[0] + (axis == 0 ? 1 : 0);
    const int sy = grid.shape[1] + (axis == 1 ? 1 : 0);
    idx[0] = f % sx;
    idx[1] = (f / sx) % sy;
    idx[2] = f / (sx * sy);
    return axis;
  }
};

// A mesh over the box [lower, upper] with the given shape and outer-face albedos (-x, +x, -y, +y, -z, +z).
inline CmfdMesh make_cmfd_mesh(const Real lower[3], const Real upper[3], const int shape[3], const Real albedo[6]) {
  CmfdMesh m;
  for (int d = 0; d < 3; ++d) {
    m.grid.lower[d] = lower[d];
    m.grid.shape[d] = shape[d];
    m.grid.inv_width[d] = static_cast<Real>(shape[d]) / (upper[d] - lower[d]);
  }
  for (int f = 0; f < 6; ++f) m.albedo[f] = albedo[f];
  return m;
}

// The coarse group of a neutron. Group 0 is the highest energy band, as in multigroup data and the
// tallies' group filter. Continuous energy: `energy_bounds` holds the G + 1 ascending edges in eV. Multigroup:
// `group_map` collapses the data's groups (fine group -> coarse group); empty means one to one.
template <class Mem>
struct CmfdEnergyGroups {
  Kokkos::View<const Real*, Mem> energy_bounds;
  Kokkos::View<const int*, Mem> group_map;

  // -1 outside the bounds.
  KOKKOS_INLINE_FUNCTION int group_of(Real energy, int fine_group) const {
    const int n = static_cast<int>(energy_bounds.extent(0));
    if (n == 0) return group_map.extent(0) == 0 ? fine_group : group_map(fine_group);
    if (!(energy >= energy_bounds(0)) || energy >= energy_bounds(n - 1)) return -1;
    int lo = 0, hi = n - 1;  // energy_bounds(lo) <= energy < energy_bounds(hi)
    while (hi - lo > 1) {
      const int mid = lo + (hi - lo) / 2;
      if (energy >= energy_bounds(mid)) lo = mid; else hi = mid;
    }
    return (n - 2) - lo;
  }
};

// What CMFD is built from, per coarse cell and group, summed over ranks and in any one normalisation
// (only ratios enter the operator): rates integrated over the cell, currents over the face.
//   flux(g, c)               track-length estimate of the flux integrated over the cell
//   total(g, c)              analog: the weight of every collision (the cell balance, min_collisions)
//   scatter(g, h, c)         analog: collisions survived from group g into group h
//   nu_fission(g, h, c)      analog: neutrons produced in group h by fissions in group g (chi included)
//   current(s, g, f)         neutrons crossing face f in group g towards +axis (s = 0) or -axis (s = 1)
//   track_total(g, c)        track length times Sigma_t: the expected collisions
//   track_absorption(g, c)   track length times Sigma_a
//   track_nu_fission(g, c)   track length times nu Sigma_f
// Each crossing is scored once, on the one face it crosses (OpenMC keeps out/in per cell side, twice
// per crossing): half the atomics, and the two cells of a face see the same current, so the operator
// is conservative by construction.
//
// The cross sections (sigma_t below; scattering and production in src/cmfd/cmfd_operator.cpp) come
// from the track-length rates, which in a cell of one material are its cross sections exactly, whatever
// the flux: analog ones carry the noise of a few hundred absorptions per cell and batch, and the coarse
// eigenproblem of a loosely coupled core amplifies a local multiplication a few percent too high into a
// source peaked there (on the 200 cm slab of examples/cmfd_slab_2g.toml with reflective ends, from a
// flat source, one batch's analog cross sections gave a CMFD source entropy of 3.62 bits where the flat
// infinite-medium answer is 4.32, the track-length ones 4.14: src/cmfd/README.md). Only the split over
// outgoing groups, which a track cannot see, comes from the analog matrices.
//
// `Value` is Real for the solver and Fixed for the scores of one batch, which transport adds in integers
// (kernels/cmfd_tally.hpp): the same shape for both, so one batch's scores and the window's sums index
// alike. `Array` is what holds each array: a View, or what transport adds a View's scores through
// (CmfdScoreAdds, kernels/cmfd_tally.hpp).
template <class Data, class Mem>
using CmfdView = Kokkos::View<Data, Kokkos::LayoutRight, Mem>;

template <class Mem, class Value = Real, template <class, class> class Array = CmfdView>
struct CmfdTallies {
  using Rates = Array<Value**, Mem>;       // [group][cell]
  using Transfers = Array<Value***, Mem>;  // [from group][to group][cell]
  using Currents = Array<Value***, Mem>;   // [sense][group][face]

  Rates flux;
  Rates total;
  Transfers scatter;
  Transfers nu_fission;
  Currents current;
  Rates track_total;
  Rates track_absorption;
  Rates track_nu_fission;

  KOKKOS_INLINE_FUNCTION int n_groups() const { return static_cast<int>(flux.extent(0)); }
  KOKKOS_INLINE_FUNCTION int n_cells() const { return static_cast<int>(flux.extent(1)); }

  // The total macroscopic cross section of (g, c), for a (g, c) with flux. Scattering and production,
  // which need sums over groups, are the operator's (src/cmfd/cmfd_operator.hpp).
  KOKKOS_INLINE_FUNCTION Value sigma_t(int g, int c) const { return track_total(g, c) / flux(g, c); }

  // Values over all arrays.
  std::size_t size() const;
};

// Calls f with the same array of each of `tallies` (one shape), array by array in the order of
// CmfdTallies, which is CmfdArray's (kernels/vocabulary/cmfd_layout.hpp): the one list of its arrays, for
// resets, copies and packing, whose flat offsets the layout gives (a unit test holds the two together).
template <class F, class... Tallies>
void for_each_cmfd_array(F&& f, Tallies&... tallies) {
  f(tallies.flux...), f(tallies.total...), f(tallies.scatter...), f(tallies.nu_fission...), f(tallies.current...),
      f(tallies.track_total...), f(tallies.track_absorption...), f(tallies.track_nu_fission...);
}

template <class Mem, class Value, template <class, class> class Array>
std::size_t CmfdTallies<Mem, Value, Array>::size() const {
  std::size_t n = 0;
  for_each_cmfd_array([&](const auto& v) { n += v.size(); }, *this);
  return n;
}

// Values a CmfdTallies of `groups` groups on `mesh` holds, in doubles so that no size overflows.
inline double cmfd_tally_values(const CmfdMesh& mesh, int groups) {
  const double g = groups, cells = mesh.n_cells(), faces = mesh.n_faces();
  return 5 * g * cells + 2 * g * g * cells + 2 * g * faces;
}

// Zeroed tallies for `groups` groups on `mesh`, labelled keff::cmfd::<prefix><what>.
template <class Value = Real, class Exec>
CmfdTallies<typename Exec::memory_space, Value> allocate_cmfd_tallies(const Exec& exec, const CmfdMesh& mesh, int groups,
                                                                      const char* prefix = "tally_") {
  using Tallies = CmfdTallies<typename Exec::memory_space, Value>;
  const auto label = [&](const char* what) { return std::string("keff::cmfd::") + prefix + what; };
  const int cells = mesh.n_cells();
  return Tallies{typename Tallies::Rates(Kokkos::view_alloc(exec, label("flux")), groups, cells),
                 typename Tallies::Rates(Kokkos::view_alloc(exec, label("total")), groups, cells),
                 typename Tallies::Transfers(Kokkos::view_alloc(exec, label("scatter")), groups, groups, cells),
                 typename Tallies::Transfers(Kokkos::view_alloc(exec, label("nu_fission")), groups, groups, cells),
                 typename Tallies::Currents(Kokkos::view_alloc(exec, label("current")), 2, groups, mesh.n_faces()),
                 typename Tallies::Rates(Kokkos::view_alloc(exec, label("track_total")), groups, cells),
                 typename Tallies::Rates(Kokkos::view_alloc(exec, label("track_absorption")), groups, cells),
                 typename Tallies::Rates(Kokkos::view_alloc(exec, label("track_nu_fission")), groups, cells)};
}

}  // namespace keff
