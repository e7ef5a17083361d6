#!/bin/bash
cd /work/main
for i in $(seq $1); do
  for k in base new; do
    (cd build/linux && python3 tools/testing/kunit/kunit.py exec --arch=um --build_dir=/work/main/build/uml-micro-$k \
      --timeout=600 --kernel_args=ncpus=1 --kernel_args=seccomp=on 'hot_track_benchmark.hot_bench_[d]*' >/dev/null)
    grep -E "first read|deleted file" build/uml-micro-$k/test.log | sed "s/^.*# /$k $i /"
  done
done
