// SPDX-License-Identifier: GPL-2.0
/*
 * hot_heat: print, save and load the heat of files, as hot data tracking
 * records it.
 *
 *   hot_heat [-l] FILE...
 *   hot_heat save MNT OUT
 *   hot_heat load MNT IN
 *
 * The first form prints, for each file, the reads and writes that went to
 * disk, the gap between them that the estimated rate stands for, how long
 * ago the last one was, and the temperature (-l: computed now instead of
 * at the last update pass), with the FS_IOC_GET_HEAT_INFO ioctl.  To show
 * a file named save or load, write ./save or ./load.
 *
 * save writes the heat of every file and every 1 MiB range that the
 * filesystem mounted at MNT tracks (FS_IOC_GET_HOT_ITEMS) to OUT; load
 * gives it back to the same files (FS_IOC_SET_HEAT_INFO), for example after
 * an umount or a reboot, so that what was hot stays known.  OUT and IN may
 * be - for the standard output or input.  Both need CAP_SYS_ADMIN, load
 * also CAP_DAC_READ_SEARCH (it opens the files by handle).  load reads and
 * checks all of IN before it loads anything; it skips the files that are
 * gone or were replaced since (another file with the same inode number has
 * another generation), and adds its counts to those recorded since the
 * mount.  See Documentation/filesystems/hot_tracking.rst.
 *
 * The saved format, version 1, is text, one item a line, the fields
 * separated by spaces, every number in decimal:
 *
 *   hot_heat 1
 *   saved TIME
 *   file ROOT INO GEN READS WRITES AVG_READ_GAP AVG_WRITE_GAP READ_AGE WRITE_AGE
 *   range ROOT INO GEN OFFSET READS WRITES AVG_READ_GAP AVG_WRITE_GAP READ_AGE WRITE_AGE
 *
 * The first line names the format and its version; load refuses any other
 * version.  TIME is when the save was taken, in ns since the epoch
 * (CLOCK_REALTIME).  Then a line for each file, then one for each range,
 * hottest first (load does not care about the order):
 *
 *   ROOT, INO, GEN   the file: the btrfs subvolume ID (0 on other
 *                    filesystems), the inode number and the generation
 *   OFFSET           the first byte of the range, a multiple of 1 MiB
 *   READS, WRITES    reads and writes that went to disk, at most 2^32 - 1
 *   AVG_*_GAP        the gap between two of them of the kernel's estimated
 *                    rate (reads and writes share it as their counts do), in ns
 *   *_AGE            how long before TIME the last one was, in ns, or - if
 *                    there was none
 *
 * Lines that begin with # and empty lines are ignored.  At most one line
 * of a file and one of each of its ranges.  load adds the time since TIME
 * to the ages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/hot_tracking.h>
#include <linux/magic.h>

#define REC_SIZE	sizeof(struct hot_item_rec)
#define MIB		0x100000ULL	/* 1 MiB */
#define MAX_TRIES	3	/* listings of files or ranges, if passes run */
#define FORMAT_VERSION	1

static double ms(__u64 ns)
{
	return ns / 1e6;
}

/* Seconds since a CLOCK_MONOTONIC time in ns; -1 for never. */
static double ago(__u64 ns)
{
	struct timespec now;

	if (!ns)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec * 1e9 + now.tv_nsec - (double)ns) / 1e9;
}

static int show(const char *path, int live)
{
	struct hot_heat_info info;
	int fd, ret;

	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "hot_heat: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(&info, 0, sizeof(info));
	info.live = live;
	ret = ioctl(fd, FS_IOC_GET_HEAT_INFO, &info);
	close(fd);
	if (ret) {
		fprintf(stderr, "hot_heat: %s: %s\n", path,
			errno == ENODATA ? "no disk I/O recorded" :
			errno == EOPNOTSUPP ? "hot data tracking is off" :
			strerror(errno));
		return -1;
	}
	printf("%-32s %8u %8u %10u %12.3f %12.3f %10.1f %10.1f\n", path,
	       info.num_reads, info.num_writes, info.temp,
	       ms(info.avg_delta_reads), ms(info.avg_delta_writes),
	       ago(info.last_read_time), ago(info.last_write_time));
	return 0;
}

static void print_usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-l] FILE...     the heat of files (-l: temperature as of now)\n"
		"       %s save MNT OUT     save the heat of the filesystem at MNT\n"
		"       %s load MNT IN      load saved heat into it again\n"
		"OUT and IN may be - for stdout and stdin.\n",
		prog, prog, prog);
}

static __u64 clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* An age made older by @d ns: never stays never, the rest saturates. */
static __u64 age_add(__u64 age, __u64 d)
{
	if (age == HOT_AGE_NEVER)
		return age;
	if (d >= HOT_AGE_NEVER - age)
		return HOT_AGE_NEVER - 1;
	return age + d;
}

/* A record and the line it comes from (load) or when it was taken (save). */
struct item {
	struct hot_item_rec rec;
	__u64 when;
};

struct items {
	struct item *v;
	size_t nr;
	size_t room;
};

static int items_add(struct items *list, const struct hot_item_rec *rec,
		     __u64 when)
{
	if (list->nr == list->room) {
		size_t room = list->room ? 2 * list->room : 1024;
		struct item *v = realloc(list->v, room * sizeof(*v));

		if (!v)
			return -ENOMEM;
		list->v = v;
		list->room = room;
	}
	list->v[list->nr].rec = *rec;
	list->v[list->nr].when = when;
	list->nr++;
	return 0;
}

/* Order by file, the file's record first, then the ranges by offset. */
static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->rec.root != y->rec.root)
		return x->rec.root < y->rec.root ? -1 : 1;
	if (x->rec.ino != y->rec.ino)
		return x->rec.ino < y->rec.ino ? -1 : 1;
	if (x->rec.generation != y->rec.generation)
		return x->rec.generation < y->rec.generation ? -1 : 1;
	if (x->rec.flags != y->rec.flags)
		return x->rec.flags < y->rec.flags ? -1 : 1;
	if (x->rec.offset != y->rec.offset)
		return x->rec.offset < y->rec.offset ? -1 : 1;
	if (x->when != y->when)
		return x->when < y->when ? -1 : 1;
	return 0;
}

static int same_item(const struct item *x, const struct item *y)
{
	return x->rec.root == y->rec.root && x->rec.ino == y->rec.ino &&
	       x->rec.generation == y->rec.generation &&
	       x->rec.flags == y->rec.flags && x->rec.offset == y->rec.offset;
}

static void query_error(const char *mnt, int err)
{
	if (err == EPERM)
		fprintf(stderr, "hot_heat: needs CAP_SYS_ADMIN\n");
	else if (err == EOPNOTSUPP || err == ENOTTY)
		fprintf(stderr, "hot_heat: %s: not mounted with hot_track\n",
			mnt);
	else
		fprintf(stderr, "hot_heat: %s: %s\n", mnt, strerror(err));
}

/*
 * List the files (@flags 0) or the ranges (HOT_QUERY_RANGES) of the
 * filesystem of @fd into @list, with the CLOCK_MONOTONIC time of the call
 * that returned each.  An update pass while the pages are taken reorders
 * the items, so that some may be missed: start again, and after MAX_TRIES
 * take the listing as it is, without the items that came twice.
 */
static int list_items(int fd, __u32 flags, struct items *list)
{
	struct hot_item_rec *page;
	struct hot_items_query q;
	int tries, new_pass, ret = 0;
	size_t i, j;

	page = calloc(HOT_QUERY_MAX, REC_SIZE);
	if (!page)
		return -ENOMEM;
	for (tries = 1; ; tries++) {
		list->nr = 0;
		new_pass = 0;
		memset(&q, 0, sizeof(q));
		do {
			__u64 now;

			q.flags = flags;
			q.rec_size = REC_SIZE;
			q.nr = HOT_QUERY_MAX;
			q.oflags = 0;
			q.recs = (uintptr_t)page;
			if (ioctl(fd, FS_IOC_GET_HOT_ITEMS, &q)) {
				ret = -errno;
				goto out;
			}
			now = clock_ns(CLOCK_MONOTONIC);
			if (q.oflags & HOT_QUERY_REORDERED) {
				new_pass = 1;
				if (tries < MAX_TRIES)
					break;
			}
			if (!q.nr && !(q.oflags & (HOT_QUERY_END |
						  HOT_QUERY_REORDERED))) {
				ret = -EPROTO;
				goto out;
			}
			for (i = 0; i < q.nr; i++) {
				ret = items_add(list, &page[i], now);
				if (ret)
					goto out;
			}
		} while (!(q.oflags & HOT_QUERY_END));
		if (!new_pass || tries >= MAX_TRIES)
			break;
	}
	if (new_pass)
		fprintf(stderr,
			"hot_heat: the order of the heat maps changed during each of %d listings: this one may miss some %s\n",
			MAX_TRIES, flags ? "ranges" : "files");
	{
		/* Keep the first of the items listed twice, in the order given. */
		struct item *sorted = malloc(list->nr * sizeof(*sorted) + 1);
		char *drop = calloc(list->nr + 1, 1);

		if (!sorted || !drop) {
			free(sorted);
			free(drop);
			ret = -ENOMEM;
			goto out;
		}
		for (i = 0; i < list->nr; i++) {
			sorted[i].rec = list->v[i].rec;
			sorted[i].when = i;
		}
		qsort(sorted, list->nr, sizeof(*sorted), item_cmp);
		for (i = 1; i < list->nr; i++)
			if (same_item(&sorted[i], &sorted[i - 1]))
				drop[sorted[i].when] = 1;
		for (i = j = 0; i < list->nr; i++)
			if (!drop[i])
				list->v[j++] = list->v[i];
		list->nr = j;
		free(sorted);
		free(drop);
	}
out:
	free(page);
	return ret;
}

static void print_age(FILE *f, __u64 age)
{
	if (age == HOT_AGE_NEVER)
		fputs(" -", f);
	else
		fprintf(f, " %llu", (unsigned long long)age);
}

static void print_item(FILE *f, const struct hot_item_rec *r)
{
	if (r->flags & HOT_REC_RANGE)
		fprintf(f, "range %llu %llu %u %llu",
			(unsigned long long)r->root,
			(unsigned long long)r->ino, r->generation,
			(unsigned long long)r->offset);
	else
		fprintf(f, "file %llu %llu %u", (unsigned long long)r->root,
			(unsigned long long)r->ino, r->generation);
	fprintf(f, " %u %u %llu %llu", r->num_reads, r->num_writes,
		(unsigned long long)r->avg_delta_reads,
		(unsigned long long)r->avg_delta_writes);
	print_age(f, r->read_age);
	print_age(f, r->write_age);
	fputc('\n', f);
}

static int cmd_save(const char *mnt, const char *out)
{
	struct items lists[2] = { { NULL, 0, 0 }, { NULL, 0, 0 } };
	__u64 saved, end;
	int fd, ret = 1, err, l;
	size_t i;
	FILE *f;

	fd = open(mnt, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "hot_heat: %s: %s\n", mnt, strerror(errno));
		return 1;
	}
	for (l = 0; l < 2; l++) {
		err = list_items(fd, l ? HOT_QUERY_RANGES : 0, &lists[l]);
		if (err) {
			query_error(mnt, -err);
			goto out;
		}
	}
	/* Make every age relative to one time, the one written. */
	end = clock_ns(CLOCK_MONOTONIC);
	saved = clock_ns(CLOCK_REALTIME);
	for (l = 0; l < 2; l++) {
		for (i = 0; i < lists[l].nr; i++) {
			struct item *it = &lists[l].v[i];

			it->rec.read_age = age_add(it->rec.read_age,
						   end - it->when);
			it->rec.write_age = age_add(it->rec.write_age,
						    end - it->when);
		}
	}

	f = strcmp(out, "-") ? fopen(out, "w") : stdout;
	if (!f) {
		fprintf(stderr, "hot_heat: %s: %s\n", out, strerror(errno));
		goto out;
	}
	fprintf(f, "hot_heat %d\nsaved %llu\n", FORMAT_VERSION,
		(unsigned long long)saved);
	for (l = 0; l < 2; l++)
		for (i = 0; i < lists[l].nr; i++)
			print_item(f, &lists[l].v[i].rec);
	err = ferror(f) | fflush(f);
	if (f != stdout)
		err |= fclose(f);
	if (err) {
		fprintf(stderr, "hot_heat: %s: %s\n", out, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(lists[0].v);
	free(lists[1].v);
	close(fd);
	return ret;
}

/* A whole decimal number from 0 to @max; 0 on success. */
static int parse_num(const char *s, __u64 max, __u64 *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 10);
	if (errno || *end || *v > max)
		return -1;
	return 0;
}

/* Field names of the records, in order, after the root, ino and gen. */
static const char * const file_fields[] = {
	"READS", "WRITES", "AVG_READ_GAP", "AVG_WRITE_GAP", "READ_AGE",
	"WRITE_AGE",
};

#define MAX_FIELDS	12

/*
 * Read saved heat from @f (named @name) into @list, each item's when set
 * to its line number, and the save's time into @saved.  Prints what is
 * wrong and returns -1 if anything is.
 */
static int parse_saved(FILE *f, const char *name, struct items *list,
		       __u64 *saved)
{
	char *line = NULL, *tok[MAX_FIELDS + 1], *save, *p;
	unsigned long lineno = 0;
	int have_saved = 0, ret = -1, n, m, nf, range;
	size_t cap = 0;
	ssize_t len;
	__u64 v;

	while ((len = getline(&line, &cap, f)) >= 0) {
		struct hot_item_rec rec;
		__u64 vals[MAX_FIELDS];

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != (size_t)len) {
			fprintf(stderr, "hot_heat: %s:%lu: a NUL byte\n", name,
				lineno);
			goto out;
		}
		if (lineno > 1 && (!len || line[0] == '#'))
			continue;
		nf = 0;
		for (p = strtok_r(line, " \t", &save); p;
		     p = strtok_r(NULL, " \t", &save)) {
			if (nf == MAX_FIELDS)
				break;
			tok[nf++] = p;
		}
		if (!nf && lineno > 1)
			continue;	/* only blanks */
		if (lineno == 1) {
			if (nf != 2 || strcmp(tok[0], "hot_heat")) {
				fprintf(stderr,
					"hot_heat: %s:1: not saved hot_heat: no 'hot_heat %d' line\n",
					name, FORMAT_VERSION);
				goto out;
			}
			if (strcmp(tok[1], "1")) {
				fprintf(stderr,
					"hot_heat: %s:1: format version %s is not known (only %d)\n",
					name, tok[1], FORMAT_VERSION);
				goto out;
			}
			continue;
		}
		if (!have_saved) {
			if (nf != 2 || strcmp(tok[0], "saved") ||
			    parse_num(tok[1], ~0ULL, saved)) {
				fprintf(stderr,
					"hot_heat: %s:%lu: expected 'saved TIME'\n",
					name, lineno);
				goto out;
			}
			have_saved = 1;
			continue;
		}
		if (!strcmp(tok[0], "file")) {
			range = 0;
		} else if (!strcmp(tok[0], "range")) {
			range = 1;
		} else {
			fprintf(stderr,
				"hot_heat: %s:%lu: '%s' is neither file nor range\n",
				name, lineno, tok[0]);
			goto out;
		}
		if (nf != 10 + range) {
			fprintf(stderr,
				"hot_heat: %s:%lu: a %s line has %d fields, not %s%d\n",
				name, lineno, tok[0], 10 + range,
				nf == MAX_FIELDS ? "at least " : "", nf);
			goto out;
		}
		for (n = 1; n < nf; n++) {
			const char *what;
			__u64 max = ~0ULL;
			int i = n - 4 - range;	/* into file_fields */

			if (n == 1) {
				what = "ROOT";
			} else if (n == 2) {
				what = "INO";
			} else if (n == 3) {
				what = "GEN";
				max = UINT32_MAX;
			} else if (range && n == 4) {
				what = "OFFSET";
			} else {
				what = file_fields[i];
				if (i < 2)
					max = UINT32_MAX;
				if (i >= 4) {
					/* An age: - or less than never. */
					max = HOT_AGE_NEVER - 1;
					if (!strcmp(tok[n], "-")) {
						vals[n] = HOT_AGE_NEVER;
						continue;
					}
				}
			}
			if (parse_num(tok[n], max, &v)) {
				fprintf(stderr,
					"hot_heat: %s:%lu: %s '%s' is not a number from 0 to %llu%s\n",
					name, lineno, what, tok[n],
					(unsigned long long)max,
					i >= 4 && n > 3 ? " or -" : "");
				goto out;
			}
			vals[n] = v;
		}
		memset(&rec, 0, sizeof(rec));
		rec.root = vals[1];
		rec.ino = vals[2];
		rec.generation = vals[3];
		if (range) {
			rec.flags = HOT_REC_RANGE;
			rec.offset = vals[4];
			if (rec.offset % MIB) {
				fprintf(stderr,
					"hot_heat: %s:%lu: OFFSET %llu is not a multiple of 1 MiB\n",
					name, lineno,
					(unsigned long long)rec.offset);
				goto out;
			}
		}
		rec.num_reads = vals[4 + range];
		rec.num_writes = vals[5 + range];
		rec.avg_delta_reads = vals[6 + range];
		rec.avg_delta_writes = vals[7 + range];
		rec.read_age = vals[8 + range];
		rec.write_age = vals[9 + range];
		if (items_add(list, &rec, lineno)) {
			fprintf(stderr, "hot_heat: %s\n", strerror(ENOMEM));
			goto out;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "hot_heat: %s: %s\n", name, strerror(errno));
		goto out;
	}
	if (!lineno) {
		fprintf(stderr, "hot_heat: %s: empty\n", name);
		goto out;
	}
	if (!have_saved) {
		fprintf(stderr, "hot_heat: %s:%lu: ends before 'saved TIME'\n",
			name, lineno + 1);
		goto out;
	}
	qsort(list->v, list->nr, sizeof(*list->v), item_cmp);
	/* A repeated item: the first line stands. */
	for (n = 1, m = 1; (size_t)n < list->nr; n++) {
		if (same_item(&list->v[n], &list->v[m - 1])) {
			fprintf(stderr,
				"hot_heat: %s:%llu: the same %s as line %llu: ignored\n",
				name, (unsigned long long)list->v[n].when,
				list->v[n].rec.flags ? "range" : "file",
				(unsigned long long)list->v[m - 1].when);
			continue;
		}
		list->v[m++] = list->v[n];
	}
	if (list->nr)
		list->nr = m;
	ret = 0;
out:
	free(line);
	return ret;
}

/*
 * Fill @fh with the handle of file (@root, @ino, @gen) on a filesystem of
 * type @magic, as its ->encode_fh() would (without the parent); 0 or a
 * negative errno.
 */
static int make_handle(struct file_handle *fh, __u32 magic, __u64 root,
		       __u64 ino, __u32 gen)
{
	__u32 ino32 = ino;

	if (magic == BTRFS_SUPER_MAGIC) {
		/* struct btrfs_fid, packed: objectid, root_objectid, gen. */
		fh->handle_type = 0x4d;	/* FILEID_BTRFS_WITHOUT_PARENT */
		fh->handle_bytes = 20;
		memcpy(fh->f_handle, &ino, 8);
		memcpy(fh->f_handle + 8, &root, 8);
		memcpy(fh->f_handle + 16, &gen, 4);
		return 0;
	}
	if (root)
		return -EXDEV;	/* a subvolume: saved from btrfs */
	if (magic == XFS_SUPER_MAGIC && ino > UINT32_MAX) {
		/* struct xfs_fid64, packed: ino, gen. */
		fh->handle_type = 0x81;	/* FILEID_INO32_GEN | 64-bit flag */
		fh->handle_bytes = 12;
		memcpy(fh->f_handle, &ino, 8);
		memcpy(fh->f_handle + 8, &gen, 4);
		return 0;
	}
	if (magic == XFS_SUPER_MAGIC || magic == EXT4_SUPER_MAGIC) {
		if (ino > UINT32_MAX)
			return -EOVERFLOW;
		fh->handle_type = 1;	/* FILEID_INO32_GEN */
		fh->handle_bytes = 8;
		memcpy(fh->f_handle, &ino32, 4);
		memcpy(fh->f_handle + 4, &gen, 4);
		return 0;
	}
	return -EOPNOTSUPP;
}

static const char *magic_name(__u32 magic)
{
	switch (magic) {
	case BTRFS_SUPER_MAGIC:
		return "btrfs";
	case XFS_SUPER_MAGIC:
		return "xfs";
	case EXT4_SUPER_MAGIC:
		return "ext4";
	}
	return NULL;
}

struct load_stats {
	unsigned long files;
	unsigned long ranges;
	unsigned long skipped;
	unsigned long full;
};

/* The records of one file in the sorted list: [@i, @j), first line @first. */
struct group {
	size_t i, j;
	__u64 first;
};

static int group_cmp(const void *a, const void *b)
{
	const struct group *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

/*
 * Load the records @v[0..@nr) of one file, the file's own first, through
 * @fd.  0 (loaded or skipped), 1 (failed) or -1 (at the memory cap).
 */
static int load_file(const char *mnt, int fd, const struct item *v, size_t nr,
		     struct hot_item_rec *buf, struct load_stats *st)
{
	struct hot_heat_set set;
	size_t done, n, i, ranges = 0;

	for (done = 0; done < nr; done += n) {
		n = nr - done < HOT_QUERY_MAX ? nr - done : HOT_QUERY_MAX;
		for (i = 0; i < n; i++)
			buf[i] = v[done + i].rec;
		memset(&set, 0, sizeof(set));
		set.rec_size = REC_SIZE;
		set.nr = n;
		set.recs = (uintptr_t)buf;
		if (ioctl(fd, FS_IOC_SET_HEAT_INFO, &set)) {
			int err = errno;

			if (err == ESTALE && !done) {
				st->skipped++;
				return 0;
			}
			if (err == ENOSPC) {
				if (!st->full++)
					fprintf(stderr,
						"hot_heat: %s: at the memory cap of hot data tracking: the colder files are not loaded\n",
						mnt);
				return -1;
			}
			fprintf(stderr,
				"hot_heat: %s: file %llu:%llu:%u (line %llu): %s\n",
				mnt, (unsigned long long)v->rec.root,
				(unsigned long long)v->rec.ino,
				v->rec.generation,
				(unsigned long long)v[done].when,
				err == EPERM ? "needs CAP_SYS_ADMIN" :
				strerror(err));
			if (done)
				break;
			return 1;
		}
		for (i = 0; i < n; i++)
			ranges += !!(buf[i].flags & HOT_REC_RANGE);
	}
	st->files++;
	st->ranges += ranges;
	return done < nr;
}

static int cmd_load(const char *mnt, const char *in)
{
	struct items list = { NULL, 0, 0 };
	struct load_stats st = { 0, 0, 0, 0 };
	struct group *groups = NULL;
	size_t g, nr_groups = 0;
	struct hot_item_rec *buf = NULL;
	struct file_handle *fh = NULL;
	int mfd = -1, ret = 1, err;
	__u64 now, elapsed, saved = 0;
	struct statfs sfs;
	size_t i, j;
	__u32 magic;
	FILE *f;

	f = strcmp(in, "-") ? fopen(in, "r") : stdin;
	if (!f) {
		fprintf(stderr, "hot_heat: %s: %s\n", in, strerror(errno));
		return 1;
	}
	err = parse_saved(f, strcmp(in, "-") ? in : "<stdin>", &list, &saved);
	if (f != stdin)
		fclose(f);
	if (err) {
		free(list.v);
		return 2;
	}
	now = clock_ns(CLOCK_REALTIME);
	elapsed = now > saved ? now - saved : 0;
	for (i = 0; i < list.nr; i++) {
		list.v[i].rec.read_age = age_add(list.v[i].rec.read_age,
						 elapsed);
		list.v[i].rec.write_age = age_add(list.v[i].rec.write_age,
						  elapsed);
	}

	mfd = open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mfd < 0 || fstatfs(mfd, &sfs)) {
		fprintf(stderr, "hot_heat: %s: %s\n", mnt, strerror(errno));
		goto out;
	}
	magic = (__u32)sfs.f_type;
	if (!magic_name(magic)) {
		fprintf(stderr,
			"hot_heat: %s: a filesystem of type %#x, not ext4, xfs or btrfs\n",
			mnt, magic);
		goto out;
	}
	fh = malloc(sizeof(*fh) + MAX_HANDLE_SZ);
	buf = calloc(HOT_QUERY_MAX, REC_SIZE);
	if (!fh || !buf) {
		fprintf(stderr, "hot_heat: %s\n", strerror(ENOMEM));
		goto out;
	}
	/* The files in the order of the file: the hottest first. */
	groups = calloc(list.nr + 1, sizeof(*groups));
	if (!groups) {
		fprintf(stderr, "hot_heat: %s\n", strerror(ENOMEM));
		goto out;
	}
	for (i = 0; i < list.nr; i = j) {
		const struct hot_item_rec *r = &list.v[i].rec;

		groups[nr_groups].i = i;
		groups[nr_groups].first = list.v[i].when;
		for (j = i + 1; j < list.nr; j++) {
			if (list.v[j].rec.root != r->root ||
			    list.v[j].rec.ino != r->ino ||
			    list.v[j].rec.generation != r->generation)
				break;
			if (list.v[j].when < groups[nr_groups].first)
				groups[nr_groups].first = list.v[j].when;
		}
		groups[nr_groups++].j = j;
	}
	qsort(groups, nr_groups, sizeof(*groups), group_cmp);
	ret = 0;
	for (g = 0; g < nr_groups; g++) {
		const struct hot_item_rec *r;
		int fd;

		i = groups[g].i;
		j = groups[g].j;
		r = &list.v[i].rec;
		err = make_handle(fh, magic, r->root, r->ino, r->generation);
		if (err) {
			fprintf(stderr,
				"hot_heat: %s: file %llu:%llu:%u (line %llu): %s\n",
				mnt, (unsigned long long)r->root,
				(unsigned long long)r->ino, r->generation,
				(unsigned long long)list.v[i].when,
				err == -EXDEV ?
				"a btrfs subvolume, but this is not btrfs" :
				strerror(-err));
			ret = 1;
			continue;
		}
		fd = open_by_handle_at(mfd, fh, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ESTALE || errno == ENOENT) {
				st.skipped++;
				continue;
			}
			fprintf(stderr,
				"hot_heat: %s: file %llu:%llu:%u (line %llu): %s\n",
				mnt, (unsigned long long)r->root,
				(unsigned long long)r->ino, r->generation,
				(unsigned long long)list.v[i].when,
				errno == EPERM ?
				"needs CAP_DAC_READ_SEARCH" : strerror(errno));
			ret = 1;
			continue;
		}
		err = load_file(mnt, fd, &list.v[i], j - i, buf, &st);
		close(fd);
		if (err)
			ret = 1;
	}
	fprintf(stderr, "loaded %lu files and %lu ranges, skipped %lu (gone or replaced)",
		st.files, st.ranges, st.skipped);
	if (st.full)
		fprintf(stderr, ", %lu not loaded (memory cap)", st.full);
	fputc('\n', stderr);
out:
	free(groups);
	free(fh);
	free(buf);
	free(list.v);
	if (mfd >= 0)
		close(mfd);
	return ret;
}

int main(int argc, char **argv)
{
	int live = 0, opt, ret = 0;

	if (argc > 1 && (!strcmp(argv[1], "save") ||
			 !strcmp(argv[1], "load"))) {
		if (argc != 4) {
			print_usage(argv[0]);
			return 2;
		}
		if (!strcmp(argv[1], "save"))
			return cmd_save(argv[2], argv[3]);
		return cmd_load(argv[2], argv[3]);
	}
	while ((opt = getopt(argc, argv, "lh")) != -1) {
		switch (opt) {
		case 'l':
			live = 1;
			break;
		default:
			print_usage(argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind == argc) {
		print_usage(argv[0]);
		return 2;
	}
	printf("%-32s %8s %8s %10s %12s %12s %10s %10s\n", "FILE", "READS",
	       "WRITES", "TEMP", "RD_GAP_MS", "WR_GAP_MS", "RD_AGO_S",
	       "WR_AGO_S");
	for (; optind < argc; optind++)
		if (show(argv[optind], live))
			ret = 1;
	return ret;
}
