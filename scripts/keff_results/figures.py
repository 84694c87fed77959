"""The pictures, drawn with matplotlib's Agg renderer on Figure objects of their own (no pyplot, no display,
no global state) and written as PNG files of exactly the size asked for."""
import os
import socket
import stat

import numpy as np
from matplotlib import patheffects
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure

from .errors import OutputError

DEFAULT_SIZE = (1200, 900)
SIZE_RANGE = (200, 8000)  # pixels per side; Agg's buffer for 8000 x 8000 is 256 MB
# Every picture is laid out on a 12 x 9 inch page and scaled to the pixels asked for, so its text and
# panels keep their proportions at any size.
PAGE_INCHES = (12.0, 9.0)
# Grids up to this many pins a side get each pin's value written in it; more would not be legible.
ANNOTATE_MAX_PINS = 20
DIFFERENCE_PERCENTILE = 98
# A map this many times wider than tall is drawn above its relative error instead of beside it.
WIDE_MAP = 1.6
MISSING_COLOUR = "0.85"  # bins without a value (no score, undefined error, no pin)
OUTLINE = [patheffects.withStroke(linewidth=1.5, foreground="black")]  # text legible on any colour


def new_figure(size):
    width, height = size
    dpi = min(width / PAGE_INCHES[0], height / PAGE_INCHES[1])
    # Agg truncates the pixel size it is handed; half a pixel more keeps width / dpi * dpi from rounding
    # down to width - 1.
    fig = Figure(figsize=((width + 0.5) / dpi, (height + 0.5) / dpi), dpi=dpi, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def save(fig, path):
    """Writes the figure as PNG to path, as keff writes its outputs: links followed, only a regular file
    replaced, through a temporary file renamed over the target so no half-written picture is left."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {e.strerror}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"cannot write '{path}': it is not a regular file (allowed: a regular file, or a new "
                          "file in an existing, writable directory; symbolic links are followed)")
    temporary = f"{target}.tmp.{socket.gethostname()}.{os.getpid()}"  # keff's temporaries' names
    try:
        fig.savefig(temporary, format="png", dpi=fig.dpi)
        os.replace(temporary, target)
    except OSError as e:
        if os.path.lexists(temporary):
            os.remove(temporary)
        raise OutputError(f"cannot write '{path}': {e.strerror or e}") from None


def _colour_map(name):
    import matplotlib
    cmap = matplotlib.colormaps[name].copy()
    cmap.set_bad(MISSING_COLOUR)
    return cmap


def _finite_or_none(values):
    finite = values[np.isfinite(values)]
    return (float(finite.min()), float(finite.max())) if finite.size else (None, None)


# ---------------------------------------------------------------------------------------------------
# Convergence: k per generation (per batch with one generation a batch) by estimator with the running
# mean over batches, and the source entropy.

ESTIMATOR_LINES = (("k_collision", "collision", "C0"), ("k_absorption", "absorption", "C1"),
                   ("k_tracklength", "track length", "C2"))


def _mark_inactive(ax, inactive):
    if inactive > 0:
        ax.axvspan(0.5, inactive + 0.5, color="0.93", zorder=0, label="inactive batches")
        ax.axvline(inactive + 0.5, color="0.5", lw=0.8, ls="--", zorder=1)


def draw_convergence(fig, sp):
    b = sp.batch_results
    per_batch = sp.generations_per_batch
    # x: the generation over the run (the batch with one generation a batch), as CMFD's solves are placed.
    batch = (b["batch"] - 1) * per_batch + b["generation"]
    # The running mean is over batches: shown where a batch ends.
    active = b["active"] & (b["generation"] == per_batch)
    marker = "." if len(batch) <= 200 else None
    ax_k, ax_h = fig.subplots(2, 1, sharex=True, height_ratios=[2, 1])
    for column, label, colour in ESTIMATOR_LINES:
        ax_k.plot(batch, b[column], color=colour, lw=0.7, marker=marker, ms=3, alpha=0.75, label=f"k {label}")
    if sp.cmfd is not None and "k" in sp.cmfd and len(sp.cmfd.get("batch", [])):
        ax_k.plot(sp.cmfd["batch"], sp.cmfd["k"], color="C4", lw=0, marker="x", ms=4, label="k CMFD")
    mean, std = b["k_mean"][active], b["k_std"][active]
    if active.any():
        ax_k.plot(batch[active], mean, color="k", lw=1.6, label="k, running mean of active batches")
        band = np.isfinite(std)
        ax_k.fill_between(batch[active][band], (mean - std)[band], (mean + std)[band], color="k", alpha=0.18,
                          lw=0, label="±1σ")
    ax_k.set_title(_k_line(sp), fontsize="medium")
    ax_k.set_ylabel("k")
    _mark_inactive(ax_k, sp.inactive * per_batch)
    ax_k.legend(loc="best", fontsize="small", ncols=2)
    ax_k.grid(alpha=0.3)
    ax_h.plot(batch, b["entropy"], color="C3", lw=0.8, marker=marker, ms=3)
    _mark_inactive(ax_h, sp.inactive * per_batch)
    ax_h.set_ylabel("Shannon entropy (bits)")
    ax_h.set_xlabel("batch" if per_batch == 1 else f"generation ({per_batch} a batch)")
    ax_h.grid(alpha=0.3)
    of = "" if per_batch == 1 else f" of {per_batch} generations"
    fig.suptitle(f"{os.path.basename(sp.input)}: {sp.particles} particles × {sp.batches_done} batches{of} "
                 f"({sp.inactive} inactive)")


def _k_line(sp):
    k = sp.keff
    if not np.isfinite(k.mean):
        return "k: no active batch yet"
    std = f"{k.std:.5f}" if np.isfinite(k.std) else "-"
    return f"k = {k.mean:.5f} ± {std} ({sp.k_combined_estimate}, {sp.active_batches} active batches)"


# ---------------------------------------------------------------------------------------------------
# A score over a mesh: a map and its relative error beside it, or a profile for a mesh of one axis.

def draw_mesh_map(fig, title, x_edges, y_edges, in_cm, axis_names, mean, rel_err, units):
    """mean and rel_err are [y][x]; edges in cm (in_cm) or in bins. Side by side, or one above the other
    for a map much wider than tall, so each keeps its shape and most of the page."""
    across, up = (x_edges[-1] - x_edges[0], y_edges[-1] - y_edges[0]) if in_cm else (len(x_edges), len(y_edges))
    stacked = across > WIDE_MAP * up
    ax_mean, ax_err = fig.subplots(2, 1) if stacked else fig.subplots(1, 2)
    bar = "right" if stacked else "bottom"
    _map_panel(fig, ax_mean, x_edges, y_edges, np.ma.masked_invalid(mean), "viridis", units, in_cm, axis_names,
               bar=bar)
    ax_mean.set_title("mean")
    _map_panel(fig, ax_err, x_edges, y_edges, np.ma.masked_invalid(100 * rel_err), "magma",
               "relative error (%; grey: none scored, or under 2 active batches)", in_cm, axis_names, bar=bar)
    ax_err.set_title("relative error")
    fig.suptitle(title)


def _map_panel(fig, ax, x_edges, y_edges, values, cmap, label, in_cm, axis_names, norm=None, bar="bottom"):
    low, high = _finite_or_none(np.ma.filled(values, np.nan))
    kwargs = {"norm": norm} if norm is not None else {"vmin": low, "vmax": high}
    image = ax.pcolormesh(x_edges, y_edges, values, cmap=_colour_map(cmap), **kwargs)
    # Along the map's long side: on the short one a colour bar would outgrow an equal-aspect map.
    fig.colorbar(image, ax=ax, label=label, location=bar, shrink=0.85, aspect=30 if bar == "bottom" else 15)
    unit = "cm" if in_cm else "bin"
    ax.set_xlabel(f"{axis_names[0]} ({unit})")
    ax.set_ylabel(f"{axis_names[1]} ({unit})")
    ax.set_aspect("equal" if in_cm else "auto")
    return image


def draw_profile(fig, title, edges, in_cm, axis_name, mean, std, rel_err, units):
    """A mesh with bins along one axis: the mean with its ±1σ band, and the relative error beside it."""
    ax_mean, ax_err = fig.subplots(1, 2)
    centres = 0.5 * (edges[:-1] + edges[1:])
    ax_mean.stairs(mean, edges, color="C0", lw=1.2, label="mean")
    band = np.isfinite(std)
    ax_mean.fill_between(centres[band], (mean - std)[band], (mean + std)[band], color="C0", alpha=0.25, lw=0,
                         label="±1σ")
    ax_mean.set_ylabel(units)
    ax_mean.legend(fontsize="small")
    ax_err.stairs(np.nan_to_num(100 * rel_err, nan=0.0), edges, color="C3", lw=1.2)
    ax_err.set_ylabel("relative error (%)")
    unit = "cm" if in_cm else "bin"
    for ax, name in ((ax_mean, "mean"), (ax_err, "relative error")):
        ax.set_xlabel(f"{axis_name} ({unit})")
        ax.set_title(name)
        ax.grid(alpha=0.3)
    fig.suptitle(title)


# ---------------------------------------------------------------------------------------------------
# A tally without a mesh: its bins as bars.

def draw_bins(fig, title, labels, mean, std, rel_err, units):
    ax_mean, ax_err = fig.subplots(1, 2, sharey=True)
    rows = np.arange(len(labels))
    ax_mean.barh(rows, mean, xerr=np.nan_to_num(std), color="C0", ecolor="k", capsize=2)
    ax_mean.set_xlabel(units)
    ax_mean.set_title("mean ± 1σ")
    ax_err.barh(rows, np.nan_to_num(100 * rel_err), color="C3")
    ax_err.set_xlabel("relative error (%)")
    ax_err.set_title("relative error")
    step = max(1, len(labels) // 60)  # at most about 60 labels: more would overlap
    ax_mean.set_yticks(rows[::step], [labels[i] for i in rows[::step]], fontsize="x-small" if len(labels) > 20 else None)
    ax_mean.invert_yaxis()  # the first bin on top, as `keff tally show` lists them
    for ax in (ax_mean, ax_err):
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle(title)


# ---------------------------------------------------------------------------------------------------
# Pin powers, and their difference from a reference.

def draw_pins(fig, title, pins, diff=None, reference_name=""):
    axes = fig.subplots(1, 2 if diff is not None else 1, squeeze=False)[0]
    names = ("x", "y")
    _map_panel(fig, axes[0], pins.x_edges, pins.y_edges, np.ma.masked_invalid(_holes(pins.power)), "inferno",
               pins.units, pins.in_cm, names)
    axes[0].set_title(f"{pins.score} per pin")
    _annotate(axes[0], pins.x_edges, pins.y_edges, pins.power, "{:.4g}")
    if diff is not None:
        limit, label = _difference_limit(diff)
        norm = TwoSlopeNorm(vcenter=0.0, vmin=-limit, vmax=limit)
        _map_panel(fig, axes[1], pins.x_edges, pins.y_edges, np.ma.masked_invalid(diff), "RdBu_r", label,
                   pins.in_cm, names, norm=norm)
        axes[1].set_title(f"difference from {reference_name}")
        _annotate(axes[1], pins.x_edges, pins.y_edges, diff, "{:+.1f}")
    fig.suptitle(title)


def _difference_limit(diff):
    """The colour scale's end: the largest |difference|, or its DIFFERENCE_PERCENTILE-th percentile when a
    few pins lie far beyond (a fission chamber's trace of fission differs by hundreds of percent and would
    wash out every fuel pin's colour); the pins past it take the end colour."""
    values = np.abs(diff[np.isfinite(diff)])
    if values.size == 0 or values.max() == 0:
        return 1.0, "difference from the reference (%)"
    largest, typical = values.max(), np.percentile(values, DIFFERENCE_PERCENTILE)
    if largest <= 2 * typical:
        return largest, "difference from the reference (%)"
    return typical, f"difference from the reference (%; the scale ends at the {DIFFERENCE_PERCENTILE}th percentile)"


def _holes(power):
    """Pins that scored nothing (guide tubes, moderator) shown as missing rather than as the colour of 0."""
    return np.where(power > 0, power, np.nan)


def _annotate(ax, x_edges, y_edges, values, fmt):
    ny, nx = values.shape
    if nx > ANNOTATE_MAX_PINS or ny > ANNOTATE_MAX_PINS:
        return
    xc, yc = 0.5 * (x_edges[:-1] + x_edges[1:]), 0.5 * (y_edges[:-1] + y_edges[1:])
    size = max(4.0, min(9.0, 130.0 / max(nx, ny)))
    for j in range(ny):
        for i in range(nx):
            if np.isfinite(values[j, i]) and values[j, i] != 0:
                ax.text(xc[i], yc[j], fmt.format(values[j, i]), ha="center", va="center", fontsize=size,
                        color="white", path_effects=OUTLINE)
