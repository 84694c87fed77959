#pragma once
// NCrystal materials' bound-atom scattering as device tables (ThermalTables, kernels/xs_data.hpp):
// each `[[material]] ncrystal` checked against its nuclides, tabulated on the host (io/thermal/), copied.
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"
#include "io/thermal/ncrystal.hpp"
#include "kernels/device.hpp"
#include "kernels/xs_data.hpp"

#include <memory>
#include <string>
#include <vector>

namespace keff {

struct ThermalTablesBuilt {
  ThermalTables<DeviceMem> tables;
  std::shared_ptr<const NCrystalDirect> direct;  // settings.thermal_tables = false: what tables.direct calls
  int count = 0;        // distinct NCrystal materials: one table (or NCrystal process) each
  double bytes = 0;     // device memory of their tables
  double seconds = 0;   // host time to build them
  std::string stopped;  // where a signal stopped the work ("while the NCrystal table of ..."): no tables then
};

// The memory the tables take while they are built (settings.thermal_tables = true), for the memory check:
// `tables` on the device and, staged (or, on a host backend, as they are), on the host; while a material
// is tabulated the host also holds `building`, each thread's draws of one energy.
struct ThermalTablesMemory {
  double tables = 0, building = 0;
};
ThermalTablesMemory thermal_tables_memory(const model::Problem& problem, int threads);

// Tables tabulated on the host (io/thermal/ncrystal.hpp), all of `spec`, as device Views: table t of
// `tables` is table t on the device; `table_of` says which material has which (-1: none).
ThermalTables<DeviceMem> thermal_tables_to_device(const DeviceExec& exec, Kokkos::View<const int*, DeviceMem> table_of,
                                                  const std::vector<ThermalTable>& tables, const ThermalTableSpec& spec);

// With settings.thermal_tables = false, NCrystal's processes and one cache per (thread of `exec`, material)
// instead of tables (a host backend only: InputError otherwise).
// Throws InputError, naming the material, where its nuclides, by element, are not the composition its
// NCrystal cfg describes (both lists shown) or where NCrystal fails. Deterministic in the problem: every
// rank builds the same tables. A signal (src/host/interrupt.hpp) stops the tables between energies and
// returns `stopped` set: the caller agrees with the other ranks and stops.
ThermalTablesBuilt build_thermal_tables(const DeviceExec& exec, const model::Problem& problem,
                                        const NuclideLibrary& library);

}  // namespace keff
