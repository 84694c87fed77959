"""A tally's results as numpy arrays shaped by its bins: [filter bins...][scores], the statepoint's layout
(examples/OUTPUTS.md, "Statepoint"). Built from a statepoint's /tallies/<name> or from a JSON summary's entry."""
from dataclasses import dataclass

import numpy as np

from .errors import SelectionError

# An axis a mesh leaves out spans all space; keff writes its bounds as +-1e300.
UNBOUNDED = 1e299


def number(value):
    """A number as `keff tally show` prints one (C's %.6g)."""
    return "%.6g" % value


# Where a filter's bins come from (kernels/vocabulary/tally_kinds.hpp's FilterBins). keff writes each
# filter's form and units beside its kind, so a filter is read by its form and a kind added to keff's
# table needs nothing here.
FORMS = ("mesh", "names", "placements", "bounds", "groups")


@dataclass
class Filter:
    """One axis of a tally's results: its kind (mesh, energy, group, cell, material, universe,
    cell_instance, ...: `keff tally filters`), the form of its bins (FORMS) and their units, and what
    describes the bins of that form."""
    kind: str
    bins: int
    form: str = "names"
    units: str = ""
    shape: tuple = None          # mesh: (nx, ny, nz), x fastest in the bin number
    lower: np.ndarray = None     # mesh: cm
    upper: np.ndarray = None
    bounds: np.ndarray = None    # bounds (energy): bins + 1 ascending, in `units`
    names: list = None           # names and placements (cell, material, universe, cell_instance)
    positions: np.ndarray = None  # cell_instance: [bins][3], each placement's origin (cm)

    def mesh_index(self, b):
        """Mesh bin b as (ix, iy, iz)."""
        nx, ny, _ = self.shape
        return b % nx, (b // nx) % ny, b // (nx * ny)

    def mesh_edges(self, axis):
        """The bin edges along axis 0, 1 or 2 in cm, or None when the mesh leaves that axis out."""
        lo, hi = self.lower[axis], self.upper[axis]
        if not (abs(lo) < UNBOUNDED and abs(hi) < UNBOUNDED):
            return None
        return np.linspace(lo, hi, self.shape[axis] + 1)

    def bin_label(self, b):
        """Bin b in words, as `keff tally show` prints it (src/cli/tally_table.cpp)."""
        if self.form == "mesh":
            return "(%d %d %d)" % self.mesh_index(b)
        if self.form == "bounds":
            return f"[{number(self.bounds[b])}, {number(self.bounds[b + 1])})" + (f" {self.units}" if self.units else "")
        if self.form == "groups":
            return f"group {b + 1}"
        if self.form == "placements" and self.positions is not None and b < len(self.positions):
            x, y, z = self.positions[b]
            return f"{self.names[b]} at ({number(x)} {number(y)} {number(z)})"
        return self.names[b] if self.names is not None and b < len(self.names) else str(b)

    def bin_of_name(self, name):
        """The bin named `name` (cell, material, universe), or None when none or several are."""
        hits = [b for b, n in enumerate(self.names or []) if n == name]
        return hits[0] if len(hits) == 1 else None


@dataclass
class Tally:
    """A tally's results: mean and std_dev (the standard deviation of the mean, NaN where undefined) shaped
    (filter bins..., scores), as keff wrote them; sum and sum_sq are the raw sums over the active batches
    they were derived from, in the same shape."""
    name: str
    estimator: str
    scores: list
    units: list
    filters: list
    mean: np.ndarray
    std_dev: np.ndarray
    sum: np.ndarray = None
    sum_sq: np.ndarray = None
    active_batches: int = None

    @property
    def shape(self):
        return tuple(f.bins for f in self.filters) + (len(self.scores),)

    @property
    def rel_err(self):
        """std_dev / mean where the mean is positive and the deviation defined (as `keff tally show` prints
        its percentage), NaN elsewhere."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where((self.mean > 0) & np.isfinite(self.std_dev), self.std_dev / self.mean, np.nan)

    def filter_axis(self, kind):
        """The axis of the filter of this kind, or None; a tally has each kind at most once."""
        for axis, f in enumerate(self.filters):
            if f.kind == kind:
                return axis
        return None

    def find_filter(self, kind):
        axis = self.filter_axis(kind)
        return None if axis is None else self.filters[axis]

    @property
    def mesh(self):
        return self.find_filter("mesh")

    @property
    def energy_filter(self):
        """The energy filter (continuous energy) or the group filter (multigroup), or None."""
        return self.find_filter("energy") or self.find_filter("group")

    def score_index(self, score):
        if score not in self.scores:
            raise SelectionError(f"tally '{self.name}' has no score '{score}' (allowed: {', '.join(self.scores)})")
        return self.scores.index(score)

    def table(self):
        """One row per bin and score, in the order `keff tally show --csv` prints them: a column or three per
        filter (mesh x, y, z; energy low and high in eV; group from 1; a name; a placement's name and
        position), then score, mean, std_dev and rel_err. A dict of column name -> list."""
        columns = {}
        n_scores = len(self.scores)
        bins = int(np.prod([f.bins for f in self.filters], dtype=np.int64))
        bin_indices = np.unravel_index(np.repeat(np.arange(bins), n_scores), self.shape[:-1]) if self.filters else []
        for f, index in zip(self.filters, bin_indices):
            columns.update(_filter_columns(f, index))
        columns["score"] = [self.scores[k] for k in range(n_scores)] * bins
        columns["mean"] = self.mean.ravel().tolist()
        columns["std_dev"] = self.std_dev.ravel().tolist()
        columns["rel_err"] = self.rel_err.ravel().tolist()
        return columns

    def get_pandas_dataframe(self):
        """table() as a pandas DataFrame."""
        try:
            import pandas
        except ImportError:
            raise ImportError("Tally.get_pandas_dataframe needs pandas: apt install python3-pandas (Debian) "
                              "or pip install pandas; Tally.table() gives the same columns without it") from None
        return pandas.DataFrame(self.table())

    @classmethod
    def from_summary(cls, entry):
        """A tally of a JSON summary's "tallies" list (keff's --json, or perf/c5g7_openmc.py's, which gives
        each filter its kind and a mesh its shape only). Undefined deviations (null) become NaN."""
        filters = [_filter_from_summary(f) for f in entry.get("filters", [])]
        scores = list(entry["scores"])
        shape = tuple(f.bins for f in filters) + (len(scores),)
        mean = np.array(entry["mean"], dtype=float)
        std = np.array([np.nan if v is None else v for v in entry.get("std_dev", [None] * mean.size)], dtype=float)
        if mean.size != int(np.prod(shape)) or std.size != mean.size:
            raise SelectionError(f"tally '{entry.get('name')}' of the summary has {mean.size} values, not the "
                                 f"{int(np.prod(shape))} its filters and scores make")
        return cls(name=entry.get("name", ""), estimator=entry.get("estimator", ""), scores=scores,
                   units=list(entry.get("units", [""] * len(scores))), filters=filters,
                   mean=mean.reshape(shape), std_dev=std.reshape(shape))


def _filter_columns(f, index):
    if f.form == "mesh":
        ix, iy, iz = f.mesh_index(index)
        return {"mesh x": ix.tolist(), "mesh y": iy.tolist(), "mesh z": iz.tolist()}
    if f.form == "bounds":
        units = f" [{f.units}]" if f.units else ""
        return {f"{f.kind} low{units}": f.bounds[index].tolist(),
                f"{f.kind} high{units}": f.bounds[index + 1].tolist()}
    if f.form == "groups":
        return {"group": (index + 1).tolist()}
    columns = {f.kind: [f.names[b] for b in index]}
    if f.form == "placements":
        for axis, label in enumerate(("x", "y", "z")):
            columns[label] = f.positions[index, axis].tolist()
    return columns


def _filter_from_summary(entry):
    kind = entry["kind"]
    f = Filter(kind=kind, bins=entry.get("bins", 0), form=entry.get("form", "names"), units=entry.get("units", ""))
    if f.form == "mesh":
        f.shape = tuple(int(n) for n in entry["shape"])
        f.lower = np.array(entry.get("lower", [-1e300] * 3), dtype=float)
        f.upper = np.array(entry.get("upper", [1e300] * 3), dtype=float)
        f.bins = f.bins or int(np.prod(f.shape))
    if "bounds" in entry:
        f.bounds = np.array(entry["bounds"], dtype=float)
        f.bins = f.bins or len(f.bounds) - 1
    if "names" in entry:
        f.names = list(entry["names"])
        f.bins = f.bins or len(f.names)
    if "positions" in entry:
        f.positions = np.array(entry["positions"], dtype=float).reshape(-1, 3)
    return f
