#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [--list] [GROUP...]: install the Debian packages that building, booting and
# testing the series need, unless they are all there already.  GROUP is one
# or more of the groups below (default: check, what `make check` needs;
# `make demo` adds demo).  Prints what it installs and why; when apt fails, says which
# packages were wanted for what and exits 1.
#
# --list prints the packages of the groups, one a line, and installs nothing.
#
# Only dpkg-query and apt-get are asked (through $PATH, so a test can stub
# them): nothing is installed when every package is there.
set -uo pipefail

declare -A why=(
	[build]="build the kernel and the tools"
	[check]="make and check filesystems, load modules, run the guest tests and KUnit on i386 (QEMU)"
	[arches]="run KUnit on x86_64, i386 and arm64 under QEMU"
	[load]="run the tests beside a CPU hog"
	[bench]="run (fs_mark, dm-delay), analyse and plot the benchmarks"
	[demo]="draw the demo's heat maps"
)
declare -A group=(
	[build]="build-essential flex bison bc libelf-dev libssl-dev cpio rsync
		 xz-utils ccache python3 python3-ply python3-git"
	[check]="fio xfsprogs btrfs-progs e2fsprogs util-linux procps kmod
		 qemu-system-x86"
	[arches]="qemu-system-x86 qemu-system-arm gcc-aarch64-linux-gnu"
	[load]="stress-ng"
	[bench]="fsmark dmsetup python3-scipy python3-matplotlib"
	[demo]="python3-matplotlib"
)

log() { echo "deps: $*" >&2; }

list=0
[ "${1:-}" = --list ] && { list=1; shift; }
groups=${*:-check}
wanted="" reasons=""
for g in $groups; do
	[ -n "${group[$g]:-}" ] || { log "unknown group '$g' (${!group[*]})"; exit 2; }
	# Everything needs the build tools.
	for h in build $g; do
		case " $reasons " in *" $h "*) continue ;; esac
		reasons="$reasons $h"
		for p in ${group[$h]}; do
			case " $wanted " in *" $p "*) ;; *) wanted="$wanted $p" ;; esac
		done
	done
done

if [ $list = 1 ]; then
	printf '%s\n' $wanted
	exit 0
fi

# A package counts as there only when dpkg says "installed" (for one of its
# architectures); dpkg-query exits non-zero for packages it does not know,
# which are missing too.
missing=""
for p in $wanted; do
	st=$(dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null) || st=""
	grep -qx installed <<< "$st" || missing="$missing $p"
done
missing=${missing# }
[ -n "$missing" ] || exit 0

log "installing: $missing"
for h in $reasons; do
	log "  (to ${why[$h]}: $(echo ${group[$h]}))"
done
if [ "$(id -u)" != 0 ]; then
	log "not root: run as root, or install them yourself:"
	log "  apt-get install $missing"
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >&2; then
	log "apt-get update failed (no network, or a broken sources list?); continuing with the lists there are"
fi
aptlog=$(mktemp)
trap 'rm -f "$aptlog"' EXIT
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >"$aptlog" 2>&1; then
	tail -n 20 "$aptlog" >&2
	log "apt-get install failed: these packages are needed and missing: $missing"
	log "install them by hand (apt-get install $missing) and run make again"
	exit 1
fi
log "installed: $missing"
