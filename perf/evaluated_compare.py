#!/usr/bin/env python3
"""keff against OpenMC on the same ACE files: a Markdown table per problem from each code's runs.

    perf/evaluated_compare.py --keff DIR --openmc DIR PROBLEM [PROBLEM ...]

DIR/PROBLEM.seedN.json are the runs: keff's --json summaries (examples/evaluated/PROBLEM.toml, whose
"spectrum" tally holds the flux, fission and absorption in 20 groups equal in lethargy, and whose
"reactions" tally counts inelastic scattering and (n,2n)) and perf/openmc_ce_model.py's
--reaction-tallies JSON. Per problem: k pooled over the seeds (inverse-variance weights) for each code
and their difference in combined sigmas; the leakage fraction, fission and absorption per source neutron
as seed means; the 20-group flux as chi^2 over the groups where either code scored; each code's
particles/s and the figure of merit of k, 1 / (sigma_k^2 T), as keff's over OpenMC's. Both codes'
figures are measured alike: the particles/s and T count the active batches' whole time (OpenMC's
"active batches" runtime; keff's batch_particles_per_second, the bank and the reductions besides
transport), and sigma_k is the combined estimator's standard deviation over the active batches
(keff's correction for the batches' correlation, which OpenMC does not make, widens only the k sigma
of the agreement column). A second table gives the reaction rates per source neutron: fission,
capture (absorption - fission: every disappearance reaction, in both codes), inelastic scattering
(MT 51-91; OpenMC's "(n,level)") and (n,2n). Standard library only.
"""
import argparse
import glob
import json
import math
import os


def runs(directory, problem):
    paths = sorted(glob.glob(os.path.join(directory, problem + ".seed*.json")))
    if not paths:
        raise SystemExit(f"no runs {problem}.seed*.json in {directory}")
    return [json.load(open(p)) for p in paths]


def pooled(values):
    """Inverse-variance mean of (value, sigma) pairs and its sigma."""
    w = [1 / s**2 for _, s in values]
    return sum(v * wi for (v, _), wi in zip(values, w)) / sum(w), 1 / math.sqrt(sum(w))


def seed_mean(values):
    """Plain mean of (value, sigma) pairs, sigma of the mean."""
    n = len(values)
    return sum(v for v, _ in values) / n, math.sqrt(sum(s * s for _, s in values)) / n


def keff_figures(run):
    k = run["k"]
    k_sigma = max(k["std"], k["correlation"]["std_corrected"])
    tally = next(t for t in run["tallies"] if t["name"] == "spectrum")
    scores = tally["scores"]
    groups = tally["shape"][0]

    def column(score):
        j = scores.index(score)
        return ([tally["mean"][g * len(scores) + j] for g in range(groups)],
                [tally["std_dev"][g * len(scores) + j] for g in range(groups)])

    def total(score):
        mean, std = column(score)
        return sum(mean), math.sqrt(sum(s * s for s in std))

    reactions = next(t for t in run["tallies"] if t["name"] == "reactions")

    def reaction(score):
        j = reactions["scores"].index(score)
        return reactions["mean"][j], reactions["std_dev"][j]

    return {"k": (k["mean"], k_sigma), "k_batch_std": k["std"],
            "leakage": (run["leakage"]["mean"], run["leakage"]["std"]),
            "fission": total("fission"), "absorption": total("absorption"), "flux": column("flux"),
            "capture": difference(total("absorption"), total("fission")), "inelastic": reaction("inelastic"),
            "n2n": reaction("(n,2n)"), "rate": run["batch_particles_per_second"], "active": active_histories(run)}


def difference(a, b):
    """a - b with the sigma they would have uncorrelated (absorption and fission of the same histories are
    positively correlated, so this sigma is an upper bound)."""
    return a[0] - b[0], math.hypot(a[1], b[1])


def active_histories(run):
    settings = run["run"]
    return settings["particles"] * (settings["batches"] - settings["inactive"]) * settings["generations_per_batch"]


def openmc_figures(run):
    r = {name: (v["mean"], v["std"]) for name, v in run["reactions"].items()}
    return {"k": (run["k"], run["k_std"]), "k_batch_std": run["k_std"],
            "leakage": (run["leakage"]["mean"], run["leakage"]["std"]),
            "fission": r["fission"], "absorption": r["absorption"], "capture": difference(r["absorption"], r["fission"]),
            "inelastic": r["inelastic"], "n2n": r["(n,2n)"],
            "flux": (run["flux"]["mean"], run["flux"]["std"]), "rate": run["particles_per_second"]}


def figure_of_merit(f, histories):
    """1 / (sigma_k^2 T): T the time of `histories` active histories at the run's rate, sigma_k the
    combined estimator's standard deviation over the batches."""
    return f["rate"] / (f["k_batch_std"] ** 2 * histories)


def flux_mean(figures):
    n = len(figures)
    groups = len(figures[0]["flux"][0])
    mean = [sum(f["flux"][0][g] for f in figures) / n for g in range(groups)]
    std = [math.sqrt(sum(f["flux"][1][g] ** 2 for f in figures)) / n for g in range(groups)]
    return mean, std


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keff", required=True)
    ap.add_argument("--openmc", required=True)
    ap.add_argument("problems", nargs="+")
    a = ap.parse_args()
    print("| problem | seeds | k keff | k OpenMC | diff (σ) | leakage keff / OpenMC (σ) | fission keff / OpenMC (σ) "
          "| absorption keff / OpenMC (σ) | flux χ² / groups | particles/s keff / OpenMC | FOM keff / OpenMC |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    rates = []
    for problem in a.problems:
        ours = [keff_figures(r) for r in runs(a.keff, problem)]
        theirs = [openmc_figures(r) for r in runs(a.openmc, problem)]
        k_ours, k_theirs = pooled([f["k"] for f in ours]), pooled([f["k"] for f in theirs])

        def sigmas(x, y):  # 0 where both are exact and equal (a reflected problem's leakage)
            s = math.hypot(x[1], y[1])
            return (x[0] - y[0]) / s if s > 0 else (0.0 if x[0] == y[0] else math.inf)

        def pair(name, form=".5f"):
            x, y = seed_mean([f[name] for f in ours]), seed_mean([f[name] for f in theirs])
            return f"{x[0]:{form}} / {y[0]:{form}} ({sigmas(x, y):+.1f})"

        rates.append(f"| {problem} | {pair('fission')} | {pair('capture')} | {pair('inelastic', '.4e')} | "
                     f"{pair('n2n', '.4e')} |")

        (fm, fs), (gm, gs) = flux_mean(ours), flux_mean(theirs)
        terms = [((fm[g] - gm[g]) ** 2 / (fs[g] ** 2 + gs[g] ** 2)) for g in range(len(fm)) if fs[g] > 0 or gs[g] > 0]
        rate_ours = sum(f["rate"] for f in ours) / len(ours)
        rate_theirs = sum(f["rate"] for f in theirs) / len(theirs)
        # Both codes run the input's sizes, so keff's active histories count for OpenMC's runs too.
        histories = ours[0]["active"]
        fom_ours = sum(figure_of_merit(f, histories) for f in ours) / len(ours)
        fom_theirs = sum(figure_of_merit(f, histories) for f in theirs) / len(theirs)
        print(f"| {problem} | {len(ours)} / {len(theirs)} | {k_ours[0]:.5f} ± {k_ours[1]:.5f} | "
              f"{k_theirs[0]:.5f} ± {k_theirs[1]:.5f} | {sigmas(k_ours, k_theirs):+.1f} | {pair('leakage')} | "
              f"{pair('fission')} | {pair('absorption')} | {sum(terms):.1f} / {len(terms)} | "
              f"{rate_ours:,.0f} / {rate_theirs:,.0f} | {fom_ours / fom_theirs:.2f} |")
    print()
    print("Reaction rates per source neutron, keff / OpenMC (difference in combined σ):")
    print()
    print("| problem | fission | capture | inelastic | (n,2n) |")
    print("|---|---|---|---|---|")
    print("\n".join(rates))


if __name__ == "__main__":
    main()
