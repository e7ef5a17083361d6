#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py RESULTS: the overhead report of a benchmark run.

RESULTS holds one directory per sample, <rep>-<config>/, each with fio JSON
files (guest-bench.sh), and stamp.txt (kernel, config, machine).  Configs:
"base" (the unpatched kernel), "off" (patched, hot_track off) and "on"
(patched, hot_track on).

Writes RESULTS/report.md: per fio group, the mean and standard deviation of
the bandwidth of each config, the overhead of off and on against base, and
Welch's t-test at 95 %, as in the delay accounting overhead report of 2006;
and RESULTS/overhead.png.
"""

import json
import os
import statistics
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy import stats  # noqa: E402

CONFIGS = ["base", "off", "on"]


def samples(results):
    """Return {group: {config: [bandwidth KiB/s, ...]}}."""
    out = {}
    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d)
        if not os.path.isdir(path) or "-" not in d:
            continue
        config = d.split("-", 1)[1]
        for fn in sorted(os.listdir(path)):
            if not fn.endswith(".json"):
                continue
            with open(os.path.join(path, fn)) as f:
                text = f.read()
            data = json.loads(text[text.index("{"):])
            for job in data["jobs"]:
                bw = job["read"]["bw"] + job["write"]["bw"]
                out.setdefault(job["jobname"], {}).setdefault(
                    config, []).append(bw)
    return out


def main():
    results = sys.argv[1]
    data = samples(results)
    stamp = ""
    if os.path.exists(os.path.join(results, "stamp.txt")):
        stamp = open(os.path.join(results, "stamp.txt")).read()
    lines = ["# hot_track overhead", "", "```", stamp.rstrip(), "```", "",
             "Bandwidth in KiB/s, mean ± standard deviation over n runs; "
             "overhead = (base - x) / base; p: Welch's t-test against "
             "base, significant at 95 % when p < 0.05.", "",
             "| group | n | base | off | on | off overhead | p | "
             "on overhead | p |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    groups = sorted(data)
    over = {"off": [], "on": []}
    err = {"off": [], "on": []}
    for g in groups:
        row = [g, str(min(len(data[g].get(c, [])) for c in CONFIGS))]
        means = {}
        for c in CONFIGS:
            v = data[g].get(c, [])
            means[c] = statistics.mean(v) if v else float("nan")
            sd = statistics.stdev(v) if len(v) > 1 else 0.0
            row.append("%.0f ± %.0f" % (means[c], sd))
        for c in ("off", "on"):
            base, x = data[g].get("base", []), data[g].get(c, [])
            o = (means["base"] - means[c]) / means["base"] * 100 \
                if means["base"] else float("nan")
            over[c].append(o)
            # One standard deviation of the difference, in % of base.
            sds = [statistics.stdev(v) if len(v) > 1 else 0.0
                   for v in (base, x)]
            err[c].append((sds[0] ** 2 + sds[1] ** 2) ** 0.5 /
                          means["base"] * 100 if means["base"] else 0)
            p = stats.ttest_ind(base, x, equal_var=False).pvalue \
                if len(base) > 1 and len(x) > 1 else float("nan")
            row += ["%+.2f %%" % o, "%.3f%s" % (p, " *" if p < 0.05 else "")]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "\\* the difference from base is significant at 95 %.", ""]
    with open(os.path.join(results, "report.md"), "w") as f:
        f.write("\n".join(lines))

    fig, ax = plt.subplots(figsize=(max(6, len(groups) * 0.9), 4))
    xs = range(len(groups))
    ax.bar([x - 0.2 for x in xs], over["off"], 0.4, yerr=err["off"],
           capsize=3, label="hot_track off")
    ax.bar([x + 0.2 for x in xs], over["on"], 0.4, yerr=err["on"],
           capsize=3, label="hot_track on")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(groups, rotation=30, ha="right")
    ax.set_ylabel("overhead vs unpatched, %")
    ax.set_title("hot_track overhead: %s, %s (error bars: 1 sd)" %
                 (os.path.basename(os.path.normpath(results)),
                  os.path.basename(os.path.dirname(
                      os.path.normpath(results)))), fontsize=9)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(results, "overhead.png"), dpi=100)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
