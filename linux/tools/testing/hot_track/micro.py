#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""micro.py OUT LOG...: summarise runs of the hot_track_benchmark KUnit suite.

Each LOG is the kernel log of one run of the suite (kunit.py's test.log),
named <cpus>cpu-<n>.log.  The suite prints lines such as

    # hot_bench_hook_one_cpu: existing range, 1 CPU: 93.8 ns per access
    # hot_bench_update_pass: 1000 range items in 1 files: pass 44 us ...

Writes OUT (markdown): per measurement and CPU count, the median, minimum
and maximum over the runs, and the targets of issue 5 next to them.
"""

import os
import re
import statistics
import sys

ACCESS = re.compile(r"# hot_bench_\w+: (.+): ([\d.]+) ns per access")
PASS = re.compile(r"# hot_bench_update_pass: (\d+) range items .*"
                  r"pass (\d+) us .* (\d+) ns per item, memory (\d+) bytes")
SIZE = re.compile(r"# hot_bench_item_size: (\w+) item: (\d+) bytes "
                  r"\(slab object (\d+)\)")


def parse(paths):
    """Return ({(what, cpus): [ns, ...]}, {(items, cpus): [...]}, sizes)."""
    access, passes, sizes = {}, {}, {}
    for path in paths:
        cpus = int(os.path.basename(path).split("cpu")[0])
        with open(path, errors="replace") as f:
            for line in f:
                m = ACCESS.search(line)
                if m:
                    access.setdefault((m[1], cpus), []).append(float(m[2]))
                m = PASS.search(line)
                if m:
                    passes.setdefault((int(m[1]), cpus), []).append(
                        (int(m[2]), int(m[3]), int(m[4])))
                m = SIZE.search(line)
                if m:
                    sizes[m[1]] = (int(m[2]), int(m[3]))
    return access, passes, sizes


def stat(values):
    return "%.1f | %.1f | %.1f" % (statistics.median(values), min(values),
                                   max(values))


def main():
    out, logs = sys.argv[1], sys.argv[2:]
    access, passes, sizes = parse(logs)
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
        lines.append("| %s | %d | %d | %s |" % (item, size, obj, target))
    lines += ["", "## I/O hook, ns per recorded access", "",
              "Target: under 100 ns uncontended, flat as CPUs are added.", "",
              "| measurement | CPUs | median | min | max |",
              "|---|---|---|---|---|"]
    for (what, cpus), values in sorted(access.items(),
                                       key=lambda kv: (kv[0][1], kv[0][0])):
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
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
