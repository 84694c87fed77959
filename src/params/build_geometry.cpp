// Flattens the problem's CSG model into the offset arrays of GeometryParams and copies them to the
// device (src/params/to_device.hpp). Each part fences `exec` before its host Views go out of scope,
// since the copies from them run asynchronously on `exec`. The model has been validated once, where it
// was read (io/input/input_geometry.cpp: indices, nesting, plane normals).
#include "src/params/build_geometry.hpp"

#include "src/params/to_device.hpp"

#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace keff {

namespace {

// Offsets [n + 1] of the concatenation of the sizes given by size_of(i).
template <class SizeOf>
HostView<int*> offsets_view(const std::string& label, std::size_t n, SizeOf size_of) {
  auto offsets = host_view<int*>(label, n + 1);
  offsets(0) = 0;
  for (std::size_t i = 0; i < n; ++i) offsets(i + 1) = offsets(i) + static_cast<int>(size_of(i));
  return offsets;
}

// ---- flattening ---------------------------------------------------------------------------------

std::array<double, surface_coeff_count> normalised_coeffs(const model::Surface& s) {
  std::array<double, surface_coeff_count> c = s.coeffs;
  if (s.kind != SurfaceKind::plane) return c;
  const double norm = model::plane_normal_length(c);
  for (double& x : c) x /= norm;
  return c;
}

void build_surfaces(const DeviceExec& exec, const model::Problem& p, GeometryParams<DeviceMem>& g) {
  const std::size_t n = p.surfaces.size();
  auto kind = host_view<int*>("keff::geometry::surface_kind", n);
  auto boundary = host_view<int*>("keff::geometry::surface_boundary", n);
  auto coeffs = host_view<Real* [surface_coeff_count], Rows>("keff::geometry::surface_coeffs", n);
  for (std::size_t i = 0; i < n; ++i) {
    const model::Surface& s = p.surfaces[i];
    kind(i) = static_cast<int>(s.kind);
    boundary(i) = static_cast<int>(s.boundary);
    const auto c = normalised_coeffs(s);
    for (int j = 0; j < surface_coeff_count; ++j) coeffs(i, j) = c[static_cast<std::size_t>(j)];
  }
  g.surface_kind = to_device(exec, kind);
  g.surface_boundary = to_device(exec, boundary);
  g.surface_coeffs = to_device(exec, coeffs);
  exec.fence("keff::geometry::build_surfaces");  // the host Views die on return
}

void build_cells(const DeviceExec& exec, const model::Problem& p, GeometryParams<DeviceMem>& g) {
  const std::size_t n = p.cells.size();
  auto offsets =
      offsets_view("keff::geometry::cell_region_offsets", n, [&](std::size_t i) { return p.cells[i].region.size(); });
  auto region = host_view<int*>("keff::geometry::cell_region", static_cast<std::size_t>(offsets(n)));
  auto fill_kind = host_view<int*>("keff::geometry::cell_fill_kind", n);
  auto fill = host_view<int*>("keff::geometry::cell_fill", n);
  for (std::size_t i = 0; i < n; ++i) {
    const model::Cell& c = p.cells[i];
    int t = offsets(i);
    for (const model::HalfSpace& h : c.region) region(t++) = h.positive ? h.surface + 1 : -(h.surface + 1);
    fill_kind(i) = static_cast<int>(c.fill_kind);
    fill(i) = c.fill;
  }
  g.cell_region_offsets = to_device(exec, offsets);
  g.cell_region = to_device(exec, region);
  g.cell_fill_kind = to_device(exec, fill_kind);
  g.cell_fill = to_device(exec, fill);
  exec.fence("keff::geometry::build_cells");
}

// For each side of a surface that bounds a cell, the other cells of that universe bounded by the other
// side: the cells a particle crossing it can enter. A side with more than max_neighbours such cells gets
// an empty list (relocate_below then searches the universe, which such a list would hardly shorten).
constexpr std::size_t max_neighbours = 8;

std::vector<std::vector<int>> neighbours_by_token(const model::Problem& p) {
  std::map<std::tuple<int, int, bool>, std::vector<int>> cells_by_side;  // (universe, surface, side)
  for (std::size_t c = 0; c < p.cells.size(); ++c) {
    for (const model::HalfSpace& h : p.cells[c].region) {
      auto& cells = cells_by_side[{p.cells[c].universe, h.surface, h.positive}];
      if (cells.empty() || cells.back() != static_cast<int>(c)) cells.push_back(static_cast<int>(c));
    }
  }
  std::vector<std::vector<int>> out;
  for (const model::Cell& c : p.cells) {
    for (const model::HalfSpace& h : c.region) {
      const auto it = cells_by_side.find({c.universe, h.surface, !h.positive});
      const bool useful = it != cells_by_side.end() && it->second.size() <= max_neighbours;
      out.push_back(useful ? it->second : std::vector<int>{});
    }
  }
  return out;
}

void build_neighbours(const DeviceExec& exec, const model::Problem& p, GeometryParams<DeviceMem>& g) {
  const auto lists = neighbours_by_token(p);
  auto offsets = offsets_view("keff::geometry::region_neighbour_offsets", lists.size(),
                              [&](std::size_t i) { return lists[i].size(); });
  auto cells = host_view<int*>("keff::geometry::region_neighbours", static_cast<std::size_t>(offsets(lists.size())));
  int t = 0;
  for (const auto& list : lists) {
    for (int c : list) cells(t++) = c;
  }
  g.region_neighbour_offsets = to_device(exec, offsets);
  g.region_neighbours = to_device(exec, cells);
  exec.fence("keff::geometry::build_neighbours");
}

void build_universes(const DeviceExec& exec, const model::Problem& p, GeometryParams<DeviceMem>& g) {
  const std::size_t n = p.universes.size();
  auto offsets = offsets_view("keff::geometry::universe_cell_offsets", n,
                              [&](std::size_t i) { return p.universes[i].cells.size(); });
  auto cells = host_view<int*>("keff::geometry::universe_cells", static_cast<std::size_t>(offsets(n)));
  for (std::size_t i = 0; i < n; ++i) {
    int t = offsets(i);
    for (int c : p.universes[i].cells) cells(t++) = c;
  }
  g.universe_cell_offsets = to_device(exec, offsets);
  g.universe_cells = to_device(exec, cells);
  g.root_universe = p.root_universe;
  exec.fence("keff::geometry::build_universes");
}

void build_lattices(const DeviceExec& exec, const model::Problem& p, GeometryParams<DeviceMem>& g) {
  const std::size_t n = p.lattices.size();
  auto lower_left = host_view<Real* [3], Rows>("keff::geometry::lattice_lower_left", n);
  auto pitch = host_view<Real* [3], Rows>("keff::geometry::lattice_pitch", n);
  auto shape = host_view<int* [3], Rows>("keff::geometry::lattice_shape", n);
  auto outer = host_view<int*>("keff::geometry::lattice_outer", n);
  auto offsets =
      offsets_view("keff::geometry::lattice_offsets", n, [&](std::size_t i) { return p.lattices[i].universes.size(); });
  auto universes = host_view<int*>("keff::geometry::lattice_universes", static_cast<std::size_t>(offsets(n)));
  for (std::size_t i = 0; i < n; ++i) {
    const model::Lattice& l = p.lattices[i];
    for (std::size_t a = 0; a < 3; ++a) {
      lower_left(i, a) = l.lower_left[a];
      pitch(i, a) = l.pitch[a];
      shape(i, a) = l.shape[a];
    }
    outer(i) = l.outer;
    int t = offsets(i);
    for (int u : l.universes) universes(t++) = u;
  }
  g.lattice_lower_left = to_device(exec, lower_left);
  g.lattice_pitch = to_device(exec, pitch);
  g.lattice_shape = to_device(exec, shape);
  g.lattice_offsets = to_device(exec, offsets);
  g.lattice_universes = to_device(exec, universes);
  g.lattice_outer = to_device(exec, outer);
  exec.fence("keff::geometry::build_lattices");
}

}  // namespace

GeometryParams<DeviceMem> build_geometry(const DeviceExec& exec, const model::Problem& problem) {
  Kokkos::Profiling::ScopedRegion region("keff::geometry::build");
  GeometryParams<DeviceMem> g;
  build_surfaces(exec, problem, g);
  build_cells(exec, problem, g);
  build_neighbours(exec, problem, g);
  build_universes(exec, problem, g);
  build_lattices(exec, problem, g);
  return g;
}

}  // namespace keff
