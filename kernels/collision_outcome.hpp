#pragma once
// What a collision reports back to the step that called it, whichever physics ran it
// (kernels/neutron/continuous_energy_physics.hpp, kernels/physics_mg.hpp).
#include "kernels/vocabulary/types.hpp"

namespace keff {

struct CollisionOutcome {
  Real k_absorption = 0;  // this collision's absorption-estimator score
  int mt = 0;             // the ENDF reaction (MT) that happened, where the data name it (evaluated); else 0
};

}  // namespace keff
