#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest: the hot_track kselftests on ext4, xfs and btrfs (ubd disks).
set -uo pipefail
export HOT_TRACK_DEVS="ext4=$DISK_ext4 xfs=$DISK_xfs btrfs=$DISK_btrfs"
export HOT_TRACK_PLAIN_DEV=$DISK_plain
export HOT_TRACK_TEST=$HT_TOP/build/selftests/hot_track_test
exec "$HT_TOP/build/linux/tools/testing/selftests/hot_track/hot_track.sh"
