#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""accuracy.py DIR OUTDIR [options]: how well range_spot finds the hot data.

A workload with known ground truth, run as root on a filesystem mounted at
DIR with hot data tracking: F files of R MiB each, then O_DIRECT reads of
4 KiB to 64 KiB, each inside one 1 MiB range, the range drawn from a zipf
distribution of parameter s over all F * R ranges, through a random
permutation, so that the hot ranges are spread over files and offsets.
Halfway through, the hot set moves: a new permutation.

Every sample period (default: one second) it reads range_spot and
range_stat from /sys/kernel/debug/hot_track/<dev>/ and computes
precision@k (k = 5, 10, 20), |first k ranges listed ∩ true top k| / k, of:

  spot        range_spot as listed (what a user of the file sees)
  spotsort    range_spot sorted by its temperature column (the update pass
              sorts the hottest heat-map buckets: must equal spot)
  live        range_stat sorted by its live temperature (the estimator,
              without the delay of the update pass)
  model       the kernel's temperature, computed here from this program's
              own accesses (the per-pass score, PassModel)

against the true top k (the k ranges of highest access probability in the
current phase), and, as *_emp, against the empirical top k: the ranges
read most often by this program in the last --emp-window seconds (ties at
the k boundary count as fractions).  "emp" is the empirical top k against
the true one: what counting every access over that window achieves.

OUTDIR gets accuracy.csv (one row per sample) and summary.json: per
phase, the steady-state precision (mean over the last half of the phase),
and the time after the move until p@10 >= --target again, in seconds and
in update periods.

The files are written first, then tracking is turned off and on again
(mount -o remount), so that their writes leave no heat behind; the update
delay (/proc/sys/fs/hot-update-delay) is set for the run (default 10 s,
the kernel's) and restored afterwards; the run lasts 30 update periods
unless -d says otherwise.
"""

import argparse
import bisect
import collections
import csv
import json
import math
import mmap
import os
import random
import re
import subprocess
import sys
import time

RANGE_SHIFT = 20
RANGE_SIZE = 1 << RANGE_SHIFT
BLOCK = 4096
DEBUGFS = "/sys/kernel/debug/hot_track"
SYSCTL = "/proc/sys/fs/"
KS = (5, 10, 20)
SOURCES = ("spot", "spotsort", "live", "model")

# The kernel's estimator (fs/hot_tracking.c), for the "model" source:
# PassModel.  GapModel is the one before (the series up to patch 0091),
# which sim-accuracy.py compares against.
SCORE_SHIFT = 8
CLAMP_SHIFT = 2
U32_MAX = (1 << 32) - 1
AVG_SHIFT = 4
FIRST_GAP = 1000000000
# The idle rate's gap of the score (HOT_IDLE_GAP).
IDLE_GAP = 16000000000
MIN_GAP = 1024
# Average gaps are kept in 32 bits in units of 1024 ns (struct hot_freq).
GAP_UNIT_SHIFT = 10
GAP_MAX = ((1 << 32) - 1) << GAP_UNIT_SHIFT


def gap_stored(ns):
    """An average gap as the kernel keeps it: rounded down, saturated."""
    return min(ns >> GAP_UNIT_SHIFT << GAP_UNIT_SHIFT, GAP_MAX)


def zipf_weights(n, s):
    """Probabilities of ranks 1..n of a zipf distribution of parameter s."""
    w = [1.0 / (i ** s) for i in range(1, n + 1)]
    total = sum(w)
    return [x / total for x in w]


def cumulative(weights):
    out, acc = [], 0.0
    for x in weights:
        acc += x
        out.append(acc)
    out[-1] = 1.0
    return out


def precision(listed, truth, k):
    """|first k of listed ∩ truth| / k; a short list counts as misses."""
    return len(set(listed[:k]) & truth) / k


def precision_ties(listed, counts, k):
    """Precision of listed against the top k by counts, ties as fractions.

    Ranges strictly above the count of the k-th count fully; those tied
    with it count (slots left) / (number tied), the expected value under a
    random choice among them.
    """
    if k > len(counts):
        return float("nan")
    kth = sorted(counts, reverse=True)[k - 1]
    above = sum(1 for c in counts if c > kth)
    tied = sum(1 for c in counts if c == kth)
    share = (k - above) / tied
    hit = 0.0
    for g in set(listed[:k]):
        if counts[g] > kth:
            hit += 1.0
        elif counts[g] == kth:
            hit += share
    return hit / k


class GapModel:
    """The kernel's read temperature: an average gap between accesses."""

    def __init__(self, n, shift=AVG_SHIFT):
        self.shift = shift
        self.nr = [0] * n
        self.last = [0] * n
        self.avg = [gap_stored(FIRST_GAP)] * n

    def access(self, g, now):
        if self.nr[g]:
            delta = max(now - self.last[g], 0)
            avg = self.avg[g]
            self.avg[g] = gap_stored(avg - (avg >> self.shift) +
                                     (delta >> self.shift))
        self.nr[g] += 1
        self.last[g] = max(self.last[g], now)

    def gap(self, g, now):
        avg = self.avg[g]
        age = max(now - self.last[g], 0)
        return max(avg, avg - (avg >> self.shift) + (age >> self.shift),
                   MIN_GAP)

    def ranking(self, now):
        """Ranges hottest first; never accessed ones left out."""
        seen = [g for g in range(len(self.nr)) if self.nr[g]]
        return sorted(seen, key=lambda g: self.gap(g, now))


class PassModel:
    """The kernel's temperature: a count halved at each update pass.

    Mirrors hot_score_fold() and hot_temp(): fold() is called when the
    kernel's pass count (debugfs stats) has moved, so at a sample after
    the pass, not at the pass itself.  Rates in floats; only the order
    matters here.
    """

    def __init__(self, n, delay_s):
        self.delay = int(delay_s * 1e9)
        self.score = [0] * n
        self.pending = [0] * n
        self.last = [0] * n
        self.nr = [0] * n
        self.t_pass = 0

    def access(self, g, now):
        self.pending[g] += 1
        self.nr[g] += 1
        self.last[g] = max(self.last[g], now)

    def fold(self, now):
        for g in range(len(self.nr)):
            x = self.score[g] + (self.pending[g] << SCORE_SHIFT)
            x = min(x, (self.pending[g] + 1) << (SCORE_SHIFT + CLAMP_SHIFT))
            self.score[g] = min(x >> 1, U32_MAX)
            self.pending[g] = 0
        self.t_pass = now

    def rate(self, g, now):
        """Accesses per ns, as hot_temp() estimates them."""
        since = min(max(now - self.t_pass, 0), self.delay)
        x = self.score[g] + (self.pending[g] << SCORE_SHIFT)
        x -= x * since / (2 * self.delay)
        busy = x / (1 << SCORE_SHIFT) / self.delay
        age = max(now - self.last[g], 0)
        idle = 1 / max(IDLE_GAP, IDLE_GAP - (IDLE_GAP >> 4) + (age >> 4))
        return max(busy, idle)

    def ranking(self, now):
        """Ranges hottest first; never accessed ones left out."""
        seen = [g for g in range(len(self.nr)) if self.nr[g]]
        return sorted(seen, key=lambda g: -self.rate(g, now))


def stats_passes(stat_dir):
    """The update passes done, from debugfs stats; None if unreadable."""
    try:
        with open(os.path.join(stat_dir, "stats")) as f:
            for line in f:
                k, _, v = line.partition(" ")
                if k == "passes":
                    return int(v)
    except OSError:
        pass
    return None


def read_lines(path):
    with open(path) as f:
        return [line.split() for line in f if line.strip()]


def sysctl(name, value=None):
    path = SYSCTL + name
    if value is None:
        with open(path) as f:
            return f.read().strip()
    with open(path, "w") as f:
        f.write(str(value))
    return None


def mount_of(path):
    """(device, fstype, options) of the filesystem mounted at path."""
    path = os.path.realpath(path)
    best = None
    with open("/proc/mounts") as f:
        for line in f:
            dev, mnt, fstype, opts = line.split()[:4]
            if path == mnt or path.startswith(mnt.rstrip("/") + "/"):
                if best is None or len(mnt) >= len(best[1]):
                    best = (dev, mnt, fstype, opts)
    if best is None:
        sys.exit("accuracy: %s: no mount" % path)
    return best


def create_files(d, nfiles, mib):
    """Write the files with real data (holes and unwritten extents would
    not reach the disk), once; return their paths."""
    chunk = bytes(range(256)) * (RANGE_SIZE // 256)
    paths = []
    for i in range(nfiles):
        p = os.path.join(d, "acc.%d" % i)
        paths.append(p)
        if os.path.exists(p) and os.path.getsize(p) == mib * RANGE_SIZE:
            continue
        with open(p, "wb") as f:
            for _ in range(mib):
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
    return paths


def retrack(mnt):
    """Forget all heat (the files' writes) and restart the update worker,
    so that it runs with the delay set now."""
    for opt in ("remount,nohot_track", "remount,hot_track"):
        subprocess.run(["mount", "-o", opt, mnt], check=True)


class Workload:
    """Draws ranges from the zipf distribution of the current phase."""

    def __init__(self, n, s, rng):
        self.n = n
        self.rng = rng
        self.weights = zipf_weights(n, s)
        self.cum = cumulative(self.weights)
        self.perm = None
        self.truth = {}
        self.move()

    def move(self):
        self.perm = list(range(self.n))
        self.rng.shuffle(self.perm)
        self.truth = {k: set(self.perm[:k]) for k in KS}

    def draw(self):
        rank = bisect.bisect_left(self.cum, self.rng.random())
        return self.perm[min(rank, self.n - 1)]


def periods(secs, delay):
    return round(secs / delay, 3) if secs is not None else None


def summarize(rows, args, phase_starts, delay):
    """Steady-state precision per phase and the recovery after the move."""
    out = {"phases": [], "recovery": {}}
    cols = [c for c in rows[0] if re.match(r"p\d", c)] if rows else []
    for ph, (t0, t1) in enumerate(phase_starts, 1):
        mid = t0 + (t1 - t0) / 2
        sel = [r for r in rows if r["phase"] == ph and r["t"] >= mid]
        st = {"phase": ph, "start_s": t0, "end_s": t1, "samples": len(sel)}
        for c in cols:
            vals = [r[c] for r in sel if not math.isnan(r[c])]
            st[c] = round(sum(vals) / len(vals), 4) if vals else None
        out["phases"].append(st)
    if len(phase_starts) < 2:
        return out
    move = phase_starts[1][0]
    after = [r for r in rows if r["phase"] == 2]
    steady = out["phases"][1]
    for src in SOURCES:
        col = "p10_" + src
        first = next((round(r["t"] - move, 3) for r in after
                      if r[col] >= args.target), None)
        # The first of three samples in a row whose mean reaches it.
        rolled = None
        for i in range(len(after) - 2):
            if sum(r[col] for r in after[i:i + 3]) / 3 >= args.target:
                rolled = round(after[i]["t"] - move, 3)
                break
        # Back to 90 % of the steady state of the phase, however low.
        rel = None
        if steady.get(col):
            rel = next((round(r["t"] - move, 3) for r in after
                        if r[col] >= 0.9 * steady[col]), None)
        rec = {"target": args.target, "first_s": first,
               "first_periods": periods(first, delay),
               "rolling3_s": rolled,
               "rolling3_periods": periods(rolled, delay),
               "to_90pct_of_steady_s": rel,
               "to_90pct_of_steady_periods": periods(rel, delay)}
        out["recovery"][src] = rec
    return out


def run(args):
    dev, mnt, fstype, opts = mount_of(args.dir)
    stat_dir = os.path.join(DEBUGFS, os.path.basename(dev))
    os.makedirs(args.out, exist_ok=True)

    t = time.monotonic()
    paths = create_files(args.dir, args.files, args.mib)
    print("accuracy: %d files of %d MiB ready in %.1f s"
          % (args.files, args.mib, time.monotonic() - t), flush=True)
    if args.create_only:
        return 0

    saved = {n: sysctl(n) for n in ("hot-update-delay", "hot-kick-time")}
    try:
        sysctl("hot-update-delay", args.update_delay)
        # Items idle for the whole first phase must not be dropped.
        if int(saved["hot-kick-time"]) < args.duration + 60:
            sysctl("hot-kick-time", int(args.duration) + 60)
        if not args.no_retrack:
            retrack(mnt)
        if not os.path.isdir(stat_dir):
            sys.exit("accuracy: no %s: is %s mounted with hot_track?"
                     % (stat_dir, mnt))
        return measure(args, paths, stat_dir, fstype)
    finally:
        for n, v in saved.items():
            sysctl(n, v)


def measure(args, paths, stat_dir, fstype):
    rng = random.Random(args.seed)
    nfiles, mib = args.files, args.mib
    n = nfiles * mib
    wl = Workload(n, args.s, rng)
    fds = [os.open(p, os.O_RDONLY | os.O_DIRECT) for p in paths]
    ino = {os.fstat(fd).st_ino: i for i, fd in enumerate(fds)}
    buf = mmap.mmap(-1, args.max_kib * 1024)
    view = memoryview(buf)
    sizes = [b * BLOCK for b in range(args.min_kib * 1024 // BLOCK,
                                      args.max_kib * 1024 // BLOCK + 1)]
    model = PassModel(n, args.update_delay)
    passes = [stats_passes(stat_dir)]
    window = collections.deque()
    counts = [0] * n
    delay = args.update_delay
    half = args.duration / 2
    phase_starts = [(0.0, half), (half, float(args.duration))]

    csv_path = os.path.join(args.out, "accuracy.csv")
    cols = (["t", "phase", "reads", "rate", "spot_lines", "window_reads"] +
            ["p%d_%s" % (k, src) for src in SOURCES for k in KS] +
            ["p%d_%s_emp" % (k, src) for src in SOURCES for k in KS] +
            ["p%d_emp" % k for k in KS])
    f = open(csv_path, "w", newline="")
    w = csv.DictWriter(f, fieldnames=cols)
    w.writeheader()
    rows = []

    def key(fields):
        """Range index of a debugfs line, or None if not ours."""
        i = ino.get(int(fields[0]))
        if i is None:
            return None
        return i * mib + (int(fields[2]) >> RANGE_SHIFT)

    def sample(t, phase, reads, rate):
        spot = read_lines(os.path.join(stat_dir, "range_spot"))
        stat = read_lines(os.path.join(stat_dir, "range_stat"))
        lists = {}
        lists["spot"] = [g for g in map(key, spot) if g is not None]
        srt = sorted(spot, key=lambda x: -int(x[6]))
        lists["spotsort"] = [g for g in map(key, srt) if g is not None]
        srt = sorted(stat, key=lambda x: -int(x[6]))
        lists["live"] = [g for g in map(key, srt) if g is not None]
        now = time.monotonic_ns()
        done = stats_passes(stat_dir)
        if done is not None and done != passes[0]:
            passes[0] = done
            model.fold(now)
        lists["model"] = model.ranking(now)
        r = {"t": round(t, 3), "phase": phase, "reads": reads,
             "rate": round(rate, 1), "spot_lines": len(spot),
             "window_reads": len(window)}
        for src, lst in lists.items():
            for k in KS:
                r["p%d_%s" % (k, src)] = precision(lst, wl.truth[k], k)
                r["p%d_%s_emp" % (k, src)] = precision_ties(lst, counts, k)
        for k in KS:
            # The empirical top k, ties broken at random, against the truth.
            pk = precision_ties(list(wl.truth[k]), counts, k)
            r["p%d_emp" % k] = pk
        w.writerow({c: (round(v, 4) if isinstance(v, float) else v)
                    for c, v in r.items()})
        f.flush()
        rows.append(r)
        return r

    start = time.monotonic()
    next_sample = args.sample
    phase = 1
    reads = 0
    last_reads, last_t = 0, 0.0
    gap = 1.0 / args.rate if args.rate > 0 else 0.0
    due = 0.0
    print("accuracy: %s, %d ranges, zipf s=%.2f, %s req/s, update every %d s"
          % (fstype, n, args.s, args.rate or "max", delay), flush=True)
    while True:
        t = time.monotonic() - start
        if t >= args.duration:
            break
        if phase == 1 and t >= half:
            phase = 2
            wl.move()
            # The window starts afresh: counts of the old phase say
            # nothing about the new one.
            window.clear()
            counts = [0] * n
            print("accuracy: t=%.1f s: the hot set moves" % t, flush=True)
        if t >= next_sample:
            rate = (reads - last_reads) / (t - last_t) if t > last_t else 0
            r = sample(t, phase, reads, rate)
            last_reads, last_t = reads, t
            next_sample += args.sample
            if next_sample <= t:
                next_sample = t + args.sample
            if args.verbose or int(r["t"]) % 10 == 0:
                print("t=%6.1f ph=%d rate=%6.0f p10 spot=%.2f sort=%.2f "
                      "live=%.2f model=%.2f emp=%.2f"
                      % (t, phase, rate, r["p10_spot"], r["p10_spotsort"],
                         r["p10_live"], r["p10_model"], r["p10_emp"]),
                      flush=True)
            continue
        if gap:
            if t < due:
                time.sleep(min(due - t, next_sample - t))
                continue
            # Behind by more than a second: do not catch up in a burst.
            due = max(due, t - 1.0) + gap
        g = wl.draw()
        size = rng.choice(sizes)
        off = (g % mib) * RANGE_SIZE + \
            rng.randrange((RANGE_SIZE - size) // BLOCK + 1) * BLOCK
        got = os.preadv(fds[g // mib], [view[:size]], off)
        if got != size:
            sys.exit("accuracy: short read: %d of %d" % (got, size))
        now = time.monotonic_ns()
        reads += 1
        model.access(g, now)
        counts[g] += 1
        window.append((now, g))
        horizon = now - int(args.emp_window * 1e9)
        while window and window[0][0] < horizon:
            counts[window.popleft()[1]] -= 1
    f.close()
    elapsed = time.monotonic() - start
    for fd in fds:
        os.close(fd)
    view.release()
    buf.close()

    stat = read_lines(os.path.join(stat_dir, "range_stat"))
    summary = {
        "kernel": open("/proc/version").read().strip(),
        "fs": fstype,
        "params": {"files": nfiles, "mib": mib, "ranges": n, "s": args.s,
                   "duration_s": args.duration, "rate": args.rate,
                   "update_delay_s": delay, "sample_s": args.sample,
                   "emp_window_s": args.emp_window, "seed": args.seed,
                   "read_kib": [args.min_kib, args.max_kib],
                   "target": args.target},
        "reads": reads,
        "achieved_rate": round(reads / elapsed, 1),
        "ranges_tracked_at_end": len(stat),
        # Every read reaches the disk and is counted, and no write is.
        "reads_counted": sum(int(x[4]) for x in stat),
        "writes_counted": sum(int(x[5]) for x in stat),
        "true_share_topk": {k: round(sum(wl.weights[:k]), 4) for k in KS},
        "true_rate_at_rank": {
            r: round(wl.weights[r - 1] * reads / elapsed, 2)
            for r in (1, 5, 10, 11, 20, 21) if r <= n},
    }
    summary.update(summarize(rows, args, phase_starts, delay))
    with open(os.path.join(args.out, "summary.json"), "w") as sf:
        json.dump(summary, sf, indent=1)
        sf.write("\n")
    print(json.dumps({"reads": reads,
                      "reads_counted": summary["reads_counted"],
                      "writes_counted": summary["writes_counted"],
                      "achieved_rate": summary["achieved_rate"],
                      "phases": summary["phases"],
                      "recovery": summary["recovery"]}, indent=1))
    return 0


def main():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("dir", help="directory on a filesystem with hot_track")
    p.add_argument("out", help="where to write accuracy.csv, summary.json")
    p.add_argument("-F", "--files", type=int, default=8,
                   help="number of files")
    p.add_argument("-R", "--mib", type=int, default=32,
                   help="size of each file in MiB (= ranges per file)")
    p.add_argument("-s", type=float, default=1.1, help="zipf parameter")
    p.add_argument("-d", "--duration", type=float, default=None,
                   help="seconds; the hot set moves halfway "
                   "(default 30 update periods)")
    p.add_argument("-r", "--rate", type=float, default=2000,
                   help="reads per second; 0: as fast as possible")
    p.add_argument("--min-kib", type=int, default=4,
                   help="smallest read, KiB (a multiple of 4)")
    p.add_argument("--max-kib", type=int, default=64,
                   help="largest read, KiB")
    p.add_argument("--update-delay", type=int, default=10,
                   help="hot-update-delay for the run, seconds")
    p.add_argument("--sample", type=float, default=1.0,
                   help="seconds between two samples of range_spot")
    p.add_argument("--emp-window", type=float, default=5.0,
                   help="seconds of accesses for the empirical top k")
    p.add_argument("--target", type=float, default=0.9,
                   help="p@10 to recover after the move")
    p.add_argument("--seed", type=int, default=1,
                   help="seed of the permutations and of the reads")
    p.add_argument("--no-retrack", action="store_true",
                   help="keep the heat recorded so far (by default it is "
                   "forgotten with remount,nohot_track then ,hot_track)")
    p.add_argument("--create-only", action="store_true",
                   help="write the files and stop")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="print every sample, not one in ten")
    args = p.parse_args()
    if args.update_delay < 1:
        p.error("--update-delay is at least 1 s")
    if args.duration is None:
        args.duration = 30.0 * args.update_delay
    if not BLOCK <= args.min_kib * 1024 <= args.max_kib * 1024 <= RANGE_SIZE:
        p.error("need 4 <= --min-kib <= --max-kib <= 1024")
    if os.geteuid() != 0:
        p.error("needs root (debugfs, sysctls, remount)")
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
