"""The commands: convergence, mesh, pins and all. Exit status 0 when the pictures are written, 2 for bad
input (one line on stderr saying what is wrong and what is allowed), 3 when numpy, h5py or matplotlib is
missing (__main__.py)."""
import argparse
import os
import re
import sys
import warnings

import numpy as np

from . import figures
from .errors import KeffResultsError, SelectionError
from .pin_map import difference_percent, difference_summary, has_pins, load_reference_tally, pin_map
from .selection import Choice, select
from .statepoint import StatePoint

PROG = "python3 scripts/keff_results"
USAGE_STATUS = 2

DESCRIPTION = """Pictures of a keff statepoint (keff run --statepoint FILE), written as PNG files of exactly
--size pixels. examples/OUTPUTS.md, "Reading results in Python", says what each shows."""


class OneLineParser(argparse.ArgumentParser):
    """argparse whose refusals are one line on stderr and status 2, as keff's own."""

    def error(self, message):
        print(f"keff_results: {message} (see {self.prog} --help)", file=sys.stderr)
        sys.exit(USAGE_STATUS)


def size_argument(text):
    low, high = figures.SIZE_RANGE
    match = re.fullmatch(r"\s*(\d+)\s*[,x]\s*(\d+)\s*", text)
    if not match or not all(low <= int(v) <= high for v in match.groups()):
        raise argparse.ArgumentTypeError(f"'{text}' (allowed: W,H in pixels, each {low} to {high})")
    return int(match.group(1)), int(match.group(2))


def bin_argument(text):
    kind, sep, value = text.partition("=")
    if not sep or not kind or not value:
        raise argparse.ArgumentTypeError(f"'{text}' (allowed: KIND=NAME or KIND=INDEX, e.g. material=water)")
    return kind, value


def _add_common(p, output=True):
    p.add_argument("statepoint", help="the statepoint (HDF5) keff wrote")
    if output:
        p.add_argument("-o", "--output", required=True, metavar="FILE.png", help="the picture to write")
    p.add_argument("--size", type=size_argument, default=figures.DEFAULT_SIZE, metavar="W,H",
                   help="its size in pixels (default %d,%d)" % figures.DEFAULT_SIZE)


def _add_choice(p):
    p.add_argument("--score", help="the score to draw (default: the tally's first; pins: fission if it has it)")
    p.add_argument("--bin", action="append", type=bin_argument, default=[], metavar="KIND=VALUE",
                   help="the bin of another filter (cell, material, universe, cell_instance) by name or by index "
                        "from 0; default its first; repeatable")


def build_parser():
    parser = OneLineParser(prog=PROG, description=DESCRIPTION)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = commands.add_parser("convergence", help="k per batch by estimator, the running mean, the entropy")
    _add_common(p)
    p.set_defaults(run=run_convergence)

    p = commands.add_parser("mesh", help="a mesh tally's score as a map, its relative error beside it")
    _add_common(p)
    p.add_argument("tally", help="the tally's name")
    _add_choice(p)
    energy = p.add_mutually_exclusive_group()
    energy.add_argument("--group", type=int, metavar="G",
                        help="the energy or group bin, counted from 1 (keff tally show's 'group G'); default 1")
    energy.add_argument("--energy-bin", type=int, metavar="B", help="the same counted from 0")
    p.add_argument("--z", type=int, default=0, metavar="K", help="the z layer of a 3-D mesh, from 0 (default 0)")
    p.set_defaults(run=run_mesh)

    p = commands.add_parser("pins", help="a pin-power map, optionally against a reference with the difference")
    _add_common(p)
    p.add_argument("tally", help="a tally with a mesh (one bin per pin) or a cell_instance filter")
    _add_choice(p)
    p.add_argument("--reference", metavar="FILE",
                   help="the same tally of another run: its statepoint, or a JSON summary (keff's --json, "
                        "perf/c5g7_openmc.py's)")
    p.add_argument("--reference-tally", metavar="NAME", help="its name there, when not the same")
    p.add_argument("--normalize", action="store_true",
                   help="divide by the average over the pins that scored (at least 1e-3 of the average; "
                        "each map by its own), as the C5G7 comparison does")
    p.set_defaults(run=run_pins)

    p = commands.add_parser("all", help="convergence.png and one picture per tally into a directory")
    _add_common(p, output=False)
    p.add_argument("--out", required=True, metavar="DIR", help="the directory (made if missing)")
    p.set_defaults(run=run_all)
    return parser


def check_output(path, what, inputs):
    """An output is a new file or a regular one, and none of the command's inputs (the same file by identity,
    links followed): a picture never replaces the statepoint it was drawn from."""
    allowed = "allowed: a new file or a regular file that is none of the command's inputs"
    target = os.path.realpath(path)
    if os.path.exists(target) and not os.path.isfile(target):
        raise KeffResultsError(f"{what} '{path}': it is not a regular file ({allowed})")
    for label, source in inputs:
        if source and os.path.exists(target) and os.path.exists(source) and os.path.samefile(target, source):
            raise KeffResultsError(f"{what} '{path}' is {label} '{source}' ({allowed})")


def _inputs(args):
    return [("the statepoint", args.statepoint), ("the reference", getattr(args, "reference", None))]


def main(argv):
    args = build_parser().parse_args(argv)
    warnings.simplefilter("ignore")  # layout and NaN warnings say nothing the picture does not show
    try:
        if getattr(args, "output", None) is not None:
            check_output(args.output, "-o", _inputs(args))
        args.run(args)
    except KeffResultsError as e:
        print(f"keff_results {args.command}: {e}", file=sys.stderr)
        return USAGE_STATUS
    return 0


# ---------------------------------------------------------------------------------------------------

def run_convergence(args):
    write_convergence(StatePoint(args.statepoint), args.output, args.size)
    print(args.output)


def write_convergence(sp, path, size):
    fig = figures.new_figure(size)
    figures.draw_convergence(fig, sp)
    figures.save(fig, path)


def _choice(args):
    choice = Choice(score=args.score, bins=dict(args.bin))
    if getattr(args, "group", None) is not None:
        choice.energy_bin, choice.energy_option = args.group - 1, "--group"
    elif getattr(args, "energy_bin", None) is not None:
        choice.energy_bin = args.energy_bin
    return choice


def _tally_with(sp, name, wanted, what):
    """The tally `name`, which must pass `wanted`; the message lists those that do."""
    tally = sp.get_tally(name)
    if not wanted(tally):
        fit = [t.name for t in sp.tallies.values() if wanted(t)]
        raise SelectionError(f"tally '{name}' has no {what} (allowed: {', '.join(fit) or 'none: no tally has one'})")
    return tally


def run_mesh(args):
    sp = StatePoint(args.statepoint)
    tally = _tally_with(sp, args.tally, lambda t: t.mesh is not None, "mesh filter")
    write_mesh(sp, tally, _choice(args), args.z, args.output, args.size)
    print(args.output)


def _title(sp, tally, sel, extra=()):
    chosen = ", ".join(list(sel.fixed) + list(extra))
    return (f"tally '{tally.name}': {sel.score}" + (f", {chosen}" if chosen else "") +
            f"  ({tally.estimator} estimator, {sp.active_batches} active batches)")


def write_mesh(sp, tally, choice, z, path, size):
    sel = select(tally, choice, keep=("mesh",))
    mesh = tally.mesh
    nx, ny, nz = mesh.shape
    if not 0 <= z < nz:
        raise SelectionError(f"--z {z}: the mesh of tally '{tally.name}' has {nz} z layers (allowed: 0 to {nz - 1})")
    long_axes = [a for a in range(3) if mesh.shape[a] > 1]
    if z != 0 and 2 in long_axes and len(long_axes) <= 2:
        raise SelectionError(f"--z {z}: the mesh of tally '{tally.name}' is drawn along z, every layer "
                             "(allowed: leave --z out)")
    fig = figures.new_figure(size)
    if len(long_axes) == 1:
        _draw_mesh_profile(fig, sp, tally, sel, long_axes[0])
    elif len(long_axes) == 2 and 2 in long_axes:  # an x-z or y-z mesh: its one plane, no layer to choose
        _draw_mesh_plane(fig, sp, tally, sel, long_axes)
    else:
        _draw_mesh_layer(fig, sp, tally, sel, z)
    figures.save(fig, path)


def _axis_edges(mesh, axis):
    edges = mesh.mesh_edges(axis)
    return (edges, True) if edges is not None else (np.arange(mesh.shape[axis] + 1.0), False)


def _draw_mesh_layer(fig, sp, tally, sel, z):
    mesh = tally.mesh
    nx, ny, nz = mesh.shape
    layer = slice(z * nx * ny, (z + 1) * nx * ny)
    (x_edges, x_cm), (y_edges, y_cm) = _axis_edges(mesh, 0), _axis_edges(mesh, 1)
    extra = []
    if nz > 1:
        z_edges = mesh.mesh_edges(2)
        where = f" [{z_edges[z]:.4g}, {z_edges[z + 1]:.4g}] cm" if z_edges is not None else ""
        extra.append(f"z layer {z} of {nz}{where}")
    figures.draw_mesh_map(fig, _title(sp, tally, sel, extra), x_edges, y_edges, x_cm and y_cm, ("x", "y"),
                          sel.mean[layer].reshape(ny, nx), sel.rel_err[layer].reshape(ny, nx), sel.units)


def _draw_mesh_plane(fig, sp, tally, sel, axes):
    """A mesh with one bin across one of x and y: the plane of its other two axes, [z][x or y]."""
    mesh = tally.mesh
    (across, across_cm), (up, up_cm) = _axis_edges(mesh, axes[0]), _axis_edges(mesh, 2)
    shape = (mesh.shape[2], mesh.shape[axes[0]])
    figures.draw_mesh_map(fig, _title(sp, tally, sel), across, up, across_cm and up_cm, ("xyz"[axes[0]], "z"),
                          sel.mean.reshape(shape), sel.rel_err.reshape(shape), sel.units)


def _draw_mesh_profile(fig, sp, tally, sel, axis):
    edges, in_cm = _axis_edges(tally.mesh, axis)
    figures.draw_profile(fig, _title(sp, tally, sel), edges, in_cm, "xyz"[axis], sel.mean,
                         np.sqrt(sel.variance), sel.rel_err, sel.units)


def write_bins(sp, tally, choice, path, size):
    """A tally without a mesh: every bin of its filters (none: one bin) as a bar."""
    sel = select(tally, choice, keep=tuple(f.kind for f in tally.filters))
    labels = _bin_labels(tally)
    fig = figures.new_figure(size)
    figures.draw_bins(fig, _title(sp, tally, sel), labels, sel.mean.ravel(), np.sqrt(sel.variance).ravel(),
                      sel.rel_err.ravel(), sel.units)
    figures.save(fig, path)


def _bin_labels(tally):
    if not tally.filters:
        return ["all space"]
    shape = [f.bins for f in tally.filters]
    labels = []
    for flat in range(int(np.prod(shape))):
        index = np.unravel_index(flat, shape)
        labels.append(", ".join(_bin_words(f, int(b)) for f, b in zip(tally.filters, index)))
    return labels


def _bin_words(f, b):
    """A bin as keff tally show labels it, a name preceded by what it names (a names filter's: cell,
    material, universe)."""
    label = f.bin_label(b)
    return f"{f.kind} {label}" if f.form == "names" else label


def run_pins(args):
    sp = StatePoint(args.statepoint)
    tally = _tally_with(sp, args.tally, has_pins, "mesh or cell_instance filter to map pins from")
    line = write_pins(sp, tally, _choice(args), args.reference, args.reference_tally or args.tally, args.normalize,
                      args.output, args.size)
    print(args.output)
    print(line)


def write_pins(sp, tally, choice, reference_path, reference_name, normalize, path, size):
    """Draws the pin map (and its difference from the reference) and returns a line that sums it up."""
    pins = pin_map(tally, choice)
    if normalize:
        pins = pins.normalized()
    line = _pins_line(pins)
    diff = None
    if reference_path:
        reference_tally = load_reference_tally(reference_path, reference_name)
        try:
            reference = pin_map(reference_tally, Choice(score=pins.score, bins=choice.bins))
        except SelectionError as e:
            raise SelectionError(f"reference '{reference_path}': {e}") from None
        if normalize:
            reference = reference.normalized()
        diff = difference_percent(pins, reference)
        s = difference_summary(diff)
        diff_line = (f"against {os.path.basename(reference_path)}: max |difference| {s['max']:.2f} %, "
                     f"average {s['avg']:.2f} %, RMS {s['rms']:.2f} % over {s['pins']} pins")
        line += "; " + diff_line
    fig = figures.new_figure(size)
    title = f"tally '{tally.name}'" + (", normalised to an average pin of 1" if normalize else "")
    if pins.fixed:
        title += f" ({', '.join(pins.fixed)})"
    if diff is not None:
        title += "\n" + diff_line
    figures.draw_pins(fig, title, pins, diff, os.path.basename(reference_path or ""))
    figures.save(fig, path)
    return line


def _pins_line(pins):
    scored = pins.scored()
    if not scored.any():
        return f"{pins.score}: no pin scored"
    values = pins.power[scored]
    return (f"{pins.score}: {scored.sum()} pins scored; max {values.max():.4g}, min {values.min():.4g}, "
            f"average {values.mean():.4g} ({pins.units})")


def run_all(args):
    sp = StatePoint(args.statepoint)
    out = args.out
    if os.path.exists(out) and not os.path.isdir(out):
        raise KeffResultsError(f"--out '{out}' is not a directory (allowed: a directory, made if missing)")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise KeffResultsError(f"cannot make the directory '{out}': {e.strerror}") from None
    pictures = [(os.path.join(out, "convergence.png"), None)]
    pictures += [(os.path.join(out, f"tally_{_file_safe(t.name)}.png"), t) for t in sp.tallies.values()]
    for path, _ in pictures:
        check_output(path, "--out's picture", _inputs(args))
    for path, tally in pictures:
        if tally is None:
            write_convergence(sp, path, args.size)
        else:
            write_tally_picture(sp, tally, path, args.size)
        print(path)


def write_tally_picture(sp, tally, path, size):
    """A tally's first score in its first energy bin: a mesh map, a pin map for placements, else bars."""
    if tally.mesh is not None:
        write_mesh(sp, tally, Choice(), 0, path, size)
    elif tally.find_filter("cell_instance") is not None:
        write_pins(sp, tally, Choice(score=tally.scores[0]), None, None, False, path, size)
    else:
        write_bins(sp, tally, Choice(), path, size)


def _file_safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)
