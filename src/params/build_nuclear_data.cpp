// Device Params for nuclear data: nuclide grids with their acceleration structure, materials, and
// multigroup tables. Everything is assembled on the host, then copied to device memory once
// (src/params/to_device.hpp); each part fences `exec` before its host Views go out of scope.
#include "src/params/build_nuclear_data.hpp"

#include "io/input/input.hpp"
#include "io/library/nuclear_data.hpp"
#include "io/limits.hpp"
#include "src/params/to_device.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace keff {

namespace {

using HostExec = Kokkos::DefaultHostExecutionSpace;

std::string source_of(const NuclideLibrary& library) {
  return library.path.empty() ? std::string("the synthetic library") : "the library '" + library.path + "'";
}

// What a nuclide grid's builders need to know of its data besides the points.
struct GridSource {
  int nuclides = 0;
  std::string name;  // "the synthetic library", "the library '...'": for messages
};

void check_hash_grid_entries(const GridSource& source, EnergyGridKind grid, int hash_bins, const std::string& input) {
  const auto n_nuc = static_cast<std::int64_t>(source.nuclides);
  if (grid != EnergyGridKind::hash ||
      limits::checked_product(limits::max_xs_table_entries, std::int64_t{hash_bins} + 1, n_nuc)) {
    return;
  }
  throw InputError((input.empty() ? std::string() : input + ": ") + "settings.hash_bins = " + std::to_string(hash_bins) + " with the " + std::to_string(n_nuc) +
                   " nuclides of " + source.name + ": (hash_bins + 1) x nuclides hash-grid entries are too " +
                   "many (allowed: at most " + limits::number_text(limits::max_xs_table_entries) +
                   "; fewer hash_bins, or energy_grid = \"nuclide\")");
}

// Every nuclide's points, concatenated: nuclide n's are [offsets(n), offsets(n + 1)).
struct NuclideGrids {
  HostView<int*> offsets;
  HostView<GridPoint*> points;
};

NuclideGrids concatenated_grids(const NuclideLibrary& library) {
  const auto& nuclides = library.nuclides;
  const int n_nuc = static_cast<int>(nuclides.size());
  std::int64_t n_points = 0;
  for (const NuclideData& d : nuclides) {
    check_nuclide(d, library.path.empty() ? "nuclear data" : library.path);
    n_points += static_cast<std::int64_t>(d.energy.size());
  }
  if (n_points > std::numeric_limits<int>::max()) {
    throw std::invalid_argument("nuclear data: " + std::to_string(n_points) +
                                " grid points in all exceed the 2^31 - 1 an int index can address");
  }
  NuclideGrids g{host_view<int*>("keff::xs::grid_offsets", n_nuc + 1),
                 host_view<GridPoint*>("keff::xs::grid_points", n_points)};
  g.offsets(0) = 0;
  for (int n = 0; n < n_nuc; ++n) g.offsets(n + 1) = g.offsets(n) + static_cast<int>(nuclides[n].energy.size());
  for (int n = 0; n < n_nuc; ++n) {
    const NuclideData& d = nuclides[n];
    for (std::size_t i = 0; i < d.energy.size(); ++i) {
      const auto j = static_cast<std::size_t>(g.offsets(n)) + i;
      g.points(j) = GridPoint{d.energy[i], d.elastic[i], d.capture[i], d.fission[i]};
    }
  }
  return g;
}

// The logarithmic hash grid. hash_index(b, n) = the largest local index whose point falls in a bin < b
// (at or below the lower edge of bin b), 0 if none. The bin of a point uses the same formula as
// energy_search.
void build_hash_grid(const DeviceExec& exec, const GridSource& source, const NuclideGrids& grids, int hash_bins,
                     NuclideGrid<DeviceMem>& p) {
  if (hash_bins < 1) throw std::invalid_argument("hash_bins must be >= 1, got " + std::to_string(hash_bins));
  check_hash_grid_entries(source, EnergyGridKind::hash, hash_bins, "");
  const int n_nuc = source.nuclides;
  const Real log_emin = std::log(constants::energy_min_ev);
  const Real inv_dlog = hash_bins / (std::log(constants::energy_max_ev) - log_emin);
  auto hash_index = host_view<int**, Rows>("keff::xs::hash_index", hash_bins + 1, n_nuc);
  const auto offsets = grids.offsets;
  const auto points = grids.points;
  HostExec host;
  Kokkos::parallel_for(
      "keff::xs::build_hash_grid", Kokkos::RangePolicy<HostExec>(host, 0, n_nuc), [=](int n) {
        const int base = offsets(n);
        const int npts = offsets(n + 1) - base;
        int i = 0;      // points [0, i) have bin < b
        int bin_i = 0;  // bin of point i
        auto bin_of = [&](int k) {
          const Real x = (std::log(points(base + k).energy) - log_emin) * inv_dlog;
          if (!(x > 0)) return 0;
          if (x >= static_cast<Real>(hash_bins)) return hash_bins - 1;
          return static_cast<int>(x);
        };
        bin_i = bin_of(0);
        for (int b = 0; b <= hash_bins; ++b) {
          while (i < npts && bin_i < b) {
            ++i;
            if (i < npts) bin_i = bin_of(i);
          }
          hash_index(b, n) = i > 0 ? i - 1 : 0;
        }
      });
  host.fence("keff::xs::build_hash_grid");
  p.hash_index = to_device(exec, hash_index);
  p.hash_log_emin = log_emin;
  p.hash_inv_dlog = inv_dlog;
  exec.fence("keff::xs::build_hash_grid");
}

// The unionized grid's energies: every nuclide's points, sorted, each once. Its index, a row per union
// point, is checked against limits::max_xs_table_entries here, before it is allocated.
HostView<Real*> union_energy_grid(const GridSource& source, const NuclideGrids& grids) {
  std::vector<Real> merged(grids.points.extent(0));
  for (std::size_t j = 0; j < merged.size(); ++j) merged[j] = grids.points(j).energy;
  std::sort(merged.begin(), merged.end());
  merged.erase(std::unique(merged.begin(), merged.end()), merged.end());
  const int n_nuc = source.nuclides;
  const auto n_union = merged.size();
  if (!limits::checked_product(limits::max_xs_table_entries, static_cast<std::int64_t>(n_union), n_nuc)) {
    throw InputError("settings.energy_grid = \"unionized\" with the " + std::to_string(n_nuc) + " nuclides of " +
                     source.name + ": " + std::to_string(n_union) + " union points x " + std::to_string(n_nuc) +
                     " nuclides are too many entries for the union grid's index (allowed: at most " +
                     limits::number_text(limits::max_xs_table_entries) + "; energy_grid = \"hash\" or \"nuclide\")");
  }
  auto union_energy = host_view<Real*>("keff::xs::union_energy", n_union);
  std::copy(merged.begin(), merged.end(), union_energy.data());
  return union_energy;
}

// union_index(u, n) = the local index of nuclide n at or below union_energy(u).
void build_union_grid(const DeviceExec& exec, const GridSource& source, const NuclideGrids& grids,
                      NuclideGrid<DeviceMem>& p) {
  const auto union_energy = union_energy_grid(source, grids);
  const auto n_union = static_cast<std::int64_t>(union_energy.extent(0));
  const int n_nuc = source.nuclides;
  auto union_index = host_view<int**, Rows>("keff::xs::union_index", n_union, n_nuc);
  const auto offsets = grids.offsets;
  const auto points = grids.points;
  // Blocks of union points in parallel; within a block each nuclide's cursor starts from a binary
  // search and then walks, writing whole rows (contiguous in LayoutRight).
  constexpr std::int64_t block = 4096;
  const std::int64_t n_blocks = (n_union + block - 1) / block;
  HostExec host;
  Kokkos::parallel_for(
      "keff::xs::build_union_grid", Kokkos::RangePolicy<HostExec>(host, 0, n_blocks), [=](std::int64_t blk) {
        const std::int64_t u0 = blk * block;
        const std::int64_t u1 = std::min<std::int64_t>(u0 + block, n_union);
        std::vector<int> cursor(static_cast<std::size_t>(n_nuc));  // largest local index <= union_energy(u)
        for (int n = 0; n < n_nuc; ++n) {
          const GridPoint* e = points.data() + offsets(n);
          const int npts = offsets(n + 1) - offsets(n);
          const int above = static_cast<int>(
              std::upper_bound(e, e + npts, union_energy(u0),
                               [](Real energy, const GridPoint& point) { return energy < point.energy; }) -
              e);
          cursor[n] = above - 1;
        }
        for (std::int64_t u = u0; u < u1; ++u) {
          const Real eu = union_energy(u);
          for (int n = 0; n < n_nuc; ++n) {
            const int base = offsets(n);
            const int last = offsets(n + 1) - base - 1;
            int c = cursor[n];
            while (c < last && points(base + c + 1).energy <= eu) ++c;
            cursor[n] = c;
            union_index(u, n) = c < 0 ? 0 : c;
          }
        }
      });
  host.fence("keff::xs::build_union_grid");
  p.union_energy = to_device(exec, union_energy);
  p.union_index = to_device(exec, union_index);
  exec.fence("keff::xs::build_union_grid");
}

// The grids and the search structure `grid` asks for, on the device.
NuclideGrid<DeviceMem> device_grid(const DeviceExec& exec, const GridSource& source, const NuclideGrids& grids,
                                   EnergyGridKind grid, int hash_bins) {
  NuclideGrid<DeviceMem> p;
  p.grid_kind = static_cast<int>(grid);
  if (grid == EnergyGridKind::hash) {
    build_hash_grid(exec, source, grids, hash_bins, p);
  } else if (grid == EnergyGridKind::unionized) {
    build_union_grid(exec, source, grids, p);
  } else if (grid != EnergyGridKind::nuclide) {
    throw std::invalid_argument("unknown energy grid kind " + std::to_string(static_cast<int>(grid)));
  }
  p.grid_offsets = to_device(exec, grids.offsets);
  p.points = to_device(exec, grids.points);
  exec.fence("keff::xs::build_nuclide_grid");
  return p;
}

// A multigroup material's tables have one entry per group (sigma_s one row per group, each a row of
// groups); sigma_f may be left out.
void check_group_counts(const model::Material& mat, std::size_t g_count) {
  const auto check = [&](const char* what, std::size_t size) {
    if (size != g_count) {
      throw std::invalid_argument(mat.where.str() + ": material '" + mat.name + "': " + what + " has " +
                                  std::to_string(size) + " entries, expected " + std::to_string(g_count) +
                                  " (groups)");
    }
  };
  check("sigma_t", mat.sigma_t.size());
  check("nu_sigma_f", mat.nu_sigma_f.size());
  check("chi", mat.chi.size());
  check("sigma_s", mat.sigma_s.size());
  for (const auto& row : mat.sigma_s) check("a row of sigma_s", row.size());
  if (!mat.sigma_f.empty()) check("sigma_f", mat.sigma_f.size());
}

// Scattering out of group g: sigma_s(g, to) summed over `to`.
Real scattering_out(const model::Material& mat, std::size_t g) {
  Real out = 0;
  for (const double s : mat.sigma_s[g]) out += s;
  return out;
}

}  // namespace

double nuclide_grid_bytes(double nuclides, double points, EnergyGridKind grid, int hash_bins) {
  const double columns = sizeof(GridPoint) * points;
  switch (grid) {
    case EnergyGridKind::hash: return columns + (hash_bins + 1.0) * nuclides * sizeof(int);
    case EnergyGridKind::unionized: return columns + points * (sizeof(Real) + nuclides * sizeof(int));
    case EnergyGridKind::nuclide: break;
  }
  return columns;
}

void check_hash_grid_size(const NuclideLibrary& library, EnergyGridKind grid, int hash_bins, const std::string& input) {
  check_hash_grid_entries({static_cast<int>(library.nuclides.size()), source_of(library)}, grid, hash_bins, input);
}

NuclideGrid<DeviceMem> build_nuclide_grid(const DeviceExec& exec, const std::vector<int>& offsets,
                                          const std::vector<GridPoint>& points, EnergyGridKind grid, int hash_bins,
                                          const std::string& source) {
  Kokkos::Profiling::ScopedRegion region("keff::xs::build_nuclide_grid");
  NuclideGrids grids{host_view<int*>("keff::xs::grid_offsets", offsets.size()),
                     host_view<GridPoint*>("keff::xs::grid_points", points.size())};
  std::copy(offsets.begin(), offsets.end(), grids.offsets.data());
  std::copy(points.begin(), points.end(), grids.points.data());
  return device_grid(exec, {static_cast<int>(offsets.size()) - 1, source}, grids, grid, hash_bins);
}

NuclideGrid<DeviceMem> build_library_grid(const DeviceExec& exec, const NuclideLibrary& library, EnergyGridKind grid,
                                          int hash_bins) {
  Kokkos::Profiling::ScopedRegion region("keff::xs::build_library_grid");
  return device_grid(exec, {static_cast<int>(library.nuclides.size()), source_of(library)}, concatenated_grids(library),
                     grid, hash_bins);
}

MaterialParams<DeviceMem> build_material_params(const DeviceExec& exec, const model::Problem& problem,
                                                const NuclideLibrary& library, const BroadenedNuclides* broadened) {
  const int n_lib = static_cast<int>(library.nuclides.size());
  return build_material_params(exec, problem, [&](const model::Material& mat, const model::NuclideAmount& a) {
    const int idx = broadened ? broadened->find(a.name, material_kt(problem, mat)) : library.find(a.name);
    if (idx < 0) {
      throw InputError(mat.where.str() + ": material '" + mat.name + "': nuclide '" + a.name +
                       "' is not in the nuclear data library" +
                       (library.path.empty() ? std::string() : " '" + library.path + "'") + " (the library has " +
                       std::to_string(n_lib) + " nuclides)");
    }
    return ResolvedNuclide{idx, library.nuclides[static_cast<std::size_t>(library.find(a.name))].fissile};
  });
}

MaterialParams<DeviceMem> build_material_params(const DeviceExec& exec, const model::Problem& problem,
                                                const NuclideResolver& resolve) {
  const auto& materials = problem.materials;
  const std::size_t n_mat = materials.size();

  std::vector<int> offsets{0}, nuclide, fissionable;
  std::vector<Real> density;
  int max_nuclides = 1;
  for (std::size_t m = 0; m < n_mat; ++m) {
    const model::Material& mat = materials[m];
    const std::size_t begin = nuclide.size();
    int fiss = 0;
    for (const model::NuclideAmount& a : mat.nuclides) {
      const ResolvedNuclide found = resolve(mat, a);
      for (std::size_t k = begin; k < nuclide.size(); ++k) {
        if (nuclide[k] == found.index) {
          throw InputError(mat.where.str() + ": material '" + mat.name + "': nuclide '" + a.name +
                           "' is listed more than once");
        }
      }
      if (!(a.density >= 0.0) || !std::isfinite(a.density)) {
        throw InputError(mat.where.str() + ": material '" + mat.name + "': nuclide '" + a.name +
                         "' has density " + std::to_string(a.density) + " (must be a finite number >= 0)");
      }
      nuclide.push_back(found.index);
      density.push_back(a.density);
      if (found.fissile && a.density > 0.0) fiss = 1;
    }
    offsets.push_back(static_cast<int>(nuclide.size()));
    fissionable.push_back(fiss);
    max_nuclides = std::max(max_nuclides, static_cast<int>(nuclide.size() - begin));
  }
  MaterialParams<DeviceMem> p;
  p.offsets = to_device(exec, "keff::xs::material_offsets", offsets);
  p.nuclide = to_device(exec, "keff::xs::material_nuclide", nuclide);
  p.density = to_device(exec, "keff::xs::material_density", density);
  p.fissionable = to_device(exec, "keff::xs::material_fissionable", fissionable);
  std::vector<Real> kt;
  for (const model::Material& mat : materials) kt.push_back(material_kt(problem, mat));
  p.kt = to_device(exec, "keff::xs::material_kt", kt);
  p.max_nuclides = max_nuclides;
  return p;
}

MaterialParams<DeviceMem> build_multigroup_material_params(const DeviceExec& exec, const model::Problem& problem) {
  std::vector<int> fissionable;
  for (const model::Material& mat : problem.materials) {
    const auto& nsf = mat.nu_sigma_f;
    fissionable.push_back(std::any_of(nsf.begin(), nsf.end(), [](double v) { return v > 0.0; }) ? 1 : 0);
  }
  MaterialParams<DeviceMem> p;
  p.offsets = to_device(exec, "keff::xs::material_offsets", std::vector<int>(problem.materials.size() + 1, 0));
  p.nuclide = to_device(exec, "keff::xs::material_nuclide", std::vector<int>());
  p.density = to_device(exec, "keff::xs::material_density", std::vector<Real>());
  p.fissionable = to_device(exec, "keff::xs::material_fissionable", fissionable);
  p.kt = to_device(exec, "keff::xs::material_kt", std::vector<Real>(problem.materials.size(), 0));
  p.max_nuclides = 1;
  return p;
}

// Multigroup tables. sigma_a = sigma_t - sum_to sigma_s(from, to) (absorption, fission included, is what
// the balance leaves); sigma_s_out = sum_to sigma_s. A material given without sigma_f gets sigma_f = 0:
// its fission-rate tally is then zero, while nu_sigma_f still drives the fission source.
MultigroupParams<DeviceMem> build_multigroup_params(const DeviceExec& exec, const model::Problem& problem) {
  const std::size_t n_mat = problem.materials.size();
  const int groups = problem.groups;
  if (groups < 1 && n_mat > 0) {
    throw std::invalid_argument("multigroup data: groups must be >= 1, got " + std::to_string(groups));
  }
  const auto g_count = static_cast<std::size_t>(std::max(groups, 0));
  for (const model::Material& mat : problem.materials) check_group_counts(mat, g_count);

  // A [material][group] table whose entry (m, g) is value(material m, g).
  const auto table = [&](const std::string& label, auto value) {
    auto host = host_view<Real**, Rows>(label, n_mat, g_count);
    for (std::size_t m = 0; m < n_mat; ++m) {
      for (std::size_t g = 0; g < g_count; ++g) host(m, g) = value(problem.materials[m], g);
    }
    auto device = to_device(exec, host);
    exec.fence("keff::xs::build_multigroup_params");  // `host` dies on return
    return device;
  };
  using Material = model::Material;
  MultigroupParams<DeviceMem> p;
  p.n_groups = groups;
  p.sigma_t = table("keff::xs::mg_sigma_t", [](const Material& m, std::size_t g) { return m.sigma_t[g]; });
  p.sigma_a = table("keff::xs::mg_sigma_a",
                    [](const Material& m, std::size_t g) { return m.sigma_t[g] - scattering_out(m, g); });
  p.sigma_f = table("keff::xs::mg_sigma_f",
                    [](const Material& m, std::size_t g) { return m.sigma_f.empty() ? 0.0 : m.sigma_f[g]; });
  p.nu_sigma_f = table("keff::xs::mg_nu_sigma_f", [](const Material& m, std::size_t g) { return m.nu_sigma_f[g]; });
  p.chi = table("keff::xs::mg_chi", [](const Material& m, std::size_t g) { return m.chi[g]; });
  p.sigma_s_out = table("keff::xs::mg_sigma_s_out", scattering_out);

  auto sigma_s = host_view<Real***, Rows>("keff::xs::mg_sigma_s", n_mat, g_count, g_count);
  for (std::size_t m = 0; m < n_mat; ++m) {
    for (std::size_t g = 0; g < g_count; ++g) {
      for (std::size_t h = 0; h < g_count; ++h) sigma_s(m, g, h) = problem.materials[m].sigma_s[g][h];
    }
  }
  p.sigma_s = to_device(exec, sigma_s);
  exec.fence("keff::xs::build_multigroup_params");
  return p;
}

}  // namespace keff
