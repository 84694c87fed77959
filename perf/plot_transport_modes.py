#!/usr/bin/env python3
"""Plots transport_benchmark.sh's history- vs event-based table: particles/s against particles in flight.

usage: plot_transport_modes.py CSV OUT.png SUBTITLE
"""
import sys

from plot_common import in_order, pyplot, read_rows


def main():
    path, out_png, subtitle = sys.argv[1:4]
    rows = read_rows(path)
    problems = in_order(r["problem"] for r in rows)

    plt = pyplot()

    fig, axes = plt.subplots(1, len(problems), figsize=(5.5 * len(problems), 4.2), squeeze=False)
    for ax, problem in zip(axes[0], problems):
        mine = [r for r in rows if r["problem"] == problem]
        for r in mine:
            if r["mode"] == "history":
                ax.axhline(float(r["particles_per_second"]), color="black", linestyle="--", label="history-based")
        for sort in in_order(r["sort"] for r in mine if r["mode"] == "event"):
            pts = sorted((float(r["flights_per_round"]), float(r["particles_per_second"]))
                         for r in mine if r["mode"] == "event" and r["sort"] == sort)
            order, sorter, reorder = (sort.split(":") + ["", ""])[:3]
            label = "unsorted" if order == "none" else \
                f"sorted by {order.replace('_', ', ')} ({sorter or 'counting'}, {reorder or 'particles'} reordered)"
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=f"event-based, lookups {label}")
        ax.set_xscale("log")
        ax.set_xlabel("particles in flight (mean flights per round)")
        ax.set_ylabel("particles/s (active batches)")
        ax.set_title(f"{problem} ({mine[0]['particles']} particles/batch)")
        ax.set_ylim(bottom=0)
        ax.legend(fontsize=8)
    fig.suptitle(f"History- vs event-based transport: {subtitle}")
    fig.tight_layout()
    fig.savefig(out_png, dpi=110)


if __name__ == "__main__":
    main()
