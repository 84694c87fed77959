"""keff's HDF5 statepoint read into numpy arrays, in the spirit of openmc.StatePoint: the run's metadata,
the per-batch table, k by estimator, the leakage, the timing and the tallies. The layout is examples/OUTPUTS.md's
("Statepoint", version 11, whose filters state their form and units; written by
io/output/statepoint.cpp and statepoint_tallies.cpp). The checksum is keff's to check; this reader holds
each tally's description to its values (io/output/results_check.hpp says the same for keff), so an edited
file is refused with one line, never a traceback or a wrong picture.

Tally means and deviations are the statepoint's own datasets, which keff derived from the raw sums when
it wrote them: so they are the numbers `keff tally show` prints and the JSON summary holds, bit for bit.
Everything but the source bank is read when the StatePoint is made; the file is not kept open."""
import os
import stat
from collections import namedtuple

import h5py
import numpy as np

from .errors import SelectionError, StatePointError
from .tally import FORMS, Filter, Tally

SUPPORTED_VERSIONS = (11,)

# A mean and its standard deviation (NaN where undefined: fewer than two active batches).
Estimate = namedtuple("Estimate", "mean std")
# The batches' correlation of an estimate (src/README.md, "Correlated batches"); NaN where not estimated.
Correlation = namedtuple("Correlation", "std_corrected autocorrelation_time window")
# A phase's seconds over ranks.
Timing = namedtuple("Timing", "min mean max")

# /batches' columns in the order keff lists a batch's fields (io/output/run_results.hpp, for_each_field).
BATCH_COLUMNS = ("batch", "generation", "active", "k", "k_collision", "k_absorption", "k_tracklength", "entropy",
                 "k_mean", "k_std", "fission_sites", "leakage")
ESTIMATORS = ("collision", "absorption", "tracklength", "combined")


class StatePoint:
    """A keff statepoint. `StatePoint(path)` raises StatePointError for a file that is not one (or that
    this reader's layout version does not know); `with StatePoint(path) as sp:` works too."""

    def __init__(self, path):
        self.path = os.fspath(path)
        _check_readable_hdf5(self.path)
        try:
            with h5py.File(self.path, "r") as f:
                self._read(f)
        except StatePointError:
            raise
        except (KeyError, ValueError, TypeError, IndexError, OSError, AttributeError, ArithmeticError,
                MemoryError) as e:
            reason = e.args[0] if isinstance(e, KeyError) and e.args else e  # KeyError's str() adds quotes
            raise StatePointError(f"'{self.path}' is damaged or not a keff statepoint: {reason}") from None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return (f"StatePoint('{self.path}': {self.batches_done} batches of {self.particles} particles, "
                f"k = {self.keff.mean:.6g} +/- {self.keff.std:.2g}, tallies {list(self.tallies)})")

    # ----------------------------------------------------------------------------------------------
    # Run metadata: every attribute of the file's root, decoded (self.run), and the common ones by name.

    @property
    def particles(self):
        return self.run["particles"]

    @property
    def batches(self):
        """The batches the run was asked for (batches_done: those it ran)."""
        return self.run["batches"]

    @property
    def batches_done(self):
        """Whole batches run (batch_results holds a row per generation)."""
        return self.run["batches_done"]

    @property
    def generations_per_batch(self):
        return self.run["generations_per_batch"]

    @property
    def inactive(self):
        return self.run["inactive"]

    @property
    def seed(self):
        return self.run["seed"]

    @property
    def input(self):
        return self.run["input"]

    @property
    def mode(self):
        return self.run["mode"]

    @property
    def active_batches(self):
        """Active batches whose every generation ran: those k and the tallies are over."""
        b = self.batch_results
        return int(np.count_nonzero(b["active"] & (b["generation"] == self.generations_per_batch)))

    # ----------------------------------------------------------------------------------------------
    # k and the per-batch table.

    @property
    def keff(self):
        """k as keff reports it (the combined estimate, or its stated fallback: k_combined_estimate)."""
        return self.k_estimators["combined"]

    @property
    def k_generation(self):
        """Each batch's k."""
        return self.batch_results["k"]

    @property
    def entropy(self):
        """Each batch's Shannon entropy of the fission source, in bits."""
        return self.batch_results["entropy"]

    def get_tally(self, name):
        """The tally called `name`; SelectionError naming the tallies there are otherwise."""
        if name not in self.tallies:
            have = ", ".join(self.tallies) or "none: it has no tallies"
            raise SelectionError(f"'{self.path}' has no tally '{name}' (allowed: {have})")
        return self.tallies[name]

    def read_source_bank(self):
        """The source for the batch after the last, {r, u, energy, weight, group, parent, progeny} as
        arrays; read on demand, since it holds a site per particle."""
        try:
            with h5py.File(self.path, "r") as f:
                return {name: d[()] for name, d in f["source_bank"].items()}
        except (KeyError, OSError) as e:
            raise StatePointError(f"'{self.path}': cannot read the source bank: {e}") from None

    # ----------------------------------------------------------------------------------------------

    def _read(self, f):
        self.run = {name: _value(v) for name, v in f.attrs.items()}
        # The settings a restart matches, one "key=value" line each: a dict, as the JSON summary holds them.
        if isinstance(self.run.get("settings"), str):
            self.run["settings"] = dict(line.split("=", 1) for line in self.run["settings"].splitlines() if "=" in line)
        _check_statepoint(self.path, self.run)
        _check_run(self.run)
        self.version = self.run["version"]
        self.batch_results = _read_batches(f["batches"])
        self.k_estimators = {name: Estimate(*_numbers(f["estimators"], name, 2)) for name in ESTIMATORS}
        self.k_correlations = {name: Correlation(*_numbers(f["estimators"], name + "_correlation", 3))
                               for name in ESTIMATORS if name + "_correlation" in f["estimators"]}
        self.k_combined_estimate = _value(f["estimators"].attrs["combined_estimate"])
        self.k_combined_reason = _value(f["estimators"].attrs["combined_reason"])
        self.leakage = Estimate(*_numbers(f, "leakage", 2))
        self.timing = {phase: Timing(*_numbers(f["timing"], phase, 3)) for phase in f["timing"]}
        self.timing_synchronized = bool(f["timing"].attrs["synchronized"])
        self.tallies = {}
        for name in _strings(f["tallies"]["names"]):
            if name not in f["tallies"]:
                raise StatePointError(f"'{self.path}': tally '{name}' is listed in /tallies/names but absent")
            self.tallies[name] = _read_tally(self.path, name, f["tallies"][name], self.active_batches)
        self.cmfd = _read_cmfd(f["cmfd"]) if "cmfd" in f else None


def _check_readable_hdf5(path):
    """A regular file (links followed) that can be read and is HDF5: a FIFO would block the open for ever,
    a directory or a device is no statepoint."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise StatePointError(f"cannot open statepoint '{path}': {e.strerror}") from None
    if not stat.S_ISREG(mode):
        raise StatePointError(f"'{path}' is not a keff statepoint (allowed: a regular file; symbolic links are followed)")
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        raise StatePointError(f"cannot open statepoint '{path}': {e.strerror}") from None
    if not h5py.is_hdf5(path):
        raise StatePointError(f"'{path}' is not a keff statepoint (not an HDF5 file)")


def _check_statepoint(path, attrs):
    if not (isinstance(attrs.get("filetype"), str) and attrs["filetype"] == "statepoint"):
        raise StatePointError(f"'{path}' is not a keff statepoint (an HDF5 file without filetype = \"statepoint\")")
    version = attrs.get("version")
    if not (isinstance(version, int) and version in SUPPORTED_VERSIONS):
        raise StatePointError(f"statepoint '{path}' has layout version {printable_cut(repr(version), 40)}; this "
                              f"reader reads {', '.join(map(str, SUPPORTED_VERSIONS))}")


# The run's attributes the reader uses, and their type: each must be there, as written.
RUN_ATTRIBUTES = {"particles": int, "batches": int, "batches_done": int, "inactive": int, "seed": int,
                  "input": str, "mode": str, "generations_per_batch": int}


def _check_run(run):
    for name, kind in RUN_ATTRIBUTES.items():
        if name not in run:
            raise StatePointError(f"the run's attribute '{name}' is missing")
        if not isinstance(run[name], kind) or isinstance(run[name], bool):
            raise StatePointError(f"the run's attribute '{name}' is {printable_cut(repr(run[name]), 40)} "
                                  f"(allowed: {'an integer' if kind is int else 'text'})")
    if run["generations_per_batch"] < 1:
        raise StatePointError(f"the run's generations_per_batch, {run['generations_per_batch']}, is not a count >= 1")
    if not 0 <= run["inactive"] <= run["batches_done"]:
        raise StatePointError(f"the run's inactive batches, {run['inactive']}, are not within the "
                              f"{run['batches_done']} it ran")


def printable_cut(text, limit):
    """Untrusted text for a one-line message: control and non-printable characters escaped, cut to `limit`."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text) - limit} more)"


def _value(v):
    """An HDF5 attribute as a plain Python value: text decoded (bytes that are not UTF-8 refused), numpy
    scalars unwrapped."""
    try:
        if isinstance(v, bytes):
            return v.decode("utf-8")
        if isinstance(v, str):
            v.encode("utf-8")  # h5py decodes what is not UTF-8 to lone surrogates
            return v
    except UnicodeError:
        raise StatePointError(f"text that is not UTF-8: {printable_cut(repr(v), 40)}") from None
    if isinstance(v, np.generic):
        return v.item()
    return v


def _strings(dataset):
    """A dataset of text, one string per value."""
    if not isinstance(dataset, h5py.Dataset) or dataset.ndim != 1 or dataset.dtype.kind not in "SO":
        raise StatePointError(f"{dataset.name} is not a list of text")
    values = [_value(s) for s in dataset[()]]
    if not all(isinstance(v, str) for v in values):
        raise StatePointError(f"{dataset.name} is not a list of text")
    return values


def _numbers(g, name, count):
    """Dataset `name` of `g`: `count` real numbers (NaN allowed: a value not defined yet)."""
    d = _sized_dataset(g, name, count, "a fixed layout")
    if d.dtype.kind not in "fiu":
        raise StatePointError(f"{d.name} holds {d.dtype} (allowed: numbers)")
    return [float(v) for v in d[()].reshape(-1)]


def _read_batches(g):
    """/batches as columns, keff's first, then any other in name order; `active` as booleans. The running
    k of an inactive batch is NaN (the JSON summary's null): there is none yet. Every column of keff's
    is there, one number per batch."""
    missing = [n for n in BATCH_COLUMNS if n not in g]
    if missing:
        raise StatePointError(f"/batches lacks {', '.join(missing)} (allowed: the columns {', '.join(BATCH_COLUMNS)})")
    names = list(BATCH_COLUMNS) + sorted(n for n in g if n not in BATCH_COLUMNS)
    for n in names:
        if not isinstance(g[n], h5py.Dataset) or g[n].ndim != 1 or g[n].dtype.kind not in "fiub":
            raise StatePointError(f"/batches/{n} is not a column of numbers (allowed: one number per batch)")
    columns = {n: g[n][()] for n in names}
    lengths = {len(c) for c in columns.values()}
    if len(lengths) > 1:
        raise StatePointError(f"/batches' columns have different lengths {sorted(lengths)}")
    columns["active"] = columns["active"].astype(bool)
    for running in ("k_mean", "k_std"):
        columns[running] = np.where(columns["active"], columns[running], np.nan)
    return columns


# Bounds on what a statepoint's description can announce (io/limits.hpp, tally_kinds.hpp): checked before
# anything is allocated for it.
MAX_TALLY_VALUES = 1 << 27
MAX_TALLY_FILTERS = 6


def _sized_dataset(g, name, count, what):
    """Dataset `name` of `g`, after checking it holds `count` values (before they are read)."""
    if g[name].size != count:
        raise StatePointError(f"{g.name}/{name} holds {g[name].size} values (allowed: {count}, {what})")
    return g[name]


def _sized(g, name, count, what):
    return _sized_dataset(g, name, count, what)[()]


def _read_filter(g):
    kind, form, units, bins = (_value(g.attrs["kind"]), _value(g.attrs["form"]), _value(g.attrs["units"]),
                               int(g.attrs["bins"]))
    if not (isinstance(kind, str) and kind.isidentifier() and len(kind) <= 64):
        raise StatePointError(f"{g.name}: filter kind {printable_cut(repr(kind), 40)} (allowed: a kind's name)")
    if not (isinstance(form, str) and form in FORMS):
        raise StatePointError(f"{g.name}: filter form {printable_cut(repr(form), 40)} (allowed: {', '.join(FORMS)})")
    if not (isinstance(units, str) and units.isprintable() and len(units) <= 64):
        raise StatePointError(f"{g.name}: filter units {printable_cut(repr(units), 40)} (allowed: printable, short)")
    if not 1 <= bins <= MAX_TALLY_VALUES:
        raise StatePointError(f"{g.name}: {bins} bins (allowed: 1 to {MAX_TALLY_VALUES})")
    f = Filter(kind=kind, bins=bins, form=form, units=units)
    if form == "mesh":
        f.shape = tuple(int(n) for n in _sized(g, "shape", 3, "bins along x, y and z"))
        f.lower, f.upper = _sized(g, "lower", 3, "the box's corner"), _sized(g, "upper", 3, "the box's corner")
        if min(f.shape) < 1 or int(np.prod(f.shape, dtype=object)) != bins:
            raise StatePointError(f"{g.name}: a mesh of shape {f.shape} with {bins} bins (allowed: at least 1 "
                                  "bin along each axis, their product the bins)")
        if not (np.all(np.isfinite(f.lower)) and np.all(np.isfinite(f.upper)) and np.all(f.lower < f.upper)):
            raise StatePointError(f"{g.name}: the mesh box {list(f.lower)} to {list(f.upper)} (allowed: finite, "
                                  "lower below upper)")
    if ("bounds" in g) != (form == "bounds"):
        raise StatePointError(f"{g.name}: bounds on a {form} filter (allowed: a bounds filter's, and it has them)")
    if form == "bounds":
        f.bounds = _sized(g, "bounds", bins + 1, "the bins' edges")
        if not (np.all(np.isfinite(f.bounds)) and np.all(np.diff(f.bounds) > 0)):
            raise StatePointError(f"{g.name}: bounds not finite and ascending")
    named = form in ("names", "placements")
    if ("names" in g) != named:
        raise StatePointError(f"{g.name}: names on a {form} filter (allowed: a names or placements filter's, "
                              "and it has them)")
    if named:
        f.names = _strings(_sized_dataset(g, "names", bins, "a name per bin"))
        if not all(isinstance(n, str) and n.isprintable() and 0 < len(n) <= 256 for n in f.names):
            raise StatePointError(f"{g.name}: a bin name that is not a printable name")
    if ("positions" in g) != (form == "placements"):
        raise StatePointError(f"{g.name}: positions on a {form} filter (allowed: a placements filter's, and it "
                              "has them)")
    if form == "placements":
        f.positions = _sized(g, "positions", 3 * bins, "a position per placement").reshape(-1, 3)
        if not np.all(np.isfinite(f.positions)):
            raise StatePointError(f"{g.name}: a placement's position is not finite")
    return f


def _read_tally(path, name, g, active_batches):
    filters = []
    while len(filters) <= MAX_TALLY_FILTERS and str(len(filters)) in g["filters"]:
        filters.append(_read_filter(g["filters"][str(len(filters))]))
    if len(filters) > MAX_TALLY_FILTERS:
        raise StatePointError(f"statepoint '{path}': tally '{name}' has more than {MAX_TALLY_FILTERS} filters")
    scores = _strings(g["scores"])
    units = _strings(_sized_dataset(g, "units", len(scores), "a unit per score"))
    if not 1 <= len(scores) <= 7:
        raise StatePointError(f"statepoint '{path}': tally '{name}' has {len(scores)} scores (allowed: 1 to 7)")
    shape = tuple(f.bins for f in filters) + (len(scores),)
    values = int(np.prod(shape, dtype=object))
    if values > MAX_TALLY_VALUES:
        raise StatePointError(f"statepoint '{path}': tally '{name}' announces {values} values (allowed: at most "
                              f"{MAX_TALLY_VALUES})")
    arrays = {}
    for dataset in ("mean", "std_dev", "sum", "sum_sq"):
        if g[dataset].size != values:
            raise StatePointError(f"statepoint '{path}': /tallies/{name}/{dataset} holds {g[dataset].size} values "
                                  f"(allowed: {values}, the tally's bins x scores)")
        arrays[dataset] = g[dataset][()].reshape(shape)
    # A mean from the first active batch on, a deviation from the second (NaN before).
    means, deviations = arrays["mean"], arrays["std_dev"]
    if (np.any(np.isinf(means)) or (active_batches >= 1 and not np.all(np.isfinite(means)))
            or np.any(deviations < 0) or np.any(np.isinf(deviations))
            or (active_batches >= 2 and not np.all(np.isfinite(deviations)))):
        raise StatePointError(f"statepoint '{path}': tally '{name}' holds a mean or deviation no run of "
                              f"{active_batches} active batches makes (allowed: a finite mean from one active batch "
                              "on, a finite non-negative deviation from two)")
    if not (np.all(np.isfinite(arrays["sum"])) and np.all(arrays["sum"] >= 0) and np.all(np.isfinite(arrays["sum_sq"]))
            and np.all(arrays["sum_sq"] >= 0)):
        raise StatePointError(f"statepoint '{path}': tally '{name}' holds sums that are not finite and non-negative")
    return Tally(name=name, estimator=_value(g.attrs["estimator"]), scores=scores, units=units,
                 filters=filters, active_batches=active_batches, **arrays)


def _read_cmfd(g):
    """CMFD's settings (attributes) and each solved batch's results (datasets directly in /cmfd), as one
    dict; its restart window is left out."""
    out = {name: _value(v) for name, v in g.attrs.items()}
    out.update({name: d[()] for name, d in g.items() if isinstance(d, h5py.Dataset)})
    return out
