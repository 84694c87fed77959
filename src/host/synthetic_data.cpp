// Synthetic continuous-energy nuclear data.
//
// Everything here is a deterministic function of (spec.seed, nuclide index, spec.gridpoints, spec.flat):
// nuclide i draws from its own splitmix64 stream seeded by (seed, i), so the first 68 nuclides of a
// 355-nuclide library equal the 68-nuclide library with the same seed. Only IEEE-exact operations are
// used (+ - * / sqrt, floor, frexp, ldexp); exp and log are computed here by series instead of libm,
// whose results differ between implementations. The output is therefore bit-identical on every machine.
//
// Energy grid (every nuclide): `gridpoints` points log-spaced from energy_min_ev to energy_max_ev, the
// interior ones moved by a deterministic jitter of up to +-0.3 of a log step (so nuclides' grids differ
// and the unionized grid is as large as a real library's); endpoints exact, strictly ascending.
//
// Shapes (barns, E in eV, E_th = 0.0253 eV):
//   elastic(E) = potential + sum_r el_r   * S_r(E)
//   capture(E) = c_th * sqrt(E_th / E) + c_fast * E / (E + 1e4) + sum_r cap_r * S_r(E)
//   fission(E) =
//     thermally fissile (U235, Pu239, Pu241): f_th * sqrt(E_th / E) + f_fast * E / (E + 1e4) + sum_r fis_r * S_r(E)
//     threshold fissile (U238, Pu240):        f_thr / (1 + exp(-(E - 1.2 MeV) / 0.1 MeV))   (no resonances)
//     everything else:                        exactly 0
//   S_r(E): a Breit-Wigner (Lorentzian) peak of height 1 at E_r with full width G_r, cut off at 50
//     half-widths and shifted so it falls continuously to 0 there:
//     S = max(0, (L(x) - L(50)) / (1 - L(50))),  L(x) = 1 / (1 + x^2),  x = (E - E_r) / (G_r / 2).
//     The compact support keeps the thermal values (at E_th) exactly c_th, f_th and the potential term.
//
// Thermal values (potential / capture / fission) and resonances per nuclide:
//   H1     20.0 / 0.332  / -      no resonances
//   O16     3.8 / 0.0002 / -      2-3 elastic resonances in 0.4-6 MeV (peaks 3-12 b)
//   B10     2.2 / 3840   / -      no resonances (capture stands for (n,alpha))
//   Zr90    6.5 / 0.011  / -      3-6 resonances in 1 keV-1 MeV (elastic peaks 5-50 b, capture 0.01-1 b)
//   Fe56   12.0 / 2.59   / -      as Zr90
//   U235   10.0 / 98.7   / 585    40-60 resonances in 1 eV-100 keV; f_fast 1.2 b, c_fast 0.1 b
//   U238   10.0 / 2.68   / thr 0.45 b above ~1.2 MeV; 40-60 resonances plus the 6.67 eV one (7000 b)
//   Pu239  10.0 / 271    / 750    40-60 resonances; f_fast 1.8 b
//   Pu240  10.0 / 289    / thr 0.50 b; 40-60 resonances plus the 1.056 eV one (20000 b)
//   Pu241  10.0 / 362    / 1010   40-60 resonances; f_fast 1.6 b
//   FPnnn  potential U(4,12), capture log-uniform in [0.1, 50], awr U(80,160); 4-20 resonances in
//          1 eV-100 keV, capture peaks log-uniform in [5, 2000] b
// Resonance widths G_r / E_r are log-uniform in [1e-3, 1e-2]. For heavy nuclides capture peaks are
// log-uniform in [20, 5000] b, elastic peaks 0.05-0.5 of the capture peak, fission peaks (thermally
// fissile only) 0.5-3 times the capture peak.
// nu(E) = nu0 + nu1 * E[MeV]; Watt spectrum (a, b) per fissile nuclide.
//
// spec.flat: every cross section constant in energy (elastic = potential, capture = c_th, fission = f_th
// or f_thr) and nu1 = 0, so an infinite medium has k_inf = sum N nu sigma_f / sum N (sigma_c + sigma_f).

#include "src/host/synthetic_data.hpp"

#include "io/limits.hpp"
#include "io/test_point.hpp"
#include "kernels/vocabulary/splitmix64.hpp"
#include "kernels/vocabulary/types.hpp"
#include "src/host/interrupt.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

// No fused multiply-add contraction in this file: a contracted a * b + c rounds differently, and compilers
// contract by default where the target has FMA (GCC always, clang within an expression).
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace keff {

namespace {

// ---- deterministic arithmetic ------------------------------------------------------------------

constexpr double ln2 = 0.693147180559945309417232121458176568;
constexpr double inv_ln2 = 1.44269504088896340735992468100189214;

// exp(x) by range reduction x = k ln2 + r, |r| <= ln2 / 2, and a degree-20 Taylor polynomial.
double det_exp(double x) {
  if (x < -740.0) return 0.0;
  if (x > 709.0) return HUGE_VAL;
  const double k = std::floor(x * inv_ln2 + 0.5);
  const double r = x - k * ln2;
  double p = 1.0;
  for (int j = 20; j >= 1; --j) p = 1.0 + p * r / j;
  return std::ldexp(p, static_cast<int>(k));
}

// log(x), x > 0 finite: x = m 2^k with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh((m - 1) / (m + 1)).
double det_log(double x) {
  int k = 0;
  double m = std::frexp(x, &k);  // m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    --k;
  }
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double sum = 0.0;
  for (int j = 14; j >= 0; --j) sum = 1.0 / (2 * j + 1) + s2 * sum;
  return k * ln2 + 2.0 * s * sum;
}

// splitmix64 (kernels/vocabulary/splitmix64.hpp), with the draws the synthetic library makes.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() { return splitmix64_next(state); }
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  double log_uniform(double lo, double hi) { return lo * det_exp(det_log(hi / lo) * uniform()); }
  int integer(int lo, int hi) {  // [lo, hi]
    return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
};

SplitMix64 nuclide_stream(std::uint64_t seed, int index) {
  SplitMix64 mix{seed ^ (0xD1B54A32D192ED03ULL * (static_cast<std::uint64_t>(index) + 1))};
  return SplitMix64{mix.next()};
}

// ---- nuclide profiles ----------------------------------------------------------------------------

constexpr double e_thermal = 0.0253;
constexpr double e_fast_knee = 1.0e4;
constexpr double threshold_energy = 1.2e6;
constexpr double threshold_width = 1.0e5;
constexpr double resonance_cutoff = 50.0;  // half-widths

struct Resonance {
  double energy = 0, width = 0;  // eV (full width)
  double elastic = 0, capture = 0, fission = 0;  // peak heights, barns
};

enum class FissionKind { none, thermal, threshold };

struct Profile {
  std::string name;
  std::int32_t id = 0;
  double awr = 1;
  double potential = 0, capture_thermal = 0, capture_fast = 0;
  FissionKind fission = FissionKind::none;
  double fission_thermal = 0, fission_fast = 0, fission_threshold = 0;
  double nu0 = 0, nu1 = 0, watt_a = 0.988, watt_b = 2.249;
  std::vector<Resonance> resonances;
};

struct NamedNuclide {
  const char* name;
  std::int32_t id;
  double awr;
  double potential, capture_thermal, capture_fast;
  FissionKind fission;
  double fission_value, fission_fast;  // thermal or threshold value
  double nu0, nu1, watt_a, watt_b;
};

constexpr int named_count = 10;
constexpr NamedNuclide named[named_count] = {
    {"H1", 1001, 0.99917, 20.0, 0.332, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"O16", 8016, 15.858, 3.8, 0.0002, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"B10", 5010, 9.9269, 2.2, 3840.0, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"Zr90", 40090, 89.132, 6.5, 0.011, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"Fe56", 26056, 55.454, 12.0, 2.59, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"U235", 92235, 233.025, 10.0, 98.7, 0.1, FissionKind::thermal, 585.0, 1.2, 2.43, 0.066, 0.988, 2.249},
    {"U238", 92238, 236.006, 10.0, 2.68, 0.1, FissionKind::threshold, 0.45, 0, 2.30, 0.15, 0.881, 3.400},
    {"Pu239", 94239, 236.999, 10.0, 271.0, 0.1, FissionKind::thermal, 750.0, 1.8, 2.88, 0.14, 0.966, 2.842},
    {"Pu240", 94240, 237.992, 10.0, 289.0, 0.1, FissionKind::threshold, 0.50, 0, 2.80, 0.14, 0.799, 4.903},
    {"Pu241", 94241, 238.978, 10.0, 362.0, 0.1, FissionKind::thermal, 1010.0, 1.6, 2.93, 0.13, 0.980, 2.400},
};

// Light moderator nuclides for NCrystal materials (graphite, heavy water, beryllium), added to a library
// only when a material names them (SyntheticDataSpec::moderators), so that the libraries and answers of
// problems without them stay as they were. Thermal values: the free-atom scattering cross section (the
// bound one of the NIST table of neutron scattering lengths times (A / (A + 1))^2) and the 2200 m/s
// absorption, 1/v; no resonances.
constexpr int moderator_count = 4;
constexpr NamedNuclide moderators[moderator_count] = {
    {"C12", 6012, 11.8969, 4.74, 0.00353, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"C13", 6013, 12.8916, 4.20, 0.00137, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"H2", 1002, 1.9968, 3.39, 0.000519, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
    {"Be9", 4009, 8.9348, 6.15, 0.0076, 0.0, FissionKind::none, 0, 0, 0, 0, 0.988, 2.249},
};
// Their streams: far from any library's own indices, so a moderator's data does not depend on the size.
constexpr int moderator_stream = 1 << 20;

// Resolved resonances of a heavy nuclide or fission product, positions log-uniform in [1 eV, 100 keV].
void add_resolved_resonances(SplitMix64& rng, Profile& p, int count, double cap_lo, double cap_hi) {
  for (int r = 0; r < count; ++r) {
    Resonance res;
    res.energy = rng.log_uniform(1.0, 1.0e5);
    res.width = res.energy * rng.log_uniform(1.0e-3, 1.0e-2);
    res.capture = rng.log_uniform(cap_lo, cap_hi);
    res.elastic = res.capture * rng.uniform(0.05, 0.5);
    const double fis_ratio = rng.uniform(0.5, 3.0);
    res.fission = p.fission == FissionKind::thermal ? res.capture * fis_ratio : 0.0;
    p.resonances.push_back(res);
  }
}

// Structural-material resonances (mostly scattering) in [e_lo, e_hi].
void add_scattering_resonances(SplitMix64& rng, Profile& p, int count, double e_lo, double e_hi, double el_lo,
                               double el_hi, double cap_lo, double cap_hi) {
  for (int r = 0; r < count; ++r) {
    Resonance res;
    res.energy = rng.log_uniform(e_lo, e_hi);
    res.width = res.energy * rng.log_uniform(1.0e-3, 1.0e-2);
    res.elastic = rng.log_uniform(el_lo, el_hi);
    res.capture = cap_hi > 0 ? rng.log_uniform(cap_lo, cap_hi) : 0.0;
    p.resonances.push_back(res);
  }
}

Profile make_profile(std::uint64_t seed, int index) {
  SplitMix64 rng = nuclide_stream(seed, index);
  Profile p;
  const bool moderator = index >= moderator_stream;
  p.name = moderator ? moderators[index - moderator_stream].name : synthetic_nuclide_name(index);
  if (index < named_count || moderator) {
    const NamedNuclide& n = moderator ? moderators[index - moderator_stream] : named[index];
    p.id = n.id;
    p.awr = n.awr;
    p.potential = n.potential;
    p.capture_thermal = n.capture_thermal;
    p.capture_fast = n.capture_fast;
    p.fission = n.fission;
    if (n.fission == FissionKind::thermal) {
      p.fission_thermal = n.fission_value;
      p.fission_fast = n.fission_fast;
    } else if (n.fission == FissionKind::threshold) {
      p.fission_threshold = n.fission_value;
    }
    p.nu0 = n.nu0;
    p.nu1 = n.nu1;
    p.watt_a = n.watt_a;
    p.watt_b = n.watt_b;
    const std::string name = n.name;
    if (name == "O16") {
      add_scattering_resonances(rng, p, rng.integer(2, 3), 4.0e5, 6.0e6, 3.0, 12.0, 0.0, 0.0);
    } else if (name == "Zr90" || name == "Fe56") {
      add_scattering_resonances(rng, p, rng.integer(3, 6), 1.0e3, 1.0e6, 5.0, 50.0, 0.01, 1.0);
    } else if (n.id > 90000) {  // actinides
      add_resolved_resonances(rng, p, rng.integer(40, 60), 20.0, 5000.0);
      if (name == "U238") p.resonances.push_back({6.67, 6.67 * 0.004, 800.0, 7000.0, 0.0});
      if (name == "Pu240") p.resonances.push_back({1.056, 1.056 * 0.03, 500.0, 20000.0, 0.0});
    }
  } else {
    const int k = index - named_count + 1;
    p.id = 990000 + k;
    p.awr = rng.uniform(80.0, 160.0);
    p.potential = rng.uniform(4.0, 12.0);
    p.capture_thermal = rng.log_uniform(0.1, 50.0);
    p.capture_fast = 0.0;
    add_resolved_resonances(rng, p, rng.integer(4, 20), 5.0, 2000.0);
  }
  return p;
}

// ---- evaluation ------------------------------------------------------------------------------------

std::vector<double> make_grid(std::uint64_t seed, int index, int points) {
  // A stream separate from the profile's, so the grid does not depend on how many resonances were drawn.
  SplitMix64 rng = nuclide_stream(seed ^ 0x6A09E667F3BCC909ULL, index);
  std::vector<double> e(static_cast<std::size_t>(points));
  const double span = det_log(constants::energy_max_ev / constants::energy_min_ev);
  const double step = 1.0 / (points - 1);
  e.front() = constants::energy_min_ev;
  for (int j = 1; j < points - 1; ++j) {
    const double t = (j + rng.uniform(-0.3, 0.3)) * step;
    double v = constants::energy_min_ev * det_exp(span * t);
    if (!(v > e[j - 1])) v = std::nextafter(e[j - 1], HUGE_VAL);
    e[j] = v;
  }
  e.back() = constants::energy_max_ev;
  for (int j = points - 2; j > 0 && !(e[j] < e[j + 1]); --j) e[j] = std::nextafter(e[j + 1], 0.0);
  return e;
}

double resonance_shape(double energy, const Resonance& r) {
  const double half = 0.5 * r.width;
  const double x = (energy - r.energy) / half;
  const double l_cut = 1.0 / (1.0 + resonance_cutoff * resonance_cutoff);
  const double s = (1.0 / (1.0 + x * x) - l_cut) / (1.0 - l_cut);
  return s > 0.0 ? s : 0.0;
}

NuclideData evaluate(const Profile& p, std::vector<double> energy, bool flat) {
  NuclideData d;
  d.name = p.name;
  d.id = p.id;
  d.awr = p.awr;
  d.fissile = p.fission != FissionKind::none;
  d.nu0 = d.fissile ? p.nu0 : 0.0;
  d.nu1 = d.fissile && !flat ? p.nu1 : 0.0;
  d.watt_a = p.watt_a;
  d.watt_b = p.watt_b;
  const std::size_t n = energy.size();
  d.elastic.assign(n, p.potential);
  d.fission.assign(n, 0.0);
  if (flat) {
    d.capture.assign(n, p.capture_thermal);
    if (p.fission == FissionKind::thermal) d.fission.assign(n, p.fission_thermal);
    if (p.fission == FissionKind::threshold) d.fission.assign(n, p.fission_threshold);
    d.energy = std::move(energy);
    return d;
  }
  d.capture.resize(n);
  for (std::size_t j = 0; j < n; ++j) {
    const double e = energy[j];
    const double inv_v = std::sqrt(e_thermal / e);
    const double fast = e / (e + e_fast_knee);
    d.capture[j] = p.capture_thermal * inv_v + p.capture_fast * fast;
    if (p.fission == FissionKind::thermal) {
      d.fission[j] = p.fission_thermal * inv_v + p.fission_fast * fast;
    } else if (p.fission == FissionKind::threshold) {
      d.fission[j] = p.fission_threshold / (1.0 + det_exp(-(e - threshold_energy) / threshold_width));
    }
  }
  // Each resonance touches only the points within its cut-off window.
  for (const Resonance& r : p.resonances) {
    const double reach = resonance_cutoff * 0.5 * r.width;
    const auto first = std::upper_bound(energy.begin(), energy.end(), r.energy - reach);
    const auto last = std::lower_bound(first, energy.end(), r.energy + reach);
    for (auto it = first; it != last; ++it) {
      const std::size_t j = static_cast<std::size_t>(it - energy.begin());
      const double s = resonance_shape(*it, r);
      d.elastic[j] += r.elastic * s;
      d.capture[j] += r.capture * s;
      d.fission[j] += r.fission * s;
    }
  }
  d.energy = std::move(energy);
  return d;
}

}  // namespace

std::string synthetic_nuclide_name(int index) {
  if (index < 0) throw std::invalid_argument("synthetic_nuclide_name: negative index " + std::to_string(index));
  if (index < named_count) return named[index].name;
  std::string digits = std::to_string(index - named_count + 1);
  if (digits.size() < 3) digits.insert(0, 3 - digits.size(), '0');
  return "FP" + digits;
}

int synthetic_named_count() { return named_count; }

int synthetic_moderator_index(const std::string& name) {
  for (int j = 0; j < moderator_count; ++j) {
    if (name == moderators[j].name) return j;
  }
  return -1;
}

NuclideLibrary generate_synthetic_library(const SyntheticDataSpec& spec, const std::vector<std::string>& moderators) {
  if (spec.nuclides < 1 || spec.nuclides > limits::max_nuclides) {
    throw std::invalid_argument("synthetic nuclear data: nuclides = " + std::to_string(spec.nuclides) +
                                " (allowed: " + limits::integer_range(1, limits::max_nuclides) + ")");
  }
  if (spec.gridpoints < 2 || spec.gridpoints > limits::max_gridpoints) {
    throw std::invalid_argument("synthetic nuclear data: gridpoints = " + std::to_string(spec.gridpoints) +
                                " (allowed: " + limits::integer_range(2, limits::max_gridpoints) + ")");
  }
  if (!limits::checked_product(limits::max_total_gridpoints, spec.nuclides, spec.gridpoints)) {
    throw std::invalid_argument("synthetic nuclear data: " + std::to_string(spec.nuclides) + " nuclides x " +
                                std::to_string(spec.gridpoints) + " points (allowed: nuclides x gridpoints <= " +
                                limits::number_text(limits::max_total_gridpoints) + ")");
  }
  NuclideLibrary library;
  library.nuclides.reserve(static_cast<std::size_t>(spec.nuclides));
  for (int i = 0; i < spec.nuclides; ++i) {
    const Profile profile = make_profile(spec.seed, i);
    library.nuclides.push_back(evaluate(profile, make_grid(spec.seed, i, spec.gridpoints), spec.flat));
    if (i == 0 && test_points_enabled()) test_point("data-generate");
    throw_if_interrupted("while generating synthetic nuclear data, after " + std::to_string(i + 1) + " of " +
                         std::to_string(spec.nuclides) + " nuclides");
  }
  for (const std::string& name : moderators) {
    const int j = synthetic_moderator_index(name);
    if (j < 0) throw std::invalid_argument("synthetic nuclear data: no moderator nuclide '" + name + "'");
    if (library.find(name) >= 0) continue;
    const int stream = moderator_stream + j;
    library.nuclides.push_back(evaluate(make_profile(spec.seed, stream), make_grid(spec.seed, stream, spec.gridpoints), spec.flat));
  }
  return library;
}

NuclideLibrary generate_synthetic_library(const SyntheticDataSpec& spec) {
  return generate_synthetic_library(spec, std::vector<std::string>());
}

}  // namespace keff
