#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest: the hot_track demo.  ext4, xfs and btrfs mounted with hot_track;
# fio runs skewed (zipf) random reads over several files, buffered and
# O_DIRECT, and a sequential writer; then every file's heat (ioctl) and
# the hottest files and ranges (the heat maps' spot lists in debugfs), and
# hottop's view of them in the middle of the run.  hot_heatmap records the
# ranges' heat during the run and plots it into the run directory
# (heatmap-FS.png), when python3-matplotlib is there.
set -euo pipefail
heat=$HT_TOP/build/tools/hot_heat
hottop=$HT_TOP/build/tools/hottop
heatmap=$HT_TOP/build/tools/hot_heatmap
runtime=${1:-15}
plot=1
if ! python3 -c 'import matplotlib' 2>/dev/null; then
	plot=0
	echo "(no heat maps: python3-matplotlib is missing; scripts/deps.sh check bench)"
fi

cat > /tmp/demo.fio <<FIO
[global]
size=16m
runtime=$runtime
time_based
group_reporting

; Buffered random reads, skewed: file 0 hottest.  The page cache is dropped
; every 2 s below, so misses keep reaching the disk.
[zipf-buffered-read]
rw=randread
bs=4k
nrfiles=6
filename_format=read.\$filenum
file_service_type=zipf:1.4
random_distribution=zipf:1.2
fadvise_hint=random

; O_DIRECT random reads over other files, every one goes to disk.
[zipf-direct-read]
rw=randread
bs=16k
direct=1
ioengine=libaio
iodepth=4
nrfiles=4
filename_format=direct.\$filenum
file_service_type=zipf:1.6
random_distribution=zipf:1.2

; A sequential writer that writes back every 4 MiB.
[seq-write]
rw=write
bs=64k
nrfiles=1
filename_format=log.\$filenum
fdatasync=64
FIO

# An update pass every second, so that the heat maps follow the workload.
echo 1 > /proc/sys/fs/hot-update-delay

for fs in ext4 xfs btrfs; do
	dev=$(eval echo "\$DISK_$fs")
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" ;;
	xfs) mkfs.xfs -q -f "$dev" ;;
	btrfs) mkfs.btrfs -q -f "$dev" >/dev/null ;;
	esac
	mkdir -p /mnt/$fs
	mount -t $fs -o hot_track "$dev" /mnt/$fs
	echo "== $fs: $(grep " /mnt/$fs " /proc/mounts)"
	( cd /mnt/$fs
	  # Lay the files out first, then forget that it happened.
	  fio --output=/dev/null --directory=/mnt/$fs --runtime=1 /tmp/demo.fio
	  mount -o remount,nohot_track /mnt/$fs
	  mount -o remount,hot_track /mnt/$fs
	  sync; echo 3 > /proc/sys/vm/drop_caches
	  ( cd / && while sleep 2; do echo 1 > /proc/sys/vm/drop_caches; done ) &
	  dropper=$!
	  ( cd / && exec "$heatmap" record -d 1 -o "$HT_RUNDIR/heat-$fs.jsonl" \
		/mnt/$fs ) &
	  recorder=$!
	  # hottop's view in the middle of the run, printed below: its second
	  # refresh, whose rates are counted over one second.
	  ( cd / && sleep $((runtime / 2)) &&
	    exec "$hottop" -b -n 2 -d 1 -N 8 /mnt/$fs > /tmp/hottop-$fs ) &
	  snapshot=$!
	  fio --directory=/mnt/$fs /tmp/demo.fio | grep -E '^\S.*: \(groupid|READ:|WRITE:'
	  wait $snapshot
	  kill $dropper; wait $dropper 2>/dev/null || true
	  kill -TERM $recorder; wait $recorder
	  sleep 2 )
	echo "-- $fs: files by temperature (hottest first), FS_IOC_GET_HEAT_INFO:"
	"$heat" -l $(find /mnt/$fs -type f | sort) |
		{ read -r hdr; echo "$hdr"; sort -k4,4nr; }
	stat_dir=/sys/kernel/debug/hot_track/$(basename "$dev")
	sleep 2		# one more pass of the update worker
	find /mnt/$fs -type f -printf '%i %p\n' > /tmp/names
	echo "-- $fs: the 8 hottest files, $stat_dir/inode_spot:"
	printf '%-24s %8s %8s %11s\n' FILE READS WRITES TEMP
	head -8 "$stat_dir/inode_spot" |
		awk 'NR == FNR { name[$1] = $2; next }
		     { printf "%-24s %8s %8s %11s\n", name[$1], $3, $4, $5 }' \
		    /tmp/names -
	echo "-- $fs: the 12 hottest 1 MiB ranges, $stat_dir/range_spot:"
	printf '%-24s %10s %8s %8s %11s\n' FILE START_MIB READS WRITES TEMP
	head -12 "$stat_dir/range_spot" |
		awk 'NR == FNR { name[$1] = $2; next }
		     { printf "%-24s %10d %8s %8s %11s\n", name[$1], $3 / 1048576,
			      $5, $6, $7 }' /tmp/names -
	echo "-- $fs: $(tr '\n' ' ' < "$stat_dir/stats")"
	echo "-- $fs: hottop -b -n 2 -d 1 -N 8 in the middle of the run (FS_IOC_GET_HOT_ITEMS):"
	awk 'BEGIN { RS = "" } { last = $0 } END { print last }' /tmp/hottop-$fs
	echo "-- $fs: hottop -b -n 1 -N 5 now, beside the first files of the query (hot_heat save):"
	"$hottop" -b -n 1 -N 5 /mnt/$fs
	"$heat" save /mnt/$fs - | awk '$1 == "file" { print $3 }' | head -5 |
		while read -r ino; do find /mnt/$fs -inum "$ino"; done
	if [ $plot = 1 ]; then
		"$heatmap" plot "$HT_RUNDIR/heat-$fs.jsonl" \
			-o "$HT_RUNDIR/heatmap-$fs.png"
		echo "-- $fs: heat map: $HT_RUNDIR/heatmap-$fs.png"
	fi
	umount /mnt/$fs
	echo
done
