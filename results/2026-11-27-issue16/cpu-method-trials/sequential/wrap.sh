#!/bin/bash
# trial: writeback only at sync
if [ "${QUIETWB:-1}" = 1 ]; then
sysctl -q vm.dirty_writeback_centisecs=0 vm.dirty_expire_centisecs=360000 vm.dirty_background_ratio=50 vm.dirty_ratio=80
sysctl -q fs.xfs.xfssyncd_centisecs=720000 || true
fi
exec "$@"
