#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit-arch.sh ARCH...: the hot_track KUnit suite on each architecture
# (x86_64, i386, arm64) under QEMU (emulated: TCG), through kunit.py's
# qemu_configs, on 2 CPUs, with config/kunit.config.  Each builds out of tree in
# build/kunit-ARCH through ccache; the kernel log must be clean.  Ends with
# one line "arches: N passed, N failed" counting the test cases.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$top/build/linux
# QEMU without KVM (see scripts/qemu-tcg/qemu-tcg).
export PATH=$top/scripts/qemu-tcg:$PATH
export CCACHE_BASEDIR=$top/build CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-20G}
scale=${HOT_TIMEOUT_SCALE:-1}	# multiplies the timeout
[[ $scale =~ ^[0-9]{1,4}$ ]] && scale=$((10#$scale)) && [ "$scale" -ge 1 ] || scale=1
passed=0 failed=0 rc=0
for arch in ${*:-x86_64 i386 arm64}; do
	case $arch in
	x86_64|i386) cross= ;;
	arm64) cross=aarch64-linux-gnu- ;;
	*) echo "arches: $arch is not one of x86_64, i386, arm64"; exit 2 ;;
	esac
	out=$top/build/kunit-$arch
	mkdir -p "$out"
	t0=$(date +%s)
	rm -f "$out/test.log"	# not a stale one from an earlier run
	echo "arches: $arch ..."
	(cd "$tree" && python3 tools/testing/kunit/kunit.py run --arch="$arch" \
		${cross:+--cross_compile=$cross} \
		--make_options CC="ccache ${cross}gcc" --build_dir="$out" \
		--kunitconfig="$top/config/kunit.config" --jobs="$(nproc)" \
		--qemu_args="-smp 2" --timeout=$((900 * scale)) 'hot_track*') > "$out/kunit.log" 2>&1
	r=$?
	p=$(sed -n 's/.*Ran [0-9]* tests: passed: \([0-9]*\).*/\1/p' "$out/kunit.log" | tail -1)
	f=$(sed -n 's/.*Ran [0-9]* tests:.*failed: \([0-9]*\).*/\1/p' "$out/kunit.log" | tail -1)
	p=${p:-0} f=${f:-0}
	if [ ! -s "$out/test.log" ]; then
		echo "arches: $arch: no kernel log (the build failed? see $out/kunit.log)"
		r=1
	elif ! "$top/scripts/kernel-log-check" "$out/test.log"; then
		r=1
	fi
	if [ $r != 0 ]; then
		tail -30 "$out/kunit.log"
		[ "$f" != 0 ] || f=1
		rc=1
	fi
	passed=$((passed + p)) failed=$((failed + f))
	echo "arches: $arch: $p passed, $f failed ($(($(date +%s) - t0))s)"
done
echo "arches: $passed passed, $failed failed"
exit $rc
