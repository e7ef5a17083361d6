#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plot-hot-move.py [-g GOALS.md] DIR...: the results of guest-hot-move.sh in
each DIR as DIR/hot-move.png (read throughput over time of each config),
DIR/hot-move.md (throughput once relocation settled against the bounds,
what moved) and DIR/hot-move.json (the numbers, for summary.py); with -g,
the goals of all DIRs in one table in GOALS.md.

Throughput is summed over fio's jobs per second.  "Settled" is the last
third of the run.  The goals: with a hot set that fits the SSD's room (up
to its high watermark), hot_move settles at >= 80 % of the bound, all data
on a fast disk; with a larger one, which no placement on these disks can
bring to that bound, at >= 90 % of the oracle, the best static placement.
Where guest-hot-move.sh ran pairs of windows of hot_move and a reference,
the bound or the oracle, after hot_move's run (pairs.txt), the goal
against that reference is judged on them: the geometric mean of the
pairs' ratios, met if the lower end of its 95 % confidence interval
(Student's t over the logarithms) reaches the goal and hot_move had
settled: its placement unchanged through at least the first half of the
pairs, of which those before it changed are used.  Without pairs
against it, the goal against the oracle is not judged where the oracle's
own run was not steady (its last third outside 0.85-1.15 times the rest of it).
Needs scipy and matplotlib (/usr/bin/python3).
With a hot set (guest-hot-move.sh HOT_MB), the ranges of the data file
after it are read but never turn hot: they count as cold ranges, as the
never-read file."""

import argparse
import glob
import json
import math
import os
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from scipy import stats as sstats  # noqa: E402

CONFIGS = ("hot_move", "hot_track", "bound", "oracle")
# Reference config: the share of it hot_move must reach, and when.
GOALS = {"bound": (0.8, True), "oracle": (0.9, False)}


def series(d, cfg):
    """MB/s per second of the run, summed over the jobs' bandwidth logs."""
    per_sec = defaultdict(float)
    for path in glob.glob(os.path.join(d, f"{cfg}_bw.*.log")):
        with open(path) as f:
            for line in f:
                fields = [x.strip() for x in line.split(",")]
                if len(fields) < 2:
                    continue
                sec = int(fields[0]) // 1000
                per_sec[sec] += int(fields[1]) * 1024 / 1e6
    if not per_sec:
        return [], []
    secs = sorted(per_sec)
    return secs, [per_sec[s] for s in secs]


def stats(d, cfg):
    st = {}
    try:
        with open(os.path.join(d, f"{cfg}.txt")) as f:
            for line in f:
                k, _, v = line.strip().partition(" ")
                st[k] = v
    except OSError:
        pass
    return st


def progress(d):
    """hot_move's promoted bytes over the run: (second, bytes) pairs."""
    pts = []
    try:
        with open(os.path.join(d, "hot_move.progress")) as f:
            for line in f:
                fields = line.split()
                if len(fields) >= 2:
                    pts.append((int(fields[0]), int(fields[1])))
    except OSError:
        pass
    return pts


def promotion_times(pts):
    """Seconds until half, 90 % and all of what was promoted in the end."""
    if not pts or not pts[-1][1]:
        return {}
    final = pts[-1][1]
    return {name: next(t for t, b in pts if b >= share * final)
            for name, share in (("half", 0.5), ("p90", 0.9), ("all", 1.0))}


def settled(ys):
    n = len(ys)
    tail = ys[n - n // 3:] if n >= 3 else ys
    return sum(tail) / len(tail) if tail else 0.0


# The oracle places its data before it runs and moves nothing after: its
# last third against its first two thirds tells whether the guest's
# throughput stayed at one level through it (2026-12-03: 0.57; 0.97-1.00
# in every run before).
# Outside this band the comparison over the last third decides nothing.
ORACLE_STEADY = (0.85, 1.15)


def steadiness(ys):
    """The mean of the last third of @ys against that of the rest, or None
    if there is too little to tell."""
    n = len(ys)
    if n < 6:
        return None
    head, tail = ys[:n - n // 3], ys[n - n // 3:]
    if not sum(head):
        return None
    return (sum(tail) / len(tail)) / (sum(head) / len(head))


def oracle_judged(steady):
    """Whether the goal against the oracle is judged: where its run was
    steady, or too short to tell (@steady None)."""
    return steady is None or ORACLE_STEADY[0] <= steady <= ORACLE_STEADY[1]


def window_mb_s(path):
    """MB/s of one window: fio's read bandwidth summed over its groups, or
    None if it left no result."""
    try:
        with open(path) as f:
            jobs = json.load(f)["jobs"]
        return sum(j["read"]["bw_bytes"] for j in jobs) / 1e6
    except (OSError, ValueError, KeyError, TypeError):
        return None


def pairs(d):
    """The pairs of windows, hot_move against a reference config, if any
    were run (pairs.txt; its first line "PAIRS SECONDS [REFERENCE]", the
    bound where the reference is not named): the design, the pairs used
    (both windows measured, no relocation run begun nor bytes moved in
    the reference's, before the first pair in which hot_move's bytes moved
    had changed since the pairs began), the bytes hot_move moved during
    them, and the geometric mean of the ratios with its 95 % interval
    (None with fewer than two pairs)."""
    try:
        with open(os.path.join(d, "pairs.txt")) as f:
            lines = [x.split() for x in f if x.strip()]
        n, secs = int(lines[0][0]), int(lines[0][1])
        ref = lines[0][2] if len(lines[0]) > 2 else "bound"
        # A line cut short (the guest stopped) counts as no window.
        order = [(int(w[0]), w[1], [int(x) for x in w[2:6]])
                 for w in lines[1:] if len(w) >= 6]
    except (OSError, ValueError, IndexError):
        return None
    if n < 1 or ref not in GOALS:
        return None
    windows = {(i, c): w for i, c, w in order}
    hm, rf, missing, run_in_ref, stalled = [], [], 0, 0, 0
    moves = [m for _, _, m0, m1 in windows.values() for m in (m0, m1)]
    # The first pair from which hot_move's placement was not the one it
    # had when the pairs began: those from it on measure another.
    moved_from = next((i for i, _, w in order
                       if w[2] != order[0][2][2] or w[3] != order[0][2][2]),
                      None) if order else None
    for i in range(1, n + 1 if moved_from is None else moved_from):
        h = window_mb_s(os.path.join(d, f"pair.{i}.hot_move.json"))
        b = window_mb_s(os.path.join(d, f"pair.{i}.{ref}.json"))
        wb = windows.get((i, ref))
        if h is None or b is None or wb is None or b <= 0:
            missing += 1
        elif wb[1] != wb[0] or wb[3] != wb[2]:
            run_in_ref += 1
        elif h <= 0:
            # hot_move read nothing: no ratio to average, and a miss.
            stalled += 1
        else:
            hm.append(h)
            rf.append(b)
    res = {"ref": ref, "pairs": n, "window_s": secs, "used": len(hm),
           "missing": missing, "run_in_ref": run_in_ref,
           "stalled": stalled,
           "moved_mib": (max(moves) - min(moves)) / 2**20 if moves else None,
           "moved_from_pair": moved_from,
           "hot_move_mb_s": hm, "ref_mb_s": rf, "ratio": None,
           "ci95": None}
    logs = [math.log(h / b) for h, b in zip(hm, rf)]
    if len(logs) >= 2:
        k = len(logs)
        mean = sum(logs) / k
        sd = math.sqrt(sum((x - mean) ** 2 for x in logs) / (k - 1))
        half = sstats.t.ppf(0.975, k - 1) * sd / math.sqrt(k)
        res["ratio"] = math.exp(mean)
        res["ci95"] = [math.exp(mean - half), math.exp(mean + half)]
    return res


def pairs_verdict(pr, share):
    """(met, words) of the goal @share on pairs @pr: met if hot_move had
    settled (its placement unchanged through at least half of the pairs,
    from the first: those after are not used) and the interval's lower end
    reaches @share."""
    moved, first = pr["moved_mib"], pr.get("moved_from_pair")
    if moved is None or (moved > 0 and first is None) or \
            (first is not None and (first - 1) * 2 < pr["pairs"]):
        what = "not recorded" if moved is None else \
            f"{moved:.0f} MiB, from pair {first} on"
        return False, f"not settled: hot_move moved {what}"
    if pr.get("stalled"):
        return False, f"hot_move read nothing in {pr['stalled']} window(s)"
    if pr["ci95"] is None:
        return False, f"undecided: {pr['used']} pair(s) usable"
    lo, hi = pr["ci95"]
    if lo >= share:
        return True, ""
    if hi >= share:
        return False, "undecided: the interval spans the goal"
    return False, ""


def on_ssd(m):
    return m.count("S") + m.count("M")


class Run:
    """One DIR: throughput per config, and the hot set against the SSD."""

    def __init__(self, d):
        self.dir = d
        self.data = {c: series(d, c) for c in CONFIGS}
        self.tail = {c: settled(ys) for c, (_, ys) in self.data.items() if ys}
        self.st = {c: stats(d, c) for c in CONFIGS}
        self.progress = progress(d)
        self.promotion = promotion_times(self.progress)
        self.pairs = pairs(d)
        # Whether the goal against the oracle can be judged on its run.
        self.oracle_steady = steadiness(self.data["oracle"][1])
        self.oracle_judged = oracle_judged(self.oracle_steady)
        st = self.st["hot_move"] or self.st["oracle"]
        self.hot_mb = int(st.get("hot_mb", 0) or 0)
        # The hot set: HOT_MB, or the whole file (older runs: 2048 MiB).
        self.set_mb = self.hot_mb or int(st.get("size_mb", 2048) or 2048)
        # The SSD's room for data, as hot_move fills it.
        total = int(st.get("ssd_total_bytes", 0) or 0)
        high = int(st.get("high_watermark", 90) or 90)
        self.room_mb = (total * high // 100) >> 20 if total else None
        self.fits = self.room_mb is not None and self.set_mb <= self.room_mb

    def hot_set(self):
        room = f"{self.room_mb} MiB" if self.room_mb else "unknown"
        fits = "fits" if self.fits else "larger than"
        return f"{self.set_mb} MiB hot set ({fits} the SSD's {room} room)"

    def goals(self):
        """Rows of the goals table, hot_move against each reference run."""
        rows = []
        hm = self.tail.get("hot_move")
        if hm is None:
            return rows
        name = os.path.basename(os.path.normpath(self.dir))
        for ref, (share, if_fits) in GOALS.items():
            r = self.tail.get(ref)
            if not r:
                continue
            applies = if_fits == self.fits
            goal = f">= {share:.0%}" if applies else "- (not this set's)"
            pr = self.pairs if self.pairs and \
                self.pairs["ref"] == ref else None
            if pr:
                how = (f"{pr['used']} of {pr['pairs']} pairs of "
                       f"{pr['window_s']} s windows")
                hm_v = sum(pr["hot_move_mb_s"]) / max(pr["used"], 1)
                r = sum(pr["ref_mb_s"]) / max(pr["used"], 1)
                ok, why = pairs_verdict(pr, share)
                ratio = "-"
                if pr["ci95"]:
                    lo, hi = pr["ci95"]
                    ratio = (f"{pr['ratio']:.1%} [{lo:.1%}, {hi:.1%}] "
                             "(geometric mean of the pairs)")
                if why:
                    ratio += f"; {why}"
                goal += " (95 % CI lower end)" if applies else ""
            else:
                how, hm_v = "last third", hm
                ratio = f"{hm / r:.1%}"
                ok = hm / r >= share
                if ref == "oracle" and not self.oracle_judged:
                    ok = None
                    ratio += (f"; the oracle's run not steady (its last "
                              f"third {self.oracle_steady:.0%} of its "
                              "first two)")
            met = ("**met**" if ok else "**NOT met**") if applies else "-"
            if applies and ok is None:
                met = "**not judged**"
            rows.append(f"| {name}: {self.hot_set()} | {how} | {hm_v:.2f} | "
                        f"{ref} {r:.2f} | {ratio} | {goal} | {met} |")
        return rows


GOALS_HEAD = ["| hot set | measured over | hot_move MB/s (mean) | "
              "against, MB/s (mean) | "
              "ratio | goal | |",
              "| --- | --- | --- | --- | --- | --- | --- |"]


def plot(run):
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for c in CONFIGS:
        xs, ys = run.data[c]
        if xs:
            line, = ax.plot(xs, ys, label=c)
            share, if_fits = GOALS.get(c, (None, None))
            if share and if_fits == run.fits and "hot_move" in run.tail:
                paired = run.pairs and c == run.pairs["ref"]
                judged = " (the goal judged on the pairs)" if paired \
                    else ""
                if c == "oracle" and not paired and not run.oracle_judged:
                    judged = " (not judged: the oracle not steady)"
                ax.axhline(share * run.tail[c], ls=":",
                           color=line.get_color(),
                           label=f"{share:.0%} of {c}, last third{judged}")
    if run.progress:
        ax2 = ax.twinx()
        ax2.plot([t for t, _ in run.progress],
                 [b / 2**20 for _, b in run.progress], ls="--",
                 color="grey", label="hot_move: promoted (MiB)")
        ax2.set_ylabel("promoted (MiB)")
        ax2.set_ylim(bottom=0)
        ax2.legend(loc="lower right")
    ax.set_xlabel("time (s)")
    ax.set_ylabel("read throughput (MB/s)")
    where = f" of the first {run.hot_mb} MiB" if run.hot_mb else ""
    ax.set_title("btrfs hot relocation: 4 KiB O_DIRECT reads, zipf 1.2 over "
                 f"1 MiB ranges{where}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(run.dir, "hot-move.png"), dpi=100)
    plt.close(fig)


def report(run):
    d = run.dir
    lines = ["# btrfs hot relocation", ""]
    try:
        with open(os.path.join(d, "setup.txt")) as f:
            lines += ["```", f.read().rstrip(), "```", ""]
    except OSError:
        pass
    refs = [r for r in GOALS if r in run.tail]
    lines += ["| config | MB/s, whole run | MB/s, last third |" +
              "".join(f" of {r} |" for r in refs),
              "| --- | --- | --- |" + " --- |" * len(refs)]
    for c in CONFIGS:
        ys = run.data[c][1]
        if not ys:
            continue
        s = run.tail[c]
        lines.append(f"| {c} | {sum(ys) / len(ys):.2f} | {s:.2f} |" +
                     "".join(f" {s / run.tail[r]:.1%} |" for r in refs))
    lines.append("")
    st = run.st["hot_move"]
    hot_mb = run.hot_mb
    if st:
        data_map = st.get("data", "")
        cold_map = st.get("cold", "")
        lines += [
            "hot_move: promoted {} MiB, demoted {} MiB in {} runs; "
            "data file {} of {} MiB ranges on the SSD; cold file "
            "(never read) {} of {} MiB ranges on the SSD.".format(
                int(st.get("promoted_bytes", 0)) >> 20,
                int(st.get("demoted_bytes", 0)) >> 20, st.get("runs", "?"),
                on_ssd(data_map), len(data_map),
                on_ssd(cold_map), len(cold_map)),
            ""]
        pr = run.promotion
        if pr:
            lines += [
                f"Promotion over time (hot_move.progress): half of the "
                f"{run.progress[-1][1] >> 20} MiB by {pr['half']} s, 90 % by "
                f"{pr['p90']} s, all by {pr['all']} s of the run "
                f"({len(run.data['hot_move'][1])} s); the last third starts "
                f"at {len(run.data['hot_move'][1]) * 2 // 3} s.", ""]
        if hot_mb:
            lines += [
                f"Hot set (first {hot_mb} MiB): {on_ssd(data_map[:hot_mb])} "
                f"of {len(data_map[:hot_mb])} ranges on the SSD; the rest of "
                f"the file (read, never hot): {on_ssd(data_map[hot_mb:])} of "
                f"{len(data_map[hot_mb:])}.", ""]
    ost = run.st["oracle"]
    if ost:
        # What the oracle wanted: the first N ranges of the data file on the
        # SSD, nothing else; what it got, before and after its run.
        n = int(ost.get("oracle_ranges", 0) or 0)
        placed = ost.get("oracle_data", "")
        after = ost.get("data", "")
        lines += [
            f"oracle: the {n} hottest ranges (the first {n} MiB of the data "
            "file: the SSD's room up to the high watermark, "
            f"{int(ost.get('oracle_ssd_total_bytes', 0) or 0) >> 20} MiB of "
            f"data capacity at {ost.get('oracle_high_watermark', '?')} %, "
            f"metadata room "
            f"{int(ost.get('oracle_metadata_reserve_bytes', 0) or 0) >> 20}"
            " MiB left out) placed by hot_move in "
            f"{ost.get('oracle_seconds', '?')} s "
            f"({ost.get('oracle_passes', '?')} passes of reads, "
            f"{int(ost.get('oracle_promoted_bytes', 0) or 0) >> 20} MiB "
            "promoted, "
            f"{int(ost.get('oracle_fallback_bytes', 0) or 0) >> 20} MiB fell "
            f"back): {on_ssd(placed[:n])} of {n} on the SSD, "
            f"{on_ssd(placed[n:])} others; after its run (no relocation) "
            f"{on_ssd(after[:n])} and {on_ssd(after[n:])}; never-read file "
            f"{on_ssd(ost.get('cold', ''))} ranges on the SSD.", ""]
    pr = run.pairs
    if pr:
        ref = pr["ref"]
        lines += [
            f"Pairs of {pr['window_s']} s windows of hot_move and the "
            f"{ref} after hot_move's run, "
            "hot_move's first in odd pairs (pair.N.CONFIG.json, "
            f"pairs.txt): {pr['used']} of {pr['pairs']} used "
            f"({pr['missing']} without a result, {pr['run_in_ref']} with "
            f"relocation, a run begun or bytes moved, in the {ref}'s "
            "window, "
            f"{pr['stalled']} with nothing read by hot_move); hot_move moved "
            + ("(not recorded)" if pr["moved_mib"] is None else
               f"{pr['moved_mib']:.0f} MiB") + " during them"
            + ("" if not pr.get("moved_from_pair") else
               f", from pair {pr['moved_from_pair']} on, whose pairs are "
               "not used (the goal is judged if hot_move's placement was "
               "unchanged through at least half of them)") + ".", "",
            f"| pair | hot_move MB/s | {ref} MB/s | ratio |",
            "| --- | --- | --- | --- |"]
        lines += [f"| {i} | {h:.2f} | {b:.2f} | {h / b:.0%} |"
                  for i, (h, b) in enumerate(zip(pr["hot_move_mb_s"],
                                                 pr["ref_mb_s"]), 1)]
        lines.append("")
    goals = run.goals()
    if goals:
        lines += GOALS_HEAD + goals + [""]
    if st:
        cold_moved = on_ssd(st.get("cold", ""))
        if hot_mb:
            cold_moved += on_ssd(st.get("data", "")[hot_mb:])
        lines += ["Target: no relocation of data that never turns hot: "
                  f"{'met' if cold_moved == 0 else 'NOT met'} "
                  f"({cold_moved} cold ranges moved).", ""]
    lines.append("![throughput over time](hot-move.png)")
    with open(os.path.join(d, "hot-move.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    # The reference hot_move's goal is against: all data on the fast disk
    # where the hot set fits the SSD's room, the oracle where not.
    summary = {
        "hot_set": run.hot_set(),
        "against": "bound" if run.fits else "oracle",
        "goal_share": GOALS["bound" if run.fits else "oracle"][0],
        "whole_run_mb_s": {c: sum(ys) / len(ys)
                           for c, (_, ys) in run.data.items() if ys},
        "last_third_mb_s": run.tail,
        "ssd_room_mb": run.room_mb,
    }
    if run.promotion:
        summary["promotion_s"] = run.promotion
    if run.pairs:
        met, why = pairs_verdict(run.pairs, GOALS[run.pairs["ref"]][0])
        # The verdict by the stricter rule that nothing moves during the
        # pairs, for the reader of a run in which something did.
        strict = met and run.pairs["moved_mib"] == 0
        summary["paired"] = dict(run.pairs, met=met, why=why,
                                 met_strict=strict)
    if run.data["oracle"][1]:
        summary["oracle_steady"] = run.oracle_steady
        summary["oracle_judged"] = run.oracle_judged
    if ost:
        summary["oracle_ranges"] = int(ost.get("oracle_ranges", 0) or 0)
        summary["oracle_placed"] = on_ssd(ost.get("oracle_data", "")[:n])
        summary["oracle_others"] = on_ssd(ost.get("oracle_data", "")[n:])
    with open(os.path.join(d, "hot-move.json"), "w") as f:
        json.dump(summary, f, indent=1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-g", metavar="GOALS.md",
                    help="the goals of all DIRs in one table")
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    args = ap.parse_args()
    rows = []
    for d in args.dirs:
        run = Run(d)
        plot(run)
        report(run)
        rows += run.goals()
    if args.g:
        lines = ["# btrfs hot relocation: goals", "",
                 "hot_move's throughput against all data on a fast disk "
                 "(bound) for a hot set that fits the SSD, and against "
                 "the best static placement on disks like hot_move's "
                 "(oracle) for a larger one: in pairs of windows where "
                 "they ran, else over the last third of the runs.",
                 ""]
        lines += GOALS_HEAD + rows
        with open(args.g, "w") as f:
            f.write("\n".join(lines) + "\n")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
