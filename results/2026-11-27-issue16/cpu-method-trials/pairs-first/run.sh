#!/bin/bash
# simultaneous pairs: base and on at once, each on its own host CPU
cd /work/main
for r in 1 2 3 4 5 6; do
  if [ $((r % 2)) = 1 ]; then cb=0 co=1; else cb=1 co=0; fi
  sync; echo 3 > /proc/sys/vm/drop_caches
  for cfg in base on; do
    k=build/uml-bench/linux c=$co; [ $cfg = base ] && { k=build/uml-base/linux; c=$cb; }
    scripts/guest-run -C -P $c -k $k -c 1 -t 1800 -n sp-$cfg -d data:4G \
      /work/main/build/ib/wrap.sh /work/main/build/linux/tools/testing/hot_track/guest-bench.sh $cfg xfs /work/main/build/ib/s$r-$cfg 300 64m \
      WORK=fixed JOBS=4 DATASET=512m FSMARK_LOOPS=5 CB_RUNS=1 CB_INITIAL=1 CB_SCALE=0.5 >/tmp/ib/s$r-$cfg.out 2>&1 &
  done
  wait
  echo "round $r done"
  for cfg in base on; do cp build/runs/sp-$cfg/cpu.log build/ib/s$r-$cfg/; rm -f build/runs/sp-$cfg/data.img; done
done
