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
# The hot_move tracepoints, on for the whole run where tracefs has events.
tracefs=/sys/kernel/tracing
hm_events="promote demote fallback pause"
[ -d "$tracefs/events" ] || mount -t tracefs nodev "$tracefs" 2>/dev/null
if [ -d "$tracefs/events/btrfs/btrfs_hot_move_promote" ]; then
	tracing=1
	echo > "$tracefs/trace"
	for e in $hm_events; do
		echo 1 > "$tracefs/events/btrfs/btrfs_hot_move_$e/enable"
	done
elif [ -d "$tracefs/events/btrfs" ]; then
	tracing=missing
else
	tracing=0
fi
# traced PATTERN: the trace has a line of the filesystem mounted now (its
# fsid) that matches; true, said once, without tracefs.
traced() {
	case $tracing in
	1) grep -F "$(basename "$(dirname "$hm")"):" "$tracefs/trace" |
		grep -qE "$1" ;;
	0) echo "# no tracefs: the trace is not checked"; tracing=off ;;
	off) true ;;
	*) false ;;
	esac
}
n='[0-9]+'

cleanup() {
	local i e
	jobs -p | xargs -r kill 2>/dev/null
	wait
	if [ "$tracing" = 1 ]; then
		for e in $hm_events; do
			echo 0 > "$tracefs/events/btrfs/btrfs_hot_move_$e/enable"
		done
	fi
	[ -e "$mnt/swap" ] && swapoff "$mnt/swap" 2>/dev/null
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

# keep_hot FILE:FIRST:LAST... -- COMMAND...: run COMMAND while a block of
# each range FIRST to LAST of each FILE is read (O_DIRECT) about ten times a
# second, or once per $keep_pause seconds.  A temperature follows the reads
# of the last update passes: a burst of reads alone cools within a few
# passes, perhaps before a run got to all of its ranges.  Returns the
# status of COMMAND.
keep_pause=0.1
keep_hot() {
	local specs=() pid rc

	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		specs+=("$1")
		shift
	done
	[ $# -gt 1 ] || { echo "keep_hot: no -- COMMAND" >&2; return 2; }
	shift
	python3 - "$keep_pause" "${specs[@]}" <<'PY' &
import mmap, os, sys, time
buf = mmap.mmap(-1, 4096)
todo = []
for spec in sys.argv[2:]:
    path, first, last = spec.rsplit(":", 2)
    todo.append((os.open(path, os.O_RDONLY | os.O_DIRECT),
                 int(first), int(last)))
while True:
    for fd, first, last in todo:
        for r in range(first, last + 1):
            os.preadv(fd, [buf], r << 20)
    time.sleep(float(sys.argv[1]))
PY
	pid=$!
	"$@"
	rc=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return $rc
}

# As heat(), through the page cache, dropping the file's pages after each
# pass: for compressed extents, which O_DIRECT reads through the page cache.
heat_buffered() {	# heat_buffered FILE FIRST LAST N
	python3 - "$@" <<'PY'
import os, sys
path, first, last, n = sys.argv[1], *map(int, sys.argv[2:])
fd = os.open(path, os.O_RDONLY)
for _ in range(n):
    for r in range(first, last + 1):
        os.pread(fd, 1 << 20, r << 20)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
PY
}

# huge_hot: $mnt/huge, more data than the SSD holds, its sums taken, all of
# it hot enough for a low threshold: read twice, it stays above 0x60000000
# for minutes.  huge_hot MIB: MIB MiB of it instead.
huge_hot() {
	local size=${1:-$(($(blockdev --getsize64 "$ssd") >> 20))}

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

# extents FILE: one line per extent from FIEMAP (synced first): logical
# and physical offset, length, flags, in hexadecimal.
extents() {
	python3 - "$1" <<'PY'
import fcntl, os, struct, sys
FS_IOC_FIEMAP, FLAG_SYNC, LAST, COUNT = 0xC020660B, 1, 1, 128
fd = os.open(sys.argv[1], os.O_RDONLY)
start = 0
while True:
    buf = bytearray(struct.pack('=QQLLLL', start, (1 << 64) - 1 - start,
                                FLAG_SYNC, 0, COUNT, 0) + bytes(56 * COUNT))
    fcntl.ioctl(fd, FS_IOC_FIEMAP, buf)
    n = struct.unpack_from('=L', buf, 20)[0]
    if not n:
        break
    for i in range(n):
        log, phys, length = struct.unpack_from('=QQQ', buf, 32 + 56 * i)
        flags = struct.unpack_from('=L', buf, 32 + 56 * i + 40)[0]
        print('%x %x %x %x' % (log, phys, length, flags))
    if flags & LAST:
        break
    start = log + length
PY
}

opts() { awk -v m="$mnt" '$2 == m { print $4 }' /proc/mounts; }
on() {		# on FILE PATTERN: btrfs_where's map of FILE matches PATTERN
	# shellcheck disable=SC2053
	[[ $("$where" "$1") == $2 ]]
}
fail() { echo "# $*"; rc=1; }
# have TOOL...: all of them are there, for a case that needs them.
have() {
	local t

	for t in "$@"; do
		command -v "$t" >/dev/null || { missing=$t; return 1; }
	done
}
missing=
# log_mark, then logged PATTERN: the kernel logged PATTERN since the mark.
log_mark() {
	mark="hot_move selftest mark $RANDOM$RANDOM"
	echo "$mark" > /dev/kmsg
}
logged() { dmesg | sed -n "/$mark/,\$p" | grep -q "$1"; }
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

# Offline btrfs check clean, then mounted again with hot_move.
check_fs() {
	umount "$mnt" || return 1
	if ! btrfs check --readonly "$hdd" >"$work/check.log" 2>&1; then
		tail -20 "$work/check.log"
		do_mount hot_move
		return 1
	fi
	do_mount hot_move
}

# hot_dir: the debugfs directory of the filesystem (named after a device).
hot_dir() {
	local d

	for d in "$hdd" "$ssd"; do
		d=/sys/kernel/debug/hot_track/$(basename "$(realpath "$d")")
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	return 1
}
passes() { awk '$1 == "passes" { print $2 }' "$dbg/stats"; }

# fast_full: promotion filled the SSD (9/10 of what it may take) and stopped.
fast_full() {
	local full='[ "$(stat_of ssd_used_bytes)" -ge $(($(stat_of ssd_total_bytes) * 9 / 10)) ]'

	wait_for 300 eval "$full" || {
		echo "# SSD not filled: $(stat_of ssd_used_bytes) of $(stat_of ssd_total_bytes)"
		return 1
	}
	wait_idle 120 || { echo "# promotion did not stop"; return 1; }
}

ktap_print_header
ktap_set_plan 28
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
	# Tunables are for hot_move mounts only.
	tune interval=5 2>"$work/err" && fail "tunable written without hot_move"
	grep -q "not supported" "$work/err" || fail "not EOPNOTSUPP: $(cat "$work/err")"
	mount -o remount,hot_move "$mnt" || fail "remount hot_move"
	[ "$(stat_of active)" = 1 ] || fail "not active after remount"
	# Out of bounds or out of order: EINVAL, and nothing changes.
	for bad in interval=0 interval=3601 batch_bytes=1048575 \
		   batch_bytes=4294967297 promote_temp=0x100000000 \
		   high_watermark=101 \
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
	# Nor a hot_move directory there, where it could never run.
	if mount -t btrfs "$ssd" "$mnt"; then
		uuid=$(btrfs filesystem show "$mnt" | awk '/uuid:/ { print $NF }')
		[ -e "/sys/fs/btrfs/$uuid/hot_move" ] &&
			fail "hot_move/ with mixed block groups"
		umount "$mnt"
	else
		fail "mount with mixed block groups"
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
	keep_hot "$mnt/hot:0:15" -- \
		wait_for 30 on "$mnt/hot" "SSSSSSSSSSSSSSSSHHHHHHHHHHHHHHHH" ||
		{ echo "# hot: $("$where" "$mnt/hot")"; rc=1; }
	on "$mnt/cold" "$(printf 'H%.0s' {1..32})" || { echo "# cold moved"; rc=1; }
	[ "$(stat_of promoted_bytes)" -ge $((16 << 20)) ] || fail "line $LINENO"
	e="root=5\(FS_TREE\) ino=$(stat -c %i "$mnt/hot") start=$n len=1048576"
	traced "btrfs_hot_move_promote: .*$e moved=1048576 fallback=0 ret=0" ||
		fail "no promotion in the trace"
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
# usage is under the low watermark, an extent split by an overwrite in its
# middle too: two references of one file, not a shared extent.  (Demotion
# took it for shared and left it on the SSD.)
rc=1
if mountpoint -q "$mnt"; then
	rc=0
	demoted=$(stat_of demoted_bytes)
	dd if=/dev/urandom of="$mnt/hot" bs=4k count=1 seek=128 conv=notrunc \
	   oflag=direct status=none || fail "line $LINENO"
	sync
	sums hot cold
	cp "$work/sums" "$work/sums.2"
	# Everything counts as cold now, and the 16 MiB are above 1%.
	tune promote_temp=0xff000000 demote_temp=0xfe000000 interval=1 \
	     low_watermark=0 high_watermark=1 || fail "line $LINENO"
	wait_for 30 on "$mnt/hot" "$(printf 'H%.0s' {1..32})" ||
		{ echo "# hot: $("$where" "$mnt/hot")"; rc=1; }
	[ "$(stat_of demoted_bytes)" -gt "$demoted" ] || fail "line $LINENO"
	e="ino=$(stat -c %i "$mnt/hot") start=$n len=$n"
	traced "btrfs_hot_move_demote: .*$e moved=[1-9][0-9]* fallback=0 ret=0" ||
		fail "no demotion in the trace"
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
	keep_hot "$mnt/orig:0:7" -- \
		wait_for 30 eval '[ "$(stat_of skipped_shared_bytes)" -gt 0 ]' ||
		fail "line $LINENO"
	on "$mnt/orig" "HHHHHHHH" || { echo "# shared extents moved"; rc=1; }
	tune move_shared=1 || fail "line $LINENO"
	heat "$mnt/orig" 0 7 10 || fail "line $LINENO"
	keep_hot "$mnt/orig:0:7" -- wait_for 30 on "$mnt/orig" "SSSSSSSS" ||
		{ echo "# orig: $("$where" "$mnt/orig")"; rc=1; }
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
		# Read twice, it stays above 0x60000000 for minutes.
		tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
		     batch_bytes=4294967296 || fail "line $LINENO"
		heat "$mnt/big" 0 95 2 || fail "line $LINENO"
		sleep 0.$((RANDOM % 10))$((RANDOM % 10))
		umount "$mnt" || { fail "line $LINENO"; break; }
		do_mount hot_move || { fail "line $LINENO"; break; }
		verify sums || { fail "line $LINENO"; break; }
	done
	echo "# big: $("$where" "$mnt/big")"
fi
report "unmount during relocation" $rc

# 8. A full SSD: promotion fills it and stops, falling back to the HDD,
# tries again when room comes back, and leaves free space to user writes,
# who can write all that df says is free.
# (Moving 1 MiB ranges of larger extents keeps the old extents allocated
# until all of them moved: that space shows as used in df.)
rc=1
log_mark
if new_fs; then
	rc=0
	# small goes to the SSD first; deleted, it makes room below.
	dd if=/dev/urandom of="$mnt/small" bs=1M count=16 status=none
	sync
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 ||
		fail "tune"
	heat "$mnt/small" 0 15 30 || fail "line $LINENO"
	wait_for 60 on "$mnt/small" "$(printf 'S%.0s' {1..16})" ||
		fail "small not promoted: $("$where" "$mnt/small")"
	huge_hot || fail "line $LINENO"
	tune high_watermark=100 low_watermark=99 batch_bytes=4294967296 ||
		fail "tune"
	full='[ "$(stat_of ssd_used_bytes)" -ge $(($(stat_of ssd_total_bytes) * 9 / 10)) ]'
	# (Without a full SSD, or while promotion goes on, the fill below
	# would test nothing and could take very long.)
	if ! wait_for 300 eval "$full"; then
		fail "SSD not filled"
	elif ! wait_idle 120; then
		fail "promotion did not stop"
	else
		echo "# SSD $(stat_of ssd_used_bytes) of $(stat_of ssd_total_bytes) bytes"
		[ "$(stat_of fallback_bytes)" -gt 0 ] || fail "no fallback counted"
		e="ino=$n start=$n len=$n moved=$n"
		traced "btrfs_hot_move_fallback: .*$e fallback=[1-9][0-9]* ret=$n" ||
			fail "no fallback in the trace"
		traced "btrfs_hot_move_pause: .*reason=backoff free=$n margin=$n" ||
			fail "no backoff in the trace"
		logged "hot_move: non-rotational devices full" ||
			fail "fallback not logged"
		# Room comes back, less than a batch: small's 16 MiB, deleted.
		# A new file hotter than the rest of huge, already in the heat
		# maps (two update passes) when the room comes back, is promoted
		# there once a retry comes.  (Promotion waited for a whole batch
		# to leave the SSD, here 4 GiB: for ever.)  Before the fill
		# below, whose data block groups on the SSD give room of their
		# own.  huge's sums are from huge_hot: read again, huge would be
		# hotter.
		echo "# small: $("$where" "$mnt/small")"
		dd if=/dev/urandom of="$mnt/retry" bs=1M count=4 status=none
		sync
		(cd "$mnt" && sha256sum retry) >> "$work/sums"
		heat "$mnt/retry" 0 3 30 || fail "line $LINENO"
		if dbg=$(hot_dir); then
			pass0=$(passes)
			wait_for 30 eval '[ "$(passes)" -ge $((pass0 + 2)) ]' ||
				fail "no update pass"
		else
			fail "no debugfs directory of the filesystem"
		fi
		on "$mnt/retry" SSSS &&
			fail "retry promoted before the room came back"
		rm -f "$mnt/small"
		sync
		wait_for 180 on "$mnt/retry" SSSS ||
			fail "no retry after the fallback: $("$where" "$mnt/retry")"
		wait_idle 120 || fail "promotion did not stop after the retry"
		# df counts the extents written since the last commit as free.
		sync
		avail=$(df -B1 --output=avail "$mnt" | tail -1)
		[ "$avail" -ge $((64 << 20)) ] ||
			fail "relocation left $avail bytes free"
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
	     batch_bytes=16777216 || fail "tune"
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
		traced "btrfs_hot_move_pause: .*reason=(filling|dirty) free=$n margin=$n" ||
			fail "no pause in the trace"
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
	# Tuned while mounted with hot_move: tunables are refused without.
	tune promote_temp=0x80000000 interval=1 || fail "line $LINENO"
	mount -o remount,nohot_move,hot_track "$mnt" || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/f" bs=1M count=8 status=none
	sync
	before=$("$where" "$mnt/f")
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

# promoted_hot FILE: a new 32 MiB FILE (in $mnt), its sums taken, its first
# 16 MiB made hot and promoted, at promote_temp 0x84000000 and a run every
# second.
promoted_hot() {
	dd if=/dev/urandom of="$1" bs=1M count=32 status=none && sync &&
		sums "${1#"$mnt"/}" || return 1
	tune promote_temp=0x84000000 interval=1 && heat "$1" 0 15 30 ||
		return 1
	keep_hot "$1:0:15" -- wait_for 30 on "$1" "$(printf 'S%.0s' {1..16})*" ||
		{ echo "# not promoted: $("$where" "$1")"; return 1; }
}

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
	promoted_hot "$mnt/hot" || fail "line $LINENO"
	runs=$(stat_of runs)
	replace "$ssd" "$spare" || fail "replace"
	[ "$(stat_of runs)" -gt "$runs" ] || echo "# no run during the replace"
	on "$mnt/hot" "$(printf 'S%.0s' {1..16})*" || fail "placement lost"
	# Ranges 16-31 get hot now: promoted onto the new device.
	promoted=$(stat_of promoted_bytes)
	heat "$mnt/hot" 16 31 30 || fail "line $LINENO"
	keep_hot "$mnt/hot:16:31" -- \
		wait_for 30 on "$mnt/hot" "$(printf 'S%.0s' {1..32})" ||
		fail "not promoted onto the new device: $("$where" "$mnt/hot")"
	[ "$(stat_of promoted_bytes)" -gt "$promoted" ] || fail "line $LINENO"
	verify sums || fail "verify after replace"
	replace "$spare" "$ssd" || fail "replace back"
	on "$mnt/hot" "$(printf 'S%.0s' {1..32})" || fail "placement lost"
	verify sums || fail "verify after replace back"
fi
[ -z "$spare" ] || report "$name" $rc

# 13. Room for metadata on the fast device: metadata mirrored on the SSD
# and the HDD (RAID1, mkfs's default for two devices) needs a stripe on the
# SSD for each new metadata chunk.  Promotion filling the SSD at a high
# watermark of 100 % leaves that room: small (inline) files then fill the
# metadata chunks there are and more, new metadata chunks come, and the
# filesystem stays writable.  The SSD is shrunk to 320 MiB first, so that
# less hot data fills it.  (Without the room, promotion left 1 MiB of the
# SSD unallocated, and writing the small files failed with ENOSPC.)
small_files() {	# small_files DIR SYSFS_FILE BYTES: until SYSFS_FILE >= BYTES
	python3 - "$@" <<'PY'
import os, sys
d, stat, want = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(d, exist_ok=True)
n = 0
# Inline data and a 12 KiB extended attribute each: 14 KiB of metadata.
while int(open(stat).read()) < want:
    for _ in range(200):
        path = '%s/%d' % (d, n)
        with open(path, 'wb') as f:
            f.write(os.urandom(2000))
        os.setxattr(path, 'user.pad', os.urandom(12000))
        n += 1
    os.sync()
    if n >= 100000:
        sys.exit('%d files, %s still below %d' % (n, stat, want))
print('# %d small files' % n)
PY
}
rc=1
if new_fs; then
	rc=0
	btrfs filesystem resize 2:320M "$mnt" >/dev/null || fail "line $LINENO"
	huge_hot 320 || fail "line $LINENO"
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
	     high_watermark=100 low_watermark=99 batch_bytes=4294967296 ||
		fail "tune"
	if fast_full; then
		echo "# SSD $(stat_of ssd_used_bytes) of $(stat_of ssd_total_bytes) bytes," \
		     "$(stat_of metadata_reserve_bytes 2>/dev/null) kept for metadata"
		btrfs device usage -b "$mnt" | grep -E "^/|Unallocated" | paste - - |
			sed 's/^/# /'
		meta=$(dirname "$hm")/allocation/metadata
		# 16 MiB more metadata used than there was room for: new chunks.
		small_files "$mnt/small" "$meta/bytes_used" \
			$(($(cat "$meta/total_bytes") + (16 << 20))) ||
			fail "metadata did not grow"
		touch "$mnt/after" && sync || fail "not writable"
		grep "^[^ ]*  huge$" "$work/sums" > "$work/sums.13"
		(cd "$mnt" && find small -type f -print0 | xargs -0 sha256sum) >> "$work/sums.13"
		btrfs filesystem df "$mnt" | sed 's/^/# /'
	else
		fail "SSD not filled by promotion"
	fi
	verify sums.13 || fail "verify"
	check_fs || fail "btrfs check"
fi
report "room for metadata on a full SSD" $rc

# 14. A snapshot taken while promotion moves a file, with move_shared=0:
# the file and the snapshot share their extents afterwards, whether a move
# was checking, reading or marking the range when the snapshot was taken
# (the sharing check before the extent lock alone let a move unshare what
# the snapshot took meanwhile).  Rounds of snapshot, compare, delete,
# until the file is all promoted; the snapshot's file keeps the contents.
rc=1
if new_fs; then
	rc=0
	btrfs subvolume create "$mnt/sub" >/dev/null || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/sub/f" bs=1M count=128 status=none
	sync
	sums sub/f
	sed 's| sub/f$| snap/f|' "$work/sums" > "$work/sums.snap"
	# Read twice, it stays above 0x60000000 for minutes.
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
	     batch_bytes=4294967296 || fail "line $LINENO"
	heat "$mnt/sub/f" 0 127 2 || fail "line $LINENO"
	ssd() { "$where" "$mnt/sub/f" | tr -cd S | wc -c; }
	done_before=0 rounds=0
	for round in $(seq 10); do
		# Promotion goes on: more of the file on the SSD than before.
		wait_for 120 eval '[ "$(ssd)" -gt $done_before ]' || break
		btrfs subvolume snapshot -r "$mnt/sub" "$mnt/snap" >/dev/null ||
			{ fail "snapshot"; break; }
		rounds=$round
		# The run that was moving ends, and one more.
		runs=$(stat_of runs)
		wait_for 120 eval '[ "$(stat_of runs)" -ge $((runs + 2)) ]' ||
			fail "no runs after the snapshot"
		extents "$mnt/sub/f" | cut -d' ' -f1-3 > "$work/ext.sub"
		extents "$mnt/snap/f" | cut -d' ' -f1-3 > "$work/ext.snap"
		if ! cmp -s "$work/ext.sub" "$work/ext.snap"; then
			fail "round $round: extents unshared:" \
			     "$(diff "$work/ext.snap" "$work/ext.sub" | grep -c '^>') of" \
			     "$(wc -l < "$work/ext.snap")"
			break
		fi
		(cd "$mnt" && sha256sum --quiet -c "$work/sums.snap") ||
			{ fail "snapshot contents"; break; }
		done_before=$(ssd)
		btrfs subvolume delete "$mnt/snap" >/dev/null &&
			btrfs subvolume sync "$mnt" >/dev/null || { fail "delete"; break; }
		heat "$mnt/sub/f" 0 127 1 || fail "line $LINENO"
		[ "$done_before" -ge 128 ] && break
	done
	echo "# $rounds rounds, $(ssd) MiB promoted, skipped" \
	     "$(stat_of skipped_shared_bytes) shared bytes"
	# One snapshot taken while promotion moves the file is the case; more
	# rounds are tried while it goes on, as many as it lasts.
	[ "$rounds" -ge 1 ] || fail "no snapshot during promotion"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "snapshot during promotion, move_shared=0: extents stay shared" $rc

# uncompressed FILE: how many extents of FILE are not compressed.
uncompressed() {
	extents "$1" | {
		n=0
		while read -r _ _ _ flags; do
			((0x$flags & 0x8)) || n=$((n + 1))
		done
		echo $n
	}
}

# 16. Compressed extents stay compressed: a file written with
# compress-force=zstd and one compressed with zlib by defrag -c, on a
# filesystem mounted without compress now, are promoted, and every extent
# is still compressed (FIEMAP_EXTENT_ENCODED) afterwards.  (Relocation
# wrote them back uncompressed.)
rc=1
if new_fs; then
	rc=0
	# Compressible, not trivially: base64 of random bytes.
	umount "$mnt" && do_mount hot_move,compress-force=zstd || fail "line $LINENO"
	head -c 12M /dev/urandom | base64 | head -c 16M > "$mnt/z"
	sync
	umount "$mnt" && do_mount hot_move || fail "line $LINENO"
	head -c 12M /dev/urandom | base64 | head -c 16M > "$mnt/d"
	sync
	btrfs filesystem defragment -czlib "$mnt/d" || fail "line $LINENO"
	sync
	for f in z d; do
		[ "$(uncompressed "$mnt/$f")" = 0 ] || fail "$f not compressed to start with"
	done
	sums z d
	# Buffered passes are slower: a lower threshold than for O_DIRECT.
	tune promote_temp=0x70000000 interval=1 || fail "line $LINENO"
	heat_buffered "$mnt/z" 0 15 30 || fail "line $LINENO"
	heat_buffered "$mnt/d" 0 15 30 || fail "line $LINENO"
	for f in z d; do
		wait_for 60 on "$mnt/$f" "$(printf 'S%.0s' {1..16})" ||
			fail "$f not promoted: $("$where" "$mnt/$f")"
		n=$(uncompressed "$mnt/$f")
		[ "$n" = 0 ] || fail "$f: $n extents uncompressed after the move"
	done
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
	verify sums || fail "verify after remount"
fi
report "compressed extents stay compressed" $rc

# 17. Errors are counted and logged: under a qgroup limit that leaves no
# room, promoting a hot file fails with EDQUOT, which the errors and
# last_error statistics and the kernel log show; once the limit is lifted,
# the file is promoted.  (Relocation dropped the errors silently.)
rc=1
if new_fs; then
	rc=0
	btrfs quota enable "$mnt" && btrfs subvolume create "$mnt/q" >/dev/null ||
		fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/q/f" bs=1M count=8 status=none
	sync
	btrfs quota rescan -w "$mnt" >/dev/null || fail "line $LINENO"
	sums q/f
	qid=$(btrfs subvolume show "$mnt/q" | awk '/Subvolume ID:/ { print $3 }')
	rfer=$(btrfs qgroup show --raw "$mnt" | awk -v q="0/$qid" '$1 == q { print $2 }')
	btrfs qgroup limit "$rfer" "$mnt/q" || fail "line $LINENO"
	errors=$(stat_of errors)
	log_mark
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/q/f" 0 7 30 || fail "line $LINENO"
	if keep_hot "$mnt/q/f:0:7" -- \
		wait_for 60 eval '[ "$(stat_of errors)" -gt "$errors" ]'; then
		[ "$(stat_of last_error)" = 122 ] ||
			fail "last_error $(stat_of last_error), not EDQUOT (122)"
		logged "hot_move: promotion failed .*: -122" ||
			fail "EDQUOT not logged"
	else
		fail "no error counted: errors $(stat_of errors 2>&1)"
	fi
	on "$mnt/q/f" "HHHHHHHH" || fail "moved beyond the limit"
	btrfs qgroup limit none "$mnt/q" || fail "line $LINENO"
	# Hot again: the failed attempts may have taken long.
	heat "$mnt/q/f" 0 7 30 || fail "line $LINENO"
	keep_hot "$mnt/q/f:0:7" -- wait_for 60 on "$mnt/q/f" "SSSSSSSS" ||
		fail "not promoted once the limit was lifted: $("$where" "$mnt/q/f")"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "errors are counted and logged" $rc

# 18. fsfreeze during a run: the freeze waits for one file at most, not
# for the run, and the run goes on after the thaw.  One run has the
# budget to promote all of the 256 MiB file: the freeze comes once the
# first 1 MiB is on the SSD, and must find most of the file still on the
# HDD.  (A run held freeze protection from start to end: the freeze
# waited until the run had promoted the whole file.)
rc=1
if new_fs; then
	rc=0
	huge_hot 256 || fail "line $LINENO"
	# The batch first: each write starts a run, this one with the batch.
	tune batch_bytes=4294967296 interval=1 demote_temp=0x50000000 \
	     promote_temp=0x60000000 || fail "tune"
	ssd() { "$where" "$mnt/huge" | tr -cd S | wc -c; }
	if wait_for 120 eval '[ "$(ssd)" -gt 0 ]'; then
		start=$SECONDS
		fsfreeze -f "$mnt" || fail "freeze"
		took=$((SECONDS - start))
		fsfreeze -u "$mnt" || fail "thaw"
		before=$(ssd)
		echo "# froze in $took s, $before MiB on the SSD"
		[ $took -le $((20 * timeout_scale)) ] || fail "the freeze took $took s"
		[ "$before" -lt 128 ] || fail "the freeze waited for the run"
		wait_for 120 eval '[ "$(ssd)" -gt $before ]' ||
			fail "no promotion after the thaw"
	else
		fail "nothing promoted"
	fi
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "fsfreeze during a run" $rc

# 19. A data profile the fast devices cannot hold alone, RAID1 data on one
# SSD and one HDD: relocation is idle and says why, once, rather than
# rewrite hot ranges onto the HDD again and again; converted to single, it
# runs again.  (It said it was active, and every promotion fell back.)
rc=1
log_mark
if new_fs -d raid1; then
	rc=0
	tune interval=1 || fail "tune"
	[ "$(stat_of active)" = 0 ] || fail "active with RAID1 data on one SSD"
	logged "hot_move: data profile raid1 needs 2 devices of each class" ||
		fail "idle relocation not logged"
	btrfs balance start -dconvert=single "$mnt" >/dev/null 2>&1 ||
		fail "balance"
	wait_for 30 eval '[ "$(stat_of active)" = 1 ]' ||
		fail "still idle with single data"
	[ "$(dmesg | sed -n "/$mark/,\$p" | grep -c "hot_move: data profile")" = 1 ] ||
		fail "logged more than once"
	check_fs || fail "btrfs check"
fi
report "a data profile the fast devices cannot hold" $rc

# 20. A balance keeps the placement: every data block group relocated,
# twice, with no relocation run that could promote again, and the hot
# file is still on the SSD, the cold one on the HDD.  (Balance rewrote
# data with the default preference: the hot file went back to the HDD.)
S16=$(printf 'S%.0s' {1..16})
H16=$(printf 'H%.0s' {1..16})
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/hot" bs=1M count=16 status=none
	dd if=/dev/urandom of="$mnt/cold" bs=1M count=16 status=none
	sync
	sums hot cold
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/hot" 0 15 30 || fail "line $LINENO"
	keep_hot "$mnt/hot:0:15" -- wait_for 30 on "$mnt/hot" "$S16" ||
		fail "not promoted: $("$where" "$mnt/hot")"
	# Nothing is that hot: no more promotion.
	tune promote_temp=0xffffffff || fail "line $LINENO"
	wait_idle 60 || fail "relocation did not stop"
	promoted=$(stat_of promoted_bytes)
	extents "$mnt/hot" > "$work/ext.before"
	for i in 1 2; do
		btrfs balance start -d "$mnt" >"$work/balance.log" 2>&1 ||
			{ cat "$work/balance.log"; fail "balance $i"; }
	done
	extents "$mnt/hot" | cmp -s - "$work/ext.before" &&
		fail "the balance did not relocate the hot file"
	on "$mnt/hot" "$S16" ||
		fail "balance moved the hot file: $("$where" "$mnt/hot")"
	on "$mnt/cold" "$H16" ||
		fail "balance moved the cold file: $("$where" "$mnt/cold")"
	[ "$(stat_of promoted_bytes)" = "$promoted" ] || fail "promoted again"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "a balance keeps the placement" $rc

# 21. Device remove while hot_move runs: a hot file promoted, a second fast
# device added, and the first fast device removed while relocation runs
# every second: the file moves to the other fast device (the removal
# relocates it, keeping its class), keeps its contents, and promotion goes
# on after.  Then the first comes back and the second goes, with the same
# result.  (The removal rewrote the file onto the HDD.)
name="device remove while hot_move runs"
rc=1
if [ -z "$spare" ]; then
	ktap_test_skip "$name: no spare device (HOT_MOVE_SPARE)"
elif new_fs; then
	rc=0
	promoted_hot "$mnt/hot" || fail "line $LINENO"
	echo 0 > "$(queue "$spare")/rotational" &&
		btrfs device add -f "$spare" "$mnt" >/dev/null || fail "add"
	runs=$(stat_of runs)
	btrfs device remove "$ssd" "$mnt" || fail "remove"
	[ "$(stat_of runs)" -gt "$runs" ] || echo "# no run during the removal"
	on "$mnt/hot" "$S16*" ||
		fail "placement lost with the device: $("$where" "$mnt/hot")"
	verify sums || fail "verify after remove"
	heat "$mnt/hot" 16 31 30 || fail "line $LINENO"
	keep_hot "$mnt/hot:16:31" -- wait_for 30 on "$mnt/hot" "$S16$S16" ||
		fail "not promoted after the removal: $("$where" "$mnt/hot")"
	set_classes && btrfs device add -f "$ssd" "$mnt" >/dev/null &&
		btrfs device remove "$spare" "$mnt" || fail "add and remove back"
	on "$mnt/hot" "$S16$S16" ||
		fail "placement lost with the second device: $("$where" "$mnt/hot")"
	verify sums || fail "verify after remove back"
	check_fs || fail "btrfs check"
fi
[ -z "$spare" ] || report "$name" $rc

# 22. Scrub while hot_move runs: scrubs one after another while a 128 MiB
# hot file is promoted 8 MiB per run, until 32 MiB more are promoted (a
# scrub holds each block group read-only while it checks it, so a
# promotion may fall back and back off): each scrub is clean, and once they
# end the whole file gets to the SSD, unchanged.
rc=1
if new_fs; then
	rc=0
	huge_hot 128 || fail "line $LINENO"
	ssd() { "$where" "$mnt/huge" | tr -cd S | wc -c; }
	tune demote_temp=0x50000000 promote_temp=0x60000000 interval=1 \
	     batch_bytes=8388608 || fail "tune"
	scrubs=0 promoted=$(stat_of promoted_bytes) errors=$(stat_of errors)
	end=$((SECONDS + 300 * timeout_scale))
	while [ "$(stat_of promoted_bytes)" -lt $((promoted + (32 << 20))) ]; do
		if [ $SECONDS -ge $end ]; then
			fail "promotion stalled: $(ssd) MiB after $scrubs scrubs"
			break
		fi
		if ! btrfs scrub start -B "$mnt" >"$work/scrub.log" 2>&1 ||
		   ! grep -q "Error summary: *no errors found" "$work/scrub.log"; then
			cat "$work/scrub.log"
			fail "scrub $scrubs"
			break
		fi
		scrubs=$((scrubs + 1))
	done
	echo "# $scrubs scrubs while $(ssd) MiB were promoted," \
	     "$(stat_of fallback_bytes) bytes fell back"
	# Hot again: the scrubs may have taken long on a slow machine.
	heat "$mnt/huge" 0 127 1 || fail "line $LINENO"
	wait_for 300 eval '[ "$(ssd)" = 128 ]' ||
		fail "not promoted: $("$where" "$mnt/huge")"
	[ "$(stat_of errors)" = "$errors" ] ||
		fail "errors: $(stat_of errors), last $(stat_of last_error)"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "scrub while hot_move runs" $rc

# 23. NODATACOW and preallocated files: a file with the No_COW attribute,
# and a file preallocated with fallocate and half written, are promoted
# where they hold data, their contents unchanged (read from disk).  The
# first keeps No_COW, and an overwrite after the move stays in place; the
# unwritten half of the second stays unwritten (FIEMAP) and reads as zeros.
rc=1
name="NODATACOW and preallocated files"
if ! have chattr lsattr fallocate cmp; then
	ktap_test_skip "$name: no $missing"
elif new_fs; then
	rc=0
	touch "$mnt/nocow" && chattr +C "$mnt/nocow" || fail "chattr"
	dd if=/dev/urandom of="$mnt/nocow" bs=1M count=16 conv=notrunc status=none
	fallocate -l 16M "$mnt/pre" || fail "fallocate"
	dd if=/dev/urandom of="$mnt/pre" bs=1M count=8 conv=notrunc status=none
	sync
	sums nocow pre
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/nocow" 0 15 30 || fail "line $LINENO"
	heat "$mnt/pre" 0 7 30 || fail "line $LINENO"
	keep_hot "$mnt/nocow:0:15" "$mnt/pre:0:7" -- \
		wait_for 60 on "$mnt/nocow" "$S16" ||
		fail "nocow not promoted: $("$where" "$mnt/nocow")"
	keep_hot "$mnt/nocow:0:15" "$mnt/pre:0:7" -- \
		wait_for 60 on "$mnt/pre" "SSSSSSSSHHHHHHHH" ||
		fail "pre not promoted: $("$where" "$mnt/pre")"
	echo 3 > /proc/sys/vm/drop_caches
	verify sums || fail "verify after the moves"
	lsattr "$mnt/nocow" | grep -q "^[^ ]*C" || fail "No_COW lost"
	before=$(extents "$mnt/nocow" | head -1)
	dd if=/dev/urandom of="$mnt/nocow" bs=4k count=1 conv=notrunc,fsync status=none
	[ "$(extents "$mnt/nocow" | head -1)" = "$before" ] ||
		fail "overwrite not in place: $before, $(extents "$mnt/nocow" | head -1)"
	# Written extents end by 8 MiB; FIEMAP_EXTENT_UNWRITTEN (0x800) after.
	extents "$mnt/pre" > "$work/ext.pre"
	while read -r log _ len flags; do
		((0x$log + 0x$len <= 8 << 20 || 0x$flags & 0x800)) ||
			fail "written at 0x$log: $(tr '\n' ';' < "$work/ext.pre")"
	done < "$work/ext.pre"
	cmp -n $((8 << 20)) -i $((8 << 20)):0 "$mnt/pre" /dev/zero ||
		fail "unwritten half not zeros"
	sums nocow pre
	echo 3 > /proc/sys/vm/drop_caches
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
[ -n "$missing" ] || report "$name" $rc
missing=

# 24. Writes while hot_move moves a file: in turn, buffered and mmap
# writes and hole punches at random places of a hot 64 MiB file and
# truncations down into its last 4 MiB (then back up), fsynced now and
# then, from before relocation may promote it (4 MiB per run) until it has
# promoted 16 MiB and each kind ran twice, the file read now and then to
# keep it hot: the file then holds exactly what was written (a model kept
# in memory), scrub and check are clean.  Which ranges a truncation meets
# before, during or after their move is up to timing; the test does not
# depend on it.  (Truncations anywhere made the file a hole some seconds
# in, and 30 reads alone cooled below promote_temp before 16 MiB had moved
# on a slow machine: promotion stopped.)
churn() {	# churn FILE STAT BYTES: until STAT >= BYTES; prints the sha256
	python3 - "$@" "$((300 * timeout_scale))" <<'PY'
import ctypes, hashlib, mmap, os, random, sys, time
path, stat, want, limit = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
libc = ctypes.CDLL(None, use_errno=True)
libc.fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_long, ctypes.c_long]
PUNCH = 0x02 | 0x01	# FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE
with open(path, 'rb') as f:
    model = bytearray(f.read())
size = len(model)
fd = os.open(path, os.O_RDWR)
rng = random.Random(20261124)
end = time.monotonic() + limit
ops = [0] * 4
while int(open(stat).read()) < want or sum(ops) < 8:
    if time.monotonic() > end:
        sys.exit('promotion did not go on: %s of %d bytes' %
                 (open(stat).read().strip(), want))
    op = sum(ops) % 4	# each kind in turn: all four in a short run
    off = rng.randrange(0, size >> 12) << 12
    n = min(rng.randrange(1, 9) << 12, size - off)
    if op == 0:
        data = os.urandom(n)
        os.pwrite(fd, data, off)
        model[off:off + n] = data
    elif op == 1:
        data = os.urandom(n)
        with mmap.mmap(fd, size) as m:
            m[off:off + n] = data
            m.flush()
        model[off:off + n] = data
    elif op == 2:
        if libc.fallocate(fd, PUNCH, off, n):
            sys.exit('punch: errno %d' % ctypes.get_errno())
        model[off:off + n] = bytes(n)
    else:
        off = size - (rng.randrange(1, 1025) << 12)
        os.ftruncate(fd, off)
        os.ftruncate(fd, size)
        model[off:] = bytes(size - off)
    ops[op] += 1
    if rng.randrange(8) == 0:
        os.fsync(fd)
    time.sleep(0.2)
os.fsync(fd)
print('# writes %d, mmap writes %d, punches %d, truncations %d' % tuple(ops),
      file=sys.stderr)
print(hashlib.sha256(model).hexdigest())
PY
}
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/f" bs=1M count=64 status=none
	sync
	# Nothing promoted until the writes have begun.
	tune promote_temp=0xffffffff interval=1 batch_bytes=4194304 ||
		fail "line $LINENO"
	heat "$mnt/f" 0 63 30 || fail "line $LINENO"
	churn "$mnt/f" "$hm/promoted_bytes" \
		$(($(stat_of promoted_bytes) + (16 << 20))) > "$work/churn" &
	churn=$!
	( while kill -0 $churn 2>/dev/null; do
		heat "$mnt/f" 0 63 1 || exit 1
		sleep 2
	done ) &
	warm=$!
	tune promote_temp=0x70000000 || fail "line $LINENO"
	wait $churn
	churned=$?
	wait $warm || fail "reads to keep the file hot"
	if [ $churned = 0 ]; then
		echo "$(cat "$work/churn")  f" > "$work/sums"
		echo 3 > /proc/sys/vm/drop_caches
		verify sums || fail "contents differ from what was written"
		check_fs || fail "btrfs check"
		verify sums || fail "verify after remount"
	else
		fail "churn: $(stat_of fill_pauses) fill pauses"
	fi
fi
report "writes, mmap writes, punches and truncations during moves" $rc

# 25. An active swap file is left where it is, and that is no error: read
# from disk (as root may) as often as a file beside it, it stays on the
# HDD, with no error counted, while the other file is promoted; after
# swapoff it is promoted too.  (Relocation counted ETXTBSY as an error.)
rc=1
name="an active swap file stays, no error"
[ -e /proc/swaps ] || missing="swap support in the kernel"
if [ -n "$missing" ] || ! have mkswap swapon swapoff chattr; then
	ktap_test_skip "$name: no $missing"
elif new_fs; then
	rc=0
	touch "$mnt/swap" && chattr +C "$mnt/swap" && chmod 600 "$mnt/swap" &&
		dd if=/dev/zero of="$mnt/swap" bs=1M count=16 status=none &&
		mkswap "$mnt/swap" >/dev/null || fail "mkswap"
	dd if=/dev/urandom of="$mnt/other" bs=1M count=16 status=none
	sync
	sums other
	if swapon "$mnt/swap"; then
		errors=$(stat_of errors)
		tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
		heat "$mnt/swap" 0 15 30 || fail "line $LINENO"
		heat "$mnt/other" 0 15 30 || fail "line $LINENO"
		keep_hot "$mnt/swap:0:15" "$mnt/other:0:15" -- \
			wait_for 60 on "$mnt/other" "$S16" ||
			fail "other file not promoted: $("$where" "$mnt/other")"
		# The runs that promoted it looked at the swap file too.
		on "$mnt/swap" "$H16" ||
			fail "active swap file moved: $("$where" "$mnt/swap")"
		[ "$(stat_of errors)" = "$errors" ] ||
			fail "errors counted: $(stat_of errors), last $(stat_of last_error)"
		swapoff "$mnt/swap" || fail "swapoff"
		heat "$mnt/swap" 0 15 30 || fail "line $LINENO"
		keep_hot "$mnt/swap:0:15" -- wait_for 60 on "$mnt/swap" "$S16" ||
			fail "not promoted after swapoff: $("$where" "$mnt/swap")"
	else
		fail "swapon"
	fi
	rm -f "$mnt/swap"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
[ -n "$missing" ] || report "$name" $rc
missing=

# 26. After a mount, data that hot data tracking has not seen is not
# demoted before tracking has been on for hot-kick-time: a remount must not
# send the hot data of the SSD back to the HDD.  (It was demoted at the
# first run.)
rc=1
if new_fs; then
	rc=0
	dd if=/dev/urandom of="$mnt/seen" bs=1M count=16 status=none
	sync
	tune promote_temp=0x84000000 interval=1 || fail "line $LINENO"
	heat "$mnt/seen" 0 15 30 || fail "line $LINENO"
	keep_hot "$mnt/seen:0:15" -- \
		wait_for 60 on "$mnt/seen" "$(printf 'S%.0s' {1..16})" ||
		fail "not promoted: $("$where" "$mnt/seen")"
	sums seen
	# Mounted again, and not read until the end: no item.
	umount "$mnt" && do_mount hot_move || fail "line $LINENO"
	tune promote_temp=0xff000000 demote_temp=0xfe000000 interval=1 \
	     low_watermark=0 high_watermark=1 || fail "line $LINENO"
	# Three runs that got as far as demotion, not paused.
	runs=$(stat_of runs) pauses=$(stat_of fill_pauses)
	demoting='[ $(($(stat_of runs) - runs - $(stat_of fill_pauses) + pauses)) -ge 3 ]'
	wait_for 60 eval "$demoting" || fail "line $LINENO"
	on "$mnt/seen" "$(printf 'S%.0s' {1..16})" ||
		fail "demoted data not seen since the mount: $("$where" "$mnt/seen")"
	[ "$(stat_of demoted_bytes)" = 0 ] || fail "line $LINENO"
	# Once tracking has been on for hot-kick-time, the data is cold.  (The
	# sysctl is global: other hot_move mounts of the machine would demote
	# their data not seen too.)
	echo 1 > /proc/sys/fs/hot-kick-time
	wait_for 60 on "$mnt/seen" "$(printf 'H%.0s' {1..16})" ||
		fail "not demoted once seen: $("$where" "$mnt/seen")"
	echo 3600 > /proc/sys/fs/hot-kick-time
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "data not seen since the mount stays until hot-kick-time" $rc

# range_reads INO MIB: the reads hot data tracking counted in range MIB of
# file INO of the top subvolume (range_stat; 0 without an item).
range_reads() {
	awk -v i="$1" -v s=$(($2 << 20)) 'BEGIN { r = 0 }
		$1 == i && $2 == 5 && $3 == s { r = $5 } END { print r }' \
		"$dbg/range_stat"
}

# 27. Relocation reads what it moves and no further: it mutes only the
# 1 MiB range it moves, and readahead's window (4 MiB and more on btrfs)
# read the next ranges too, which then counted reads, looked hot at a low
# promote_temp and were promoted, each heating the ones after it.  Only
# ranges 0-3 of a file on the HDD are read: the others get no read counted
# and stay where they are.
rc=1
if new_fs && dbg=$(hot_dir); then
	rc=0
	# btrfs's least window, whatever the devices' defaults are here.
	echo 4096 > "$(dirname "$hm")/bdi/read_ahead_kb" || fail "line $LINENO"
	dd if=/dev/urandom of="$mnt/f" bs=1M count=16 status=none
	sync
	sums f
	# Relocation reads from disk what is not cached.
	echo 1 > /proc/sys/vm/drop_caches
	ino=$(stat -c %i "$mnt/f")
	on "$mnt/f" "$(printf 'H%.0s' {1..16})" || fail "new data not on the HDD"
	tune promote_temp=0x7c000000 interval=1 || fail "line $LINENO"
	heat "$mnt/f" 0 3 30 || fail "line $LINENO"
	keep_hot "$mnt/f:0:3" -- wait_for 60 on "$mnt/f" "SSSS*" ||
		fail "not promoted: $("$where" "$mnt/f")"
	# Time for what relocation counted to make ranges hot: two update
	# passes, then runs until one moves nothing.
	pass0=$(passes)
	wait_for 30 eval '[ "$(passes)" -ge $((pass0 + 2)) ]' || fail "no update pass"
	wait_idle 60 || echo "# promotion did not stop: $("$where" "$mnt/f")"
	for r in {4..15}; do
		reads=$(range_reads "$ino" $r)
		[ "$reads" = 0 ] || fail "range $r: $reads reads counted, none done"
	done
	on "$mnt/f" "SSSS$(printf 'H%.0s' {1..12})" ||
		fail "ranges not read moved: $("$where" "$mnt/f")"
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "relocation reads no further than the range it moves" $rc

# 28. While the SSD is under low_watermark, warm ranges move too, up to it:
# with update passes of 10 s, ranges 0-7 of a file read once a second,
# below the default promote_temp (1.3 reads a second), are promoted, no
# more than low_watermark leaves room for; ranges read four times, ranges
# read in one burst of eight reads each (warm for one pass) and the rest
# stay.
# With low_watermark=0 (no room for warm data) nothing moves.
warm_ranges() {
	local pass0 low map

	pass0=$(passes)
	wait_for 60 eval '[ "$(passes)" -ge $((pass0 + 3)) ]' || {
		echo "# no update pass"
		return 1
	}
	wait_idle 60 || { echo "# relocation did not stop"; return 1; }
	on "$mnt/f" "$(printf 'H%.0s' {1..24})" ||
		{ echo "# moved without room: $("$where" "$mnt/f")"; return 1; }
	# Room for a few MiB of warm data.
	tune low_watermark=1 || return 1
	low=$(($(stat_of ssd_total_bytes) / 100))
	wait_for 60 eval '[ "$(stat_of promoted_bytes)" -gt 0 ]' ||
		{ echo "# warm ranges not promoted"; return 1; }
	wait_idle 60 || { echo "# promotion did not stop"; return 1; }
	[ "$(stat_of promoted_bytes)" -le $((low + (1 << 20))) ] || {
		echo "# $(stat_of promoted_bytes) bytes promoted, room $low"
		return 1
	}
	map=$("$where" "$mnt/f")
	[ $((low + (1 << 20))) -ge $((8 << 20)) ] || [[ ${map:0:8} == *H* ]] ||
		{ echo "# all warm ranges moved, room $low: $map"; return 1; }
	tune low_watermark=75 || return 1
	heat "$mnt/f" 8 15 4 && heat "$mnt/f" 16 19 8 || return 1
	wait_for 60 on "$mnt/f" "$(printf 'S%.0s' {1..8})*" ||
		{ echo "# warm ranges not promoted: $("$where" "$mnt/f")"; return 1; }
	# The bursts are warm at the next pass only: two passes, then idle.
	pass0=$(passes)
	wait_for 60 eval '[ "$(passes)" -ge $((pass0 + 2)) ]' || return 1
	wait_idle 60 || echo "# promotion did not stop: $("$where" "$mnt/f")"
	on "$mnt/f" "$(printf 'S%.0s' {1..8})$(printf 'H%.0s' {1..16})" ||
		{ echo "# more moved: $("$where" "$mnt/f")"; return 1; }
}
rc=1
if new_fs && dbg=$(hot_dir); then
	rc=0
	echo 10 > /proc/sys/fs/hot-update-delay
	dd if=/dev/urandom of="$mnt/f" bs=1M count=24 status=none
	sync
	sums f
	[ "$(stat_of promote_temp)" = 0x82000000 ] || fail "line $LINENO"
	tune interval=1 low_watermark=0 || fail "line $LINENO"
	# The pass after the change of delay may be short, and a few reads in
	# it hot: from two passes on, they last 10 s.
	pass0=$(passes)
	wait_for 60 eval '[ "$(passes)" -ge $((pass0 + 2)) ]' ||
		fail "line $LINENO"
	keep_pause=1 keep_hot "$mnt/f:0:7" -- warm_ranges || fail "warm ranges"
	echo 1 > /proc/sys/fs/hot-update-delay
	verify sums || fail "verify"
	check_fs || fail "btrfs check"
fi
report "warm ranges fill the room under low_watermark" $rc

# 29. The filesystem is consistent.
rc=1
if mountpoint -q "$mnt" && umount "$mnt"; then
	btrfs check --readonly "$hdd" >"$work/check.log" 2>&1 && rc=0
	[ $rc = 0 ] || tail -20 "$work/check.log"
fi
report "btrfs check" $rc

ktap_finished
