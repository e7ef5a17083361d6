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
done
restore
exit $rc
