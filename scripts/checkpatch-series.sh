#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# checkpatch-series.sh DIR: scripts/checkpatch.pl --strict on every patch of
# the series in DIR.  Fails on any ERROR or WARNING; CHECKs are listed.
# FILE_PATH_CHANGES counts only for files no MAINTAINERS section covers.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$(cd "$1" && pwd)
cd "$top/build/linux"
# spdxcheck.py wants the Debian python3 with python3-ply and python3-git.
export PATH=/usr/bin:$PATH
bad=0

# FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for a patch
# that adds files without touching it.  It does not when a section of
# MAINTAINERS other than THE REST already covers every file the patch adds
# (as the tree has it after the series): then the question is answered.
covered() {	# covered PATCH
	local f
	for f in $(awk '/^diff --git / { f = substr($4, 3) }
			/^new file mode/ { print f }' "$1"); do
		perl scripts/get_maintainer.pl --no-git --no-git-fallback \
			--sections -f "$f" 2>/dev/null |
			grep -qvE '^(THE REST|[A-Z]:|$)' || return 1
	done
}

for p in "$dir"/0*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	out=$(perl scripts/checkpatch.pl --strict --terse --show-types "$p" 2>&1)
	if echo "$out" | grep -q 'WARNING:FILE_PATH_CHANGES:' && covered "$p"; then
		out=$(echo "$out" | grep -v 'WARNING:FILE_PATH_CHANGES:')
	fi
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
