# A small continuous-energy problem for the CLI tests of libraries: one pin in a reflected sphere, as
# `settings` (ending with [settings.source]) and `geometry` (surfaces, cells, materials), between which a
# test puts its [nuclear_data]. Its nuclides are the synthetic library's first ones (U235, U238, O16, H1,
# FP001-FP004).
set(geometry [=[
[[surface]]
id = 1
type = "sphere"
coeffs = [0.0, 0.0, 0.0, 5.0]
boundary = "reflective"
[[surface]]
id = 2
type = "sphere"
coeffs = [0.0, 0.0, 0.0, 2.0]
[[cell]]
name = "fuel"
region = "-2"
material = "fuel"
[[cell]]
name = "water"
region = "+2 -1"
material = "water"
[[material]]
name = "fuel"
nuclides = { U235 = 1.0e-3, U238 = 2.2e-2, O16 = 4.6e-2 }
trace_nuclides = 4
[[material]]
name = "water"
nuclides = { H1 = 6.7e-2, O16 = 3.3e-2 }
]=])
set(settings "[settings]\nparticles = 500\nbatches = 5\ninactive = 1\nstatepoint = \"\"\n[settings.source]\nlower_left = [-2.0, -2.0, -2.0]\nupper_right = [2.0, 2.0, 2.0]\n")
