#!/usr/bin/env python3
"""scripts/keff_results against keff itself: a short run of tests/inputs/tallies_lattice.toml (every filter,
score and estimator, plus a mesh along one axis) writes a statepoint and a JSON summary, and

- the reader's metadata, k by estimator, per-batch table, timing and every tally's mean and standard
  deviation per bin equal the JSON summary's, bit for bit (both hold the doubles keff computed; the JSON
  prints each as the shortest decimal that reads back to the same bits);
- each command writes a PNG whose size, read from its IHDR header, is the --size asked for; pins with a
  reference draws the difference;
- bad input (a missing file, a file that is no statepoint, an unknown tally, a score, bin or layer out of
  range, an output that cannot be written) ends with status 2 and one line, never a traceback; missing
  numpy, h5py or matplotlib with status 3 and the line that says what to install.

    python3 tests/python/test_keff_results.py --keff build/bin/keff --repo . [--out DIR] [unittest args]

(or KEFF and KEFF_REPO in the environment). Standard library, numpy, h5py and matplotlib only; when they
are missing the tests are skipped with a line saying so (tests/python_tests.cmake)."""
import argparse
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # imports from the source tree leave no __pycache__ there

# Debian's packages install into the system's Python; a python3 earlier on PATH (pyenv, a virtual
# environment) may lack them. Then the tests run under /usr/bin/python3, as the commands themselves do.
try:
    import h5py  # noqa: F401
    import matplotlib  # noqa: F401
    import numpy as np
except ImportError as missing:
    if os.path.realpath(sys.executable) != os.path.realpath("/usr/bin/python3") and \
            os.access("/usr/bin/python3", os.X_OK) and not os.environ.get("KEFF_RESULTS_TESTS_RETRIED"):
        os.environ["KEFF_RESULTS_TESTS_RETRIED"] = "1"
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    print(f"keff_results tests skipped: {missing} (apt install python3-numpy python3-h5py python3-matplotlib)")
    sys.exit(0)

KEFF = REPO = OUT = None
RUN = {}  # the files of the runs setUpModule makes

# Two meshes the input lacks: one along x alone (drawn as a profile) and one in the x-z plane (drawn as
# that plane), the latter after an energy filter.
EXTRA_TALLIES = """
[[mesh]]
name = "x_axis"
lower_left = [-5.67]
upper_right = [5.67]
shape = [9]

[[tally]]
name = "x_profile"
filters = ["mesh"]
mesh = "x_axis"
scores = ["flux"]

[[mesh]]
name = "xz"
lower_left = [-5.67, -5.67, -1.0]
upper_right = [5.67, 5.67, 1.0]
shape = [9, 1, 4]

[[tally]]
name = "xz_flux"
filters = ["energy", "mesh"]
mesh = "xz"
energy = [1.0e-5, 0.625, 2.0e7]
scores = ["flux"]
"""
TALLIES = ["mesh", "pin_power", "fuel_pins", "by_material", "events", "whole", "x_profile", "xz_flux"]
MISSING_LINE = "apt install python3-numpy python3-h5py python3-matplotlib"


def run_keff(name, seed):
    """A short run (400 particles, 6 batches, 2 inactive: seconds) of the input with the extra tallies."""
    statepoint, summary = os.path.join(OUT, f"{name}.h5"), os.path.join(OUT, f"{name}.json")
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    result = subprocess.run([KEFF, "run", RUN["input"], "--particles", "400", "--batches", "6", "--inactive", "2",
                             "--seed", str(seed), "--quiet", "--statepoint", statepoint, "--json", summary],
                            capture_output=True, text=True, env=env, timeout=300)
    if result.returncode != 0:
        raise RuntimeError(f"keff run failed ({result.returncode}):\n{result.stderr}")
    return statepoint, summary


def setUpModule():
    RUN["input"] = os.path.join(OUT, "tallies.toml")
    with open(os.path.join(REPO, "tests", "inputs", "tallies_lattice.toml")) as f:
        text = f.read()
    with open(RUN["input"], "w") as f:
        f.write(text + EXTRA_TALLIES)
    RUN["statepoint"], RUN["summary"] = run_keff("run", 1)
    _, RUN["other_summary"] = run_keff("other", 2)


def keff_results(*args, env=None):
    """The command line as a user runs it."""
    return subprocess.run([sys.executable, os.path.join(REPO, "scripts", "keff_results"), *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)


def png_size(path):
    """Width and height from a PNG's IHDR chunk, the first after the signature."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise AssertionError(f"'{path}' is not a PNG")
    return struct.unpack(">II", head[16:24])


def nan_for_none(values):
    return np.array([math.nan if v is None else v for v in values], dtype=float)


class Reader(unittest.TestCase):
    """The StatePoint against the JSON summary of the same run."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        from keff_results import StatePoint, StatePointError
        cls.StatePointError = StatePointError
        cls.sp = StatePoint(RUN["statepoint"])
        with open(RUN["summary"]) as f:
            cls.summary = json.load(f)

    def assert_same(self, actual, expected, what):
        """Equal bit for bit, NaN and null counting as equal."""
        actual, expected = np.asarray(actual, dtype=float), nan_for_none(np.ravel(expected))
        np.testing.assert_array_equal(actual.ravel(), expected, err_msg=what)

    def test_metadata(self):
        for key, value in self.summary["run"].items():
            self.assertEqual(self.sp.run[key], value, key)
        self.assertEqual((self.sp.particles, self.sp.batches, self.sp.inactive, self.sp.seed), (400, 6, 2, 1))
        self.assertEqual(self.sp.batches_done, len(self.summary["batches"]))
        self.assertEqual(self.sp.active_batches, 4)
        for key in ("lost_particles", "bank_overflows", "particles_per_second", "batch_particles_per_second",
                    "triggers"):
            self.assertEqual(self.sp.run[key], self.summary[key], key)

    def test_k(self):
        k = self.summary["k"]
        self.assert_same(self.sp.keff, [k["mean"], k["std"]], "k")
        self.assertEqual((self.sp.k_combined_estimate, self.sp.k_combined_reason), (k["estimate"], k["reason"]))
        for name, estimate in self.summary["estimators"].items():
            self.assert_same(self.sp.k_estimators[name], [estimate["mean"], estimate["std"]], name)
        correlation = k["correlation"]
        self.assert_same(self.sp.k_correlations["combined"][:2],
                         [correlation["std_corrected"], correlation["autocorrelation_time"]], "k correlation")
        leakage = self.summary["leakage"]
        self.assert_same(self.sp.leakage, [leakage["mean"], leakage["std"]], "leakage")

    def test_batches(self):
        batches = self.summary["batches"]
        for key in batches[0]:
            self.assert_same(self.sp.batch_results[key], [b[key] for b in batches], f"batches' {key}")
        np.testing.assert_array_equal(self.sp.k_generation, [b["k"] for b in batches])
        np.testing.assert_array_equal(self.sp.entropy, [b["entropy"] for b in batches])

    def test_timing(self):
        """Against the file itself: the statepoint is written before the run ends, so its phase times are
        those of that moment (the JSON summary's, written later, add the output phase and can be larger)."""
        self.assertEqual(self.sp.timing_synchronized, self.summary["timing_synchronized"])
        self.assertLessEqual(set(self.sp.timing), set(self.summary["timing"]))
        with h5py.File(RUN["statepoint"], "r") as f:
            for phase, t in self.sp.timing.items():
                np.testing.assert_array_equal(t, f["timing"][phase][()], err_msg=phase)

    def test_tallies_equal_the_summary(self):
        self.assertEqual(list(self.sp.tallies), [t["name"] for t in self.summary["tallies"]])
        self.assertEqual(list(self.sp.tallies), TALLIES)
        for expected in self.summary["tallies"]:
            tally = self.sp.tallies[expected["name"]]
            with self.subTest(tally=tally.name):
                self.assertEqual((tally.estimator, tally.scores, tally.units),
                                 (expected["estimator"], expected["scores"], expected["units"]))
                self.assertEqual(list(tally.shape), expected["shape"])
                self.assertEqual(tally.mean.shape, tally.shape)
                self.assert_same(tally.mean, expected["mean"], "mean")
                self.assert_same(tally.std_dev, expected["std_dev"], "std_dev")
                self.assert_filters(tally.filters, expected["filters"])

    def assert_filters(self, filters, expected):
        self.assertEqual([f.kind for f in filters], [f["kind"] for f in expected])
        for f, e in zip(filters, expected):
            self.assertEqual(f.bins, e["bins"])
            if f.kind == "mesh":
                self.assertEqual(list(f.shape), e["shape"])
                self.assert_same(f.lower, e["lower"], "lower")
                self.assert_same(f.upper, e["upper"], "upper")
            self.assertEqual((f.form, f.units), (e["form"], e.get("units", "")))
            if "bounds" in e:
                self.assert_same(f.bounds, e["bounds"], "bounds")
            if "names" in e:
                self.assertEqual(f.names, e["names"])
            if "positions" in e:
                self.assert_same(f.positions, np.ravel(e["positions"]), "positions")

    def test_deviation_from_the_sums(self):
        """What keff derived the means and deviations from (src/host/statistics.cpp, mean_std_of_sums): the
        same formula here, the last bits free where the compiler fused a multiply and an add."""
        n = self.sp.active_batches
        for tally in self.sp.tallies.values():
            with self.subTest(tally=tally.name):
                mean = tally.sum / n
                np.testing.assert_array_equal(tally.mean, mean)
                std = np.sqrt(np.maximum(0.0, tally.sum_sq / n - mean * mean) / (n - 1))
                np.testing.assert_allclose(tally.std_dev, std, rtol=1e-6, atol=1e-300)

    def test_relative_error(self):
        tally = self.sp.tallies["pin_power"]
        positive = tally.mean > 0
        np.testing.assert_array_equal(tally.rel_err[positive], tally.std_dev[positive] / tally.mean[positive])
        self.assertTrue(np.isnan(tally.rel_err[~positive]).all())
        self.assertTrue((~positive).any(), "the guide tubes' fission is 0")

    def test_table(self):
        tally = self.sp.tallies["pin_power"]
        table = tally.table()
        self.assertEqual(list(table), ["mesh x", "mesh y", "mesh z", "energy low [eV]", "energy high [eV]", "score",
                                       "mean", "std_dev", "rel_err"])
        self.assertEqual(len(table["mean"]), 81 * 2 * 3)
        # The last row as `keff tally show --csv` prints it: mesh bin (8 8 0), the upper band, nu-fission.
        last = {column: values[-1] for column, values in table.items()}
        self.assertEqual((last["mesh x"], last["mesh y"], last["mesh z"], last["energy high [eV]"], last["score"]),
                         (8, 8, 0, 2.0e7, "nu-fission"))
        self.assertEqual(last["mean"], tally.mean[-1, -1, -1])
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaisesRegex(ImportError, "apt install python3-pandas"):
                tally.get_pandas_dataframe()
        else:
            self.assertEqual(tally.get_pandas_dataframe().shape, (486, 9))

    def test_refusals(self):
        from keff_results import SelectionError
        with self.assertRaisesRegex(self.StatePointError, "not a keff statepoint"):
            type(self.sp)(RUN["summary"])
        with self.assertRaisesRegex(self.StatePointError, "No such file"):
            type(self.sp)(os.path.join(OUT, "nothing.h5"))
        with self.assertRaisesRegex(SelectionError, r"no tally 'nosuch' \(allowed: mesh, pin_power"):
            self.sp.get_tally("nosuch")


class FilterTable(unittest.TestCase):
    """keff_results reads every form of bins keff's filter kinds have (`keff tally filters`, from their one
    table): a filter is read by the form and units the file states, so the kinds are keff's alone."""

    def test_every_form_read(self):
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        from keff_results.tally import FORMS
        result = subprocess.run([KEFF, "tally", "filters"], capture_output=True, text=True, timeout=60,
                                env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = [line.split("\t") for line in result.stdout.splitlines()]
        self.assertTrue(all(len(row) == 6 for row in rows), result.stdout)
        self.assertEqual(sorted({row[2] for row in rows}), sorted(FORMS))
        self.assertTrue(all((row[2] == "bounds") == (row[3] != "-") for row in rows), result.stdout)


class Commands(unittest.TestCase):
    """The pictures: written, of the size asked for; bad input refused with one line."""

    def picture(self, name):
        return os.path.join(OUT, name)

    def assert_picture(self, result, path, size):
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stderr, "")
        self.assertGreater(os.path.getsize(path), 1000)
        self.assertEqual(png_size(path), size)

    def test_convergence(self):
        path = self.picture("convergence.png")
        result = keff_results("convergence", RUN["statepoint"], "-o", path, "--size", "640,480")
        self.assert_picture(result, path, (640, 480))
        self.assertEqual(result.stdout.strip(), path)

    def test_default_size(self):
        path = self.picture("default_size.png")
        self.assert_picture(keff_results("convergence", RUN["statepoint"], "-o", path), path, (1200, 900))

    def test_mesh_map_of_an_energy_bin(self):
        path = self.picture("pin_power_fast.png")
        result = keff_results("mesh", RUN["statepoint"], "pin_power", "--score", "fission", "--group", "2", "-o", path,
                              "--size", "801,601")
        self.assert_picture(result, path, (801, 601))

    def test_mesh_layer_of_a_3d_mesh(self):
        path = self.picture("by_material_z3.png")
        result = keff_results("mesh", RUN["statepoint"], "by_material", "--z", "3", "--bin", "material=water", "-o",
                              path, "--size", "1000,700")
        self.assert_picture(result, path, (1000, 700))

    def test_mesh_profile(self):
        path = self.picture("x_profile.png")
        result = keff_results("mesh", RUN["statepoint"], "x_profile", "-o", path, "--size", "900,500")
        self.assert_picture(result, path, (900, 500))

    def test_mesh_plane(self):
        path = self.picture("xz_flux.png")
        result = keff_results("mesh", RUN["statepoint"], "xz_flux", "--group", "1", "-o", path, "--size", "1000,600")
        self.assert_picture(result, path, (1000, 600))

    def test_pins_against_a_reference(self):
        path = self.picture("pins_reference.png")
        result = keff_results("pins", RUN["statepoint"], "pin_power", "--normalize", "--reference",
                              RUN["other_summary"], "-o", path, "--size", "1400,700")
        self.assert_picture(result, path, (1400, 700))
        self.assertIn("76 pins scored", result.stdout)
        self.assertRegex(result.stdout, r"against other\.json: max \|difference\| [0-9.]+ %, .* over 76 pins")

    def test_pins_against_itself(self):
        """The run's own summary as the reference: no difference anywhere."""
        path = self.picture("pins_itself.png")
        result = keff_results("pins", RUN["statepoint"], "pin_power", "--normalize", "--reference", RUN["summary"],
                              "-o", path)
        self.assert_picture(result, path, (1200, 900))
        self.assertIn("max |difference| 0.00 %, average 0.00 %, RMS 0.00 % over 76 pins", result.stdout)

    def test_pins_of_placements(self):
        """A cell_instance tally laid out by position: the same 76 fuel pins as the mesh."""
        path = self.picture("fuel_pins.png")
        result = keff_results("pins", RUN["statepoint"], "fuel_pins", "-o", path, "--size", "700,700")
        self.assert_picture(result, path, (700, 700))
        self.assertIn("76 pins scored", result.stdout)

    def test_all(self):
        out = self.picture("all")
        result = keff_results("all", RUN["statepoint"], "--out", out, "--size", "700,500")
        self.assertEqual(result.returncode, 0, result.stderr)
        written = result.stdout.split()
        self.assertEqual(written, [os.path.join(out, "convergence.png")] +
                         [os.path.join(out, f"tally_{name}.png") for name in TALLIES])
        for path in written:
            self.assertEqual(png_size(path), (700, 500), path)

    def assert_refused(self, args, message, status=2, env=None):
        output = self.picture("refused.png")
        if os.path.exists(output):
            os.remove(output)
        result = keff_results(*args, env=env)
        with self.subTest(args=args):
            self.assertEqual(result.returncode, status, result.stderr)
            self.assertIn(message, result.stderr)
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
            self.assertNotIn("Traceback", result.stderr)
            self.assertFalse(os.path.exists(output), "a refused command wrote its picture")

    def test_bad_input(self):
        sp, out = RUN["statepoint"], ("-o", self.picture("refused.png"))
        cases = [
            (("convergence", os.path.join(OUT, "nothing.h5"), *out), "No such file or directory"),
            (("convergence", RUN["summary"], *out), "is not a keff statepoint (not an HDF5 file)"),
            (("convergence", OUT, *out), "is not a keff statepoint (allowed: a regular file"),
            (("mesh", sp, "nosuch", *out), "has no tally 'nosuch' (allowed: " + ", ".join(TALLIES) + ")"),
            (("mesh", sp, "whole", *out), "tally 'whole' has no mesh filter (allowed: mesh, pin_power, by_material, x_profile, xz_flux)"),
            (("mesh", sp, "pin_power", "--score", "heat", *out), "no score 'heat' (allowed: flux, fission, nu-fission)"),
            (("mesh", sp, "pin_power", "--group", "3", *out), "--group 3: tally 'pin_power' has 2 energy bins (allowed: 1 to 2"),
            (("mesh", sp, "pin_power", "--energy-bin", "2", *out), "(allowed: 0 to 1"),
            (("mesh", sp, "by_material", "--z", "4", *out), "has 4 z layers (allowed: 0 to 3)"),
            (("mesh", sp, "xz_flux", "--z", "1", *out), "is drawn along z, every layer (allowed: leave --z out)"),
            (("mesh", sp, "x_profile", "--group", "1", *out), "tally 'x_profile' has no energy or group filter"),
            (("mesh", sp, "by_material", "--bin", "material=steel", *out), "(allowed: a name of fuel, clad, water"),
            (("pins", sp, "events", *out), "no mesh or cell_instance filter"),
            (("pins", sp, "pin_power", "--reference", RUN["input"], *out), "is neither a keff statepoint nor a JSON summary"),
            (("convergence", sp, "--size", "12,12", *out), "(allowed: W,H in pixels, each 200 to 8000)"),
            (("convergence", sp, "-o", os.path.join(OUT, "no", "such", "dir.png")), "cannot write"),
            (("convergence", sp, "-o", OUT), "it is not a regular file"),
            (("all", sp, "--out", RUN["summary"]), "is not a directory"),
            (("frobnicate", sp), "invalid choice: 'frobnicate'"),
        ]
        for args, message in cases:
            self.assert_refused(args, message)

    def test_outputs_never_replace_inputs(self):
        """A picture over the statepoint it is drawn from (or over the reference), directly, through a link,
        or as one of `all`'s pictures, is refused before anything is written: the statepoint stays whole."""
        sp = self.picture("copy.h5")
        shutil.copyfile(RUN["statepoint"], sp)
        link_dir = self.picture("all_onto_statepoint")
        os.makedirs(link_dir, exist_ok=True)
        link = os.path.join(link_dir, "convergence.png")
        if not os.path.lexists(link):
            os.symlink(sp, link)
        cases = [
            (("convergence", sp, "-o", sp), "-o '" + sp + "' is the statepoint"),
            (("mesh", sp, "pin_power", "-o", sp), "is the statepoint"),
            (("pins", sp, "pin_power", "--reference", RUN["summary"], "-o", RUN["summary"]), "is the reference"),
            (("all", sp, "--out", link_dir), "--out's picture '" + link + "' is the statepoint"),
        ]
        for args, message in cases:
            self.assert_refused(args, message)
        with open(sp, "rb") as a, open(RUN["statepoint"], "rb") as b:
            self.assertEqual(a.read(), b.read(), "the statepoint was written over")

    def test_missing_modules(self):
        """h5py that will not import, under this Python and the system's: status 3 and what to install."""
        stub = self.picture("no_h5py")
        os.makedirs(os.path.join(stub, "h5py"), exist_ok=True)
        with open(os.path.join(stub, "h5py", "__init__.py"), "w") as f:
            f.write("raise ImportError('not installed here')\n")
        env = dict(os.environ, PYTHONPATH=stub)
        for command in (("convergence", RUN["statepoint"], "-o", self.picture("refused.png")),
                        ("all", RUN["statepoint"], "--out", self.picture("all_missing"))):
            self.assert_refused(command, MISSING_LINE, status=3, env=env)


class ForgedMetadata(unittest.TestCase):
    """Tally metadata edited into a copy of the statepoint (h5py, the checksum left as it was): `keff tally
    show` and the Python reader refuse it with one line and a status of 2, never a crash or a traceback.
    These edits crashed tally show (a zero mesh shape: SIGFPE; a bin count past the names, a short units
    list, a long scores list: SIGSEGV) and printed NaN with status 0."""

    @classmethod
    def setUpClass(cls):
        sys.path.insert(0, os.path.join(REPO, "scripts"))
        import keff_results
        from keff_results import cli
        cls.StatePoint, cls.KeffResultsError, cls.cli = keff_results.StatePoint, keff_results.KeffResultsError, cli

    def forged(self, name, edit):
        path = os.path.join(OUT, f"forged_{name}.h5")
        shutil.copyfile(RUN["statepoint"], path)
        with h5py.File(path, "r+") as f:
            edit(f)
        return path

    @staticmethod
    def replace(f, path, values):
        del f[path]
        f[path] = values

    def assert_refused_everywhere(self, path):
        """keff tally show (table and CSV) and the reader: a one-line refusal, status 2."""
        for csv in ([], ["--csv"]):
            result = subprocess.run([KEFF, "tally", "show", path, *csv], capture_output=True, text=True, timeout=60,
                                    env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
            self.assertEqual(result.returncode, 2, f"tally show {csv}: {result.stderr}")
            self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        picture = os.path.join(OUT, "forged.png")
        result = keff_results("convergence", path, "-o", picture)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)
        self.assertNotIn("Traceback", result.stderr)

    def test_edits(self):
        t = "tallies/pin_power"
        edits = {
            "shape_zero": lambda f: self.replace(f, t + "/filters/0/shape", np.zeros(3, dtype=np.int64)),
            "bins_huge": lambda f: f[t + "/filters/0"].attrs.modify("bins", 10**6),
            "units_short": lambda f: self.replace(f, t + "/units", np.array([b"x"])),
            "scores_long": lambda f: self.replace(f, t + "/scores", np.array([b"flux"] * 5)),
            "names_short": lambda f: self.replace(f, "tallies/by_material/filters/0/names", np.array([b"fuel"])),
            "mean_nan": lambda f: f[t + "/mean"].__setitem__((0,) * f[t + "/mean"].ndim, np.nan),
            "form_unknown": lambda f: f[t + "/filters/0"].attrs.modify("form", "heat"),
            "form_not_the_kinds": lambda f: f[t + "/filters/0"].attrs.modify("form", "groups"),
        }
        for name, edit in edits.items():
            with self.subTest(edit=name):
                self.assert_refused_everywhere(self.forged(name, edit))

    def test_random_edits(self):
        """Seeded random edits of the tallies' metadata (a mutation fuzzer over the Python reader and tally
        show): every one refused with one line, or read and drawn without an exception of another kind."""
        import random
        rng = random.Random(20261127)
        with h5py.File(RUN["statepoint"], "r") as f:
            targets = []
            f["tallies"].visititems(lambda n, o: targets.append(("tallies/" + n, list(o.attrs), isinstance(o, h5py.Dataset))))
        values = [0, -1, 1, 2, 10**6, 2**40, -2**62, 0.0, -1.0, float("nan"), float("inf"), 1e308, "", "x", "mesh",
                  "energy", "names", np.zeros(0), np.zeros(3, dtype=np.int64), np.array([b"a", b"b"]), np.ones(5)]
        for i in range(60):
            path, attrs, is_dataset = rng.choice(targets)
            value = rng.choice(values)
            def edit(f, path=path, attrs=attrs, is_dataset=is_dataset, value=value):
                if attrs and (not is_dataset or rng.random() < 0.5):
                    f[path].attrs[rng.choice(attrs)] = value
                elif is_dataset:
                    self.replace(f, path, value)
            forged = self.forged(f"random{i}", edit)
            with self.subTest(edit=i, path=path, value=repr(value)):
                try:
                    sp = self.StatePoint(forged)
                    for tally in sp.tallies.values():
                        self.cli.write_tally_picture(sp, tally, os.path.join(OUT, "random.png"), (300, 200))
                except self.KeffResultsError as e:
                    self.assertNotIn("\n", str(e))
                if i % 6 == 0:
                    result = subprocess.run([KEFF, "tally", "show", forged], capture_output=True, text=True, timeout=60,
                                            env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
                    self.assertIn(result.returncode, (0, 2), result.stderr)
                    self.assertLessEqual(len(result.stderr.strip().splitlines()), 1, result.stderr)

    def test_structure_edits(self):
        """Seeded structural edits anywhere in the file (a mutation fuzzer beside the one above): a group or
        dataset deleted or replaced by text, a scalar, an empty or 2-D array, extreme numbers; an attribute
        deleted or set to bytes that are not UTF-8, a negative integer, an array or a control character. The
        reader and the pictures refuse each with one line or draw it, with no other exception and no warning
        (these once gave KeyError on a missing /batches column, TypeError on a text estimate or a text
        `inactive`, a two-line refusal for a forged version and glyph warnings for undecodable text)."""
        import random
        import warnings
        with h5py.File(RUN["statepoint"], "r") as f:
            targets = [("/", False, list(f.attrs))]
            f.visititems(lambda n, o: targets.append((n, isinstance(o, h5py.Dataset), list(o.attrs))))
        edits = []
        for path, is_dataset, attrs in targets:
            if path != "/":
                edits.append((path, "delete", None))
                kinds = ("text", "scalar", "empty", "matrix", "extremes") if is_dataset else ("dataset",)
                edits += [(path, kind, None) for kind in kinds]
            edits += [(path, kind, a) for a in attrs for kind in ("attr_delete", "attr_bytes", "attr_int", "attr_array",
                                                                 "attr_control")]

        def edit(f, path, kind, attr):
            if kind in ("delete", "text", "scalar", "empty", "matrix", "extremes", "dataset"):
                dtype = f[path].dtype if kind == "empty" else None
                del f[path]
                if kind != "delete":
                    f[path] = {"text": np.array([b"zz", b"\xff\xfe"]), "scalar": 3, "empty": np.zeros(0, dtype=dtype),
                               "matrix": np.ones((2, 2)), "extremes": np.array([np.nan, -1e308, 1e308]),
                               "dataset": np.ones(3)}[kind]
            elif kind == "attr_delete":
                del f[path].attrs[attr]
            else:
                f[path].attrs[attr] = {"attr_bytes": b"\xff\xfe", "attr_int": -7, "attr_array": np.array([1.5, 2.5]),
                                       "attr_control": "\u202e\n"}[kind]

        for i, (path, kind, attr) in enumerate(random.Random(20261127).sample(edits, 150)):
            forged = self.forged("structure", lambda f: edit(f, path, kind, attr))
            with self.subTest(path=path, edit=kind, attribute=attr), warnings.catch_warnings():
                warnings.simplefilter("error")
                try:
                    sp = self.StatePoint(forged)
                    self.cli.write_convergence(sp, os.path.join(OUT, "structure.png"), (300, 200))
                    for name, tally in sp.tallies.items():
                        if path.startswith("tallies/" + name):
                            self.cli.write_tally_picture(sp, tally, os.path.join(OUT, "structure.png"), (300, 200))
                except self.KeffResultsError as e:
                    self.assertNotIn("\n", str(e))


def main():
    global KEFF, REPO, OUT
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keff", default=os.environ.get("KEFF"), help="the keff executable (or $KEFF)")
    parser.add_argument("--repo", default=os.environ.get("KEFF_REPO"), help="the source tree (or $KEFF_REPO)")
    parser.add_argument("--out", help="a directory for the runs and pictures, emptied first (default: a temporary one)")
    args, rest = parser.parse_known_args()
    if not args.keff or not args.repo:
        parser.error("needs --keff and --repo (or KEFF and KEFF_REPO)")
    KEFF, REPO = os.path.abspath(args.keff), os.path.abspath(args.repo)
    if args.out:
        OUT = os.path.abspath(args.out)
        shutil.rmtree(OUT, ignore_errors=True)
        os.makedirs(OUT)
    else:
        OUT = tempfile.mkdtemp(prefix="keff_results_test.")
    try:
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
    finally:
        if not args.out:
            shutil.rmtree(OUT, ignore_errors=True)
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
