#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest: heat survives a reboot.  Run twice on the same disks (make
# heat-reboot-test): "save" makes files with known heat on ext4 and btrfs,
# saves it with hot_heat into the run directory and powers off; "load",
# in the next boot, mounts again, loads it, and checks each file's counts
# and that its last read is as old as it was at the save plus the time
# between, which is longer than this boot has been up: CLOCK_MONOTONIC
# started again, and old data must not look fresh.  A file deleted and
# made again with the same inode number between the boots (on ext4) gets
# none of the old file's heat.
set -uo pipefail
heat=$HT_TOP/build/selftests/hot_heat
phase=$1
rc=0
echo 1 > /proc/sys/fs/hot-update-delay

fail() { echo "heat-reboot: $*"; rc=1; }

for fs in ext4 btrfs; do
	dev=$(eval echo "\$DISK_$fs")
	mnt=/mnt/$fs
	saved=$HT_RUNDIR/heat.$fs
	mkdir -p $mnt
	if [ "$phase" = save ]; then
		case $fs in
		ext4) mkfs.ext4 -q -F "$dev" ;;
		btrfs) mkfs.btrfs -q -f "$dev" >/dev/null ;;
		esac
		mount -t $fs -o hot_track "$dev" $mnt || { fail "$fs: mount"; continue; }
		for i in 0 1 2; do
			dd if=/dev/urandom of=$mnt/h$i bs=1M count=2 oflag=direct status=none
			# Buffered, from disk each time: btrfs may serve
			# O_DIRECT reads through the page cache.
			for r in $(seq $((5 * (i + 1)))); do
				echo 1 > /proc/sys/vm/drop_caches
				dd if=$mnt/h$i of=/dev/null bs=4k count=1 status=none
			done
		done
		# Saved once an update pass has listed the three.
		for t in $(seq $((100 * HOT_TIMEOUT_SCALE))); do
			"$heat" save $mnt "$saved" || fail "$fs: save"
			[ "$(grep -c '^file ' "$saved")" -ge 3 ] && break
			sleep 0.2
		done
		[ "$(grep -c '^file ' "$saved")" -ge 3 ] || fail "$fs: not saved"
		for i in 0 1 2; do
			echo "h$i $(stat -c %i $mnt/h$i)"
		done > "$saved.names"
		if [ $fs = ext4 ]; then
			# h0 deleted, and a file with its inode number if ext4
			# gives it again: it must get none of h0's heat.
			ino=$(stat -c %i $mnt/h0)
			rm $mnt/h0
			for i in $(seq 20); do
				touch $mnt/n$i
				[ "$(stat -c %i $mnt/n$i)" = "$ino" ] &&
					{ echo "reuse n$i" >> "$saved.names"; break; }
			done
		fi
		umount $mnt || fail "$fs: umount"
		echo "heat-reboot: $fs: saved $(grep -c '^file ' "$saved") files"
		continue
	fi

	mount -t $fs -o hot_track "$dev" $mnt || { fail "$fs: mount"; continue; }
	"$heat" $mnt/h1 >/dev/null 2>&1 && fail "$fs: heat before the load"
	"$heat" load $mnt "$saved" 2>"$HT_RUNDIR/load.$fs" || fail "$fs: load"
	cat "$HT_RUNDIR/load.$fs"
	# Saved again once an update pass has listed what was loaded: the
	# ages, which FS_IOC_GET_HEAT_INFO cannot give from before boot.
	for t in $(seq $((100 * HOT_TIMEOUT_SCALE))); do
		"$heat" save $mnt "$saved.2" || fail "$fs: save"
		[ "$(grep -c '^file ' "$saved.2")" -ge 2 ] && break
		sleep 0.2
	done
	up=$(awk '{ print $1 }' /proc/uptime)
	d=$(($(awk '$1 == "saved" { print $2 }' "$saved.2") -
	     $(awk '$1 == "saved" { print $2 }' "$saved")))
	for i in 1 2; do
		ino=$(awk -v n=h$i '$1 == n { print $2 }' "$saved.names")
		line=$(awk -v i="$ino" '$1 == "file" && $3 == i' "$saved")
		reads=$(echo "$line" | awk '{ print $5 }')
		age=$(echo "$line" | awk '{ print $9 }')
		age2=$(awk -v i="$ino" '$1 == "file" && $3 == i { print $9 }' "$saved.2")
		got=$("$heat" $mnt/h$i | tail -1)
		echo "heat-reboot: $fs: h$i: $(echo "$got" | awk '{ print $2 }') reads, last $((age2 / 1000000)) ms ago (saved: $reads reads, last $((age / 1000000)) ms before a save $((d / 1000000)) ms before; up $up s)"
		[ "$(echo "$got" | awk '{ print $2 }')" = "$reads" ] ||
			fail "$fs: h$i: reads"
		awk -v a="$age" -v b="${age2:-0}" -v d="$d" -v up="$up" \
			'BEGIN { exit !(b >= a + d - 1e9 && b <= a + d + 1e9 && b / 1e9 > up) }' ||
			fail "$fs: h$i: last read $age2 ns ago"
	done
	reuse=$(awk '$1 == "reuse" { print $2 }' "$saved.names")
	if [ -n "$reuse" ]; then
		"$heat" $mnt/"$reuse" >/dev/null 2>&1 &&
			fail "$fs: $reuse has the heat of the deleted h0"
		echo "heat-reboot: $fs: $reuse, h0's inode number: no heat"
	fi
	umount $mnt || fail "$fs: umount"
done
[ $rc = 0 ] && echo "heat-reboot: $phase: ok"
exit $rc
