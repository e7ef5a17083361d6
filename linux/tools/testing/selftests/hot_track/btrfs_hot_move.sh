#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# btrfs hot relocation (mount -o hot_move) on a filesystem made of a
# rotational and a non-rotational device: hot ranges move to the latter,
# cold ones back, and no data is lost on the way.
#
# Devices: HOT_MOVE_HDD=/dev/A (made rotational) and HOT_MOVE_SSD=/dev/B
# (made non-rotational), both reformatted, and HOT_MOVE_SPARE=/dev/C (made
# non-rotational and overwritten) for device replace, which is skipped
# without it; else loop devices on sparse files in $TMPDIR.  Every case
# ends with a scrub, the files' checksums and, at the end, btrfs check.
#
# Cases wait for what they test, up to timeouts that HOT_TIMEOUT_SCALE (an
# integer from 1 to 1000, 1 by default) multiplies, for slow machines.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../kselftest/ktap_helpers.sh"
where=${BTRFS_WHERE:-$here/btrfs_where}

[ "$(id -u)" = 0 ] || { ktap_skip_all "needs root"; exit "$KSFT_SKIP"; }
for t in mkfs.btrfs btrfs fio sha256sum "$where"; do
	command -v "$t" >/dev/null || { ktap_skip_all "no $t"; exit "$KSFT_SKIP"; }
done

timeout_scale=${HOT_TIMEOUT_SCALE:-1}
if ! [[ $timeout_scale =~ ^0*[1-9][0-9]{0,3}$ ]] || ((10#$timeout_scale > 1000)); then
	bad_scale=$timeout_scale
	timeout_scale=1
fi
timeout_scale=$((10#$timeout_scale))

work=$(mktemp -d "${TMPDIR:-/tmp}/hot_move.XXXXXX")
mnt=$work/mnt
loops=()
mkdir -p "$mnt"
sysctls=(/proc/sys/fs/hot-update-delay /proc/sys/fs/hot-kick-time)
saved=()
for f in "${sysctls[@]}"; do saved+=("$(cat "$f" 2>/dev/null)"); done
cleanup() {
	local i
	jobs -p | xargs -r kill 2>/dev/null
	wait
	mountpoint -q "$mnt" && umount "$mnt"
	for l in "${loops[@]}"; do losetup -d "$l"; done
	rm -rf "$work"
	for i in "${!saved[@]}"; do
		[ -z "${saved[$i]}" ] || echo "${saved[$i]}" > "${sysctls[$i]}"
	done
}
trap cleanup EXIT

loopdev() {	# loopdev NAME SIZE
	truncate -s "$2" "$work/$1.img" && losetup -f --show "$work/$1.img"
}
hdd=${HOT_MOVE_HDD:-}
ssd=${HOT_MOVE_SSD:-}
spare=${HOT_MOVE_SPARE:-}
if [ -z "$hdd" ] || [ -z "$ssd" ]; then
	hdd=$(loopdev hdd 3G) && loops+=("$hdd") &&
	ssd=$(loopdev ssd 1G) && loops+=("$ssd") ||
		{ ktap_skip_all "no devices"; exit "$KSFT_SKIP"; }
	spare=$(loopdev spare 1G) && loops+=("$spare") || spare=
fi

queue() { echo "/sys/class/block/$(basename "$(realpath "$1")")/queue"; }
# The rotational flag of a ubd or loop device is lost at each boot: set it
# before every mount, as btrfs reads it when it classifies block groups.
set_classes() {
	echo 1 > "$(queue "$hdd")/rotational" && echo 0 > "$(queue "$ssd")/rotational"
}

do_mount() {	# do_mount OPTIONS
	set_classes && mount -t btrfs -o "device=$ssd,$1" "$hdd" "$mnt"
}

hm=
new_fs() {	# new_fs [MKFS OPTIONS]: a fresh filesystem, mounted with hot_move
	mountpoint -q "$mnt" && umount "$mnt"
	mkfs.btrfs -q -f -d single -m raid1 "$@" "$hdd" "$ssd" >/dev/null || return 1
	do_mount hot_move || return 1
	hm=/sys/fs/btrfs/$(btrfs filesystem show "$mnt" | awk '/uuid:/ { print $NF }')/hot_move
	[ -d "$hm" ]
}

tune() {	# tune NAME=VALUE...
	local kv
	for kv in "$@"; do
		echo "${kv#*=}" > "$hm/${kv%%=*}" || return 1
	done
}

# Reads every 1 MiB range of FILE from FIRST to LAST (MiB) N times, from
# disk (O_DIRECT, into a buffer faulted in beforehand, so that no read falls
# back to the page cache): what hot tracking counts.
heat() {	# heat FILE FIRST LAST N
	python3 - "$@" <<'PY'
import mmap, os, sys
path, first, last, n = sys.argv[1], *map(int, sys.argv[2:])
buf = mmap.mmap(-1, 1 << 20)
buf.write(bytes(1 << 20))
fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
for _ in range(n):
    for r in range(first, last + 1):
        os.preadv(fd, [buf], r << 20)
PY
}

# huge_hot: $mnt/huge, more data than the SSD holds, its sums taken, all of
# it hot enough for a low threshold: read twice, it stays above 0x60000000
# for minutes.
huge_hot() {
	local size

	size=$(($(blockdev --getsize64 "$ssd") >> 20))
	dd if=/dev/urandom of="$mnt/huge" bs=1M count=$size status=none &&
	sync && sums huge && heat "$mnt/huge" 0 $((size - 1)) 2
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds, for SECONDS times
# HOT_TIMEOUT_SCALE at most (quote what must be evaluated anew each time:
# wait_for 5 eval '[ "$(cat f)" = 1 ]').
wait_for() {
	local end=$((SECONDS + $1 * timeout_scale))
	shift
	until "$@"; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.5
	done
}

stat_of() { cat "$hm/$1"; }
moved() { echo $(($(stat_of promoted_bytes) + $(stat_of demoted_bytes))); }

# wait_idle SECONDS: until a whole relocation run moved nothing, for SECONDS
# times HOT_TIMEOUT_SCALE at most.  runs counts a run as it starts: two
# more runs than before mean that one started and ended in between.
wait_idle() {
	local end=$((SECONDS + $1 * timeout_scale)) before runs
	while [ $SECONDS -lt $end ]; do
		before=$(moved)
		runs=$(stat_of runs)
		until [ "$(stat_of runs)" -ge $((runs + 2)) ]; do
			[ $SECONDS -ge $end ] && return 1
			sleep 0.5
		done
		[ "$(moved)" = "$before" ] && return 0
	done
	return 1
}

opts() { awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts; }
on() {		# on FILE PATTERN: btrfs_where's map of FILE matches PATTERN
	# shellcheck disable=SC2053
	[[ $("$where" "$1") == $2 ]]
}
fail() { echo "# $*"; rc=1; }
report() {	# report NAME RC [MESSAGE]
	[ "$2" = 0 ] && ktap_test_pass "$1" || ktap_test_fail "$1${3:+: $3}"
}

# Scrub clean and contents unchanged: sums NAME holds the reference.
verify() {	# verify SUMS
	btrfs scrub start -B "$mnt" >"$work/scrub.log" 2>&1 &&
		grep -q "Error summary: *no errors found" "$work/scrub.log" &&
		(cd "$mnt" && sha256sum --quiet -c "$work/$1")
}
sums() { (cd "$mnt" && sha256sum "$@") > "$work/sums"; }

ktap_print_header
ktap_set_plan 13
[ -z "${bad_scale+set}" ] ||
	echo "# HOT_TIMEOUT_SCALE=$bad_scale is not an integer from 1 to 1000: using 1"

echo 1 > /proc/sys/fs/hot-update-delay
# Idle ranges age out after hot-kick-time: not while a slow run moves them.
echo 3600 > /proc/sys/fs/hot-kick-time
# Seconds in which relocation at interval=1 runs twice here, measured in
# case 1: how long the checks that nothing happens watch.
window=4

# 1. Options: hot_move implies hot_track, turns on and off with remount,
# refuses bad tunables and stops on a read-only remount.
rc=1
if new_fs; then
	rc=0
	[[ ,$(opts), == *,hot_track,hot_move,* ]] ||
		fail "no hot_track,hot_move in /proc/mounts"
	[ "$(stat_of active)" = 1 ] || fail "not active"
	mount -o remount,nohot_move "$mnt" || fail "remount nohot_move"
	[[ ,$(opts), == *,hot_move,* ]] && fail "hot_move after nohot_move"
	[[ ,$(opts), == *,hot_track,* ]] || fail "nohot_move took hot_track"
	[ "$(stat_of active)" = 0 ] || fail "active after nohot_move"
	mount -o remount,hot_move "$mnt" || fail "remount hot_move"
	[ "$(stat_of active)" = 1 ] || fail "not active after remount"
	# Out of bounds or out of order: EINVAL, and nothing changes.
	for bad in interval=0 interval=3601 batch_mb=0 high_watermark=101 \
		   low_watermark=-1 high_watermark=75 low_watermark=90 \
		   promote_temp=0x68000000 demote_temp=0x90000000 move_shared=2 \
		   interval=x; do
		tune "$bad" 2>/dev/null && fail "accepted $bad"
	done
	[ "$(stat_of interval)" = 30 ] && [ "$(stat_of high_watermark)" = 90 ] &&
		[ "$(stat_of low_watermark)" = 75 ] &&
		[ "$(stat_of promote_temp)" = 0x82000000 ] || fail "tunables changed"
	tune interval=1 || fail "interval=1 refused"
	# No run while read-only, for as long as two take when read-write.
	runs=$(stat_of runs) start=$SECONDS
	wait_for 30 eval '[ "$(stat_of runs)" -ge $((runs + 2)) ]' &&
		window=$((SECONDS - start + 2))
	mount -o remount,ro "$mnt" || fail "remount ro"
	runs=$(stat_of runs)
	sleep $window
	[ "$(stat_of runs)" = "$runs" ] || fail "runs while read-only"
	mount -o remount,rw "$mnt" || fail "remount rw"
	wait_for 30 eval '[ "$(stat_of runs)" -gt "$runs" ]' || fail "no runs after remount rw"
	umount "$mnt" || fail "umount"
	if mkfs.btrfs -q -f -m single -d single --mixed "$ssd" >/dev/null &&
	   set_classes && mount -t btrfs -o hot_move "$ssd" "$mnt" 2>/dev/null; then
		fail "hot_move accepted with mixed block groups"
		umount "$mnt"
	fi
fi
report "options, remount and tunables" $rc

# 2. Placement and promotion: new data goes to the rotational device; the
# ranges read often move to the other one, the rest stays.
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/hot" bs=1M count=32 status=none
	dd if=/dev/urandom of="$mnt/cold" bs=1M count=32 status=none
	sync
	on "$mnt/hot" "$(printf 'H%.0s' {1..32})" || { echo "# new data not on HDD"; rc=1; }
	sums hot cold
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/hot" 0 15 30 || fail "line $LINENO"
	wait_for 30 on "$mnt/hot" "SSSSSSSSSSSSSSSSHHHHHHHHHHHHHHHH" ||
		{ echo "# hot: $("$where" "$mnt/hot")"; rc=1; }
	on "$mnt/cold" "$(printf 'H%.0s' {1..32})" || { echo "# cold moved"; rc=1; }
	[ "$(stat_of promoted_bytes)" -ge $((16 << 20)) ] || fail "line $LINENO"
	verify sums || fail "line $LINENO"
	cp "$work/sums" "$work/sums.2"
fi
report "hot ranges promoted, cold data stays" $rc

# 3. Persistence: placement survives a remount; new data still goes to the
# rotational device.
rc=1
if mountpoint -q "$mnt" && umount "$mnt" && do_mount hot_move; then
	rc=0
	on "$mnt/hot" "SSSSSSSSSSSSSSSSHHHHHHHHHHHHHHHH" || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/new" bs=1M count=8 status=none
	sync
	on "$mnt/new" "HHHHHHHH" || fail "line $LINENO"
	verify sums.2 || fail "line $LINENO"
fi
report "placement persists across remount" $rc

# 4. Demotion: above the high watermark the coldest data goes back until
# usage is under the low watermark.
rc=1
if mountpoint -q "$mnt"; then
	rc=0
	demoted=$(stat_of demoted_bytes)
	# Everything counts as cold now, and the 16 MiB are above 1%.
	tune promote_temp=0xff000000 demote_temp=0xfe000000 interval=1 \
	     low_watermark=0 high_watermark=1 || fail "line $LINENO"
	wait_for 30 on "$mnt/hot" "$(printf 'H%.0s' {1..32})" ||
		{ echo "# hot: $("$where" "$mnt/hot")"; rc=1; }
	[ "$(stat_of demoted_bytes)" -gt "$demoted" ] || fail "line $LINENO"
	verify sums.2 || fail "line $LINENO"
fi
report "cold ranges demoted above the high watermark" $rc

# 5. Concurrent writers: fio verifies its random writes to a file that
# relocation moves meanwhile.  Rounds of fio, each writing all of the file
# and verifying it, go on for 30 s and until relocation moved some of it:
# a time, not an amount of small synchronous I/O, which a loaded machine
# slows down most.
busy_fio() {	# busy_fio FIO OPTIONS: one pass over $mnt/busy
	fio --name=w --filename="$mnt/busy" --size=16M --bs=4k --rw=randwrite \
	    --direct=1 --ioengine=psync --verify=crc32c "$@"
}
rc=1
if new_fs; then
	rc=0
	tune promote_temp=0x80000000 interval=1 || fail "line $LINENO"
	: > "$work/rounds"
	(
		end=$((SECONDS + 30)) limit=$((SECONDS + 300 * timeout_scale))
		while busy_fio --output="$work/fio.log"; do
			echo . >> "$work/rounds"
			[ $SECONDS -ge $end ] && [ "$(stat_of promoted_bytes)" -gt 0 ] && exit 0
			[ $SECONDS -ge $limit ] && exit 0
		done
		exit 1
	) &
	fio_pid=$!
	while kill -0 $fio_pid 2>/dev/null; do
		heat "$mnt/busy" 0 15 1 2>/dev/null
	done
	wait $fio_pid || { tail -5 "$work/fio.log"; rc=1; }
	echo "# busy: $("$where" "$mnt/busy"), promoted $(stat_of promoted_bytes)" \
	     "in $(wc -l < "$work/rounds") rounds"
	[ "$(stat_of promoted_bytes)" -gt 0 ] || fail "line $LINENO"
	busy_fio --verify_only --output="$work/fio2.log" ||
		{ tail -5 "$work/fio2.log"; rc=1; }
	sums busy
	verify sums || fail "line $LINENO"
fi
report "concurrent writers during relocation" $rc

# 6. Snapshots and reflinks: shared extents stay unless move_shared; the
# snapshot and the reflink keep their data either way.
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/orig" bs=1M count=8 status=none
	cp --reflink=always "$mnt/orig" "$mnt/clone" || fail "line $LINENO"
	btrfs subvolume snapshot -r "$mnt" "$mnt/snap" >/dev/null || fail "line $LINENO"
	sync
	sums orig clone snap/orig
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/orig" 0 7 30 || fail "line $LINENO"
	wait_for 30 eval '[ "$(stat_of skipped_shared_bytes)" -gt 0 ]' || fail "line $LINENO"
	on "$mnt/orig" "HHHHHHHH" || { echo "# shared extents moved"; rc=1; }
	tune move_shared=1 || fail "line $LINENO"
	heat "$mnt/orig" 0 7 10 || fail "line $LINENO"
	wait_for 30 on "$mnt/orig" "SSSSSSSS" || { echo "# orig: $("$where" "$mnt/orig")"; rc=1; }
	on "$mnt/snap/orig" "HHHHHHHH" || fail "line $LINENO"
	on "$mnt/clone" "HHHHHHHH" || fail "line $LINENO"
	verify sums || fail "line $LINENO"
fi
report "snapshots and reflinks" $rc

# 7. Unmount while relocation runs, again and again.
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/big" bs=1M count=96 status=none
	sync
	sums big
	for i in $(seq 6); do
		tune promote_temp=0x80000000 interval=1 batch_mb=4096 || fail "line $LINENO"
		heat "$mnt/big" 0 95 2 || fail "line $LINENO"
		sleep 0.$((RANDOM % 10))$((RANDOM % 10))
		umount "$mnt" || { fail "line $LINENO"; break; }
		do_mount hot_move || { fail "line $LINENO"; break; }
		verify sums || { fail "line $LINENO"; break; }
	done
	echo "# big: $("$where" "$mnt/big")"
fi
report "unmount during relocation" $rc

# 8. A full SSD: promotion fills it and stops, falling back to the HDD, and
# leaves free space to user writes, who can write all that df says is free.
# (Moving 1 MiB ranges of larger extents keeps the old extents allocated
# until all of them moved: that space shows as used in df.)
rc=1
if new_fs; then
	rc=0
	huge_hot || fail "line $LINENO"
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
	     high_watermark=100 low_watermark=99 batch_mb=4096 || fail "tune"
	full='[ "$(stat_of ssd_used_bytes)" -ge $(($(stat_of ssd_total_bytes) * 9 / 10)) ]'
	# (Without a full SSD, or while promotion goes on, the fill below
	# would test nothing and could take very long.)
	if ! wait_for 300 eval "$full"; then
		fail "SSD not filled"
	elif ! wait_idle 120; then
		fail "promotion did not stop"
	else
		echo "# SSD $(stat_of ssd_used_bytes) of $(stat_of ssd_total_bytes) bytes"
		# df counts the extents written since the last commit as free.
		sync
		avail=$(df -B1 --output=avail "$mnt" | tail -1)
		[ "$avail" -ge $((64 << 20)) ] || fail "relocation left $avail bytes free"
		dd if=/dev/zero of="$mnt/fill" bs=1M status=none 2>/dev/null
		sync
		filled=$(stat -c %s "$mnt/fill")
		echo "# df said $avail bytes free, wrote $filled"
		[ "$filled" -ge $((avail * 97 / 100)) ] || fail "early ENOSPC"
		rm -f "$mnt/fill"
		sync
	fi
	verify sums || fail "verify"
fi
report "full SSD: fallback, free space left, no early ENOSPC" $rc

# 9. Users first: while promotion is busy, a user filling the filesystem
# can write all that df says is free, and relocation pauses rather than
# take more space (each promoted 1 MiB of a larger extent keeps 1 MiB of
# old extent).  Without the pause 196 MiB had been promoted by the end of
# the fill, 16 MiB with it.
rc=1
if new_fs; then
	rc=0
	huge_hot || fail "line $LINENO"
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
	     batch_mb=16 || fail "tune"
	if ! wait_for 60 eval '[ "$(stat_of promoted_bytes)" -gt 0 ]'; then
		fail "nothing promoted"
	else
		sync
		avail=$(df -B1 --output=avail "$mnt" | tail -1)
		before=$(stat_of promoted_bytes) pauses=$(stat_of fill_pauses)
		dd if=/dev/zero of="$mnt/fill" bs=1M status=none 2>/dev/null
		sync
		filled=$(stat -c %s "$mnt/fill")
		pauses=$(($(stat_of fill_pauses) - pauses))
		during=$(($(stat_of promoted_bytes) - before))
		echo "# df said $avail bytes free, wrote $filled; $pauses runs paused;" \
		     "promoted $during bytes meanwhile"
		[ "$filled" -ge $((avail * 97 / 100)) ] || fail "early ENOSPC"
		[ "$pauses" -gt 0 ] || fail "relocation did not pause"
		# A run in progress stops before its next range: a batch at most.
		[ "$during" -le $((16 << 20)) ] || fail "promotion went on"
		rm -f "$mnt/fill"
		sync
	fi
	verify sums || fail "verify"
fi
report "user writes first: relocation pauses while the filesystem fills" $rc

# 10. Without hot_move nothing moves, however hot.
rc=1
if new_fs; then
	rc=0
	mount -o remount,nohot_move,hot_track "$mnt" || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/f" bs=1M count=8 status=none
	sync
	before=$("$where" "$mnt/f")
	tune promote_temp=0x80000000 interval=1 || fail "line $LINENO"
	heat "$mnt/f" 0 7 30 || fail "line $LINENO"
	# As long as a hot_track pass and a run would take to move it.
	sleep $window
	on "$mnt/f" "$before" || fail "line $LINENO"
	[ "$(stat_of promoted_bytes)" = 0 ] || fail "line $LINENO"
fi
report "nothing moves without hot_move" $rc

# 11. Balance while hot_move runs: data relocation reads and writes through
# its own inode, which must get no heat and never be moved (moving it broke
# relocation's one-to-one extent mapping and aborted the transaction).  The
# filesystem stays writable and its files unchanged; no item of an internal
# root (not 5 and not from 256 on: relocation's is -9, 20 digits) shows in
# debugfs.
rc=1
if new_fs; then
	rc=0
	tune interval=1 || fail "line $LINENO"
	# Small readahead, as on most disks: relocation's reads then come
	# through readahead, counted, in many pieces.
	echo 128 > "$(dirname "$hm")/bdi/read_ahead_kb" || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/f" bs=1M count=192 status=none
	sync
	sums f
	# Relocation's inode lives as long as a balance: look while it runs
	# (every 0.1 s), in this filesystem's directory (named after a device).
	internal() {
		local d

		for d in "$hdd" "$ssd"; do
			d=/sys/kernel/debug/hot_track/$(basename "$(realpath "$d")")
			[ -r "$d/inode_stat" ] || continue
			awk '$2 != 5 && ($2 + 0 < 256 || length($2) == 20)' \
				"$d/inode_stat" >> "$work/internal"
			return 0
		done
		return 1
	}
	internal || fail "no debugfs directory of the filesystem"
	: > "$work/internal"
	# The metadata balance first: after two data balances a filesystem
	# this small may have too little unallocated space left for one.
	for i in m 1 2; do
		if [ $i = m ]; then
			btrfs balance start -m "$mnt" >"$work/balance.log" 2>&1 &
		else
			btrfs balance start -d "$mnt" >"$work/balance.log" 2>&1 &
		fi
		while kill -0 $! 2>/dev/null; do internal; sleep 0.1; done
		wait $! || { cat "$work/balance.log"; fail "balance $i"; }
		# A relocation run after each: what the balance made hot.
		runs=$(stat_of runs)
		wait_for 30 eval '[ "$(stat_of runs)" -ge $((runs + 2)) ]' || fail "no runs"
	done
	internal
	[ -s "$work/internal" ] &&
		fail "internal inodes tracked: $(sort -u "$work/internal" | head -3)"
	touch "$mnt/after" || fail "not writable after balance"
	echo "# promoted $(stat_of promoted_bytes) bytes"
	verify sums || fail "verify"
fi
report "balance while hot_move runs" $rc

# 12. Device replace while hot_move runs: the fast device is replaced by
# another and back while relocation runs every second (each run looks at
# the devices of the chunks, which replace swaps, then frees the old one:
# a use after free there shows as a KASAN report, which fails the guest
# run).  Contents and placement stay, and promotion goes on onto the new
# device after it.
name="device replace while hot_move runs"
replace() {	# replace FROM TO
	echo 0 > "$(queue "$2")/rotational" &&
	btrfs replace start -B -f "$1" "$2" "$mnt" >"$work/replace.log" 2>&1 ||
		{ cat "$work/replace.log"; return 1; }
}
rc=1
if [ -z "$spare" ]; then
	ktap_test_skip "$name: no spare device (HOT_MOVE_SPARE)"
elif new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/hot" bs=1M count=32 status=none
	sync
	sums hot
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/hot" 0 15 30 || fail "line $LINENO"
	wait_for 30 on "$mnt/hot" "$(printf 'S%.0s' {1..16})*" ||
		fail "not promoted: $("$where" "$mnt/hot")"
	runs=$(stat_of runs)
	replace "$ssd" "$spare" || fail "replace"
	[ "$(stat_of runs)" -gt "$runs" ] || echo "# no run during the replace"
	on "$mnt/hot" "$(printf 'S%.0s' {1..16})*" || fail "placement lost"
	# Ranges 16-31 get hot now: promoted onto the new device.
	promoted=$(stat_of promoted_bytes)
	heat "$mnt/hot" 16 31 30 || fail "line $LINENO"
	wait_for 30 on "$mnt/hot" "$(printf 'S%.0s' {1..32})" ||
		fail "not promoted onto the new device: $("$where" "$mnt/hot")"
	[ "$(stat_of promoted_bytes)" -gt "$promoted" ] || fail "line $LINENO"
	verify sums || fail "verify after replace"
	replace "$spare" "$ssd" || fail "replace back"
	on "$mnt/hot" "$(printf 'S%.0s' {1..32})" || fail "placement lost"
	verify sums || fail "verify after replace back"
fi
[ -z "$spare" ] || report "$name" $rc

# 13. The filesystem is consistent.
rc=1
if mountpoint -q "$mnt" && umount "$mnt"; then
	btrfs check --readonly "$hdd" >"$work/check.log" 2>&1 && rc=0
	[ $rc = 0 ] || tail -20 "$work/check.log"
fi
report "btrfs check" $rc

ktap_finished
