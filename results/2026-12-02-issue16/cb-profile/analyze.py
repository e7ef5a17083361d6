#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Per-symbol samples of the UML guest's host processes (perf data of
# run2.sh, or of its earlier form, NOTES.md), A against B (on against off
# by default), summed over rounds, with the per-round spread:
# analyze.py FS ROUNDS [A B]
#
# The CI of the total samples is a t interval of the per-round percentage
# differences, not report.py's cpu_overhead() (a mean of log ratios); at
# these sizes the two agree within 0.01 %.
#
# symbols.txt was made by this file as of commit 71d9c50f, whose filter of the
# tracking symbols missed the __hot_* ones and whose by-dso line listed
# each guest process (#N) apart; the perf data were not kept, so it cannot
# be made again with this one (NOTES.md gives the missed symbol).
import collections
import math
import statistics
import subprocess
import sys

from scipy import stats

fs, rounds = sys.argv[1], int(sys.argv[2])
A, B = (sys.argv[3:5] if len(sys.argv) > 4 else ('on', 'off'))
def load(f):
    out = subprocess.run(['perf', 'report', '-i', f, '--sort', 'dso,sym', '-n',
                          '--stdio'], capture_output=True, text=True).stdout
    d = collections.Counter()
    for line in out.splitlines():
        if line.startswith('#') or not line.strip():
            continue
        p = line.split()
        # overhead samples dso [k] sym
        try:
            n = int(p[1])
        except ValueError:
            continue
        dso = p[2]
        sym = p[-1]
        d[(dso, sym)] += n
    return d
runs = {m: [load(f'{fs}-{m}-{r}.data') for r in range(1, rounds + 1)]
        for m in (A, B)}
tot = {m: [sum(d.values()) for d in runs[m]] for m in runs}
print(f'total samples {A}', tot[A], B, tot[B])
keys = set()
for m in runs:
    for d in runs[m]:
        keys |= set(d)
rows = []
for k in keys:
    on = [d[k] for d in runs[A]]
    off = [d[k] for d in runs[B]]
    diff = [a - b for a, b in zip(on, off)]
    s = sum(diff)
    mean = s / rounds
    sd = math.sqrt(sum((x - mean) ** 2 for x in diff) / (rounds - 1)) if rounds > 1 else 0
    rows.append((s, k, sum(on), sum(off), sd))
rows.sort(key=lambda r: (-r[0], r[1]))
T = sum(tot[B])
print(f'{"delta":>7} {A:>7} {B:>7} {"%" + B:>7} sd/round  dso sym')
for s, k, on, off, sd in rows[:45]:
    print(f'{s:7d} {on:7d} {off:7d} {100*s/T:6.3f}% {sd:7.1f}  {k[0]} {k[1]}')
print('...')
for s, k, on, off, sd in rows[-15:]:
    print(f'{s:7d} {on:7d} {off:7d} {100*s/T:6.3f}% {sd:7.1f}  {k[0]} {k[1]}')


def dso(k):
    # UML's guest processes are host threads named #N: one row for all
    return '#user' if k[0].startswith('#') else k[0]


by = collections.Counter()
for s, k, on, off, sd in rows:
    by[dso(k)] += s
print('by dso:', by.most_common(8))
tot_dso = collections.defaultdict(lambda: [0, 0])
for s, k, on, off, sd in rows:
    tot_dso[dso(k)][0] += on
    tot_dso[dso(k)][1] += off
for k, (on, off) in sorted(tot_dso.items(), key=lambda x: -x[1][1])[:10]:
    print(f'{k:24s} {A} {on:7d} {B} {off:7d} delta {on-off:6d} ({100*(on-off)/max(off,1):+.2f} %)')
hot = [r for r in rows
       if r[1][0] == 'linux' and r[1][1].lstrip('_').startswith('hot_')]
print('hot_* symbols:', sum(r[2] for r in hot), [(r[1][1], r[2]) for r in hot])
print('host kernel:')
kk = [r for r in rows if r[1][0] == '[kernel.kallsyms]']
for s, k, on, off, sd in kk[:25] + kk[-8:]:
    print(f'{s:7d} {on:7d} {off:7d} sd {sd:6.1f}  {k[1]}')
rel = [100 * (a - b) / b for a, b in zip(tot[A], tot[B])]
m = statistics.mean(rel); s = statistics.stdev(rel)
h = stats.t.ppf(0.975, len(rel) - 1) * s / math.sqrt(len(rel))
print(f'{A} against {B}, total samples per round: {["%+.2f" % x for x in rel]} mean {m:+.2f} % [{m-h:+.2f}, {m+h:+.2f}]')
print('guest kernel:')
kk = [r for r in rows if r[1][0] == 'linux' and '+0x' not in r[1][1]]
for s, k, on, off, sd in kk[:40] + kk[-10:]:
    print(f'{s:7d} {on:7d} {off:7d} sd {sd:6.1f}  {k[1]}')
