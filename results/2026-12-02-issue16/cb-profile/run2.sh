#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Host profile of compilebench alone, two configurations side by side (one
# guest per host CPU, marks in step), the CPUs swapped every round:
# run2.sh ROUNDS FS MODE_A:KERNEL_A MODE_B:KERNEL_B (MODE: on, off, base)
cd /work/main || exit 1
rounds=$1 fs=$2 a=$3 b=$4
out=build/perf-cb
for r in $(seq 1 $rounds); do
	sync; echo 3 > /proc/sys/vm/drop_caches
	i=0
	for x in $a $b; do
		m=${x%%:*} k=${x#*:}
		if [ $x = $a ]; then peer=${b%%:*}; else peer=${a%%:*}; fi
		c=$(((i + r) % 2)); i=$((i + 1))
		rm -rf $out/$fs-$m-$r-out; mkdir -p $out/$fs-$m-$r-out $out/sync2-$r
		perf record -q -e cpu-clock -F 1999 -o $out/$fs-$m-$r.data -- \
			scripts/guest-run -k $k/linux -c 1 -t 1800 -P $c -C \
			-B $out/sync2-$r:$m:$peer \
			-n pcb-$m -d data:4G \
			build/linux/tools/testing/hot_track/guest-bench.sh \
			$m $fs /work/main/$out/$fs-$m-$r-out 300 64m JOBS=4 \
			WORKLOADS=compilebench WORK=fixed CB_RUNS=4 CB_INITIAL=1 \
			CB_SCALE=0.5 WRITEBACK=sync > $out/$fs-$m-$r.log 2>&1 &
	done
	wait
	for x in $a $b; do m=${x%%:*}; cp build/runs/pcb-$m/cpu.log $out/$fs-$m-$r.cpu.log; done
	echo "round $r done $(date +%T)"
	rm -f build/runs/pcb-*/data.img
done
