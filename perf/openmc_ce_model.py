#!/usr/bin/env python3
"""A continuous-energy keff input run as the same OpenMC model, with keff's own nuclear data
(perf/openmc_library.py wrote it in OpenMC's format): the peer side of perf/thermal_openmc.sh. Or, for an
input with evaluated data (`[nuclear_data] ace = true`: examples/evaluated/), with the same ACE tables
(perf/openmc_ace_library.py converted its xsdir, the input's `xsdir` or else $KEFF_ACE_LIBRARY, and every
nuclide of the materials must be one of its neutron tables).

Read from the keff input (examples/INPUT.md): surfaces (every type keff has, with their boundaries), cells
(intersections of half-spaces, in universes), rectangular lattices (2-D and 3-D, with `outer`), materials
(`nuclides` in atoms/barn-cm, `temperature`, `ncrystal`), and settings.particles, batches, inactive,
seed, temperature and the source box. The source is uniform in the box on fissionable material, as
keff's. OpenMC's defaults do the rest as keff does: analog absorption, constant-cross-section free gas
below 400 kT (every energy for H1) at each material's temperature, and NCrystal's bound scattering below
5 eV for a material with `ncrystal` (its cfg given the material's temperature when it sets none, as keff
does). Anything else in the input (tallies, CMFD, domains) plays no part in k and is left out.

    perf/openmc_ce_model.py --input examples/graphite_heu.toml --cross-sections DIR/cross_sections.xml
                            --dir WORK --json OUT.json [--particles N] [--batches B] [--inactive I]
                            [--threads T] [--seed S] [--reaction-tallies]

OUT.json: {"k": combined k, "k_std": its standard deviation, "particles_per_second": active batches'}; with
`ace = true` also "xsdir". --reaction-tallies adds, per source neutron over the active batches (track-length
estimates over the whole problem, each {"mean", "std"}): "reactions" (fission, absorption, (n,gamma), (n,2n),
and inelastic scattering as OpenMC's `(n,level)` score: MT 4, the sum of MT 51-91, which
perf/openmc_ace_library.py adds where a table lacks it), "leakage" (OpenMC's global leakage tally) and "flux"
in 20 groups equal in lethargy from 1e-5 eV to 20 MeV ("group_bounds_ev").
"""
import argparse
import json
import os
import tomllib

import numpy as np
import openmc
import openmc.data

from openmc_ace_library import xsdir_neutron_tables

DEFAULT_TEMPERATURE = 293.6  # examples/INPUT.md: settings.temperature
REACTION_SCORES = {"fission": "fission", "absorption": "absorption", "(n,gamma)": "(n,gamma)",
                   "(n,2n)": "(n,2n)", "inelastic": "(n,level)"}  # name in the JSON: OpenMC's score
GROUP_BOUNDS = np.logspace(np.log10(1.0e-5), np.log10(2.0e7), 21)  # eV, equal in lethargy


def surfaces(problem):
    made = {}
    for s in problem["surface"]:
        c, kind = s["coeffs"], s["type"]
        boundary = s.get("boundary", "transmission")
        if kind == "x-plane":
            surf = openmc.XPlane(c[0])
        elif kind == "y-plane":
            surf = openmc.YPlane(c[0])
        elif kind == "z-plane":
            surf = openmc.ZPlane(c[0])
        elif kind == "plane":
            surf = openmc.Plane(*c)
        elif kind == "sphere":
            surf = openmc.Sphere(*c[:3], r=c[3])
        elif kind == "x-cylinder":
            surf = openmc.XCylinder(y0=c[0], z0=c[1], r=c[2])
        elif kind == "y-cylinder":
            surf = openmc.YCylinder(x0=c[0], z0=c[1], r=c[2])
        elif kind == "z-cylinder":
            surf = openmc.ZCylinder(x0=c[0], y0=c[1], r=c[2])
        else:
            raise SystemExit(f"surface {s['id']}: type '{kind}' is not one keff has")
        surf.boundary_type = boundary
        made[s["id"]] = surf
    return made


def region(text, surfs):
    half_spaces = []
    for token in text.split():
        sign, sid = (token[0], token[1:]) if token[0] in "+-" else ("+", token)
        surf = surfs[int(sid)]
        half_spaces.append(+surf if sign == "+" else -surf)
    return openmc.Intersection(half_spaces)


def materials(problem, default_temperature):
    made = {}
    for m in problem["material"]:
        temperature = m.get("temperature", default_temperature)
        mat = openmc.Material(name=m["name"], temperature=temperature)
        for nuclide, density in m["nuclides"].items():
            mat.add_nuclide(nuclide, density, "ao")
        mat.set_density("atom/b-cm", sum(m["nuclides"].values()))
        if "ncrystal" in m:
            import NCrystal
            cfg = m["ncrystal"]
            if "temp" not in NCrystal.decodeCfg(cfg):
                cfg += f";temp={temperature}K"
            # What openmc.Material.from_ncrystal sets, with keff's composition instead of NCrystal's
            # (keff holds them equal by element, examples/INPUT.md)
            mat._ncrystal_cfg = NCrystal.normaliseCfg(cfg)
        made[m["name"]] = mat
    return made


def geometry(problem, surfs, mats):
    universes = {}
    cells_of = {}
    for c in problem["cell"]:
        cells_of.setdefault(c.get("universe", "root"), []).append(c)
    lattices = {lat["name"]: lat for lat in problem.get("lattice", [])}
    made_lattices = {}

    def universe(name):
        if name in universes:
            return universes[name]
        u = openmc.Universe(name=name)
        universes[name] = u
        for c in cells_of[name]:
            cell = openmc.Cell(name=c["name"], region=region(c["region"], surfs))
            if "material" in c:
                cell.fill = None if c["material"] == "void" else mats[c["material"]]
            else:
                cell.fill = lattice(c["fill"]) if c["fill"] in lattices else universe(c["fill"])
            u.add_cell(cell)
        return u

    def lattice(name):
        if name in made_lattices:
            return made_lattices[name]
        spec = lattices[name]
        lat = openmc.RectLattice(name=name)
        lat.lower_left = spec["lower_left"]
        lat.pitch = spec["pitch"]
        rows = spec["universes"]
        # keff and OpenMC draw a lattice alike: first row on top, 3-D layers from the bottom
        if isinstance(rows[0][0], list):
            lat.universes = [[[universe(u) for u in row] for row in layer] for layer in rows]
        else:
            lat.universes = [[universe(u) for u in row] for row in rows]
        if "outer" in spec:
            lat.outer = universe(spec["outer"])
        made_lattices[name] = lat
        return lat

    return openmc.Geometry(universe("root"))


def ace_library(problem, input_path):
    """The xsdir of an input with evaluated data (as keff finds it), None for one without; every material
    nuclide checked against its neutron tables."""
    data = problem.get("nuclear_data", {})
    if not data.get("ace", "xsdir" in data):
        return None
    if "xsdir" in data:
        xsdir = os.path.join(os.path.dirname(os.path.abspath(input_path)), data["xsdir"])
    elif os.environ.get("KEFF_ACE_LIBRARY"):
        xsdir = os.environ["KEFF_ACE_LIBRARY"]
    else:
        raise SystemExit(f"{input_path}: ace = true, but the input names no xsdir and KEFF_ACE_LIBRARY is not set")
    tables = {openmc.data.ace.get_metadata(int(zaid.split(".")[0]))[0] for zaid, _ in xsdir_neutron_tables(xsdir)}
    for m in problem["material"]:
        if missing := set(m["nuclides"]) - tables:
            raise SystemExit(f"{input_path}: material '{m['name']}': {', '.join(sorted(missing))} not in {xsdir}")
    return os.path.abspath(xsdir)


def reaction_tallies():
    rates = openmc.Tally(name="reactions")
    rates.scores = list(REACTION_SCORES.values())
    rates.estimator = "tracklength"
    flux = openmc.Tally(name="flux")
    flux.filters = [openmc.EnergyFilter(GROUP_BOUNDS)]
    flux.scores = ["flux"]
    flux.estimator = "tracklength"
    return openmc.Tallies([rates, flux])


def reaction_results(sp):
    rates = sp.get_tally(name="reactions")
    flux = sp.get_tally(name="flux")
    leakage = sp.global_tallies[sp.global_tallies["name"].astype(str) == "leakage"][0]
    return {"reactions": {name: {"mean": float(rates.get_values(scores=[score])[0, 0, 0]),
                                 "std": float(rates.get_values(scores=[score], value="std_dev")[0, 0, 0])}
                          for name, score in REACTION_SCORES.items()},
            "reaction_scores": REACTION_SCORES,
            "leakage": {"mean": float(leakage["mean"]), "std": float(leakage["std_dev"])},
            "flux": {"group_bounds_ev": GROUP_BOUNDS.tolist(), "mean": flux.mean.ravel().tolist(),
                     "std": flux.std_dev.ravel().tolist()}}


def settings(problem, args):
    s = problem["settings"]
    out = openmc.Settings()
    out.run_mode = "eigenvalue"
    out.particles = args.particles or s.get("particles", 1000)
    out.batches = args.batches or s.get("batches", 10)
    out.inactive = s.get("inactive", 0) if args.inactive is None else args.inactive
    out.seed = args.seed if args.seed is not None else s.get("seed", 1)
    box = s["source"]
    out.source = openmc.IndependentSource(space=openmc.stats.Box(box["lower_left"], box["upper_right"]),
                                          constraints={"fissionable": True})
    out.source_rejection_fraction = 1.0e-6  # thin fuel rods are a small part of the box, as keff allows
    out.temperature = {"method": "nearest", "tolerance": 1.0}
    out.output = {"tallies": False}
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True)
    parser.add_argument("--cross-sections", required=True)
    parser.add_argument("--dir", required=True)
    parser.add_argument("--json", required=True)
    parser.add_argument("--particles", type=int)
    parser.add_argument("--batches", type=int)
    parser.add_argument("--inactive", type=int)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--reaction-tallies", action="store_true")
    args = parser.parse_args()

    with open(args.input, "rb") as f:
        problem = tomllib.load(f)
    if problem["settings"].get("mode") != "continuous-energy":
        raise SystemExit(f"{args.input}: not a continuous-energy input")
    if problem["settings"].get("thermal", "free_gas") != "free_gas":
        raise SystemExit(f"{args.input}: settings.thermal must be free_gas (OpenMC's targets always move)")
    default_temperature = problem["settings"].get("temperature", DEFAULT_TEMPERATURE)
    xsdir = ace_library(problem, args.input)
    surfs = surfaces(problem)
    mats = materials(problem, default_temperature)
    model = openmc.Model(geometry=geometry(problem, surfs, mats), materials=openmc.Materials(mats.values()),
                         settings=settings(problem, args))
    if args.reaction_tallies:
        model.tallies = reaction_tallies()
    model.materials.cross_sections = os.path.abspath(args.cross_sections)
    os.makedirs(args.dir, exist_ok=True)
    statepoint = model.run(cwd=args.dir, threads=args.threads, output=False)
    with openmc.StatePoint(statepoint) as sp:
        k = sp.keff
        rate = sp.runtime["active batches"]
        active = sp.n_batches - sp.n_inactive
        result = {"k": k.nominal_value, "k_std": k.std_dev,
                  "particles_per_second": sp.n_particles * active / rate if rate > 0 else None}
        if xsdir:
            result["xsdir"] = xsdir
        if args.reaction_tallies:
            result.update(reaction_results(sp))
    with open(args.json, "w") as f:
        json.dump(result, f, indent=1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
