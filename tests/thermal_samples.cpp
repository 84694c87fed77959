// What keff makes of an NCrystal material, for tests/python/test_ncrystal_python.py to hold against
// NCrystal's own Python API: at each energy asked, the scattering cross section keff's lookup gives and
// `n` scatters of a neutron flying along +z (E', mu = its new z direction), through the tables a run
// builds (default spec, seed 1) or, with --direct, through NCrystal asked in transport.
//
//   keff_thermal_samples CFG TEMPERATURE_K N E1 [E2 ...] [--direct]
//
// Prints "xs E barns" per energy, then "scatter E E' mu" per scatter. Exit 77: --direct on a GPU backend.
#include "io/input/settings_rows.hpp"
#include "io/thermal/ncrystal.hpp"
#include "kernels/device.hpp"
#include "kernels/thermal_table.hpp"
#include "src/params/build_thermal_tables.hpp"
#include "src/params/to_device.hpp"

#include <Kokkos_Core.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

namespace keff {
namespace {

int run(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool direct = !args.empty() && args.back() == "--direct";
  if (direct) args.pop_back();
  if (args.size() < 4) {
    std::fprintf(stderr, "usage: keff_thermal_samples CFG TEMPERATURE_K N E1 [E2 ...] [--direct]\n");
    return 2;
  }
  const NCrystalMaterial material = open_ncrystal(args[0], std::stod(args[1]));
  const int n = std::stoi(args[2]);
  std::vector<double> energies;
  for (std::size_t a = 3; a < args.size(); ++a) energies.push_back(std::stod(args[a]));

  const DeviceExec exec;
  const ThermalTableSpec spec = settings::thermal_table_spec(model::Settings{});  // a run's defaults
  ThermalTables<DeviceMem> th;
  std::unique_ptr<NCrystalDirect> asked;
  if (direct) {
    if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible) {
      std::fprintf(stderr, "keff_thermal_samples: --direct: NCrystal is asked in transport on host backends only\n");
      return 77;
    }
    asked = std::make_unique<NCrystalDirect>(std::vector<NCrystalMaterial>{material}, exec.concurrency());
    th.direct = {asked.get(), &ncrystal_direct_xs, &ncrystal_direct_scatter};
    th.cutoff = spec.cutoff_ev;
  } else {
    th = thermal_tables_to_device(exec, to_device(exec, "keff::test::thermal_table_of", std::vector<int>{0}),
                                  {tabulate_ncrystal(material, spec, 1, exec.concurrency())}, spec);
  }

  const int m = static_cast<int>(energies.size());
  Kokkos::View<Real*, Kokkos::HostSpace> e_host("keff::test::energies", energies.size());
  for (int i = 0; i < m; ++i) e_host(i) = energies[static_cast<std::size_t>(i)];
  const auto e_in = Kokkos::create_mirror_view_and_copy(DeviceMem(), e_host);
  Kokkos::View<Real*, DeviceMem> xs("keff::test::thermal_xs", m), e_out("keff::test::e_out", m * n),
      mu_out("keff::test::mu_out", m * n);
  Kokkos::parallel_for(
      "keff::test::thermal_samples", Kokkos::RangePolicy<DeviceExec>(exec, 0, m * n), KOKKOS_LAMBDA(int s) {
        const int i = s / n;
        if (s % n == 0) xs(i) = thermal_xs(th, 0, e_in(i));
        Particle p;
        p.rng = history_rng(11, RngStream::tracking, 0, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(s % n));
        p.u = Vec3{0, 0, 1};
        p.energy = e_in(i);
        scatter_thermal(p, th, 0);
        e_out(s) = p.energy;
        mu_out(s) = p.u.z;
      });
  const auto xs_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xs);
  const auto e_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), e_out);
  const auto mu_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), mu_out);
  for (int i = 0; i < m; ++i) std::printf("xs %.17g %.17g\n", e_host(i), xs_h(i));
  for (int s = 0; s < m * n; ++s) std::printf("scatter %.17g %.17g %.17g\n", e_host(s / n), e_h(s), mu_h(s));
  return 0;
}

}  // namespace
}  // namespace keff

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    return keff::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "keff_thermal_samples: %s\n", e.what());
    return 2;
  }
}
