#!/bin/bash
# micro-ab.sh: build the old (build/linux) and new (build/wt-embed) bench kernels, then interleave N boots of each
cd /work/main || exit 1
set -e
scripts/build-kernel.sh build/linux build/uml-micro-base config/uml.config config/hot_track.config config/bench.config > /tmp/micro-build-base.log 2>&1
scripts/build-kernel.sh build/wt-embed build/uml-micro-new config/uml.config config/hot_track.config config/bench.config > /tmp/micro-build-new.log 2>&1
set +e
for i in $(seq ${1:-3}); do
  for k in base new; do
    (cd build/linux && python3 tools/testing/kunit/kunit.py exec --arch=um --build_dir=/work/main/build/uml-micro-$k \
      --timeout=600 --kernel_args=ncpus=1 --kernel_args=seccomp=on 'hot_track_benchmark.hot_bench_[hdi]*' >/dev/null)
    grep -E "ns per access|per file|bytes" build/uml-micro-$k/test.log | sed "s/^ *# /$k $i /"
  done
done
