#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-hot-move.sh OUTDIR [RUNTIME] [SIZE_MB] [DELAY_MS] [CONFIGS]
#		    [PROMOTE] [HOT_MB] [UPDATE_S]:
# the btrfs hot relocation benchmark, as root inside the guest (or on a test
# machine).
#
# A slow rotational disk: dm-delay over $DISK_hdd, DELAY_MS (default 4) on
# every read and write, marked rotational.  A non-rotational $DISK_ssd, and,
# for the bound, a second one, $DISK_fast, at least SIZE_MB + 1 GiB; for the
# oracle's pairs (below), $DISK_hdd2 and $DISK_ssd2 as $DISK_hdd and
# $DISK_ssd.  All are reformatted!
# The workload is fio/hot-move.fio: 4 KiB O_DIRECT random reads over one
# file of SIZE_MB (default 2048: larger than the SSD), its 1 MiB ranges as
# hot as with a zipf 1.2 distribution, RUNTIME seconds (default 240), the
# bandwidth logged every second.  With HOT_MB (default 0: the whole file),
# fio/hot-move-hotset.fio instead: the zipf reads over the first HOT_MB
# of the file only, the rest read by one thread at 10 reads/s.
# Beside it a file of SIZE_MB / 4 is written once and never read.  The
# update worker runs every UPDATE_S seconds (hot-update-delay, default 10,
# the kernel's default; restored after).  CONFIGS
# (default all three, comma separated):
#
#   hot_move   btrfs on the slow disk and the SSD, mount -o hot_move, a
#              relocation run every 5 s, promote_temp PROMOTE (default
#              0x7c000000, one access per 2 s; "default" keeps 0x82000000)
#   hot_track  the same filesystem, mount -o hot_track: nothing moves
#   bound      btrfs on $DISK_fast alone: everything on non-rotational
#              storage, the upper bound
#   oracle     the best static placement on disks like hot_move's (its
#              own, below, where it is the pairs' reference): the
#              hottest ranges that fit the SSD's share placed there first
#              (see oracle_place()), then the workload on a hot_track
#              mount, nothing moving: the bound for a hot set larger than
#              the SSD
#
# With hot_move before the reference in CONFIGS (the oracle if it is there,
# else the bound: pairs against the bound where the oracle runs too want
# two runs), the reference's filesystem is made first and stays
# mounted: the bound's on $DISK_fast; the oracle's, placed, on a second
# pair of disks like hot_move's, a dm-delay disk over $DISK_hdd2 and
# $DISK_ssd2, mounted -o hot_track.  After hot_move's run, PAIRS (a ninth
# argument, even, default 24; 0: none) pairs of windows of PAIR_S seconds
# (a tenth, default 5) run the workload on each filesystem in turn,
# hot_move's first in odd pairs, so that each order runs as often.
# Relocation runs every 5 s in hot_move's windows.  Before a window of the
# reference's that follows one of hot_move's, a long interval is set, and
# the window starts once the run that this starts (a write to a tunable
# starts one) has begun and the bytes hot_move moved have not changed for
# a second, and a second later.  The
# two windows of a pair are seconds apart: a drift of the guest's
# throughput over tens of seconds to minutes (between two levels 37 %
# apart on a UML guest, whatever it runs; the oracle's run fell to half
# its level in its last third on one host) biases their ratio less than
# that of two runs minutes apart.  The reference's own run comes after, on
# the same filesystem.
#
# OUTDIR/<config>_bw.*.log are fio's bandwidth logs, OUTDIR/<config>.json
# its results, OUTDIR/pair.<n>.<config>.json those of the windows and
# OUTDIR/pairs.txt their design (pairs, seconds, reference) and, per
# window, hot_move's runs and the bytes it had moved before and after;
# OUTDIR/<config>.txt what moved and where the files ended up (for the
# oracle, also how it placed them; for hot_move, after the pairs),
# OUTDIR/hot_move.progress the bytes promoted and used on the SSD, once a
# second while fio runs and the pairs.
# plot-hot-move.py turns them into a plot and a report.
set -euo pipefail
# A failure inside $(...) (make_oracle()) ends the script too.
shopt -s inherit_errexit
[ $# -ge 1 ] || { sed -n '4,67p' "$0"; exit 2; }
out=$(realpath -m "$1") runtime=${2:-240} size=${3:-2048} delay=${4:-4}
configs=${5:-hot_move,hot_track,bound} promote=${6:-0x7c000000}
hot=${7:-0} update=${8:-10} pairs=${9:-24} pair_s=${10:-5}
[[ $pairs =~ ^(0|[1-9][0-9]*)$ && $pair_s =~ ^[1-9][0-9]*$ ]] &&
	((pairs % 2 == 0)) ||
	{ echo "guest-hot-move: PAIRS not even, or PAIR_S not a number" >&2
	  exit 2; }
[ "$hot" -lt "$size" ] || { echo "guest-hot-move: HOT_MB >= SIZE_MB" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
# btrfs_where (selftests/hot_track): built in place, or in the UML
# harness's build directory, or as $BTRFS_WHERE.
where=${BTRFS_WHERE:-$here/../selftests/hot_track/btrfs_where}
[ -x "$where" ] || where=${HT_TOP:-}/build/selftests/btrfs_where
for cfg in ${configs//,/ }; do
	case $cfg in
	hot_move|hot_track|bound|oracle) ;;
	*) echo "guest-hot-move: unknown config $cfg" >&2; exit 2 ;;
	esac
done
mnt=/mnt/hot_move rmnt=/mnt/hot_move_ref
hdd=${DISK_hdd:?} ssd=${DISK_ssd:?} fast=${DISK_fast:-}
mkdir -p "$out" "$mnt"
# The reference of the pairs: the oracle after hot_move, else the bound.
ref=
case ",$configs," in
*,hot_move,*oracle,*) ref=oracle ;;
*,hot_move,*bound,*) ref=bound ;;
esac
[ "$pairs" -gt 0 ] || ref=
if [[ ,$configs, == *,bound,* && -z $fast ]]; then
	echo "guest-hot-move: the bound needs DISK_fast" >&2
	exit 2
fi
if [[ $ref == oracle && ( -z ${DISK_hdd2:-} || -z ${DISK_ssd2:-} ) ]]; then
	echo "guest-hot-move: the oracle's pairs need DISK_hdd2 and DISK_ssd2" >&2
	exit 2
fi
# No windows of an earlier run in OUTDIR to be judged as this one's.
rm -f "$out"/pairs.txt "$out"/pair.*

# rotational DEV 0|1: by device number, as DEV may be a device-mapper name.
rotational() {
	local n
	n=$(stat -L -c '%t:%T' "$1")
	echo "$2" > "/sys/dev/block/$((16#${n%:*})):$((16#${n#*:}))/queue/rotational"
}

# slow_disk NAME DEV: dm-delay NAME over DEV, DELAY_MS on every read and
# write.
slow_disk() {
	dmsetup remove "$1" 2>/dev/null || true
	dmsetup create --noudevsync "$1" --table \
		"0 $(blockdev --getsz "$2") delay $2 0 $delay $2 0 $delay"
	dmsetup mknodes "$1"
}

cleanup() {
	umount "$mnt" 2>/dev/null || true
	umount "$rmnt" 2>/dev/null || true
	dmsetup remove slow 2>/dev/null || true
	dmsetup remove slow2 2>/dev/null || true
}
slow_disk slow "$hdd"
slow=/dev/mapper/slow
trap cleanup EXIT

# not_on_ssd FILE N: which of the first N 1 MiB ranges of FILE are not all
# on the SSD, their indices on one line.
not_on_ssd() {
	"$where" "$1" | awk -v n="$2" '{ for (i = 1; i <= n; i++)
		if (substr($0, i, 1) != "S") printf "%d ", i - 1 }'
}

# heat FILE MB SECS: 4 KiB random reads spread evenly over the first MB of
# FILE for SECS, 4 threads, O_DIRECT and zero_buffers as in the workload
# (hot-move.fio).  As ranges reach the SSD their reads take next to no
# time, so those left on the slow disk are read ever more often.
heat() {
	fio --name=oracle-heat --filename="$1" --size="$2m" --ioengine=psync \
	    --direct=1 --zero_buffers=1 --rw=randread --bs=4k --randrepeat=0 \
	    --numjobs=4 --time_based --runtime="$3" --output=/dev/null
}

# oracle_place HM MNT: the oracle's placement of MNT/data, on a hot_move
# mount whose sysfs directory is HM.  The hottest ranges are known from the job:
# fio's zoned distribution gives each zone of the file a share of the reads,
# uniform within it, and the shares per MiB fall from one zone to the next,
# in both jobs (hot-move-hotset.fio reads the rest of the file too, more
# slowly than any hot zone), so the N hottest ranges are the first N.  N is
# what hot_move itself may fill: the SSD's data capacity (the room it keeps
# for metadata left out) up to the high watermark, less what it holds.
# They are placed by the series' own mechanism: read hot (heat()), and
# nothing else, with runs every second, until btrfs_where finds every one
# on the SSD; a fallback (the SSD full after all) or 300 s end it early.
# Logs how much fitted and what went where, as key value lines.
oracle_place() {
	local hm=$1 m=$2 t0=$SECONDS n total used high todo passes=0
	echo 0x7c000000 > "$hm/promote_temp"
	echo 1 > "$hm/interval"
	sleep 2		# a write to a tunable starts a run, which fills these
	total=$(cat "$hm/ssd_total_bytes") used=$(cat "$hm/ssd_used_bytes")
	high=$(cat "$hm/high_watermark")
	n=$(((total * high / 100 - used) >> 20))
	[ "$n" -le "$size" ] || n=$size
	while :; do
		# No process substitution: the guest may have no /dev/fd.
		read -r -a todo <<< "$(not_on_ssd "$m/data" "$n")"
		[ ${#todo[@]} -gt 0 ] || break
		[ "$(cat "$hm/fallback_bytes")" = 0 ] || break
		# At the high watermark hot_move promotes nothing more.
		used=$(cat "$hm/ssd_used_bytes")
		[ $((used * 100)) -lt $((total * high)) ] || break
		[ $((SECONDS - t0)) -lt 300 ] || break
		heat "$m/data" "$n" 10
		passes=$((passes + 1))
		sleep 2
	done
	echo "oracle_ranges $n"
	echo "oracle_unplaced ${#todo[@]}"
	echo "oracle_passes $passes"
	echo "oracle_seconds $((SECONDS - t0))"
	for f in ssd_total_bytes high_watermark metadata_reserve_bytes \
		 promoted_bytes demoted_bytes fallback_bytes ssd_used_bytes; do
		echo "oracle_$f $(cat "$hm/$f")"
	done
	echo "oracle_data $("$where" "$m/data")"
}

saved_update=$(cat /proc/sys/fs/hot-update-delay)
echo "$update" > /proc/sys/fs/hot-update-delay
sampler=
trap '[ -z "$sampler" ] || kill "$sampler" 2>/dev/null
      cleanup; echo "$saved_update" > /proc/sys/fs/hot-update-delay' EXIT
{
	cat /proc/version
	echo "cpus $(nproc), $(grep MemTotal /proc/meminfo)"
	echo "slow disk: dm-delay ${delay} ms over $hdd ($(blockdev --getsize64 "$hdd") bytes)"
	echo "ssd: $ssd ($(blockdev --getsize64 "$ssd") bytes), fast: ${fast:-none}"
	[ "$ref" != oracle ] ||
		echo "oracle: dm-delay over ${DISK_hdd2:-} and ${DISK_ssd2:-}"
	[ -z "$ref" ] || echo "pairs: $pairs of ${pair_s} s against $ref"
	echo "file ${size} MiB, cold file $((size / 4)) MiB, ${runtime} s, promote_temp $promote"
	echo "hot-update-delay ${update} s"
	[ "$hot" = 0 ] || echo "hot set: the first $hot MiB of the file"
} > "$out/setup.txt"

job=$here/fio/hot-move.fio
[ "$hot" = 0 ] || job=$here/fio/hot-move-hotset.fio
# write_data MNT: the data file and the never-read one, written once; then
# nothing is cached.
write_data() {
	dd if=/dev/urandom of="$1/data" bs=1M count="$size" status=none
	dd if=/dev/urandom of="$1/cold" bs=1M count=$((size / 4)) status=none
	sync
	echo 3 > /proc/sys/vm/drop_caches
}

# window CFG MNT N: window N of CFG's pairs, the workload for PAIR_S s
# (its bandwidth logs, once a second, are of no use here: in /tmp).
window() {
	(cd "$out" && FILE=$2/data SIZE=${size}m HOT=${hot}m \
		COLD=$((size - hot))m RUNTIME=$pair_s NAME=/tmp/hot-move-pair \
		fio --output-format=json --output="$out/pair.$3.$1.json" \
		    "$job") >/dev/null ||
		echo "guest-hot-move: window $3 of $1 failed" >&2
}

# moved: the bytes hot_move promoted and demoted so far.
moved() {
	echo $(($(cat "$hm/promoted_bytes") + $(cat "$hm/demoted_bytes")))
}

# run_pairs: the pairs of windows after hot_move's run (see the top), one
# line per window in pairs.txt: N CONFIG RUNS_BEFORE RUNS_AFTER
# MOVED_BEFORE MOVED_AFTER.
run_pairs() {
	local n c i r0 m0 m1 order relocating=1
	echo "guest-hot-move: $pairs pairs of ${pair_s} s windows against $ref"
	echo "$pairs $pair_s $ref" > "$out/pairs.txt"
	for ((n = 1; n <= pairs; n++)); do
		order="hot_move $ref"
		[ $((n % 2)) = 1 ] || order="$ref hot_move"
		for c in $order; do
			if [ "$c" = hot_move ] && [ "$relocating" = 0 ]; then
				echo 5 > "$hm/interval"
				relocating=1
			elif [ "$c" = "$ref" ] && [ "$relocating" = 1 ]; then
				r0=$(cat "$hm/runs")
				echo 1000 > "$hm/interval"
				for ((i = 0; i < 20; i++)); do
					[ "$(cat "$hm/runs")" = "$r0" ] || break
					sleep 0.1
				done
				# Until that run has moved what it moves
				# (at most a minute; pairs() sets aside
				# a window in which anything moved).
				m0=$(moved)
				for ((i = 0; i < 60; i++)); do
					sleep 1
					m1=$(moved)
					[ "$m1" != "$m0" ] || break
					m0=$m1
				done
				sleep 1
				relocating=0
			fi
			r0=$(cat "$hm/runs") m0=$(moved)
			if [ "$c" = hot_move ]; then
				window hot_move "$mnt" "$n"
			else
				window "$ref" "$rmnt" "$n"
			fi
			echo "$n $c $r0 $(cat "$hm/runs") $m0 $(moved)" \
				>> "$out/pairs.txt"
		done
	done
	[ "$relocating" = 1 ] || echo 5 > "$hm/interval"
}

# hot_move_dir MNT: the sysfs directory of MNT's hot_move.
hot_move_dir() {
	echo "/sys/fs/btrfs/$(btrfs filesystem show "$1" |
		awk '/uuid:/ { print $NF }')/hot_move"
}

# make_oracle MNT SLOW SSD: the oracle's filesystem on SLOW and SSD at MNT,
# its data written and placed (oracle_place(), whose log this prints), then
# mounted -o hot_track: nothing moves, nothing is cached.
make_oracle() {
	local ohm
	mkfs.btrfs -q -f -d single -m raid1 "$2" "$3" >/dev/null
	mount -t btrfs -o "device=$3,hot_move" "$2" "$1"
	ohm=$(hot_move_dir "$1")
	echo 1000 > "$ohm/interval"
	write_data "$1"
	oracle_place "$ohm" "$1"
	umount "$1"
	mount -t btrfs -o "device=$3,hot_track" "$2" "$1"
	echo 3 > /proc/sys/vm/drop_caches
}

# disks_rotational: every disk marked as what it stands for, before each
# filesystem is made or mounted.
disks_rotational() {
	rotational "$hdd" 1
	rotational "$slow" 1
	rotational "$ssd" 0
	[ -z "$fast" ] || rotational "$fast" 0
	if [ "$ref" = oracle ]; then
		rotational "$DISK_hdd2" 1
		rotational /dev/mapper/slow2 1
		rotational "$DISK_ssd2" 0
	fi
}

# The reference's filesystem for the pairs, made before the others: the
# bound's with its data, the oracle's placed.
rplace=
case $ref in
bound)
	disks_rotational
	mkdir -p "$rmnt"
	mkfs.btrfs -q -f "$fast" >/dev/null
	mount -t btrfs -o hot_track "$fast" "$rmnt"
	write_data "$rmnt" ;;
oracle)
	slow_disk slow2 "$DISK_hdd2"
	disks_rotational
	mkdir -p "$rmnt"
	echo "guest-hot-move: placing the oracle's data for the pairs"
	rplace=$(make_oracle "$rmnt" /dev/mapper/slow2 "$DISK_ssd2") ;;
esac

for cfg in ${configs//,/ }; do
	disks_rotational
	place=
	if [ "$cfg" = "$ref" ]; then
		# Made already, for the pairs: the same data, nothing cached.
		umount "$rmnt"
		if [ "$cfg" = bound ]; then
			mount -t btrfs -o hot_track "$fast" "$mnt"
		else
			mount -t btrfs -o "device=$DISK_ssd2,hot_track" \
				/dev/mapper/slow2 "$mnt"
			place=$rplace
		fi
		echo 3 > /proc/sys/vm/drop_caches
	else
		case $cfg in
		hot_move|hot_track)
			mkfs.btrfs -q -f -d single -m raid1 "$slow" "$ssd" \
				>/dev/null
			mount -t btrfs -o "device=$ssd,$cfg" "$slow" "$mnt"
			# Nothing moves while the data is written.
			[ "$cfg" = hot_track ] ||
				echo 1000 > "$(hot_move_dir "$mnt")/interval"
			write_data "$mnt" ;;
		bound)
			mkfs.btrfs -q -f "$fast" >/dev/null
			mount -t btrfs -o hot_track "$fast" "$mnt"
			write_data "$mnt" ;;
		oracle)
			# Placed, the same disks with nothing moving.
			place=$(make_oracle "$mnt" "$slow" "$ssd") ;;
		esac
	fi
	hm=$(hot_move_dir "$mnt")
	if [ "$cfg" = hot_move ]; then
		[ "$promote" = default ] || echo "$promote" > "$hm/promote_temp"
		echo 5 > "$hm/interval"
	fi

	echo "guest-hot-move: $cfg"
	# hot_move's progress, once a second while fio runs and the pairs:
	# seconds since its start, promoted_bytes, ssd_used_bytes.
	sampler=
	if [ "$cfg" = hot_move ]; then
		t0=$SECONDS
		while :; do
			echo "$((SECONDS - t0)) $(cat "$hm/promoted_bytes")" \
			     "$(cat "$hm/ssd_used_bytes")"
			sleep 1
		done > "$out/$cfg.progress" &
		sampler=$!
	fi
	(cd "$out" && FILE=$mnt/data SIZE=${size}m HOT=${hot}m \
		COLD=$((size - hot))m RUNTIME=$runtime NAME=$cfg \
		fio --output-format=json --output="$out/$cfg.json" "$job")
	[ "$cfg" != hot_move ] || [ -z "$ref" ] || run_pairs
	if [ -n "$sampler" ]; then
		kill "$sampler"
		wait "$sampler" 2>/dev/null || true
		sampler=
	fi
	{
		echo "config $cfg"
		echo "size_mb $size"
		echo "hot_mb $hot"
		for f in runs promoted_bytes demoted_bytes skipped_shared_bytes \
			 fill_pauses ssd_used_bytes ssd_total_bytes \
			 high_watermark; do
			[ -e "$hm/$f" ] && echo "$f $(cat "$hm/$f")"
		done
		echo "data $("$where" "$mnt/data")"
		echo "cold $("$where" "$mnt/cold")"
		[ -z "$place" ] || echo "$place"
	} > "$out/$cfg.txt"
	umount "$mnt"
done
