#!/bin/bash
# raw ubd 4k O_DIRECT random reads: is the SSD image slower than the fast one?
set -e
out=$1
for d in $DISK_ssd $DISK_fast; do
	dd if=/dev/urandom of=$d bs=1M count=1024 oflag=direct status=none
done
for d in $DISK_ssd $DISK_fast $DISK_ssd $DISK_fast; do
	b=$(basename $d)
	fio --name=r --filename=$d --size=512m --ioengine=psync --direct=1 --rw=randread \
	    --bs=4k --numjobs=4 --time_based --runtime=20 --group_reporting \
	    --output-format=terse | awk -F';' -v d=$d '{print d, $7, "KiB/s", $8, "iops"}'
done | tee $out/raw.txt
