#!/bin/bash
# Contiguous against relocation-like layout (256 KiB extents in random
# physical order), one device, interleaved windows.
set -e
out=$1 mnt=/mnt/x
mkdir -p $mnt
mkfs.btrfs -q -f $DISK_fast >/dev/null 2>&1; mount -o hot_track $DISK_fast $mnt
for f in A B; do dd if=/dev/urandom of=$mnt/$f bs=1M count=512 status=none; done
sync
/usr/bin/python3 - $mnt/B <<'PY'
import os, random, sys
fd = os.open(sys.argv[1], os.O_WRONLY)
buf = os.urandom(256 << 10)
order = list(range(2048)); random.Random(1).shuffle(order)
for i in order:
    os.pwrite(fd, buf, i << 18)
    os.fsync(fd)
os.close(fd)
PY
sync; echo 3 > /proc/sys/vm/drop_caches
: > $out/frag2.txt
echo "A $(filefrag $mnt/A), B $(filefrag $mnt/B)" | tee -a $out/frag2.txt
job() {
	fio --name=hot --filename=$mnt/$1 --size=512m --ioengine=psync --direct=1 \
	    --zero_buffers=1 --rw=randread --bs=4k --randseed=1234 \
	    --random_distribution=zoned:49/1:23/4:15/15:8/30:5/50 --numjobs=4 \
	    --time_based --runtime=30 --group_reporting --output-format=terse |
	    awk -F';' -v d="$1" '{print d, $7, "KiB/s"}' | tee -a $out/frag2.txt
}
for i in 1 2 3 4; do job A; job B; done
umount $mnt
