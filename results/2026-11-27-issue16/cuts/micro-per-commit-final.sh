#!/bin/bash
cd /work/main/build/linux || exit 1
out=/tmp/percommit2.txt; : > $out
git show HEAD:fs/tests/hot_tracking_benchmark.c > /tmp/bench-head.c
python3 - <<'PY'
s=open('/tmp/bench-head.c').read()
new="""					if (more)
						xa_unlock(&he->ranges);
					else
						hot_inode_free_locked(fs->hi, he);"""
old="""					xa_unlock(&he->ranges);
					if (!more)
						__hot_inode_free(fs->hi, he);"""
assert new in s
open('/tmp/bench-old.c','w').write(s.replace(new,old))
PY
for round in 1 2 3; do
  for c in "$@"; do
    for f in fs/hot_tracking.c include/linux/hot_tracking.h fs/tests/hot_tracking_kunit.c; do git show $c:$f > $f; done
    if grep -q "^static void hot_inode_free_locked" fs/hot_tracking.c; then cp /tmp/bench-head.c fs/tests/hot_tracking_benchmark.c; else cp /tmp/bench-old.c fs/tests/hot_tracking_benchmark.c; fi
    /tmp/micro.sh x 1 | sed "s/^/$c $round /" >> $out 2>&1
  done
done
git checkout -- fs include
git status --short
