"""One score of a tally over the axes a picture shows: every other filter's bin chosen by the user (or
its first), or summed. Checked against what the tally has, so a bad choice is a message naming what
is allowed, never an IndexError."""
from dataclasses import dataclass, field

import numpy as np

from .errors import SelectionError

ENERGY_KINDS = ("energy", "group")


@dataclass
class Choice:
    """What the user asked for: a score (None: the default), the energy or group bin counted from 0 (None:
    the first), and bins of other filters by kind, each a name or an index counted from 0."""
    score: str = None
    energy_bin: int = None
    energy_option: str = "--energy-bin"  # how the user named it, for the message
    bins: dict = field(default_factory=dict)


@dataclass
class Selection:
    """A score's mean and variance over the axes kept, and each fixed bin in words for the title."""
    mean: np.ndarray
    variance: np.ndarray
    rel_err: np.ndarray  # of each bin kept; NaN for summed axes, whose deviations combine
    score: str
    units: str
    fixed: list  # ["[0.625, 2e+07) eV", "material water", ...]


def score_of(tally, choice, preferred=None):
    """The score asked for, else `preferred` when the tally has it, else its first."""
    if choice.score is not None:
        return tally.score_index(choice.score)
    if preferred in tally.scores:
        return tally.scores.index(preferred)
    return 0


def _energy_bin(tally, axis, choice):
    f = tally.filters[axis]
    b = 0 if choice.energy_bin is None else choice.energy_bin
    if not 0 <= b < f.bins:
        first = 1 if choice.energy_option == "--group" else 0
        bins = "; ".join(f"{first + i}: {f.bin_label(i)}" for i in range(min(f.bins, 10)))
        more = "; ..." if f.bins > 10 else ""
        raise SelectionError(f"{choice.energy_option} {b + first}: tally '{tally.name}' has {f.bins} {f.kind} bins "
                             f"(allowed: {first} to {f.bins - 1 + first}: {bins}{more})")
    return b


def _named_bin(tally, axis, value):
    f = tally.filters[axis]
    if isinstance(value, str) and not value.isdigit():
        b = f.bin_of_name(value)
        if b is None:
            names = ", ".join(dict.fromkeys(f.names or []))
            raise SelectionError(f"--bin {f.kind}={value}: tally '{tally.name}' has no single {f.kind} bin of that "
                                 f"name (allowed: a name of {names}, or an index 0 to {f.bins - 1})")
        return b
    b = int(value)
    if not 0 <= b < f.bins:
        raise SelectionError(f"--bin {f.kind}={value}: tally '{tally.name}' has {f.bins} {f.kind} bins "
                             f"(allowed: 0 to {f.bins - 1})")
    return b


def _check_bin_kinds(tally, choice, keep):
    for kind in choice.bins:
        if kind in ENERGY_KINDS:
            raise SelectionError(f"--bin {kind}=...: choose an energy or group bin with --energy-bin or --group")
        axis = tally.filter_axis(kind)
        if axis is None or kind in keep:
            others = [f.kind for f in tally.filters if f.kind not in keep and f.kind not in ENERGY_KINDS]
            raise SelectionError(f"--bin {kind}=...: tally '{tally.name}' has no {kind} filter to choose a bin of "
                                 f"(allowed: {', '.join(others) or 'none: every filter is drawn or summed'})")


def select(tally, choice, keep, sum_energy=False, preferred_score=None):
    """The chosen score over the filters of the kinds in `keep` (in the tally's axis order); the energy or
    group axis summed when sum_energy, else its chosen bin; every other filter at its chosen bin."""
    _check_bin_kinds(tally, choice, keep)
    if choice.energy_bin is not None and tally.energy_filter is None:
        raise SelectionError(f"{choice.energy_option}: tally '{tally.name}' has no energy or group filter "
                             f"(allowed: leave {choice.energy_option} out)")
    k = score_of(tally, choice, preferred_score)
    mean, std, rel = tally.mean[..., k], tally.std_dev[..., k], tally.rel_err[..., k]
    variance = std * std
    fixed = []
    for axis in reversed(range(len(tally.filters))):  # from the last, so earlier axes keep their numbers
        f = tally.filters[axis]
        if f.kind in keep:
            continue
        if f.kind in ENERGY_KINDS and sum_energy:
            mean, variance = mean.sum(axis=axis), variance.sum(axis=axis)
            rel = np.full(mean.shape, np.nan)
            fixed.insert(0, f"all {f.bins} {f.kind} bins summed")
            continue
        if f.kind in ENERGY_KINDS:
            b = _energy_bin(tally, axis, choice)
        else:
            b = _named_bin(tally, axis, choice.bins.get(f.kind, 0))
        mean, variance, rel = (np.take(a, b, axis=axis) for a in (mean, variance, rel))
        label = f.bin_label(b)
        fixed.insert(0, label if f.kind in ("energy", "group") else f"{f.kind} {label}")
    return Selection(mean=mean, variance=variance, rel_err=rel, score=tally.scores[k], units=tally.units[k], fixed=fixed)
