#!/bin/bash
# host profile of the hot_move step's configs, one boot each
cd /work/main || exit 1
for cfg in "$@"; do
	rm -rf build/perf/hm/$cfg-out; mkdir -p build/perf/hm/$cfg-out
	perf record -q -e cpu-clock -F 999 -o build/perf/hm/$cfg.data -- \
	scripts/guest-run -k build/uml-bench/linux -c 2 -t 1800 -n perf-hm-$cfg \
		-d hdd:4G -d ssd:1280M -d fast:4G \
		build/linux/tools/testing/hot_track/guest-hot-move.sh \
		/work/main/build/perf/hm/$cfg-out 240 2048 1 $cfg default 512 10
	echo "$cfg rc=$?"
	rm -f build/runs/perf-hm-$cfg/*.img
done
