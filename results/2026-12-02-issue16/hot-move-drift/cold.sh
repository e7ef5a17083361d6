#!/bin/bash
# Does a 10 reads/s reader on the dm-delay disk slow the fast disk's reads?
set -e
out=$1 mnt=/mnt/x
mkdir -p $mnt
dmsetup create --noudevsync slow --table "0 $(blockdev --getsz $DISK_hdd) delay $DISK_hdd 0 1 $DISK_hdd 0 1"
dmsetup mknodes slow
mkfs.btrfs -q -f $DISK_fast >/dev/null 2>&1; mount -o hot_track $DISK_fast $mnt
dd if=/dev/urandom of=$mnt/data bs=1M count=2048 status=none
sync; echo 3 > /proc/sys/vm/drop_caches
: > $out/cold.txt
job() {
	fio --name=hot --filename=$mnt/data --size=512m --ioengine=psync --direct=1 \
	    --zero_buffers=1 --rw=randread --bs=4k --randseed=1234 \
	    --random_distribution=zoned:49/1:23/4:15/15:8/30:5/50 --numjobs=4 \
	    --time_based --runtime=30 --group_reporting --output-format=terse |
	    awk -F';' -v d="$1" '{print d, $7, "KiB/s"}' | tee -a $out/cold.txt
}
for i in 1 2 3 4; do
	job alone
	fio --name=cold --filename=/dev/mapper/slow --size=1g --ioengine=psync --direct=1 \
	    --rw=randread --bs=4k --rate_iops=10 --time_based --runtime=32 --output=/dev/null &
	job "with-slow-reader"
	wait
done
umount $mnt; dmsetup remove slow
