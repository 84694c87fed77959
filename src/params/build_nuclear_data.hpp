#pragma once
// Turns host nuclear data and the problem's materials into device Params: per-nuclide grids, the chosen
// energy-grid acceleration (hash or unionized), materials, multigroup tables.
#include "io/input/model.hpp"
#include "io/library/nuclear_data.hpp"
#include "kernels/device.hpp"
#include "kernels/neutron/data/nuclide_grid.hpp"
#include "kernels/xs_data.hpp"
#include "src/params/broaden_free_gas.hpp"

#include <functional>
#include <string>
#include <vector>

namespace keff {

// The hash grid's table, (hash_bins + 1) x the library's nuclides entries, against
// limits::max_xs_table_entries (kernels index it with int). Throws InputError naming the input file
// (`input`, when given), settings.hash_bins, the nuclide count and the library. build_library_grid
// checks it too, and the union grid's table once its size is known.
void check_hash_grid_size(const NuclideLibrary& library, EnergyGridKind grid, int hash_bins,
                          const std::string& input = "");

// The library's grids, each nuclide checked (DataError), with the search `grid` asks for: what transport
// reads of a synthetic library beside its records (build_synthetic_params, build_nuclide_tables.hpp).
NuclideGrid<DeviceMem> build_library_grid(const DeviceExec& exec, const NuclideLibrary& library, EnergyGridKind grid,
                                          int hash_bins);

// Bytes of a nuclide grid on the device: its points and the search structure `grid` asks for (the
// unionized grid counted as if no two nuclides shared a point: an upper bound).
double nuclide_grid_bytes(double nuclides, double points, EnergyGridKind grid, int hash_bins);

// The device grid of nuclides whose points are already concatenated, nuclide n's at [offsets[n],
// offsets[n + 1]), with the search structure `grid` asks for (evaluated tables build theirs so);
// `source` names the data in errors ("the library '...'").
NuclideGrid<DeviceMem> build_nuclide_grid(const DeviceExec& exec, const std::vector<int>& offsets,
                                          const std::vector<GridPoint>& points, EnergyGridKind grid, int hash_bins,
                                          const std::string& source);

// Resolves each material's nuclide names against `library`, or, given `broadened`, against its copies
// at each material's temperature (src/params/broaden_free_gas.hpp). A name the library lacks throws
// InputError naming the material, the nuclide and where the material was defined.
MaterialParams<DeviceMem> build_material_params(const DeviceExec& exec, const model::Problem& problem,
                                                const NuclideLibrary& library,
                                                const BroadenedNuclides* broadened = nullptr);

// A material's nuclide as the nuclear data holds it: its index there and whether it fissions.
struct ResolvedNuclide {
  int index = -1;
  bool fissile = false;
};
// Finds a material's nuclide in the data, or throws InputError naming the material and the nuclide.
using NuclideResolver = std::function<ResolvedNuclide(const model::Material&, const model::NuclideAmount&)>;
// The materials as lists of (nuclide, density) through `resolve`, with their kT and fissionable flags.
// A nuclide listed twice or a density that is not a finite number >= 0 throws InputError.
MaterialParams<DeviceMem> build_material_params(const DeviceExec& exec, const model::Problem& problem,
                                                const NuclideResolver& resolve);

// Multigroup: materials' fissionable flags and the macroscopic tables.
MaterialParams<DeviceMem> build_multigroup_material_params(const DeviceExec& exec, const model::Problem& problem);
MultigroupParams<DeviceMem> build_multigroup_params(const DeviceExec& exec, const model::Problem& problem);

}  // namespace keff
