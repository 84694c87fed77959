#pragma once
// The tallies' device Params from the model (kernels/tally/tally_params.hpp): each tally's layout in the
// one array of sums, its filters and scores, the meshes, the maps from cells, materials and universes to
// bins, the energy bounds, and each cell_instance target's placement offsets (io/input/cell_placements.hpp).
#include "io/input/model.hpp"
#include "kernels/device.hpp"
#include "kernels/tally/tally_params.hpp"

namespace keff {

TallyParams<DeviceMem> build_tallies(const DeviceExec& exec, const model::Problem& problem);

}  // namespace keff
