#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Issue 16, part 4: can an estimator tell ranges read 0.30/s from ranges
read 0.14/s at a promote_temp of 0.25/s (0x78000000, the large hot_move
set of bench.sh)?  For one range read as a Poisson stream at RATE, the
fraction of update passes after the first 60 s at which the estimate is
at or above 0.25/s; mean of 10 streams of 600 s.  Models:

  gap4, gap5   the series' average gap (weight 1/16, 1/32; start 1 s)
  score        notes/wip/issue16-pass-score.patch: a count halved per
               pass, cut to 2 * (pending + 1) per pass when it drops,
               with the idle floor of a gap starting at G0 s (none: no
               floor); P = hot-update-delay in s

Zones of the large set (bench.sh, results/2026-11-27-issue16): zone 3 is
read about 0.72/s per range (1.3/s once zones 1-2 are on the SSD), zone 4
0.30/s, zone 5 0.14/s, below that 0.05/s.
"""
import random


def stream(rate, T):
    t, ev = 0.0, []
    while True:
        t += random.expovariate(rate)
        if t >= T:
            return ev
        ev.append(t)


def run(rate, model, P=1.0, G0=1.0, sh=4, T=600.0, thr=0.25, warm=60.0):
    ev = stream(rate, T)
    score = pend = 0.0
    avg, last, nr, ok, n, i = 1.0, None, 0, 0, 0, 0
    for k in range(1, int(T / P)):
        tp = k * P
        while i < len(ev) and ev[i] <= tp:
            if model == "gap" and nr:
                avg += ((ev[i] - last) - avg) / 2 ** sh
            pend += 1
            nr += 1
            last = ev[i]
            i += 1
        if model == "score":
            x = min(score + pend, 4 * (pend + 1))
            score, pend = x / 2, 0
        if not nr or tp < warm:
            continue
        age = tp - last
        if model == "gap":
            r = 1 / max(avg, avg + (age - avg) / 2 ** sh)
        else:
            idle = 0 if G0 is None else \
                1 / max(G0, G0 * 15 / 16 + age / 16)
            r = max(score / P, idle)
        ok += r >= thr
        n += 1
    return ok / n


def main():
    random.seed(1)
    rates = (1.3, 0.72, 0.30, 0.14, 0.05)
    models = [("gap4", dict(model="gap", sh=4)),
              ("gap5", dict(model="gap", sh=5))]
    for P in (1.0, 10.0):
        for G0 in (1.0, 16.0, None):
            models.append(("score P=%g G0=%s" % (P, G0),
                           dict(model="score", P=P, G0=G0)))
    print("%-22s" % "estimator" + "".join("%8.2f/s" % r for r in rates))
    for name, kw in models:
        cells = [sum(run(r, **kw) for _ in range(10)) / 10 for r in rates]
        print("%-22s" % name + "".join("%10.2f" % c for c in cells))


if __name__ == "__main__":
    main()
