"""What the reader and the plots need beyond the standard library, and what to say when it is missing.
Imports nothing of the package, so `__main__` can check before anything else is imported."""
import importlib
import os
import sys

REQUIRED = ("numpy", "h5py", "matplotlib")
INSTALL_HINT = ("apt install python3-numpy python3-h5py python3-matplotlib (Debian) "
                "or pip install numpy h5py matplotlib")
MISSING_STATUS = 3

# Debian's packages install into the system's Python; a python3 earlier on PATH (pyenv, a virtual
# environment) may lack them while /usr/bin/python3 has them.
SYSTEM_PYTHON = "/usr/bin/python3"
_RETRIED = "KEFF_RESULTS_SYSTEM_PYTHON_TRIED"


def missing_modules():
    """The required modules this interpreter cannot import, in REQUIRED's order."""
    missing = []
    for name in REQUIRED:
        try:
            importlib.import_module(name)
        except ImportError:
            missing.append(name)
    return missing


def missing_message(missing):
    return f"keff_results: needs {', '.join(missing)}: {INSTALL_HINT}"


def system_python_to_try():
    """The system's Python when it is another interpreter than this one and has not been tried yet."""
    if os.environ.get(_RETRIED) or not os.access(SYSTEM_PYTHON, os.X_OK):
        return None
    if os.path.realpath(SYSTEM_PYTHON) == os.path.realpath(sys.executable):
        return None
    return SYSTEM_PYTHON


def rerun_with_system_python(argv):
    """Replaces this process by the system's Python running argv, marked so it is tried once only."""
    os.environ[_RETRIED] = "1"
    os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + list(argv))


def require_or_exit(argv):
    """Returns when every required module imports; otherwise reruns argv under the system's Python if
    that may have them, or prints the one line that says what to install and exits with status 3."""
    missing = missing_modules()
    if not missing:
        return
    if system_python_to_try():
        rerun_with_system_python(argv)
    print(missing_message(missing), file=sys.stderr)
    sys.exit(MISSING_STATUS)
