#!/usr/bin/env python3
"""keff's NCrystal materials against NCrystal's own Python API (NCrystal.createScatter(cfg): xsect,
sampleScatterIsotropic), an independent client of the same library: keff's cfg handling, tables and
sampling (tests/thermal_samples.cpp) must give what NCrystal gives.

For graphite and liquid water at three energies off the tables' grid, through the tables and through
NCrystal asked in transport (--direct):
- the cross section: direct equal to NCrystal's within 1e-12 (same library), tables within 1 % (linear
  interpolation between grid energies; graphite's Bragg edges are the worst);
- the outgoing energy and cosine of 20000 scatters against 20000 of NCrystal's: two-sample
  Kolmogorov-Smirnov at the 0.1 % level. Direct: critical distance 1.95 sqrt(2/20000) = 0.0195. Tables:
  their outcomes at a grid energy count as one sample of 1024 (stratified, they are less noisy, so this is
  conservative): critical 1.95 sqrt(1/1024 + 1/20000) = 0.0625. A sign or frame error moves the distance
  by 0.2 to 1.

  test_ncrystal_python.py --samples KEFF_THERMAL_SAMPLES
Exit 0 when every check passes, 1 otherwise; prints "ncrystal python tests skipped: ..." and exits 0 where
this Python has no NCrystal module (ctest's SKIP_REGULAR_EXPRESSION). On a GPU backend, where NCrystal
cannot be asked in transport, the direct path is left out, saying so.
"""
import argparse
import math
import subprocess
import sys

try:
    import numpy as np
    import NCrystal
except ImportError as missing:
    print(f"ncrystal python tests skipped: {missing} (scripts/setup-ncrystal.sh installs NCrystal with its Python)")
    sys.exit(0)

CASES = [("C_sg194_pyrolytic_graphite.ncmat", 296.0), ("LiquidWaterH2O_T293.6K.ncmat", 293.6)]
ENERGIES = [0.0037, 0.0416, 0.731]  # eV, none on the tables' grid
N = 20000
TABLE_OUTCOMES = 1024  # settings.thermal_table_samples' default
HOST_ONLY = 77  # keff_thermal_samples --direct on a GPU backend


def ks_distance(a, b):
    """Largest distance between the empirical distribution functions, compared in single precision: a
    Bragg line is one value, reached by keff through a rescaled cosine and by NCrystal directly."""
    a = np.sort(np.asarray(a, dtype=np.float32))
    b = np.sort(np.asarray(b, dtype=np.float32))
    pooled = np.concatenate([a, b])
    fa = np.searchsorted(a, pooled, side="right") / a.size
    fb = np.searchsorted(b, pooled, side="right") / b.size
    return float(np.max(np.abs(fa - fb)))


def keff_samples(helper, cfg, temperature, direct):
    cmd = [helper, cfg, str(temperature), str(N)] + [repr(e) for e in ENERGIES] + (["--direct"] if direct else [])
    run = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if run.returncode == HOST_ONLY:
        return None, None
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited with {run.returncode}: {run.stderr.strip()}")
    xs, out = {}, {e: ([], []) for e in ENERGIES}
    for line in run.stdout.splitlines():
        f = line.split()
        if f[0] == "xs":
            xs[float(f[1])] = float(f[2])
        elif f[0] == "scatter":
            e = min(ENERGIES, key=lambda x: abs(x - float(f[1])))
            out[e][0].append(float(f[2]))
            out[e][1].append(float(f[3]))
    return {min(ENERGIES, key=lambda x: abs(x - k)): v for k, v in xs.items()}, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", required=True, help="the keff_thermal_samples executable")
    args = parser.parse_args()
    failures = 0
    for cfg, temperature in CASES:
        theirs = NCrystal.createScatter(f"{cfg};temp={temperature}K")
        reference = {e: theirs.sampleScatterIsotropic(e, repeat=N) for e in ENERGIES}
        for direct in (False, True):
            path = "direct" if direct else "tables"
            xs, ours = keff_samples(args.samples, cfg, temperature, direct)
            if xs is None:
                print(f"--   {cfg} {path}: left out (NCrystal is asked in transport on host backends only)")
                continue
            xs_tolerance = 1e-12 if direct else 0.01
            critical = 1.95 * math.sqrt(2.0 / N if direct else 1.0 / TABLE_OUTCOMES + 1.0 / N)
            for e in ENERGIES:
                expected = float(theirs.xsect(ekin=e))
                error = abs(xs[e] / expected - 1)
                d_energy = ks_distance(ours[e][0], reference[e][0])
                d_mu = ks_distance(ours[e][1], reference[e][1])
                ok = error <= xs_tolerance and d_energy < critical and d_mu < critical
                failures += not ok
                print(f"{'ok  ' if ok else 'FAIL'} {cfg} {path} at {e} eV: xs {xs[e]:.6g} b against NCrystal's "
                      f"{expected:.6g} (relative error {error:.2e}, allowed {xs_tolerance:g}); KS distance "
                      f"{d_energy:.4f} (E'), {d_mu:.4f} (mu), critical {critical:.4f}")
    print(f"{failures} check(s) failed" if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
