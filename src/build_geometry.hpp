#pragma once
// Turns the validated geometry of a model::Problem into device GeometryParams.
#include "io/model.hpp"
#include "kernels/geometry_data.hpp"
#include "kernels/device.hpp"

namespace keff {

// Normalises general planes, flattens regions/cells/lattices into offset arrays, and copies to the
// device on `exec`. Throws std::invalid_argument for a geometry deeper than max_geometry_levels or
// with a universe that contains itself.
GeometryParams<DeviceMem> build_geometry(const DeviceExec& exec, const model::Problem& problem);

}  // namespace keff
