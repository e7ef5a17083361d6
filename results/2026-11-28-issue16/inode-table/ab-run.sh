#!/bin/bash
# A/B of two uml kernels on the micro cases: run.sh N OUT
cd /work/main/build/linux
n=$1 out=$2; mkdir -p $out
for i in $(seq $n); do
  for k in old bench; do
    python3 tools/testing/kunit/kunit.py exec --arch=um --build_dir=/work/main/build/uml-$k \
      --timeout=600 --kernel_args=ncpus=1 --kernel_args=seccomp=on \
      'hot_track_benchmark.hot_bench_[dht]*' >/dev/null 2>&1
    cp /work/main/build/uml-$k/test.log $out/$k-$i.log
  done
done
