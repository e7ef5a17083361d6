#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""micro.py OUT LOG...: summarise runs of the hot_track_benchmark KUnit suite.

Each LOG is the kernel log of one run of the suite (kunit.py's test.log),
named <cpus>cpu-<n>.log.  The suite prints lines such as

    # hot_bench_hook_one_cpu: existing range, 1 CPU: 93.8 ns per access
    # hot_bench_update_pass: 1000 range items in 1 files: pass 44 us ...

Writes OUT (markdown): per measurement and CPU count, the median, minimum
and maximum over the runs, and the targets of issue 5 next to them; then
the scaling table: per CPU count, the cost per access of a thread per CPU
on one shared file against a file each (goal: within SHARED_GOAL at 2
CPUs; at more CPUs than the host has, a trend only), and OUT with .json
for its suffix, every number of both with the samples they came from.
A LOG without the suite's result line is a run that did not finish (the
bench's timeout): listed with the RCU stalls it logged and the case that
was running, and in the scaling table as such.
"""

import json
import os
import re
import statistics
import sys

ACCESS = re.compile(r"# hot_bench_\w+: (.+): ([\d.]+) ns per access")
PASS = re.compile(r"# hot_bench_update_pass: (\d+) range items .*"
                  r"pass (\d+) us .* (\d+) ns per item, memory (\d+) bytes")
SIZE = re.compile(r"# hot_bench_item_size: (\w+) item: (\d+) bytes "
                  r"\(slab object (\d+)\)")
DELETE = re.compile(r"# hot_bench_delete: deleted file of one range: hook "
                    r"(\d+), free work (\d+), after a grace period (\d+), "
                    r"in all (\d+) ns per file")
INDEX = re.compile(r"# hot_bench_index: inode index, (\d+ files \d+ apart), "
                   r"round (\d+): (\d+) ns per new file, (\d+) ns per "
                   r"deleted file, (\d+) bytes of (?:nodes|index) per file")
PRIM = re.compile(r"# hot_bench_primitives: (.+): ([\d.]+) ns per operation")
DONE = re.compile(r"^\[[ \d.]+\] (not )?ok \d+ hot_track_benchmark")
STALL = re.compile(r"rcu: INFO: rcu_\w+ (self-)?detected stall")
CASE = re.compile(r"(?:not )?ok \d+ (hot_bench_\w+)")
# One shared file against a file per CPU, per access, at 2 CPUs.
SHARED_GOAL = 1.2
SHARED = "%d CPUs, one file, mean of CPUs"
OWN = "%d CPUs, a file each, mean of CPUs"


def parse(paths):
    """Return ({(what, cpus): [ns, ...]}, {(items, cpus): [...]}, sizes,
    {(primitive, cpus): [ns, ...]})."""
    access, passes, sizes, prims = {}, {}, {}, {}
    for path in paths:
        cpus = int(os.path.basename(path).split("cpu")[0])
        with open(path, errors="replace") as f:
            for line in f:
                m = ACCESS.search(line)
                if m:
                    access.setdefault((m[1], cpus), []).append(float(m[2]))
                m = PRIM.search(line)
                if m:
                    prims.setdefault((m[1], cpus), []).append(float(m[2]))
                m = DELETE.search(line)
                if m:
                    access.setdefault(("deleted file of one range, "
                                       "eviction hook, per file", cpus),
                                      []).append(float(m[1]))
                m = INDEX.search(line)
                if m:
                    for what, ns in (("new file", m[3]),
                                     ("deleted file", m[4])):
                        access.setdefault(("%s, inode index, %s, round %s, "
                                           "per file" % (what, m[1], m[2]),
                                           cpus), []).append(float(ns))
                    sizes["inode index, %s, bytes per file" % m[1]] = \
                        (int(m[5]), None)
                m = PASS.search(line)
                if m:
                    passes.setdefault((int(m[1]), cpus), []).append(
                        (int(m[2]), int(m[3]), int(m[4])))
                m = SIZE.search(line)
                if m:
                    sizes[m[1]] = (int(m[2]), int(m[3]))
    return access, passes, sizes, prims


def unfinished(paths):
    """Logs of runs that did not finish: [{log, cpus, stalls, after}],
    after: the last case that finished before the run was stopped."""
    out = []
    for path in paths:
        done, stalls, after = False, 0, None
        with open(path, errors="replace") as f:
            for line in f:
                done = done or bool(DONE.search(line))
                stalls += bool(STALL.search(line))
                m = CASE.search(line)
                if m:
                    after = m[1]
        if not done:
            out.append({"log": os.path.basename(path),
                        "cpus": int(os.path.basename(path).split("cpu")[0]),
                        "stalls": stalls, "after": after})
    return out


def stat(values):
    return "%.1f | %.1f | %.1f" % (statistics.median(values), min(values),
                                   max(values))


def main():
    out, logs = sys.argv[1], sys.argv[2:]
    access, passes, sizes, prims = parse(logs)
    stopped = unfinished(logs)
    runs = {}
    for path in logs:
        cpus = int(os.path.basename(path).split("cpu")[0])
        runs[cpus] = runs.get(cpus, 0) + 1
    lines = ["# hot_track micro benchmarks", "",
             "KUnit suite hot_track_benchmark (fs/tests/hot_tracking_"
             "benchmark.c), runs per CPU count: " +
             ", ".join("%d CPU: %d" % kv for kv in sorted(runs.items())) +
             ".", "",
             "## Item sizes", "",
             "| item | bytes | slab object | target |",
             "|---|---|---|---|"]
    for item, (size, obj) in sorted(sizes.items()):
        target = "<= 64" if item == "range" else ""
        lines.append("| %s | %d | %s | %s |" %
                     (item, size, "" if obj is None else obj, target))
    lines += ["", "## I/O hook, ns per recorded access", "",
              "Target: under 100 ns uncontended, flat as CPUs are added.", "",
              "| measurement | CPUs | median | min | max |",
              "|---|---|---|---|---|"]
    # A file's life and cold reads cost more by nature: a table apart.
    apart = ("cold caches", "new file", "deleted file")
    for (what, cpus), values in sorted(access.items(),
                                       key=lambda kv: (kv[0][1], kv[0][0])):
        if not any(a in what for a in apart):
            lines.append("| %s | %d | %s |" % (what, cpus, stat(values)))
    lines += ["", "## A small file's life, and reads with cold caches", "",
              "ns per file (its first read, the eviction hook of its "
              "deletion, the inode index as files come and go) or per "
              "read (each after "
              "a sweep of 32 MiB that "
              "evicts the data caches up to L2 and the data TLB, on a "
              "superblock that tracks and on one that does not); no "
              "target.", "",
              "| measurement | CPUs | median | min | max |",
              "|---|---|---|---|---|"]
    for (what, cpus), values in sorted(access.items(),
                                       key=lambda kv: (kv[0][1], kv[0][0])):
        if any(a in what for a in apart):
            lines.append("| %s | %d | %s |" % (what, cpus, stat(values)))
    if prims:
        lines += ["", "## Primitives, ns per operation", "",
                  "What the hooks' and the inode index's locks are made of "
                  "(hot_bench_primitives): on SMP UML an irq-off section "
                  "masks a host signal, a system call each way; no target.",
                  "", "| primitive | CPUs | median | min | max |",
                  "|---|---|---|---|---|"]
        for (what, cpus), values in sorted(prims.items(),
                                           key=lambda kv: (kv[0][1],
                                                           kv[0][0])):
            lines.append("| %s | %d | %s |" % (what, cpus, stat(values)))
    lines += ["", "## Update pass over range items", "",
              "Second pass over the items (the first also links them into "
              "the heat maps); target: linear growth.", "",
              "| range items | CPUs | pass, ms (median) | ns per item, "
              "median | min | max | memory, bytes |",
              "|---|---|---|---|---|---|---|"]
    for (items, cpus), values in sorted(passes.items()):
        per_item = [v[1] for v in values]
        lines.append("| %d | %d | %.2f | %s | %d |" % (
            items, cpus, statistics.median(v[0] for v in values) / 1000,
            stat(per_item), values[0][2]))
    cpus_seen = sorted({c for (_, c) in access})
    lines += ["", "## One file shared by every CPU", "",
              "A thread per CPU, 1M accesses each, on one file or on a file "
              "each: ns per access (mean of the CPUs, median of the runs); "
              "goal: shared within %gx of a file each at 2 CPUs, and not "
              "growing with more CPUs.  More guest CPUs than the host's "
              "%d cores share them: read those as a trend." %
              (SHARED_GOAL, os.cpu_count()), "",
              "| CPUs | a file each | one file | ratio | goal |",
              "|---|---|---|---|---|"]
    scaling = []
    for cpus in cpus_seen:
        own = access.get((OWN % cpus, cpus))
        shared = access.get((SHARED % cpus, cpus))
        if not own or not shared:
            continue
        o, s_ = statistics.median(own), statistics.median(shared)
        goal = ""
        if cpus == 2:
            goal = "met" if s_ / o <= SHARED_GOAL else "**not met**"
        lines.append("| %d | %.1f | %.1f | %.2f | %s |" %
                     (cpus, o, s_, s_ / o, goal))
        scaling.append({"cpus": cpus, "own_ns": own, "shared_ns": shared,
                        "own_median": o, "shared_median": s_,
                        "ratio": s_ / o,
                        "goal_met": (s_ / o <= SHARED_GOAL)
                        if cpus == 2 else None})
    for cpus in sorted({u["cpus"] for u in stopped} - set(cpus_seen)):
        lines.append("| %d | - | - | - | did not finish |" % cpus)
    if stopped:
        lines += ["", "## Runs that did not finish", "",
                  "Stopped at the bench's timeout: the stall reports in "
                  "the log show where the CPUs were.", "",
                  "| log | CPUs | RCU stall reports | last case done |",
                  "|---|---|---|---|"]
        for u in stopped:
            lines.append("| %s | %d | %d | %s |" % (
                u["log"], u["cpus"], u["stalls"], u["after"] or "-"))
    with open(os.path.splitext(out)[0] + ".json", "w") as f:
        json.dump({"shared_goal": SHARED_GOAL, "scaling": scaling,
                   "unfinished": stopped,
                   "access": [{"what": w, "cpus": c, "ns": v}
                              for (w, c), v in sorted(access.items())],
                   "sizes": sizes}, f, indent=1)
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
