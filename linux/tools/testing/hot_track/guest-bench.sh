#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh MODE FS OUTDIR [RUNTIME] [SIZE] [NAME=VALUE...] [WORKLOAD...]:
# one sample of the overhead benchmark, run inside the guest (or as root on a
# test machine).  Makes FS on $DISK_data, mounts it with hot_track when MODE
# is "on" (not for "off" and "base") and runs the workloads on it, the page
# cache dropped before each, their files removed after each.  One result file
# per workload and thread count in OUTDIR:
#
#   <fio job file>-j<N>.json   fio's JSON output (fio/*.fio, ffsb/*.fio)
#   fs_mark-j<N>.txt           fs_mark's output
#   compilebench.json          compilebench.py's output
#   times.txt                  seconds each run took
#   cpu-guest.txt              the guest's CPU time of each run, in ticks
#                              of USER_HZ (user, nice, system, irq,
#                              softirq and steal of /proc/stat)
#   io.txt                     per run, what bounds the calls of the
#                              tracking hooks and the update passes'
#                              work: read bios and pages written on the
#                              disk, update passes, items (report.py)
#
# RUNTIME (default 10) is the time of each timed fio group, SIZE (256m) the
# size of the file of each fio job and of the FFSB large files.  Settings come
# from the environment or from NAME=VALUE arguments (the UML guest sees only
# arguments; lists take commas):
#
#   WORK       "time" (default): the fio groups run for RUNTIME seconds
#              each, and their rates are the result; "fixed": every fio job
#              does a fixed amount of work, one pass over its files (RUNTIME
#              only caps it), so that the CPU time a run takes is the result
#              (scripts/bench.sh cpu).  In both, with $HT_MARKS set (a host
#              directory: scripts/guest-run -C), each run is marked
#              "<n>-<workload>[-j<N>]-start" after the page cache is dropped
#              and "-end" after its data is written back (sync), and the
#              host logs the guest's CPU time at each mark
#   WRITEBACK  "periodic" (default): the kernel's writeback settings;
#              "sync": no periodic writeback (the flusher, xfs's log
#              worker; ext4's and btrfs's journal commit every 300 s)
#              and room for dirty pages up to 80 % of memory, so that
#              data goes out at each run's sync, not when a timer fires:
#              the work a run does depends less on time (scripts/bench.sh
#              cpu)
#   WORKLOADS  which workloads, in this order (default: all); WORKLOAD
#              arguments too.  fio/ and ffsb/ job file names, fs_mark,
#              compilebench
#   JOBS       thread counts for the workloads that have threads (default 4,
#              the 2012 report's); the others run once
#   SPACE      the most the files of fio/ may take (2g): SIZE is made
#              smaller when the 4 x JOBS files of SIZE (four groups of
#              JOBS jobs, a file each) do not fit
#   DATASET    the FFSB large-file data set (1g), in files of SIZE, smaller
#              when JOBS of them do not fit
#   MAILFILES  files per thread of mail_server (1000); MIXFILES of mixed (100)
#   FSMARK_FILES  files per thread and iteration (fs_mark -n, 1000);
#   FSMARK_LOOPS  iterations (fs_mark -L, 10)
#   CB_SRC     compilebench's kernel tree (default $HT_TOP/build/base-tree);
#   CB_DIRS    its top-level directories used
#              (block,init,ipc,kernel,mm,lib,fs,net, about 110 MB);
#   CB_SCALE   the fraction of their files (1); CB_INITIAL trees created at
#              first (3); CB_RUNS rounds of its other phases (1)
set -euo pipefail
[ $# -ge 3 ] || { sed -n '4,/^set -e/p' "$0" | sed '$d' >&2; exit 2; }
mode=$1 fs=$2 out=$3
shift 3
RUNTIME=10 SIZE=256m
if [[ ${1:-} =~ ^[0-9]+$ ]]; then
	RUNTIME=$1
	shift
	if [[ ${1:-} =~ ^[0-9]+[kKmMgG]?$ ]]; then
		SIZE=$1
		shift
	fi
fi
export RUNTIME SIZE
here=$(cd "$(dirname "$0")" && pwd)
mnt=/mnt/bench
all="seed buffered large_file_create large_file_seq_read random_read
     random_write mail_server mixed fs_mark compilebench"

WORKLOADS=${WORKLOADS:-} JOBS=${JOBS:-4} SPACE=${SPACE:-2g}
DATASET=${DATASET:-1g}
MAILFILES=${MAILFILES:-1000} MIXFILES=${MIXFILES:-100}
FSMARK_FILES=${FSMARK_FILES:-1000} FSMARK_LOOPS=${FSMARK_LOOPS:-10}
CB_SRC=${CB_SRC:-${HT_TOP:-}/build/base-tree}
CB_DIRS=${CB_DIRS:-block,init,ipc,kernel,mm,lib,fs,net}
CB_SCALE=${CB_SCALE:-1}
CB_INITIAL=${CB_INITIAL:-3} CB_RUNS=${CB_RUNS:-1}
WORK=${WORK:-time} WRITEBACK=${WRITEBACK:-periodic}
wl=
for a in "$@"; do
	case $a in
	WORKLOADS=* | JOBS=* | SPACE=* | DATASET=* | MAILFILES=* | \
	MIXFILES=* | FSMARK_FILES=* | FSMARK_LOOPS=* | CB_SRC=* | CB_DIRS=* | \
	CB_SCALE=* | CB_INITIAL=* | CB_RUNS=* | WORK=* | WRITEBACK=*)
		declare "$a" ;;
	*=*) echo "guest-bench: unknown setting $a" >&2; exit 2 ;;
	*) wl="$wl $a" ;;
	esac
done
WORKLOADS=${wl:-${WORKLOADS:-$all}}
WORKLOADS=${WORKLOADS//,/ } JOBS=${JOBS//,/ }
case $WORK in
time | fixed) ;;
*) echo "guest-bench: WORK is time or fixed" >&2; exit 2 ;;
esac
case $WRITEBACK in
periodic | sync) ;;
*) echo "guest-bench: WRITEBACK is periodic or sync" >&2; exit 2 ;;
esac

# A size with an optional k, m or g suffix, in bytes.
bytes()
{
	local n=${1%[kKmMgG]}

	case $1 in
	*[kK]) echo $((n << 10)) ;;
	*[mM]) echo $((n << 20)) ;;
	*[gG]) echo $((n << 30)) ;;
	*) echo "$n" ;;
	esac
}

jobfile()
{
	local f

	for f in "$here/fio/$1.fio" "$here/ffsb/$1.fio"; do
		[ -e "$f" ] && { echo "$f"; return; }
	done
	return 1
}

# The job file as run: with a fixed amount of work, without time_based, so
# that each job ends after one pass over its files (or at RUNTIME).
jobfile_run()
{
	local f

	f=$(jobfile "$1")
	if [ "$WORK" = fixed ]; then
		sed '/^time_based/d' "$f" > "/tmp/guest-bench-$1.fio"
		f=/tmp/guest-bench-$1.fio
	fi
	echo "$f"
}

# The guest's CPU time so far, in USER_HZ ticks: user, nice, system, irq,
# softirq and steal of /proc/stat's first line.
cpu_ticks()
{
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9; exit }' /proc/stat
}

# The disk's read bios (reads completed and merged) and pages written
# (sectors / 8), from /proc/diskstats, and hot_track's update passes and
# items (inodes and ranges) where the filesystem tracks: "RB WP PASSES
# ITEMS".  Each read hook call records at least one bio, each write or
# writeback call at least one page.
io_snap()
{
	local dev=${DISK_data#/dev/} stats passes=0 items=0

	for stats in /sys/kernel/debug/hot_track/*/stats; do
		[ -r "$stats" ] || continue
		passes=$(awk '$1 == "passes" { print $2 }' "$stats")
		items=$(awk '$1 == "inodes" || $1 == "ranges" { n += $2 }
			     END { print n + 0 }' "$stats")
	done
	awk -v d="$dev" -v p="$passes" -v i="$items" \
		'$3 == d { print $4 + $5, int($10 / 8), p, i }' /proc/diskstats
}

# Mark a point of the work for the host (scripts/guest-run -C): a file
# renamed into $HT_MARKS, which the host logs with the CPU time used so far
# and then removes.  Waits until it has, so that the time read is now's.
nmark=0
mark()
{
	local name i

	[ -n "${HT_MARKS:-}" ] || return 0
	nmark=$((nmark + 1))
	name=$(printf '%03d-%s' "$nmark" "$1")
	: > "$HT_MARKS/.mark"
	mv "$HT_MARKS/.mark" "$HT_MARKS/$name"
	for ((i = 0; i < 6000; i++)); do
		[ -e "$HT_MARKS/$name" ] || return 0
		sleep 0.01
	done
	# The rest of the run still counts: its rates, the guest's ticks.
	echo "guest-bench: the host did not take mark $name: no more marks" >&2
	HT_MARKS=
}

for w in $WORKLOADS; do
	case $w in
	fs_mark | compilebench) ;;
	*) jobfile "$w" >/dev/null ||
		{ echo "guest-bench: unknown workload $w" >&2; exit 2; } ;;
	esac
done

case $mode in
base | off | on) ;;
*) echo "guest-bench: MODE is base, off or on" >&2; exit 2 ;;
esac
case $fs in
# ext4 zeroes its inode tables and journal at mkfs, not in the background
# during the first workloads.
ext4) mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$DISK_data" ;;
xfs) mkfs.xfs -q -f "$DISK_data" ;;
btrfs) mkfs.btrfs -q -f "$DISK_data" >/dev/null ;;
*) echo "guest-bench: unknown filesystem $fs" >&2; exit 2 ;;
esac
if [ "$WRITEBACK" = sync ]; then
	sysctl -q vm.dirty_writeback_centisecs=0 \
		vm.dirty_expire_centisecs=360000 \
		vm.dirty_background_ratio=50 vm.dirty_ratio=80
	[ "$fs" != xfs ] || sysctl -q fs.xfs.xfssyncd_centisecs=720000
fi
mkdir -p "$mnt" "$out"
opts=
[ "$mode" = on ] && opts=hot_track
# ext4's and btrfs's journal commits every 5 and 30 s: every 300 s.
[ "$WRITEBACK" = periodic ] || [ "$fs" = xfs ] || opts=${opts:+$opts,}commit=300
mount -t "$fs" ${opts:+-o "$opts"} "$DISK_data" "$mnt"
grep " $mnt " /proc/mounts

fresh()
{
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# Remove what a workload left, but the FFSB large files when the next
# workload reads them.
clean()
{
	local keep=

	case $1 in
	large_file_seq_read | random_read | random_write) keep=ffsb-large ;;
	esac
	find "$mnt" -mindepth 1 -maxdepth 1 ! -name "${keep:-lost+found}" \
		! -name lost+found -exec rm -rf {} +
}

run()
{
	local w=$1 n=$2 next=$3 start ms ticks io

	fresh
	io=$(io_snap)
	mark "$w${n:+-j$n}-start"
	ticks=$(cpu_ticks)
	start=$(date +%s%N)
	echo "guest-bench: $w${n:+ j$n}"
	case $w in
	fs_mark)
		local dirs=() i
		mkdir -p "$mnt/fs_mark"
		for ((i = 0; i < n; i++)); do
			dirs+=(-d "$mnt/fs_mark/$i")
		done
		fs_mark -D 100 -S 0 -n "$FSMARK_FILES" -s 1 -L "$FSMARK_LOOPS" \
			-l /tmp/fs_mark.log "${dirs[@]}" > "$out/fs_mark-j$n.txt"
		;;
	compilebench)
		python3 "$here/compilebench.py" -D "$mnt/compilebench" \
			--src "$CB_SRC" --dirs "$CB_DIRS" --scale "$CB_SCALE" \
			--initial "$CB_INITIAL" --runs "$CB_RUNS" \
			${HT_MARKS:+--marks "$HT_MARKS"} \
			-o "$out/compilebench.json"
		;;
	*)
		fio --output-format=json --output="$out/$w-j$n.json" \
			--directory="$mnt" "$(jobfile_run "$w")"
		;;
	esac
	# What the workload left dirty is part of its cost: writeback is
	# where hot_track records writes.
	sync
	ms=$((($(date +%s%N) - start) / 1000000))
	ticks=$(($(cpu_ticks) - ticks))
	mark "$w${n:+-j$n}-end"
	# Deltas, but the most items seen: what one update pass went over.
	echo "$w${n:+-j$n} $io $(io_snap)" | awk '{
		print $1, $6 - $2, $7 - $3, $8 - $4, ($9 > $5 ? $9 : $5) }' \
		>> "$out/io.txt"
	printf '%s%s %d.%03d\n' "$w" "${n:+ j$n}" $((ms / 1000)) $((ms % 1000)) |
		tee -a "$out/times.txt"
	echo "$w${n:+ j$n} $ticks" >> "$out/cpu-guest.txt"
	clean "$next"
}

: > "$out/times.txt"
: > "$out/cpu-guest.txt"
: > "$out/io.txt"
size=$(bytes "$SIZE") space=$(bytes "$SPACE") dataset=$(bytes "$DATASET")
for n in $JOBS; do
	# Sizes in MiB, at least 1; the four groups of fio/ keep their files.
	s=$(((size < space / (4 * n) ? size : space / (4 * n)) >> 20))
	s=$((s > 0 ? s : 1))
	f=$(((s << 20) < dataset / n ? s : (dataset / n) >> 20))
	f=$((f > 0 ? f : 1))
	files=$(((dataset >> 20) / (n * f)))
	export JOBS=$n SIZE=${s}m FILESIZE=${f}m FILES=$((files > 0 ? files : 1))
	export MAILFILES MIXFILES
	set -- $WORKLOADS
	while [ $# -gt 0 ]; do
		w=$1
		shift
		[ "$w" = compilebench ] || run "$w" "$n" "${1:-}"
	done
done
for w in $WORKLOADS; do
	[ "$w" != compilebench ] || run "$w" "" ""
done
umount "$mnt"
