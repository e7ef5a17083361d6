#!/bin/bash
# Which part of the hot_move config makes reads of SSD-resident data slower?
set -e
out=$1 mnt=/mnt/x
mkdir -p $mnt
rot() { local n; n=$(stat -L -c '%t:%T' "$1"); echo "$2" > "/sys/dev/block/$((16#${n%:*})):$((16#${n#*:}))/queue/rotational"; }
dmsetup create --noudevsync slow --table "0 $(blockdev --getsz $DISK_hdd) delay $DISK_hdd 0 1 $DISK_hdd 0 1"
dmsetup mknodes slow
slow=/dev/mapper/slow
rot $DISK_hdd 1; rot $slow 1; rot $DISK_ssd 0; rot $DISK_fast 0
run() {
	sync; echo 3 > /proc/sys/vm/drop_caches
	fio --name=hot --filename=$mnt/data --size=512m --ioengine=psync --direct=1 \
	    --zero_buffers=1 --rw=randread --bs=4k --randseed=1234 \
	    --random_distribution=zoned:49/1:23/4:15/15:8/30:5/50 --numjobs=4 \
	    --time_based --runtime=40 --group_reporting --output-format=terse |
	    awk -F';' -v d="$1" '{print d, $7, "KiB/s"}' | tee -a $out/fs.txt
}
: > $out/fs.txt
for opt in hot_track nohot; do
mo=$opt; [ $opt = nohot ] && mo=defaults
# 1: one device, the fast image
mkfs.btrfs -q -f $DISK_fast; mount -o $mo $DISK_fast $mnt
dd if=/dev/urandom of=$mnt/data bs=1M count=512 status=none; run "$opt fast-single"; umount $mnt
# 2: one device, the ssd image
mkfs.btrfs -q -f $DISK_ssd; mount -o $mo $DISK_ssd $mnt
dd if=/dev/urandom of=$mnt/data bs=1M count=512 status=none; run "$opt ssd-single"
# 3: add the slow disk, metadata to raid1 (data stays on the ssd)
btrfs device add -f $slow $mnt >/dev/null
btrfs balance start -f -mconvert=raid1 -sconvert=raid1 $mnt >/dev/null 2>&1 || true
btrfs filesystem df $mnt >> $out/fs.txt
run "$opt ssd-data+slow-raid1-meta"
umount $mnt
# 4: remounted (mount-time ssd detection sees a rotational device)
mount -o $mo $slow $mnt -o device=$DISK_ssd
grep " $mnt " /proc/mounts >> $out/fs.txt
run "$opt ssd-data+slow-raid1-meta-remount"
umount $mnt
done
dmsetup remove slow
