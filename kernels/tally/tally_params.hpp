#pragma once
// Tallies as the device sees them (Params: built once by src/params/build_tallies.cpp, read-only): each
// tally's filters, scores and estimator, flattened into a few Views, and the place of its values in the
// one array of fixed-point sums that transport adds to (`Tallies::sums`, kernels/tally/tally_score.hpp).
//
// A tally's bins are the product of its filters' bins, the first filter varying slowest, and each bin
// holds its scores in the order given: value = offset + bin * n_scores + score, with bin = sum over
// filters of (the filter's bin) * (its stride, the product of the bins of the filters after it).
#include "kernels/regular_mesh.hpp"
#include "kernels/vocabulary/tally_kinds.hpp"
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace keff {

// One filter of one tally. `data` and `count` locate its entries in the array its form
// (kernels/vocabulary/tally_kinds.hpp) reads:
//   names (cell, material, universe): item_bin[data .. data + count), the bin of each cell (material,
//                             universe) index of the problem, -1 for those the filter does not list;
//   placements (cell_instance): `count` listed cells, each at cell_instance[data + i]: its cell index, its
//                             first bin, and where its placement offsets begin in instance_offsets;
//   bounds (energy):          bounds[data .. data + count), count - 1 bins, ascending;
//   mesh:                     meshes(mesh); groups: nothing (one bin per group).
struct TallyFilterParams {
  TallyFilterKind kind = TallyFilterKind::mesh;
  int n_bins = 1;
  std::int64_t stride = 1;
  int data = 0;
  int count = 0;
  int mesh = -1;
  bool reads_levels = false;  // its row's reads_levels (kernels/vocabulary/tally_kinds.hpp)
};

// Where one listed cell's placements are numbered (kernels/tally/tally_filters.hpp, cell_instance).
struct CellInstanceTarget {
  int cell = -1;
  int first_bin = 0;
  std::int64_t offsets = 0;  // into instance_offsets: [cells][lattice elements][lattice outers]
};

// One tally.
struct TallyLayout {
  int first_filter = 0, n_filters = 0;
  int first_score = 0, n_scores = 0;
  int mesh_filter = -1;  // index (within the tally) of its mesh filter, -1 without one
  TallyEstimator estimator = TallyEstimator::tracklength;
  std::int64_t offset = 0;  // its first value in the sums
  std::int64_t n_bins = 1;
};

template <class Mem>
struct TallyParams {
  Kokkos::View<const TallyLayout*, Mem> tallies;
  Kokkos::View<const TallyFilterParams*, Mem> filters;
  Kokkos::View<const TallyScore*, Mem> scores;
  Kokkos::View<const RegularMesh*, Mem> meshes;
  Kokkos::View<const int*, Mem> item_bin;
  Kokkos::View<const Real*, Mem> bounds;
  Kokkos::View<const CellInstanceTarget*, Mem> cell_instance;
  Kokkos::View<const std::int64_t*, Mem> instance_offsets;
  int n_cells = 0, n_lattice_elements = 0;  // the sections of each target's placement offsets
  std::int64_t n_values = 0;                // values of all tallies together
  // Which estimators any tally uses, so a step that has nothing to score returns at once; and whether a
  // collision or analog tally filters by cell, universe or placement (event-based transport then loads a
  // colliding slot's geometry, which its collision does not otherwise read).
  bool tracklength = false, collision = false, analog = false;
  bool geometry_at_collisions = false;

  KOKKOS_INLINE_FUNCTION int n_tallies() const { return static_cast<int>(tallies.extent(0)); }
};

}  // namespace keff
