#!/usr/bin/env python3
# Longest chain of the inode table's hash (1024 buckets) for key layouts,
# at a load of 1 and 4 (the KUnit hot_inode_hash_test's), over 8 seeds:
# "rand", today's hash of the whole key; "A", runs of 4 inode numbers that
# keep their low two bits (notes/wip/issue16-locality-hash.patch); "C2"
# and "C3", runs of 4 and 8 that take the bits within the run from the
# hash of the whole key.  results/2026-12-01-issue16/host-perf/NOTES.md.
G = 0x61C8864680B583EB
M = (1 << 64) - 1


def mix(v, seed, root):
    x = (((v ^ seed) * G) & M) ^ root
    x ^= x >> 32
    return ((x * G) & M) >> 32


def h0(ino, seed, root):
    return mix(ino, seed, root)


def hA(ino, seed, root, sh=2):
    return ((mix(ino >> sh, seed, root) << sh) & 0xffffffff) | \
        (ino & ((1 << sh) - 1))


def hC(ino, seed, root, sh=2):
    return ((mix(ino >> sh, seed, root) << sh) & 0xffffffff) | \
        (mix(ino, seed, root) & ((1 << sh) - 1))


LAYOUTS = {
    "seq": lambda i: (5, 256 + i),
    "chunk": lambda i: (0, 128 + 64 * i),
    "stride4": lambda i: (0, 4 * i + 1),
    "stride8": lambda i: (0, 8 * i + 1),
    "snap": lambda i: (256 + i // 64, 256 + i % 64),
    "high": lambda i: (0, 1000 + (i << 42)),
    "rooth": lambda i: (i << 40, 257),
}
HASHES = (("rand", h0), ("A", hA), ("C2", hC),
          ("C3", lambda i, s, r: hC(i, s, r, 3)))
for load in (1, 4):
    for name, f in LAYOUTS.items():
        out = []
        for hn, hf in HASHES:
            worst = 0
            for seed in (0, 1, 0xdeadbeef, 0xffffffff, 12345, 777, 99,
                         31337):
                b = [0] * 1024
                for i in range(1024 * load):
                    r, ino = f(i)
                    b[hf(ino, seed, r) & 1023] += 1
                worst = max(worst, max(b))
            out.append("%s %2d" % (hn, worst))
        print("load", load, "%-8s" % name, " ".join(out))
