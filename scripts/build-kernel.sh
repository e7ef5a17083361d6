#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh SRC OUT FRAGMENT...: build a UML (x86_64) kernel from
# SRC into OUT (out of tree) with allnoconfig plus the given config
# fragments, through ccache. Fails if a fragment's option did not take.
# BUILD_TARGETS=... builds those make targets instead of the kernel (and its
# modules); W=N and C=N are passed to make.
set -euo pipefail
src=$(cd "$1" && pwd); out=$2; shift 2
mkdir -p "$out"; out=$(cd "$out" && pwd)
export KBUILD_BUILD_TIMESTAMP="2026-11-01" KBUILD_BUILD_USER=hot_track \
	KBUILD_BUILD_HOST=uml CCACHE_BASEDIR="$(dirname "$src")" \
	CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-20G}"
mk() { make -s -C "$src" O="$out" ARCH=um SUBARCH=x86_64 \
	CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

# A later fragment's value of an option overrides an earlier one's.
cat "$@" | awk '/^CONFIG_/ { split($0, kv, "="); if (!(kv[1] in v)) k[n++] = kv[1]
		v[kv[1]] = $0; next } { print }
	END { for (i = 0; i < n; i++) print v[k[i]] }' > "$out/fragments.config"
mk KCONFIG_ALLCONFIG="$out/fragments.config" allnoconfig >/dev/null
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=n) opt=${line%%=*}
		grep -q "^$opt=" "$out/.config" && { echo "build-kernel: $opt is set, wanted n" >&2; bad=1; } ;;
	CONFIG_*=*) grep -qx "$line" "$out/.config" || { echo "build-kernel: $line did not take" >&2; bad=1; } ;;
	esac
done < "$out/fragments.config"
[ $bad = 0 ] || exit 1
if [ -n "${BUILD_TARGETS:-}" ]; then
	# shellcheck disable=SC2086
	mk -j"$(nproc)" ${W:+W=$W} ${C:+C=$C} $BUILD_TARGETS
	exit 0
elif grep -q '^CONFIG_MODULES=y' "$out/.config"; then
	# modpost fails on a symbol a module uses and nothing exports.
	mk -j"$(nproc)" ${W:+W=$W} ${C:+C=$C} linux modules
	rm -rf "$out/modroot"
	mk INSTALL_MOD_PATH="$out/modroot" modules_install >/dev/null
	echo "build-kernel: modules in $out/modroot"
else
	mk -j"$(nproc)" ${W:+W=$W} ${C:+C=$C} linux
fi
# What the kernel was built from, for the benchmarks' stamps: SRC's commit,
# and "+dirty" if its work tree differed from it.
if git -C "$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	dirty=$(git -C "$src" status --porcelain --untracked-files=no) || dirty=
	echo "$(git -C "$src" rev-parse --short=12 HEAD)${dirty:++dirty}" \
		> "$out/source.txt"
fi
echo "build-kernel: $out/linux"
