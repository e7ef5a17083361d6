#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest: the hot_track kselftests on ext4, xfs and btrfs (ubd disks), then
# btrfs hot relocation on a rotational and a non-rotational disk.
set -uo pipefail
export HOT_TRACK_DEVS="ext4=$DISK_ext4 xfs=$DISK_xfs btrfs=$DISK_btrfs"
export HOT_TRACK_PLAIN_DEV=$DISK_plain
export HOT_TRACK_TEST=$HT_TOP/build/selftests/hot_track_test
export HOT_MOVE_HDD=$DISK_hdd HOT_MOVE_SSD=$DISK_ssd HOT_MOVE_SPARE=${DISK_spare:-}
export BTRFS_WHERE=$HT_TOP/build/selftests/btrfs_where
export HOT_HEAT=$HT_TOP/build/selftests/hot_heat HOTTOP=$HT_TOP/build/tools/hottop
dir=$HT_TOP/build/linux/tools/testing/selftests/hot_track
rc=0
# ARGS: which to run, hot_track and/or hot_move (default both).
for t in ${*:-hot_track hot_move}; do
	case $t in
	hot_track) "$dir/hot_track.sh" || rc=1 ;;
	hot_move) "$dir/btrfs_hot_move.sh" || rc=1 ;;
	esac
done
exit $rc
