#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
# Per compilebench phase, the guest's CPU time from the host's marks
# (cpu.log), A against B per round, with report.py's cpu_log() and
# cpu_overhead() (mean of the log ratios, 95 % CI, Student's t):
# phases.py DIR FS ROUNDS A B
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '../../../linux/tools/testing/hot_track'))
from report import cpu_log, cpu_overhead  # noqa: E402

d, fs, rounds, A, B = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4], sys.argv[5]
ra = [cpu_log(f'{d}/{fs}-{A}-{r}.cpu.log') for r in range(1, rounds + 1)]
rb = [cpu_log(f'{d}/{fs}-{B}-{r}.cpu.log') for r in range(1, rounds + 1)]
print(f'| phase | {B}, s | {A}, s | {A} against {B} [95 % CI] |')
print('| --- | --- | --- | --- |')
for p in ra[0]:
    logs = {r: math.log(a[p] / b[p]) for r, (a, b) in enumerate(zip(ra, rb))}
    m, lo, hi, _ = cpu_overhead(logs)
    print(f'| {p} | {statistics.mean(b[p] for b in rb) / 1e9:.3f} | '
          f'{statistics.mean(a[p] for a in ra) / 1e9:.3f} | '
          f'{m:+.2f} % [{lo:+.2f}, {hi:+.2f}] |')
