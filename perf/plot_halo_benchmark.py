#!/usr/bin/env python3
"""Turns halo_benchmark.sh's CSV into a Markdown table (stdout) and a plot.

usage: plot_halo_benchmark.py CSV OUT.png TITLE
"""
import sys

from plot_common import in_order, pyplot, read_rows


def main():
    path, out_png, title = sys.argv[1:4]
    rows = read_rows(path)
    configs = in_order((r["ranks"], r["domains"]) for r in rows)
    metrics = in_order(r["metric"] for r in rows)
    value = {(r["ranks"], r["domains"], r["mode"], r["metric"]): float(r["median"]) for r in rows}

    def v(config, mode, metric):
        return value[(config[0], config[1], mode, metric)]

    hidden = []
    for c in configs:
        tb, to = v(c, "blocking", "transport mean (s)"), v(c, "overlapped", "transport mean (s)")
        compute = tb - v(c, "blocking", "exchange mpi mean (s)") - v(c, "blocking", "exchange idle mean (s)")
        cost = tb - compute
        hidden.append(1.0 - (to - compute) / cost if cost > 0 else float("nan"))

    head = "| metric | " + " | ".join(f"{c[0]} ranks, {c[1]} B | O" for c in configs) + " |"
    print(head)
    print("|---|" + "---:|---:|" * len(configs))
    for m in metrics:
        cells = []
        for c in configs:
            for mode in ("blocking", "overlapped"):
                x = v(c, mode, m)
                cells.append(f"{x:.0f}" if x >= 100 or x == int(x) else f"{x:.3g}")
        print(f"| {m} | " + " | ".join(cells) + " |")
    cells = []
    for h in hidden:
        cells += [f"{h:.0%}", ""]
    print("| exchange cost hidden | " + " | ".join(cells) + " |")

    plt = pyplot()

    labels = [f"{c[0]} ranks\n{c[1]}" for c in configs]
    x = range(len(configs))
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.2))
    w = 0.38
    for k, mode in enumerate(("blocking", "overlapped")):
        mean = [v(c, mode, "transport mean (s)") for c in configs]
        lo = [mean[i] - v(c, mode, "transport min (s)") for i, c in enumerate(configs)]
        hi = [v(c, mode, "transport max (s)") - mean[i] for i, c in enumerate(configs)]
        a.bar([i + (k - 0.5) * w for i in x], mean, w, yerr=[lo, hi], capsize=3, label=mode)
    a.set_xticks(list(x), labels)
    a.set_ylabel("transport seconds (mean; bars: min-max over ranks)")
    a.legend()
    b.bar(list(x), [100 * h for h in hidden], 0.6, color="tab:green")
    b.set_xticks(list(x), labels)
    b.set_ylabel("share of the blocking exchange cost hidden (%)")
    b.axhline(0, color="black", linewidth=0.8)
    fig.suptitle(f"Particle exchange, blocking vs overlapped: {title}")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)


if __name__ == "__main__":
    main()
