// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: counts of disk I/O seen through FS_IOC_GET_HEAT_INFO.
 *
 * Needs root and two directories: HOT_TRACK_DIR on a filesystem mounted
 * with hot_track, and HOT_TRACK_OFF_DIR (optional) on one without.
 * hot_track.sh sets up ext4, xfs and btrfs and runs this on each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

#include "../kselftest_harness.h"

#define KiB	1024UL
#define MiB	(1024 * KiB)
#define PG	(4 * KiB)
#define BUFSZ	(4 * MiB)

/* Return 0 and fill @info, or -errno. */
static int heat(int fd, struct hot_heat_info *info, int live)
{
	memset(info, 0, sizeof(*info));
	info->live = live;
	return ioctl(fd, FS_IOC_GET_HEAT_INFO, info) ? -errno : 0;
}

FIXTURE(hot) {
	char path[PATH_MAX];
	int fd;
	char *buf;
};

FIXTURE_SETUP(hot)
{
	const char *dir = getenv("HOT_TRACK_DIR");

	self->fd = -1;
	self->buf = NULL;
	if (!dir)
		SKIP(return, "HOT_TRACK_DIR is not set");
	snprintf(self->path, sizeof(self->path), "%s/hot_test.XXXXXX", dir);
	self->fd = mkstemp(self->path);
	ASSERT_LE(0, self->fd);
	self->buf = aligned_alloc(PG, BUFSZ);
	ASSERT_NE(NULL, self->buf);
	memset(self->buf, 0xa5, BUFSZ);
}

FIXTURE_TEARDOWN(hot)
{
	if (self->fd >= 0) {
		close(self->fd);
		unlink(self->path);
	}
	free(self->buf);
}

/* Write @size bytes, get them to disk and out of the page cache. */
static int make_file(int fd, char *buf, size_t size)
{
	if (pwrite(fd, buf, size, 0) != (ssize_t)size || fsync(fd))
		return -1;
	return posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* A file that saw no disk I/O has no heat. */
TEST_F(hot, new_file_has_no_data)
{
	struct hot_heat_info info;

	EXPECT_EQ(-ENODATA, heat(self->fd, &info, 0));
}

/* Buffered writes count once per writeback pass, whatever their size. */
TEST_F(hot, buffered_write_counts_per_writeback)
{
	struct hot_heat_info info;

	ASSERT_EQ(2 * MiB, pwrite(self->fd, self->buf, 2 * MiB, 0));
	/* Dirty pages are not disk I/O yet. */
	EXPECT_EQ(-ENODATA, heat(self->fd, &info, 0));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(1, info.num_writes);
	EXPECT_EQ(0, info.num_reads);
	EXPECT_NE(0, info.last_write_time);
	EXPECT_EQ(0, info.last_read_time);

	ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, MiB));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(2, info.num_writes);
	/* fsync with nothing dirty writes nothing. */
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(2, info.num_writes);
}

/* Each read that misses the page cache counts; hits do not. */
TEST_F(hot, buffered_read_counts_misses)
{
	const off_t offs[] = { 0, 8 * KiB, 16 * KiB, 2 * MiB + 4 * KiB, 3 * MiB };
	struct hot_heat_info info;
	unsigned int i, base;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 4 * MiB));
	ASSERT_EQ(0, posix_fadvise(self->fd, 0, 0, POSIX_FADV_RANDOM));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	base = info.num_reads;
	EXPECT_EQ(0, base);

	for (i = 0; i < 5; i++)
		ASSERT_EQ(PG, pread(self->fd, self->buf, PG, offs[i]));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(base + 5, info.num_reads);
	EXPECT_NE(0, info.last_read_time);
	EXPECT_NE(0, info.avg_delta_reads);

	/* The same pages again: all page cache hits. */
	for (i = 0; i < 5; i++)
		ASSERT_EQ(PG, pread(self->fd, self->buf, PG, offs[i]));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(base + 5, info.num_reads);
	EXPECT_EQ(1, info.num_writes);
}

/* A whole cached file read again adds nothing. */
TEST_F(hot, cached_reread_adds_nothing)
{
	struct hot_heat_info info, again;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 3 * MiB));
	ASSERT_EQ(3 * MiB, pread(self->fd, self->buf, 3 * MiB, 0));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_LT(0, info.num_reads);
	ASSERT_EQ(3 * MiB, pread(self->fd, self->buf, 3 * MiB, 0));
	ASSERT_EQ(0, heat(self->fd, &again, 0));
	EXPECT_EQ(info.num_reads, again.num_reads);
	EXPECT_EQ(info.last_read_time, again.last_read_time);
}

/* Direct I/O counts one access per request, across range boundaries too. */
TEST_F(hot, direct_io_counts_each_request)
{
	struct hot_heat_info info;
	int dfd, i;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 2 * MiB));
	dfd = open(self->path, O_RDWR | O_DIRECT);
	ASSERT_LE(0, dfd);

	for (i = 0; i < 3; i++)
		ASSERT_EQ(64 * KiB, pread(dfd, self->buf, 64 * KiB,
					  MiB - 32 * KiB));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(3, info.num_reads);
	EXPECT_EQ(1, info.num_writes);

	for (i = 0; i < 4; i++)
		ASSERT_EQ(64 * KiB, pwrite(dfd, self->buf, 64 * KiB,
					   i * 512 * KiB));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(3, info.num_reads);
	EXPECT_EQ(5, info.num_writes);
	close(dfd);
}

/* Page faults on a mapping read from disk like read() does. */
TEST_F(hot, mmap_read_counts_faults)
{
	const off_t offs[] = { 0, 100 * KiB, MiB + MiB / 2 };
	struct hot_heat_info info;
	const char *map;
	unsigned int i;
	char sum = 0;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 2 * MiB));
	map = mmap(NULL, 2 * MiB, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, madvise((void *)map, 2 * MiB, MADV_RANDOM));
	for (i = 0; i < 3; i++)
		sum += map[offs[i]];
	/* Touching the same pages again faults nothing in from disk. */
	for (i = 0; i < 3; i++)
		sum += map[offs[i] + 1];
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(3, info.num_reads);
	EXPECT_EQ((char)(6 * 0xa5), sum);
	munmap((void *)map, 2 * MiB);
}

/* A live temperature is above zero and rises with more accesses. */
TEST_F(hot, live_temperature)
{
	struct hot_heat_info cold, warm;
	int dfd, i;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &cold, 1));
	EXPECT_LT(0, cold.temp);
	dfd = open(self->path, O_RDONLY | O_DIRECT);
	ASSERT_LE(0, dfd);
	for (i = 0; i < 20; i++)
		ASSERT_EQ(PG, pread(dfd, self->buf, PG, 0));
	ASSERT_EQ(0, heat(dfd, &warm, 1));
	EXPECT_LT(cold.temp, warm.temp);
	close(dfd);
}

/* Bad arguments get a clear errno and change nothing. */
TEST_F(hot, bad_arguments)
{
	struct hot_heat_info info;
	char dir[PATH_MAX];
	int dfd;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));

	EXPECT_EQ(-1, ioctl(self->fd, FS_IOC_GET_HEAT_INFO, (void *)8));
	EXPECT_EQ(EFAULT, errno);

	memset(&info, 0, sizeof(info));
	info.reserved[3] = 1;
	EXPECT_EQ(-1, ioctl(self->fd, FS_IOC_GET_HEAT_INFO, &info));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, info.num_writes);

	memset(&info, 0, sizeof(info));
	info.live = 2;
	EXPECT_EQ(-1, ioctl(self->fd, FS_IOC_GET_HEAT_INFO, &info));
	EXPECT_EQ(EINVAL, errno);

	/* Output fields given as input are ignored. */
	memset(&info, 0xff, offsetof(struct hot_heat_info, live));
	info.live = 0;
	memset(info.reserved, 0, sizeof(info.reserved));
	ASSERT_EQ(0, ioctl(self->fd, FS_IOC_GET_HEAT_INFO, &info));
	EXPECT_EQ(1, info.num_writes);

	snprintf(dir, sizeof(dir), "%s", self->path);
	*strrchr(dir, '/') = '\0';
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, dfd);
	EXPECT_EQ(-ENOTTY, heat(dfd, &info, 0));
	close(dfd);
}

/*
 * Deleting a file frees its heat: a new file that gets the same inode
 * number starts with none.  Skips where inode numbers are not reused soon
 * (btrfs never reuses them).
 */
TEST_F(hot, unlink_frees)
{
	char path[PATH_MAX + 16], dir[PATH_MAX];
	struct hot_heat_info info;
	struct stat st, nst;
	int i, fd;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	ASSERT_EQ(0, fstat(self->fd, &st));
	close(self->fd);
	self->fd = -1;
	ASSERT_EQ(0, unlink(self->path));

	snprintf(dir, sizeof(dir), "%s", self->path);
	*strrchr(dir, '/') = '\0';
	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "%s/reuse.%d", dir, i);
		fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0644);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, fstat(fd, &nst));
		if (nst.st_ino == st.st_ino)
			break;
		close(fd);
	}
	if (i == 64) {
		while (i--) {
			snprintf(path, sizeof(path), "%s/reuse.%d", dir, i);
			unlink(path);
		}
		SKIP(return, "inode number %lu not reused", (unsigned long)st.st_ino);
	}
	EXPECT_EQ(-ENODATA, heat(fd, &info, 0));
	close(fd);
	for (; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/reuse.%d", dir, i);
		unlink(path);
	}
}

/* Without hot_track the ioctl says the feature is off. */
TEST(not_tracked)
{
	const char *dir = getenv("HOT_TRACK_OFF_DIR");
	struct hot_heat_info info;
	char path[PATH_MAX];
	char buf[PG] = { 1 };
	int fd;

	if (!dir)
		SKIP(return, "HOT_TRACK_OFF_DIR is not set");
	snprintf(path, sizeof(path), "%s/hot_test.XXXXXX", dir);
	fd = mkstemp(path);
	ASSERT_LE(0, fd);
	ASSERT_EQ(PG, pwrite(fd, buf, PG, 0));
	ASSERT_EQ(0, fsync(fd));
	EXPECT_EQ(-EOPNOTSUPP, heat(fd, &info, 0));
	close(fd);
	unlink(path);
}

/* Does /proc/mounts show hot_track for the mount at @dir? */
static int shows_hot_track(const char *dir)
{
	char line[4096], mnt[PATH_MAX], opts[2048];
	FILE *f = fopen("/proc/mounts", "r");
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %4095s %*s %2047s", mnt, opts) == 2 &&
		    !strcmp(mnt, dir))
			found = !!strstr(opts, "hot_track");
	fclose(f);
	return found;
}

/*
 * Remount turns tracking off and on; off frees what was recorded.  Needs
 * HOT_TRACK_DIR to be the root of its mount.
 */
TEST_F(hot, remount)
{
	const char *dir = getenv("HOT_TRACK_DIR");
	struct hot_heat_info info;

	if (shows_hot_track(dir) < 0)
		SKIP(return, "%s is not a mount point", dir);
	ASSERT_EQ(1, shows_hot_track(dir));
	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));

	/* A value for a flag option is refused and changes nothing. */
	EXPECT_EQ(-1, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track=1"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(1, info.num_writes);

	/* Other options leave tracking alone. */
	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT | MS_NOATIME, ""));
	EXPECT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(1, shows_hot_track(dir));

	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "nohot_track"));
	EXPECT_EQ(0, shows_hot_track(dir));
	EXPECT_EQ(-EOPNOTSUPP, heat(self->fd, &info, 0));

	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track"));
	EXPECT_EQ(1, shows_hot_track(dir));
	/* Everything recorded before was freed. */
	EXPECT_EQ(-ENODATA, heat(self->fd, &info, 0));
}

TEST_HARNESS_MAIN
