#pragma once
// What the geometry tests share: geometries built in code (each add_* appends one entity to a
// model::Problem and returns its index, with a file and line the messages can name), and a way to run a
// device function once and read its answer back, so the tests are valid on GPU builds too.
#include "io/input/model.hpp"
#include "kernels/device.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace keff::geometry_test {

inline int add_surface(model::Problem& p, SurfaceKind kind, std::array<double, 4> c,
                       BoundaryKind boundary = BoundaryKind::transmission) {
  model::Surface s;
  s.user_id = static_cast<int>(p.surfaces.size()) + 1;
  s.kind = kind;
  s.coeffs = c;
  s.boundary = boundary;
  s.where = {"test.toml", 10 + s.user_id};
  p.surfaces.push_back(s);
  return static_cast<int>(p.surfaces.size()) - 1;
}

inline int add_universe(model::Problem& p, const std::string& name) {
  p.universes.push_back({name, {}});
  return static_cast<int>(p.universes.size()) - 1;
}

inline model::HalfSpace pos(int s) { return {s, true}; }
inline model::HalfSpace neg(int s) { return {s, false}; }

inline int add_cell(model::Problem& p, const std::string& name, int universe, std::vector<model::HalfSpace> region,
                    FillKind kind, int fill) {
  model::Cell c;
  c.name = name;
  c.universe = universe;
  c.region = std::move(region);
  c.fill_kind = kind;
  c.fill = fill;
  c.where = {"test.toml", 100 + static_cast<int>(p.cells.size())};
  p.cells.push_back(c);
  const int index = static_cast<int>(p.cells.size()) - 1;
  p.universes[static_cast<std::size_t>(universe)].cells.push_back(index);
  return index;
}

inline int add_lattice(model::Problem& p, const std::string& name, std::array<double, 3> lower_left,
                       std::array<double, 3> pitch, std::array<int, 3> shape, std::vector<int> universes,
                       int outer) {
  model::Lattice l;
  l.name = name;
  l.lower_left = lower_left;
  l.pitch = pitch;
  l.shape = shape;
  l.universes = std::move(universes);
  l.outer = outer;
  l.where = {"test.toml", 200 + static_cast<int>(p.lattices.size())};
  p.lattices.push_back(l);
  return static_cast<int>(p.lattices.size()) - 1;
}

// Kernels are functors at namespace scope: CUDA refuses extended lambdas inside the private TestBody of a
// gtest TEST.
template <class Answer, class Eval>
struct Runner {
  Eval eval;
  Kokkos::View<Answer, DeviceMem> out;
  KOKKOS_FUNCTION void operator()(int) const { out() = eval(); }
};

template <class Answer, class Eval>
Answer run_on_device(const Eval& eval) {
  Kokkos::View<Answer, DeviceMem> out("keff::test::geometry::answer");
  Kokkos::parallel_for("keff::test::geometry::probe", Kokkos::RangePolicy<DeviceExec>(0, 1),
                       Runner<Answer, Eval>{eval, out});
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, out)();
}

}  // namespace keff::geometry_test
