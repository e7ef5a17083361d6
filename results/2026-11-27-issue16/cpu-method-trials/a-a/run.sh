#!/bin/bash
# A/A control of the pairs: base beside base, CPUs swapped each round.
cd /work/main
suite=/work/main/build/linux/tools/testing/hot_track
out=/work/main/build/aa/xfs-1cpu
mkdir -p $out
for r in 1 2 3 4 5 6; do
  a=$((r % 2)) b=$((1 - r % 2))
  sync; echo 3 > /proc/sys/vm/drop_caches
  bdir=$(mktemp -d)
  for side in x y; do
    c=$a; peer=y; [ $side = y ] && { c=$b; peer=x; }
    scripts/guest-run -C -P $c -B $bdir:$side:$peer -k build/uml-base/linux -c 1 -t 1800 -n aa-$side -d data:4G \
      $suite/guest-bench.sh base xfs $out/$r-$side 300 64m JOBS=4 \
      WORKLOADS=seed,buffered,large_file_create,large_file_seq_read,random_read,random_write,mail_server,mixed,fs_mark,compilebench \
      WORK=fixed DATASET=512m FSMARK_LOOPS=5 CB_RUNS=1 CB_INITIAL=1 CB_SCALE=0.5 WRITEBACK=sync >/dev/null 2>&1 &
  done
  wait
  for side in x y; do cp build/runs/aa-$side/cpu.log $out/$r-$side/; rm -f build/runs/aa-$side/data.img; done
  rm -rf $bdir
  echo "round $r done $(date +%T)"
done
