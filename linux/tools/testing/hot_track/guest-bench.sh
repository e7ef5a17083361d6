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
#
# RUNTIME (default 10) is the time of each timed fio group, SIZE (256m) the
# size of the file of each fio job and of the FFSB large files.  Settings come
# from the environment or from NAME=VALUE arguments (the UML guest sees only
# arguments; lists take commas):
#
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
wl=
for a in "$@"; do
	case $a in
	WORKLOADS=* | JOBS=* | SPACE=* | DATASET=* | MAILFILES=* | \
	MIXFILES=* | FSMARK_FILES=* | FSMARK_LOOPS=* | CB_SRC=* | CB_DIRS=* | \
	CB_SCALE=* | CB_INITIAL=* | CB_RUNS=*)
		declare "$a" ;;
	*=*) echo "guest-bench: unknown setting $a" >&2; exit 2 ;;
	*) wl="$wl $a" ;;
	esac
done
WORKLOADS=${wl:-${WORKLOADS:-$all}}
WORKLOADS=${WORKLOADS//,/ } JOBS=${JOBS//,/ }

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
ext4) mkfs.ext4 -q -F "$DISK_data" ;;
xfs) mkfs.xfs -q -f "$DISK_data" ;;
btrfs) mkfs.btrfs -q -f "$DISK_data" >/dev/null ;;
*) echo "guest-bench: unknown filesystem $fs" >&2; exit 2 ;;
esac
mkdir -p "$mnt" "$out"
opts=
[ "$mode" = on ] && opts=-ohot_track
mount -t "$fs" $opts "$DISK_data" "$mnt"
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
	local w=$1 n=$2 next=$3 start ms

	fresh
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
			-o "$out/compilebench.json"
		;;
	*)
		fio --output-format=json --output="$out/$w-j$n.json" \
			--directory="$mnt" "$(jobfile "$w")"
		;;
	esac
	ms=$((($(date +%s%N) - start) / 1000000))
	printf '%s%s %d.%03d\n' "$w" "${n:+ j$n}" $((ms / 1000)) $((ms % 1000)) |
		tee -a "$out/times.txt"
	clean "$next"
}

: > "$out/times.txt"
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
