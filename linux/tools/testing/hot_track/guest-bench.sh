#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-bench.sh MODE FS OUTDIR [RUNTIME] [SIZE]: one sample of the overhead
# benchmark, run inside the guest.  Makes FS on $DISK_data, mounts it with
# hot_track when MODE is "on" (not for "off" and "base"), and runs every job
# file of fio/ on it, writing fio's JSON output to OUTDIR/<job>.json.
set -euo pipefail
mode=$1 fs=$2 out=$3
export RUNTIME=${4:-10} SIZE=${5:-256m}
here=$(cd "$(dirname "$0")" && pwd)
mnt=/mnt/bench

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
for job in "$here"/fio/*.fio; do
	name=$(basename "$job" .fio)
	sync
	echo 3 > /proc/sys/vm/drop_caches
	fio --output-format=json --output="$out/$name.json" \
	    --directory="$mnt" "$job"
	rm -f "$mnt"/*
done
umount "$mnt"
