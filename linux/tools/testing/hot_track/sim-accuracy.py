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

For each, precision@k of the live ranking and of the snapshot taken by the
update pass every --update-delay seconds, by bucket in no order within
one (shuffled here: range_spot before its hottest buckets were sorted)
and sorted (range_spot now).  Prints, per
estimator, the steady-state p@k (mean over the last half of each phase,
over --seeds runs) and the time after the move until p@10 >= --target,
sampled every --sample seconds.  No kernel, no root: it tests the
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
    while t < dur:
        t += int(rng.expovariate(args.rate) * NS)
        while min(next_pass, next_sample) <= t:
            if next_pass <= next_sample:
                for m in models:
                    temps = m.temps(next_pass)
                    snaps[m.name] = (temps,
                                     spot_order(temps, rng, False),
                                     spot_order(temps, rng, True))
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
    return samples


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
    args = p.parse_args()

    makers = []
    for sh in filter(None, args.gap.split(",")):
        makers.append(lambda n, sh=int(sh): Gap(n, sh))
    for a in filter(None, args.asym.split(",")):
        up, down = (int(x) for x in a.split("/"))
        makers.append(lambda n, up=up, down=down: GapAsym(n, up, down))
    for tau in filter(None, args.decay.split(",")):
        makers.append(lambda n, tau=float(tau): Decay(n, tau))

    move = args.duration / 2
    agg = {}
    for seed in range(1, args.seeds + 1):
        samples = simulate(args, seed, makers)
        names = samples[0][2].keys()
        for name in names:
            for kind in ("spot", "spotsort", "live"):
                a = agg.setdefault((name, kind),
                                   {"steady": {k: [] for k in KS},
                                    "rec": []})
                for ph, (t0, t1) in enumerate(((0, move),
                                               (move, args.duration)), 1):
                    mid = t0 + (t1 - t0) / 2
                    for k in KS:
                        vals = [r[name][kind][k] for ts, p_, r in samples
                                if p_ == ph and ts >= mid]
                        a["steady"][k].append(statistics.mean(vals))
                a["rec"].append(recovery(samples, name, kind, move,
                                         args.target))
    print("# %d x %d = %d ranges, zipf s=%g, %g reads/s, update every %g s, "
          "%d seeds x 2 phases"
          % (args.files, args.mib, args.files * args.mib, args.s,
             args.rate, args.update_delay, args.seeds))
    print("%-10s %-9s %6s %6s %6s  %s"
          % ("estimator", "list", "p@5", "p@10", "p@20",
             "recovery s (p@10>=%g)" % args.target))
    for (name, kind), a in agg.items():
        rec = " ".join("%.2f" % r if r != float("inf") else "never"
                       for r in a["rec"])
        print("%-10s %-9s %6.3f %6.3f %6.3f  %s"
              % (name, kind, statistics.mean(a["steady"][5]),
                 statistics.mean(a["steady"][10]),
                 statistics.mean(a["steady"][20]), rec))


if __name__ == "__main__":
    main()
