#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest: the kernel boots with SMP, and ext4, xfs and btrfs can be made,
# mounted, written, read back and unmounted on ubd disks.
set -euo pipefail
ncpu=$(grep -c ^processor /proc/cpuinfo)
echo "boot: $(uname -r), $ncpu CPUs"
[ "$ncpu" -ge 2 ] || { echo "boot: expected SMP"; exit 1; }
i=0
for fs in ext4 xfs btrfs; do
	dev=$(eval echo "\$DISK_$fs")
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	btrfs) mkfs.btrfs -q -f "$dev" ;;
	esac
	mkdir -p /mnt/$fs
	mount -t $fs "$dev" /mnt/$fs
	dd if=/dev/urandom of=/mnt/$fs/data bs=1M count=4 status=none
	sum=$(md5sum < /mnt/$fs/data)
	umount /mnt/$fs
	mount -t $fs "$dev" /mnt/$fs
	[ "$(md5sum < /mnt/$fs/data)" = "$sum" ] || { echo "boot: $fs: data differs"; exit 1; }
	umount /mnt/$fs
	echo "boot: $fs ok"
	i=$((i + 1))
done
