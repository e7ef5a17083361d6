#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: every test of the series, each step in turn, then one line
# "check: N passed, N failed" counting the test cases of all steps (KUnit
# cases, kselftest cases, and one for each other step).
#
# Expects the kernel built (make kernel).  CHECK_STEPS limits the steps;
# the default is all of: deps (deps.sh against stubs), kunit, boot,
# selftests, reboot (heat saved, the guest booted again, heat loaded),
# modules (the filesystems as modules), i386 (KUnit under QEMU),
# nohot (CONFIG_HOT_TRACKING=n), series, drift.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
logs=$top/build/check
rm -rf "$logs"; mkdir -p "$logs"
passed=0 failed=0 start=$(date +%s)
steps=${CHECK_STEPS:-"deps kunit boot selftests reboot modules i386 nohot series drift"}

count() {	# count STEP RC LOG: add the step's cases to the totals
	local p f
	case $1 in
	kunit)
		p=$(sed -n 's/.*Ran [0-9]* tests: passed: \([0-9]*\).*/\1/p' "$3" | tail -1)
		f=$(sed -n 's/.*failed: \([0-9]*\).*/\1/p' "$3" | tail -1) ;;
	deps|i386)	# "NAME: N passed, N failed"
		read -r p f < <(sed -n 's/^[a-z0-9-]*: \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' "$3" | tail -1) ;;
	selftests|modules)	# kselftest_harness: "# Totals: pass:N fail:N xfail:N ..."
		read -r p f < <(awk '/^# Totals: /{ for (i = 3; i <= NF; i++) {
			split($i, kv, ":"); n[kv[1]] += kv[2] } }
			END { print n["pass"] + 0, n["fail"] + n["error"] + 0 }' "$3") ;;
	esac
	p=${p:-0} f=${f:-0}
	if [ "$p" = 0 ] && [ "$f" = 0 ]; then
		[ "$2" = 0 ] && p=1 || f=1
	elif [ "$2" != 0 ] && [ "$f" = 0 ]; then
		f=1	# the step failed outside its test cases (a kernel report)
	fi
	passed=$((passed + p)) failed=$((failed + f))
	echo "check: $1: $p passed, $f failed ($(($(date +%s) - t0))s)"
}

for step in $steps; do
	t0=$(date +%s)
	echo "check: $step ..."
	case $step in
	deps) make --no-print-directory deps-test ;;
	kunit) make --no-print-directory kunit ;;
	boot) make --no-print-directory boot-test ;;
	selftests) make --no-print-directory selftests ;;
	reboot) make --no-print-directory heat-reboot-test ;;
	modules) make --no-print-directory modules-test ;;
	i386) make --no-print-directory arches ARCHES=i386 ;;
	nohot) make --no-print-directory nohot ;;
	series) make --no-print-directory series ;;
	drift) make --no-print-directory drift ;;
	*) echo "check: unknown step $step"; false ;;
	esac > "$logs/$step.log" 2>&1
	rc=$?
	if [ $rc != 0 ]; then
		tail -40 "$logs/$step.log"
		# What failed, for the summary: the tail may not show it.
		grep -E '^not ok|FAIL|:Expected |Test (failed|terminated)|(BUG|WARNING):|Kernel panic' \
			"$logs/$step.log" | head -20 | sed "s/^/  $step: /" >> "$logs/failures"
	fi
	count "$step" $rc "$logs/$step.log"
done
echo "check: took $(($(date +%s) - start))s; logs in build/check/"
if [ -s "$logs/failures" ]; then
	echo "check: what failed:"
	cat "$logs/failures"
fi
echo "check: $passed passed, $failed failed"
[ "$failed" = 0 ]
