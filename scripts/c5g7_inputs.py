#!/usr/bin/env python3
"""Writes the OECD/NEA C5G7 MOX benchmark as keff inputs: examples/c5g7/{2d,3d_unrodded,3d_rodded_a,
3d_rodded_b}.toml, from the published seven-group cross sections and assembly maps (a JSON file; the
default is the copy beside this checkout, ../shared/data/c5g7/c5g7-7group.json).

    scripts/c5g7_inputs.py [--data c5g7-7group.json] [--out examples/c5g7]

The checked-in examples are this script's output, byte for byte (the ctest `c5g7_inputs` checks it
when the data file is at hand). Geometry (NEA/NSC/DOC(2003)16 and (2005)16):
- pin: one cylinder of radius 0.54 cm at pitch 1.26 cm, moderator around it;
- assembly: 17 x 17 pins (21.42 cm), UO2 or MOX from the published maps, guide tubes, a central fission
  chamber;
- quarter core: 3 x 3 squares of 21.42 cm, UO2 at the core centre (x = y = 0) and on the diagonal, MOX
  beside it, moderator in the other five; reflective at x = 0 and y = 0, vacuum at x = y = 64.26 cm;
- 2-D: reflective z planes at +-1 cm;
- 3-D: 42.84 cm of fuel in three 14.28 cm thirds under a 21.42 cm moderator reflector, reflective at the
  bottom (z = 0, the core mid-plane) and vacuum at the top; above each fuel assembly the reflector keeps
  the pin lattice with moderator in the fuel positions, the fission chamber in the centre and control
  rods in the guide tubes. Rodded A: rods in the inner UO2 assembly's upper third; rodded B: in its upper
  two thirds and in the upper third of both MOX assemblies.
"""
import argparse
import json
import os

PITCH = 1.26
RADIUS = 0.54
ASSEMBLY = 17 * PITCH  # 21.42
CORE = 3 * ASSEMBLY    # 64.26
FUEL_THIRD = 14.28
FUEL_HEIGHT = 42.84  # three thirds, written as published (3 x 14.28 rounds to 42.839999999999996)
TOP = FUEL_HEIGHT + ASSEMBLY  # 64.26

REFERENCE_K = {"2d": 1.18655, "3d_unrodded": 1.143080, "3d_rodded_a": 1.128060, "3d_rodded_b": 1.077770}

# Which assemblies hold control rods in which fuel third (0 bottom, 2 top), per 3-D case.
RODDED = {
    "3d_unrodded": {},
    "3d_rodded_a": {"uo2_inner": {2}},
    "3d_rodded_b": {"uo2_inner": {1, 2}, "mox": {2}},
}


def number(x):
    """Shortest text that reads back as the same double, as TOML wants it."""
    text = repr(float(x))
    return text if ("e" in text or "." in text or "inf" in text or "nan" in text) else text + ".0"


def numbers(values):
    return "[" + ", ".join(number(v) for v in values) + "]"


def material_tables(materials):
    out = []
    for name, m in materials.items():
        out.append("[[material]]")
        out.append(f'name = "{name}"')
        out.append(f"sigma_t = {numbers(m['total'])}")
        out.append("sigma_s = [")
        out.extend(f"  {numbers(row)}," for row in m["scatter"])
        out.append("]")
        if any(v > 0 for v in m.get("nu_fission", [])):
            out.append(f"nu_sigma_f = {numbers(m['nu_fission'])}")
            out.append(f"sigma_f = {numbers(m['fission'])}")
            out.append(f"chi = {numbers(m['chi'])}")
        out.append("")
    return out


def surface(sid, kind, coeffs, boundary=None):
    lines = ["[[surface]]", f"id = {sid}", f'type = "{kind}"', f"coeffs = {numbers(coeffs)}"]
    if boundary:
        lines.append(f'boundary = "{boundary}"')
    return lines + [""]


def cell(name, region, universe=None, material=None, fill=None):
    lines = ["[[cell]]", f'name = "{name}"']
    if universe:
        lines.append(f'universe = "{universe}"')
    if region:  # none: all of space, for a universe's only cell
        lines.append(f'region = "{region}"')
    lines.append(f'material = "{material}"' if material else f'fill = "{fill}"')
    return lines + [""]


def lattice(name, lower_left, pitch, rows):
    lines = ["[[lattice]]", f'name = "{name}"', f"lower_left = {numbers(lower_left)}", f"pitch = {numbers(pitch)}",
             "universes = ["]
    lines.extend("  [" + ", ".join(f'"{u}"' for u in row) + "]," for row in rows)
    return lines + ["]", ""]


def pin_universes(materials_in_pins):
    """One universe per material in a pin: the cylinder of that material in moderator."""
    out = []
    for m in materials_in_pins:
        out += cell(f"{m}_pin", "-10", universe=f"pin_{m}", material=m)
        out += cell(f"{m}_pin_water", "+10", universe=f"pin_{m}", material="water")
    return out


def assembly_rows(pin_map, legend, rods=False, reflector=False):
    """The 17 x 17 pin universes of an assembly map (first row top). Rods fill the guide tubes; in the
    axial reflector the fuel positions hold moderator."""
    rows = []
    for line in pin_map:
        row = []
        for ch in line:
            m = legend[ch]
            if m == "guide_tube" and rods:
                m = "control_rod"
            elif reflector and m not in ("guide_tube", "fiss_chamber", "control_rod"):
                m = "water"
            row.append(f"pin_{m}")
        rows.append(row)
    return rows


# The colours of the pictures `keff plot` draws of the core (examples/README.md shows the 2-D one).
PLOT_COLORS = {"uo2": [200, 60, 50], "mox43": [250, 190, 70], "mox7": [240, 140, 40], "mox87": [215, 95, 30],
               "guide_tube": [150, 150, 150], "fiss_chamber": [60, 160, 60], "control_rod": [40, 40, 40],
               "water": [175, 215, 245]}


def plot_tables(three_d):
    colors = ", ".join(f"{name} = [{rgb[0]}, {rgb[1]}, {rgb[2]}]" for name, rgb in PLOT_COLORS.items()
                       if three_d or name != "control_rod")
    lines = ["# Pictures of the model: keff plot <this file> draws them (examples/INPUT.md, [[plot]]).",
             "[[plot]]",
             'name = "core"',
             f"origin = {numbers([CORE / 2, CORE / 2, FUEL_THIRD / 2 if three_d else 0])}",
             f"width = {numbers([CORE, CORE])}",
             "pixels = [1000, 1000]",
             'file = "c5g7_core.png"',
             f"colors = {{ {colors} }}",
             ""]
    if three_d:  # through the second pin row from the top of the upper assemblies: guide tubes and rods
        lines += ["[[plot]]",
                  'name = "side"',
                  'basis = "xz"',
                  f"origin = {numbers([CORE / 2, round(2 * ASSEMBLY - 2.5 * PITCH, 6), TOP / 2])}",
                  f"width = {numbers([CORE, TOP])}",
                  "pixels = [1000, 1000]",
                  'file = "c5g7_side.png"',
                  f"colors = {{ {colors} }}",
                  ""]
    return lines


def write_case(case, data, out_dir):
    three_d = case != "2d"
    maps, legend = data["assembly_maps"], data["assembly_maps"]["legend"]
    materials = {k: v for k, v in data["materials"].items() if three_d or k != "control_rod"}
    head = [
        f"# C5G7 MOX benchmark, {'3-D extension, ' + case[3:].replace('_', ' ') if three_d else '2-D'} quarter core"
        " (OECD/NEA; NEA/NSC/DOC(2003)16" + (", (2005)16)" if three_d else ")") + ".",
        "# Written by scripts/c5g7_inputs.py from the published seven-group data; do not edit by hand.",
        f"# Reference k (MCNP, from the benchmark report): {REFERENCE_K[case]}.",
        "",
        "[settings]",
        "particles = 100000",
        "batches = 250",
        "inactive = 50",
        "seed = 1",
        'mode = "multigroup"',
        'statepoint = "c5g7.h5"',
        "",
        "[settings.source]  # the fuel assemblies",
        f"lower_left = {numbers([0, 0, 0 if three_d else -1])}",
        f"upper_right = {numbers([2 * ASSEMBLY, 2 * ASSEMBLY, FUEL_HEIGHT if three_d else 1])}",
        "",
        "[settings.entropy_mesh]  # one bin per pin",
        f"lower_left = {numbers([0, 0, 0 if three_d else -1])}",
        f"upper_right = {numbers([2 * ASSEMBLY, 2 * ASSEMBLY, FUEL_HEIGHT if three_d else 1])}",
        f"shape = [34, 34, {3 if three_d else 1}]",
        "",
        "[multigroup]",
        f"groups = {data['groups']}",
        "",
        "# Pin powers: the fission rate in each pin cell of the fuel assemblies"
        + (", per axial third of the fuel." if three_d else "."),
        "# The mesh's planes are the pin cells' edges, so each bin holds one pin whole; guide tubes score",
        "# nothing. perf/c5g7_compare.py compares them with the benchmark's reference"
        + (" (pin_power_total, below)." if three_d else "."),
        "[[mesh]]",
        'name = "pins"',
        f"lower_left = {numbers([0, 0, 0] if three_d else [0, 0])}",
        f"upper_right = {numbers([2 * ASSEMBLY, 2 * ASSEMBLY, FUEL_HEIGHT] if three_d else [2 * ASSEMBLY, 2 * ASSEMBLY])}",
        f"shape = {[34, 34, 3] if three_d else [34, 34]}",
        "",
        "[[tally]]",
        'name = "pin_power"',
        'filters = ["mesh"]',
        'mesh = "pins"',
        'scores = ["fission"]',
        "",
    ]
    if three_d:
        head += [
            "# The same over the whole fuel height: each pin's total, with its own standard deviation (the sum",
            "# of the thirds' would leave out how they vary together).",
            "[[mesh]]",
            'name = "pins_total"',
            f"lower_left = {numbers([0, 0, 0])}",
            f"upper_right = {numbers([2 * ASSEMBLY, 2 * ASSEMBLY, FUEL_HEIGHT])}",
            "shape = [34, 34, 1]",
            "",
            "[[tally]]",
            'name = "pin_power_total"',
            'filters = ["mesh"]',
            'mesh = "pins_total"',
            'scores = ["fission"]',
            "",
        ]
    head += plot_tables(three_d)
    body = []
    # Core boundaries: reflective through the core centre, vacuum outside.
    body += surface(1, "x-plane", [0], "reflective")
    body += surface(2, "x-plane", [CORE], "vacuum")
    body += surface(3, "y-plane", [0], "reflective")
    body += surface(4, "y-plane", [CORE], "vacuum")
    if three_d:
        body += surface(5, "z-plane", [0], "reflective")
        body += surface(6, "z-plane", [TOP], "vacuum")
        body += surface(7, "z-plane", [FUEL_THIRD])
        body += surface(8, "z-plane", [2 * FUEL_THIRD])
        body += surface(9, "z-plane", [FUEL_HEIGHT])
    else:
        body += surface(5, "z-plane", [-1], "reflective")
        body += surface(6, "z-plane", [1], "reflective")
    body += surface(10, "z-cylinder", [0, 0, RADIUS])

    layers = [("", "+5 -6")] if not three_d else [
        ("_z1", "+5 -7"), ("_z2", "+7 -8"), ("_z3", "+8 -9"), ("_reflector", "+9 -6")]
    for suffix, z in layers:
        body += cell(f"core{suffix}", f"+1 -2 +3 -4 {z}", fill=f"core{suffix}")
    pins = ["uo2", "mox43", "mox7", "mox87", "guide_tube", "fiss_chamber"] + (["control_rod", "water"] if three_d else [])
    body += pin_universes(pins)
    body += cell("moderator", None, universe="water_box", material="water")

    rodded = RODDED.get(case, {})
    assemblies = {}  # universe name -> rows
    core_layers = []
    for index, (suffix, _) in enumerate(layers):
        reflector = suffix == "_reflector"
        names = {}
        for kind, key in (("uo2_inner", "uo2"), ("uo2_outer", "uo2"), ("mox", "mox")):
            rods = reflector or index in rodded.get(kind, set())
            name = ("reflector_" + key if reflector else key + ("_rodded" if rods else "")) + "_assembly"
            assemblies.setdefault(name, assembly_rows(maps[key], legend, rods=rods, reflector=reflector))
            names[kind] = name
        core_layers.append((suffix, [["water_box", "water_box", "water_box"],
                                     [names["mox"], names["uo2_outer"], "water_box"],
                                     [names["uo2_inner"], names["mox"], "water_box"]]))
    for name, rows in assemblies.items():  # a lattice entry is a universe: one cell holds each assembly
        body += cell(name, None, universe=name, fill=name + "_pins")
    for name, rows in assemblies.items():
        body += lattice(name + "_pins", [-ASSEMBLY / 2, -ASSEMBLY / 2], [PITCH, PITCH], rows)
    for suffix, rows in core_layers:
        body += lattice(f"core{suffix}", [0, 0], [ASSEMBLY, ASSEMBLY], rows)
    body += material_tables(materials)
    path = os.path.join(out_dir, case + ".toml")
    with open(path, "w") as f:
        f.write("\n".join(head + body).rstrip("\n") + "\n")
    return path


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "c5g7", "c5g7-7group.json"))
    parser.add_argument("--out", default=os.path.join(here, "..", "examples", "c5g7"))
    args = parser.parse_args()
    with open(args.data) as f:
        data = json.load(f)
    os.makedirs(args.out, exist_ok=True)
    for case in REFERENCE_K:
        print(write_case(case, data, args.out))


if __name__ == "__main__":
    main()
