#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run hot_track_test on ext4, xfs and btrfs mounted with hot_track, each
# beside an ext4 mounted without it.
#
# Devices: HOT_TRACK_DEVS="ext4=/dev/A xfs=/dev/B btrfs=/dev/C" and
# HOT_TRACK_PLAIN_DEV=/dev/D (all are reformatted!), or else loop devices
# on sparse files in $TMPDIR.  HOT_TRACK_FS limits the filesystems.
# The tests wait for what they need, up to timeouts that HOT_TIMEOUT_SCALE
# (an integer from 1 to 1000, 1 by default) multiplies, for slow machines.
ksft_skip=4
here=$(cd "$(dirname "$0")" && pwd)
test=${HOT_TRACK_TEST:-$here/hot_track_test}

[ "$(id -u)" = 0 ] || { echo "hot_track: needs root"; exit $ksft_skip; }
grep -qw hot_track /proc/filesystems 2>/dev/null  # (no such fs: informational)
fses=${HOT_TRACK_FS:-"ext4 xfs btrfs"}
scale=${HOT_TIMEOUT_SCALE:-1}
if ! [[ $scale =~ ^0*[1-9][0-9]{0,3}$ ]] || ((10#$scale > 1000)); then
	echo "# hot_track: HOT_TIMEOUT_SCALE=$scale is not an integer from 1 to 1000: using 1"
	scale=1
fi
export HOT_TIMEOUT_SCALE=$((10#$scale))
work=$(mktemp -d "${TMPDIR:-/tmp}/hot_track.XXXXXX")
loops=()

cleanup() {
	for m in "$work"/mnt/*; do mountpoint -q "$m" && umount "$m"; done
	for l in "${loops[@]}"; do losetup -d "$l"; done
	rm -rf "$work"
}
trap cleanup EXIT

dev_for() {	# dev_for NAME: the device to use for NAME
	local d
	if [ "$1" = plain ] && [ -n "${HOT_TRACK_PLAIN_DEV:-}" ]; then
		echo "$HOT_TRACK_PLAIN_DEV"; return
	fi
	for d in ${HOT_TRACK_DEVS:-}; do
		[ "${d%%=*}" = "$1" ] && { echo "${d#*=}"; return; }
	done
	truncate -s 1G "$work/$1.img" || return 1
	d=$(losetup -f --show "$work/$1.img") || return 1
	loops+=("$d")
	echo "$d"
}

mkfs_for() {	# mkfs_for FS DEV
	case $1 in
	ext4) mkfs.ext4 -q -F "$2" ;;
	xfs) mkfs.xfs -q -f "$2" ;;
	btrfs) mkfs.btrfs -q -f "$2" >/dev/null ;;
	esac
}

mkdir -p "$work/mnt/plain"
plain=$(dev_for plain) || { echo "hot_track: no device"; exit $ksft_skip; }
mkfs_for ext4 "$plain" && mount -t ext4 "$plain" "$work/mnt/plain" || exit 1

# The update worker's tests want a pass every second.
saved=()
for s in hot-kick-time hot-update-delay hot-mem-max-bytes; do
	saved+=("$(cat /proc/sys/fs/$s)")
done
restore() {
	local i=0
	for s in hot-kick-time hot-update-delay hot-mem-max-bytes; do
		echo "${saved[$i]}" > /proc/sys/fs/$s
		i=$((i + 1))
	done
}
echo 1 > /proc/sys/fs/hot-update-delay

# Wait until the trace shows a line matching PATTERN (grep -E), for up to
# SECS seconds times the scale; 0 once it does.
tracefs=/sys/kernel/tracing
wait_trace() {	# wait_trace PATTERN SECS
	local end=$((SECONDS + $2 * HOT_TIMEOUT_SCALE))

	until grep -qE "$1" "$tracefs/trace"; do
		((SECONDS < end)) || { echo "# hot_track: no trace line: $1"; return 1; }
		sleep 0.2
	done
}

# The tracepoints fire with their fields: an update pass, the heat of a
# deleted file forgotten, items freed by the shrinker and by the memory cap.
trace_test() {	# trace_test FS DEV MNT
	local ev=$tracefs/events/hot_track i ino ok=ok n d e

	[ -d "$tracefs/events" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null
	if [ ! -d "$tracefs/events" ]; then
		echo "# hot_track: $1: tracepoints: SKIP (no tracefs with events)"
		return 0
	fi
	if [ ! -d "$ev" ]; then
		echo "# hot_track: $1: tracepoints: FAILED (no hot_track events)"
		return 1
	fi
	mount -t "$1" -o hot_track "$2" "$3" || return 1
	echo > "$tracefs/trace"
	echo 1 > "$ev/enable"
	# 100 files, one write each: 200 items, more than the shrinker keeps.
	for i in $(seq 0 99); do
		dd if=/dev/zero of="$3/t$i" bs=4k count=1 oflag=direct status=none
	done
	ino=$(stat -c %i "$3/t0")
	n='[0-9]+' d='dev=[0-9]+:[0-9]+'
	e="hot_track_update_pass: $d pass=$n inodes=$n ranges=$n"
	e="$e mapped=([2-9]|1[0-9])[0-9]{2} mem=$n evicted=$n duration_ns=$n"
	wait_trace "$e" 20 || ok=FAILED
	rm "$3/t0"
	wait_trace "hot_track_inode_drop: $d root=$n ino=$ino gen=$n reason=deleted" 20 ||
		ok=FAILED
	echo 2 > /proc/sys/vm/drop_caches
	wait_trace "hot_track_evict: $d reason=shrinker freed=[1-9][0-9]* mem=$n" 20 ||
		ok=FAILED
	wait_trace "hot_track_inode_drop: $d root=$n ino=$n gen=$n reason=evicted" 20 ||
		ok=FAILED
	# More items than a cap of 4 KiB holds: the next pass frees some.
	for i in $(seq 100 139); do
		dd if=/dev/zero of="$3/t$i" bs=4k count=1 oflag=direct status=none
	done
	mount -o remount,hot_track_mem=4096 "$3" || ok=FAILED
	wait_trace "hot_track_evict: $d reason=cap freed=[1-9][0-9]* mem=$n" 20 || ok=FAILED
	wait_trace "hot_track_update_pass: .* evicted=[1-9][0-9]* " 20 || ok=FAILED
	echo 0 > "$ev/enable"
	rm -f "$3"/t*
	umount "$3" || ok=FAILED
	echo "# hot_track: $1: tracepoints: $ok"
	[ $ok = ok ]
}

# Save the heat of MNT to FILE until it has a line for each of the files
# given (their inode numbers), for up to SECS seconds times the scale.
save_until() {	# save_until HOT_HEAT MNT FILE SECS INO...
	local heat=$1 mnt=$2 out=$3 end=$((SECONDS + $4 * HOT_TIMEOUT_SCALE)) i
	shift 4
	while :; do
		"$heat" save "$mnt" "$out" || return 1
		for i in "$@"; do
			awk -v i="$i" '$1 == "file" && $3 == i { f = 1 } END { exit !f }' \
				"$out" || break
		done
		awk -v i="$i" '$1 == "file" && $3 == i { f = 1 } END { exit !f }' \
			"$out" && return 0
		((SECONDS < end)) || return 1
		sleep 0.2
	done
}

# hottop -b -n 1 lists the hottest files in the order of the query, which
# hot_heat save wrote; heat saved, the filesystem mounted again and the
# heat loaded: each file has its counts back, its ages advanced by the time
# between; a file deleted and made again with the same inode number gets
# none of the old one's.
persist_test() {	# persist_test FS DEV MNT
	local heat=${HOT_HEAT:-$here/hot_heat}
	local top=${HOTTOP:-$here/../../../hot_track/hottop.py}
	local saved=$work/heat.$1 ok=ok i r inos=() ino0 reuse= want got line
	local reads age age2 d end

	if [ ! -x "$heat" ] || [ ! -x "$top" ]; then
		echo "# hot_track: $1: hottop, saved heat: SKIP (no hot_heat or hottop)"
		return 0
	fi
	mount -t "$1" -o hot_track "$2" "$3" || return 1
	for i in 0 1 2 3; do
		dd if=/dev/urandom of="$3/h$i" bs=1M count=2 oflag=direct status=none
		# Buffered, from disk each time: btrfs may serve O_DIRECT
		# reads through the page cache.
		for r in $(seq $((4 * (i + 1)))); do
			echo 1 > /proc/sys/vm/drop_caches
			dd if="$3/h$i" of=/dev/null bs=4k count=1 status=none
		done
		inos+=("$(stat -c %i "$3/h$i")")
	done
	save_until "$heat" "$3" "$saved" 20 "${inos[@]}" || ok=FAILED

	# The four files, hottest first, as the query has them and hottop.
	# Once their scores cooled to the idle rate they tie, in inode order,
	# until the older reads are 16 s old (the idle gap): wait past that.
	end=$((SECONDS + (20 + 16) * HOT_TIMEOUT_SCALE))
	while :; do
		"$heat" save "$3" "$saved" || ok=FAILED
		want=$(awk '$1 == "file" { print $3 }' "$saved" | head -4 |
		       while read -r i; do find "$3" -inum "$i"; done | xargs)
		got=$("$top" -b -n 1 -N 4 "$3" | tail -4 | awk '{ print $NF }' | xargs)
		[ "$want" = "$3/h3 $3/h2 $3/h1 $3/h0" ] && [ "$got" = "$want" ] && break
		if ((SECONDS >= end)); then
			echo "# hottop: $got; the query: $want"
			ok=FAILED
			break
		fi
		sleep 0.2
	done

	# h0 deleted, and a new file with its inode number where the
	# filesystem gives it again soon (not btrfs).
	ino0=${inos[0]}
	rm "$3/h0"
	for i in $(seq 20); do
		dd if=/dev/zero of="$3/n$i" bs=4k count=1 oflag=direct status=none
		[ "$(stat -c %i "$3/n$i")" = "$ino0" ] && { reuse=$3/n$i; break; }
	done
	umount "$3" && mount -t "$1" -o hot_track "$2" "$3" || ok=FAILED
	"$heat" "$3/h1" >/dev/null 2>&1 && { echo "# heat after the mount"; ok=FAILED; }
	"$heat" load "$3" "$saved" 2>"$work/load.log" || ok=FAILED
	# h0 is gone: skipped.
	grep -qE "loaded 3 files and [0-9]+ ranges, skipped 1 " "$work/load.log" ||
		{ echo "# $(cat "$work/load.log")"; ok=FAILED; }
	# Saved again once an update pass has listed what was loaded: the
	# last reads as old as at the first save plus the time between (by
	# the saves' own clocks), within a second.
	save_until "$heat" "$3" "$saved.2" 20 "${inos[@]:1}" || ok=FAILED
	d=$(($(awk '$1 == "saved" { print $2 }' "$saved.2") -
	     $(awk '$1 == "saved" { print $2 }' "$saved")))
	for i in 1 2 3; do
		line=$(awk -v i="${inos[$i]}" '$1 == "file" && $3 == i' "$saved")
		reads=$(echo "$line" | awk '{ print $5 }')
		age=$(echo "$line" | awk '{ print $9 }')
		age2=$(awk -v i="${inos[$i]}" '$1 == "file" && $3 == i { print $9 }' \
			"$saved.2")
		got=$("$heat" "$3/h$i" | tail -1)
		[ "$(echo "$got" | awk '{ print $2 }')" = "$reads" ] ||
			{ echo "# h$i: saved $reads reads: $got"; ok=FAILED; }
		awk -v a="$age" -v b="${age2:-0}" -v d="$d" -v s="$HOT_TIMEOUT_SCALE" \
			'BEGIN { exit !(b >= a + d - s * 1e9 && b <= a + d + s * 1e9) }' ||
			{ echo "# h$i: read ${age2}ns before the second save," \
			       "${age}ns before the first, ${d}ns before"; ok=FAILED; }
	done
	# No heat, or that of its own write.
	if [ -n "$reuse" ] && got=$("$heat" "$reuse" 2>/dev/null); then
		[ "$(echo "$got" | tail -1 | awk '{ print $2 }')" = 0 ] ||
			{ echo "# $reuse has the heat of the deleted h0: $got"; ok=FAILED; }
	fi
	umount "$3" || ok=FAILED
	echo "# hot_track: $1: hottop, saved heat${reuse:+, inode number reused}: $ok"
	[ $ok = ok ]
}

rc=0
for fs in $fses; do
	dev=$(dev_for "$fs") || { echo "hot_track: no device for $fs"; exit $ksft_skip; }
	mnt=$work/mnt/$fs
	mkdir -p "$mnt"
	mkfs_for "$fs" "$dev" || exit 1
	if ! mount -t "$fs" -o hot_track "$dev" "$mnt"; then
		echo "hot_track: mount -o hot_track failed on $fs"
		rc=1
		continue
	fi
	echo "# hot_track: $fs"
	# Again: a test killed at its timeout does not put it back.
	echo 1 > /proc/sys/fs/hot-update-delay
	HOT_TRACK_DIR=$mnt HOT_TRACK_OFF_DIR=$work/mnt/plain \
		HOT_TRACK_DEBUGFS=/sys/kernel/debug/hot_track/$(basename "$dev") \
		"$test" || rc=1
	umount "$mnt" || rc=1

	# Unmount while the update worker runs, again and again.
	ok=ok
	for i in $(seq 10); do
		mount -t "$fs" -o hot_track "$dev" "$mnt" || { ok=FAILED; break; }
		dd if=/dev/zero of="$mnt/f$i" bs=1M count=2 oflag=direct status=none
		sleep 0.$((RANDOM % 10))
		umount "$mnt" || { ok=FAILED; break; }
	done
	[ $ok = ok ] || rc=1
	echo "# hot_track: $fs: 10 unmounts while the worker runs: $ok"
	trace_test "$fs" "$dev" "$mnt" || rc=1
	persist_test "$fs" "$dev" "$mnt" || rc=1
done
restore
exit $rc
