#!/usr/bin/env python3
"""Turns load_bench's CSV rows into the committed table (with text/HDF5 ratios), a plot and a Markdown table.

usage: plot_load_benchmark.py RAW.csv OUT.csv OUT.png TITLE
"""
import csv
import sys

from plot_common import in_order, pyplot, read_rows


def main():
    raw, out_csv, out_png, title = sys.argv[1:5]
    rows = read_rows(raw)
    text = {r["ranks"]: float(r["median_s"]) for r in rows if r["format"] == "text"}
    sums = {r["checksum"] for r in rows}
    if len(sums) != 1:
        sys.exit(f"plot_load_benchmark: the loads disagree: checksums {sorted(sums)}")
    for r in rows:
        r["text_over_this"] = f"{text[r['ranks']] / float(r['median_s']):.1f}"
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)

    ranks = sorted({int(r["ranks"]) for r in rows})
    series = in_order((r["format"], r["strategy"]) for r in rows)

    print(f"\n{title}: median load time in seconds (text / HDF5 ratio)\n")
    print("| library, strategy | " + " | ".join(f"{n} rank{'s' if n > 1 else ''}" for n in ranks) + " |")
    print("|---|" + "---:|" * len(ranks))
    for fmt, strategy in series:
        cells = []
        for n in ranks:
            match = [r for r in rows if (r["format"], r["strategy"], int(r["ranks"])) == (fmt, strategy, n)]
            if not match:
                cells.append("-")
            elif fmt == "text":
                cells.append(f"{float(match[0]['median_s']):.3f}")
            else:
                cells.append(f"{float(match[0]['median_s']):.3f} ({match[0]['text_over_this']}x)")
        print(f"| {fmt}, {strategy} | " + " | ".join(cells) + " |")
    print(f"\nevery load gave checksum {sums.pop()}; table: {out_csv}; plot: {out_png}")

    plt = pyplot()

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for fmt, strategy in series:
        pts = sorted((int(r["ranks"]), float(r["median_s"]), float(r["text_over_this"]))
                     for r in rows if (r["format"], r["strategy"]) == (fmt, strategy))
        label = f"{fmt} ({strategy})"
        style = "k--o" if fmt == "text" else "-o"
        left.plot([p[0] for p in pts], [p[1] for p in pts], style, label=label)
        if fmt != "text":
            right.plot([p[0] for p in pts], [p[2] for p in pts], "-o", label=label)
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.set_xticks(ranks, [str(n) for n in ranks])
        ax.set_xlabel("MPI ranks")
        ax.grid(True, which="both", alpha=0.3)
    left.set_yscale("log")
    left.set_ylabel("load time, median (s)")
    left.set_title("time until every rank holds the library", fontsize=10)
    right.axhline(25, color="grey", linestyle=":", label="25x")
    right.set_ylabel("text time / HDF5 time")
    right.set_title("speed-up over the text library", fontsize=10)
    left.legend(fontsize=8)
    right.legend(fontsize=8)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out_png, dpi=90)


if __name__ == "__main__":
    main()
