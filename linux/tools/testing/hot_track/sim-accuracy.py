#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sim-accuracy.py [options]: the accuracy workload against models of the
kernel's estimator, in simulated time, on the host.

The same workload as accuracy.py (zipf over F * R ranges through a random
permutation, the hot set moving halfway), as a Poisson stream of reads at
--rate per second, fed to estimators:

  gapN      the kernel's average gap with weight 1/2^N (N = 4 today), its
            temperature and heat-map buckets (fs/hot_tracking.c)
  decayT    a count of accesses decaying exponentially with time constant
            T seconds (what a per-pass decayed counter would give)
  passD[...] the design of issue 16 (notes/issue16-temperature-design.md):
            a score per item, folded by each update pass as
            L <- D * (L + c) (c: accesses since the last pass, which per-CPU
            slots may hold until then), in 24.8 fixed point; rate =
            L (1 - D) / (D P), decayed by about D^f within a pass (f:
            fraction of the period P since the pass; linear) for the live
            value, at least the
            rate the kernel gives an item read once (the idle floor: a
            gap of 16 s, cooled by age / 16; "f1": of 1 s, the gap
            model's); temperature in today's units.
            Suffixes: aM caps the score's rate at M / age (time since the
            last access); cM caps L + c at (c + 1) * M / (1 - D) at the pass
            (needs the count of the pass in the item); wW: a pass after
            one that counted fewer than W accesses over all items (the
            superblock) decays by 1 - (1 - D) / 2 instead (3/4 for 1/2),
            L rescaled at each switch so that its rate does not jump

For each, precision@k of the live ranking and of the snapshot taken by the
update pass every --update-delay seconds, by bucket in no order within
one (shuffled here: range_spot before its hottest buckets were sorted)
and sorted (range_spot now).  Prints, per
estimator, the steady-state p@k (mean over the last half of each phase,
over --seeds runs) and the time after the move until p@10 >= --target,
sampled every --sample seconds, and the update pass, counted from the
move (1 = the first pass after it, --pass-offset periods after it), whose
sorted snapshot first reaches it.  No kernel, no root: it tests the
arithmetic, so that guest runs can be checked against it and changes to
the temperature weighed before they are made.
"""

import argparse
import importlib.util
import math
import os
import random
import statistics

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "accuracy", os.path.join(here, "accuracy.py"))
acc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(acc)

KS = (5, 10, 20)
NS = 1000000000


def hot_log2(x):
    """The kernel's fixed-point log2: integer part, linear mantissa."""
    if x < 2:
        return 0
    il = x.bit_length() - 1
    frac = x >> (il - 26) if il >= 26 else x << (26 - il)
    return (il << 26) | (frac & ((1 << 26) - 1))


class Gap(acc.GapModel):
    """The kernel's estimator, with an average gap of weight 1/2^shift."""

    def __init__(self, n, shift):
        super().__init__(n, shift)
        self.name = "gap%d" % shift

    def temps(self, now):
        return {g: hot_log2((1 << 62) // self.gap(g, now))
                for g in range(len(self.nr)) if self.nr[g]}


class GapAsym(acc.GapModel):
    """The average gap, but gaps shorter than it count 1/2^down each:
    faster to heat up, as fast as today to cool down."""

    def __init__(self, n, shift, down):
        super().__init__(n, shift)
        self.down = down
        self.name = "gap%d/%d" % (shift, down)

    def access(self, g, now):
        if self.nr[g]:
            delta = max(now - self.last[g], 0)
            avg = self.avg[g]
            sh = self.down if delta < avg else self.shift
            self.avg[g] = avg - (avg >> sh) + (delta >> sh)
        self.nr[g] += 1
        self.last[g] = max(self.last[g], now)

    temps = Gap.temps


class Decay:
    """Accesses counted with exponential decay of time constant tau."""

    def __init__(self, n, tau):
        self.name = "decay%g" % tau
        self.tau = tau * NS
        self.c = [0.0] * n
        self.t = [0] * n

    def access(self, g, now):
        self.c[g] = self.c[g] * math.exp((self.t[g] - now) / self.tau) + 1
        self.t[g] = now

    def temps(self, now):
        # Any monotone function of the decayed count ranks alike; buckets
        # as the kernel's: four per doubling of the (count) rate.
        out = {}
        for g, c in enumerate(self.c):
            if c:
                v = c * math.exp((self.t[g] - now) / self.tau)
                out[g] = hot_log2(max(int(v * 2 ** 30), 1))
        return out


HOT_RATE_SHIFT = 62
SCORE_FRAC = 8                  # L in 24.8 fixed point
U32_MAX = (1 << 32) - 1


def parse_decay(txt):
    """'1/2', '3/4', '0.5' -> float."""
    if "/" in txt:
        a, b = txt.split("/")
        return int(a) / int(b)
    return float(txt)


class PassScore:
    """Issue 16: a decayed count folded per update pass (see the docstring).

    The kernel would do the fold in fixed point (L = (L + (c << 8)) >> k for
    D = 2^-k, or x - (x >> k) for D = 1 - 2^-k, saturating at U32_MAX) and
    D^f by a shift and a linear interpolation; floats here, but L is kept
    in 24.8 fixed point and saturates so that tiny and huge scores behave
    as in the kernel.
    """

    def __init__(self, n, spec, period):
        parts = spec.split(":")
        self.name = "pass" + parts[0]
        self.d = parse_decay(parts[0])
        self.agecap = 0.0
        self.clamp = 0.0
        self.floor = True
        self.floor_gap = acc.IDLE_GAP
        self.window = 0
        self.d_fast = self.d
        self.prev_total = None
        for opt in parts[1:]:
            self.name += opt
            if opt[0] == "a":
                self.agecap = float(opt[1:])
            elif opt[0] == "c":
                self.clamp = float(opt[1:])
            elif opt == "nofloor":
                self.floor = False
            elif opt == "f1":
                self.floor_gap = acc.FIRST_GAP
            elif opt[0] == "w":
                self.window = int(opt[1:])
        self.period = period * NS
        self.L = [0] * n            # 24.8 fixed point
        self.c = [0] * n            # accesses since the last pass
        self.last = [0] * n
        self.nr = [0] * n
        self.t_pass = 0

    def access(self, g, now):
        self.c[g] += 1
        self.nr[g] += 1
        self.last[g] = max(self.last[g], now)

    def fold(self, now):
        """The update pass: L <- D (L + c), c <- 0."""
        one = 1 << SCORE_FRAC
        if self.window:
            slow = self.prev_total is not None and \
                self.prev_total < self.window
            d = 1 - (1 - self.d_fast) / 2 if slow else self.d_fast
            if d != self.d:
                # Keep the rate L (1 - D) / D that L stands for: no jump.
                k = (1 - self.d) / self.d / ((1 - d) / d)
                self.L = [min(int(x * k), U32_MAX) for x in self.L]
                self.d = d
            self.prev_total = sum(self.c)
        for g in range(len(self.L)):
            if not self.nr[g]:
                continue
            x = self.L[g] + self.c[g] * one
            if self.clamp:
                x = min(x, int((self.c[g] + 1) * one * self.clamp /
                               (1 - self.d)))
            self.L[g] = min(int(x * self.d), U32_MAX)
            self.c[g] = 0
        self.t_pass = now

    def rate(self, g, now):
        """Accesses per ns."""
        f = min(max(now - self.t_pass, 0) / self.period, 1.0)
        # D^f as the kernel would take it: linear from 1 to D.
        x = (self.L[g] / (1 << SCORE_FRAC) + self.c[g]) * \
            (1 - (1 - self.d) * f)
        r = x * (1 - self.d) / (self.d * self.period)
        age = max(now - self.last[g], 0)
        if self.agecap and age:
            r = min(r, self.agecap / age)
        if self.floor:
            fg = self.floor_gap
            gap = max(fg, fg - (fg >> 4) + (age >> 4))
            r = max(r, 1 / gap)
        return r

    def temps(self, now):
        return {g: hot_log2(int(self.rate(g, now) * (1 << HOT_RATE_SHIFT)))
                for g in range(len(self.nr)) if self.nr[g]}


def spot_order(temps, rng, sort):
    """range_spot: by bucket (temp >> 24), in no order within one."""
    items = list(temps.items())
    rng.shuffle(items)
    if sort:
        items.sort(key=lambda x: -x[1])
    else:
        items.sort(key=lambda x: -(x[1] >> 24))
    return [g for g, _ in items]


def simulate(args, seed, makers):
    rng = random.Random(seed)
    # Ties in the spot lists are shuffled by a generator of their own, so
    # that the workload of a seed is the same whatever estimators run.
    spot_rng = random.Random(-seed)
    n = args.files * args.mib
    wl = acc.Workload(n, args.s, rng)
    models = [m(n) for m in makers]
    snaps = {m.name: ({}, [], []) for m in models}
    dur = args.duration * NS
    half = dur // 2
    t = 0
    next_sample = int(args.sample * NS)
    next_pass = int(args.pass_offset * args.update_delay * NS)
    moved = False
    samples = []   # (t, phase, {name: {kind: {k: p}}})
    passes = {}    # name: [p@10 of the sorted snapshot of each pass after
                   # the move]
    while t < dur:
        t += int(rng.expovariate(args.rate) * NS)
        while min(next_pass, next_sample) <= t:
            if next_pass <= next_sample:
                for m in models:
                    if hasattr(m, "fold"):
                        m.fold(next_pass)
                    temps = m.temps(next_pass)
                    snaps[m.name] = (temps,
                                     spot_order(temps, spot_rng, False),
                                     spot_order(temps, spot_rng, True))
                    if moved:
                        passes.setdefault(m.name, []).append(acc.precision(
                            snaps[m.name][2], wl.truth[10], 10))
                next_pass += int(args.update_delay * NS)
                continue
            ts = next_sample
            if not moved and ts >= half:
                wl.move()
                moved = True
            res = {}
            for m in models:
                live = sorted(m.temps(ts).items(), key=lambda x: -x[1])
                live = [g for g, _ in live]
                _, spot, spotsort = snaps[m.name]
                res[m.name] = {
                    kind: {k: acc.precision(lst, wl.truth[k], k)
                           for k in KS}
                    for kind, lst in (("live", live), ("spot", spot),
                                      ("spotsort", spotsort))}
            samples.append((ts / NS, 2 if moved else 1, res))
            next_sample += int(args.sample * NS)
        if not moved and t >= half:
            wl.move()
            moved = True
        if t < dur:
            g = wl.draw()
            for m in models:
                m.access(g, t)
    return samples, passes


def pass_recovery(snaps, target):
    """The first update pass after the move (1-based) at the target."""
    for i, p in enumerate(snaps, 1):
        if p >= target:
            return i
    return float("inf")


def recovery(samples, name, kind, move, target):
    for ts, ph, res in samples:
        if ph == 2 and res[name][kind][10] >= target:
            return ts - move
    return float("inf")


def main():
    p = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("-F", "--files", type=int, default=8)
    p.add_argument("-R", "--mib", type=int, default=32)
    p.add_argument("-s", type=float, default=1.1)
    p.add_argument("-d", "--duration", type=float, default=120)
    p.add_argument("-r", "--rate", type=float, default=2000)
    p.add_argument("--update-delay", type=float, default=1.0)
    p.add_argument("--pass-offset", type=float, default=0.5,
                   help="first pass at this fraction of a period")
    p.add_argument("--sample", type=float, default=0.25)
    p.add_argument("--target", type=float, default=0.9)
    p.add_argument("--seeds", type=int, default=3)
    p.add_argument("--gap", default="4",
                   help="average-gap weights to model, as shifts: 4 = 1/16")
    p.add_argument("--asym", default="",
                   help="average gaps with a faster weight for shorter "
                   "gaps, as SHIFT/DOWN: 4/2 = 1/16, 1/4 for shorter gaps")
    p.add_argument("--decay", default="",
                   help="decay time constants to model, seconds")
    p.add_argument("--pass-decay", default="",
                   help="per-pass decayed scores to model: D[:aM][:cM]"
                   "[:wW][:nofloor][:f1], comma-separated; D as 1/2, 3/4 or 0.6")
    p.add_argument("--csv", action="store_true",
                   help="one line per estimator and list, for scripts")
    args = p.parse_args()

    makers = []
    for sh in filter(None, args.gap.split(",")):
        makers.append(lambda n, sh=int(sh): Gap(n, sh))
    for a in filter(None, args.asym.split(",")):
        up, down = (int(x) for x in a.split("/"))
        makers.append(lambda n, up=up, down=down: GapAsym(n, up, down))
    for tau in filter(None, args.decay.split(",")):
        makers.append(lambda n, tau=float(tau): Decay(n, tau))
    for spec in filter(None, args.pass_decay.split(",")):
        makers.append(lambda n, spec=spec:
                      PassScore(n, spec, args.update_delay))

    move = args.duration / 2
    agg = {}
    for seed in range(1, args.seeds + 1):
        samples, passes = simulate(args, seed, makers)
        names = samples[0][2].keys()
        for name in names:
            for kind in ("spot", "spotsort", "live"):
                a = agg.setdefault((name, kind),
                                   {"steady": {k: [] for k in KS},
                                    "ph": {1: [], 2: []},
                                    "rec": [], "passes": []})
                for ph, (t0, t1) in enumerate(((0, move),
                                               (move, args.duration)), 1):
                    mid = t0 + (t1 - t0) / 2
                    for k in KS:
                        vals = [r[name][kind][k] for ts, p_, r in samples
                                if p_ == ph and ts >= mid]
                        a["steady"][k].append(statistics.mean(vals))
                        if k == 10:
                            a["ph"][ph].append(statistics.mean(vals))
                a["rec"].append(recovery(samples, name, kind, move,
                                         args.target))
                a["passes"].append(pass_recovery(passes.get(name, []),
                                                 args.target))
    fmt = lambda r: "%.2f" % r if r != float("inf") else "never"
    fmtp = lambda r: "%d" % r if r != float("inf") else "never"
    if args.csv:
        for (name, kind), a in agg.items():
            print("%g,%g,%g,%s,%s,%.3f,%.3f,%.3f,%s,%s"
                  % (args.s, args.rate, args.pass_offset, name, kind,
                     statistics.mean(a["ph"][1]), statistics.mean(a["ph"][2]),
                     statistics.mean(a["steady"][10]),
                     " ".join(fmt(r / args.update_delay) for r in a["rec"]),
                     " ".join(fmtp(r) for r in a["passes"])
                     if kind == "spotsort" else ""))
        return
    print("# %d x %d = %d ranges, zipf s=%g, %g reads/s, update every %g s, "
          "first pass %g periods after the move, %d seeds x 2 phases"
          % (args.files, args.mib, args.files * args.mib, args.s,
             args.rate, args.update_delay, args.pass_offset, args.seeds))
    print("%-14s %-9s %6s %6s %6s %6s %6s  %s"
          % ("estimator", "list", "p@5", "p@10", "p@20", "ph1", "ph2",
             "recovery periods (p@10>=%g); spotsort: [pass]" % args.target))
    for (name, kind), a in agg.items():
        rec = " ".join(fmt(r / args.update_delay) for r in a["rec"])
        if kind == "spotsort":
            rec += "  [" + " ".join(fmtp(r) for r in a["passes"]) + "]"
        print("%-14s %-9s %6.3f %6.3f %6.3f %6.3f %6.3f  %s"
              % (name, kind, statistics.mean(a["steady"][5]),
                 statistics.mean(a["steady"][10]),
                 statistics.mean(a["steady"][20]),
                 statistics.mean(a["ph"][1]), statistics.mean(a["ph"][2]),
                 rec))

if __name__ == "__main__":
    main()
