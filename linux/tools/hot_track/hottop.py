#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""hottop: the hottest files or 1 MiB ranges of filesystems mounted with
hot_track, refreshed like top(1).

The items come from the FS_IOC_GET_HOT_ITEMS ioctl (which needs
CAP_SYS_ADMIN), in the order of the heat maps of the last update pass, and
with the temperature of that pass; the other columns are as of each
refresh.  Several mounts are listed together, sorted across them.

Columns:
  TEMP         temperature at the last update pass (2^26 per doubling of
               the access rate)
  READS WRITES reads and writes that went to disk since the item was made,
               with those of heat loaded by hot_heat load
  RD/S WR/S    reads and writes per second: the change of the counts
               between two refreshes; for an item seen for the first time,
               the kernel's estimate: 1e9 / gap in ns, the gap the
               kernel reports for the item's rate as of now
  RD_AGE       seconds since the last read and write from or to disk, -
  WR_AGE       if none
  OFFSET       (ranges) the first MiB of the range in the file
  PATH         the file, from its handle, or else (when the kernel has no
               name for it in its dentry cache) from a walk of the tree
               below MNT, made at most every 30 s; MNT:ROOT:INO when neither
               names it (deleted, or out of the tree below MNT)

Keys of the interactive screen:
  q quit         r files or ranges    s next sort key
  t sort by TEMP d by READS  w by WRITES  R by RD/S  W by WR/S  a by age
  + and - lengthen or shorten the interval
"""

import argparse
import collections
import ctypes
import curses
import errno
import fcntl
import os
import platform
import struct
import sys
import time

# struct hot_item_rec and struct hot_items_query of <linux/hot_tracking.h>
REC = struct.Struct('=QQIIQIIIIQQQQ')
QUERY = struct.Struct('=IIIIQQ4Q4Q')
HOT_AGE_NEVER = (1 << 64) - 1
HOT_REC_RANGE = 0x1
HOT_QUERY_RANGES = 0x1
HOT_QUERY_END = 0x1
HOT_QUERY_REORDERED = 0x2
HOT_QUERY_MAX = 4096
MAX_TRIES = 3

EXT4_SUPER_MAGIC = 0xEF53
XFS_SUPER_MAGIC = 0x58465342
BTRFS_SUPER_MAGIC = 0x9123683E
FS_NAMES = {EXT4_SUPER_MAGIC: 'ext4', XFS_SUPER_MAGIC: 'xfs',
            BTRFS_SUPER_MAGIC: 'btrfs'}

SORT_KEYS = ('temp', 'reads', 'writes', 'rd/s', 'wr/s', 'age')
KEYS = {ord('t'): 'temp', ord('d'): 'reads', ord('w'): 'writes',
        ord('R'): 'rd/s', ord('W'): 'wr/s', ord('a'): 'age'}
HELP_LINE = ('q quit  r files/ranges  s next sort  t temp  d reads  '
             'w writes  R rd/s  W wr/s  a age  +/- interval')


def _ioc(direction, typ, nr, size):
    """_IOC() of the kernel for the machine we run on."""
    if platform.machine().startswith(('ppc', 'powerpc', 'mips', 'sparc',
                                      'alpha')):
        dirs, sizebits = {'r': 2, 'w': 4, 'rw': 6}, 13
    else:
        dirs, sizebits = {'r': 2, 'w': 1, 'rw': 3}, 14
    assert size < 1 << sizebits
    return (dirs[direction] << (16 + sizebits) | size << 16 |
            ord(typ) << 8 | nr)


FS_IOC_GET_HOT_ITEMS = _ioc('rw', 'f', 0x61, QUERY.size)

Item = collections.namedtuple('Item', (
    'root', 'ino', 'gen', 'flags', 'offset', 'reads', 'writes', 'temp',
    'avg_delta_reads', 'avg_delta_writes', 'read_age', 'write_age'))


def unpack_recs(buf, nr):
    """The first nr struct hot_item_rec of buf as Items."""
    items = []
    for i in range(nr):
        (root, ino, gen, flags, offset, reads, writes, temp, _,
         avg_r, avg_w, r_age, w_age) = REC.unpack_from(buf, i * REC.size)
        items.append(Item(root, ino, gen, flags, offset, reads, writes,
                          temp, avg_r, avg_w, r_age, w_age))
    return items


def query_items(fd, ranges, limit=None):
    """The hottest files (or ranges) of the filesystem of fd, hottest first.

    Pages FS_IOC_GET_HOT_ITEMS until the end, or until limit items; an
    update pass in between (HOT_QUERY_REORDERED) reorders the items, so the
    listing starts again, up to MAX_TRIES times, and then goes on, keeping
    the first of items seen twice.  Returns (pass, items, complete); raises
    OSError.
    """
    room = HOT_QUERY_MAX if limit is None else max(1, min(limit,
                                                          HOT_QUERY_MAX))
    buf = ctypes.create_string_buffer(room * REC.size)
    for tries in range(1, MAX_TRIES + 1):
        items, cursor, seen = [], (0, 0, 0, 0), set()
        while True:
            q = bytearray(QUERY.pack(HOT_QUERY_RANGES if ranges else 0,
                                     REC.size, room, 0,
                                     ctypes.addressof(buf), 0, *cursor,
                                     0, 0, 0, 0))
            fcntl.ioctl(fd, FS_IOC_GET_HOT_ITEMS, q, True)
            out = QUERY.unpack(q)
            nr, oflags, npass, cursor = out[2], out[3], out[5], out[6:10]
            if oflags & HOT_QUERY_REORDERED and tries < MAX_TRIES:
                break
            for it in unpack_recs(buf, nr):
                key = (it.root, it.ino, it.gen, it.flags, it.offset)
                if key not in seen:
                    seen.add(key)
                    items.append(it)
            if oflags & HOT_QUERY_END:
                return npass, items, True
            if limit is not None and len(items) >= limit:
                return npass, items[:limit], False
            if not nr and not oflags & HOT_QUERY_REORDERED:
                raise OSError(errno.EPROTO, 'an empty page before the end')
        # a new pass: try again
    raise AssertionError('not reached')


# File handles, as the filesystems' ->encode_fh() make them.
_libc = ctypes.CDLL(None, use_errno=True)


def fs_magic(fd):
    """f_type of fstatfs(fd)."""
    buf = ctypes.create_string_buffer(512)
    if _libc.fstatfs(fd, buf):
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return struct.unpack_from('l', buf)[0] & 0xffffffff


def make_handle(magic, root, ino, gen):
    """(handle type, handle bytes) of a file, None if there is none."""
    if magic == BTRFS_SUPER_MAGIC:
        # struct btrfs_fid: objectid, root_objectid, gen
        return 0x4d, struct.pack('=QQI', ino, root, gen)
    if root:
        return None
    if magic == XFS_SUPER_MAGIC and ino >= 1 << 32:
        # struct xfs_fid64: ino, gen; FILEID_INO32_GEN | 64-bit flag
        return 0x81, struct.pack('=QI', ino, gen)
    if magic in (XFS_SUPER_MAGIC, EXT4_SUPER_MAGIC) and ino < 1 << 32:
        return 1, struct.pack('=II', ino, gen)   # FILEID_INO32_GEN
    return None


def open_by_handle(mount_fd, magic, root, ino, gen, flags):
    """open_by_handle_at() of a file: a file descriptor; raises OSError."""
    handle = make_handle(magic, root, ino, gen)
    if handle is None:
        raise OSError(errno.EINVAL, 'no file handle for this filesystem')
    htype, data = handle
    fh = ctypes.create_string_buffer(struct.pack('=Ii', len(data), htype) +
                                     data)
    fd = _libc.open_by_handle_at(mount_fd, fh, flags | os.O_CLOEXEC)
    if fd < 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err))
    return fd


def same_file(path, fst):
    """Whether path names the file of the stat result fst."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    return st.st_ino == fst.st_ino and st.st_dev == fst.st_dev


def resolve_path(mount_fd, magic, root, ino, gen, lookup=None):
    """The path of a file, or None if it has none that names it.

    The path of the descriptor that open_by_handle_at() gives, when the
    file's dentry is connected to the tree; lookup(stat) is asked for one
    when it is not (a dentry the kernel made for the handle has no name).
    """
    try:
        fd = open_by_handle(mount_fd, magic, root, ino, gen, os.O_PATH)
    except OSError:
        return None
    try:
        fst = os.fstat(fd)
        path = os.readlink('/proc/self/fd/%d' % fd)
        if fst.st_ino == ino and same_file(path, fst):
            return path
        if lookup:
            path = lookup(fst)
            if path and same_file(path, fst):
                return path
    except OSError:
        pass
    finally:
        os.close(fd)
    return None


def mount_points():
    """The mount points of our mount namespace."""
    points = set()
    try:
        with open('/proc/self/mountinfo', 'rb') as f:
            for line in f:
                point = line.split()[4]
                # octal escapes of space, tab, newline and backslash
                for c in (b' ', b'\t', b'\n', b'\\'):
                    point = point.replace(b'\\%03o' % ord(c), c)
                points.add(os.fsdecode(point))
    except OSError:
        pass
    return points


class Mount:
    """A filesystem to list, by the path it was given as."""

    WALK_EVERY = 30         # seconds between two walks of the tree
    WALK_MAX = 200000       # entries looked at in one walk

    def __init__(self, path):
        self.path = path
        self.fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            self.magic = fs_magic(self.fd)
        except OSError:
            self.magic = 0
        self.fstype = FS_NAMES.get(self.magic, '%#x' % self.magic)
        self.npass = None
        self.walked = {}        # {(st_dev, st_ino): path} of the last walk
        self.walked_at = None

    def query(self, ranges, limit=None):
        """query_items() on this mount, saving the pass number; raises
        QueryError."""
        try:
            self.npass, items, complete = query_items(self.fd, ranges, limit)
        except OSError as err:
            raise QueryError(query_error(err, self.path)) from err
        return items, complete

    def walk(self):
        """Note the regular files below the mount's path, up to WALK_MAX
        entries, without going into other mounts (but into btrfs
        subvolumes, which os.path.ismount() takes for mounts)."""
        self.walked, n = {}, 0
        self.walked_at = time.monotonic()
        start = os.path.realpath(self.path)
        others = mount_points() - {start}
        for top, dirs, files in os.walk(start):
            dirs[:] = [d for d in dirs
                       if os.path.join(top, d) not in others]
            for f in files:
                path = os.path.join(top, f)
                try:
                    st = os.stat(path, follow_symlinks=False)
                except OSError:
                    continue
                self.walked[(st.st_dev, st.st_ino)] = path
            n += len(dirs) + len(files)
            if n >= self.WALK_MAX:
                break

    def lookup(self, fst):
        """The path of a file that has no connected dentry, from a walk
        of the tree, made again if the file is not in the last one and
        that one is WALK_EVERY seconds old."""
        key = (fst.st_dev, fst.st_ino)
        path = self.walked.get(key)
        if path and same_file(path, fst):
            return path
        if (self.walked_at is None or
                time.monotonic() - self.walked_at >= self.WALK_EVERY):
            self.walk()
        return self.walked.get(key)

    def resolve(self, root, ino, gen):
        """The path of a file, or None."""
        return resolve_path(self.fd, self.magic, root, ino, gen, self.lookup)

    def name(self, root, ino, gen, cache):
        """The path of a file, or MNT:ROOT:INO; cache is a dict."""
        key = (root, ino, gen)
        if key not in cache:
            path = self.resolve(root, ino, gen)
            cache[key] = path or '%s:%d:%d' % (self.path, root, ino)
        return cache[key]


class QueryError(Exception):
    """FS_IOC_GET_HOT_ITEMS failed: the message says why."""


def query_error(err, mnt):
    """The message for an OSError of FS_IOC_GET_HOT_ITEMS."""
    if err.errno == errno.EPERM:
        return 'needs CAP_SYS_ADMIN'
    if err.errno in (errno.EOPNOTSUPP, errno.ENOTTY):
        return '%s: not mounted with hot_track' % mnt
    return '%s: %s' % (mnt, err.strerror)


def first_rate(avg_gap, age):
    """Accesses per second that an item seen for the first time is given.

    The kernel's estimate, as its temperature has it: the inverse of the
    gap it reports, which is that of its rate as of the call (the idle
    time already counted in).
    """
    if age == HOT_AGE_NEVER or not avg_gap:
        return 0.0
    return 1e9 / max(avg_gap, 1024)


Row = collections.namedtuple('Row', ('mount', 'item', 'rd_s', 'wr_s'))


def sort_rows(rows, key):
    """Sort rows by a key of SORT_KEYS, in place."""
    if key == 'age':
        rows.sort(key=lambda r: min(r.item.read_age, r.item.write_age))
    else:
        get = {'temp': lambda r: r.item.temp,
               'reads': lambda r: r.item.reads,
               'writes': lambda r: r.item.writes,
               'rd/s': lambda r: r.rd_s,
               'wr/s': lambda r: r.wr_s}[key]
        rows.sort(key=get, reverse=True)


class Top:
    """The state of hottop: mounts, what is shown and the last counts."""

    def __init__(self, mounts, ranges=False, sort='temp', interval=2.0):
        self.mounts = mounts
        self.ranges = ranges
        self.sort = sort
        self.interval = interval
        # per (ranges, mount index): {item key: (reads, writes, time)}
        self.prev = {}
        self.summary = ''

    def sample(self, nrows, now=None):
        """A refresh: at most nrows rows, sorted."""
        rows, listed, complete = [], 0, True
        limit = nrows if self.sort == 'temp' else None
        for i, m in enumerate(self.mounts):
            items, done = m.query(self.ranges, limit)
            t = time.monotonic() if now is None else now
            complete = complete and done
            listed += len(items)
            old = self.prev.get((self.ranges, i), {})
            new = {}
            for it in items:
                key = (it.root, it.ino, it.gen, it.offset)
                new[key] = (it.reads, it.writes, t)
                was = old.get(key)
                if (was and t > was[2] and it.reads >= was[0] and
                        it.writes >= was[1]):
                    rd_s = (it.reads - was[0]) / (t - was[2])
                    wr_s = (it.writes - was[1]) / (t - was[2])
                else:
                    rd_s = first_rate(it.avg_delta_reads, it.read_age)
                    wr_s = first_rate(it.avg_delta_writes, it.write_age)
                rows.append(Row(m, it, rd_s, wr_s))
            self.prev[(self.ranges, i)] = new
        sort_rows(rows, self.sort)
        rows = rows[:nrows]
        self.summary = '%s  %s  %s: %d shown of %d%s' % (
            time.strftime('%H:%M:%S'),
            '  '.join('%s (%s) pass %d' % (m.path, m.fstype, m.npass)
                      for m in self.mounts),
            'ranges' if self.ranges else 'files', len(rows), listed,
            '' if complete else '+')
        return rows

    def header(self):
        """The first line: the last refresh and the settings."""
        return '%s  sort %s  every %gs' % (self.summary, self.sort,
                                           self.interval)

    def columns(self):
        """The line of column names."""
        return ('%10s %8s %8s %8s %8s %8s %8s %s' % (
            'TEMP', 'READS', 'WRITES', 'RD/S', 'WR/S', 'RD_AGE', 'WR_AGE',
            '%8s ' % 'OFFSET' if self.ranges else '') + 'PATH')

    def lines(self, rows):
        """The lines of rows, the names of their files resolved."""
        cache = {}
        out = []
        for r in rows:
            it = r.item
            out.append('%10u %8u %8u %8.1f %8.1f %8s %8s %s%s' % (
                it.temp, it.reads, it.writes, r.rd_s, r.wr_s,
                fmt_age(it.read_age), fmt_age(it.write_age),
                '%8d ' % (it.offset >> 20) if self.ranges else '',
                r.mount.name(it.root, it.ino, it.gen, cache)))
        return out

    def key(self, c):
        """Act on a key: 'quit', 'refresh', 'redraw' or None."""
        if c in (ord('q'), ord('Q')):
            return 'quit'
        if c == ord('r'):
            self.ranges = not self.ranges
            return 'refresh'
        if c == ord('s'):
            i = SORT_KEYS.index(self.sort)
            self.sort = SORT_KEYS[(i + 1) % len(SORT_KEYS)]
            return 'refresh'
        if c in KEYS:
            self.sort = KEYS[c]
            return 'refresh'
        if c == ord('+'):
            self.interval = (self.interval + 1 if self.interval >= 1
                             else self.interval * 2)
            return 'redraw'
        if c == ord('-'):
            self.interval = (self.interval - 1 if self.interval > 1
                             else max(0.25, self.interval / 2))
            return 'redraw'
        if c == curses.KEY_RESIZE:
            return 'redraw'
        return None


def fmt_age(ns):
    """An age in seconds, - for never."""
    if ns == HOT_AGE_NEVER:
        return '-'
    return '%.1f' % (ns / 1e9)


def batch(top, iterations, nrows):
    """Plain text refreshes to stdout."""
    n = 0
    while True:
        rows = top.sample(nrows)
        print(top.header())
        print(top.columns())
        for line in top.lines(rows):
            print(line)
        sys.stdout.flush()
        n += 1
        if iterations and n >= iterations:
            return
        print()
        time.sleep(top.interval)


def screen(stdscr, top, iterations, nrows):
    """The interactive screen."""
    try:
        curses.curs_set(0)
    except curses.error:
        pass
    n = 0
    while True:
        height, width = stdscr.getmaxyx()
        rows = top.sample(nrows or max(1, height - 3))
        lines = top.lines(rows)
        n += 1
        deadline = time.monotonic() + top.interval
        action = 'redraw'
        while True:
            if action == 'redraw':
                height, width = stdscr.getmaxyx()
                stdscr.erase()
                text = [(top.header(), curses.A_BOLD), (HELP_LINE, 0),
                        (top.columns(), curses.A_REVERSE)]
                text += [(line, 0) for line in lines]
                for y, (line, attr) in enumerate(text[:height]):
                    try:
                        stdscr.addnstr(y, 0, line, max(0, width - 1), attr)
                    except curses.error:
                        pass
                stdscr.refresh()
            if iterations and n >= iterations:
                return
            left = deadline - time.monotonic()
            if left <= 0:
                break
            stdscr.timeout(max(1, int(min(left, 0.25) * 1000)))
            action = top.key(stdscr.getch())
            if action == 'quit':
                return
            if action == 'refresh':
                break


def main(argv=None):
    doc = __doc__.split('\n\n', 1)
    parser = argparse.ArgumentParser(
        prog='hottop', description=doc[0], epilog=doc[1],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('mounts', metavar='MNT', nargs='+',
                        help='a mount point (or any path) of a filesystem '
                        'mounted with hot_track')
    parser.add_argument('-r', dest='ranges', action='store_true',
                        help='show 1 MiB ranges instead of files')
    parser.add_argument('-d', dest='interval', type=float, default=2.0,
                        metavar='SECS', help='seconds between refreshes '
                        '(default 2)')
    parser.add_argument('-n', dest='iterations', type=int, default=0,
                        metavar='ITERATIONS', help='stop after so many '
                        'refreshes (default: never)')
    parser.add_argument('-b', dest='batch', action='store_true',
                        help='batch mode: plain text to stdout, no screen')
    parser.add_argument('-s', dest='sort', choices=SORT_KEYS, default='temp',
                        metavar='KEY', help='sort by temp (default), reads, '
                        'writes, rd/s, wr/s or age (youngest access first)')
    parser.add_argument('-N', dest='rows', type=int, default=0,
                        metavar='ROWS', help='rows to show (default: what '
                        'fits the screen; 20 in batch mode)')
    args = parser.parse_args(argv)
    if args.interval <= 0 or args.iterations < 0 or args.rows < 0:
        parser.error('-d must be above 0, -n and -N at least 0')

    mounts = []
    for path in args.mounts:
        try:
            mounts.append(Mount(path))
        except OSError as err:
            print('hottop: %s: %s' % (path, err.strerror), file=sys.stderr)
            return 1
    top = Top(mounts, args.ranges, args.sort, args.interval)
    try:
        for m in mounts:
            m.query(args.ranges, 1)
        if args.batch:
            batch(top, args.iterations, args.rows or 20)
        else:
            curses.wrapper(screen, top, args.iterations, args.rows)
    except QueryError as err:
        print('hottop: %s' % err, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        sys.stderr.close()
    return 0


if __name__ == '__main__':
    sys.exit(main())
