#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps-test.sh: scripts/deps.sh against stubbed dpkg-query, apt-get and id,
# on the machines a new user may have: nothing installed, some packages
# missing, everything there, apt failing, not root.  Ends with one line
# "deps-test: N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
deps=$top/scripts/deps.sh
stub=$(mktemp -d)
trap 'rm -rf "$stub"' EXIT
passed=0 failed=0

# The stubs read their behaviour from files in $stub:
#   installed    packages dpkg knows as installed (one a line)
#   removed      packages dpkg knows, not installed ("deinstall ... config-files")
#   multiarch    installed packages dpkg lists for two architectures
#   apt.fail     apt-get install fails when this exists
#   uid          what id -u prints
# and record each apt-get call in apt.calls.
cat > "$stub/dpkg-query" <<'STUB'
#!/bin/bash
# dpkg-query -W [-f=FORMAT] PACKAGE...: FORMAT's ${Package} and
# ${db:Status-Status} for each package dpkg knows; exit 1 if one is unknown.
fmt='${Package}\t${Version}\n' rc=0
for a; do
	case $a in
	-f=*) fmt=${a#-f=} ;;
	-*) ;;
	*)	if grep -qx "$a" "$STUBDIR/installed" 2>/dev/null; then st=installed
		elif grep -qx "$a" "$STUBDIR/removed" 2>/dev/null; then st=config-files
		else echo "dpkg-query: no packages found matching $a" >&2; rc=1; continue
		fi
		f=${fmt//'${Package}'/$a}; f=${f//'${db:Status-Status}'/$st}
		f=${f//'${Version}'/1.0}; printf "$f"
		# Installed for two architectures: a line for each.
		grep -qx "$a" "$STUBDIR/multiarch" 2>/dev/null && printf "$f" ;;
	esac
done
exit $rc
STUB
cat > "$stub/apt-get" <<'STUB'
#!/bin/bash
echo "$*" >> "$STUBDIR/apt.calls"
case " $* " in *" install "*) [ -e "$STUBDIR/apt.fail" ] && { echo "E: Unable to locate package x" >&2; exit 100; } ;; esac
exit 0
STUB
cat > "$stub/id" <<'STUB'
#!/bin/bash
cat "$STUBDIR/uid" 2>/dev/null || echo 0
STUB
chmod +x "$stub"/dpkg-query "$stub"/apt-get "$stub"/id
export STUBDIR=$stub

# Every package of the default group (check).
all=$("$deps" --list)

reset() { rm -f "$stub"/installed "$stub"/removed "$stub"/multiarch "$stub"/apt.* "$stub"/uid; : > "$stub/installed"; }
run() { PATH="$stub:$PATH" "$deps" "$@" > "$stub/out" 2>&1; echo $? > "$stub/rc"; }
rc() { cat "$stub/rc"; }
installs() { grep -w install "$stub/apt.calls" 2>/dev/null | tr ' ' '\n' | grep -v '^-' | grep -vx install | sort | tr '\n' ' '; }
sorted() { printf '%s\n' "$@" | sort | tr '\n' ' '; }

check() {	# check NAME CONDITION...: one test case
	if eval "${*:2}"; then
		echo "ok - $1"; passed=$((passed + 1))
	else
		echo "not ok - $1"; sed 's/^/#   /' "$stub/out"; failed=$((failed + 1))
	fi
}

# Everything installed: nothing is asked of apt.
reset; printf '%s\n' $all > "$stub/installed"; run
check "all installed: exit 0" '[ "$(rc)" = 0 ]'
check "all installed: apt-get not called" '[ ! -e "$stub/apt.calls" ]'

# Nothing installed (dpkg-query fails for every package): all installed at once.
reset; run
check "none installed: exit 0" '[ "$(rc)" = 0 ]'
check "none installed: apt-get update first" '[ "$(head -1 "$stub/apt.calls" | grep -c update)" = 1 ]'
check "none installed: installs every package" '[ "$(installs)" = "$(sorted $all)" ]'
check "none installed: says what and why" 'grep -q "deps: installing: " "$stub/out" && grep -q "to build the kernel" "$stub/out"'

# Some missing: unknown to dpkg, and removed with its config left.
reset; printf '%s\n' $all | grep -vx 'fio\|flex' > "$stub/installed"; echo flex > "$stub/removed"; run
check "some missing: exit 0" '[ "$(rc)" = 0 ]'
check "some missing: installs just those" '[ "$(installs)" = "$(sorted fio flex)" ]'

# A package installed for two architectures is there.
reset; printf '%s\n' $all > "$stub/installed"; echo libssl-dev > "$stub/multiarch"; run
check "multiarch: apt-get not called" '[ "$(rc)" = 0 ] && [ ! -e "$stub/apt.calls" ]'

# apt fails: exit 1, and the message names the packages.
reset; touch "$stub/apt.fail"; printf '%s\n' $all | grep -vx xfsprogs > "$stub/installed"; run
check "apt fails: exit 1" '[ "$(rc)" = 1 ]'
check "apt fails: names what is missing" 'grep -q "apt-get install failed.*xfsprogs" "$stub/out"'
check "apt fails: shows apt's error" 'grep -q "Unable to locate" "$stub/out"'

# Not root: nothing is attempted, the command to run is printed.
reset; echo 1000 > "$stub/uid"; run
check "not root: exit 1, apt not called" '[ "$(rc)" = 1 ] && [ ! -e "$stub/apt.calls" ]'
check "not root: prints the command" 'grep -q "apt-get install .*xfsprogs" "$stub/out"'

# Other groups add their packages to the build tools; a bad group is refused.
reset; printf '%s\n' $all > "$stub/installed"; run arches
check "arches: installs the cross compiler and QEMU for arm64 only" '[ "$(installs)" = "$(sorted qemu-system-arm gcc-aarch64-linux-gnu)" ]'
reset; run nosuchgroup
check "unknown group: exit 2, apt not called" '[ "$(rc)" = 2 ] && [ ! -e "$stub/apt.calls" ]'

echo "deps-test: $passed passed, $failed failed"
[ "$failed" = 0 ]
