#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# PID 1 of a UML guest started by scripts/guest-run: mount the kernel's
# filesystems over the host's view, run $HT_SCRIPT, record its status, scan
# for leaks and power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
# Private scratch space, unless the work tree lives there on the host.
for d in /tmp /run /mnt; do
	case $HT_TOP/ in $d/*) continue ;; esac
	mount -t tmpfs tmpfs $d
done
mount -t debugfs debugfs /sys/kernel/debug
. "$HT_RUNDIR/env"
cd "$HT_RUNDIR" || exit 1
echo "guest: running $HT_SCRIPT $HT_ARGS" > /dev/console
# shellcheck disable=SC2086
bash "$HT_SCRIPT" $HT_ARGS 2>&1 | tee "$HT_RUNDIR/out.log" > /dev/console
echo "${PIPESTATUS[0]}" > "$HT_RUNDIR/status.tmp"
if [ -e /sys/kernel/debug/kmemleak ]; then
	# Two scans: an object must look unreferenced twice to be reported.
	echo scan > /sys/kernel/debug/kmemleak; sleep 1
	echo scan > /sys/kernel/debug/kmemleak
	cat /sys/kernel/debug/kmemleak > "$HT_RUNDIR/kmemleak.log"
fi
mv "$HT_RUNDIR/status.tmp" "$HT_RUNDIR/status"
sync
# reboot(2) with RB_POWER_OFF: UML exits.
exec python3 -c 'import ctypes; ctypes.CDLL(None).reboot(0x4321fedc)'
