"""Pin powers: a tally's score per pin as an [y][x] map, from a mesh filter (one bin per pin, summed over
its z layers) or a cell_instance filter (one placement per pin, laid out by position), summed over
energy; normalised as the C5G7 comparison does (perf/c5g7_compare.py: an average of 1 over the pins that
scored), and set against a reference run's map."""
import json
from dataclasses import dataclass

import h5py
import numpy as np

from .errors import KeffResultsError, SelectionError
from .selection import select
from .statepoint import StatePoint
from .tally import Tally

# Pins below this share of the average scoring pin are not counted as pins (PinMap.scored).
TRACE_SHARE = 1e-3

# Placements whose coordinates agree to this many decimals (cm) lie in one row or column.
POSITION_DECIMALS = 6


@dataclass
class PinMap:
    power: np.ndarray     # [y][x]; NaN where no placement lies (a cell_instance grid's holes)
    variance: np.ndarray  # of each pin's power, its summed bins taken as independent: close, not exact
    x_edges: np.ndarray
    y_edges: np.ndarray
    in_cm: bool           # edges in cm, else in bins
    score: str
    units: str
    fixed: list           # what was chosen or summed, in words

    def scored(self):
        """The pins normalisation and comparison count: those that scored at least TRACE_SHARE of the average
        scoring pin. A pin with a trace of fissile material (C5G7's fission chambers score 10^-5 of a fuel
        pin) is not a fuel pin, and the benchmark's average leaves it out."""
        positive = np.isfinite(self.power) & (self.power > 0)
        if not positive.any():
            return positive
        return positive & (self.power >= TRACE_SHARE * self.power[positive].mean())

    def normalized(self):
        """This map divided by its average over the pins that scored (the C5G7 normalisation)."""
        scored = self.scored()
        if not scored.any():
            raise KeffResultsError(f"no pin scored any {self.score}: nothing to normalise to")
        average = self.power[scored].mean()
        return PinMap(self.power / average, self.variance / average**2, self.x_edges, self.y_edges, self.in_cm,
                      self.score, "relative to the average pin", self.fixed)


def has_pins(tally):
    return tally.mesh is not None or tally.find_filter("cell_instance") is not None


def pin_map(tally, choice):
    """The pin map of a tally with a mesh or a cell_instance filter; `choice` picks the score (default
    fission, else the first) and the bins of other filters."""
    if tally.mesh is not None:
        return _mesh_pins(tally, choice)
    if tally.find_filter("cell_instance") is not None:
        return _placement_pins(tally, choice)
    raise SelectionError(f"tally '{tally.name}' has no mesh or cell_instance filter to map pins from")


def _mesh_pins(tally, choice):
    sel = select(tally, choice, keep=("mesh",), sum_energy=True, preferred_score="fission")
    mesh = tally.mesh
    nx, ny, nz = mesh.shape
    power = sel.mean.reshape(nz, ny, nx).sum(axis=0)
    variance = sel.variance.reshape(nz, ny, nx).sum(axis=0)
    if nz > 1:
        sel.fixed.append(f"all {nz} z layers summed")
    x_edges, y_edges = mesh.mesh_edges(0), mesh.mesh_edges(1)
    in_cm = x_edges is not None and y_edges is not None
    if not in_cm:
        x_edges, y_edges = np.arange(nx + 1.0), np.arange(ny + 1.0)
    return PinMap(power, variance, x_edges, y_edges, in_cm, sel.score, sel.units, sel.fixed)


def _placement_pins(tally, choice):
    """Placements laid out on the grid of their distinct x and y; several at one (x, y) (other cells,
    other z) add up."""
    sel = select(tally, choice, keep=("cell_instance",), sum_energy=True, preferred_score="fission")
    positions = np.round(tally.find_filter("cell_instance").positions, POSITION_DECIMALS)
    xs, ys = np.unique(positions[:, 0]), np.unique(positions[:, 1])
    ix, iy = np.searchsorted(xs, positions[:, 0]), np.searchsorted(ys, positions[:, 1])
    power, variance = np.zeros((len(ys), len(xs))), np.zeros((len(ys), len(xs)))
    np.add.at(power, (iy, ix), sel.mean)
    np.add.at(variance, (iy, ix), sel.variance)
    placed = np.zeros(power.shape, dtype=bool)
    placed[iy, ix] = True
    power[~placed] = np.nan
    pitch = _pitch(xs) or _pitch(ys)
    x_edges, y_edges = _edges(xs, pitch), _edges(ys, pitch)
    in_cm = x_edges is not None and y_edges is not None
    if not in_cm:
        x_edges, y_edges = np.arange(len(xs) + 1.0), np.arange(len(ys) + 1.0)
    return PinMap(power, variance, x_edges, y_edges, in_cm, sel.score, sel.units, sel.fixed)


def _pitch(centres):
    """The spacing of evenly spaced centres, or None (one centre, or uneven)."""
    if len(centres) < 2:
        return None
    steps = np.diff(centres)
    return steps[0] if np.allclose(steps, steps[0], rtol=1e-6) else None


def _edges(centres, pitch):
    if pitch is None or (len(centres) > 1 and _pitch(centres) is None):
        return None
    return centres[0] - pitch / 2 + pitch * np.arange(len(centres) + 1)


# ---------------------------------------------------------------------------------------------------
# A reference: the same tally of another run, from its statepoint or its JSON summary (keff's --json, or
# perf/c5g7_openmc.py's summary of an OpenMC run, the files perf/c5g7_compare.py reads).

def load_reference_tally(path, name):
    if h5py.is_hdf5(path):
        return StatePoint(path).get_tally(name)
    try:
        with open(path) as f:
            summary = json.load(f)
        tallies = {t["name"]: t for t in summary["tallies"]}
    except OSError as e:
        raise KeffResultsError(f"cannot open reference '{path}': {e.strerror}") from None
    except (ValueError, KeyError, TypeError):
        raise KeffResultsError(f"reference '{path}' is neither a keff statepoint nor a JSON summary with tallies "
                               "(allowed: a statepoint, keff's --json summary, perf/c5g7_openmc.py's summary)") from None
    if name not in tallies:
        raise SelectionError(f"reference '{path}' has no tally '{name}' (allowed: {', '.join(tallies) or 'none'})")
    try:
        return Tally.from_summary(tallies[name])
    except (ValueError, KeyError, TypeError) as e:
        raise KeffResultsError(f"reference '{path}': tally '{name}' cannot be read: {e}") from None


def difference_percent(pins, reference):
    """(pins - reference) / reference in percent where the reference scored; NaN elsewhere."""
    if pins.power.shape != reference.power.shape:
        ny, nx = pins.power.shape
        ry, rx = reference.power.shape
        raise SelectionError(f"the reference's pin map is {rx} x {ry} pins, this one {nx} x {ny} "
                             "(allowed: a reference of the same pins)")
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(reference.scored(), 100 * (pins.power - reference.power) / reference.power, np.nan)


def difference_summary(diff):
    """The largest, the average and the RMS absolute difference (%) over the pins compared."""
    values = diff[np.isfinite(diff)]
    if values.size == 0:
        return {"pins": 0, "max": np.nan, "avg": np.nan, "rms": np.nan}
    return {"pins": int(values.size), "max": float(np.abs(values).max()), "avg": float(np.abs(values).mean()),
            "rms": float(np.sqrt((values**2).mean()))}
