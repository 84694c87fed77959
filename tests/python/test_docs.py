#!/usr/bin/env python3
"""Every code block of the README and the user's pages holds against the code it describes:

- every block names its language, one of those below;
- `toml`: parses as TOML;
- `sh`: `bash -n` parses it; every command it runs names a file that exists (`scripts/...`, `perf/...`),
  and every `--flag` given to `keff <command>` is one that `keff <command> --help` lists, every flag given
  to a script of the repository one that the script's text names;
- `python`: compiles;
- `json`: a sketch of the JSON summary (values elided with `...`, comments with `//`): every key it names
  is one a real summary holds (runs of the tally test input on a domain mesh, of an input that loses
  particles, and of the CMFD slab, whose batch-2 solve fails; in a keff without CMFD, the keys only CMFD
  writes are left unchecked, and the test says so);
- `text`: messages, layouts and pictures of data flow, shown as they are; not checked.

    python3 tests/python/test_docs.py --keff build/bin/keff --repo . --out DIR

Standard library only (tomllib: Python 3.11). perf/RESULTS.md is left out: it records the commands that
made each measurement as they were then."""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tomllib

FOLDERS = ["src", "kernels", "mpi", "io", "tests", "perf", "scripts", "examples"]  # the layout's, less build dirs
LEFT_OUT = {"perf/RESULTS.md"}
LANGUAGES = {"toml", "sh", "python", "json", "text"}
KEFF_NAMES = {"keff", "build/bin/keff", "build-cuda/bin/keff", "build-hip/bin/keff"}
# What only a run with CMFD writes (its batches' solves, its settings): unchecked where keff has no CMFD.
CMFD_ONLY_KEYS = {"k_cmfd", "cmfd_entropy", "cmfd_outer_iterations", "cmfd_inner_iterations", "cmfd_converged",
                  "cmfd_multigrid",
                  "cmfd_failure", "albedo", "groups", "collapse", "begin", "end", "feedback", "window", "window_size",
                  "energy_bounds"}


def pages(repo):
    """README.md and every Markdown page under the layout's folders (perf/results/ holds outputs)."""
    found = ["README.md"]
    for folder in FOLDERS:
        for root, dirs, files in os.walk(os.path.join(repo, folder)):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and os.path.join(root, d) !=
                             os.path.join(repo, "perf", "results"))
            found += [os.path.relpath(os.path.join(root, f), repo) for f in sorted(files) if f.endswith(".md")]
    return [page for page in found if page not in LEFT_OUT]


def code_blocks(path):
    """(first line number, language, text) of each fenced block of a Markdown file."""
    blocks, lang, start, body = [], None, 0, []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            fence = re.match(r"^\s*```(\S*)\s*$", line)
            if fence and lang is None:
                lang, start, body = fence.group(1), number, []
            elif fence:
                blocks.append((start, lang, "".join(body)))
                lang = None
            elif lang is not None:
                body.append(line)
    if lang is not None:
        raise AssertionError(f"{path}:{start}: a code block that never closes")
    return blocks


def commands(script):
    """Each simple command of a shell block as a word list: continuations joined, comments dropped, split
    at ;, &&, || and |."""
    text = script.replace("\\\n", " ")
    for line in text.splitlines():
        words = shlex.split(line, comments=True)
        current = []
        for word in words + [";"]:
            if word in {";", "&&", "||", "|"}:
                if current:
                    yield current
                current = []
            else:
                current.append(word)


def program_and_arguments(words):
    """The program a command runs and its arguments, past environment assignments and an MPI launcher."""
    while words and re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", words[0]):
        words = words[1:]
    if words and words[0] in {"mpirun", "mpiexec"}:
        words = words[1:]
        while words and words[0].startswith("-"):
            words = words[2:] if words[0] in {"-n", "-np"} else words[1:]
    return (words[0], words[1:]) if words else (None, [])


class Checker:
    def __init__(self, keff, repo, out):
        self.keff, self.repo, self.out = keff, repo, out
        self.help_cache = {}
        self.keys = None
        self.failures = []
        self.notes = []

    def fail(self, where, what):
        self.failures.append(f"{where}: {what}")

    def keff_help(self, command):
        if command not in self.help_cache:
            result = subprocess.run([self.keff, *command, "--help"], capture_output=True, text=True)
            self.help_cache[command] = result.stdout + result.stderr if result.returncode == 0 else None
        return self.help_cache[command]

    def check_keff(self, where, arguments):
        command = []  # the longest prefix of words that is a command with its own help: `tally show`
        for word in arguments:
            if word.startswith("-") or not re.match(r"^[a-z][a-z-]*$", word):
                break
            if self.keff_help(tuple(command + [word])) is None:
                break
            command.append(word)
        text = self.keff_help(tuple(command))
        if text is None:
            self.fail(where, f"`keff {' '.join(command)} --help` fails")
            return
        for word in arguments:
            flag = word.strip("[]").split("=", 1)[0]  # a synopsis brackets what is optional
            if flag.startswith("--") and not flag.startswith("--kokkos-") and \
                    not re.search(re.escape(flag) + r"(?![\w-])", text):
                self.fail(where, f"`keff {' '.join(command)}` has no flag {flag} (its --help lists none)")

    def check_script(self, where, program, arguments):
        path = os.path.join(self.repo, program)
        if not os.path.isfile(path):
            self.fail(where, f"{program} does not exist")
            return
        if program.endswith(".sh") and not os.access(path, os.X_OK):
            self.fail(where, f"{program} is not executable")
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for word in arguments:
            flag = word.strip("[]").split("=", 1)[0]
            if flag.startswith("--") and re.match(r"^--[a-z][a-z0-9-]*$", flag) and flag not in text:
                self.fail(where, f"{program} knows no flag {flag}")

    def check_sh(self, where, text):
        parsed = subprocess.run(["bash", "-n"], input=text, capture_output=True, text=True)
        if parsed.returncode != 0:
            self.fail(where, f"bash -n: {parsed.stderr.strip()}")
            return
        for words in commands(text):
            program, arguments = program_and_arguments(words)
            if program in KEFF_NAMES:
                self.check_keff(where, arguments)
            elif program in {"python3", "python"} and arguments and arguments[0].startswith("scripts/keff_results"):
                self.check_script(where, "scripts/keff_results/cli.py", arguments[1:])
            elif program and re.match(r"^(scripts|perf)/[\w./-]+$", program):
                self.check_script(where, program, arguments)

    def summary_keys(self):
        """Every key of real JSON summaries, at any depth."""
        with open(os.path.join(self.repo, "tests/inputs/bad/lost_particles.toml"), encoding="utf-8") as f:
            losing = f.read().replace("[settings]", "[settings]\nmax_lost = 1000000", 1)
        with open(os.path.join(self.out, "losing.toml"), "w", encoding="utf-8") as f:
            f.write(losing)
        sizes = ["--particles", "400", "--batches", "3", "--inactive", "1"]
        runs = [["tests/inputs/tallies_lattice.toml", "--domains", "1,1,1", "--populations", "4"] + sizes,
                [os.path.join(self.out, "losing.toml")] + sizes]
        version = subprocess.run([self.keff, "--version"], capture_output=True, text=True).stdout
        keys = set()
        if "CMFD off" in version:
            keys |= CMFD_ONLY_KEYS
            self.notes.append("this keff has no CMFD: the JSON keys only CMFD writes are not checked")
        else:
            # with min_collisions = 30000 its first solves leave out more than 5 % of the production and
            # fail (tests/cmake/cmfd_failures.cmake)
            with open(os.path.join(self.repo, "examples/cmfd_slab_2g.toml"), encoding="utf-8") as f:
                sparse = f.read().replace("min_collisions = 100 ", "min_collisions = 30000 ", 1)
            with open(os.path.join(self.out, "cmfd_sparse.toml"), "w", encoding="utf-8") as f:
                f.write(sparse)
            runs.append([os.path.join(self.out, "cmfd_sparse.toml"), "--batches", "3", "--inactive", "2"])
        for number, run in enumerate(runs):
            path = os.path.join(self.out, f"summary{number}.json")
            result = subprocess.run([self.keff, "run"] + run + ["--quiet", "--statepoint", "", "--json", path],
                                    cwd=self.repo, capture_output=True, text=True,
                                    env=dict(os.environ, OMP_NUM_THREADS="1"))
            if result.returncode != 0:
                raise RuntimeError(f"keff run {' '.join(run)} failed:\n{result.stderr}")
            with open(path, encoding="utf-8") as f:
                stack = [json.load(f)]
            while stack:
                value = stack.pop()
                if isinstance(value, dict):
                    keys.update(value)
                    stack.extend(value.values())
                elif isinstance(value, list):
                    stack.extend(value)
        return keys

    def check_json(self, where, text):
        if self.keys is None:
            self.keys = self.summary_keys()
        keys = self.keys
        text = re.sub(r"//[^\n]*", "", text)
        # A quoted word after a colon is a value ("estimate": "combined"); every other one is a key.
        for match in re.finditer(r'(:\s*)?"([A-Za-z_][A-Za-z0-9_ ]*)"', text):
            if match.group(1) is None and match.group(2) not in keys:
                self.fail(where, f"the JSON summary holds no key \"{match.group(2)}\"")

    def check_page(self, page):
        for start, lang, text in code_blocks(os.path.join(self.repo, page)):
            where = f"{page}:{start}"
            if lang not in LANGUAGES:
                self.fail(where, f"a code block in '{lang or 'no language'}' (allowed: {', '.join(sorted(LANGUAGES))})")
            elif lang == "toml":
                try:
                    tomllib.loads(text)
                except tomllib.TOMLDecodeError as error:
                    self.fail(where, f"TOML: {error}")
            elif lang == "sh":
                self.check_sh(where, text)
            elif lang == "python":
                try:
                    compile(text, where, "exec")
                except SyntaxError as error:
                    self.fail(where, f"Python: {error}")
            elif lang == "json":
                self.check_json(where, text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--keff", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    checker = Checker(os.path.abspath(args.keff), os.path.abspath(args.repo), os.path.abspath(args.out))
    blocks = 0
    found = pages(checker.repo)
    for page in found:
        checker.check_page(page)
        blocks += len(code_blocks(os.path.join(checker.repo, page)))
    for note in checker.notes:
        print(f"note: {note}")
    for failure in checker.failures:
        print(failure)
    print(f"{blocks} code blocks in {len(found)} pages, {len(checker.failures)} failing")
    return 1 if checker.failures else 0


if __name__ == "__main__":
    sys.exit(main())
