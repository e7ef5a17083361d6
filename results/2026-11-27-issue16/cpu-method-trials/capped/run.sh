#!/bin/bash
# on beside on with hot_track_mem=4096 (almost no items): what the items
# cost beyond the hooks' lookups.  Pairs as scripts/bench.sh makes them.
cd /work/main
suite=/work/main/build/wip-filelife/tools/testing/hot_track
out=/work/main/build/capped/${FS:-xfs}-1cpu
mkdir -p $out
for r in $(seq ${ROUNDS:-6}); do
  a=$((r % 2)) b=$((1 - r % 2))
  sync; echo 3 > /proc/sys/vm/drop_caches
  bdir=$(mktemp -d)
  for side in on capped; do
    c=$a peer=capped opt=; [ $side = capped ] && { c=$b; peer=on; opt=HOT_OPTS=hot_track_mem=4096; }
    scripts/guest-run -C -P $c -B $bdir:$side:$peer -k build/uml-bench/linux -c 1 -t 1800 -n cap-$side -d data:4G \
      $suite/guest-bench.sh on ${FS:-xfs} $out/$r-$side 300 64m JOBS=4 \
      WORKLOADS=seed,buffered,large_file_create,large_file_seq_read,random_read,random_write,mail_server,mixed,fs_mark,compilebench \
      WORK=fixed DATASET=512m FSMARK_LOOPS=5 CB_RUNS=1 CB_INITIAL=1 CB_SCALE=0.5 WRITEBACK=sync $opt >/dev/null 2>&1 &
  done
  wait
  for side in on capped; do cp build/runs/cap-$side/cpu.log $out/$r-$side/; rm -f build/runs/cap-$side/data.img; done
  rm -rf $bdir
  echo "round $r done $(date +%T)"
done
