#!/bin/bash
# micro.sh TAG [N]: build uml-bench from build/linux, run the hook and delete cases N times
cd /work/main || exit 1
scripts/build-kernel.sh build/linux build/uml-bench config/uml.config config/hot_track.config config/bench.config >/tmp/micro-build.log 2>&1 || { echo build failed; tail -20 /tmp/micro-build.log; exit 1; }
for i in $(seq ${2:-3}); do
  (cd build/linux && python3 tools/testing/kunit/kunit.py exec --arch=um --build_dir=/work/main/build/uml-bench \
    --timeout=600 --kernel_args=ncpus=1 --kernel_args=seccomp=on 'hot_track_benchmark.hot_bench_[hd]*' >/dev/null)
  grep -E "ns per access|per file" build/uml-bench/test.log | sed "s/^ *# /$1 $i /"
done
