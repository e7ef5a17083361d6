#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest-accuracy.sh FS OUTDIR [ACCURACY OPTIONS]: the accuracy benchmark,
# run inside the guest (or on a test machine) as root.  Makes FS on
# $DISK_data (reformatted!), mounts it with hot_track at /mnt/acc, runs
# accuracy.py on it, writing accuracy.csv and summary.json to OUTDIR, and
# unmounts it.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '4,8p' "$0"; exit 2; }
fs=$1 out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
mnt=/mnt/acc
dev=${DISK_data:?no \$DISK_data: the disk to reformat}

case $fs in
ext4) mkfs.ext4 -q -F "$dev" ;;
xfs) mkfs.xfs -q -f "$dev" ;;
btrfs) mkfs.btrfs -q -f "$dev" >/dev/null ;;
*) echo "guest-accuracy: unknown filesystem $fs" >&2; exit 2 ;;
esac
mkdir -p "$mnt" "$out"
mount -t "$fs" -o hot_track "$dev" "$mnt"
trap 'umount "$mnt" 2>/dev/null || true' EXIT
grep " $mnt " /proc/mounts
cat /proc/version
nproc
python3 "$here/accuracy.py" "$@" "$mnt" "$out"
rm -f "$mnt"/acc.*
umount "$mnt"
trap - EXIT
