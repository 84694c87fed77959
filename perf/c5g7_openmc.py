#!/usr/bin/env python3
"""The 2-D C5G7 core of examples/c5g7/2d.toml as an OpenMC multigroup model, run with OpenMC: the peer
side of perf/c5g7_benchmark.sh. Materials and pin maps are read from the keff input itself, so both codes
run the same cross sections and lattices; the geometry (pins of radius 0.54 cm at pitch 1.26 cm, 17 x 17
assemblies, the 3 x 3 quarter core, reflective at x = y = 0 and in z, vacuum outside) is the benchmark's,
written here in OpenMC's terms. Scatter is isotropic (P0), as in keff. The pin-power tally is the same
34 x 34 mesh of fission over the fuel assemblies.

Needs the `openmc` Python package and executable (perf/README.md says how to install them beside keff).

    perf/c5g7_openmc.py --input examples/c5g7/2d.toml --particles N --batches B --inactive I
                        --threads T --seed S --dir WORK --json OUT.json [--no-tally]

OUT.json holds what perf/c5g7_compare.py reads from a keff summary (k, batches, the pin_power tally,
particles per second) so both codes go through one comparison.
"""
import argparse
import json
import os
import tomllib

import numpy as np
import openmc

PITCH, RADIUS, ASSEMBLY = 1.26, 0.54, 17 * 1.26


def mg_library(problem, path):
    groups = openmc.mgxs.EnergyGroups(np.logspace(-5, 7, problem["multigroup"]["groups"] + 1))
    library = openmc.MGXSLibrary(groups)
    for m in problem["material"]:
        xs = openmc.XSdata(m["name"], groups)
        xs.order = 0
        total = np.array(m["sigma_t"])
        scatter = np.array(m["sigma_s"])
        xs.set_total(total)
        xs.set_absorption(total - scatter.sum(axis=1))
        xs.set_scatter_matrix(scatter[:, :, np.newaxis])
        if "nu_sigma_f" in m:
            xs.set_fission(np.array(m["sigma_f"]))
            xs.set_nu_fission(np.array(m["nu_sigma_f"]))
            xs.set_chi(np.array(m["chi"]) / sum(m["chi"]))  # as keff normalises it
        library.add_xsdata(xs)
    library.export_to_hdf5(path)


def build(problem, args):
    library = os.path.join(args.dir, "mgxs.h5")
    mg_library(problem, library)
    materials = {}
    for m in problem["material"]:
        mat = openmc.Material(name=m["name"])
        mat.set_density("macro", 1.0)
        mat.add_macroscopic(m["name"])
        materials[m["name"]] = mat
    mats = openmc.Materials(materials.values())
    mats.cross_sections = library

    cylinder = openmc.ZCylinder(r=RADIUS)
    pins = {}
    for cell in problem["cell"]:  # pin_<m>: <m> inside the cylinder, water outside
        u = cell.get("universe", "")
        if u.startswith("pin_") and u not in pins:
            inside = openmc.Cell(fill=materials[u[4:]], region=-cylinder)
            outside = openmc.Cell(fill=materials["water"], region=+cylinder)
            pins[u] = openmc.Universe(cells=[inside, outside])
    water_box = openmc.Universe(cells=[openmc.Cell(fill=materials["water"])])
    lattices = {l["name"]: l for l in problem["lattice"]}
    universes = {"water_box": water_box}
    for name in ("uo2_assembly", "mox_assembly"):
        lat = openmc.RectLattice()
        lat.lower_left = (-ASSEMBLY / 2, -ASSEMBLY / 2)
        lat.pitch = (PITCH, PITCH)
        lat.universes = [[pins[u] for u in row] for row in lattices[name + "_pins"]["universes"]]
        universes[name] = openmc.Universe(cells=[openmc.Cell(fill=lat)])
    core = openmc.RectLattice()
    core.lower_left = (0.0, 0.0)
    core.pitch = (ASSEMBLY, ASSEMBLY)
    core.universes = [[universes[u] for u in row] for row in lattices["core"]["universes"]]
    box = (+openmc.XPlane(0.0, boundary_type="reflective") & -openmc.XPlane(3 * ASSEMBLY, boundary_type="vacuum") &
           +openmc.YPlane(0.0, boundary_type="reflective") & -openmc.YPlane(3 * ASSEMBLY, boundary_type="vacuum") &
           +openmc.ZPlane(-1.0, boundary_type="reflective") & -openmc.ZPlane(1.0, boundary_type="reflective"))
    geometry = openmc.Geometry([openmc.Cell(fill=core, region=box)])

    settings = openmc.Settings()
    settings.energy_mode = "multi-group"
    settings.particles, settings.batches, settings.inactive = args.particles, args.batches, args.inactive
    settings.seed = args.seed
    settings.source = openmc.IndependentSource(
        space=openmc.stats.Box((0, 0, -1), (2 * ASSEMBLY, 2 * ASSEMBLY, 1)), constraints={"fissionable": True})
    settings.output = {"tallies": False}

    mesh = openmc.RegularMesh()
    mesh.lower_left, mesh.upper_right, mesh.dimension = (0, 0), (2 * ASSEMBLY, 2 * ASSEMBLY), (34, 34)
    tally = openmc.Tally(name="pin_power")
    tally.filters = [openmc.MeshFilter(mesh)]
    tally.scores = ["fission"]
    tally.estimator = "tracklength"
    return openmc.Model(geometry, mats, settings, openmc.Tallies([] if args.no_tally else [tally]))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", default="examples/c5g7/2d.toml")
    parser.add_argument("--particles", type=int, default=20000)
    parser.add_argument("--batches", type=int, default=60)
    parser.add_argument("--inactive", type=int, default=20)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--no-tally", action="store_true", help="leave the pin-power tally out (its cost)")
    args = parser.parse_args()
    with open(args.input, "rb") as f:
        problem = tomllib.load(f)
    os.makedirs(args.dir, exist_ok=True)
    args.dir = os.path.abspath(args.dir)
    model = build(problem, args)
    statepoint = model.run(cwd=args.dir, threads=args.threads, output=False)
    with openmc.StatePoint(statepoint) as sp:
        active = args.batches - args.inactive
        active_seconds = sp.runtime["active batches"]
        k = sp.keff
        summary = {
            "k": {"mean": k.nominal_value, "std": k.std_dev},
            # OpenMC's own estimate of each generation's k (StatePoint.k_generation), for looking at how
            # the source settles beside keff's batch records.
            "batches": [{"active": i >= args.inactive, "k_generation": float(k_gen)}
                        for i, k_gen in enumerate(sp.k_generation)],
            "particles_per_second": args.particles * active / active_seconds,
            "batch_particles_per_second": args.particles * active / active_seconds,
            "transport": {"mode": "history (OpenMC)"},
            "run": {"input": os.path.abspath(args.input), "particles": args.particles, "ranks": 1,
                    "threads": args.threads},
            "tallies": [],
        }
        if not args.no_tally:
            tally = sp.get_tally(name="pin_power")
            # OpenMC's mesh bins run x fastest, as keff's.
            summary["tallies"].append({"name": "pin_power", "scores": ["fission"],
                                       "filters": [{"kind": "mesh", "shape": [34, 34, 1]}],
                                       "mean": tally.mean.ravel().tolist(), "std_dev": tally.std_dev.ravel().tolist()})
    with open(args.json, "w") as f:
        json.dump(summary, f)


if __name__ == "__main__":
    main()
