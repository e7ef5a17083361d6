#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [quick|full]: the overhead benchmark.  Builds the unpatched base
# kernel and the patched one from the same config (config/uml.config, no
# debugging options), then runs the suite of tools/testing/hot_track/ in the
# UML guest on the same disk image, interleaved: base, off, on, base, ...
# Results and report in build/bench/<date>-<mode>/<fs>-<n>cpu/.
#
#   quick  xfs, 2 CPUs, 3 rounds of 5 s per fio group   (~15 minutes)
#   full   xfs ext4 btrfs, 1 and 2 CPUs, 10 rounds of 30 s (many hours)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
mode=${1:-quick}
case $mode in
quick) rounds=3 fses=xfs cpus=2 runtime=5 size=128m ;;
full) rounds=10 fses="xfs ext4 btrfs" cpus="1 2" runtime=30 size=512m ;;
*) echo "bench: quick or full" >&2; exit 2 ;;
esac

# The base kernel from a worktree of the base commit.
[ -d build/base-tree ] ||
	git -C build/linux worktree add -q --detach ../base-tree hot-track-base
scripts/build-kernel.sh build/base-tree build/uml-base config/uml.config >/dev/null
scripts/build-kernel.sh build/linux build/uml-bench config/uml.config \
	config/hot_track.config >/dev/null

suite=$top/build/linux/tools/testing/hot_track
out=$top/build/bench/$(date +%Y%m%d-%H%M%S)-$mode
for fs in $fses; do
	for ncpu in $cpus; do
		dir=$out/$fs-${ncpu}cpu
		mkdir -p "$dir"
		{
			echo "unpatched: $(strings build/uml-base/linux | grep -m1 '^Linux version')"
			echo "patched:   $(strings build/uml-bench/linux | grep -m1 '^Linux version')"
			echo "series:    $(git -C build/linux rev-parse --short HEAD) on hot-track-base"
			echo "config:    config/uml.config (+ config/hot_track.config), sha256 $(cat config/uml.config | sha256sum | cut -c1-12)"
			echo "guest:     UML, $ncpu CPUs, mem=2G, $fs on a 4 GiB ubd image (sparse file on the host's disk)"
			echo "machine:   $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB"
			echo "run:       $mode, $rounds rounds, $runtime s per fio group, files of $size, $(date -u +%FT%TZ)"
		} > "$dir/stamp.txt"
		for round in $(seq "$rounds"); do
			for cfg in base off on; do
				k=build/uml-bench/linux
				[ $cfg = base ] && k=build/uml-base/linux
				echo "bench: $fs ${ncpu}cpu round $round $cfg"
				scripts/guest-run -k "$k" -c "$ncpu" -t 1800 \
					-n "bench-$cfg" -d data:4G \
					"$suite/guest-bench.sh" $cfg $fs \
					"$dir/$round-$cfg" "$runtime" "$size" >/dev/null
			done
		done
		/usr/bin/python3 "$suite/report.py" "$dir"
	done
done
echo "bench: results in $out"
