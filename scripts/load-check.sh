#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# load-check.sh: make check with stress-ng hogging every CPU beside it, as
# on a busy machine.  The tests wait for conditions, not for time, so they
# must pass, only slower.  HOT_LOAD_CHECK_STEPS limits the steps (default:
# all of check's).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
n=$(nproc)
stress-ng --cpu "$n" --timeout 3h --quiet &
hog=$!
trap 'kill $hog 2>/dev/null; wait $hog 2>/dev/null' EXIT
# A hog on every core halves the CPU the tests get: their timeouts (the
# guest's, KUnit's, the kselftests') double unless told otherwise.
export HOT_TIMEOUT_SCALE=${HOT_TIMEOUT_SCALE:-2}
echo "load-check: stress-ng --cpu $n (pid $hog) beside make check," \
     "HOT_TIMEOUT_SCALE=$HOT_TIMEOUT_SCALE"
CHECK_STEPS=${HOT_LOAD_CHECK_STEPS:-${CHECK_STEPS:-}} scripts/check.sh
