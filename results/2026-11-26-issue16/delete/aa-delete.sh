#!/bin/bash
# Experiment: CPU time of deleting many small files that have hot_track
# items, hot_track off and on alternating within one boot.
set -euo pipefail
mnt=/mnt/aa; mkdir -p $mnt
mkfs.xfs -q -f "$DISK_data"
n=0
mark() {
	n=$((n + 1)); local name; name=$(printf '%03d-%s' $n "$1")
	: > "$HT_MARKS/.mark"; mv "$HT_MARKS/.mark" "$HT_MARKS/$name"
	while [ -e "$HT_MARKS/$name" ]; do sleep 0.01; done
}
for i in $(seq ${ROUNDS:-5}); do
	for cfg in off on; do
		opt=; [ $cfg = on ] && opt=-ohot_track
		mount -t xfs $opt "$DISK_data" $mnt
		mkdir $mnt/d
		python3 -c "
import os
for d in range(30):
    os.mkdir('$mnt/d/%d' % d)
    for f in range(100):
        with open('$mnt/d/%d/%d' % (d, f), 'wb') as fh:
            fh.write(b'x' * 8192)
"
		sync
		echo 3 > /proc/sys/vm/drop_caches
		mark "$i-$cfg-delete-start"
		rm -rf $mnt/d
		sync
		mark "$i-$cfg-delete-end"
		[ $cfg = off ] || cat /sys/kernel/debug/hot_track/*/stats | tr '\n' ' '; echo
		umount $mnt
	done
done
