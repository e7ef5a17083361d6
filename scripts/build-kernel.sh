#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh SRC OUT FRAGMENT...: build a UML (x86_64, SMP) kernel from
# SRC into OUT (out of tree) with allnoconfig plus the given config
# fragments, through ccache. Fails if a fragment's option did not take.
set -euo pipefail
src=$(cd "$1" && pwd); out=$2; shift 2
mkdir -p "$out"; out=$(cd "$out" && pwd)
export KBUILD_BUILD_TIMESTAMP="2026-11-01" KBUILD_BUILD_USER=hot_track \
	KBUILD_BUILD_HOST=uml CCACHE_BASEDIR="$(dirname "$src")" \
	CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-20G}"
mk() { make -s -C "$src" O="$out" ARCH=um SUBARCH=x86_64 \
	CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

cat "$@" > "$out/fragments.config"
mk KCONFIG_ALLCONFIG="$out/fragments.config" allnoconfig >/dev/null
bad=0
for frag in "$@"; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=n) opt=${line%%=*}
			grep -q "^$opt=" "$out/.config" && { echo "build-kernel: $opt is set, wanted n" >&2; bad=1; } ;;
		CONFIG_*=*) grep -qx "$line" "$out/.config" || { echo "build-kernel: $line did not take ($frag)" >&2; bad=1; } ;;
		esac
	done < "$frag"
done
[ $bad = 0 ] || exit 1
mk -j"$(nproc)" ${W:+W=$W} ${C:+C=$C} linux
echo "build-kernel: $out/linux"
