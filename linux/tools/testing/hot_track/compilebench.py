#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""compilebench.py: the phases of Chris Mason's compilebench, over a real
kernel tree, for the hot_track overhead suite.

compilebench ages a filesystem the way kernel development does: it creates
kernel trees, patches, compiles, cleans, reads, stats and deletes them, and
reports each kind of operation in MB/s.  This is a reimplementation from its
README (not its code), in python3 with the standard library only, so that it
runs in the UML guest.

The data set is a real kernel tree (--src, the unpatched tree of the series):
the names and sizes of the files under a few of its top-level directories
(--dirs), thinned to a fraction of the files (--scale), read once before any
phase.  The trees written are copies of that shape: same directories, names
and sizes; the contents are a fixed pseudo-random pattern, as compilebench
writes made-up data of recorded sizes too.

Phases, in this order, each one timed:

  initial create  --initial trees (kernel-0, ...) created from the data set.
                  The first one is created in sorted name order; its readdir
                  order is then the "native" order in which all later
                  creates, patches and compiles go, as compilebench does.
                  Not synced (compilebench does not sync these either).
  create          one more tree, synced.
  patch           a tree is patched: 40 % of its files rewritten with sizes
                  changed by up to 10 %, 2 % deleted, 2 % new files added.
  compile         each .c file of the patched tree is read and a .o (1.5
                  times its size) and a .cmd file (4 KiB) are written next to
                  it; a built-in.a in each of its directories gets the sum of
                  its .o files.
  clean           the compiled tree's .o, .cmd and built-in.a files deleted.
  read tree       every file of another tree read, in readdir order.
  stat tree       every file and directory of a third tree stat(2)ed, in
                  readdir order.
  delete          the tree made by "create" removed, in readdir order.

After the initial creates, every phase ends with sync(2), inside its time,
and the page cache is dropped (outside it) before the next phase, as
compilebench does by default (--no-sync turns both off).  --runs repeats the
phases from create to delete, on the next trees (the patched tree is made
again, untimed, between runs).

Output (JSON, -o or stdout): per phase, MB/s (ops/s for stat tree; the mean
of its runs' rates, as compilebench's "avg"), total seconds and runs; MB is
2^20 bytes.  A phase's MB are the bytes it writes (create,
patch), reads and writes (compile), reads (read tree) or removes (clean,
delete).  compilebench counts the whole tree's size instead.

How it differs from compilebench: a fixed order of phases instead of
compilebench's random choice among them (so that every phase runs in every
sample, for a comparison of kernels); no --makej mode and no "read/stat/delete
compiled tree" variants; the patch and the compile are synthetic (the
data set has one version of the tree, and no build is done), derived
deterministically from the file names, so that every run writes the same;
trees of a few top-level directories (by default block, init, ipc, kernel,
mm, lib, fs and net of 7.3: 6300 files, 112 MB) instead of whole 2.6.20 trees
(222 MB), and 3 initial trees instead of 30.
"""

import argparse
import json
import os
import random
import sys
import time
import zlib

CHUNK = 128 << 10
MB = 1 << 20


class Phase:
    """Accumulated runs of one phase."""

    def __init__(self, unit):
        self.unit = unit
        self.runs = []          # (amount, seconds)

    def add(self, amount, secs):
        self.runs.append((amount, secs))

    def result(self):
        rates = [a / s for a, s in self.runs if s > 0]
        amount = sum(a for a, _ in self.runs)
        secs = sum(s for _, s in self.runs)
        out = {"runs": len(self.runs), "seconds": round(secs, 3)}
        key = "mb_s" if self.unit == "MB/s" else "ops_s"
        out[key] = round(sum(rates) / len(rates), 3) if rates else 0.0
        out["mb" if self.unit == "MB/s" else "ops"] = round(amount, 3)
        out["unit"] = self.unit
        return out


def fhash(name, salt=""):
    """A stable hash of a file name, the same in every run."""
    return zlib.crc32((salt + name).encode())


def scan(src, dirs, scale):
    """Return the sorted [(relative path, size)] of the data set."""
    files = []

    def walk(path):
        with os.scandir(path) as it:
            entries = list(it)
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                walk(e.path)
            elif e.is_file(follow_symlinks=False):
                rel = os.path.relpath(e.path, src)
                if fhash(rel) % 10000 < scale * 10000:
                    files.append((rel, e.stat(follow_symlinks=False).st_size))

    for top in dirs:
        root = os.path.join(src, top)
        if not os.path.isdir(root):
            sys.exit("compilebench: no directory %s" % root)
        walk(root)
    files.sort()
    return files


class Bench:
    def __init__(self, args):
        self.work = args.dir
        self.sync = not args.no_sync
        self.data = random.Random(args.seed).randbytes(CHUNK)
        self.buf = bytearray(CHUNK)
        self.phases = {}
        self.native = None      # [(path, size)] in the native order
        self.marks = args.marks
        self.nmark = 0

    def phase(self, name, unit="MB/s"):
        return self.phases.setdefault(name, Phase(unit))

    def drop(self):
        if not self.sync:
            return
        os.sync()
        try:
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
        except OSError as e:
            print("compilebench: cannot drop caches: %s" % e,
                  file=sys.stderr)

    def mark(self, name):
        """Mark a point of the work for the host (guest-bench.sh's mark):
        a file renamed into the marks directory, which the host logs with
        the CPU time used so far and removes; wait until it has."""
        if not self.marks:
            return
        self.nmark += 1
        # "cb001-compilebench:initial_create-start": no "/" in a name.
        path = os.path.join(self.marks, "cb%03d-compilebench:%s" %
                            (self.nmark, name.replace(" ", "_")))
        tmp = os.path.join(self.marks, ".cbmark")
        open(tmp, "w").close()
        os.rename(tmp, path)
        for _ in range(6000):
            if not os.path.exists(path):
                return
            time.sleep(0.01)
        sys.exit("compilebench: the host did not take mark %s" % path)

    def timed(self, name, what, fn, unit="MB/s", sync=True):
        """Run fn() -> amount, with sync inside the time if enabled, then
        drop the caches (when synced)."""
        self.mark(name + "-start")
        start = time.monotonic()
        amount = fn()
        if sync and self.sync:
            os.sync()
        secs = time.monotonic() - start
        self.mark(name + "-end")
        self.phase(name, unit).add(amount, secs)
        if unit == "MB/s":
            print("%s %s %.0fMB in %.2f seconds (%.2f MB/s)" %
                  (name, what, amount, secs, amount / secs if secs else 0),
                  file=sys.stderr)
        else:
            print("%s %s %d ops in %.2f seconds (%.0f ops/s)" %
                  (name, what, amount, secs, amount / secs if secs else 0),
                  file=sys.stderr)
        if sync:
            self.drop()

    def write(self, path, size, flags=os.O_CREAT | os.O_TRUNC):
        fd = os.open(path, os.O_WRONLY | flags, 0o644)
        try:
            left = size
            while left > 0:
                left -= os.write(fd, self.data[:min(left, CHUNK)])
        finally:
            os.close(fd)
        return size

    def read(self, path):
        n = 0
        with open(path, "rb", buffering=0) as f:
            while True:
                got = f.readinto(self.buf)
                if not got:
                    return n
                n += got

    def create(self, tree, files):
        """Create tree with files [(path, size)] in that order; bytes."""
        total = 0
        made = set()
        for rel, size in files:
            d = os.path.dirname(rel)
            if d not in made:
                os.makedirs(os.path.join(tree, d), exist_ok=True)
                made.add(d)
            total += self.write(os.path.join(tree, rel), size)
        return total / MB

    def learn_native(self, tree, sizes):
        """The tree's files in readdir order, top-down."""
        order = []
        for d, subdirs, names in os.walk(tree):
            for n in names:
                rel = os.path.relpath(os.path.join(d, n), tree)
                order.append((rel, sizes[rel]))
        self.native = order

    def patch(self, tree):
        total = 0
        for rel, size in self.native:
            h = fhash(rel, "patch") % 100
            p = os.path.join(tree, rel)
            if h < 40:
                pct = fhash(rel, "size") % 21 - 10
                total += self.write(p, max(0, size + size * pct // 100))
            elif h < 42:
                os.unlink(p)
            elif h < 44:
                root, ext = os.path.splitext(p)
                total += self.write(root + "_new" + ext, size)
        return total / MB

    def compile(self, tree):
        total = 0
        archives = {}
        for rel, _ in self.native:
            if not rel.endswith(".c"):
                continue
            p = os.path.join(tree, rel)
            if not os.path.exists(p):
                continue        # deleted by the patch
            total += self.read(p)
            base = p[:-2]
            osize = max(1024, self.filesize(p) * 3 // 2)
            total += self.write(base + ".o", osize)
            d, n = os.path.split(base)
            total += self.write(os.path.join(d, "." + n + ".o.cmd"), 4096)
            archives[d] = archives.get(d, 0) + osize
        for d, size in archives.items():
            total += self.write(os.path.join(d, "built-in.a"), size)
        return total / MB

    @staticmethod
    def filesize(p):
        return os.stat(p).st_size

    @staticmethod
    def is_output(name):
        return name.endswith((".o", ".o.cmd")) or name == "built-in.a"

    def clean(self, tree):
        total = 0
        for d, subdirs, names in os.walk(tree):
            for n in names:
                if self.is_output(n):
                    p = os.path.join(d, n)
                    total += os.lstat(p).st_size
                    os.unlink(p)
        return total / MB

    def read_tree(self, tree):
        total = 0
        for d, subdirs, names in os.walk(tree):
            for n in names:
                total += self.read(os.path.join(d, n))
        return total / MB

    @staticmethod
    def stat_tree(tree):
        ops = 0
        for d, subdirs, names in os.walk(tree):
            for n in subdirs + names:
                os.lstat(os.path.join(d, n))
                ops += 1
        return ops

    @staticmethod
    def delete(tree):
        def rm(path):
            total = 0
            with os.scandir(path) as it:
                for e in it:
                    if e.is_dir(follow_symlinks=False):
                        total += rm(e.path)
                    else:
                        total += e.stat(follow_symlinks=False).st_size
                        os.unlink(e.path)
            os.rmdir(path)
            return total
        return rm(tree) / MB

    def run(self, files, initial, runs):
        os.makedirs(self.work, exist_ok=True)
        trees = [os.path.join(self.work, "kernel-%d" % i)
                 for i in range(initial)]
        sizes = dict(files)
        for i, t in enumerate(trees):
            order = files if i == 0 else self.native
            self.timed("initial create", "dir " + os.path.basename(t),
                       lambda: self.create(t, order), sync=False)
            if i == 0:
                self.learn_native(t, sizes)
        self.drop()
        for r in range(runs):
            new = os.path.join(self.work, "kernel-new-%d" % r)
            a = trees[r % initial]
            b = trees[(r + 1) % initial]
            c = trees[(r + 2) % initial]
            name = os.path.basename
            self.timed("create", "dir " + name(new),
                       lambda: self.create(new, self.native))
            self.timed("patch", "dir " + name(a), lambda: self.patch(a))
            self.timed("compile", "dir " + name(a), lambda: self.compile(a))
            self.timed("clean", name(a), lambda: self.clean(a))
            self.timed("read tree", "dir " + name(b),
                       lambda: self.read_tree(b))
            self.timed("stat tree", "dir " + name(c),
                       lambda: self.stat_tree(c), unit="ops/s")
            self.timed("delete", name(new), lambda: self.delete(new))
            if r + 1 < runs:
                # The patched tree goes back to the data set's state.
                self.delete(a)
                self.create(a, self.native)
                self.drop()


def main():
    ap = argparse.ArgumentParser(
        description="compilebench's phases over a real kernel tree")
    ap.add_argument("-D", "--dir", required=True,
                    help="working directory, on the filesystem under test")
    ap.add_argument("-s", "--src", required=True,
                    help="kernel source tree, the data set")
    ap.add_argument("--dirs", default="block,init,ipc,kernel,mm,lib,fs,net",
                    help="top-level directories of SRC to use (commas)")
    ap.add_argument("--scale", type=float, default=1.0,
                    help="fraction of their files to use (0 < SCALE <= 1)")
    ap.add_argument("-i", "--initial", type=int, default=3,
                    help="trees created at first (compilebench: 30)")
    ap.add_argument("-r", "--runs", type=int, default=1,
                    help="rounds of the phases after the initial creates")
    ap.add_argument("--no-sync", action="store_true",
                    help="no sync in the timings, no dropped caches")
    ap.add_argument("--seed", type=int, default=2012,
                    help="seed of the data written")
    ap.add_argument("-o", "--output", help="JSON result file")
    ap.add_argument("--marks", help="directory of the host's CPU time marks "
                    "(guest-bench.sh: $HT_MARKS): each phase's start and end "
                    "are marked there")
    args = ap.parse_args()
    if not 0 < args.scale <= 1 or args.initial < 1 or args.runs < 1:
        ap.error("bad --scale, --initial or --runs")

    dirs = [d for d in args.dirs.split(",") if d]
    files = scan(args.src, dirs, args.scale)
    if not files:
        sys.exit("compilebench: empty data set")
    bench = Bench(args)
    start = time.monotonic()
    bench.run(files, args.initial, args.runs)
    bench.delete(args.dir)
    result = {
        "benchmark": "compilebench.py",
        "dataset": {"src": args.src, "dirs": dirs, "scale": args.scale,
                    "files": len(files),
                    "mb": round(sum(s for _, s in files) / MB, 3)},
        "settings": {"initial": args.initial, "runs": args.runs,
                     "sync": not args.no_sync},
        "seconds": round(time.monotonic() - start, 3),
        "phases": {k: v.result() for k, v in bench.phases.items()},
    }
    text = json.dumps(result, indent=1) + "\n"
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
