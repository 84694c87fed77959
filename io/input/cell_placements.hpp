#pragma once
// Where a cell stands in the geometry's hierarchy: how many times it is placed (once per placement of
// its universe, from the root down through universe fills and lattice elements), how the cell_instance
// filter numbers those placements, and where each one is. The numbering is depth first: within a
// universe its cells in input order, within a lattice its elements x fastest, then y, then z, and its
// outer universe after them; kernels/tally/tally_filters.hpp finds a particle's placement from offsets
// of this numbering, and the outputs name each placement by its position. Host only; no Kokkos.
#include "io/input/model.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace keff {

// How many times each cell of the problem is placed (the root's cells once each).
std::vector<std::int64_t> placement_counts(const model::Problem& p);

// The numbering of one cell's placements.
struct CellPlacements {
  std::int64_t count = 0;
  // The placements of the cell reached before a branch, within the universe or lattice that branches:
  // per cell of the problem (the cells before it in its universe), per lattice element (the elements
  // before it, lattices in input order and each in its universes' order), per lattice (its outer
  // universe: all its elements).
  std::vector<std::int64_t> cell_offset, element_offset, outer_offset;
  std::vector<std::array<double, 3>> positions;  // each placement's origin, root coordinates
};

CellPlacements cell_placements(const model::Problem& p, int cell);

// The bins of a tally filter (a cell_instance filter's: the placements of its cells, `placed` as
// placement_counts gives them), and the values of a tally: its scores times its filters' bins.
std::int64_t filter_bins(const model::Problem& p, const model::TallyFilter& f, const std::vector<std::int64_t>& placed);
std::int64_t tally_values(const model::Problem& p, const model::Tally& t, const std::vector<std::int64_t>& placed);

// What a cell, material or universe filter lists (FilterItems, kernels/vocabulary/tally_kinds.hpp): how
// many the problem has, and the name of the i-th.
std::size_t item_count(const model::Problem& p, FilterItems items);
const std::string& item_name(const model::Problem& p, FilterItems items, int i);

}  // namespace keff
