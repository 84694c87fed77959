// XSBench's H-M problem built on the host (see hm_problem.hpp for what is reproduced and why).
#include "perf/hm_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace keff::perf {

namespace {

// Nuclide indices shared between XSBench's materials.
const std::vector<int> water = {24, 41, 4, 5};
const std::vector<int> cladding = {63, 64, 65, 66, 67};
const std::vector<int> steel = {19, 20, 21, 22, 35, 36, 37, 38, 39, 25};
const std::vector<int> steel_trace = {49, 50, 51, 11, 12, 13, 14};
const std::vector<int> fuel_small = {58, 59, 60, 61, 40, 42, 43, 44, 45, 46, 1,  2,  3,  7,  8,  9,  10,
                                     29, 57, 47, 48, 0,  62, 15, 33, 34, 52, 53, 54, 55, 56, 18, 23, 41};
constexpr int fuel_large_count = 321;  // small fuel plus 68, 69, ..., up to 321 in all

std::vector<int> join(std::initializer_list<std::vector<int>> parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

struct HmMaterial {
  const char* name;
  double volume_fraction;  // as listed; the sampler's quirk changes fuel's share (see the header)
  std::vector<int> nuclides;
};

std::vector<HmMaterial> materials(HmSize size) {
  std::vector<int> fuel = fuel_small;
  if (size == HmSize::large) {
    for (int n = 68; static_cast<int>(fuel.size()) < fuel_large_count; ++n) fuel.push_back(n);
  }
  const std::vector<int> vessel = join({steel, {27, 28, 29, 30, 31, 32, 26}, steel_trace, {6, 16, 17}});
  const std::vector<int> reflector = join({water, steel, steel_trace});
  const std::vector<int> assembly_end = join({water, cladding});
  return {
      {"fuel", 0.140, fuel},
      {"cladding", 0.052, cladding},
      {"cold_borated_water", 0.275, water},
      {"hot_borated_water", 0.134, water},
      {"vessel", 0.154, vessel},
      {"lower_radial_reflector", 0.064, reflector},
      {"top_reflector", 0.066, reflector},
      {"bottom_plate", 0.055, reflector},
      {"bottom_nozzle", 0.008, reflector},
      {"top_nozzle", 0.015, reflector},
      {"assembly_top", 0.025, assembly_end},
      {"assembly_bottom", 0.013, assembly_end},
  };
}

std::string nuclide_name(int n) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "HM%03d", n);
  return buf;
}

}  // namespace

HmProblem make_hm_problem(HmSize size, HmEnergyMap map, int gridpoints) {
  if (gridpoints < 2) throw std::invalid_argument("hm problem: gridpoints must be >= 2");
  HmProblem hm;
  hm.name = size == HmSize::small ? "hm-small" : "hm-large";
  hm.n_nuclides = size == HmSize::small ? 68 : 355;
  hm.n_gridpoints = gridpoints;

  HmSampler& s = hm.sampler;
  s.linear = map == HmEnergyMap::linear ? 1 : 0;
  s.log_emin = std::log(constants::energy_min_ev);
  s.log_span = std::log(constants::energy_max_ev) - s.log_emin;
  s.scale = 16777216.0;  // 2^24 eV: a power of two, so u * scale keeps u's rounding

  // Grid points: six draws per point, nuclide after nuclide, then each nuclide sorted by energy.
  const auto n_nuc = static_cast<std::size_t>(hm.n_nuclides);
  const auto n_pts = static_cast<std::size_t>(gridpoints);
  hm.table.resize(n_nuc * n_pts);
  Lcg63 data_rng;
  data_rng.state = 42;
  for (HmPoint& p : hm.table) {
    p.u = data_rng.next();
    p.total = data_rng.next();
    p.elastic = data_rng.next();
    p.absorption = data_rng.next();
    p.fission = data_rng.next();
    p.nu_fission = data_rng.next();
  }
  for (std::size_t n = 0; n < n_nuc; ++n) {
    const auto first = hm.table.begin() + static_cast<std::ptrdiff_t>(n * n_pts);
    std::sort(first, first + static_cast<std::ptrdiff_t>(n_pts),
              [](const HmPoint& a, const HmPoint& b) { return a.u < b.u; });
  }

  hm.library.nuclides.resize(n_nuc);
  for (std::size_t n = 0; n < n_nuc; ++n) {
    NuclideData& d = hm.library.nuclides[n];
    d.name = nuclide_name(static_cast<int>(n));
    d.id = static_cast<std::int32_t>(n + 1);
    d.fissile = true;  // every XSBench nuclide has fission and nu-fission data
    d.nu0 = 2.5;
    d.nu1 = 0.0;
    d.energy.resize(n_pts);
    d.elastic.resize(n_pts);
    d.capture.resize(n_pts);
    d.fission.resize(n_pts);
    for (std::size_t i = 0; i < n_pts; ++i) {
      const HmPoint& p = hm.table[n * n_pts + i];
      d.energy[i] = s.energy_ev(p.u);
      d.elastic[i] = p.elastic;
      d.capture[i] = p.absorption;
      d.fission[i] = p.fission;
    }
  }

  // Materials and their atom densities, drawn in material order.
  Lcg63 density_rng;
  density_rng.state = hm_lookup_seed * hm_lookup_seed;
  const auto mats = materials(size);
  hm.problem.settings.thermal = model::ThermalModel::none;  // XSBench looks up 0 K tables: no free-gas factor
  hm.problem.materials.resize(mats.size());
  for (std::size_t m = 0; m < mats.size(); ++m) {
    model::Material& out = hm.problem.materials[m];
    out.name = mats[m].name;
    for (int n : mats[m].nuclides) out.nuclides.push_back({nuclide_name(n), density_rng.next()});
  }

  // Thresholds summed from material m down to 1, as XSBench sums them, so that a roll on a boundary
  // goes the same way.
  for (int m = 1; m < hm_material_count; ++m) {
    double running = 0;
    for (int j = m; j > 0; --j) running += mats[static_cast<std::size_t>(j)].volume_fraction;
    s.threshold[m] = running;
  }
  hm.probability[0] = 1.0 - s.threshold[hm_material_count - 1];
  for (int m = 1; m < hm_material_count; ++m) hm.probability[m] = s.threshold[m] - s.threshold[m - 1];
  hm.mean_nuclides = 0;
  for (int m = 0; m < hm_material_count; ++m) {
    hm.mean_nuclides += hm.probability[m] * static_cast<double>(mats[static_cast<std::size_t>(m)].nuclides.size());
  }
  return hm;
}

}  // namespace keff::perf
