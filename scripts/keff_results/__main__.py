"""python3 scripts/keff_results COMMAND ...: pictures of a keff statepoint (cli.py). The required modules
are checked before the package is imported (its __init__ needs them), so a machine without them gets one
line that says what to install (status 3) rather than a traceback."""
import importlib.util
import os
import sys

sys.dont_write_bytecode = True  # run from the source tree: leave no __pycache__ in it
_here = os.path.dirname(os.path.abspath(__file__))


def _dependencies():
    """dependencies.py alone, without the package around it."""
    spec = importlib.util.spec_from_file_location("keff_results_dependencies", os.path.join(_here, "dependencies.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_dependencies().require_or_exit(sys.argv)
# Run as a directory, Python put this one first on the path, where its modules could shadow others'
# (errors, cli): the package is imported from the directory above instead.
if sys.path and os.path.abspath(sys.path[0]) == _here:
    del sys.path[0]
sys.path.insert(0, os.path.dirname(_here))

from keff_results.cli import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
