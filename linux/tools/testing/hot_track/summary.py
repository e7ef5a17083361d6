#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""summary.py RUN [--readme FILE]: every target of a benchmark run against
its goal, in one table.

RUN is a directory of scripts/bench.sh (build/bench/<date>-<mode>/).  Reads
what its steps left there, those that ran:

  <fs>-<n>cpu/cpu-overhead.json  report.py: overhead in CPU time, 95 % CI
  micro/micro.json               micro.py: ns per access, shared and own file
  accuracy-<fs>-s<S>[-r<R>]/summary.json  accuracy.py: precision@k, recovery
  hot-move*/hot-move.json        plot-hot-move.py: throughput per config

Writes RUN/summary.md and RUN/summary.json (each row: target, goal, result,
met, not met or not judged, and the file it comes from) and prints the
table, under the stamps of each step (stamps()) and, where the steps ran on
more than one machine, host or day, a sentence that says so.  A goal is not
judged where its data cannot decide it (hot_move's oracle run not steady,
where no pairs of windows were run against it):
such rows are left out of the count of goals; a step without a result
counts as not met.  Links name the files behind any symbolic link: a run
may link the directories of a step from another.  With --readme, also
writes FILE (results/README.md) from it: the table, with links made
relative to FILE's directory, so that the README is made from a run and
never edited by hand.
"""

import argparse
import glob
import json
import os

# The goals of issue 16.
OVERHEAD_PCT = 1.0
SHARED_RATIO = 1.2
P10 = {"1.1": 0.95, "1.0": 0.9}
RECOVERY_PERIODS = 1.0
ORACLE_PCT = 90.0
BOUND_PCT = 80.0


def load(path):
    with open(path) as f:
        return json.load(f)


def row(target, goal, result, met, source, judged=True):
    """One row of the table: @met is None where the target has no goal, or
    (@judged false) where its data cannot decide the goal."""
    return {"target": target, "goal": goal, "result": result, "met": met,
            "source": source, "judged": judged}


def verdict(r):
    """Met, not met, not judged (a goal its data cannot decide) or "-"."""
    if r["met"] is None:
        return "-" if r["judged"] else "**not judged**"
    return "met" if r["met"] else "**not met**"


def overhead_rows(run):
    """A row per filesystem: the goal is met where it is on every workload;
    the worst workload is named (report.md has them all)."""
    rows = []
    for path in sorted(glob.glob(os.path.join(run, "*cpu",
                                              "cpu-overhead.json"))):
        data = load(path)
        setup = os.path.basename(os.path.dirname(path))
        fs = setup.split("-")[0]
        every = data["rows"]
        per = [r for r in every if r["goal_met"] is not None]
        if not per:
            continue
        worst = max(per, key=lambda r: r["on"]["ci95_pct"][1])
        lo, hi = worst["on"]["ci95_pct"]
        met = sum(1 for r in per if r["goal_met"])
        # Rows not met in fewer rounds than their spread needs (report.py).
        short = [r for r in per if not r["goal_met"] and
                 (r["on"].get("rounds_for_goal") or 0) > r["on"]["n"]]
        note = ""
        if short:
            note = ("; %d not met in fewer rounds than their spread needs "
                    "(undecided)" % len(short))
        rows.append(row(
            "overhead in CPU time, %s, %s, %d workloads" %
            (fs, setup, len(every)),
            "95 %% CI upper end < %g %% on each" % OVERHEAD_PCT,
            "met on %d of %d (%d not measured); highest upper end: %s "
            "%+.2f %% [%+.2f, %+.2f], n = %d%s" %
            (met, len(every), len(every) - len(per), worst["workload"],
             worst["on"]["overhead_pct"], lo, hi, worst["on"]["n"], note),
            met == len(every),
            os.path.join(os.path.dirname(path), "report.md")))
        # What tracking itself costs: on against off, no goal of its own.
        per = [r for r in every if r.get("on_vs_off", {}).get("n", 0) > 1]
        if not per:
            continue
        worst = max(per, key=lambda r: r["on_vs_off"]["ci95_pct"][1])
        lo, hi = worst["on_vs_off"]["ci95_pct"]
        under = sum(1 for r in per if r["on_vs_off"]["ci95_pct"][1] <
                    OVERHEAD_PCT)
        rows.append(row(
            "tracking alone in CPU time (on against off), %s, %s" %
            (fs, setup), "-",
            "upper end < %g %% on %d of %d; highest: %s %+.2f %% "
            "[%+.2f, %+.2f], n = %d" %
            (OVERHEAD_PCT, under, len(per), worst["workload"],
             worst["on_vs_off"]["overhead_pct"], lo, hi,
             worst["on_vs_off"]["n"]),
            None, os.path.join(os.path.dirname(path), "report.md")))
    return rows


def shared_target(cpus):
    trend = cpus > (os.cpu_count() or 2)
    return "one shared file against a file each, %d CPUs%s" % (
        cpus, " (trend: more CPUs than the host)" if trend else "")


def micro_rows(run):
    path = os.path.join(run, "micro", "micro.json")
    if not os.path.exists(path):
        return []
    data = load(path)
    rows = []
    for s in data["scaling"]:
        if s["cpus"] < 2:
            continue
        rows.append(row(
            shared_target(s["cpus"]),
            "<= %gx" % SHARED_RATIO if s["cpus"] == 2 else "not growing",
            "%.2fx (%.1f against %.1f ns per access)" %
            (s["ratio"], s["shared_median"], s["own_median"]),
            s["ratio"] <= SHARED_RATIO if s["cpus"] == 2 else None,
            path))
    done = {s["cpus"] for s in data["scaling"]}
    for cpus in sorted({u["cpus"] for u in data.get("unfinished", [])} -
                       done):
        rows.append(row(
            shared_target(cpus),
            "<= %gx" % SHARED_RATIO if cpus == 2 else "not growing",
            "did not finish (micro.md: runs that did not finish)",
            False, path))
    return rows


def accuracy_rows(run):
    rows = []
    for path in sorted(glob.glob(os.path.join(run, "accuracy-*",
                                              "summary.json"))):
        data = load(path)
        s = "%.1f" % data["params"]["s"]
        rate = data["params"]["rate"]
        what = "%s, zipf %s, %d reads/s" % (data["fs"], s, rate)
        got = data.get("achieved_rate")
        if got is not None and got < 0.95 * rate:
            what += " (%.0f achieved)" % got
        p10s = [p.get("p10_spot") for p in data.get("phases", [])]
        p10 = min(p10s) if p10s and None not in p10s else None
        goal = P10.get(s)
        rows.append(row(
            "precision@10 of range_spot, " + what,
            ">= %g in each phase" % goal if goal else "-",
            "no result" if p10 is None else "%.3f (the lower phase)" % p10,
            (p10 is not None and p10 >= goal) if goal else None,
            path))
        rec = data.get("recovery", {}).get("spot", {}).get("first_periods")
        rows.append(row(
            "back to 0.9 after the hot set moves, " + what,
            "<= %g update period" % RECOVERY_PERIODS,
            "not back to 0.9 (or no result)" if rec is None else
            "%g periods" % rec,
            rec is not None and rec <= RECOVERY_PERIODS,
            path))
    return rows


def hot_move_rows(run):
    rows = []
    for path in sorted(glob.glob(os.path.join(run, "hot-move*",
                                              "hot-move.json"))):
        data = load(path)
        bw = data["last_third_mb_s"]
        hm = bw.get("hot_move")
        for ref, goal in (("oracle", ORACLE_PCT), ("bound", BOUND_PCT)):
            # Each set is measured against the bound its hot set has:
            # all-SSD where it fits, the oracle's placement where not.
            if not hm or not bw.get(ref) or data.get("against") != ref:
                continue
            pct = 100.0 * hm / bw[ref]
            # Pairs of windows against this reference (older runs: the
            # bound, the only one they had).
            pr = data.get("paired")
            if pr and pr.get("ref", "bound") != ref:
                pr = None
            if pr:
                # Pairs of windows: met on the lower end of the interval,
                # and only if hot_move had settled (pairs_verdict()).
                ci = "-"
                if pr["ci95"]:
                    ci = "%.1f %% [%.1f, %.1f]" % tuple(
                        100.0 * x for x in [pr["ratio"]] + pr["ci95"])
                # Met on the pairs before hot_move first moved: say so, and
                # that the stricter rule, nothing moves, says not settled.
                moved = ""
                if pr["met"] and pr.get("moved_from_pair"):
                    moved = ("; hot_move moved %.0f MiB from pair %d on, "
                             "those pairs left out: not settled by the "
                             "rule that nothing moves" %
                             (pr["moved_mib"], pr["moved_from_pair"]))
                rows.append(row(
                    "btrfs hot_move, %s, against %s" % (data["hot_set"], ref),
                    ">= %g %% (95 %% CI lower end)" % goal,
                    "%s (%d of %d pairs of %d s windows%s%s; last third of "
                    "the runs %.1f %%)" %
                    (ci, pr["used"], pr["pairs"], pr["window_s"],
                     "; " + pr["why"] if pr["why"] else "", moved, pct),
                    pr["met"],
                    path))
                continue
            # An oracle whose own run was not steady decides nothing.
            steady = data.get("oracle_steady")
            judged = data.get("oracle_judged", True)
            rows.append(row(
                "btrfs hot_move, %s, against %s" % (data["hot_set"], ref),
                ">= %g %%" % goal,
                "%.1f %% (%.1f against %.1f MB/s, last third)%s" %
                (pct, hm, bw[ref], "; the oracle's run not steady: its "
                 "last third %.0f %% of its first two" % (100.0 * steady)
                 if steady is not None and not judged else ""),
                pct >= goal if judged else None,
                path, judged=judged))
    return rows


def missing(rows):
    """A row "not measured" for each target of issue 16 that no row covers:
    a step that did not run, or left no result, must show."""
    want = [("overhead in CPU time, %s" % fs, "overhead in CPU time, %s" % fs)
            for fs in ("xfs", "ext4", "btrfs")]
    want += [("one shared file against a file each, 2 CPUs",
              "one shared file against a file each, 2 CPUs")]
    for s in P10:
        want += [("precision@10 of range_spot, zipf %s" % s,
                  "precision@10 of range_spot, ", ", zipf %s," % s),
                 ("back to 0.9 after the hot set moves, zipf %s" % s,
                  "back to 0.9 after the hot set moves, ", ", zipf %s," % s)]
    want += [("btrfs hot_move against bound", "btrfs hot_move,",
              "against bound"),
             ("btrfs hot_move against oracle", "btrfs hot_move,",
              "against oracle")]
    goals = {"overhead": "95 %% CI upper end < %g %% on each" %
             OVERHEAD_PCT,
             "one shared": "<= %gx" % SHARED_RATIO,
             "precision@10": ">= %s in each phase" % "/".join(
                 "%g (zipf %s)" % (g, s) for s, g in P10.items()),
             "back to 0.9": "<= %g update period" % RECOVERY_PERIODS,
             "btrfs hot_move against bound": ">= %g %%" % BOUND_PCT,
             "btrfs hot_move against oracle": ">= %g %%" % ORACLE_PCT}
    out = []
    for name, *parts in want:
        if not any(all(p in r["target"] for p in parts) for r in rows):
            goal = next(g for k, g in goals.items() if name.startswith(k))
            out.append(row(name, goal, "not measured", False, None))
    return out


# The steps of a run, and the directories each leaves.
STEPS = (("overhead", "*cpu"), ("micro", "micro"),
         ("accuracy", "accuracy-*"), ("hot_move", "hot-move*"))


def step_stamps(run):
    """For each step (STEPS) that left stamps: (step, [(directory, lines)]),
    the directories in the order of their names, each stamp's lines but
    the empty ones, the load left out of the machine line (the micro,
    accuracy and hot_move stamps have it)."""
    out = []
    for kind, pat in STEPS:
        dirs = []
        for path in sorted(glob.glob(os.path.join(run, pat, "stamp.txt")),
                           key=os.path.dirname):
            with open(path) as f:
                lines = [line.split(", load ")[0]
                         if line.startswith("machine:") else line
                         for line in f.read().splitlines() if line.strip()]
            dirs.append((os.path.basename(os.path.dirname(path)), lines))
        if dirs:
            out.append((kind, dirs))
    return out


def origins(run, base):
    """A sentence naming each step's machine and days where the run's steps
    ran on more than one machine, host or day, else ""; @base: the
    directory the link to the run's NOTES.md is made relative to."""
    seen = []
    hosts = set()
    for kind, dirs in step_stamps(run):
        machines, days = set(), set()
        for _, lines in dirs:
            for line in lines:
                key, _, value = line.partition(":")
                value = value.strip()
                if key == "machine":
                    machines.add(value)
                elif key == "host":
                    hosts.add(value)
                elif key == "run":
                    days.add(value.rsplit(", ", 1)[-1][:10])
        if machines or days:
            seen.append((kind, sorted(machines), sorted(days)))
    machines = {x for _, m, _ in seen for x in m}
    days = {x for _, _, d in seen for x in d}
    if len(machines) < 2 and len(days) < 2 and len(hosts) < 2:
        return ""
    notes = os.path.join(run, "NOTES.md")
    return ("Its steps ran on more than one machine, host or day: %s.%s" % (
        "; ".join("%s on %s, %s" % (k, " and ".join(m) or "?",
                                    " and ".join(d) or "?")
                  for k, m, d in seen),
        " [NOTES.md](%s) says more." % os.path.relpath(
            os.path.realpath(notes), os.path.realpath(base))
        if os.path.exists(notes) else ""))


def stamps(run):
    """The stamps of the run's steps, as one block: for each step (overhead,
    micro, accuracy, hot_move) the lines that all its directories share, and
    each line that differs once per value, with the directories it is
    from, so that a run made of several invocations shows it (the machine
    line names the CPU model only; the host line, where there is one, the
    host and its boot)."""
    out = []
    for kind, dirs in step_stamps(run):
        keys = {}
        for d, lines in dirs:
            for line in lines:
                key = line.split(":")[0]
                keys.setdefault(key, {}).setdefault(line, []).append(d)
        out.append("%s: %s" % (kind, " ".join(d for d, _ in dirs)))
        for values in keys.values():
            for line, where in values.items():
                if len(set(where)) == len(dirs):
                    out.append("  " + line)
                else:
                    out.append("  %s  [%s]" % (line, " ".join(where)))
    return "\n".join(out)


def table(rows, base):
    lines = ["| target | goal | result | | data |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        if not r["source"]:
            lines.append("| %s | %s | %s | %s | - |" % (
                r["target"], r["goal"], r["result"], verdict(r)))
            continue
        src = os.path.relpath(os.path.realpath(r["source"]),
                              os.path.realpath(base))
        lines.append("| %s | %s | %s | %s | [%s](%s) |" % (
            r["target"], r["goal"], r["result"], verdict(r),
            os.path.dirname(src), src))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run")
    ap.add_argument("--readme", help="results/README.md to write")
    args = ap.parse_args()
    run = os.path.abspath(args.run)
    rows = (overhead_rows(run) + micro_rows(run) + accuracy_rows(run) +
            hot_move_rows(run))
    rows += missing(rows)
    met = [r["met"] for r in rows if r["met"] is not None]
    unjudged = [r for r in rows if not r["judged"]]
    stamp = stamps(run)
    block = ["```", stamp, "```", ""] if stamp else []

    def heading(name, base):
        """The count of goals, and where the steps ran, for a file in
        @base that names the run @name."""
        how = origins(run, base)
        return ["Targets of issue 16 in `%s`: %d of %d goals met%s." %
                (name, sum(met), len(met),
                 " (%d not judged)" % len(unjudged) if unjudged else "")] + \
            ([how, ""] if how else [""])

    head = heading(os.path.basename(run), run)
    lines = ["# Benchmark summary", ""] + block + head + table(rows, run)
    with open(os.path.join(run, "summary.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    # Sources relative to the run, so that the JSON does not name the
    # checkout it was made in.
    kept = [dict(r, source=r["source"] and os.path.relpath(
        os.path.realpath(r["source"]), os.path.realpath(run)))
        for r in rows]
    with open(os.path.join(run, "summary.json"), "w") as f:
        json.dump({"rows": kept, "met": sum(met), "goals": len(met),
                   "not_judged": len(unjudged)}, f, indent=1)
    print("\n".join(head + table(rows, run)))
    if args.readme:
        base = os.path.dirname(os.path.abspath(args.readme))
        text = ["# Benchmark results", "",
                "Made by the series' benchmark summary, `summary.py "
                "results/%s --readme results/README.md`, from that run (the "
                "series' tools/testing/hot_track/); not edited by "
                "hand.  Each directory is one or more runs of "
                "`scripts/bench.sh` (`make bench`), copied from "
                "`build/bench/`, each step stamped (`stamp.txt`, and the "
                "header below); earlier runs and what they showed are in "
                "[HISTORY.md](HISTORY.md)." % os.path.relpath(run, base),
                ""] + block + heading(os.path.relpath(run, base), base) + \
            table(rows, base)
        with open(args.readme, "w") as f:
            f.write("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
