#!/bin/bash
# Host-side profile of the UML guest (the UML kernel is a host process):
# fs_mark and compilebench with hot_track on and off, the same kernel,
# on $FS (xfs by default): run.sh CONFIG... (on or off, with any suffix).
cd /work/main || exit 1
for cfg in "$@"; do
	mode=${cfg##*-} mode=${mode%%[0-9]*}
	rm -rf build/perf/$cfg-out; mkdir -p build/perf/$cfg-out
	perf record -q -e cpu-clock -F 1999 -o build/perf/$cfg.data -- \
		taskset -c 1 scripts/guest-run -k build/uml-bench/linux -c 1 -t 1800 \
		-n perf-$cfg -d data:4G build/linux/tools/testing/hot_track/guest-bench.sh \
		$mode ${FS:-xfs} /work/main/build/perf/$cfg-out 300 64m JOBS=4 \
		WORKLOADS=fs_mark,compilebench WORK=fixed FSMARK_LOOPS=10 \
		CB_RUNS=2 CB_INITIAL=1 CB_SCALE=0.5 WRITEBACK=sync
	echo "$cfg rc=$?"
	rm -f build/runs/perf-$cfg/data.img
done
