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

Where the samples hold the CPU time of each run (cpu.log, the host's
accounting through scripts/guest-run -C: "NAME CPU_NS HOST_NS" at the
"-start" and "-end" marks of guest-bench.sh; cpu-guest.txt, the guest's
ticks, otherwise), report.md begins with the CPU time instead, the measure
of a fixed amount of work (scripts/bench.sh cpu): per workload, the mean
CPU time of each config, and the overhead of on against base, on against
off and off against base with its 95 % confidence interval.  The overhead
is estimated from the rounds: the log of the ratio of two configs' CPU
times in the same round is one sample; the interval is Student's t over
those samples, turned back into a ratio.  A round runs base, off and on
one after another, or in pairs at the same time (scripts/bench.sh: base
beside on in <r>-base and <r>-on, off beside on in <r>-off and
<r>-on-off): then on against base and on against off come each from its
own pair, and off against base from both (on over base, divided by on
over off; it also holds what differs between the two pairs).  The two
of a pair run on two host CPUs, swapped every round (host-cpu.txt in each
sample says which; without it, bench.sh's rule): a CPU slower for one
config than the other then moves the log ratios of alternate rounds up
and down.  The host CPU is a factor of the interval (cpu_fit()): the mean
of each CPU's mean, the sd pooled within each CPU.  The goal,
on against base, is met where the upper end is below GOAL_PCT.  Also
RESULTS/cpu-overhead.png and RESULTS/cpu-overhead.json (every number of
the table, and the samples it came from).  Rounds for the goal: how many
rounds a workload that costs nothing needs to meet the goal with a chance
of POWER, if its log ratios spread from round to round as much as they did
in this run (an estimate from those rounds, itself uncertain).  A workload
that missed the goal in fewer rounds than that is undecided by so few
rounds.
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
# The overhead in CPU time that the upper end of the 95 % interval must stay
# below.
GOAL_PCT = 1.0
# The chance that a workload that costs nothing meets the goal in the
# rounds cpu_rounds_for_goal() gives; where it gives up.
POWER = 0.8
MAX_ROUNDS = 1000
# The tracking code's costs in a run of "on" (io.txt), from the KUnit micro
# benchmarks on the same kernel config (results/2026-11-27-issue16/
# quick-score/micro/micro.md, medians, one guest CPU): a hook call that
# adds a range item, the dearest (261 ns); one to an existing range (86
# ns); a writeback folio (14 ns); an update pass per item, at its largest
# (41 ns, at 1000 items; 17-23 at 10k to 1M).
HOOK_NS = 261
HOOK_EXISTING_NS = 86
WB_FOLIO_NS = 14
PASS_ITEM_NS = 41


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


def cpu_log(path):
    """{label: CPU ns} of one sample's cpu.log: the time between each
    "-start" mark and its "-end" mark, added up over the marks of the same
    label (compilebench's phases run more than once)."""
    out, open_ = {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) != 3:
                continue
            # "012-seed-j4-start", "cb003-compilebench:create-end"
            name = re.sub(r"^(cb)?\d+-", "", fields[0])
            ns = int(fields[1])
            if name.endswith("-start"):
                open_[name[:-6]] = ns
            elif name.endswith("-end") and name[:-4] in open_:
                label = name[:-4]
                out[label] = out.get(label, 0) + ns - open_.pop(label)
    return out


def cpu_guest(path):
    """{label: CPU ns} of one sample's cpu-guest.txt (USER_HZ ticks)."""
    hz = os.sysconf("SC_CLK_TCK")
    out = {}
    with open(path) as f:
        for line in f:
            fields = line.rsplit(None, 1)
            if len(fields) == 2:
                label = fields[0].replace(" j", "-j")
                out[label] = int(fields[1]) * 1000000000 // hz
    return out


def cpu_samples(results):
    """({label: {config: {round: CPU ns}}}, source) of all samples."""
    out = {}
    source = None
    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d)
        m = re.match(r"^(\d+)-(base|off|on|on-off)$", d)
        if not os.path.isdir(path) or not m:
            continue
        rnd, config = int(m.group(1)), m.group(2)
        if os.path.exists(os.path.join(path, "cpu.log")):
            vals, src = cpu_log(os.path.join(path, "cpu.log")), "host"
        elif os.path.exists(os.path.join(path, "cpu-guest.txt")):
            vals = cpu_guest(os.path.join(path, "cpu-guest.txt"))
            src = "guest"
        else:
            continue
        # One source for the whole report: the host's where any has it.
        if source == "guest" and src == "host":
            out = {}
        if source == "host" and src == "guest":
            continue
        source = src
        for label, ns in vals.items():
            out.setdefault(label, {}).setdefault(config, {})[rnd] = ns
    return out, source


def cpu_places(results, pairs):
    """({config: {round: place}}, source): the host CPU each run of the CPU
    time was
    pinned to, from its host-cpu.txt (scripts/bench.sh).  Where no run has
    one and the runs are in pairs, bench.sh's rule: base and off on one CPU
    of the pair, on and on-off on the other, swapped every round (the
    places are then "pair0" and "pair1", not CPU numbers).  Source:
    "host-cpu.txt", "bench.sh's rule", or None (no places) where neither
    says."""
    out, rule = {}, {}
    for d in sorted(os.listdir(results)):
        m = re.match(r"^(\d+)-(base|off|on|on-off)$", d)
        if not m:
            continue
        rnd, config = int(m.group(1)), m.group(2)
        path = os.path.join(results, d, "host-cpu.txt")
        if os.path.exists(path):
            with open(path) as f:
                out.setdefault(config, {})[rnd] = f.read().strip()
        rule.setdefault(config, {})[rnd] = \
            "pair%d" % ((rnd + (config in ("on", "on-off"))) % 2)
    if out:
        return out, "host-cpu.txt"
    return (rule, "bench.sh's rule") if pairs else ({}, None)


def io_bounds(results):
    """{label: [(dearest ns, estimate ns), ...]}: per "on" sample, what
    the tracking code takes at the micro benchmarks' costs, every event at
    the dearest (HOOK_NS per read bio, page written and item, PASS_ITEM_NS
    per item and update pass), and at the cost of each kind of event
    (HOOK_EXISTING_NS per read bio, WB_FOLIO_NS per page written, HOOK_NS
    per item, and the passes), from io.txt.  Its items are the most seen
    at the start or the end of the workload: those of files made and
    deleted within it are not counted."""
    out = {}
    for d in sorted(os.listdir(results)):
        path = os.path.join(results, d, "io.txt")
        if not re.match(r"^\d+-on(-off)?$", d) or not os.path.exists(path):
            continue
        with open(path) as f:
            for line in f:
                fields = line.split()
                if len(fields) != 5:
                    continue
                rb, wp, passes, items = (int(x) for x in fields[1:])
                pass_ns = passes * items * PASS_ITEM_NS
                bound = (rb + wp + items) * HOOK_NS + pass_ns
                est = rb * HOOK_EXISTING_NS + wp * WB_FOLIO_NS + \
                    items * HOOK_NS + pass_ns
                out.setdefault(fields[0], []).append((bound, est))
    return out


def nan_none(v):
    """JSON has no NaN: None instead."""
    return None if v != v else v


def cpu_order(label):
    w = re.sub(r"(-j\d+|:.*)$", "", label)
    return (ORDER.index(w) if w in ORDER else len(ORDER), label)


def cpu_logs(per_round, num, den):
    """{round: log(num / den)} over the rounds that ran both configs."""
    a, b = per_round.get(num, {}), per_round.get(den, {})
    return {r: math.log(a[r] / b[r]) for r in a
            if r in b and a[r] > 0 and b[r] > 0}


def cpu_comparisons(per_round, pairs):
    """{"on", "on_vs_off", "off"}: per-round log ratios of on against
    base, on against off and off against base.  Rounds in pairs (@pairs:
    an "on-off" run beside off) take on against off from that pair."""
    on = cpu_logs(per_round, "on", "base")
    if pairs:
        on_off = cpu_logs(per_round, "on-off", "off")
        off = {r: on[r] - on_off[r] for r in on if r in on_off}
    else:
        on_off = cpu_logs(per_round, "on", "off")
        off = cpu_logs(per_round, "off", "base")
    return {"on": on, "on_vs_off": on_off, "off": off}


# The config whose host CPU is the place of a comparison's round.
PLACE_OF = {"on": "base", "on_vs_off": "off", "off": "base"}


def cpu_groups(logs, places):
    """The per-round log ratios {round: log} by place ({round: place}):
    a list of lists, or None unless every round has a place, the rounds
    ran in more than one, and in each at least twice."""
    groups = {}
    for r in sorted(logs):
        groups.setdefault((places or {}).get(r), []).append(logs[r])
    if (len(groups) < 2 or None in groups or
            any(len(g) < 2 for g in groups.values())):
        return None
    return groups


def cpu_fit(logs, places=None):
    """(mean, standard error, degrees of freedom, sd) of the per-round log
    ratios {round: log}.  Where @places ({round: host CPU}, see
    cpu_places()) splits the rounds into groups (cpu_groups()), the place
    is a factor, as the host CPU is in bench.sh's design, a crossover: the
    mean is that of the places' means, the sd the pooled sd within places
    (n - places degrees of freedom).  A host CPU that is slower for one
    config of a pair than the other (it takes more of the host's
    interrupts, say) then does not widen the interval, where the swaps of
    bench.sh only take it out of the mean.  Else the plain mean and sd
    (n - 1)."""
    n = len(logs)
    groups = cpu_groups(logs, places)
    if groups:
        k = len(groups)
        means = [statistics.mean(g) for g in groups.values()]
        ss = sum((x - m) ** 2 for g, m in zip(groups.values(), means)
                 for x in g)
        df = n - k
        sd = math.sqrt(ss / df)
        se = sd / k * math.sqrt(sum(1 / len(g) for g in groups.values()))
        return statistics.mean(means), se, df, sd
    vals = [logs[r] for r in sorted(logs)]
    sd = statistics.stdev(vals)
    return statistics.mean(vals), sd / math.sqrt(n), n - 1, sd


def cpu_place_effect(logs, places):
    """{"place", "pct"}: the place over whose rounds the log ratios
    {round: log} are higher, and by how much their mean there is above the
    mean of the two places' means, in % (half the difference of the two).
    In on against base and on against off, where the two configs of a
    pair run on different CPUs, it is what running on one CPU rather than
    the other adds to either, about.  None unless cpu_groups() makes two
    places."""
    groups = cpu_groups(logs, places)
    if not groups or len(groups) != 2:
        return None
    (pa, a), (pb, b) = ((p, statistics.mean(g)) for p, g in groups.items())
    if b > a:
        pa, a, b = pb, b, a
    return {"place": pa, "pct": (math.exp((a - b) / 2) - 1) * 100}


def cpu_overhead(logs, places=None):
    """(overhead %, low %, high %, n) of the per-round log ratios {round:
    log}: their mean with Student's t interval at 95 %, the host CPU of
    each round (@places) a factor where it can be (cpu_fit())."""
    n = len(logs)
    if n < 2:
        return float("nan"), float("nan"), float("nan"), n
    mu, se, df, _ = cpu_fit(logs, places)
    half = stats.t.ppf(1 - ALPHA / 2, df) * se

    def pct(v):
        return (math.exp(v) - 1) * 100
    return pct(mu), pct(mu - half), pct(mu + half), n


def cpu_rounds_for_goal(logs, places=None):
    """The fewest rounds in which a workload that costs nothing, its
    per-round log ratios {round: log} spread as these are (their sd, within
    places if cpu_fit() takes @places as a factor), meets the goal with a
    chance of POWER: the upper end of its 95 % interval below log(1 +
    GOAL_PCT / 100), by the usual sample size of a one-sided t-test; with
    places, a multiple of their number, split evenly.  None with fewer than
    two rounds; MAX_ROUNDS where even that many are not enough (then
    "more")."""
    if len(logs) < 2:
        return None
    _, _, df, sd = cpu_fit(logs, places)
    # The degrees of freedom the places take: one, or one per place.
    lost = len(logs) - df
    goal = math.log1p(GOAL_PCT / 100)
    for n in range(2 * lost, MAX_ROUNDS, lost):
        t = stats.t.ppf(1 - ALPHA / 2, n - lost) + \
            stats.t.ppf(POWER, n - lost)
        if t * sd / math.sqrt(n) < goal:
            return n
    return MAX_ROUNDS


def cpu_report(results, stamp):
    """The CPU time table (markdown lines) and its JSON, or ([], None)."""
    # The CPU time of a run of fixed length says nothing of the cost.
    if "WORK=fixed" not in stamp:
        return [], None
    data, source = cpu_samples(results)
    if not data:
        return [], None
    what = ("the host's accounting of the guest (cgroup cpuacct: its CPUs, "
            "I/O threads and user space)" if source == "host" else
            "the guest's /proc/stat (ticks: sampling error)")
    pairs = any("on-off" in per_round for per_round in data.values())
    places, place_source = cpu_places(results, pairs)
    how = ("Each round ran in pairs at the same time, each guest on a host "
           "CPU of its own: base beside on, then off beside on; on against "
           "base and on against off come each from its pair, off against "
           "base from both." if pairs else
           "Each round ran base, off and on one after another.")
    lines = ["# hot_track overhead in CPU time", "", "```", stamp.rstrip(),
             "```", "",
             "CPU time of a fixed amount of work, from %s, between the "
             "marks before and after each workload (page cache dropped "
             "before, data written back after).  %s  Mean over the n "
             "rounds that ran on and base, in seconds (on: beside base); "
             "n: those rounds; overhead: the CPU time "
             "of one config against another's in the same round, mean of "
             "the log ratios, with its 95 %% confidence interval "
             "(Student's t; where the rounds of a comparison ran on more "
             "than one host CPU, at least two on each, the CPU a factor: "
             "the mean of the CPUs' means, the sd pooled within each CPU, "
             "a degree of freedom fewer for each CPU past the first).  "
             "Goal: the upper end of on against base below "
             "%g %%.  Rounds for the goal: how many rounds a workload "
             "that costs nothing needs to meet the goal with a chance of "
             "%g %%, if its on against base spreads from round to round "
             "as much as here (an estimate from these rounds)."
             % (what, how, GOAL_PCT, POWER * 100), "",
             "| workload | n | base, s | off, s | on, s | on against base "
             "[95 % CI] | on against off [95 % CI] | off against base "
             "[95 % CI] | goal | rounds for the goal |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    rows = []
    for label in sorted(data, key=cpu_order):
        per_round = data[label]
        row = {"workload": label, "samples_ns": per_round, "pairs": pairs}
        cells = [label]
        means = []
        comps = cpu_comparisons(per_round, pairs)
        # The rounds of the goal's comparison; on beside base.
        used = set(comps["on"])
        for c in CONFIGS:
            v = [per_round.get(c, {})[r] for r in sorted(used)
                 if r in per_round.get(c, {})]
            means.append("%.3f" % (statistics.mean(v) / 1e9) if v else "-")
        res = {}
        for c, logs in comps.items():
            where = places.get(PLACE_OF[c], {})
            o, lo, hi, n = cpu_overhead(logs, where)
            res[c] = (o, lo, hi, n)
            _, plo, phi, _ = cpu_overhead(logs)
            row[c] = {"overhead_pct": nan_none(o),
                      "ci95_pct": [nan_none(lo), nan_none(hi)], "n": n,
                      "ci95_plain_pct": [nan_none(plo), nan_none(phi)],
                      "host_cpu": cpu_place_effect(logs, where),
                      "places": {str(r): where.get(r) for r in
                                 sorted(logs)}}
        cells.append(str(res["on"][3]))
        cells += means
        for c in ("on", "on_vs_off", "off"):
            o, lo, hi, _ = res[c]
            cells.append("-" if math.isnan(o) else
                         "%+.2f %% [%+.2f, %+.2f]" % (o, lo, hi))
        hi = res["on"][2]
        row["goal_met"] = bool(hi < GOAL_PCT) if not math.isnan(hi) \
            else None
        cells.append("-" if math.isnan(hi) else
                     ("met" if hi < GOAL_PCT else "**not met**"))
        need = cpu_rounds_for_goal(comps["on"], places.get("base", {}))
        row["on"]["rounds_for_goal"] = need
        cells.append("-" if need is None else
                     ("more than %d" % MAX_ROUNDS if need == MAX_ROUNDS
                      else str(need)))
        lines.append("| " + " | ".join(cells) + " |")
        rows.append(row)
    met = sum(1 for r in rows if r["goal_met"])
    missed = [r for r in rows if r["goal_met"] is False]
    short = [r["on"]["rounds_for_goal"] for r in missed
             if r["on"]["rounds_for_goal"] > r["on"]["n"]]
    lines += ["", "Goal met on %d of %d workloads (%d with fewer than two "
              "rounds)." % (met, len(rows),
                            sum(1 for r in rows if r["goal_met"] is None))]
    if short:
        lines[-1] += ("  Of the %d not met, %d ran fewer rounds than the "
                      "goal needs at their spread (up to %s): undecided "
                      "by so few rounds."
                      % (len(missed), len(short),
                         "more than %d" % MAX_ROUNDS
                         if max(short) == MAX_ROUNDS else max(short)))
    if place_source:
        big = ["%s (%+.1f %%, base on %s)" % (r["workload"],
                                        r["on"]["host_cpu"]["pct"],
                                        r["on"]["host_cpu"]["place"])
               for r in rows if r["on"]["host_cpu"] and
               r["on"]["host_cpu"]["pct"] >= GOAL_PCT]
        lines[-1] += ("  The host CPU of each run, a factor of the "
                      "intervals, from %s.  On against base higher, by "
                      "%g %% or more than the mean of both CPUs, in the "
                      "rounds where base ran on one of them: %s."
                      % (place_source, GOAL_PCT,
                         ", ".join(big) if big else "none"))
    lines.append("")
    bounds = io_bounds(results)
    if bounds:
        lines += ["## What the tracking code should cost", "",
                  "From what the hooks and the update passes had to do in "
                  "the \"on\" runs (io.txt: the disk's read bios, pages "
                  "written, items, update passes), at the costs the KUnit "
                  "micro benchmarks measure in a warm loop, against base's "
                  "CPU time.  Dearest: every read bio, page written and "
                  "item taken as a hook call that adds a range item (%d "
                  "ns), every item in every pass %d ns.  Estimate: a read "
                  "bio as a "
                  "call to an existing range (%d ns), a page written as a "
                  "writeback folio (%d ns), each item added once (%d ns), "
                  "the passes as above.  Both take the filesystem's "
                  "own metadata I/O for hook calls too, and leave out what "
                  "no count shows (cache misses, here and that the items "
                  "cause elsewhere) and the items of files made and "
                  "deleted within the workload (io.txt has those seen at "
                  "its start or end): neither bounds the cost where a "
                  "workload makes and deletes files."
                  % (HOOK_NS, PASS_ITEM_NS, HOOK_EXISTING_NS, WB_FOLIO_NS,
                     HOOK_NS),
                  "", "| workload | base CPU, s | dearest, ms | dearest, % | "
                  "estimate, ms | estimate, % |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for label in sorted(bounds, key=cpu_order):
            base = list(data.get(label, {}).get("base", {}).values())
            mb = statistics.mean(base) if base else float("nan")
            bound = statistics.mean(v[0] for v in bounds[label])
            est = statistics.mean(v[1] for v in bounds[label])
            cells = [label, "%.3f" % (mb / 1e9) if base else "-"]
            for ns in (bound, est):
                cells += ["%.1f" % (ns / 1e6), fmt(100 * ns / mb) + " %"]
            lines.append("| " + " | ".join(cells) + " |")
            for r in rows:
                if r["workload"] == label:
                    r["dearest_pct"] = nan_none(100 * bound / mb)
                    r["estimate_pct"] = nan_none(100 * est / mb)
        lines.append("")
    summary = {"source": source, "goal_pct": GOAL_PCT, "alpha": ALPHA,
               "places": place_source, "rows": rows}
    with open(os.path.join(results, "cpu-overhead.json"), "w") as f:
        json.dump(summary, f, indent=1)

    labels = [r["workload"] for r in rows]
    fig, ax = plt.subplots(figsize=(max(6, len(labels) * 0.45), 4.5))
    for i, (c, what) in enumerate((("off", "off against base"),
                                   ("on_vs_off", "on against off"),
                                   ("on", "on against base"))):
        xs = [k + (i - 1) * 0.25 for k in range(len(rows))]
        def num(v):
            return float("nan") if v is None else v
        ys = [num(r[c]["overhead_pct"]) for r in rows]
        err = [[y - num(r[c]["ci95_pct"][0]) for y, r in zip(ys, rows)],
               [num(r[c]["ci95_pct"][1]) - y for y, r in zip(ys, rows)]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=3, label=what)
    ax.axhline(0, color="black", linewidth=0.5)
    ax.axhline(GOAL_PCT, color="red", linewidth=0.8, linestyle="--",
               label="goal: upper end below %g %%" % GOAL_PCT)
    ax.set_xticks(list(range(len(labels))))
    ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("CPU time against, % (95 % CI)")
    ax.set_title("hot_track overhead in CPU time: %s" %
                 os.path.basename(os.path.normpath(results)), fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(results, "cpu-overhead.png"), dpi=100)
    plt.close(fig)
    return lines, summary


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
    lines, _ = cpu_report(results, stamp)
    lines += ["# hot_track overhead" + (" in throughput" if lines else ""),
              "", "```", stamp.rstrip(), "```", "",
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
