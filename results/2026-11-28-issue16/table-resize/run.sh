#!/bin/bash
# run.sh: the A/B of patch 99 as run (2026-11-28): build/uml-micro-new is
# the series up to patch 98 (lib/rhashtable: let a user shrink a table to
# fit; automatic shrinking still on), build/uml-micro-ns the series with
# patch 99 (no automatic shrinking; the update worker trims, which the
# benchmark does not run); both built as make bench builds build/uml-bench
# (config/uml.config hot_track.config bench.config); 8 rounds, one boot of
# each in turn, one guest CPU.  Output: micro-shrink-vs-keep.log.
cd /work/main || exit 1
for i in $(seq 8); do
  for k in new ns; do
    (cd build/linux && python3 tools/testing/kunit/kunit.py exec --arch=um \
      --build_dir=/work/main/build/uml-micro-$k --timeout=600 \
      --kernel_args=ncpus=1 --kernel_args=seccomp=on \
      'hot_track_benchmark.hot_bench_[dt]*' >/dev/null)
    grep -E "first read|deleted file of|resize" build/uml-micro-$k/test.log |
      sed "s/^.*# /$k $i /"
  done
done
