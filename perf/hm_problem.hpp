#pragma once
// XSBench's version of the Hoogenboom-Martin lookup problem (ANL-CESAR/XSBench, "H-M small" and "H-M
// large"), rebuilt from keff's own types so that keff's lookup kernels run on the very data, materials
// and lookup stream XSBench times, and a run can be checked against XSBench's verification number.
//
// The problem as XSBench defines it:
//  - 68 (small) or 355 (large) nuclides with 11303 grid points each. Every point draws six numbers in a
//    row from one 63-bit LCG stream (seed 42, nuclides one after another): energy, total, elastic,
//    absorption, fission, nu-fission, all uniform in [0, 1); then each nuclide's points are sorted by
//    energy. The channels are independent: total is not the sum of the others.
//  - 12 materials (fuel, cladding, cold and hot borated water, the vessel, five reflector and plate
//    regions, top and bottom of the assemblies). Fuel has 34 nuclides in H-M small and 321 in H-M large,
//    the extra 287 being nuclides 68..354, which appear nowhere else. Atom densities are uniform in
//    [0, 1), drawn from an LCG stream seeded 1070^2, material by material.
//  - A lookup draws the energy, uniform in [0, 1) (not log-uniform), then the material, from lookup
//    i's own stream: seed 1070 skipped ahead 2i draws. The material draw compares the roll with the
//    running volume fraction of materials 1..m and gives fuel only when every comparison fails, so fuel
//    gets 1 - 0.861 = 0.139 rather than its listed 0.140.
//  - History mode: particle p starts at seed 1070 skipped 340p draws (34 lookups x 2 draws x 5) and
//    makes 34 lookups in a chain: after each, it skips ahead one draw per channel above 1, so the next
//    lookup depends on this one's result.
//  - Verification: for each lookup, the 1-based index of its largest channel (first on ties), summed,
//    modulo 999983. Every grid kind finds the same interval, so the number depends on the problem and
//    the lookup count only.
//
// keff's data differ in two ways, so keff's macroscopic values are not XSBench's and the verification
// number is recomputed from a copy of XSBench's own points (`table`) in the reference pass:
//  - keff's total is the sum of elastic, capture and fission, and nu-fission is nu(E) times fission: the
//    keff library takes XSBench's elastic, absorption (as capture) and fission columns and nu = 2.5.
//  - keff's energies are in eV on [1e-5, 2e7] and its hash grid is uniform in log E. XSBench's energy
//    variable u (its source calls it lethargy) maps to E = 1e-5 eV * (2e12)^u, so keff's hash bins hold
//    the same points as XSBench's linear bins and every lookup lands in the same grid interval. The
//    `linear` map (E = u * 2^24 eV, exact) keeps XSBench's interpolation in energy instead but crowds
//    nine tenths of the lookups into the top decade of keff's log hash.
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"
#include "kernels/rng.hpp"
#include "kernels/vocabulary/types.hpp"

#include <Kokkos_Core.hpp>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace keff::perf {

enum class HmSize { small, large };
enum class HmEnergyMap { lethargy, linear };

inline constexpr int hm_material_count = 12;
inline constexpr std::uint64_t hm_lookup_seed = 1070;
inline constexpr int hm_default_gridpoints = 11303;
inline constexpr int hm_default_hash_bins = 10000;
inline constexpr std::int64_t hm_default_lookups = 17'000'000;  // event: 34 lookups x 500000 particles
inline constexpr std::int64_t hm_default_particles = 500'000;
inline constexpr int hm_default_lookups_per_particle = 34;
inline constexpr std::uint64_t hm_verification_modulus = 999983;

// One point of XSBench's own data, at its unit energy variable u.
struct HmPoint {
  double u, total, elastic, absorption, fission, nu_fission;
};

// Sampling of a lookup's (energy, material), the same on host and device.
struct HmSampler {
  // pick: the first m in 1..11 with roll < threshold[m], else 0 (fuel); threshold[0] is unused.
  double threshold[hm_material_count] = {};
  int linear = 0;
  double log_emin = 0, log_span = 0;  // lethargy map
  double scale = 0;                   // linear map

  KOKKOS_INLINE_FUNCTION int material(Lcg63& rng) const {
    const double roll = rng.next();
    for (int m = 1; m < hm_material_count; ++m) {
      if (roll < threshold[m]) return m;
    }
    return 0;
  }

  // keff's energy (eV) of XSBench's u; monotonic, so grid order and intervals carry over.
  KOKKOS_INLINE_FUNCTION Real energy_ev(double u) const {
    return linear ? u * scale : Kokkos::exp(log_emin + u * log_span);
  }
};

struct HmProblem {
  std::string name;  // "hm-small" or "hm-large"
  int n_nuclides = 0;
  int n_gridpoints = 0;
  NuclideLibrary library;   // keff's view of the data, energies mapped by `sampler`
  model::Problem problem;   // the 12 materials, nuclides in XSBench's order
  std::vector<HmPoint> table;  // [nuclide * n_gridpoints + point], ascending u: XSBench's data as is
  HmSampler sampler;
  std::array<double, hm_material_count> probability{};  // of each material, as the sampler gives it
  double mean_nuclides = 0;  // nuclides per lookup, expected
};

HmProblem make_hm_problem(HmSize size, HmEnergyMap map, int gridpoints);

// The stream of event lookup i, and of history particle p.
KOKKOS_INLINE_FUNCTION Lcg63 hm_lookup_rng(std::int64_t i) {
  Lcg63 r;
  r.state = Lcg63::skip(hm_lookup_seed, 2 * static_cast<std::uint64_t>(i));
  return r;
}
KOKKOS_INLINE_FUNCTION Lcg63 hm_particle_rng(std::int64_t p, int lookups_per_particle) {
  Lcg63 r;
  r.state = Lcg63::skip(hm_lookup_seed, static_cast<std::uint64_t>(p) * lookups_per_particle * 2 * 5);
  return r;
}

}  // namespace keff::perf
