"""keff's HDF5 statepoint read into numpy arrays, in the spirit of openmc.StatePoint: the run's metadata,
the per-batch table, k by estimator, the leakage, the timing and the tallies. The layout is io/README.md's
("Statepoint", version 4; written by io/output/statepoint.cpp and statepoint_tallies.cpp).

Tally means and deviations are the statepoint's own datasets, which keff derived from the raw sums when
it wrote them: so they are the numbers `keff tally show` prints and the JSON summary holds, bit for bit.
Everything but the source bank is read when the StatePoint is made; the file is not kept open."""
import os
import stat
from collections import namedtuple

import h5py
import numpy as np

from .errors import SelectionError, StatePointError
from .tally import Filter, Tally

SUPPORTED_VERSIONS = (4,)

# A mean and its standard deviation (NaN where undefined: fewer than two active batches).
Estimate = namedtuple("Estimate", "mean std")
# The batches' correlation of an estimate (src/README.md, "Correlated batches"); NaN where not estimated.
Correlation = namedtuple("Correlation", "std_corrected autocorrelation_time window")
# A phase's seconds over ranks.
Timing = namedtuple("Timing", "min mean max")

# /batches' columns in the order keff lists a batch's fields (io/output/run_results.hpp, for_each_field).
BATCH_COLUMNS = ("batch", "active", "k", "k_collision", "k_absorption", "k_tracklength", "entropy",
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
        except (KeyError, ValueError, TypeError, IndexError, OSError) as e:
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
        return self.run["batches_done"]

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
        return int(np.count_nonzero(self.batch_results["active"]))

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
        _check_statepoint(self.path, self.run)
        self.version = self.run["version"]
        self.batch_results = _read_batches(f["batches"])
        self.k_estimators = {name: Estimate(*f["estimators"][name][()]) for name in ESTIMATORS}
        self.k_correlations = {name: Correlation(*f["estimators"][name + "_correlation"][()]) for name in ESTIMATORS
                               if name + "_correlation" in f["estimators"]}
        self.k_combined_estimate = _value(f["estimators"].attrs["combined_estimate"])
        self.k_combined_reason = _value(f["estimators"].attrs["combined_reason"])
        self.leakage = Estimate(*f["leakage"][()])
        self.timing = {phase: Timing(*d[()]) for phase, d in f["timing"].items()}
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
    if attrs.get("filetype") != "statepoint":
        raise StatePointError(f"'{path}' is not a keff statepoint (an HDF5 file without filetype = \"statepoint\")")
    version = attrs.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise StatePointError(f"statepoint '{path}' has layout version {version}; this reader reads "
                              f"{', '.join(map(str, SUPPORTED_VERSIONS))}")


def _value(v):
    """An HDF5 attribute as a plain Python value: text decoded, numpy scalars unwrapped."""
    if isinstance(v, bytes):
        return v.decode("utf-8")
    if isinstance(v, np.generic):
        return v.item()
    return v


def _strings(dataset):
    return [_value(s) for s in dataset[()]]


def _read_batches(g):
    """/batches as columns, keff's first, then any other in name order; `active` as booleans. The running
    k of an inactive batch is NaN (the JSON summary's null): there is none yet."""
    names = [n for n in BATCH_COLUMNS if n in g] + sorted(n for n in g if n not in BATCH_COLUMNS)
    columns = {n: g[n][()] for n in names}
    lengths = {len(c) for c in columns.values()}
    if len(lengths) > 1:
        raise StatePointError(f"/batches' columns have different lengths {sorted(lengths)}")
    columns["active"] = columns["active"].astype(bool)
    for running in ("k_mean", "k_std"):
        columns[running] = np.where(columns["active"], columns[running], np.nan)
    return columns


def _read_filter(g):
    f = Filter(kind=_value(g.attrs["kind"]), bins=int(g.attrs["bins"]))
    if f.kind == "mesh":
        f.shape = tuple(int(n) for n in g["shape"][()])
        f.lower, f.upper = g["lower"][()], g["upper"][()]
    if "energy_bounds" in g:
        f.energy_bounds = g["energy_bounds"][()]
    if "names" in g:
        f.names = _strings(g["names"])
    if "positions" in g:
        f.positions = g["positions"][()].reshape(-1, 3)
    return f


def _read_tally(path, name, g, active_batches):
    filters = []
    while str(len(filters)) in g["filters"]:
        filters.append(_read_filter(g["filters"][str(len(filters))]))
    scores = _strings(g["scores"])
    shape = tuple(f.bins for f in filters) + (len(scores),)
    arrays = {}
    for dataset in ("mean", "std_dev", "sum", "sum_sq"):
        values = g[dataset][()]
        if values.size != int(np.prod(shape)):
            raise StatePointError(f"statepoint '{path}': /tallies/{name}/{dataset} holds {values.size} values "
                                  f"(allowed: {int(np.prod(shape))}, the tally's bins x scores)")
        arrays[dataset] = values.reshape(shape)
    return Tally(name=name, estimator=_value(g.attrs["estimator"]), scores=scores, units=_strings(g["units"]),
                 filters=filters, active_batches=active_batches, **arrays)


def _read_cmfd(g):
    """CMFD's settings (attributes) and each solved batch's results (datasets directly in /cmfd), as one
    dict; its restart window is left out."""
    out = {name: _value(v) for name, v in g.attrs.items()}
    out.update({name: d[()] for name, d in g.items() if isinstance(d, h5py.Dataset)})
    return out
