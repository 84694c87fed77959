#pragma once
// The bins a filter gives a particle: at most one for a mesh, a material, an energy, a group or a polar
// angle; one for every level of the geometry at which it is in a listed cell or universe (OpenMC's cell
// and universe filters match at any level); one per listed cell it is a placement of (cell_instance).
//
// cell_instance numbers the placements of a cell in the geometry's hierarchy, depth first in the order
// of the cells of each universe and the elements of each lattice (x fastest, then y, then z; a lattice's
// outer universe after its elements): a particle's placement is the sum, over the levels above the
// cell's, of the placements that come before the branch it took there. The builder
// (src/params/build_tallies.cpp) precomputes those sums per cell that fills a universe or lattice and per
// lattice element: `instance_offsets`, [cells][lattice elements][lattice outers] per listed cell.
#include "kernels/geometry.hpp"
#include "kernels/particle.hpp"
#include "kernels/tally/tally_params.hpp"

namespace keff {

inline constexpr int max_filter_matches = max_geometry_levels;

struct FilterMatches {
  int bin[max_filter_matches];
  int n = 0;

  KOKKOS_INLINE_FUNCTION void add(int b) {
    if (n < max_filter_matches) bin[n++] = b;
  }
};

// What a filter may bin a particle by: where it is, the direction it flies (along a flight, or into a
// collision: OpenMC's filters of direction read the direction before a collision too), its energy and
// its group (multigroup).
struct FilterPoint {
  Vec3 r;
  Vec3 u;
  Real energy = 0;
  int group = -1;
};

// Band b of `count` ascending bounds holding `value` (b_i <= value < b_i+1), or -1 outside them: the bin
// of a bounds filter.
KOKKOS_INLINE_FUNCTION int bounds_band(const Real* bounds, int count, Real value) {
  if (!(value >= bounds[0]) || value >= bounds[count - 1]) return -1;
  int lo = 0, hi = count - 1;
  while (hi - lo > 1) {
    const int mid = lo + (hi - lo) / 2;
    if (value >= bounds[mid]) lo = mid; else hi = mid;
  }
  return lo;
}

namespace detail {

// The placement of listed cell `t` that a particle at geometry state `s` is in, found at level k.
template <class Mem>
KOKKOS_INLINE_FUNCTION std::int64_t placement(const TallyParams<Mem>& tp, const GeometryParams<Mem>& g,
                                              const CellInstanceTarget& t, const GeometryState& s, int k) {
  const std::int64_t* offsets = tp.instance_offsets.data() + t.offsets;
  std::int64_t index = 0;
  for (int j = 0; j < k; ++j) {
    index += offsets[s.level[j].cell];
    const GeometryLevel& below = s.level[j + 1];
    if (below.lattice < 0) continue;
    const int lat = below.lattice;
    if (lattice_index_inside(g, lat, below.lat_index)) {
      const int nx = g.lattice_shape(lat, 0), ny = g.lattice_shape(lat, 1);
      const int element = g.lattice_offsets(lat) + below.lat_index[0] + nx * (below.lat_index[1] + ny * below.lat_index[2]);
      index += offsets[tp.n_cells + element];
    } else {
      index += offsets[tp.n_cells + tp.n_lattice_elements + lat];
    }
  }
  return index;
}

}  // namespace detail

// The bins filter `f` gives a particle at x, in geometry state `s` (the mesh bin of x.r for a mesh
// filter: track-length tallies split flights at the mesh instead).
template <class Mem>
KOKKOS_INLINE_FUNCTION void match_filter(const TallyParams<Mem>& tp, const GeometryParams<Mem>& g,
                                         const TallyFilterParams& f, const FilterPoint& x, const GeometryState& s,
                                         FilterMatches& m) {
  m.n = 0;
  // A particle is always in a cell; no level means the calling kernel did not load them.
  KEFF_EXPECT(!f.reads_levels || s.n_levels > 0);
  switch (f.kind) {
    case TallyFilterKind::mesh: {
      const int b = tp.meshes(f.mesh).bin(x.r);
      if (b >= 0) m.add(b);
      return;
    }
    case TallyFilterKind::cell:
      for (int k = 0; k < s.n_levels; ++k) {
        const int b = tp.item_bin(f.data + s.level[k].cell);
        if (b >= 0) m.add(b);
      }
      return;
    case TallyFilterKind::universe:
      for (int k = 0; k < s.n_levels; ++k) {
        const int b = tp.item_bin(f.data + s.level[k].universe);
        if (b >= 0) m.add(b);
      }
      return;
    case TallyFilterKind::material:
      if (s.material >= 0) {
        const int b = tp.item_bin(f.data + s.material);
        if (b >= 0) m.add(b);
      }
      return;
    case TallyFilterKind::cell_instance:
      for (int i = 0; i < f.count; ++i) {
        const CellInstanceTarget t = tp.cell_instance(f.data + i);
        for (int k = 0; k < s.n_levels; ++k) {
          if (s.level[k].cell == t.cell) m.add(t.first_bin + static_cast<int>(detail::placement(tp, g, t, s, k)));
        }
      }
      return;
    case TallyFilterKind::energy: {
      const int b = bounds_band(tp.bounds.data() + f.data, f.count, x.energy);
      if (b >= 0) m.add(b);
      return;
    }
    case TallyFilterKind::group:
      if (x.group >= 0 && x.group < f.n_bins) m.add(x.group);
      return;
    case TallyFilterKind::polar: {
      const Real uz = x.u[2] < -1 ? -1 : (x.u[2] > 1 ? 1 : x.u[2]);  // a unit vector's rounding past +-1
      const int b = bounds_band(tp.bounds.data() + f.data, f.count, Kokkos::acos(uz));
      if (b >= 0) m.add(b);
      return;
    }
  }
}

}  // namespace keff
