#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-nohot.sh SRC OUT: with CONFIG_HOT_TRACKING=n (the UML guest's
# config otherwise), build at W=1 every C file of the kernel that the series
# (hot-track-base..HEAD of SRC) touches and that is built without hot_track;
# fail on any compiler warning.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
src=$1 out=$2
objs=$(git -C "$src" diff --name-only hot-track-base HEAD -- '*.c' |
	grep -v '^fs/hot_tracking\|^fs/tests/\|^tools/' | sed 's/\.c$/.o/' | tr '\n' ' ')
echo "nohot: $objs"
mkdir -p "$out"
# Compile them anew each time: a warning shows only when a file is compiled.
(cd "$out" && rm -f $objs)
BUILD_TARGETS=$objs W=1 "$top/scripts/build-kernel.sh" "$src" "$out" \
	"$top/config/uml.config" "$top/config/nohot.config" 2>&1 | tee "$out/nohot.log"
if grep -E 'warning:|error:' "$out/nohot.log"; then
	echo "nohot: the build warns" >&2
	exit 1
fi
for o in $objs; do
	[ -f "$out/$o" ] || { echo "nohot: $o was not built" >&2; exit 1; }
done
echo "nohot: ok, $(echo $objs | wc -w) files, no warnings"
