#!/bin/bash
# per-commit micro numbers: the benchmark file of HEAD, the code of each commit
cd /work/main/build/linux || exit 1
out=/tmp/percommit.txt; : > $out
git show HEAD:fs/tests/hot_tracking_benchmark.c > /tmp/bench-head.c
for c in $(git log --format=%h -5 --reverse HEAD~1); do
  for f in fs/hot_tracking.c include/linux/hot_tracking.h fs/tests/hot_tracking_kunit.c; do git show $c:$f > $f; done
  cp /tmp/bench-head.c fs/tests/hot_tracking_benchmark.c
  /tmp/micro.sh "$c $(git log -1 --format=%s $c | cut -c15-50)" ${RUNS:-5} >> $out 2>&1
done
git checkout -- fs include
git status --short
