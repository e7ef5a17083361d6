#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""cpu-marks.py CGROUP MARKDIR LOG: the host side of guest CPU accounting.

scripts/guest-run -C runs the UML guest in the cgroup CGROUP (cgroup v1
cpuacct or cgroup v2) and this beside it.  The guest marks a point of its
work by renaming a file into MARKDIR (the guest's $HT_MARKS, through hostfs)
and waits until it is gone.  For each file, in the order they come, this
appends to LOG a line

    NAME CPU_NS HOST_NS

(the file's name, the CPU time in ns every process of the cgroup used so
far: the guest's CPUs, its I/O threads and the host processes of its user
space; the host's CLOCK_MONOTONIC), then removes the file.  The CPU time
between two marks is what the guest spent on the work between them, on
the host's own accounting: unlike the guest's tick sampling it has no
sampling error and does not count time the host gave to others.

Waits with inotify, so it costs nothing between marks.  Stops on SIGTERM,
and when its parent (guest-run) ends.

cpu-marks.py CGROUP MARKDIR LOG BARRIER SELF PEER: for two guests that run
the same work at the same time (scripts/bench.sh), a mark whose name ends
in "-start" is answered only when the other guest has reached the same
mark too, or after BARRIER_WAIT seconds: this one leaves SELF.<name> in
the directory BARRIER and waits for PEER.<name> there.  Its CPU time is
read then, after the wait, so that each of the two starts each part of
the work beside the other.
"""
import ctypes
import os
import signal
import struct
import sys
import time

IN_CREATE = 0x100
IN_MOVED_TO = 0x80
PR_SET_PDEATHSIG = 1
# The longest a "-start" mark waits for the other guest, in seconds: less
# than a guest waits for an answer (guest-bench.sh, a minute).
BARRIER_WAIT = 30


def barrier_wait(barrier, name):
    """Leave our sign of mark @name in the barrier directory and wait for
    the peer's (polling: both sides are host processes outside the
    guests' cgroups)."""
    if not barrier or not name.endswith('-start'):
        return
    bdir, me, peer = barrier
    open(os.path.join(bdir, f'{me}.{name}'), 'w').close()
    end = time.monotonic() + BARRIER_WAIT
    while not os.path.exists(os.path.join(bdir, f'{peer}.{name}')):
        if time.monotonic() > end:
            return
        time.sleep(0.001)


def usage_reader(cgroup):
    """A function that returns the cgroup's CPU time so far, in ns."""
    v1 = os.path.join(cgroup, 'cpuacct.usage')
    if os.path.exists(v1):
        def read():
            with open(v1) as f:
                return int(f.read())
        return read
    v2 = os.path.join(cgroup, 'cpu.stat')

    def read():
        with open(v2) as f:
            for line in f:
                key, val = line.split()
                if key == 'usage_usec':
                    return int(val) * 1000
        raise RuntimeError(f'{v2}: no usage_usec')
    return read


def main():
    if len(sys.argv) not in (4, 7):
        sys.exit(__doc__)
    cgroup, markdir, log = sys.argv[1:4]
    barrier = sys.argv[4:7] or None
    usage = usage_reader(cgroup)
    usage()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    libc = ctypes.CDLL(None, use_errno=True)
    # Stop with guest-run, even when it is killed outright.
    parent = os.getppid()
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != parent:
        sys.exit(0)
    fd = libc.inotify_init()
    if fd < 0:
        sys.exit(f'cpu-marks: inotify_init: {os.strerror(ctypes.get_errno())}')
    os.makedirs(markdir, exist_ok=True)
    if libc.inotify_add_watch(fd, markdir.encode(),
                              IN_CREATE | IN_MOVED_TO) < 0:
        sys.exit(f'cpu-marks: {markdir}: '
                 f'{os.strerror(ctypes.get_errno())}')
    with open(log, 'a', buffering=1) as out:
        while True:
            # Names are numbered by the guest: answer them in that order,
            # those made before the watch too.
            for name in sorted(os.listdir(markdir)):
                # Made under a dot name, then renamed: hostfs opens a file
                # it created again, which must not find it gone.
                if name.startswith('.'):
                    continue
                barrier_wait(barrier, name)
                cpu = usage()
                out.write(f'{name} {cpu} {time.monotonic_ns()}\n')
                os.unlink(os.path.join(markdir, name))
            buf = os.read(fd, 4096)
            # Only that something came matters; drain the events.
            while len(buf) >= 16:
                nlen = struct.unpack_from('iIII', buf)[3]
                buf = buf[16 + nlen:]


if __name__ == '__main__':
    main()
