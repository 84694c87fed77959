// The embedded default benchmark: the text of examples/default.toml, compiled in so that `keff run`
// needs no files. It goes through the same reader as any input. tests/test_input.cpp checks that this
// copy and the file are identical byte for byte; after editing the example, paste it here again.
#include "io/input.hpp"

namespace keff {
namespace {

constexpr std::string_view default_toml = R"keff(# keff default benchmark: a reflected 9x9 lattice of UO2 pins in borated water.
#
# A 2-D slice (reflective z planes at +-1 cm) of a small PWR-style assembly with reflective sides, so
# the lattice repeats forever: 76 fuel pins and 5 water-filled guide tubes at pitch 1.26 cm. The fuel
# holds 34 nuclides (U235, U238, O16 and 31 fission-product-like traces), as in the Hoogenboom-Martin
# "small" problem, drawn from a synthetic 68-nuclide library of 11,303 grid points each.
# There is no reference answer: this problem measures speed (particles/s), not accuracy.
# `keff run` with no input runs exactly this text, which is embedded in the executable.

[settings]
particles = 10000
batches = 30
inactive = 10
seed = 1
mode = "continuous-energy"
energy_grid = "hash"
statepoint = "statepoint.h5"

[settings.source]
lower_left = [-5.67, -5.67, -1.0]
upper_right = [5.67, 5.67, 1.0]

[settings.entropy_mesh]
lower_left = [-5.67, -5.67, -1.0]
upper_right = [5.67, 5.67, 1.0]
shape = [9, 9, 1]

[settings.tally_mesh]  # the pin power map, thermal and fast
lower_left = [-5.67, -5.67, -1.0]
upper_right = [5.67, 5.67, 1.0]
shape = [9, 9, 1]
energy_bounds = [1.0e-5, 0.625, 2.0e7]

[nuclear_data]
nuclides = 68
gridpoints = 11303
seed = 20251

# The assembly's edges: reflective on every side.
[[surface]]
id = 1
type = "x-plane"
coeffs = [-5.67]
boundary = "reflective"

[[surface]]
id = 2
type = "x-plane"
coeffs = [5.67]
boundary = "reflective"

[[surface]]
id = 3
type = "y-plane"
coeffs = [-5.67]
boundary = "reflective"

[[surface]]
id = 4
type = "y-plane"
coeffs = [5.67]
boundary = "reflective"

[[surface]]
id = 5
type = "z-plane"
coeffs = [-1.0]
boundary = "reflective"

[[surface]]
id = 6
type = "z-plane"
coeffs = [1.0]
boundary = "reflective"

# Pin radii, centred in each lattice element.
[[surface]]
id = 10
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.4096]  # fuel

[[surface]]
id = 11
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.418]   # clad inner

[[surface]]
id = 12
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.475]   # clad outer

[[surface]]
id = 20
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.561]   # guide tube inner

[[surface]]
id = 21
type = "z-cylinder"
coeffs = [0.0, 0.0, 0.602]   # guide tube outer

[[cell]]
name = "assembly"
region = "+1 -2 +3 -4 +5 -6"
fill = "lattice"

# Universe "pin": a fuel pin with its gap and clad, in water.
[[cell]]
name = "fuel"
universe = "pin"
region = "-10"
material = "fuel"

[[cell]]
name = "gap"
universe = "pin"
region = "+10 -11"
material = "void"

[[cell]]
name = "clad"
universe = "pin"
region = "+11 -12"
material = "clad"

[[cell]]
name = "moderator"
universe = "pin"
region = "+12"
material = "water"

# Universe "gt": a water-filled guide tube.
[[cell]]
name = "gt_inner"
universe = "gt"
region = "-20"
material = "water"

[[cell]]
name = "gt_wall"
universe = "gt"
region = "+20 -21"
material = "clad"

[[cell]]
name = "gt_outer"
universe = "gt"
region = "+21"
material = "water"

[[lattice]]
name = "lattice"
lower_left = [-5.67, -5.67]
pitch = [1.26, 1.26]
universes = [  # first row is the top (largest y)
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "gt", "pin", "pin", "pin", "gt", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "gt", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "gt", "pin", "pin", "pin", "gt", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
  ["pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin", "pin"],
]

[[material]]
name = "fuel"  # UO2, ~3% enriched
nuclides = { U235 = 7.2e-4, U238 = 2.2e-2, O16 = 4.6e-2 }
trace_nuclides = 31
trace_density = 1.0e-6

[[material]]
name = "clad"
nuclides = { Zr90 = 4.3e-2 }

[[material]]
name = "water"  # with boron
nuclides = { H1 = 6.7e-2, O16 = 3.3e-2, B10 = 1.0e-5 }
)keff";

}  // namespace

std::string_view default_problem_toml() { return default_toml; }

model::Problem default_problem() { return read_problem_string(default_toml, "<default>"); }

}  // namespace keff
