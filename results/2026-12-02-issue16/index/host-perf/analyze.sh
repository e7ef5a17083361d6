#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# For each CONFIG of run.sh (its perf data in build/perf): report-CONFIG.txt
# (perf report --sort dso,sym, top 120 lines), hot-CONFIG.txt (the symbols
# of fs/hot_tracking.o, lib/rhashtable.o and lib/xarray.o of KERNEL_BUILD_DIR
# with their samples), and one summary line: analyze.sh KERNEL CONFIG...
cd /work/main || exit 1
here=results/2026-12-02-issue16/index/host-perf
kern=$1; shift
syms() { nm "$kern/$1" | awk '$2 ~ /[tT]/ { print $3 }'; }
for cfg in "$@"; do
	data=build/perf/$cfg.data
	perf report -i $data --sort dso,sym -n --stdio 2>/dev/null |
		grep -v '^#' | grep -v '^$' | head -120 > $here/report-$cfg.txt
	total=$(perf report -i $data --sort comm -n --stdio 2>/dev/null |
		awk '!/^#/ && NF >= 3 { s += $2 } END { print s }')
	# The guest kernel's own symbols only: the host kernel has an
	# xas_load() too.
	perf report -i $data --sort dso,sym -n --stdio 2>/dev/null |
		grep -v '^#' | awk '$3 == "linux" { print $2, $NF }' \
		> /tmp/syms-$cfg.txt
	: > $here/hot-$cfg.txt
	for obj in fs/hot_tracking.o lib/rhashtable.o lib/xarray.o; do
		syms $obj | sort -u > /tmp/objsyms.txt
		awk -v obj=$obj 'NR == FNR { s[$1] = 1; next }
			{ n = $2; sub(/\..*/, "", n) }
			(n in s) { print obj, $2, $1 }' /tmp/objsyms.txt /tmp/syms-$cfg.txt \
			>> $here/hot-$cfg.txt
	done
	awk -v cfg=$cfg -v total=$total '
		{ n[$1] += $3 }
		$2 ~ /^hot_inode_lookup|^hot_inode_get|^hot_index|^hot_root/ { idx += $3 }
		END { printf "%s total %d hot_tracking %d (%.2f %%) index-fns %d rhashtable %d xarray %d\n",
			cfg, total, n["fs/hot_tracking.o"], 100 * n["fs/hot_tracking.o"] / total,
			idx, n["lib/rhashtable.o"], n["lib/xarray.o"] }' $here/hot-$cfg.txt
done
