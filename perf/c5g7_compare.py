#!/usr/bin/env python3
"""A C5G7 run against the benchmark's published reference: k and its error in pcm, the pin powers (maximum,
minimum, per assembly) and their errors, and the figures of merit. Reads the run's JSON summary and its
input (examples/c5g7/*.toml, which carry the `pin_power` tally); standard library only.

    perf/c5g7_compare.py SUMMARY.json [--input examples/c5g7/2d.toml] [--json OUT.json] [--plot OUT.png]

Pin powers are the fission rates of the 1056 fuel pins (guide tubes and fission chambers left out, as the
benchmark does), over the whole fuel height in 3-D (the pin_power_total tally), normalised to an average
of 1. Their standard deviations, and the assemblies', treat the pins as independent and the average as
exact: close, not exact. An assembly's power
is the sum of its pins' powers. Errors: k in pcm, (k - k_ref) / k_ref x 1e5, and how many standard
deviations that is (keff's and the reference's combined); pin and assembly powers in percent of the
reference. The reference (NEA/NSC/DOC(2003)16 and (2005)16, MCNP; ../shared/data/c5g7/README.md) gives
k for every case and, for 2-D, the maximum and minimum pin power and the assembly powers; the per-pin
table its AVG, RMS and MRE measures need is not part of it, so they are not computed.

Figures of merit, 1 / (R^2 T): R the relative standard deviation (of k; of the pin powers, their largest
over the fuel pins), T the wall time of the active batches (active histories / the summary's
batch_particles_per_second: transport, bank and reductions).
"""
import argparse
import json
import math
import os
import sys
import tomllib

REFERENCE = {  # k and its relative standard deviation; 2-D: pin and assembly powers
    "2d": {"k": 1.18655, "k_rel_std": 0.008e-2, "max_pin": 2.498, "min_pin": 0.232,
           "assemblies": {"inner UO2": 492.8, "MOX": 211.7, "outer UO2": 139.1}},
    "3d_unrodded": {"k": 1.143080},
    "3d_rodded_a": {"k": 1.128060},
    "3d_rodded_b": {"k": 1.077770},
}
PINS = 17  # per assembly side
NOT_FUEL = ("pin_guide_tube", "pin_fiss_chamber", "pin_control_rod")


def fuel_mask(problem):
    """fuel[ix][iy] over the 34 x 34 pins of the fuel assemblies, from the input's lattices (rows top
    first), and each pin's assembly name."""
    lattices = {l["name"]: l["universes"] for l in problem["lattice"]}
    core = lattices.get("core") or lattices["core_z1"]
    fuel = [[False] * (2 * PINS) for _ in range(2 * PINS)]
    assembly = [[""] * (2 * PINS) for _ in range(2 * PINS)]
    names = {(0, 0): "inner UO2", (1, 0): "MOX", (0, 1): "MOX", (1, 1): "outer UO2"}
    for ay in range(2):
        for ax in range(2):
            pins = lattices[core[len(core) - 1 - ay][ax] + "_pins"]
            for py in range(PINS):
                for px in range(PINS):
                    ix, iy = ax * PINS + px, ay * PINS + py
                    fuel[ix][iy] = pins[PINS - 1 - py][px] not in NOT_FUEL
                    assembly[ix][iy] = names[(ax, ay)]
    return fuel, assembly


def pin_powers(summary, problem):
    """Each fuel pin's power and standard deviation, {(ix, iy): (p, sd)}, and the assemblies'. In 3-D from
    pin_power_total (the whole fuel height in one bin per pin), else the thirds of pin_power summed."""
    tallies = {t["name"]: t for t in summary["tallies"]}
    tally = tallies.get("pin_power_total") or tallies["pin_power"]
    mesh = tally["filters"][0]
    nx, ny, nz = mesh["shape"]
    if (nx, ny) != (2 * PINS, 2 * PINS) or len(tally["filters"]) != 1 or tally["scores"] != ["fission"]:
        sys.exit(f"c5g7_compare.py: the {tally['name']} tally is not the examples' 34 x 34 pin mesh of fission")
    fuel, assembly = fuel_mask(problem)
    rate, var = {}, {}
    for iz in range(nz):
        for iy in range(ny):
            for ix in range(nx):
                if not fuel[ix][iy]:
                    continue
                b = ix + nx * (iy + ny * iz)
                sd = tally["std_dev"][b]
                rate[ix, iy] = rate.get((ix, iy), 0.0) + tally["mean"][b]
                var[ix, iy] = var.get((ix, iy), 0.0) + (sd * sd if sd is not None else math.nan)
    average = sum(rate.values()) / len(rate)
    pins = {k: (rate[k] / average, math.sqrt(var[k]) / average) for k in rate}
    sums = {}  # assembly name -> [sum of pin powers, sum of variances, assemblies of that name]
    for (ix, iy), (p, sd) in pins.items():
        a = sums.setdefault(assembly[ix][iy], [0.0, 0.0, set()])
        a[0] += p
        a[1] += sd * sd
        a[2].add((ix // PINS, iy // PINS))
    # The two MOX assemblies are one by symmetry, and the reference gives one: their mean.
    assemblies = {name: (s / len(n), math.sqrt(v) / len(n)) for name, (s, v, n) in sums.items()}
    return pins, assemblies


def percent(value, reference):
    return 100.0 * (value - reference) / reference


def compare(summary, problem, case):
    ref = REFERENCE[case]
    k = summary["k"]
    run = summary["run"]
    active = len([b for b in summary["batches"] if b["active"]])
    seconds = active * run["particles"] / summary["batch_particles_per_second"]
    k_err = percent(k["mean"], ref["k"]) * 1000
    k_sd = k["std"] / ref["k"] * 1e5
    ref_sd = ref.get("k_rel_std", 0.0) * 1e5
    pins, assemblies = pin_powers(summary, problem)
    hot = max(pins, key=lambda k: pins[k][0])
    cold = min(pins, key=lambda k: pins[k][0])
    worst_rel = max(sd / p for p, sd in pins.values())
    # The root mean square over the pins: what a code's histories give every pin, where the worst pin is
    # one draw of 1056 (about +-10 % from seed to seed).
    rms_rel = math.sqrt(sum((sd / p) ** 2 for p, sd in pins.values()) / len(pins))
    out = {
        "case": case,
        "particles": run["particles"], "active_batches": active, "mode": summary["transport"]["mode"],
        "ranks": run["ranks"], "threads": run["threads"],
        "k": {"value": k["mean"], "std": k["std"], "reference": ref["k"], "error_pcm": k_err,
              "std_pcm": k_sd, "sigmas": k_err / math.hypot(k_sd, ref_sd)},
        "max_pin": {"value": pins[hot][0], "std": pins[hot][1], "pin": hot},
        "min_pin": {"value": pins[cold][0], "std": pins[cold][1], "pin": cold},
        "assemblies": {name: {"value": v, "std": sd} for name, (v, sd) in sorted(assemblies.items())},
        "max_pin_relative_std": worst_rel,
        "rms_pin_relative_std": rms_rel,
        "active_seconds": seconds,
        "particles_per_second": summary["particles_per_second"],
        "fom_k": 1.0 / ((k["std"] / k["mean"]) ** 2 * seconds),
        "fom_pins": 1.0 / (worst_rel ** 2 * seconds),
        "fom_pins_rms": 1.0 / (rms_rel ** 2 * seconds),
    }
    if "max_pin" in ref:
        out["max_pin"].update(reference=ref["max_pin"], error_percent=percent(pins[hot][0], ref["max_pin"]))
        out["min_pin"].update(reference=ref["min_pin"], error_percent=percent(pins[cold][0], ref["min_pin"]))
        for name, r in ref["assemblies"].items():
            a = out["assemblies"][name]
            a.update(reference=r, error_percent=percent(a["value"], r))
    return out


def report(c):
    def ref_part(d, fmt):
        if "reference" not in d:
            return ""
        return f"   reference {d['reference']:{fmt}}   error {d['error_percent']:+.2f} % ({d['std'] / d['reference'] * 100:.2f} % std)"
    k = c["k"]
    lines = [
        f"C5G7 {c['case']}: {c['particles']} particles x {c['active_batches']} active batches, {c['mode']}-based, "
        f"{c['ranks']} rank(s) x {c['threads']} thread(s)",
        f"  k            {k['value']:.5f} +/- {k['std']:.5f}   reference {k['reference']:.5f}   "
        f"error {k['error_pcm']:+.0f} pcm (+/- {k['std_pcm']:.0f}; {k['sigmas']:+.1f} sigma)",
        f"  max pin      {c['max_pin']['value']:.4f} +/- {c['max_pin']['std']:.4f} at pin {c['max_pin']['pin']}"
        + ref_part(c["max_pin"], ".3f"),
        f"  min pin      {c['min_pin']['value']:.4f} +/- {c['min_pin']['std']:.4f} at pin {c['min_pin']['pin']}"
        + ref_part(c["min_pin"], ".3f"),
    ]
    for name, a in c["assemblies"].items():
        lines.append(f"  {name:<12} {a['value']:.1f} +/- {a['std']:.1f}" + ref_part(a, ".1f"))
    lines += [
        f"  pins         largest relative std {100 * c['max_pin_relative_std']:.2f} %, "
        f"root mean square {100 * c['rms_pin_relative_std']:.2f} %",
        f"  speed        {c['particles_per_second']:.4g} particles/s in transport; active batches {c['active_seconds']:.1f} s",
        f"  FOM          k {c['fom_k']:.4g} /s, pin powers {c['fom_pins']:.4g} /s",
    ]
    return "\n".join(lines)


def plot(summary, problem, path):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from plot_common import pyplot
    try:
        plt = pyplot()
    except ImportError:
        sys.exit("c5g7_compare.py: --plot needs matplotlib (perf/c5g7.sh --plot finds or installs it)")
    pins, _ = pin_powers(summary, problem)
    grid = [[math.nan] * (2 * PINS) for _ in range(2 * PINS)]
    for (ix, iy), (p, _) in pins.items():
        grid[iy][ix] = p
    fig, ax = plt.subplots(figsize=(6, 5))
    image = ax.imshow(grid, origin="lower", extent=(0, 42.84, 0, 42.84), cmap="inferno")
    fig.colorbar(image, ax=ax, label="pin power (fuel-pin average 1)")
    ax.set_xlabel("x (cm)")
    ax.set_ylabel("y (cm)")
    ax.set_title("C5G7 pin powers (core centre at the origin)")
    fig.savefig(path, dpi=120, bbox_inches="tight")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("summary")
    parser.add_argument("--input", help="the run's input (default: the summary's run.input)")
    parser.add_argument("--json", help="write the comparison here")
    parser.add_argument("--plot", help="draw the pin-power map into this PNG (needs matplotlib)")
    args = parser.parse_args()
    with open(args.summary) as f:
        summary = json.load(f)
    path = args.input or summary["run"]["input"]
    with open(path, "rb") as f:
        problem = tomllib.load(f)
    case = os.path.splitext(os.path.basename(path))[0]
    if case not in REFERENCE:
        sys.exit(f"c5g7_compare.py: '{path}' is none of the C5G7 cases ({', '.join(REFERENCE)})")
    c = compare(summary, problem, case)
    print(report(c))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(c, f, indent=1)
    if args.plot:
        plot(summary, problem, args.plot)


if __name__ == "__main__":
    main()
