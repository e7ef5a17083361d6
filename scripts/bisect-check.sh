#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bisect-check.sh: build every commit of the series in turn (a worktree of
# build/linux at build/bisect, out of tree in build/uml-bisect, through
# ccache) and fail at the first that does not build or warns at W=1 in a
# file of the series.  Options the series has not added yet are skipped.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux wt=$top/build/bisect out=$top/build/uml-bisect
git -C "$tree" worktree remove --force "$wt" 2>/dev/null || true
git -C "$tree" worktree prune
git -C "$tree" worktree add -q --detach "$wt" hot-track-base
mkdir -p "$out"
frags=$(cat "$top"/config/{uml,debug,hot_track}.config)
export KBUILD_BUILD_TIMESTAMP=2026-11-01 CCACHE_BASEDIR=$top/build
n=0
for c in $(git -C "$tree" rev-list --reverse hot-track-base..HEAD); do
	n=$((n + 1))
	git -C "$wt" checkout -q "$c"
	echo "$frags" > "$out/fragments.config"
	make -s -C "$wt" O="$out" ARCH=um SUBARCH=x86_64 CC="ccache gcc" \
		KCONFIG_ALLCONFIG="$out/fragments.config" allnoconfig >/dev/null
	# The patch's own C files, again at W=1 (not tools/, not included tests).
	objs=$(git -C "$wt" diff --name-only --diff-filter=AM "$c^" "$c" -- '*.c' |
	       { grep -v -e '^tools/' -e '/tests/' || true; } |
	       sed 's/\.c$/.o/' | tr '\n' ' ')
	if ! log=$(make -s -C "$wt" O="$out" ARCH=um SUBARCH=x86_64 \
			CC="ccache gcc" -j"$(nproc)" linux 2>&1); then
		echo "$log" | tail -20
		echo "bisect-check: patch $n ($(git -C "$wt" log -1 --format=%s)) does not build"
		exit 1
	fi
	if [ -n "$objs" ]; then
		(cd "$wt" && touch $(echo "$objs" | sed 's/\.o\b/.c/g'))
		w1=$(make -s -C "$wt" O="$out" ARCH=um SUBARCH=x86_64 \
			CC="ccache gcc" W=1 $objs 2>&1 | grep -E 'warning:|error:' || true)
		if [ -n "$w1" ]; then
			echo "$w1"
			echo "bisect-check: patch $n warns at W=1"
			exit 1
		fi
	fi
	echo "bisect-check: $n $(git -C "$wt" log -1 --format=%s): builds, W=1 clean"
done
git -C "$tree" worktree remove --force "$wt"
echo "bisect-check: all $n patches build"
