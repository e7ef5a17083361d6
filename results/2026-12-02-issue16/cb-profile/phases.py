#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Per compilebench phase, the guest's CPU time from the host's marks
# (cpu.log: mark, CPU ns, wall ns), A against B per round (mean of the
# log ratios, 95 % CI, Student's t): phases.py DIR FS ROUNDS A B
import sys, math, re, collections, statistics
from scipy import stats
d, fs, rounds, A, B = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
def phases(f):
    marks = {}
    for line in open(f):
        name, cpu, _ = line.split()
        marks[name] = int(cpu)
    out = collections.Counter()
    for name, cpu in marks.items():
        m = re.match(r'cb(\d+)-compilebench:(\w+)-start', name)
        if m:
            end = 'cb%03d-compilebench:%s-end' % (int(m.group(1)) + 1, m.group(2))
            out[m.group(2)] += marks[end] - cpu
    out['compilebench'] = marks['002-compilebench-end'] - marks['001-compilebench-start']
    return out
ra = [phases(f'{d}/{fs}-{A}-{r}.cpu.log') for r in range(1, rounds + 1)]
rb = [phases(f'{d}/{fs}-{B}-{r}.cpu.log') for r in range(1, rounds + 1)]
print(f'| phase | {B}, s | {A}, s | {A} against {B} [95 % CI] |')
print('| --- | --- | --- | --- |')
for p in ra[0]:
    x = [math.log(a[p] / b[p]) for a, b in zip(ra, rb)]
    m = statistics.mean(x); s = statistics.stdev(x)
    h = stats.t.ppf(0.975, len(x) - 1) * s / math.sqrt(len(x))
    f = lambda v: 100 * (math.exp(v) - 1)
    print(f'| {p} | {statistics.mean(b[p] for b in rb)/1e9:.3f} | {statistics.mean(a[p] for a in ra)/1e9:.3f} | {f(m):+.2f} % [{f(m-h):+.2f}, {f(m+h):+.2f}] |')
