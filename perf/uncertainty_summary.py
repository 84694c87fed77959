#!/usr/bin/env python3
"""The seed-to-seed spread of k over runs of one input (keff's JSON summaries) against the std each run
quotes: naive (independent batches), corrected for the batches' correlation and, for runs with independent
populations (settings.populations), from the spread of the populations' k. Standard library only.

    python3 perf/uncertainty_summary.py [--reference K] [--blocks N] [--starts B,B,...] RUN.json ...

For runs with populations, also whether they are independent within a run, as their std assumes: the
spread their mean would have if they were, and the correlation of each pair over the runs. Also which
estimator's batches are the most correlated, run by run; with --blocks N, where the spread
comes from: the spread of the runs' means over blocks of N active generations against their naive std,
and the source's entropy per block (the records of runs with several generations a batch are generations).
Always, each run's stationarity (src/README.md, "Stationarity"): the inactive batches it ran (what
inactive = "auto" chose), the verdict and, where it warned, on which series and with which z; with
--starts, the runs' mean collision k over the batches from each given batch to the end (whether k still
moves after the active batches began).

A quoted std is honest when the spread is about the typical (root-mean-square) quoted std: the ratio
spread / std near 1. With S runs, the spread itself is uncertain: its 68% interval is printed (chi-square
with S - 1 degrees of freedom, by the Wilson-Hilferty approximation)."""
import argparse
import json
import math
import sys


def chi2_quantile(p, dof):
    """Wilson-Hilferty: accurate to a few percent from 3 degrees of freedom."""
    # The normal quantile by Acklam's rational approximation would do; two values are needed.
    z = {0.16: -0.994458, 0.84: 0.994458}[p]
    a = 2.0 / (9.0 * dof)
    return dof * (1 - a + z * math.sqrt(a)) ** 3


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=float, default=None, help="the exact k, for each run's z")
    parser.add_argument("--blocks", type=int, default=0,
                        help="also, over blocks of this many active generations: the spread of the runs' block means "
                             "(the equal-weight mean of the three estimators) against their naive std, and the entropy")
    parser.add_argument("--starts", default="",
                        help="comma-separated batches: the runs' mean collision k over the batches from each to the end")
    parser.add_argument("runs", nargs="+")
    args = parser.parse_args()
    rows = []
    summaries = []
    shapes = set()  # (active batches, generations per batch)
    for path in args.runs:
        with open(path) as f:
            summary = json.load(f)
        summaries.append(summary)
        k = summary["k"]
        g = summary.get("run", {}).get("generations_per_batch", 1)
        active = sum(1 for b in summary["batches"] if b["active"] and b.get("generation", 1) == g)
        shapes.add((active, g))
        rows.append((k["mean"], k["std"], k["correlation"]["std_corrected"], k["correlation"]["autocorrelation_time"],
                     k["estimate"]))
    n = len(rows)
    if n < 3:
        sys.exit("uncertainty_summary.py: at least 3 runs are needed for a spread")
    means = [r[0] for r in rows]
    mean = sum(means) / n
    spread = sample_sd(means)
    lo = spread * math.sqrt((n - 1) / chi2_quantile(0.84, n - 1))
    hi = spread * math.sqrt((n - 1) / chi2_quantile(0.16, n - 1))
    rms = lambda xs: math.sqrt(sum(x * x for x in xs) / len(xs))
    naive = rms([r[1] for r in rows])
    corrected = rms([r[2] if r[2] is not None else r[1] for r in rows])
    print(f"runs {n}: k mean {mean:.6f}, seed-to-seed spread {spread:.6f} (68%: {lo:.6f} to {hi:.6f})")
    print("  active batches x generations per batch: " + ", ".join(f"{b} x {g}" for b, g in sorted(shapes, key=str)))
    print(f"  naive std (rms)      {naive:.6f}   spread / naive     {spread / naive:.2f}")
    print(f"  corrected std (rms)  {corrected:.6f}   spread / corrected {spread / corrected:.2f}")
    populations = [s.get("populations") for s in summaries]
    if all(p is not None and p["k"]["std"] is not None for p in populations):
        pstd = [p["k"]["std"] for p in populations]
        counts = sorted({p["count"] for p in populations})
        print(f"  populations std (rms) {rms(pstd):.6f}  spread / populations {spread / rms(pstd):.2f}"
              f"   ({', '.join(map(str, counts))} populations)")
        print_population_coupling([p["k_each"] for p in populations])
        if args.reference is not None:
            zp = [(r[0] - args.reference) / sd for r, sd in zip(rows, pstd)]
            print(f"  z against k = {args.reference:g}, populations: " + " ".join(f"{z:+.1f}" for z in zp) +
                  f"   (|z| > 3: {sum(abs(z) > 3 for z in zp)})")
    taus = [r[3] for r in rows if r[3] is not None]
    if taus:
        print(f"  autocorrelation time: {min(taus):.2f} to {max(taus):.2f} batches (mean {sum(taus) / len(taus):.2f})")
    if args.reference is not None:
        zn = [(r[0] - args.reference) / r[1] for r in rows]
        zc = [(r[0] - args.reference) / (r[2] if r[2] is not None else r[1]) for r in rows]
        print(f"  z against k = {args.reference:g}, naive:     " + " ".join(f"{z:+.1f}" for z in zn) +
              f"   (|z| > 3: {sum(abs(z) > 3 for z in zn)})")
        print(f"  z against k = {args.reference:g}, corrected: " + " ".join(f"{z:+.1f}" for z in zc) +
              f"   (|z| > 3: {sum(abs(z) > 3 for z in zc)})")
    kinds = sorted({r[4] for r in rows})
    print(f"  estimate: {', '.join(kinds)}")
    most_correlated = {}
    for s in summaries:
        taus = {e: s["estimators"][e]["correlation"]["autocorrelation_time"] for e in ESTIMATORS}
        if all(t is not None for t in taus.values()):
            top = max(taus, key=taus.get)
            most_correlated[top] = most_correlated.get(top, 0) + 1
    if most_correlated:
        print("  estimator with the largest autocorrelation time: " +
              ", ".join(f"{e} in {most_correlated.get(e, 0)} runs" for e in ESTIMATORS))
    print_stationarity(summaries)
    if args.starts:
        print_starts(summaries, [int(b) for b in args.starts.split(",")])
    if args.blocks > 0:
        print_blocks(summaries, args.blocks)


ESTIMATORS = ("collision", "absorption", "tracklength")


def sample_sd(xs):
    m = sum(xs) / len(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def print_population_coupling(k_each):
    """Whether a run's populations are independent, as their std assumes: the spread their mean would have
    if they were (their scatter within a run over the square root of their count), each population's own
    spread over the runs, and the correlation of each pair of populations over the runs, averaged."""
    runs, count = len(k_each), len(k_each[0])
    if count < 2 or any(len(k) != count for k in k_each):
        return
    within = math.sqrt(sum(sample_sd(k) ** 2 for k in k_each) / runs)
    columns = [[k[j] for k in k_each] for j in range(count)]
    each = [sample_sd(c) for c in columns]
    def corr(a, b):
        ma, mb = sum(a) / runs, sum(b) / runs
        cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
        return cov / math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    pairs = [corr(columns[i], columns[j]) for i in range(count) for j in range(i + 1, count)]
    print(f"  populations' scatter within a run (rms) {within:.6f}: independent, their mean would spread by "
          f"{within / math.sqrt(count):.6f}; pairs' correlation over the runs {sum(pairs) / len(pairs):+.3f} "
          f"({min(pairs):+.2f} to {max(pairs):+.2f}); each population's spread over the runs {min(each):.6f} to "
          f"{max(each):.6f}")


def print_stationarity(summaries):
    """The inactive batches each run ran, how many runs the verdict after the run found stationary, and the
    verdict of each run it warned of (its z and their critical values)."""
    verdicts = [s.get("stationarity") for s in summaries]
    if not all(v and v["tested"] for v in verdicts):
        return
    inactive = [v["first_active"] - 1 for v in verdicts]
    counts = {i: inactive.count(i) for i in sorted(set(inactive))}
    print("  inactive batches run: " + ", ".join(f"{i} in {c} runs" for i, c in counts.items()))
    warned = [v for v in verdicts if not v["stationary"]]
    print(f"  stationary by the first active batch (verdict after the run): {len(verdicts) - len(warned)} of "
          f"{len(verdicts)}")
    for v in warned:
        print(f"    warned: {v['message']}")


def print_starts(summaries, starts):
    """The runs' mean (and the spread of the mean) of the collision k over the batch records from each start
    batch to the end: a transient the active batches kept shows as a mean that moves with the start."""
    for start in starts:
        means = []
        for s in summaries:
            ks = [b["k_collision"] for b in s["batches"] if b["batch"] >= start]
            if ks:
                means.append(sum(ks) / len(ks))
        if len(means) < 2:
            print(f"  from batch {start}: fewer than 2 runs reach it")
            continue
        m = sum(means) / len(means)
        err = math.sqrt(sum((x - m) ** 2 for x in means) / (len(means) - 1) / len(means))
        print(f"  mean collision k from batch {start} on: {m:.6f} +- {err:.6f} ({len(means)} runs)")


def print_blocks(summaries, size):
    """Where the spread comes from: per block of `size` active generations (records), and over all of them,
    the runs' spread of the equal-weight mean of the three estimators against the rms of its naive std;
    then the mean entropy per block of the inactive and active records."""
    series = [[(b["k_collision"] + b["k_absorption"] + b["k_tracklength"]) / 3 for b in s["batches"] if b["active"]]
              for s in summaries]
    length = min(len(x) for x in series)
    spans = [(a, min(a + size, length)) for a in range(0, length, size)] + [(0, length)]
    for a, b in spans:
        if b - a < 2:
            continue
        means = [sum(x[a:b]) / (b - a) for x in series]
        naive = math.sqrt(sum((sample_sd(x[a:b]) / math.sqrt(b - a)) ** 2 for x in series) / len(series))
        print(f"  active generations {a + 1}-{b}: spread {sample_sd(means):.6f}, naive std (rms) {naive:.6f}, "
              f"spread / naive {sample_sd(means) / naive:.2f}")
    entropy = [[b["entropy"] for b in s["batches"]] for s in summaries]
    records = min(len(e) for e in entropy)
    print("  mean entropy per block of " + str(size) + " records: " +
          ", ".join(f"{a + 1}-{min(a + size, records)} {sum(sum(e[a:a + size]) / len(e[a:a + size]) for e in entropy) / len(entropy):.4f}"
                    for a in range(0, records, size)))


if __name__ == "__main__":
    main()
