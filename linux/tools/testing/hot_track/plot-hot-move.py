#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""plot-hot-move.py DIR: the results of guest-hot-move.sh in DIR as
hot-move.png (read throughput over time of each config) and hot-move.md
(throughput once relocation settled against the upper bound, what moved).

Throughput is summed over fio's jobs per second.  "Settled" is the last
third of the run; the target is 80 % of the bound there.  With a hot set
(guest-hot-move.sh HOT_MB), the ranges of the data file after it are read
but never turn hot: they count as cold ranges, as the never-read file."""

import glob
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CONFIGS = ("hot_move", "hot_track", "bound")
TARGET = 0.8


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


def settled(ys):
    n = len(ys)
    tail = ys[n - n // 3:] if n >= 3 else ys
    return sum(tail) / len(tail) if tail else 0.0


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    d = sys.argv[1]
    data = {c: series(d, c) for c in CONFIGS}
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for c in CONFIGS:
        xs, ys = data[c]
        if xs:
            ax.plot(xs, ys, label=c)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("read throughput (MB/s)")
    hot_mb = int(stats(d, "hot_move").get("hot_mb", 0) or 0)
    where = f" of the first {hot_mb} MiB" if hot_mb else ""
    ax.set_title("btrfs hot relocation: 4 KiB O_DIRECT reads, zipf 1.2 over "
                 f"1 MiB ranges{where}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(d, "hot-move.png"), dpi=100)

    bound = settled(data["bound"][1])
    lines = ["# btrfs hot relocation", ""]
    try:
        with open(os.path.join(d, "setup.txt")) as f:
            lines += ["```", f.read().rstrip(), "```", ""]
    except OSError:
        pass
    lines += ["| config | MB/s, whole run | MB/s, last third | of bound |",
              "| --- | --- | --- | --- |"]
    for c in CONFIGS:
        ys = data[c][1]
        if not ys:
            continue
        s = settled(ys)
        ratio = f"{s / bound:.0%}" if bound else "-"
        lines.append(f"| {c} | {sum(ys) / len(ys):.2f} | {s:.2f} | {ratio} |")
    lines.append("")
    st = stats(d, "hot_move")
    if st:
        data_map = st.get("data", "")
        cold_map = st.get("cold", "")
        on_ssd = lambda m: m.count("S") + m.count("M")  # noqa: E731
        lines += [
            "hot_move: promoted {} MiB, demoted {} MiB in {} runs; "
            "data file {} of {} MiB ranges on the SSD; cold file "
            "(never read) {} of {} MiB ranges on the SSD.".format(
                int(st.get("promoted_bytes", 0)) >> 20,
                int(st.get("demoted_bytes", 0)) >> 20, st.get("runs", "?"),
                on_ssd(data_map), len(data_map),
                on_ssd(cold_map), len(cold_map)),
            ""]
        if hot_mb:
            lines += [
                f"Hot set (first {hot_mb} MiB): {on_ssd(data_map[:hot_mb])} "
                f"of {len(data_map[:hot_mb])} ranges on the SSD; the rest of "
                f"the file (read, never hot): {on_ssd(data_map[hot_mb:])} of "
                f"{len(data_map[hot_mb:])}.", ""]
        hm = settled(data["hot_move"][1])
        if bound:
            ok = hm >= TARGET * bound
            lines.append(f"Target: hot_move settled at >= {TARGET:.0%} of the "
                         f"bound: {'met' if ok else 'NOT met'} "
                         f"({hm / bound:.0%}).")
        cold_moved = on_ssd(cold_map)
        if hot_mb:
            cold_moved += on_ssd(data_map[hot_mb:])
        lines.append("Target: no relocation of data that never turns hot: "
                     f"{'met' if cold_moved == 0 else 'NOT met'} "
                     f"({cold_moved} cold ranges moved).")
    lines.append("")
    lines.append("![throughput over time](hot-move.png)")
    with open(os.path.join(d, "hot-move.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
