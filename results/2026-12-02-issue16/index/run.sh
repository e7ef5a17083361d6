#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The hot_track_benchmark KUnit suite on two kernels in turn, as bench.sh's
# micro step runs it: run.sh OUT RUNS NAME=BUILD_DIR...
set -euo pipefail
top=/work/main
out=$1 runs=$2; shift 2
for i in $(seq "${FIRST:-1}" $((${FIRST:-1} + runs - 1))); do
	for ncpu in 1 2; do
		for kv in "$@"; do
			name=${kv%%=*} dir=${kv#*=}
			mkdir -p "$out/$name"
			echo "run $i ${ncpu}cpu $name $(date +%T)"
			(cd $top/build/linux && timeout 960 python3 \
				tools/testing/kunit/kunit.py exec --arch=um \
				--build_dir="$dir" --timeout=900 \
				--kernel_args=ncpus=$ncpu --kernel_args=seccomp=on \
				hot_track_benchmark >/dev/null) || echo "run failed"
			cp "$dir/test.log" "$out/$name/${ncpu}cpu-$i.log"
		done
	done
done
