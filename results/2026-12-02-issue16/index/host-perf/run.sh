#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host-side profile of the UML guest, as results/2026-12-01-issue16/host-perf
# /run.sh, with the kernel as the first argument:
# run.sh KERNEL_BUILD_DIR CONFIG... (CONFIG: FS-on or FS-off, any suffix).
cd /work/main || exit 1
kern=$1; shift
for cfg in "$@"; do
	fs=${cfg%%-*} mode=${cfg#*-} mode=${mode%%-*} mode=${mode%%[0-9]*}
	rm -rf build/perf/$cfg-out; mkdir -p build/perf/$cfg-out
	perf record -q -e cpu-clock -F 1999 -o build/perf/$cfg.data -- \
		taskset -c 1 scripts/guest-run -k $kern/linux -c 1 -t 1800 \
		-n perf-$cfg -d data:4G build/linux/tools/testing/hot_track/guest-bench.sh \
		$mode $fs /work/main/build/perf/$cfg-out 300 64m JOBS=4 \
		WORKLOADS=fs_mark,compilebench WORK=fixed FSMARK_LOOPS=10 \
		CB_RUNS=2 CB_INITIAL=1 CB_SCALE=0.5 WRITEBACK=sync
	echo "$cfg rc=$?"
	rm -f build/runs/perf-$cfg/data.img
done
