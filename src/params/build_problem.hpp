#pragma once
// Params of a whole problem: everything kernels read, built once from the validated model and never
// changed during the run.
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"
#include "kernels/cmfd_data.hpp"
#include "kernels/device.hpp"
#include "kernels/geometry_data.hpp"
#include "kernels/neutron/continuous_energy_physics.hpp"
#include "kernels/physics_mg.hpp"
#include "kernels/tally/tally_params.hpp"
#include "kernels/xs_data.hpp"
#include "mpi/communicator.hpp"
#include "src/params/build_evaluated_problem.hpp"

#include <memory>

namespace keff {

struct ProblemParams {
  model::PhysicsMode mode = model::PhysicsMode::continuous_energy;
  GeometryParams<DeviceMem> geometry;
  MaterialParams<DeviceMem> materials;
  // Continuous energy: the synthetic library's nuclides (generated or read from a library file) or evaluated
  // tables, in one model (kernels/neutron/data)
  neutron::NuclideParams<DeviceMem> nuclide_data;
  // On evaluated data ([nuclear_data] ace = true): which tables they are
  bool evaluated_data = false;
  std::vector<EvaluatedTableUsed> evaluated_tables;
  std::string xsdir;
  bool ptables = true;
  std::size_t evaluated_bytes = 0;
  MultigroupParams<DeviceMem> multigroup;   // multigroup
  RegularMesh entropy_mesh;
  TallyParams<DeviceMem> tallies;
  // CMFD ([cmfd] enabled): the coarse mesh and groups transport tallies and feedback reweights on;
  // cmfd_n_groups is 0 without CMFD.
  CmfdMesh cmfd_mesh;
  CmfdEnergyGroups<DeviceMem> cmfd_groups;
  int cmfd_n_groups = 0;
  int n_nuclides = 0;   // in the nuclear data library
  int gridpoints = 0;   // per nuclide
  int thermal_tables = 0;            // distinct NCrystal materials (materials.thermal): one table each
  std::shared_ptr<const void> thermal_direct;  // settings.thermal_tables = false: what materials.thermal.direct calls
  double thermal_table_bytes = 0;    // their tables' device memory
  double thermal_table_seconds = 0;  // and host time to build them
};

// Calls f with the problem's physics: multigroup, or continuous-energy on synthetic (or library) data or
// on evaluated data (a template parameter of every kernel that collides or samples a birth): the one
// place the physics branch on the host.
template <class F>
decltype(auto) with_physics(const ProblemParams& p, F&& f) {
  if (p.mode == model::PhysicsMode::multigroup) return f(MultigroupPhysics<DeviceMem>{p.multigroup});
  return f(neutron::ContinuousEnergyPhysics<DeviceMem>{p.nuclide_data, p.materials, p.ptables});
}

RegularMesh make_mesh(const model::Mesh& mesh);

// Nuclear data for a continuous-energy problem: generated in memory from the problem's spec, or read
// from its library by its load strategy (collective over `comm`; DataError if the library is unusable).
NuclideLibrary load_nuclear_data(const model::Problem& problem, const Communicator& comm);
// Collective over `comm` (nuclear data may be read by some ranks and shared).
ProblemParams build_problem(const DeviceExec& exec, const model::Problem& problem, const Communicator& comm);

}  // namespace keff
