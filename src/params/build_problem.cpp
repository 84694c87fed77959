#include "src/params/build_problem.hpp"

#include "io/input/input.hpp"
#include "io/library/library_loader.hpp"
#include "src/host/interrupt.hpp"
#include "src/host/memory_check.hpp"
#include "src/host/synthetic_data.hpp"
#include "src/params/build_geometry.hpp"
#include "src/params/build_nuclide_tables.hpp"
#include "src/params/build_nuclear_data.hpp"
#include "src/params/build_tallies.hpp"
#include "src/params/build_thermal_tables.hpp"
#include "src/params/device_memory.hpp"
#include "src/params/to_device.hpp"

#include <algorithm>

namespace keff {

RegularMesh make_mesh(const model::Mesh& mesh) {
  RegularMesh m;
  for (int d = 0; d < 3; ++d) {
    m.lower[d] = mesh.box.lower[static_cast<std::size_t>(d)];
    m.shape[d] = mesh.shape[static_cast<std::size_t>(d)];
    const double width = mesh.box.upper[static_cast<std::size_t>(d)] - mesh.box.lower[static_cast<std::size_t>(d)];
    m.inv_width[d] = m.shape[d] / width;
  }
  return m;
}

namespace {

NuclideLibrary synthetic_library(const model::Problem& problem) {
  const auto& nd = problem.nuclear_data;
  SyntheticDataSpec spec;
  spec.nuclides = nd.nuclides;
  spec.gridpoints = nd.gridpoints;
  spec.seed = nd.seed;
  spec.flat = nd.flat;
  std::vector<std::string> moderators;
  for (const model::Material& mat : problem.materials) {
    for (const model::NuclideAmount& a : mat.nuclides) {
      if (synthetic_moderator_index(a.name) >= 0 &&
          std::find(moderators.begin(), moderators.end(), a.name) == moderators.end()) {
        moderators.push_back(a.name);
      }
    }
  }
  return generate_synthetic_library(spec, moderators);
}

// CMFD's coarse mesh and groups: energy bounds in continuous energy, the collapse map in multigroup.
void build_cmfd(const DeviceExec& exec, const model::Cmfd& cmfd, ProblemParams& p) {
  const auto& box = cmfd.mesh.box;
  p.cmfd_mesh = make_cmfd_mesh(box.lower.data(), box.upper.data(), cmfd.mesh.shape.data(), cmfd.albedo.data());
  p.cmfd_n_groups = cmfd.n_groups();
  if (!cmfd.energy_bounds.empty()) {
    p.cmfd_groups.energy_bounds = to_device(exec, "keff::cmfd::energy_bounds", cmfd.energy_bounds);
  }
  if (!cmfd.collapse.empty()) p.cmfd_groups.group_map = to_device(exec, "keff::cmfd::group_map", cmfd.collapse);
}

// NCrystal materials' tables (or NCrystal asked directly), once their memory is known to be there.
void build_thermal(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm,
                   const NuclideLibrary& library, ProblemParams& p) {
  const bool allow = problem.settings.allow_oversubscribed_memory;
  // The tables are built on the host and copied: on a host backend they are one copy, on a device one
  // there and one on the host.
  if (const ThermalTablesMemory m = thermal_tables_memory(problem, exec.concurrency()); m.tables > 0) {
    const char* remedy = "fewer settings.thermal_table_energies or thermal_table_samples";
    check_memory(comm, "the NCrystal tables",
                 {{"tables of the distinct NCrystal materials", m.tables},
                  {"NCrystal's draws being sorted", m.building}},
                 static_cast<double>(host_memory_available()), allow, remedy);
    if (!Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMem>::accessible) {
      check_memory(comm, "the NCrystal tables on the device", {{"tables of the distinct NCrystal materials", m.tables}},
                   static_cast<double>(device_memory_available(exec)), allow, remedy);
    }
  }
  ThermalTablesBuilt thermal = build_thermal_tables(exec, problem, library);
  // A signalled rank stopped its tables: every rank stops here, where all of them agree (every rank has
  // the same NCrystal materials).
  if (thermal.count > 0) {
    stop_if_interrupted(comm, thermal.stopped.empty() ? "while the NCrystal tables were built" : thermal.stopped);
  }
  p.materials.thermal = thermal.tables;
  p.thermal_tables = thermal.count;
  p.thermal_direct = thermal.direct;
  p.thermal_table_bytes = thermal.bytes;
  p.thermal_table_seconds = thermal.seconds;
}

// Evaluated data from the input's ACE library ([nuclear_data] ace = true).
void build_evaluated(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm, ProblemParams& p) {
  Kokkos::Profiling::ScopedRegion region("keff::io::load_ace");
  if (problem.domains) {
    throw InputError(problem.nuclear_data.where.str() +
                     ": [nuclear_data] ace = true with [domains]: evaluated data runs without domain decomposition "
                     "(a secondary neutron's history would span ranks)");
  }
  EvaluatedProblemData evaluated = build_evaluated_problem(exec, problem);
  p.evaluated_data = true;
  p.nuclide_data = evaluated.data;
  p.evaluated_tables = std::move(evaluated.tables);
  p.evaluated_bytes = evaluated.bytes;
  p.xsdir = problem.nuclear_data.xsdir;
  p.ptables = problem.settings.ptables;
  p.materials = evaluated.materials;
  p.n_nuclides = static_cast<int>(p.evaluated_tables.size());
  check_memory(comm, "the evaluated nuclear data", {{"device copy", static_cast<double>(p.evaluated_bytes)}},
               static_cast<double>(device_memory_available(exec)), problem.settings.allow_oversubscribed_memory);
  build_thermal(exec, problem, comm, evaluated.names, p);
}

}  // namespace

NuclideLibrary load_nuclear_data(const model::Problem& problem, const Communicator& comm) {
  const auto& nd = problem.nuclear_data;
  if (nd.library.empty()) {
    // Every rank generates its copy. A signalled rank stops early and waits for the others here, where
    // all of them stop together.
    NuclideLibrary library;
    try {
      library = synthetic_library(problem);
    } catch (const Interrupted&) {
    }
    stop_if_interrupted(comm, "while generating synthetic nuclear data");
    return library;
  }
  Kokkos::Profiling::ScopedRegion region("keff::io::load_library");
  return load_library(nd.library, nd.load, comm);
}

ProblemParams build_problem(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm) {
  Kokkos::Profiling::ScopedRegion region("keff::setup::build_problem");
  ProblemParams p;
  p.mode = problem.settings.mode;
  p.geometry = build_geometry(exec, problem);
  p.entropy_mesh = make_mesh(problem.settings.entropy_mesh);
  p.tallies = build_tallies(exec, problem);

  if (p.mode == model::PhysicsMode::multigroup) {
    p.materials = build_multigroup_material_params(exec, problem);
    p.multigroup = build_multigroup_params(exec, problem);
  } else {
    const auto& nd = problem.nuclear_data;
    const auto& settings = problem.settings;
    const bool allow = settings.allow_oversubscribed_memory;
    if (nd.ace) {
      build_evaluated(exec, problem, comm, p);
      if (problem.cmfd_on()) build_cmfd(exec, *problem.cmfd, p);
      exec.fence();
      return p;
    }
    if (nd.library.empty()) {  // generated here: checked before generating
      const double points = static_cast<double>(nd.nuclides) * nd.gridpoints;
      check_memory(comm, "the nuclear data",
                   {{"generated nuclides", points * 4 * sizeof(double)},
                    {"device copy and energy-grid index",
                     nuclide_grid_bytes(nd.nuclides, points, settings.energy_grid, settings.hash_bins)}},
                   static_cast<double>(device_memory_available(exec)), allow);
    }
    const NuclideLibrary library = load_nuclear_data(problem, comm);
    // What lookups read: the elastic cross sections broadened for the materials' free-gas targets.
    const BroadenedNuclides broadened = broaden_free_gas(library, problem);
    // A hard limit, before the memory estimate.
    check_hash_grid_size(broadened.library, settings.energy_grid, settings.hash_bins, problem.source_name);
    if (!nd.library.empty()) {
      double points = 0;
      for (const auto& n : broadened.library.nuclides) points += static_cast<double>(n.energy.size());
      check_memory(comm, "the nuclear data",
                   {{"device copy and energy-grid index",
                     nuclide_grid_bytes(static_cast<double>(broadened.library.nuclides.size()), points,
                                          settings.energy_grid, settings.hash_bins)}},
                   static_cast<double>(device_memory_available(exec)), allow);
    }
    p.n_nuclides = static_cast<int>(library.nuclides.size());
    p.gridpoints = library.nuclides.empty() ? 0 : static_cast<int>(library.nuclides.front().energy.size());
    p.nuclide_data = build_synthetic_params(exec, broadened.library, settings.energy_grid, settings.hash_bins);
    p.ptables = false;  // it has no probability tables: no lookup asks for them, no collision moves their stream
    p.materials = build_material_params(exec, problem, library, &broadened);
    build_thermal(exec, problem, comm, library, p);
  }
  if (problem.cmfd_on()) build_cmfd(exec, *problem.cmfd, p);
  exec.fence();
  return p;
}

}  // namespace keff
