#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report.py RESULTS: the overhead report of a benchmark run.

RESULTS holds one directory per sample, <rep>-<config>/, each with the
result files of guest-bench.sh, and stamp.txt (kernel, config, machine).
Configs: "base" (the unpatched kernel), "off" (patched, hot_track off) and
"on" (patched, hot_track on).  Result files:

  <workload>[-j<N>].json  fio JSON: per job name, KiB/s read and written
                          (ops/s for the file engines: filestat, ...)
  fs_mark-j<N>.txt        fs_mark: files/s over all its iterations
  compilebench.json       compilebench.py: MB/s per phase (ops/s for stat)

Writes RESULTS/report.md: per workload (fio job, fs_mark, compilebench
phase) and thread count, the mean and standard deviation of each config,
the overhead of off and on against base and Welch's t-test at 95 %, as in the
delay accounting overhead report of 2006, with a line for each one that
needs an explanation (overhead above 1 % either way, and significant); and
RESULTS/overhead.png.  Needs scipy and matplotlib (/usr/bin/python3).
"""

import json
import math
import os
import re
import statistics
import sys
import warnings

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy import stats  # noqa: E402

CONFIGS = ["base", "off", "on"]
# The order of guest-bench.sh; others after them.
ORDER = ["seed", "buffered", "large_file_create", "large_file_seq_read",
         "random_read", "random_write", "mail_server", "mixed", "fs_mark",
         "compilebench"]
FILE_ENGINES = ("filecreate", "filestat", "filedelete", "dircreate",
                "dirstat", "dirdelete")
# Flag an overhead above this (in %) when it is significant.
FLAG_PCT = 1.0
ALPHA = 0.05


class Metric:
    """One row of the report: a workload's measure, per config."""

    def __init__(self, workload, name, jobs, unit, higher=True):
        self.workload = workload
        self.name = name
        self.jobs = jobs
        self.unit = unit
        self.higher = higher
        self.seq = 0            # order of appearance in the results
        self.samples = {}

    def label(self):
        return self.name + (" j%d" % self.jobs if self.jobs else "")

    def key(self):
        w = ORDER.index(self.workload) if self.workload in ORDER \
            else len(ORDER)
        return (w, self.workload, self.jobs or 0, self.seq)


def split_name(stem):
    """"random_read-j8" -> ("random_read", 8); "seed" -> ("seed", None)."""
    m = re.match(r"^(.*?)(?:-j(\d+))?$", stem)
    return m.group(1), int(m.group(2)) if m.group(2) else None


def fio_values(data):
    """{job name: (value, unit)} of one fio JSON output."""
    engine = data.get("global options", {}).get("ioengine", "")
    acc = {}
    for job in data["jobs"]:
        eng = job.get("job options", {}).get("ioengine", engine)
        a = acc.setdefault(job["jobname"], [eng, 0, 0, 0])
        kib = ios = 0
        for d in ("read", "write", "trim"):
            if d in job:
                kib += job[d]["io_kbytes"]
                ios += job[d]["total_ios"]
                a[3] = max(a[3], job[d]["runtime"])
        a[1] += kib
        a[2] += ios
    out = {}
    for name, (eng, kib, ios, ms) in acc.items():
        if not ios or not ms:
            continue        # a setup job, no I/O
        if eng in FILE_ENGINES:
            out[name] = (ios * 1000.0 / ms, "ops/s")
        else:
            out[name] = (kib * 1000.0 / ms, "KiB/s")
    return out


def fs_mark_value(text):
    """Files per second over all iterations of an fs_mark output."""
    files = secs = 0.0
    last = 0
    for line in text.splitlines():
        f = line.split()
        if len(f) != 5 or not all(re.match(r"^[\d.]+$", x) for x in f):
            continue
        count, rate = int(f[1]), float(f[3])
        if rate > 0:
            files += count - last
            secs += (count - last) / rate
        last = count
    return files / secs if secs else None


def samples(results):
    """Return {label: Metric} of all samples under results."""
    out = {}

    def add(workload, name, jobs, unit, value, config, higher=True):
        m = Metric(workload, name, jobs, unit, higher)
        m.seq = len(out)
        m = out.setdefault(m.label(), m)
        m.samples.setdefault(config, []).append(value)

    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d)
        if not os.path.isdir(path) or "-" not in d:
            continue
        config = d.split("-", 1)[1]
        for fn in sorted(os.listdir(path)):
            stem, ext = os.path.splitext(fn)
            workload, jobs = split_name(stem)
            with open(os.path.join(path, fn)) as f:
                text = f.read()
            if ext == ".json" and "{" in text:
                data = json.loads(text[text.index("{"):])
                if data.get("benchmark") == "compilebench.py":
                    for ph, r in data["phases"].items():
                        v = r.get("mb_s", r.get("ops_s"))
                        add("compilebench", "compilebench/" + ph, None,
                            r["unit"], v, config)
                elif "jobs" in data:
                    for name, (v, unit) in fio_values(data).items():
                        add(workload, name, jobs, unit, v, config)
            elif ext == ".txt" and workload == "fs_mark":
                v = fs_mark_value(text)
                if v is not None:
                    add("fs_mark", "fs_mark", jobs, "files/s", v, config)
    return out


def mean_sd(v):
    if not v:
        return float("nan"), float("nan")
    return statistics.mean(v), statistics.stdev(v) if len(v) > 1 else 0.0


def compare(m, c):
    """(overhead %, error %, p) of config c against base for metric m."""
    base, x = m.samples.get("base", []), m.samples.get(c, [])
    mb, sb = mean_sd(base)
    mx, sx = mean_sd(x)
    if not base or not x or not mb:
        return float("nan"), 0.0, float("nan")
    # Positive: slower than base, whichever way the unit goes.
    o = (mb - mx) / mb * 100 if m.higher else (mx - mb) / mb * 100
    err = math.hypot(sb, sx) / mb * 100
    p = float("nan")
    if len(base) > 1 and len(x) > 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = stats.ttest_ind(base, x, equal_var=False).pvalue
    return o, err, p


def fmt(v):
    if math.isnan(v):
        return "-"
    if abs(v) >= 100:
        return "%.0f" % v
    return "%.3g" % v


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report.py RESULTS")
    results = sys.argv[1]
    data = samples(results)
    metrics = sorted(data.values(), key=Metric.key)
    stamp = ""
    if os.path.exists(os.path.join(results, "stamp.txt")):
        with open(os.path.join(results, "stamp.txt")) as f:
            stamp = f.read()
    lines = ["# hot_track overhead", "", "```", stamp.rstrip(), "```", "",
             "Mean ± standard deviation over n runs, in the row's unit "
             "(higher is better unless marked ↓); jN: N threads; "
             "overhead: how much slower than base, in % of base; "
             "p: Welch's t-test against base, significant at 95 % "
             "when p < 0.05.", "",
             "| workload | unit | n | base | off | on | off overhead | p | "
             "on overhead | p |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    over = {"off": [], "on": []}
    err = {"off": [], "on": []}
    flags = []
    for m in metrics:
        n = min(len(m.samples.get(c, [])) for c in CONFIGS)
        row = [m.label(), m.unit + ("" if m.higher else " ↓"), str(n)]
        for c in CONFIGS:
            mu, sd = mean_sd(m.samples.get(c, []))
            row.append("%s ± %s" % (fmt(mu), fmt(sd)))
        why = []
        for c in ("off", "on"):
            o, e, p = compare(m, c)
            over[c].append(o)
            err[c].append(e)
            sig = p < ALPHA
            row += ["-" if math.isnan(o) else "%+.2f %%" % o,
                    "-" if math.isnan(p) else
                    "%.3f%s" % (p, " *" if sig else "")]
            if sig and abs(o) > FLAG_PCT:
                why.append("%s %+.2f %% (p = %.3f)" % (c, o, p))
        lines.append("| " + " | ".join(row) + " |")
        if why:
            flags.append("- %s: %s: needs explanation" %
                         (m.label(), ", ".join(why)))
    lines += ["", "\\* the difference from base is significant at 95 %.",
              ""]
    lines += ["## Needs explanation", "",
              "Overhead above %g %% either way and significant at 95 %%:"
              % FLAG_PCT, ""]
    lines += flags or ["none."]
    lines.append("")
    with open(os.path.join(results, "report.md"), "w") as f:
        f.write("\n".join(lines))

    labels = [m.label() for m in metrics]
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.45), 4.5))
    xs = range(len(labels))
    ax.bar([x - 0.2 for x in xs], over["off"], 0.4, yerr=err["off"],
           capsize=2, label="hot_track off")
    ax.bar([x + 0.2 for x in xs], over["on"], 0.4, yerr=err["on"],
           capsize=2, label="hot_track on")
    ax.axhline(0, color="black", linewidth=0.5)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("overhead vs unpatched, % (higher: slower)")
    ax.set_title("hot_track overhead: %s, %s (error bars: 1 sd)" %
                 (os.path.basename(os.path.normpath(results)),
                  os.path.basename(os.path.dirname(
                      os.path.normpath(results)))), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(results, "overhead.png"), dpi=100)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
