#!/bin/bash
cd /work/main
for r in 1 2 3 4; do
  sync; echo 3 > /proc/sys/vm/drop_caches
  scripts/guest-run -C -P 1 -k build/uml-bench/linux -c 1 -t 1800 -n ib-trial -d data:4G \
    build/ib/wrap.sh /work/main/build/linux/tools/testing/hot_track/guest-bench.sh off xfs /work/main/build/ib/q$r 300 64m \
    WORK=fixed JOBS=4 DATASET=512m FSMARK_LOOPS=5 CB_RUNS=1 CB_INITIAL=1 CB_SCALE=0.5 >/tmp/ib/q$r.out 2>&1
  echo "round $r rc=$?"
  cp build/runs/ib-trial/cpu.log /tmp/ib/q$r.cpu.log
  rm -f build/runs/ib-trial/data.img
done
