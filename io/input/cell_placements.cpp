#include "io/input/cell_placements.hpp"

#include <functional>

namespace keff {

namespace {

// The universes a universe's cells place, each as often as it is placed, with its offset (an element's
// centre; 0 for a universe fill or a lattice's outer universe), in the numbering order.
void for_each_child(const model::Problem& p, int universe,
                    const std::function<void(int child, std::array<double, 3> offset)>& f) {
  for (const int c : p.universes[static_cast<std::size_t>(universe)].cells) {
    const model::Cell& cell = p.cells[static_cast<std::size_t>(c)];
    if (cell.fill_kind == FillKind::universe) f(cell.fill, {0, 0, 0});
    if (cell.fill_kind != FillKind::lattice) continue;
    const model::Lattice& l = p.lattices[static_cast<std::size_t>(cell.fill)];
    for (int iz = 0; iz < l.shape[2]; ++iz) {
      for (int iy = 0; iy < l.shape[1]; ++iy) {
        for (int ix = 0; ix < l.shape[0]; ++ix) {
          const int e = ix + l.shape[0] * (iy + l.shape[1] * iz);
          std::array<double, 3> centre{};
          const int idx[3] = {ix, iy, iz};
          for (int a = 0; a < 3; ++a) {  // a 2-D lattice's one layer comes out centred on z = 0 (model::Lattice)
            const auto i = static_cast<std::size_t>(a);
            centre[i] = l.lower_left[i] + (idx[a] + 0.5) * l.pitch[i];
          }
          f(l.universes[static_cast<std::size_t>(e)], centre);
        }
      }
    }
    if (l.outer >= 0) f(l.outer, {0, 0, 0});
  }
}

}  // namespace

std::vector<std::int64_t> placement_counts(const model::Problem& p) {
  // Parents before children (the model's nesting is checked: no cycles), then each universe's placements
  // handed down to the universes its cells place, as often as they place them.
  std::vector<int> order;
  std::vector<char> seen(p.universes.size(), 0);
  const std::function<void(int)> visit = [&](int u) {
    if (seen[static_cast<std::size_t>(u)]) return;
    seen[static_cast<std::size_t>(u)] = 1;
    for_each_child(p, u, [&](int child, std::array<double, 3>) { visit(child); });
    order.push_back(u);
  };
  visit(p.root_universe);
  std::vector<std::int64_t> placed(p.universes.size(), 0);
  placed[static_cast<std::size_t>(p.root_universe)] = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const std::int64_t n = placed[static_cast<std::size_t>(*it)];
    for_each_child(p, *it, [&](int child, std::array<double, 3>) { placed[static_cast<std::size_t>(child)] += n; });
  }
  std::vector<std::int64_t> per_cell(p.cells.size(), 0);
  for (std::size_t c = 0; c < p.cells.size(); ++c) per_cell[c] = placed[static_cast<std::size_t>(p.cells[c].universe)];
  return per_cell;
}

CellPlacements cell_placements(const model::Problem& p, int cell) {
  const int target = p.cells[static_cast<std::size_t>(cell)].universe;
  // Placements of the target universe inside each universe (itself counting once).
  std::vector<std::int64_t> inside(p.universes.size(), -1);
  const std::function<std::int64_t(int)> count = [&](int u) {
    std::int64_t& n = inside[static_cast<std::size_t>(u)];
    if (n >= 0) return n;
    n = u == target ? 1 : 0;
    if (u != target) for_each_child(p, u, [&](int child, std::array<double, 3>) { n += count(child); });
    return n;
  };
  CellPlacements out;
  out.count = count(p.root_universe);
  out.cell_offset.assign(p.cells.size(), 0);
  std::size_t elements = 0;
  for (const auto& l : p.lattices) elements += l.universes.size();
  out.element_offset.assign(elements, 0);
  out.outer_offset.assign(p.lattices.size(), 0);
  std::vector<std::size_t> first_element(p.lattices.size(), 0);
  for (std::size_t l = 1; l < p.lattices.size(); ++l) first_element[l] = first_element[l - 1] + p.lattices[l - 1].universes.size();
  for (std::size_t u = 0; u < p.universes.size(); ++u) {
    std::int64_t before = 0;
    for (const int c : p.universes[u].cells) {
      const model::Cell& cl = p.cells[static_cast<std::size_t>(c)];
      out.cell_offset[static_cast<std::size_t>(c)] = before;
      if (cl.fill_kind == FillKind::universe) before += count(cl.fill);
      if (cl.fill_kind != FillKind::lattice) continue;
      const auto li = static_cast<std::size_t>(cl.fill);
      const model::Lattice& l = p.lattices[li];
      std::int64_t in_lattice = 0;
      for (std::size_t e = 0; e < l.universes.size(); ++e) {
        out.element_offset[first_element[li] + e] = in_lattice;
        in_lattice += count(l.universes[e]);
      }
      out.outer_offset[li] = in_lattice;
      before += in_lattice + (l.outer >= 0 ? count(l.outer) : 0);
    }
  }
  const std::function<void(int, std::array<double, 3>)> place = [&](int u, std::array<double, 3> origin) {
    if (u == target) {
      out.positions.push_back(origin);
      return;
    }
    if (count(u) == 0) return;
    for_each_child(p, u, [&](int child, std::array<double, 3> offset) {
      place(child, {origin[0] + offset[0], origin[1] + offset[1], origin[2] + offset[2]});
    });
  };
  place(p.root_universe, {0, 0, 0});
  return out;
}

std::int64_t filter_bins(const model::Problem& p, const model::TallyFilter& f, const std::vector<std::int64_t>& placed) {
  switch (info_of(f.kind).bins) {
    case FilterBins::mesh: {
      const auto& shape = p.meshes[static_cast<std::size_t>(f.mesh)].mesh.shape;
      return std::int64_t{shape[0]} * shape[1] * shape[2];
    }
    case FilterBins::placements: {
      std::int64_t total = 0;
      for (const int c : f.items) total += placed[static_cast<std::size_t>(c)];
      return total;
    }
    case FilterBins::bounds: return static_cast<std::int64_t>(f.bounds.size()) - 1;
    case FilterBins::groups: return p.groups;
    case FilterBins::names: break;
  }
  return static_cast<std::int64_t>(f.items.size());
}

std::size_t item_count(const model::Problem& p, FilterItems items) {
  switch (items) {
    case FilterItems::cells: return p.cells.size();
    case FilterItems::materials: return p.materials.size();
    case FilterItems::universes: return p.universes.size();
    case FilterItems::none: break;
  }
  return 0;
}

const std::string& item_name(const model::Problem& p, FilterItems items, int i) {
  const auto at = static_cast<std::size_t>(i);
  switch (items) {
    case FilterItems::materials: return p.materials[at].name;
    case FilterItems::universes: return p.universes[at].name;
    case FilterItems::cells:
    case FilterItems::none: break;
  }
  return p.cells[at].name;
}

std::int64_t tally_values(const model::Problem& p, const model::Tally& t, const std::vector<std::int64_t>& placed) {
  std::int64_t values = static_cast<std::int64_t>(t.scores.size());
  for (const auto& f : t.filters) values *= filter_bins(p, f, placed);
  return values;
}

}  // namespace keff
