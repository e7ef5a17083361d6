#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""hot_heatmap: record the heat of the 1 MiB ranges of a filesystem mounted
with hot_track over time, and plot it as a heat map (time against position
in the files).

  hot_heatmap record [-d SECS] [-t SECONDS | -c COUNT] -o OUT.jsonl MNT
  hot_heatmap plot IN.jsonl -o OUT.png [--file PATH]
                   [--metric temp|reads|writes|io]

record lists the ranges with FS_IOC_GET_HOT_ITEMS (CAP_SYS_ADMIN) every
SECS seconds (default 1) until SECONDS have passed, COUNT samples were
taken, or SIGINT or SIGTERM, and writes JSON lines: first
  {"hot_heatmap": 1, "mount": MNT, "fstype": "btrfs", "interval": SECS,
   "start": REALTIME_SECONDS, "paths": {"ROOT:INO": PATH, ...}}
then one a sample
  {"t": MONOTONIC_SECONDS, "pass": UPDATE_PASS,
   "ranges": [[ROOT, INO, GEN, OFFSET, READS, WRITES, TEMP], ...],
   "paths": {...}}
where "paths" (only when there are new ones) names the files seen for the
first time: from their file handles or a walk of the tree, as hottop does.
It needs hottop beside it.

plot draws one column per sample and one row per MiB: of the file PATH
(--file), or else of every file seen, laid end to end in the order of their
paths, each up to its last range seen.  The colour is the temperature
(as of the last update pass, divided by 2^24: four steps per doubling of
the access rate) or the reads, writes or both that went to disk between two
samples; 0 where a range is not tracked.  It needs python3-matplotlib.
"""

import argparse
import json
import os
import signal
import sys
import time

MIB_SHIFT = 20
MAX_ROWS = 2000     # more MiB than that are put together, so many a row


def load_hottop():
    """The hottop module beside this program, for its ioctl layer.

    Installed, it is hottop; in the source tree, hottop.py.
    """
    import importlib.machinery
    import importlib.util
    here = os.path.dirname(os.path.realpath(__file__))
    path = os.path.join(here, 'hottop')
    if not os.path.exists(path):
        path = os.path.join(here, 'hottop.py')
    loader = importlib.machinery.SourceFileLoader('hottop', path)
    spec = importlib.util.spec_from_loader('hottop', loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


class Stop:
    """Set by SIGINT and SIGTERM."""
    stop = False

    @classmethod
    def handler(cls, signum, frame):
        cls.stop = True


def sleep_until(deadline):
    """Sleep until a time.monotonic() or a signal; False on a signal."""
    while not Stop.stop:
        left = deadline - time.monotonic()
        if left <= 0:
            return True
        time.sleep(min(left, 0.1))
    return False


def record(args):
    """hot_heatmap record."""
    hottop = load_hottop()
    try:
        mount = hottop.Mount(args.mount)
    except OSError as err:
        print('hot_heatmap: %s: %s' % (args.mount, err.strerror),
              file=sys.stderr)
        return 1
    signal.signal(signal.SIGINT, Stop.handler)
    signal.signal(signal.SIGTERM, Stop.handler)
    named = set()
    out = None
    try:
        start = time.monotonic()
        n = 0
        while True:
            items, _ = mount.query(True)
            t = time.monotonic()
            paths = {}
            for it in items:
                key = (it.root, it.ino)
                if key in named:
                    continue
                path = mount.resolve(it.root, it.ino, it.gen)
                if path:
                    named.add(key)
                    paths['%d:%d' % key] = path
            line = {'t': round(t, 6), 'pass': mount.npass,
                    'ranges': [[it.root, it.ino, it.gen, it.offset, it.reads,
                                it.writes, it.temp] for it in items]}
            if out is None:
                out = open(args.output, 'w')
                json.dump({'hot_heatmap': 1, 'mount': args.mount,
                           'fstype': mount.fstype, 'interval': args.interval,
                           'start': time.time(), 'paths': paths}, out)
                out.write('\n')
            elif paths:
                line['paths'] = paths
            json.dump(line, out, separators=(',', ':'))
            out.write('\n')
            out.flush()
            n += 1
            if args.count and n >= args.count:
                break
            if args.time and t - start + args.interval > args.time:
                break
            if not sleep_until(start + n * args.interval):
                break
    except hottop.QueryError as err:
        print('hot_heatmap: %s' % err, file=sys.stderr)
        return 1
    except OSError as err:
        print('hot_heatmap: %s: %s' % (args.output, err.strerror),
              file=sys.stderr)
        return 1
    finally:
        if out:
            out.close()
    return 0


def read_samples(path):
    """The header and the samples of a recording."""
    header, samples = None, []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except ValueError as err:
                raise ValueError('%s:%d: %s' % (path, n, err)) from err
            if header is None:
                if 'hot_heatmap' not in obj or 'mount' not in obj:
                    raise ValueError('%s:1: not a hot_heatmap recording'
                                     % path)
                header = obj
            else:
                samples.append(obj)
    if header is None or not samples:
        raise ValueError('%s: no samples' % path)
    return header, samples


def layout(header, samples, file_path):
    """Where each file's ranges go: ({(root, ino): first row}, rows,
    [(first row, label)]) in MiB."""
    mount = header['mount']
    paths = dict(header.get('paths', {}))
    size = {}
    for s in samples:
        paths.update(s.get('paths', {}))
        for r in s['ranges']:
            key = (r[0], r[1])
            size[key] = max(size.get(key, 0), (r[3] >> MIB_SHIFT) + 1)

    def name(key):
        return paths.get('%d:%d' % key, '%s:%d:%d' % ((mount,) + key))

    if file_path is not None:
        want = [file_path, os.path.join(mount, file_path)]
        keys = [k for k in size if name(k) in want]
        if not keys:
            keys = [k for k in size
                    if name(k).endswith('/' + file_path.lstrip('/'))]
        if len(keys) != 1:
            known = sorted(name(k) for k in size)
            raise ValueError('%s: %s in the recording; its files: %s' % (
                file_path, 'not' if not keys else 'more than once',
                ' '.join(known[:20]) + (' ...' if len(known) > 20 else '')))
        return {keys[0]: 0}, size[keys[0]], [(0, name(keys[0]))]
    first, labels, rows = {}, [], 0
    for key in sorted(size, key=lambda k: (name(k), k)):
        first[key] = rows
        label = name(key)
        if label.startswith(mount.rstrip('/') + '/'):
            label = label[len(mount.rstrip('/')) + 1:]
        labels.append((rows, label))
        rows += size[key]
    return first, rows, labels


def heat_array(samples, first, rows, metric, shrink):
    """The map: an array of samples (or intervals) by rows // shrink."""
    import numpy
    counts = metric != 'temp'
    nrows = (rows + shrink - 1) // shrink
    columns = samples[1:] if counts else samples
    heat = numpy.zeros((len(columns), nrows))
    prev = {}
    if counts:
        prev = {(r[0], r[1], r[2], r[3]): r for r in samples[0]['ranges']}
    for i, s in enumerate(columns):
        now = {}
        for r in s['ranges']:
            key = (r[0], r[1], r[2], r[3])
            now[key] = r
            start = first.get((r[0], r[1]))
            if start is None:
                continue
            row = (start + (r[3] >> MIB_SHIFT)) // shrink
            if not counts:
                heat[i, row] = max(heat[i, row], r[6] / 2.0 ** 24)
                continue
            # Counts per interval: a range seen for the first time (new,
            # or loaded by hot_heat load) brings its whole past, not one
            # interval's accesses, and counts from the next sample on.
            was = prev.get(key)
            if not was or was[4] > r[4] or was[5] > r[5]:
                continue
            reads, writes = r[4] - was[4], r[5] - was[5]
            heat[i, row] += {'reads': reads, 'writes': writes,
                             'io': reads + writes}[metric]
        prev = now
    return heat


def plot(args):
    """hot_heatmap plot."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
    except ImportError:
        print('hot_heatmap: plot needs matplotlib (python3-matplotlib)',
              file=sys.stderr)
        return 1
    try:
        header, samples = read_samples(args.input)
        first, rows, labels = layout(header, samples, args.file)
    except (OSError, ValueError) as err:
        print('hot_heatmap: %s' % err, file=sys.stderr)
        return 1
    if args.metric != 'temp' and len(samples) < 2:
        print('hot_heatmap: %s: %s needs two samples' % (args.input,
                                                         args.metric),
              file=sys.stderr)
        return 1
    rows = max(rows, 1)
    shrink = (rows + MAX_ROWS - 1) // MAX_ROWS
    heat = heat_array(samples, first, rows, args.metric, shrink)

    times = [s['t'] - samples[0]['t'] for s in samples]
    step = header.get('interval') or 1
    if len(times) > 1:
        step = (times[-1] - times[0]) / (len(times) - 1)
    if args.metric == 'temp':
        x0, x1 = times[0], times[-1] + step
    else:
        x0, x1 = times[0], times[-1]
    what = {'temp': 'temperature / 2^24',
            'reads': 'reads from disk per sample',
            'writes': 'writes to disk per sample',
            'io': 'reads and writes per sample'}[args.metric]

    # Temperatures of tracked ranges are far above 0: start the colours a
    # little below the coldest of them, untracked ranges black under them.
    cmap = plt.get_cmap('inferno').with_extremes(under='black')
    vmin = None
    if args.metric == 'temp' and heat.any():
        low, high = heat[heat > 0].min(), heat.max()
        vmin = max(low - (high - low) / 8 - 1, 0.5)
    fig, ax = plt.subplots(figsize=(10, 6))
    image = ax.imshow(heat.T, origin='lower', aspect='auto',
                      interpolation='nearest', cmap=cmap, vmin=vmin,
                      extent=(x0, x1, 0, rows))
    fig.colorbar(image, ax=ax, label=what,
                 extend='min' if vmin is not None else 'neither')
    ax.set_xlabel('time (s)')
    mib = 'MiB' if shrink == 1 else 'MiB, %d a row' % shrink
    if args.file is not None:
        ax.set_ylabel('offset in %s (%s)' % (labels[0][1], mib))
    else:
        ax.set_ylabel('files end to end, by path (%s)' % mib)
        every = max(1, (len(labels) + 29) // 30)
        ax.set_yticks([y for y, _ in labels[::every]])
        ax.set_yticklabels([label for _, label in labels[::every]],
                           fontsize=7)
        if len(labels) <= 100:
            for y, _ in labels[1:]:
                ax.axhline(y, color='grey', linewidth=0.3)
    ax.set_title('%s (%s): %s, %d samples' % (
        header['mount'], header.get('fstype', '?'), what, len(samples)))
    fig.tight_layout()
    try:
        fig.savefig(args.output, dpi=100)
    except OSError as err:
        print('hot_heatmap: %s: %s' % (args.output, err.strerror),
              file=sys.stderr)
        return 1
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='hot_heatmap', description=__doc__.split('\n\n')[0],
        epilog=__doc__.split('\n\n', 2)[2],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest='command', metavar='record|plot')
    sub.required = True
    rec = sub.add_parser('record', help='record the heat of the ranges')
    rec.add_argument('-d', dest='interval', type=float, default=1.0,
                     metavar='SECS', help='seconds between samples '
                     '(default 1)')
    stop = rec.add_mutually_exclusive_group()
    stop.add_argument('-t', dest='time', type=float, metavar='SECONDS',
                      help='stop after so many seconds')
    stop.add_argument('-c', dest='count', type=int, metavar='COUNT',
                      help='stop after so many samples')
    rec.add_argument('-o', dest='output', required=True,
                     metavar='OUT.jsonl', help='where to write')
    rec.add_argument('mount', metavar='MNT',
                     help='a filesystem mounted with hot_track')
    plo = sub.add_parser('plot', help='plot a recording')
    plo.add_argument('input', metavar='IN.jsonl')
    plo.add_argument('-o', dest='output', required=True, metavar='OUT.png')
    plo.add_argument('--file', metavar='PATH',
                     help='only this file: its path, or the path in MNT')
    plo.add_argument('--metric', choices=('temp', 'reads', 'writes', 'io'),
                     default='temp', help='the colour: temperature '
                     '(default) or I/O between samples')
    args = parser.parse_args(argv)
    if args.command == 'record':
        if (args.interval <= 0 or (args.time is not None and args.time <= 0)
                or (args.count is not None and args.count <= 0)):
            rec.error('-d, -t and -c must be above 0')
        return record(args)
    return plot(args)


if __name__ == '__main__':
    sys.exit(main())
