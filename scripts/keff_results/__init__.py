"""keff's results in Python: its HDF5 statepoint read into numpy arrays (StatePoint, Tally) and pictures
of them (python3 scripts/keff_results --help). examples/OUTPUTS.md, "Reading results in Python", documents both.

    import sys; sys.path.insert(0, "scripts")
    from keff_results import StatePoint
    sp = StatePoint("statepoint.h5")
    print(sp.keff, sp.tallies["pin_power"].mean.shape)
"""
from .dependencies import INSTALL_HINT, missing_modules

_missing = missing_modules()
if _missing:  # one message that says what to install, instead of numpy's or h5py's own
    raise ImportError(f"keff_results needs {', '.join(_missing)}: {INSTALL_HINT}")

from .errors import KeffResultsError, OutputError, SelectionError, StatePointError  # noqa: E402
from .statepoint import Estimate, StatePoint, Timing  # noqa: E402
from .tally import Filter, Tally  # noqa: E402

__all__ = ["StatePoint", "Tally", "Filter", "Estimate", "Timing", "KeffResultsError", "StatePointError",
           "SelectionError", "OutputError"]
