#pragma once
// Turns the validated geometry of a model::Problem into device GeometryParams.
#include "io/input/model.hpp"
#include "kernels/device.hpp"
#include "kernels/geometry_data.hpp"

namespace keff {

// Normalises general planes, flattens regions/cells/lattices into offset arrays, and copies to the
// device on `exec`. `problem` is a validated model (io/input/input.hpp reads only models whose indices,
// nesting depth, plane normals and universes are valid; code that builds a model itself must do as
// the reader does).
GeometryParams<DeviceMem> build_geometry(const DeviceExec& exec, const model::Problem& problem);

}  // namespace keff
