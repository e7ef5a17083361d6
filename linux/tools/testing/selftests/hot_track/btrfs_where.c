// SPDX-License-Identifier: GPL-2.0
/*
 * btrfs_where FILE: on which class of device each 1 MiB range of a btrfs
 * file lives, one character per range:
 *
 *   S  all its data on non-rotational devices
 *   H  all on rotational devices
 *   M  some on each
 *   .  no data on disk (hole, inline, not yet written)
 *
 * FIEMAP gives the btrfs logical address of each extent; the chunk tree
 * (BTRFS_IOC_TREE_SEARCH_V2, root only) maps it to the chunk's stripes,
 * BTRFS_IOC_DEV_INFO a stripe's device to its path, and sysfs that
 * device's queue/rotational (by device number).  A chunk is non-rotational when all its
 * stripes are, as for hot_move.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/btrfs.h>
#include <linux/btrfs_tree.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

#define RANGE_SHIFT	20
#define MAX_CHUNKS	4096
#define MAX_DEVS	64

struct chunk {
	unsigned long long start, len;
	int nonrot;
};

static struct chunk chunks[MAX_CHUNKS];
static int nr_chunks;
static int dev_rot[MAX_DEVS];	/* 0 unknown, 1 rotational, 2 non-rotational */

static int device_nonrot(int fd, unsigned long long devid)
{
	struct btrfs_ioctl_dev_info_args di = { .devid = devid };
	char sys[128];
	struct stat st;
	FILE *f;
	int rot = 1;

	if (devid < MAX_DEVS && dev_rot[devid])
		return dev_rot[devid] == 2;
	if (ioctl(fd, BTRFS_IOC_DEV_INFO, &di) < 0 ||
	    stat((char *)di.path, &st) < 0)
		return 0;
	/* By device number: the path may be a device-mapper name. */
	snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/queue/rotational",
		 major(st.st_rdev), minor(st.st_rdev));
	f = fopen(sys, "r");
	if (f) {
		if (fscanf(f, "%d", &rot) != 1)
			rot = 1;
		fclose(f);
	}
	if (devid < MAX_DEVS)
		dev_rot[devid] = rot ? 1 : 2;
	return !rot;
}

static int read_chunks(int fd)
{
	struct {
		struct btrfs_ioctl_search_args_v2 args;
		char buf[65536];
	} s;
	struct btrfs_ioctl_search_key *sk = &s.args.key;
	unsigned long long min_offset = 0;

	for (;;) {
		unsigned int i, off = 0;

		memset(&s.args, 0, sizeof(s.args));
		sk->tree_id = BTRFS_CHUNK_TREE_OBJECTID;
		sk->min_objectid = BTRFS_FIRST_CHUNK_TREE_OBJECTID;
		sk->max_objectid = BTRFS_FIRST_CHUNK_TREE_OBJECTID;
		sk->min_type = BTRFS_CHUNK_ITEM_KEY;
		sk->max_type = BTRFS_CHUNK_ITEM_KEY;
		sk->min_offset = min_offset;
		sk->max_offset = (unsigned long long)-1;
		sk->max_transid = (unsigned long long)-1;
		sk->nr_items = 512;
		s.args.buf_size = sizeof(s.buf);
		if (ioctl(fd, BTRFS_IOC_TREE_SEARCH_V2, &s.args) < 0)
			return -errno;
		if (!sk->nr_items)
			return 0;
		for (i = 0; i < sk->nr_items; i++) {
			struct btrfs_ioctl_search_header *sh = (void *)(s.args.buf + off);
			struct btrfs_chunk *c = (void *)(sh + 1);
			struct btrfs_stripe *st = &c->stripe;
			int n = le16toh(c->num_stripes), j, nonrot = n > 0;

			off += sizeof(*sh) + sh->len;
			min_offset = sh->offset + 1;
			if (sh->type != BTRFS_CHUNK_ITEM_KEY || nr_chunks == MAX_CHUNKS)
				continue;
			for (j = 0; j < n; j++)
				nonrot &= device_nonrot(fd, le64toh(st[j].devid));
			chunks[nr_chunks].start = sh->offset;
			chunks[nr_chunks].len = le64toh(c->length);
			chunks[nr_chunks].nonrot = nonrot;
			nr_chunks++;
		}
		if (min_offset == 0)
			return 0;
	}
}

/* 1 non-rotational, 0 rotational, -1 unknown address. */
static int logical_nonrot(unsigned long long logical)
{
	int i;

	for (i = 0; i < nr_chunks; i++)
		if (logical >= chunks[i].start &&
		    logical < chunks[i].start + chunks[i].len)
			return chunks[i].nonrot;
	return -1;
}

int main(int argc, char **argv)
{
	const unsigned int count = 256;
	unsigned long long start = 0, nr_ranges;
	struct fiemap *fm;
	unsigned char *cls;	/* bit 0: on rotational, bit 1: on non-rotational */
	struct stat st;
	unsigned long long i;
	int fd, last = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: %s FILE\n", argv[0]);
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0) {
		perror(argv[1]);
		return 1;
	}
	if (read_chunks(fd) < 0) {
		perror("BTRFS_IOC_TREE_SEARCH_V2");
		return 1;
	}
	nr_ranges = (st.st_size + (1ULL << RANGE_SHIFT) - 1) >> RANGE_SHIFT;
	cls = calloc(nr_ranges + 1, 1);
	fm = calloc(1, sizeof(*fm) + count * sizeof(struct fiemap_extent));
	if (!cls || !fm)
		return 1;

	while (!last && start < (unsigned long long)st.st_size) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = ~0ULL - start;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = count;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			perror("FS_IOC_FIEMAP");
			return 1;
		}
		if (!fm->fm_mapped_extents)
			break;
		for (i = 0; i < fm->fm_mapped_extents; i++) {
			struct fiemap_extent *fe = &fm->fm_extents[i];
			unsigned long long off, end = fe->fe_logical + fe->fe_length;

			if (fe->fe_flags & FIEMAP_EXTENT_LAST)
				last = 1;
			start = end;
			if (fe->fe_flags & (FIEMAP_EXTENT_DATA_INLINE |
					    FIEMAP_EXTENT_DELALLOC |
					    FIEMAP_EXTENT_UNKNOWN))
				continue;
			/* Block by block is simple; 4 KiB steps are fast enough. */
			for (off = fe->fe_logical; off < end; off += 4096) {
				unsigned long long r = off >> RANGE_SHIFT;
				int nonrot;

				if (r >= nr_ranges)
					break;
				nonrot = logical_nonrot(fe->fe_physical +
							(off - fe->fe_logical));
				if (nonrot >= 0)
					cls[r] |= nonrot ? 2 : 1;
			}
		}
	}
	for (i = 0; i < nr_ranges; i++)
		putchar(".HSM"[cls[i]]);
	putchar('\n');
	return 0;
}
