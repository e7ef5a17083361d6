#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building, booting and testing the series needs on Debian,
# unless it is all there already.
set -euo pipefail
pkgs="build-essential flex bison bc libelf-dev libssl-dev cpio rsync xz-utils
      ccache sparse python3 fio fsmark xfsprogs btrfs-progs e2fsprogs
      util-linux procps python3-ply python3-git"
missing=$(dpkg-query -W -f='${db:Status-Status} ${Package}\n' $pkgs 2>/dev/null |
	  awk '$1 != "installed" {print $2}')
# dpkg-query prints nothing for packages it has never heard of.
for p in $pkgs; do
	dpkg-query -W "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -n "$(echo $missing)" ] || exit 0
echo "deps: installing$(echo " $missing" | tr -s ' \n' ' ')" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq $missing >/dev/null
