#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""plot-accuracy.py RESULTS [-o PNG]: precision@k over time, as a PNG.

RESULTS is a directory written by accuracy.py (accuracy.csv and
summary.json).  One panel per k (5, 10, 20): the precision of range_spot
as listed, sorted by its temperature, of the live temperatures
(range_stat) and of the ranges read most in the last seconds, with a
vertical line where the hot set moved and a horizontal one at the target.
The title and the footnote carry the kernel, the filesystem and the
parameters.

Runs on the host, with a python3 that has matplotlib (/usr/bin/python3).
"""

import argparse
import csv
import json
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

KS = (5, 10, 20)
# Source, label, line style.
SERIES = (
    ("spot", "range_spot as listed", {"color": "C0", "lw": 1.8}),
    ("spotsort", "range_spot sorted by temp", {"color": "C1", "lw": 1.0,
                                               "ls": "--"}),
    ("live", "range_stat, live temp", {"color": "C2", "lw": 1.0,
                                       "ls": ":"}),
    ("emp", "top k by count over the window (restarts at the move)",
     {"color": "0.6", "lw": 1.0}),
)


def load(results):
    with open(os.path.join(results, "accuracy.csv")) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(results, "summary.json")) as f:
        summary = json.load(f)
    return rows, summary


def column(rows, name):
    return [float(r[name]) if r.get(name) not in (None, "") else None
            for r in rows]


def footnote(summary):
    p = summary["params"]
    parts = ["%s: %d files x %d MiB = %d ranges, zipf s=%g, %s reads/s "
             "(achieved %.0f), %d-%d KiB O_DIRECT, update every %d s, "
             "empirical window %g s, seed %d"
             % (summary["fs"], p["files"], p["mib"], p["ranges"], p["s"],
                p["rate"] or "max", summary["achieved_rate"],
                p["read_kib"][0], p["read_kib"][1], p["update_delay_s"],
                p["emp_window_s"], p["seed"])]
    steady = ", ".join("phase %d %.2f" % (ph["phase"], ph["p10_spot"])
                       for ph in summary["phases"]
                       if ph.get("p10_spot") is not None)
    rec = summary.get("recovery", {}).get("spot", {})
    first = rec.get("first_s")
    parts.append("range_spot p@10, steady state (mean of the last half of "
                 "each phase): %s; back to >= %g after the move: %s"
                 % (steady, p["target"],
                    "%.1f s (%.1f update periods)"
                    % (first, rec["first_periods"])
                    if first is not None else "never"))
    parts.append(summary["kernel"])
    return "\n".join(parts)


def plot(results, png):
    rows, summary = load(results)
    if not rows:
        sys.exit("plot-accuracy: %s: no samples" % results)
    t = column(rows, "t")
    move = summary["phases"][1]["start_s"] if len(summary["phases"]) > 1 \
        else None
    target = summary["params"]["target"]
    fig, axes = plt.subplots(len(KS), 1, sharex=True,
                             figsize=(10, 2.6 * len(KS) + 1.4))
    for ax, k in zip(axes, KS):
        for src, label, style in SERIES:
            name = "p%d_%s" % (k, src) if src != "emp" else "p%d_emp" % k
            if name not in rows[0]:
                continue
            ax.plot(t, column(rows, name), label=label, **style)
        if move is not None:
            ax.axvline(move, color="k", lw=0.8)
            if k == KS[-1]:
                ax.text(move, 0.02, " hot set moves", fontsize=8,
                        va="bottom")
        ax.axhline(target, color="r", lw=0.8, ls="--")
        ax.set_ylim(-0.03, 1.03)
        ax.set_ylabel("precision@%d" % k)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=8, loc="lower left", ncol=2)
    axes[-1].set_xlabel("time (s)")
    fig.suptitle("hot_track accuracy: precision@k of range_spot, %s, "
                 "zipf s=%g" % (summary["fs"], summary["params"]["s"]))
    fig.text(0.01, 0.005, footnote(summary), fontsize=7, va="bottom")
    fig.tight_layout(rect=(0, 0.055, 1, 0.97))
    fig.savefig(png, dpi=110)
    print(png)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("results", help="directory written by accuracy.py")
    p.add_argument("-o", "--output",
                   help="PNG to write (default RESULTS/accuracy.png)")
    args = p.parse_args()
    plot(args.results,
         args.output or os.path.join(args.results, "accuracy.png"))


if __name__ == "__main__":
    main()
