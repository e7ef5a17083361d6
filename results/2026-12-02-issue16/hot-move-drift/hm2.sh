#!/bin/bash
# After hot_move placed the hot set: which part of its config slows reads?
set -e
out=$1 mnt=/mnt/x
mkdir -p $mnt
rot() { local n; n=$(stat -L -c '%t:%T' "$1"); echo "$2" > "/sys/dev/block/$((16#${n%:*})):$((16#${n#*:}))/queue/rotational"; }
dmsetup create --noudevsync slow --table "0 $(blockdev --getsz $DISK_hdd) delay $DISK_hdd 0 1 $DISK_hdd 0 1"
dmsetup mknodes slow
slow=/dev/mapper/slow
rot $DISK_hdd 1; rot $slow 1; rot $DISK_ssd 0; rot $DISK_fast 0
job() {	# NAME SECS
	fio --name=hot --filename=$mnt/data --size=512m --ioengine=psync --direct=1 \
	    --zero_buffers=1 --rw=randread --bs=4k --randseed=1234 \
	    --random_distribution=zoned:49/1:23/4:15/15:8/30:5/50 --numjobs=4 \
	    --time_based --runtime=$2 --group_reporting --output-format=terse |
	    awk -F';' -v d="$1" '{print d, $7, "KiB/s"}' | tee -a $out/hm2.txt
}
: > $out/hm2.txt
mkfs.btrfs -q -f -d single -m raid1 $slow $DISK_ssd >/dev/null
mount -t btrfs -o device=$DISK_ssd,hot_move $slow $mnt
hm=/sys/fs/btrfs/$(btrfs filesystem show $mnt | awk '/uuid:/ { print $NF }')/hot_move
echo 1000 > $hm/interval
dd if=/dev/urandom of=$mnt/data bs=1M count=2048 status=none
sync; echo 3 > /proc/sys/vm/drop_caches
echo 0x7c000000 > $hm/promote_temp
echo 5 > $hm/interval
t0=$SECONDS
while [ "$(cat $hm/promoted_bytes)" -lt $((512 << 20)) ] && [ $((SECONDS - t0)) -lt 400 ]; do
	job promote 20 >/dev/null
done
echo "promoted $(cat $hm/promoted_bytes) in $((SECONDS - t0)) s" | tee -a $out/hm2.txt
mkdir -p /mnt/f; mkfs.btrfs -q -f $DISK_fast >/dev/null 2>&1; mount -o hot_track $DISK_fast /mnt/f; dd if=/dev/urandom of=/mnt/f/data bs=1M count=512 status=none; sync; echo 3 > /proc/sys/vm/drop_caches
for i in 1 2 3 4; do
	job "hot_move-fs" 30; m=$mnt; mnt=/mnt/f; job "fast-fs" 30; mnt=$m
done
umount $mnt /mnt/f; dmsetup remove slow
