// Macroscopic cross-section lookup throughput, in the manner of XSBench's event-based "unionized" and
// "hash" runs: random (energy, material) pairs, each lookup summing every nuclide of the material.
//   xs_lookup_bench [--nuclides N] [--fuel F] [--gridpoints G] [--lookups L] [--grid hash|unionized|nuclide|all]
// Prints one line per grid kind: lookups/s and a checksum (the sum of Sigma_t over all lookups).
#include <mpi.h>

#include <Kokkos_Core.hpp>

#include "io/model.hpp"
#include "kernels/rng.hpp"
#include "kernels/workspace.hpp"
#include "kernels/xs_lookup.hpp"
#include "src/build_nuclear_data.hpp"
#include "src/synthetic_data.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

using namespace keff;

struct Options {
  int nuclides = 355, fuel = 321, gridpoints = 11303, hash_bins = 8000;
  std::int64_t lookups = 10'000'000;
  std::string grid = "hash";
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    const char* v = argv[i + 1];
    if (a == "--nuclides") o.nuclides = std::atoi(v);
    else if (a == "--fuel") o.fuel = std::atoi(v);
    else if (a == "--gridpoints") o.gridpoints = std::atoi(v);
    else if (a == "--lookups") o.lookups = std::atoll(v);
    else if (a == "--grid") o.grid = v;
    else if (a == "--hash-bins") o.hash_bins = std::atoi(v);
    else { std::fprintf(stderr, "unknown option %s\n", a.c_str()); std::exit(2); }
  }
  return o;
}

// Two materials, as in XSBench's simplest reading of Hoogenboom-Martin: fuel (the first `fuel` nuclides)
// and moderator (H1, O16).
model::Problem materials(const Options& o) {
  model::Problem p;
  p.materials.resize(2);
  auto& fuel = p.materials[0];
  fuel.name = "fuel";
  for (int i = 0; i < o.fuel; ++i) fuel.nuclides.push_back({synthetic_nuclide_name(i), 1e-3 / (1 + i)});
  auto& water = p.materials[1];
  water.name = "water";
  water.nuclides = {{"H1", 6.7e-2}, {"O16", 3.3e-2}};
  return p;
}

double run(const Options& o, const NuclideLibrary& lib, EnergyGridKind kind, const char* name) {
  using Exec = Kokkos::DefaultExecutionSpace;
  const Exec exec;
  const auto t0 = std::chrono::steady_clock::now();
  const auto nuclides = build_nuclide_params(exec, lib, kind, o.hash_bins);
  const auto problem = materials(o);
  const auto mats = build_material_params(exec, problem, lib);
  const double build_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  Workspace<Exec> ws(exec, mats.max_nuclides);

  const auto lookup = KOKKOS_LAMBDA(std::int64_t i, double& sum) {
    Kokkos::Experimental::AcquireUniqueToken<Exec> token(ws.token);
    const auto cache = Kokkos::subview(ws.micro_xs, token.value(), Kokkos::ALL);
    Lcg63 rng = history_rng(42, RngStream::tracking, 1, 1, static_cast<std::uint64_t>(i));
    const Real e = constants::energy_min_ev * Kokkos::exp(rng.next() * Kokkos::log(constants::energy_max_ev / constants::energy_min_ev));
    const int material = rng.next() < 0.5 ? 0 : 1;
    sum += macro_xs(nuclides, mats, material, e, cache).total;
  };
  double checksum = 0;
  Kokkos::parallel_reduce("keff::perf::xs_warmup", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, o.lookups / 10), lookup, checksum);
  exec.fence();
  const auto t1 = std::chrono::steady_clock::now();
  Kokkos::parallel_reduce("keff::perf::xs_lookup", Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, o.lookups), lookup, checksum);
  exec.fence();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  std::printf("%-10s %12.4g lookups/s  %8.3f s for %lld lookups  (build %.2f s)  checksum %.10e\n", name,
              static_cast<double>(o.lookups) / s, s, static_cast<long long>(o.lookups), build_s, checksum);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  {
    Kokkos::ScopeGuard guard(argc, argv);
    const Options o = parse(argc, argv);
    SyntheticDataSpec spec;
    spec.nuclides = o.nuclides;
    spec.gridpoints = o.gridpoints;
    const NuclideLibrary lib = generate_synthetic_library(spec);
    std::printf("keff XS lookup benchmark: %d nuclides x %d points, fuel %d nuclides, %s with %d threads\n",
                o.nuclides, o.gridpoints, o.fuel, Kokkos::DefaultExecutionSpace::name(),
                Kokkos::DefaultExecutionSpace().concurrency());
    if (o.grid == "hash" || o.grid == "all") run(o, lib, EnergyGridKind::hash, "hash");
    if (o.grid == "unionized" || o.grid == "all") run(o, lib, EnergyGridKind::unionized, "unionized");
    if (o.grid == "nuclide" || o.grid == "all") run(o, lib, EnergyGridKind::nuclide, "nuclide");
  }
  MPI_Finalize();
  return 0;
}
