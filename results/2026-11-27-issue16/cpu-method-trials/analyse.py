#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""analyse.py [DIR]: the spread of the CPU time of the trials in DIR (this
directory by default), per workload, from the host's cpu.log of each run
(scripts/cpu-marks.py: NAME CPU_NS HOST_NS at each mark).  NOTES.md says
what each trial ran."""
import math
import os
import re
import statistics as st
import sys

from scipy import stats


def parse(path):
    """{label: {section: CPU ns}}; section from "config-<cfg>" marks."""
    out, open_, sec = {}, {}, ""
    with open(path) as f:
        for line in f:
            name, cpu, _ = line.split()
            m = re.match(r"^\d+-config-(\w+)$", name)
            if m:
                sec = m.group(1)
                continue
            name = re.sub(r"^(cb)?\d+-", "", name)
            if name.endswith("-start"):
                open_[name[:-6]] = int(cpu)
            elif name.endswith("-end") and name[:-4] in open_:
                label = name[:-4]
                d = out.setdefault(label, {})
                d[sec] = d.get(sec, 0) + int(cpu) - open_.pop(label)
    return out


def interval(logs):
    n = len(logs)
    mu, sd = st.mean(logs), st.stdev(logs)
    h = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    return "%+6.2f %6.2f [%+6.2f, %+6.2f] n=%d" % (
        100 * mu, 100 * sd, 100 * (mu - h), 100 * (mu + h), n)


def table(title, rows):
    print("\n" + title)
    print("%-28s %6s %6s %s" % ("workload", "mean%", "sd%", "95 % CI"))
    for label, logs in rows:
        if len(logs) > 1:
            print("%-28s %s" % (label, interval(logs)))


def pairs(d, a, b):
    """Rows of log(b / a) over the rounds <r>-a, <r>-b of d."""
    rs = sorted(int(x.split("-")[0]) for x in os.listdir(d)
                if re.match(r"^\d+-%s$" % a, x))
    runs = {r: (parse(os.path.join(d, "%d-%s/cpu.log" % (r, a))),
                parse(os.path.join(d, "%d-%s/cpu.log" % (r, b))))
            for r in rs}
    labels = list(runs[rs[0]][0])
    return [(k, [math.log(runs[r][1][k][""] / runs[r][0][k][""])
                 for r in rs if k in runs[r][1]]) for k in labels]


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    # In one boot: log(second run / first run) of the same workload.
    d = os.path.join(top, "in-boot")
    runs = [parse(os.path.join(d, "%d.cpu.log" % r)) for r in (1, 2, 3, 4)]
    order = [("off", "on"), ("on", "off"), ("off", "on"), ("on", "off")]
    rows = []
    for k in runs[0]:
        rows.append((k, [math.log(run[k][o[1]] / run[k][o[0]])
                         for run, o in zip(runs, order) if k in run]))
    table("in-boot: log(second / first), the same workload twice in a "
          "boot (hot_track off then on, or on then off)", rows)
    # One after another, the same kernel and config: log(run / mean).
    d = os.path.join(top, "sequential")
    runs = [parse(os.path.join(d, "%d.cpu.log" % r)) for r in (1, 2, 3, 4)]
    rows = []
    for k in runs[0]:
        v = [run[k][""] for run in runs[1:] if k in run]
        m = st.mean(v)
        rows.append((k, [math.log(x / m) for x in v]))
    table("sequential: log(run / mean) of boots 2-4, the same kernel "
          "(hot_track off), one after another", rows)
    table("pairs-first: log(on / base), pairs at the same time, no start "
          "barrier", pairs(os.path.join(top, "pairs-first"), "base", "on"))
    table("a-a: log(y / x), base beside base, start barrier",
          pairs(os.path.join(top, "a-a"), "x", "y"))
    table("capped: log(capped / on), on beside on with hot_track_mem=4096 "
          "(almost no items)", pairs(os.path.join(top, "capped"), "on",
                                     "capped"))


if __name__ == "__main__":
    main()
