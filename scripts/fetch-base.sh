#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fetch the pinned base tarball (Linux 7.3.4 as Debian ships it) into build/.
#
#   BASE_CACHE=DIR  take linux-source-7.3_<ver>_all.deb from DIR (CI: ../shared/kernel)
#   (default)       download it with apt from the trixie-backports suite
#   KSRC=DIR        use the kernel tree in DIR instead (no checksum: your tree, your call)
#
# Prints the path of the verified tarball or of the tree on stdout.
set -euo pipefail

DEB_VER="7.3.4-1~bpo13+1"
DEB="linux-source-7.3_${DEB_VER}_all.deb"
DEB_SHA256="703e369ddd4cce971452f5a593ee55df3a5c10c83caf0fa0df039633ed181ee3"
top=$(cd "$(dirname "$0")/.." && pwd)
out="$top/build/base"
mkdir -p "$out"

log() { echo "fetch-base: $*" >&2; }

if [ -n "${KSRC:-}" ]; then
	[ -f "$KSRC/Makefile" ] && [ -d "$KSRC/fs" ] || { log "KSRC=$KSRC is not a kernel tree"; exit 1; }
	log "using the kernel tree in $KSRC (not checksummed)"
	cd "$KSRC" && pwd
	exit 0
fi

verify() { echo "$DEB_SHA256  $1" | sha256sum -c --status; }

if [ ! -f "$out/$DEB" ] || ! verify "$out/$DEB"; then
	rm -f "$out/$DEB"
	if [ -n "${BASE_CACHE:-}" ] && [ -f "$BASE_CACHE/$DEB" ]; then
		log "taking $DEB from $BASE_CACHE"
		cp "$BASE_CACHE/$DEB" "$out/$DEB"
	else
		log "downloading $DEB with apt (trixie-backports, this package only)"
		list=/etc/apt/sources.list.d/hot-track-trixie-backports.list
		if [ ! -f "$list" ]; then
			echo "deb http://deb.debian.org/debian trixie-backports main" > "$list"
			# Pinned far below everything else: only an explicit request
			# for this one version takes anything from the suite.
			cat > /etc/apt/preferences.d/hot-track-trixie-backports <<PIN
Package: *
Pin: release n=trixie-backports
Pin-Priority: 1
PIN
			apt-get update -o Dir::Etc::sourcelist="$list" \
				-o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 >&2
		fi
		# The list may be stale (an earlier update failed): update once more.
		(cd "$out" && apt-get download "linux-source-7.3=$DEB_VER" >&2) ||
		{ apt-get update -o Dir::Etc::sourcelist="$list" \
			-o Dir::Etc::sourceparts=- -o APT::Get::List-Cleanup=0 >&2 &&
		  (cd "$out" && apt-get download "linux-source-7.3=$DEB_VER" >&2); } ||
		{ log "cannot download linux-source-7.3=$DEB_VER from trixie-backports"
		  log "(no network? superseded there? give BASE_CACHE=DIR with the .deb)"
		  exit 1; }
	fi
	verify "$out/$DEB" || { log "checksum mismatch for $DEB"; rm -f "$out/$DEB"; exit 1; }
fi

tarball="$out/linux-source-7.3.tar.xz"
if [ ! -f "$tarball" ] || [ "$out/$DEB" -nt "$tarball" ]; then
	dpkg-deb --fsys-tarfile "$out/$DEB" |
		tar -xO ./usr/src/linux-source-7.3.tar.xz > "$tarball.tmp"
	mv "$tarball.tmp" "$tarball"
fi
echo "$tarball"
