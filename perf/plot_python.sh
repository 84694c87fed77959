#!/usr/bin/env bash
# Prints a Python that has matplotlib: the system's, or a private virtual environment in the build
# directory given as $1 (made on first use, so the system's Python is left alone).
set -euo pipefail
if python3 -c 'import matplotlib' 2>/dev/null; then
  echo python3
  exit 0
fi
venv="${1:?usage: plot_python.sh BUILD_DIR}/plot-venv"
[[ -x "$venv/bin/python" ]] || python3 -m venv "$venv" >&2
"$venv/bin/python" -c 'import matplotlib' 2>/dev/null || "$venv/bin/pip" install --quiet matplotlib >&2
echo "$venv/bin/python"
