#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [-n] [quick|full]: the benchmarks of tools/testing/hot_track/.
# Builds the unpatched base kernel and the patched one from the same config
# (config/uml.config, no debugging options; the patched one with the KUnit
# benchmarks, config/bench.config), then runs three steps (STEPS):
#
#   overhead  the workloads in the UML guest on the same disk image,
#             interleaved in rotating order (base off on, off on base, on base
#             off, ...), the host's caches dropped before each run
#                                                    -> <fs>-<n>cpu/
#   micro     the hot_track_benchmark KUnit suite, MICRO_RUNS boots at 1
#             and at 2 CPUs                          -> micro/micro.md
#   accuracy  accuracy.py on each filesystem, with the update worker every
#             second                                 -> accuracy-<fs>/
#   hot_move  btrfs hot relocation: zipf reads from a slow (dm-delay)
#             rotational disk with hot_move, without, and all on the SSD
#             (guest-hot-move.sh, HM_RUNTIME s each), a hot set that fits
#             the SSD                                 -> hot-move/
#             and in full mode one larger than it     -> hot-move-large/
#
# Results in build/bench/<date>-<mode>/.  Prints an estimate of the
# duration of the overhead step first (-n: only that); micro takes about a
# minute per 10 boots, accuracy about 2.5 minutes per filesystem.
#
#   quick  every workload, xfs, 2 CPUs, 4 threads, 3 rounds, 5 s per timed
#          fio group, files of 128m (~22 minutes); 3 micro runs per CPU
#          count; accuracy on xfs, ext4, btrfs    (~32 minutes in all)
#   full   every workload, xfs ext4 btrfs, 1 and 2 CPUs, 1 2 4 8 threads,
#          5 rounds, 10 s per timed fio group, files of 512m (~22 hours);
#          10 micro runs; accuracy on each filesystem at zipf s = 1.0 and
#          1.1 and at 2000 and 250 reads/s
#
# The environment can change a mode's settings: STEPS, MICRO_RUNS, ROUNDS,
# FSES, CPUS, JOBS,
# RUNTIME, SIZE, WORKLOADS (of guest-bench.sh), GUEST_ARGS (more NAME=VALUE
# settings of guest-bench.sh); BENCH_BUILD=0 uses the kernels already built,
# BENCH_SUITE another copy of the suite, BENCH_OUT another results directory,
# BENCH_NAME another prefix for the guest runs' names
# (build/runs/<name>-<config>), BENCH_TOP another tree.
set -euo pipefail
top=${BENCH_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"
dry=0
[ "${1:-}" = -n ] && { dry=1; shift; }
mode=${1:-quick}
all="seed buffered large_file_create large_file_seq_read random_read
     random_write mail_server mixed fs_mark compilebench"
case $mode in
quick)
	rounds=3 fses=xfs cpus=2 jobs=4 runtime=5 size=128m
	args="DATASET=1g FSMARK_LOOPS=10 CB_RUNS=2"
	micro_runs=3 acc_fses="xfs ext4 btrfs" acc_sets="-s1.1"
	hm_runtime=240
	;;
full)
	rounds=5 fses="xfs ext4 btrfs" cpus="1 2" jobs="1 2 4 8"
	runtime=10 size=512m
	args="DATASET=2g FSMARK_LOOPS=20 CB_RUNS=3"
	micro_runs=10 acc_fses="xfs ext4 btrfs"
	acc_sets="-s1.1 -s1.0 -s1.1,-r250"
	hm_runtime=600
	;;
*) echo "bench: quick or full" >&2; exit 2 ;;
esac
rounds=${ROUNDS:-$rounds} fses=${FSES:-$fses} cpus=${CPUS:-$cpus}
jobs=${JOBS:-$jobs} runtime=${RUNTIME:-$runtime} size=${SIZE:-$size}
workloads=${WORKLOADS:-$all}
steps=${STEPS:-overhead micro accuracy hot_move} micro_runs=${MICRO_RUNS:-$micro_runs}
hm_runtime=${HM_RUNTIME:-$hm_runtime}
args="$args ${GUEST_ARGS:-}"
suite=${BENCH_SUITE:-$top/build/linux/tools/testing/hot_track}
name=${BENCH_NAME:-bench}

# Seconds one guest run takes, from what each workload took at the quick
# settings on a 2-CPU machine (guest-bench.sh's times.txt): fio lays out
# files at about 75 MiB/s or 750 small files/s, large_file_create writes
# 200 MiB/s, fs_mark 9000 files/s; 6 s to boot, make and mount.  Guests with
# 1 CPU, ext4 and btrfs take somewhat longer.
estimate()
{
	awk -v rt="$runtime" -v size="$size" -v jobs="$jobs" \
	    -v wl="$workloads" -v args="$args" '
	function mib(s) {
		if (s ~ /[gG]$/) return s * 1024
		if (s ~ /[mM]$/) return s + 0
		if (s ~ /[kK]$/) return s / 1024
		return s / 1048576
	}
	BEGIN {
		set["DATASET"] = "1g"; set["SPACE"] = "2g"
		set["MAILFILES"] = 1000; set["MIXFILES"] = 100
		set["FSMARK_FILES"] = 1000; set["FSMARK_LOOPS"] = 10
		set["CB_RUNS"] = 1; set["CB_SCALE"] = 1
		n = split(args, a, " ")
		for (i = 1; i <= n; i++)
			if (split(a[i], kv, "=") == 2)
				set[kv[1]] = kv[2]
		nw = split(wl, w, /[ ,]+/)
		nj = split(jobs, j, /[ ,]+/)
		t = 6
		for (k = 1; k <= nw; k++) {
			if (w[k] == "compilebench") {
				t += set["CB_SCALE"] * (8 + 12 * set["CB_RUNS"])
				continue
			}
			for (m = 1; m <= nj; m++) {
				jn = j[m]
				if (jn == "")
					continue
				s = mib(size)
				if (s * jn > mib(set["SPACE"]))
					s = mib(set["SPACE"]) / jn
				if (w[k] == "seed" || w[k] == "buffered")
					t += 4 * rt + jn * s / 75 + 1
				else if (w[k] == "large_file_create")
					t += mib(set["DATASET"]) / 200
				else if (w[k] == "random_write")
					t += rt + 1.2
				else if (w[k] == "mail_server")
					t += rt + jn * set["MAILFILES"] / 750 + 0.5
				else if (w[k] == "mixed")
					t += rt + jn * set["MIXFILES"] / 75 + 1
				else if (w[k] == "fs_mark")
					t += jn * set["FSMARK_FILES"] * \
					     set["FSMARK_LOOPS"] / 9000 + 0.5
				else
					t += rt + 0.6
			}
		}
		printf "%d\n", t
	}'
}

per=$(estimate)
nf=$(echo $fses | wc -w) nc=$(echo $cpus | wc -w)
runs=$((nf * nc * rounds * 3))
total=$((runs * per))
printf 'bench: %s: %s on %s, %s CPUs, jobs %s, %d rounds of %ss, %s\n' \
	"$mode" "$(echo $workloads)" "$(echo $fses)" "$(echo $cpus)" \
	"$(echo $jobs)" "$rounds" "$runtime" "files of $size"
printf 'bench: %d guest runs of about %d s: about %dh%02d (without builds)\n' \
	"$runs" "$per" $((total / 3600)) $((total % 3600 / 60))
[ $dry = 0 ] || exit 0

if [ "${BENCH_BUILD:-1}" != 0 ]; then
	# The base kernel from a worktree of the base commit.
	[ -d build/base-tree ] ||
		git -C build/linux worktree add -q --detach ../base-tree \
			hot-track-base
	scripts/build-kernel.sh build/base-tree build/uml-base \
		config/uml.config >/dev/null
	scripts/build-kernel.sh build/linux build/uml-bench config/uml.config \
		config/hot_track.config config/bench.config >/dev/null
fi
has()
{
	[[ " $steps " == *" $1 "* ]]
}

# guest-bench.sh takes lists with commas.
gargs="JOBS=$(echo $jobs | tr ' ' ,) WORKLOADS=$(echo $workloads | tr ' ' ,)"
gargs="$gargs $args"
timeout=$((per * 3 > 1800 ? per * 3 : 1800))
out=${BENCH_OUT:-$top/build/bench/$(date +%Y%m%d-%H%M%S)-$mode}
start=$(date +%s)
has overhead || fses=
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
			echo "run:       $mode, $rounds rounds, $runtime s per timed fio group, files of $size, $(date -u +%FT%TZ)"
			echo "suite:     $(echo $gargs)"
		} > "$dir/stamp.txt"
		for round in $(seq "$rounds"); do
			# A different order each round, so that no configuration
			# always runs first or after the same one.
			case $((round % 3)) in
			1) order="base off on" ;;
			2) order="off on base" ;;
			0) order="on base off" ;;
			esac
			for cfg in $order; do
				# The same host state for every run: the last
				# run's disk image written out and evicted.
				sync
				echo 3 > /proc/sys/vm/drop_caches 2>/dev/null || true
				k=build/uml-bench/linux
				[ $cfg = base ] && k=build/uml-base/linux
				echo "bench: $fs ${ncpu}cpu round $round $cfg ($(($(date +%s) - start))s)"
				# shellcheck disable=SC2086
				scripts/guest-run -k "$k" -c "$ncpu" -t "$timeout" \
					-n "$name-$cfg" -d data:4G \
					"$suite/guest-bench.sh" $cfg $fs \
					"$dir/$round-$cfg" "$runtime" "$size" \
					$gargs >/dev/null
				rm -f "build/runs/$name-$cfg/data.img"
			done
		done
		/usr/bin/python3 "$suite/report.py" "$dir" > /dev/null
		echo "bench: $dir/report.md"
	done
done
stamp()
{
	echo "patched:   $(strings build/uml-bench/linux | grep -m1 '^Linux version')"
	echo "series:    $(git -C build/linux rev-parse --short HEAD) on hot-track-base"
	echo "config:    config/uml.config + config/hot_track.config + config/bench.config"
	echo "machine:   $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/ {print $2}') GiB, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "run:       $mode, $(date -u +%FT%TZ)"
}

if has micro; then
	mkdir -p "$out/micro"
	stamp > "$out/micro/stamp.txt"
	for ncpu in 1 2; do
		for i in $(seq "$micro_runs"); do
			echo "bench: micro ${ncpu}cpu run $i ($(($(date +%s) - start))s)"
			(cd build/linux && python3 tools/testing/kunit/kunit.py exec \
				--arch=um --build_dir="$top/build/uml-bench" \
				--timeout=900 --kernel_args=ncpus=$ncpu \
				--kernel_args=seccomp=on hot_track_benchmark \
				>/dev/null)
			cp build/uml-bench/test.log "$out/micro/${ncpu}cpu-$i.log"
		done
	done
	python3 "$suite/micro.py" "$out/micro/micro.md" "$out"/micro/*.log \
		>/dev/null
	echo "bench: $out/micro/micro.md"
fi

if has accuracy; then
	for fs in $acc_fses; do
		for set in $acc_sets; do
			# shellcheck disable=SC2086
			opts=$(echo $set | tr , ' ')
			dir=$out/accuracy-$fs-$(echo $set | tr -d ' -' | tr , -)
			mkdir -p "$dir"
			stamp > "$dir/stamp.txt"
			echo "bench: accuracy $fs $opts ($(($(date +%s) - start))s)"
			# shellcheck disable=SC2086
			scripts/guest-run -k build/uml-bench/linux -c 2 -t 1200 \
				-n "$name-accuracy" -d data:4G \
				"$suite/guest-accuracy.sh" "$fs" "$dir" $opts \
				>/dev/null
			/usr/bin/python3 "$suite/plot-accuracy.py" "$dir" >/dev/null
			echo "bench: $dir/accuracy.png"
		done
	done
fi

if has hot_move; then
	make -s tools >/dev/null
	# A hot set that fits the SSD (the 512 MiB head of a 2 GiB file), at
	# the kernel's default threshold; in full mode also zipf reads over
	# the whole file, larger than the SSD.  The SSD has 1.25 GiB: hot_move
	# keeps room on it for a metadata and a system chunk (about 290 MiB
	# here) and fills the rest up to the high watermark (90 %), which in
	# 1 GiB would hold 425 MiB of data, less than the hot set.
	hm_sets="hot-move:default:512"
	[ "$mode" = full ] && hm_sets="$hm_sets hot-move-large:0x7c000000:0"
	for spec in $hm_sets; do
		IFS=: read -r sub promote hot <<< "$spec"
		dir=$out/$sub
		mkdir -p "$dir"
		stamp > "$dir/stamp.txt"
		echo "bench: $sub, 3 x ${hm_runtime}s ($(($(date +%s) - start))s)"
		scripts/guest-run -k build/uml-bench/linux -c 2 \
			-t $((hm_runtime * 3 + 900)) -n "$name-$sub" \
			-d hdd:4G -d ssd:1280M -d fast:4G \
			"$suite/guest-hot-move.sh" "$dir" "$hm_runtime" 2048 1 \
			hot_move,hot_track,bound "$promote" "$hot" >/dev/null
		rm -f build/runs/"$name-$sub"/*.img
		/usr/bin/python3 "$suite/plot-hot-move.py" "$dir" >/dev/null
		echo "bench: $dir/hot-move.md"
	done
fi
echo "bench: results in $out ($(($(date +%s) - start))s)"
