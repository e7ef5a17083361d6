#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch-series.sh DIR: scripts/checkpatch.pl --strict on every patch of
# the series in DIR.  Fails on any ERROR or WARNING; CHECKs are listed.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$1" && pwd)
cd "$top/build/linux"
# spdxcheck.py wants the Debian python3 with python3-ply and python3-git.
export PATH=/usr/bin:$PATH
bad=0
for p in "$dir"/0*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	out=$(perl scripts/checkpatch.pl --strict --terse --show-types "$p" 2>&1)
	if echo "$out" | grep -qE ': (ERROR|WARNING):'; then
		bad=1
		echo "$out" | grep -E ': (ERROR|WARNING|CHECK):'
	else
		echo "$out" | grep -E ': CHECK:' || true
	fi
	printf 'checkpatch: %s: %s errors, %s warnings, %s checks\n' "$(basename "$p")" \
		"$(echo "$out" | grep -c ': ERROR:')" "$(echo "$out" | grep -c ': WARNING:')" \
		"$(echo "$out" | grep -c ': CHECK:')"
done
exit $bad
