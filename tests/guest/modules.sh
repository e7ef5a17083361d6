#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest, modular kernel (config/modules.config): ext4, xfs and btrfs are
# modules.  Each loads (with what it depends on), the hot_track kselftests
# pass on each mounted with hot_track, and each unloads again afterwards.
# ARGS: the filesystems (default: ext4 xfs btrfs).
set -uo pipefail
modroot=$HT_TOP/build/uml-mod/modroot
fses=${*:-ext4 xfs btrfs}
rc=0
# The untracked comparison filesystem of the tests is ext4 too.
for fs in ext4 $fses; do
	grep -qw "$fs" /proc/filesystems && continue
	grep -q "^$fs " /proc/modules && { echo "modules: $fs loaded but not registered"; exit 1; }
	modprobe -d "$modroot" "$fs" || { echo "modules: modprobe $fs failed"; exit 1; }
	grep -q "^$fs " /proc/modules || { echo "modules: $fs is not a module"; exit 1; }
	echo "modules: $fs loaded"
done

export HOT_TRACK_DEVS="ext4=$DISK_ext4 xfs=$DISK_xfs btrfs=$DISK_btrfs"
export HOT_TRACK_PLAIN_DEV=$DISK_plain HOT_TRACK_FS=$fses
export HOT_TRACK_TEST=$HT_TOP/build/selftests/hot_track_test
"$HT_TOP/build/linux/tools/testing/selftests/hot_track/hot_track.sh" || rc=1

# Nothing of the tracking may pin a module once its filesystems are gone.
for fs in $fses ext4; do
	grep -q "^$fs " /proc/modules || continue
	if modprobe -d "$modroot" -r "$fs"; then
		echo "modules: $fs unloaded"
	else
		echo "modules: modprobe -r $fs failed"; rc=1
	fi
done
exit $rc
