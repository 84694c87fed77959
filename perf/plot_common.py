"""What perf/plot_*.py share: reading the CSV a benchmark script wrote, and matplotlib drawing into files."""
import csv


def read_rows(path):
    """The CSV's rows, each a dict keyed by the header's names."""
    with open(path) as f:
        return list(csv.DictReader(f))


def in_order(values):
    """The distinct values, in the order they first appear."""
    return list(dict.fromkeys(values))


def pyplot():
    """matplotlib.pyplot drawing into files only (the Agg backend, no display). Imported when the plot is
    drawn, after the tables are printed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt
