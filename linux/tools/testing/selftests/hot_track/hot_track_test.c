// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: counts of disk I/O seen through FS_IOC_GET_HEAT_INFO.
 *
 * Needs root and two directories: HOT_TRACK_DIR on a filesystem mounted
 * with hot_track, and HOT_TRACK_OFF_DIR (optional) on one without;
 * HOT_TRACK_DEBUGFS names the filesystem's debugfs directory, for the tests
 * of the update worker (run with /proc/sys/fs/hot-update-delay at 1).
 * hot_track.sh sets up ext4, xfs and btrfs and runs this on each.
 *
 * Tests wait for what they need, never for a fixed time, up to a timeout:
 * HOT_TIMEOUT_SCALE (an integer, 1 by default) multiplies every timeout,
 * the harness's own too, for slow or loaded machines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>
#include <linux/hot_tracking.h>

#include "../kselftest_harness.h"

#define KiB	1024UL
#define MiB	(1024 * KiB)
#define PG	(4 * KiB)
#define BUFSZ	(4 * MiB)

/* Seconds to wait for an update pass, which comes every second here. */
#define PASS_WAIT	20
/* The harness's timeout of the tests that wait for update passes. */
#define WORKER_TIMEOUT	90

/*
 * What HOT_TIMEOUT_SCALE multiplies the timeouts by: an integer from 1 to
 * 1000, or 1, with a note, when it is anything else.
 */
static unsigned int timeout_scale(void)
{
	const char *env = getenv("HOT_TIMEOUT_SCALE");
	static unsigned int scale;
	unsigned long val;
	char *end;

	if (scale)
		return scale;
	scale = 1;
	if (!env || !*env)
		return scale;
	errno = 0;
	val = strtoul(env, &end, 10);
	if (errno || *end || val < 1 || val > 1000)
		ksft_print_msg("HOT_TIMEOUT_SCALE=%s is not an integer from 1 to 1000: using 1\n",
			       env);
	else
		scale = val;
	return scale;
}

/*
 * Scale the harness's timeout of every test, once all have registered
 * (their constructors run at KSELFTEST_PRIO_TEST).
 */
static void __attribute__((constructor(KSELFTEST_PRIO_XFAIL + 1)))
scale_test_timeouts(void)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;

	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			t->timeout *= timeout_scale();
}

static long long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Poll @cond(@arg) every 100 ms until it returns true, for @secs seconds
 * times HOT_TIMEOUT_SCALE by CLOCK_MONOTONIC, however long the polls take.
 * @cond is tried once more after the deadline.  Return 0 once it held, -1
 * on timeout.
 */
static int wait_until(bool (*cond)(void *arg), void *arg, unsigned int secs)
{
	long long end = monotonic_ms() + secs * 1000LL * timeout_scale();
	bool late;

	for (;;) {
		late = monotonic_ms() >= end;
		if (cond(arg))
			return 0;
		if (late)
			return -1;
		usleep(100000);
	}
}

/* Return 0 and fill @info, or -errno. */
static int heat(int fd, struct hot_heat_info *info, int live)
{
	memset(info, 0, sizeof(*info));
	info->live = live;
	return ioctl(fd, FS_IOC_GET_HEAT_INFO, info) ? -errno : 0;
}

static const char * const sysctls[] = {
	"/proc/sys/fs/hot-kick-time",
	"/proc/sys/fs/hot-update-delay",
	"/proc/sys/fs/hot-mem-max-bytes",
};

/* Write @val to a sysctl; return 0 or -errno. */
static int sysctl_write(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static long long sysctl_read(const char *path)
{
	long long val = -1;
	FILE *f = fopen(path, "r");

	if (f) {
		if (fscanf(f, "%lld", &val) != 1)
			val = -1;
		fclose(f);
	}
	return val;
}

FIXTURE(hot) {
	char path[PATH_MAX];
	int fd;
	char *buf;
	char saved[3][32];
	bool mem_opt;	/* hot_track_mem= was given: undo it */
};

FIXTURE_SETUP(hot)
{
	const char *dir = getenv("HOT_TRACK_DIR");

	self->fd = -1;
	self->buf = NULL;
	for (int i = 0; i < 3; i++)
		snprintf(self->saved[i], sizeof(self->saved[i]), "%lld",
			 sysctl_read(sysctls[i]));
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
	if (self->mem_opt)
		mount(NULL, getenv("HOT_TRACK_DIR"), NULL, MS_REMOUNT,
		      "hot_track,hot_track_mem=0");
	for (int i = 0; i < 3; i++)
		if (strcmp(self->saved[i], "-1"))
			sysctl_write(sysctls[i], self->saved[i]);
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

/*
 * Buffered writes count once per writeback pass, whatever their size: the
 * 512 pages of 2 MiB make one count, or a few if the filesystem or the
 * flusher wrote part of them back beside fsync (btrfs flushes delalloc to
 * make room for metadata).
 */
#define WB_PASSES_MAX	4

TEST_F(hot, buffered_write_counts_per_writeback)
{
	struct hot_heat_info info;
	unsigned int n;

	ASSERT_EQ(2 * MiB, pwrite(self->fd, self->buf, 2 * MiB, 0));
	/* Dirty pages are not disk I/O yet, unless written back already. */
	if (heat(self->fd, &info, 0) == 0)
		EXPECT_GE(WB_PASSES_MAX, info.num_writes);
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_LE(1, info.num_writes);
	EXPECT_GE(WB_PASSES_MAX, info.num_writes);
	EXPECT_EQ(0, info.num_reads);
	EXPECT_NE(0, info.last_write_time);
	EXPECT_EQ(0, info.last_read_time);

	n = info.num_writes;
	ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, MiB));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(n + 1, info.num_writes);
	/* fsync with nothing dirty writes nothing. */
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(n + 1, info.num_writes);
}

/* Each read that misses the page cache counts; hits do not. */
TEST_F(hot, buffered_read_counts_misses)
{
	const off_t offs[] = { 0, 8 * KiB, 16 * KiB, 2 * MiB + 4 * KiB, 3 * MiB };
	struct hot_heat_info info;
	unsigned int i, base, writes;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 4 * MiB));
	ASSERT_EQ(0, posix_fadvise(self->fd, 0, 0, POSIX_FADV_RANDOM));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	base = info.num_reads;
	writes = info.num_writes;
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
	EXPECT_EQ(writes, info.num_writes);
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
	unsigned int writes;
	int dfd, i;

	ASSERT_EQ(0, make_file(self->fd, self->buf, 2 * MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	writes = info.num_writes;
	dfd = open(self->path, O_RDWR | O_DIRECT);
	ASSERT_LE(0, dfd);

	for (i = 0; i < 3; i++)
		ASSERT_EQ(64 * KiB, pread(dfd, self->buf, 64 * KiB,
					  MiB - 32 * KiB));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(3, info.num_reads);
	EXPECT_EQ(writes, info.num_writes);

	for (i = 0; i < 4; i++)
		ASSERT_EQ(64 * KiB, pwrite(dfd, self->buf, 64 * KiB,
					   i * 512 * KiB));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(3, info.num_reads);
	EXPECT_EQ(writes + 4, info.num_writes);
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

#define NOBODY		65534
/* Exit codes of a child that could not get as far as the ioctl. */
#define CHILD_SETUP	200
#define CHILD_SKIP	201

/*
 * What FS_IOC_GET_HEAT_INFO gives user and group nobody on @path, opened
 * with @flags (by root: the test directory may be closed to others), in a
 * child: 0 or -errno; -CHILD_SETUP if the child could not become nobody.
 */
static int heat_as_nobody(const char *path, int flags)
{
	struct hot_heat_info info;
	int status, fd;
	pid_t pid;

	fd = open(path, flags);
	if (fd < 0)
		return -CHILD_SETUP;
	pid = fork();
	if (pid < 0) {
		close(fd);
		return -CHILD_SETUP;
	}
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(CHILD_SETUP);
		_exit(-heat(fd, &info, 0));
	}
	close(fd);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -CHILD_SETUP;
	return -WEXITSTATUS(status);
}

/*
 * Heat is for the file's owner and those who may write it, as mincore() is:
 * when a file was read from disk tells what its other users do.
 */
TEST_F(hot, heat_needs_owner_or_writer)
{
	struct hot_heat_info info;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));

	/* Another user who may only read the file. */
	ASSERT_EQ(0, fchmod(self->fd, 0644));
	EXPECT_EQ(-EPERM, heat_as_nobody(self->path, O_RDONLY));
	/* ... unless given a descriptor open for writing. */
	EXPECT_EQ(0, heat_as_nobody(self->path, O_RDWR));
	/* One who may write it, though it has the file open read-only. */
	ASSERT_EQ(0, fchmod(self->fd, 0666));
	EXPECT_EQ(0, heat_as_nobody(self->path, O_RDONLY));
	/* The owner, who may not write it. */
	ASSERT_EQ(0, fchmod(self->fd, 0444));
	ASSERT_EQ(0, fchown(self->fd, NOBODY, NOBODY));
	EXPECT_EQ(0, heat_as_nobody(self->path, O_RDONLY));
	/* Root, who owns nothing here (CAP_FOWNER, CAP_DAC_OVERRIDE). */
	EXPECT_EQ(0, heat(self->fd, &info, 0));
}

/*
 * FS_IOC_GET_HEAT_INFO on @fd in a new time namespace whose CLOCK_MONOTONIC
 * is @offset seconds off the host's: 0 with the file's last write time in
 * *@time and the namespace's clock_gettime() just after in *@clock (ns);
 * 1 without time namespaces; -1 if it cannot be set up.
 */
static int heat_in_timens(int fd, long offset, __u64 *time, __u64 *clock)
{
	struct hot_heat_info info;
	int pipefd[2], status, ret;
	struct timespec ts;
	__u64 out[2];
	pid_t pid;

	if (pipe(pipefd))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char offsets[64];
		int f;

		/* A new time namespace is for the children of the caller. */
		if (unshare(CLONE_NEWTIME))
			_exit(errno == EINVAL ? CHILD_SKIP : CHILD_SETUP);
		f = open("/proc/self/timens_offsets", O_WRONLY);
		snprintf(offsets, sizeof(offsets), "monotonic %ld 0", offset);
		if (f < 0 || write(f, offsets, strlen(offsets)) < 0)
			_exit(CHILD_SETUP);
		close(f);
		pid = fork();
		if (pid < 0)
			_exit(CHILD_SETUP);
		if (!pid) {
			if (heat(fd, &info, 0) ||
			    clock_gettime(CLOCK_MONOTONIC, &ts))
				_exit(CHILD_SETUP);
			out[0] = info.last_write_time;
			out[1] = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
			_exit(write(pipefd[1], out, sizeof(out)) == sizeof(out) ?
			      0 : CHILD_SETUP);
		}
		_exit(waitpid(pid, &status, 0) == pid && WIFEXITED(status) ?
		      WEXITSTATUS(status) : CHILD_SETUP);
	}
	close(pipefd[1]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		ret = -1;
	else if (WEXITSTATUS(status))
		ret = WEXITSTATUS(status) == CHILD_SKIP ? 1 : -1;
	else
		ret = read(pipefd[0], out, sizeof(out)) == sizeof(out) ? 0 : -1;
	close(pipefd[0]);
	*time = out[0];
	*clock = out[1];
	return ret;
}

/*
 * The times are CLOCK_MONOTONIC of the caller's time namespace: in one whose
 * clock runs TIMENS_OFFSET seconds ahead, they are that much later; in one
 * set back to 0 now, the write came before its clock began, which reads as
 * early as can be, neither 0 ("never") nor a wrapped negative time.
 */
#define TIMENS_OFFSET	1000

TEST_F(hot, times_in_time_namespace)
{
	struct hot_heat_info info;
	struct timespec now;
	__u64 t = 0, clock = 0;
	int ret;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	ASSERT_NE(0, info.last_write_time);

	ret = heat_in_timens(self->fd, TIMENS_OFFSET, &t, &clock);
	if (ret == 1)
		SKIP(return, "no time namespaces (CONFIG_TIME_NS)");
	ASSERT_EQ(0, ret);
	EXPECT_EQ(info.last_write_time + TIMENS_OFFSET * 1000000000ULL, t);

	ASSERT_EQ(0, clock_gettime(CLOCK_MONOTONIC, &now));
	ASSERT_EQ(0, heat_in_timens(self->fd, -(long)now.tv_sec, &t, &clock));
	EXPECT_LT(0, t);
	EXPECT_GE(clock, t);
}

/* Bad arguments get a clear errno and change nothing. */
TEST_F(hot, bad_arguments)
{
	struct hot_heat_info info;
	unsigned int writes;
	char dir[PATH_MAX];
	int dfd;

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	writes = info.num_writes;

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
	EXPECT_EQ(writes, info.num_writes);

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

/*
 * Find the line of inode @ino (range @start, or -1 for an inode file) in a
 * debugfs file; return its position (0 = first) and its fields, or -1.
 */
static int debugfs_find(const char *file, unsigned long long ino,
			long long start, unsigned int *reads,
			unsigned int *writes, unsigned int *temp)
{
	unsigned long long f_ino, f_root, f_start, f_len;
	char path[PATH_MAX], line[256];
	unsigned int r, w, t;
	int n = 0, found = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("HOT_TRACK_DEBUGFS"), file);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (found < 0 && fgets(line, sizeof(line), f)) {
		if (start < 0) {
			if (sscanf(line, "%llu %llu %u %u %u", &f_ino, &f_root,
				   &r, &w, &t) != 5)
				break;
			if (f_ino == ino)
				found = n;
		} else {
			if (sscanf(line, "%llu %llu %llu %llu %u %u %u", &f_ino,
				   &f_root, &f_start, &f_len, &r, &w, &t) != 7 ||
			    f_len != MiB)
				break;
			if (f_ino == ino && f_start == (unsigned long long)start)
				found = n;
		}
		n++;
	}
	fclose(f);
	if (found >= 0) {
		*reads = r;
		*writes = w;
		*temp = t;
	}
	return found;
}

/* How many ranges of inode @ino range_stat lists. */
static int debugfs_count_ranges(unsigned long long ino)
{
	unsigned long long f_ino;
	char path[PATH_MAX], line[256];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/range_stat", getenv("HOT_TRACK_DEBUGFS"));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		f_ino = strtoull(line, NULL, 10);
		if (f_ino == ino)
			n++;
	}
	fclose(f);
	return n;
}

static bool untracked(void *arg)
{
	struct hot_heat_info info;

	return heat(*(int *)arg, &info, 0) == -ENODATA;
}

/* A value of the debugfs file stats ("inodes", "ranges", "mem"), or -1. */
static long long stats_value(const char *name)
{
	char path[PATH_MAX], key[16];
	long long val = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/stats", getenv("HOT_TRACK_DEBUGFS"));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fscanf(f, "%15s %lld", key, &val) == 2 && strcmp(key, name))
		val = -1;
	fclose(f);
	return val;
}

struct passes_wait {
	long long passes;
};

static bool passes_done(void *arg)
{
	return stats_value("passes") > ((struct passes_wait *)arg)->passes;
}

/* Whether no update pass is under way (debugfs stats). */
static bool no_pass_running(void *arg)
{
	/* Ended first: a pass that begins between the reads is seen. */
	long long ended = stats_value("passes");

	(void)arg;
	return ended >= 0 && stats_value("passes_begun") == ended;
}

/*
 * Wait for an update pass that began after now to end (debugfs stats
 * "passes_begun" and "passes"): it saw all the I/O done before, and
 * folded it in the scores once.  Return 0, or -1 after PASS_WAIT seconds.
 */
static int wait_for_pass(void)
{
	struct passes_wait p;

	p.passes = stats_value("passes_begun");
	if (p.passes < 0)
		return -1;
	return wait_until(passes_done, &p, PASS_WAIT);
}

/*
 * One update pass now, then none for an hour: a hot-update-delay of a
 * second applies at once to the pass queued, and one of an hour, written
 * before that pass ends, to the pass it queues next.  Written while a pass
 * runs, the second queues one more a second later: then both are written
 * again once that pass ended, until no pass began or ended around the
 * writes (all but the first instructions and the last of a pass show in
 * debugfs stats).  Waits for a pass that began after the call to end.
 * Return 0, or -1 after PASS_WAIT seconds.  The fixture puts the delay
 * back.
 */
static int one_pass_then_none(void)
{
	long long end = monotonic_ms() + PASS_WAIT * 1000LL * timeout_scale();
	long long ended, begun, begun2;
	struct passes_wait p;

	do {
		if (monotonic_ms() > end ||
		    wait_until(no_pass_running, NULL, PASS_WAIT))
			return -1;
		/* Ended, then begun, as no_pass_running() reads them. */
		ended = stats_value("passes");
		p.passes = stats_value("passes_begun");
		if (ended < 0 || p.passes < 0 || sysctl_write(sysctls[1], "1"))
			return -1;
		begun = stats_value("passes_begun");
		if (sysctl_write(sysctls[1], "3600"))
			return -1;
		/* Begun, then ended: no pass began or ended meanwhile. */
		begun2 = stats_value("passes_begun");
	} while (ended != p.passes || begun != p.passes ||
		 begun2 != p.passes || stats_value("passes") != p.passes);
	return wait_until(passes_done, &p, PASS_WAIT);
}

static bool mem_capped(void *arg)
{
	long long mem = stats_value("mem");

	return mem >= 0 && mem <= *(long long *)arg;
}

/* O_DIRECT reads of 4 KiB at @off, @n times. */
static int direct_reads(const char *path, char *buf, off_t off, int n)
{
	int fd = open(path, O_RDONLY | O_DIRECT), ret = 0;

	if (fd < 0)
		return -1;
	while (n-- && !ret)
		ret = pread(fd, buf, PG, off) == PG ? 0 : -1;
	close(fd);
	return ret;
}

/*
 * Make @fd a 64 MiB file of holes with an unwritten (fallocated) extent of
 * 8 MiB at 32 MiB, where the filesystem has them.  Return 0 or -1.
 */
static int make_sparse(int fd)
{
	if (ftruncate(fd, 64 * MiB))
		return -1;
	if (fallocate(fd, 0, 32 * MiB, 8 * MiB) && errno != EOPNOTSUPP)
		return -1;
	return 0;
}

/*
 * Only what goes to the device counts: direct reads of holes and of
 * unwritten (fallocated) extents read zeroes without I/O and make no item,
 * however many and wherever (an unprivileged user could otherwise fill
 * memory with items of a 4 PiB sparse file).
 */
TEST_F(hot, direct_reads_of_holes_do_not_count)
{
	struct hot_heat_info info;
	unsigned int i, reads;
	struct stat st;
	int dfd;
	char *big;

	ASSERT_EQ(0, make_sparse(self->fd));
	ASSERT_EQ(0, fstat(self->fd, &st));
	dfd = open(self->path, O_RDONLY | O_DIRECT);
	ASSERT_LE(0, dfd);
	for (i = 0; i < 64; i++)
		ASSERT_EQ(PG, pread(dfd, self->buf, PG, i * MiB));
	EXPECT_EQ(-ENODATA, heat(dfd, &info, 0));

	/* Data in the first range: a read of it and the hole after counts once. */
	ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, 0));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(64 * KiB, pread(dfd, self->buf, 64 * KiB, 0));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(1, info.num_reads);
	reads = info.num_reads;
	for (i = 1; i < 64; i++)
		ASSERT_EQ(PG, pread(dfd, self->buf, PG, i * MiB));
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(reads, info.num_reads);
	if (getenv("HOT_TRACK_DEBUGFS"))
		EXPECT_EQ(1, debugfs_count_ranges(st.st_ino));

	/*
	 * Data in ranges 0 and 7, a hole between: one read of all 8 MiB counts
	 * once for each run of data, and makes no item for the hole.
	 */
	big = aligned_alloc(PG, 8 * MiB);
	ASSERT_NE(NULL, big);
	/* Faulted in: btrfs reads directly without faults, else in parts. */
	memset(big, 0, 8 * MiB);
	ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, 7 * MiB));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(8 * MiB, pread(dfd, big, 8 * MiB, 0));
	free(big);
	ASSERT_EQ(0, heat(dfd, &info, 0));
	EXPECT_EQ(reads + 2, info.num_reads);
	close(dfd);
	if (getenv("HOT_TRACK_DEBUGFS"))
		EXPECT_EQ(2, debugfs_count_ranges(st.st_ino));
}

/*
 * As user nobody, on @fd (a file nobody owns): make the file as sparse as
 * the filesystem allows, from 4 PiB down to 4 GiB, and read 4 KiB, buffered
 * and direct, at 256 places spread over it.  Return 0, -errno, or
 * -CHILD_SETUP.
 */
static int sparse_reads_as_nobody(int fd)
{
	int status, dfd, i, ret = 0;
	off_t size, step;
	char path[64];
	pid_t pid;
	char *buf;

	pid = fork();
	if (pid < 0)
		return -CHILD_SETUP;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(CHILD_SETUP);
		for (size = 1LL << 52; ftruncate(fd, size); size /= 2)
			if ((errno != EFBIG && errno != EINVAL) ||
			    size == 1LL << 32)
				_exit(errno);
		step = size / 256;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		dfd = open(path, O_RDONLY | O_DIRECT);
		buf = aligned_alloc(PG, PG);
		if (dfd < 0 || !buf)
			_exit(CHILD_SETUP);
		errno = 0;
		for (i = 0; i < 256 && !ret; i++) {
			if (pread(fd, buf, PG, i * step) != PG ||
			    pread(dfd, buf, PG, i * step + step / 2) != PG)
				ret = errno ? errno : EIO;
		}
		_exit(ret);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -CHILD_SETUP;
	return -WEXITSTATUS(status);
}

/*
 * Buffered reads count only what bios carry too: reads and page faults
 * over holes and unwritten extents, which read zeroes without I/O, make no
 * item.  An unprivileged user reading a sparse file of their own across
 * petabytes makes none either, and memory does not grow.
 */
TEST_F(hot, buffered_reads_of_holes_do_not_count)
{
	bool debugfs = getenv("HOT_TRACK_DEBUGFS");
	long long ranges = -1, mem = -1;
	struct hot_heat_info info;
	struct stat st;
	unsigned int i;
	char *map;
	int ret;

	ASSERT_EQ(0, make_sparse(self->fd));
	ASSERT_EQ(0, fstat(self->fd, &st));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(PG, pread(self->fd, self->buf, PG, i * MiB));
	ASSERT_EQ(0, posix_fadvise(self->fd, 0, 0, POSIX_FADV_DONTNEED));
	map = mmap(NULL, 64 * MiB, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, map);
	for (i = 0; i < 64; i++)
		ASSERT_EQ(0, map[i * MiB + 100]);
	munmap(map, 64 * MiB);
	EXPECT_EQ(-ENODATA, heat(self->fd, &info, 0));

	/* Data in the first range, out of the page cache: its read counts. */
	ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, 0));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, posix_fadvise(self->fd, 0, 0, POSIX_FADV_DONTNEED));
	ASSERT_EQ(64 * KiB, pread(self->fd, self->buf, 64 * KiB, 0));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(1, info.num_reads);
	if (debugfs)
		EXPECT_EQ(1, debugfs_count_ranges(st.st_ino));

	/* The unprivileged reproducer, on a file of its own. */
	ASSERT_EQ(0, ftruncate(self->fd, 0));
	ASSERT_EQ(0, fchown(self->fd, NOBODY, NOBODY));
	if (debugfs) {
		ranges = stats_value("ranges");
		mem = stats_value("mem");
	}
	ret = sparse_reads_as_nobody(self->fd);
	if (ret == -CHILD_SETUP)
		SKIP(return, "could not read as user nobody");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, fstat(self->fd, &st));
	EXPECT_LE(1LL << 32, (long long)st.st_size);
	/* Only the heat from before the truncate, none for the holes. */
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(1, info.num_reads);
	if (debugfs) {
		EXPECT_GE(1, debugfs_count_ranges(st.st_ino));
		/* Other files' items may go meanwhile, never come. */
		EXPECT_GE(ranges, stats_value("ranges"));
		EXPECT_GE(mem, stats_value("mem"));
	}
}

/* Why the update worker cannot be tested here, or NULL if it can. */
static const char *no_worker_tests(void)
{
	if (!getenv("HOT_TRACK_DEBUGFS"))
		return "HOT_TRACK_DEBUGFS is not set";
	if (sysctl_read(sysctls[1]) != 1)
		return "hot-update-delay is not 1";
	return NULL;
}

/* The hot and the cold file in the spot lists, and the hot file's ioctl. */
struct spot_look {
	int fd;
	unsigned long long ino_hot, ino_cold;
	int pos_hot, pos_cold, range_hot, range_cold;
	unsigned int r_hot, r_cold, t_hot, t_cold, temp;
};

/*
 * Read the spot lists between two looks at the hot file's temperature:
 * false if a pass came between, and the lists and the ioctl may not agree.
 */
static bool spot_look(void *arg)
{
	struct hot_heat_info before, after;
	struct spot_look *l = arg;
	unsigned int r, w, t;

	if (heat(l->fd, &before, 0))
		return false;
	l->pos_hot = debugfs_find("inode_spot", l->ino_hot, -1, &l->r_hot, &w,
				  &l->t_hot);
	l->pos_cold = debugfs_find("inode_spot", l->ino_cold, -1, &l->r_cold,
				   &w, &l->t_cold);
	l->range_hot = debugfs_find("range_spot", l->ino_hot, 0, &r, &w, &t);
	l->range_cold = debugfs_find("range_spot", l->ino_cold, 0, &r, &w, &t);
	if (heat(l->fd, &after, 0))
		return false;
	l->temp = after.temp;
	return before.temp == after.temp;
}

/* The update worker ranks a file read ten times more as hotter. */
TEST_F_TIMEOUT(hot, spot_order_by_heat, WORKER_TIMEOUT)
{
	struct spot_look l = { .fd = self->fd };
	char cold[PATH_MAX + 8];
	struct stat st_hot, st_cold;
	int cfd;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	snprintf(cold, sizeof(cold), "%s.cold", self->path);
	cfd = open(cold, O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, cfd);
	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, make_file(cfd, self->buf, MiB));
	/*
	 * All reads in one pass: one between those of the hot file and those
	 * of the cold would cut the hot file's to two accesses per pass.
	 */
	ASSERT_EQ(0, one_pass_then_none());
	ASSERT_EQ(0, direct_reads(self->path, self->buf, 0, 40));
	ASSERT_EQ(0, direct_reads(cold, self->buf, 0, 4));
	ASSERT_EQ(0, fstat(self->fd, &st_hot));
	ASSERT_EQ(0, fstat(cfd, &st_cold));
	ASSERT_EQ(0, one_pass_then_none());

	l.ino_hot = st_hot.st_ino;
	l.ino_cold = st_cold.st_ino;
	ASSERT_EQ(0, wait_until(spot_look, &l, PASS_WAIT));
	ASSERT_LE(0, l.pos_hot);
	ASSERT_LE(0, l.pos_cold);
	EXPECT_LT(l.pos_hot, l.pos_cold);
	EXPECT_GT(l.t_hot, l.t_cold);
	EXPECT_EQ(40, l.r_hot);
	EXPECT_EQ(4, l.r_cold);
	/* The ioctl reports the same pass's temperature. */
	EXPECT_LE(l.t_hot, l.temp);
	/* And the range list has range 0 of the hot file before the cold. */
	ASSERT_LE(0, l.range_hot);
	ASSERT_LE(0, l.range_cold);
	EXPECT_LT(l.range_hot, l.range_cold);
	close(cfd);
	unlink(cold);
}

/* An item idle for longer than hot-kick-time is dropped. */
TEST_F_TIMEOUT(hot, kick_time_ages_out, WORKER_TIMEOUT)
{
	struct hot_heat_info info;
	unsigned int r, w, t;
	struct stat st;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_EQ(0, make_file(self->fd, self->buf, 2 * MiB));
	ASSERT_EQ(0, fstat(self->fd, &st));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	ASSERT_LE(0, debugfs_find("range_stat", st.st_ino, MiB, &r, &w, &t));
	ASSERT_EQ(0, sysctl_write(sysctls[0], "1"));
	wait_until(untracked, &self->fd, PASS_WAIT);
	EXPECT_EQ(-ENODATA, heat(self->fd, &info, 0));
	EXPECT_EQ(-1, debugfs_find("inode_stat", st.st_ino, -1, &r, &w, &t));
	EXPECT_EQ(-1, debugfs_find("range_stat", st.st_ino, MiB, &r, &w, &t));
}

/* The memory cap holds, and the hottest range survives it. */
TEST_F_TIMEOUT(hot, mem_cap_keeps_hottest, WORKER_TIMEOUT)
{
	long long mem, cap = 4096;
	unsigned int r, w, t;
	struct stat st;
	int i, dfd;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	/* 4 KiB of data in each range of a 64 MiB file, written directly. */
	ASSERT_EQ(0, fstat(self->fd, &st));
	dfd = open(self->path, O_RDWR | O_DIRECT);
	ASSERT_LE(0, dfd);
	for (i = 0; i < 64; i++)
		ASSERT_EQ(PG, pwrite(dfd, self->buf, PG, i * MiB));
	for (i = 0; i < 64; i++)
		ASSERT_EQ(PG, pread(dfd, self->buf, PG, i * MiB));
	for (i = 0; i < 30; i++)
		ASSERT_EQ(PG, pread(dfd, self->buf, PG, 5 * MiB));
	close(dfd);
	ASSERT_EQ(0, wait_for_pass());

	ASSERT_EQ(0, sysctl_write(sysctls[2], "4096"));
	wait_until(mem_capped, &cap, PASS_WAIT);
	mem = stats_value("mem");
	ASSERT_LE(0, mem);
	EXPECT_GE(4096, mem);
	EXPECT_LE(0, debugfs_find("range_stat", st.st_ino, 5 * MiB, &r, &w, &t));
	EXPECT_EQ(31, r);
	EXPECT_GT(64, debugfs_count_ranges(st.st_ino));
}

/*
 * A shorter hot-update-delay applies at once, not after the pass that was
 * waiting for the old delay to run out.
 */
TEST_F_TIMEOUT(hot, update_delay_applies_at_once, WORKER_TIMEOUT)
{
	struct passes_wait w;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	/*
	 * Passes an hour apart.  Before the fix the pass already waiting (a
	 * second away) came first, then waited an hour: let it come.
	 */
	ASSERT_EQ(0, sysctl_write(sysctls[1], "3600"));
	w.passes = stats_value("passes");
	ASSERT_LE(0, w.passes);
	wait_until(passes_done, &w, 2);

	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	w.passes = stats_value("passes");
	ASSERT_EQ(0, sysctl_write(sysctls[1], "1"));
	EXPECT_EQ(0, wait_until(passes_done, &w, PASS_WAIT));
	EXPECT_EQ(0, wait_for_pass());
}

/* drop_caches shrinks the items, the hottest stay. */
TEST_F_TIMEOUT(hot, drop_caches_keeps_hottest, WORKER_TIMEOUT)
{
	unsigned int r, w, t;
	struct stat st;
	int i, fd;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	/* 4 KiB of data in each of 1000 ranges, one written back at a time. */
	for (i = 0; i < 1000; i++)
		ASSERT_EQ(PG, pwrite(self->fd, self->buf, PG, i * MiB));
	ASSERT_EQ(0, fsync(self->fd));
	ASSERT_EQ(0, fstat(self->fd, &st));
	ASSERT_EQ(0, direct_reads(self->path, self->buf, 7 * MiB, 30));
	/*
	 * The shrinker goes by the heat maps of a pass that saw all reads,
	 * and keeps an eighth of what that pass mapped: no pass after it
	 * while drop_caches runs, whose eighth would be of fewer.
	 */
	ASSERT_EQ(0, one_pass_then_none());

	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, write(fd, "2", 1));
	close(fd);
	/*
	 * drop_caches shrinks until nothing more is freed: what is left is the
	 * hottest eighth of the 1001 items (the inode's too) the pass saw.
	 */
	EXPECT_LE(0, debugfs_find("range_stat", st.st_ino, 7 * MiB, &r, &w, &t));
	EXPECT_EQ(30, r);
	EXPECT_LE(1001 / 8 - 1, debugfs_count_ranges(st.st_ino));
	EXPECT_GT(1000, debugfs_count_ranges(st.st_ino));
}

/* The lines of the debugfs dumps, and the counts of stats around them. */
struct formats_look {
	long long lines[4], bad[4];
	long long inodes, ranges, mem;
};

/*
 * Read every line of the four dumps, between two reads of stats: false
 * unless stats did not change meanwhile and its counts are the lines of
 * inode_stat and range_stat.  A dump misses items freed or made while it is
 * read (the free work of a deleted file from a test before, an update pass
 * aging out).
 */
static bool formats_look(void *arg)
{
	static const char * const files[] = {
		"inode_stat", "range_stat", "inode_spot", "range_spot"
	};
	struct formats_look *l = arg;
	unsigned long long a, b, c, d;
	long long inodes, ranges;
	char path[PATH_MAX], line[256];
	unsigned int r, w, t, i;
	FILE *f;

	inodes = stats_value("inodes");
	ranges = stats_value("ranges");
	for (i = 0; i < 4; i++) {
		l->lines[i] = 0;
		l->bad[i] = 0;
		snprintf(path, sizeof(path), "%s/%s", getenv("HOT_TRACK_DEBUGFS"),
			 files[i]);
		f = fopen(path, "r");
		if (!f) {
			l->bad[i] = -1;
			return false;
		}
		while (fgets(line, sizeof(line), f)) {
			int n = i % 2 ?
				sscanf(line, "%llu %llu %llu %llu %u %u %u",
				       &a, &b, &c, &d, &r, &w, &t) :
				sscanf(line, "%llu %llu %u %u %u", &a, &b, &r,
				       &w, &t);

			if (n != (i % 2 ? 7 : 5))
				l->bad[i]++;
			l->lines[i]++;
		}
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/stats", getenv("HOT_TRACK_DEBUGFS"));
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fscanf(f, "inodes %lld ranges %lld mem %lld", &l->inodes,
		   &l->ranges, &l->mem) != 3)
		l->inodes = -1;
	fclose(f);
	return l->inodes == inodes && l->ranges == ranges &&
	       l->inodes == l->lines[0] && l->ranges == l->lines[1];
}

/* Every line of every debugfs file parses, and stats add up. */
TEST_F_TIMEOUT(hot, debugfs_formats, WORKER_TIMEOUT)
{
	struct formats_look l = { 0 };
	unsigned int r, w, t, i;
	char path[PATH_MAX];
	struct hot_heat_info info;
	struct stat st;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_EQ(0, make_file(self->fd, self->buf, 3 * MiB));
	ASSERT_EQ(0, fstat(self->fd, &st));
	ASSERT_EQ(0, wait_for_pass());
	EXPECT_EQ(0, wait_until(formats_look, &l, PASS_WAIT))
		TH_LOG("stats: inodes %lld ranges %lld; lines %lld %lld",
		       l.inodes, l.ranges, l.lines[0], l.lines[1]);
	for (i = 0; i < 4; i++)
		EXPECT_EQ(0, l.bad[i]);
	EXPECT_GE(100, l.lines[2]);
	EXPECT_LT(0, l.mem);
	/*
	 * The columns are where the parse expects them: the file was written,
	 * never read.  How many writeback passes wrote it is the filesystem's
	 * business (btrfs may flush delalloc beside fsync): the inode's line
	 * agrees with the ioctl, and its last range saw at most as many.
	 */
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	ASSERT_LE(0, debugfs_find("inode_stat", st.st_ino, -1, &r, &w, &t));
	EXPECT_EQ(0, r);
	EXPECT_EQ(info.num_writes, w);
	ASSERT_LE(0, debugfs_find("range_stat", st.st_ino, 2 * MiB, &r, &w, &t));
	EXPECT_EQ(0, r);
	EXPECT_LE(1, w);
	EXPECT_GE(info.num_writes, w);

	/* Root only. */
	snprintf(path, sizeof(path), "%s/stats", getenv("HOT_TRACK_DEBUGFS"));
	EXPECT_EQ(0400, 0777 & (stat(path, &st) ? 0 : st.st_mode));
}

/* The most items the query tests read in one list. */
#define QMAX		1024

/* One FS_IOC_GET_HOT_ITEMS call on @fd with @q; 0 or -errno. */
static int hot_items(int fd, struct hot_items_query *q)
{
	return ioctl(fd, FS_IOC_GET_HOT_ITEMS, q) ? -errno : 0;
}

/*
 * The whole list of files (or ranges, @flags HOT_QUERY_RANGES) in pages of
 * @page records into @recs (room for QMAX): the number of records, -EAGAIN
 * if an update pass came between two pages, or -errno.
 */
static int hot_items_all(int fd, unsigned int flags, unsigned int page,
			 struct hot_item_rec *recs, __u64 *pass)
{
	struct hot_items_query q = {
		.flags = flags, .rec_size = sizeof(*recs),
	};
	unsigned int n = 0;
	int ret;

	do {
		q.nr = page < QMAX - n ? page : QMAX - n;
		if (!q.nr)
			return -E2BIG;
		q.oflags = 0;
		q.recs = (uintptr_t)(recs + n);
		ret = hot_items(fd, &q);
		if (ret)
			return ret;
		if (q.oflags & HOT_QUERY_REORDERED || (n && q.pass != *pass))
			return -EAGAIN;
		*pass = q.pass;
		n += q.nr;
	} while (!(q.oflags & HOT_QUERY_END));
	return n;
}

/* Whether two lists name the same items in the same order and heat. */
static bool same_list(const struct hot_item_rec *a,
		      const struct hot_item_rec *b, int n)
{
	for (int i = 0; i < n; i++)
		if (a[i].ino != b[i].ino || a[i].root != b[i].root ||
		    a[i].offset != b[i].offset || a[i].temp != b[i].temp ||
		    a[i].num_reads != b[i].num_reads)
			return false;
	return true;
}

/* The (ino, start) of the lines of a debugfs spot list; their number. */
static int spot_list(bool ranges, __u64 *ino, __u64 *start, int max)
{
	unsigned long long f_ino, f_root, f_start, f_len;
	char path[PATH_MAX], line[256];
	unsigned int r, w, t;
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("HOT_TRACK_DEBUGFS"),
		 ranges ? "range_spot" : "inode_spot");
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fgets(line, sizeof(line), f)) {
		if (ranges ? sscanf(line, "%llu %llu %llu %llu %u %u %u",
				    &f_ino, &f_root, &f_start, &f_len, &r, &w,
				    &t) != 7 :
			     sscanf(line, "%llu %llu %u %u %u", &f_ino, &f_root,
				    &r, &w, &t) != 5)
			break;
		ino[n] = f_ino;
		start[n++] = ranges ? f_start : 0;
	}
	fclose(f);
	return n;
}

struct query_look {
	int fd;
	bool ranges;
	int n, spot;
	struct hot_item_rec recs[QMAX], again[QMAX];
	__u64 ino[QMAX], start[QMAX];
};

/*
 * Read the whole list in pages of 3, the spot list, and the whole list at
 * once: false unless both lists are of one pass and the same.
 */
static bool query_look(void *arg)
{
	unsigned int flags = 0;
	struct query_look *l = arg;
	__u64 pass, pass2;
	int n2;

	if (l->ranges)
		flags = HOT_QUERY_RANGES;
	l->n = hot_items_all(l->fd, flags, 3, l->recs, &pass);
	l->spot = spot_list(l->ranges, l->ino, l->start, QMAX);
	n2 = hot_items_all(l->fd, flags, QMAX, l->again, &pass2);
	return l->n > 0 && n2 == l->n && pass == pass2 &&
	       same_list(l->recs, l->again, l->n);
}

/* Make @n files "@base.I", file I read from disk 4 * (I + 1) times. */
static int make_heated(const char *base, int n, char *buf, struct stat *st)
{
	char path[PATH_MAX + 64];
	int i, fd;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s.%d", base, i);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return -1;
		if (make_file(fd, buf, 2 * MiB) || fstat(fd, &st[i]) ||
		    direct_reads(path, buf, 0, 4 * (i + 1)) ||
		    direct_reads(path, buf, MiB, 2 * (i + 1))) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	return 0;
}

static void unlink_heated(const char *base, int n)
{
	char path[PATH_MAX + 64];

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s.%d", base, i);
		unlink(path);
	}
}

/* Where the record of @ino (range @start) is in @recs, or -1. */
static int rec_pos(const struct hot_item_rec *recs, int n, __u64 ino,
		   __u64 start)
{
	for (int i = 0; i < n; i++)
		if (recs[i].ino == ino && recs[i].offset == start)
			return i;
	return -1;
}

#define NHEATED	6

/* The generation of @path as FS_IOC_GETVERSION gives it; -1 if it cannot. */
static long long file_generation(const char *path)
{
	int fd = open(path, O_RDONLY), gen;
	long long ret = -1;

	if (fd < 0)
		return -1;
	if (!ioctl(fd, FS_IOC_GETVERSION, &gen))
		ret = (unsigned int)gen;
	close(fd);
	return ret;
}

/*
 * FS_IOC_GET_HOT_ITEMS lists files and ranges in the order of the spot
 * lists of debugfs, paged or not, with what names each file and its counts.
 */
TEST_F_TIMEOUT(hot, query_order_matches_spot, WORKER_TIMEOUT)
{
	struct query_look *looks = calloc(2, sizeof(*looks)), *l;
	char path[PATH_MAX + 64];
	struct stat st[NHEATED];
	int i, r, pos, prev, try;
	long long gen, begun;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_NE(NULL, looks);
	/*
	 * The lists as one pass after the reads left them: a pass with no
	 * access since cuts the files read eight times or more to two
	 * accesses per pass each, a tie.  So passes an hour apart, the files
	 * read, then one pass (one_pass_then_none()), however long the reads
	 * take on a busy machine; a pass all the same (one that began as the
	 * delay changed): again with new files.
	 */
	ASSERT_EQ(0, one_pass_then_none());
	for (try = 0; try < 5; try++) {
		ASSERT_EQ(0, wait_until(no_pass_running, NULL, PASS_WAIT));
		begun = stats_value("passes_begun");
		ASSERT_EQ(0, make_heated(self->path, NHEATED, self->buf, st));
		ASSERT_EQ(0, one_pass_then_none());
		for (r = 0; r < 2; r++) {
			looks[r].fd = self->fd;
			looks[r].ranges = r;
			ASSERT_EQ(0, wait_until(query_look, &looks[r], PASS_WAIT));
		}
		if (stats_value("passes_begun") == begun + 1)
			break;
		TH_LOG("more than one update pass: again");
		unlink_heated(self->path, NHEATED);
	}
	ASSERT_GT(5, try);

	for (r = 0; r < 2; r++) {
		l = &looks[r];
		/* The spot list is the head of the query's list. */
		ASSERT_LT(0, l->spot);
		ASSERT_LE(l->spot, l->n);
		for (i = 0; i < l->spot; i++) {
			EXPECT_EQ(l->ino[i], l->recs[i].ino);
			EXPECT_EQ(l->start[i], l->recs[i].offset);
		}
		for (i = 0; i < l->n; i++) {
			EXPECT_EQ(r ? HOT_REC_RANGE : 0, l->recs[i].flags);
			if (i)
				EXPECT_GE(l->recs[i - 1].temp, l->recs[i].temp);
		}
		/* The files read more come first, with their counts. */
		prev = -1;
		for (i = NHEATED - 1; i >= 0; i--) {
			pos = rec_pos(l->recs, l->n, st[i].st_ino, 0);
			ASSERT_LE(0, pos);
			EXPECT_LT(prev, pos);
			prev = pos;
			EXPECT_EQ((r ? 4 : 6) * (i + 1), l->recs[pos].num_reads);
			EXPECT_LT(0, l->recs[pos].avg_delta_reads);
			EXPECT_GT(600ULL * 1000000000, l->recs[pos].read_age);
			EXPECT_NE(HOT_AGE_NEVER, l->recs[pos].write_age);
			snprintf(path, sizeof(path), "%s.%d", self->path, i);
			gen = file_generation(path);
			if (gen >= 0)
				EXPECT_EQ(gen, l->recs[pos].generation);
			if (r) {
				pos = rec_pos(l->recs, l->n, st[i].st_ino, MiB);
				ASSERT_LE(0, pos);
				EXPECT_EQ(2 * (i + 1), l->recs[pos].num_reads);
			}
		}
	}
	unlink_heated(self->path, NHEATED);
	free(looks);
}

struct page_look {
	struct hot_items_query q;
	struct hot_item_rec full[QMAX], got[QMAX];
	int n, ngot, fd;
	char base[PATH_MAX];
	char *buf;
	struct stat st[NHEATED];
	__u64 gone;		/* the file deleted before its page */
	int round;
};

/* Next page of two files into @l->got; 0, -EAGAIN (a pass came) or -errno. */
static int page_next(int fd, struct page_look *l)
{
	int ret;

	l->q.nr = 2;
	l->q.oflags = 0;
	l->q.recs = (uintptr_t)(l->got + l->ngot);
	ret = hot_items(fd, &l->q);
	if (ret)
		return ret;
	if (l->q.oflags & HOT_QUERY_REORDERED)
		return -EAGAIN;
	l->ngot += l->q.nr;
	return 0;
}

static void unlink_round(const char *base)
{
	char path[PATH_MAX + 96];

	unlink_heated(base, NHEATED);
	snprintf(path, sizeof(path), "%s.new.0", base);
	unlink(path);
}

/*
 * Page through the files two at a time while the file that ended the first
 * page and a file not listed yet are deleted and a new one is heated: every
 * other file comes once, in order.  False (try again) if a pass came.
 */
static bool page_look(void *arg)
{
	char path[PATH_MAX + 96], base[PATH_MAX + 16];
	struct page_look *l = arg;
	struct stat st_new;
	int i, fd, later = -1;
	bool ok = false;
	__u64 pass;

	snprintf(base, sizeof(base), "%s.%d", l->base, l->round++);
	if (make_heated(base, NHEATED, l->buf, l->st))
		goto out;
	fd = l->fd;
	/* A pass that saw them, and none while the pages are read. */
	if (one_pass_then_none())
		goto out;
	l->n = hot_items_all(fd, 0, QMAX, l->full, &pass);
	if (l->n < NHEATED)
		goto out;
	memset(&l->q, 0, sizeof(l->q));
	l->q.rec_size = sizeof(struct hot_item_rec);
	l->ngot = 0;
	/* The first page must be of the pass of the full list. */
	if (page_next(fd, l) || l->ngot != 2 || l->q.pass != pass)
		goto out;
	/* Delete the file that ended the page, and one further down. */
	for (i = 0; i < NHEATED; i++) {
		snprintf(path, sizeof(path), "%s.%d", base, i);
		if (l->st[i].st_ino == l->got[1].ino) {
			unlink(path);
		} else if (later < 0 &&
			   rec_pos(l->full, l->n, l->st[i].st_ino, 0) > 3) {
			later = i;
			l->gone = l->st[i].st_ino;
			unlink(path);
		}
	}
	/* A new file, hot, that no pass has seen yet. */
	snprintf(path, sizeof(path), "%s.new", base);
	if (later < 0 || make_heated(path, 1, l->buf, &st_new))
		goto out;
	do {
		if (page_next(fd, l))
			goto out;
	} while (!(l->q.oflags & HOT_QUERY_END) && l->ngot < QMAX - 2);
	ok = true;
out:
	unlink_round(base);
	return ok;
}

/* Pages go on where the last ended, whatever is deleted or made between. */
TEST_F_TIMEOUT(hot, query_pages_across_changes, WORKER_TIMEOUT)
{
	struct page_look *l = calloc(1, sizeof(*l));
	int i, j;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_NE(NULL, l);
	snprintf(l->base, sizeof(l->base), "%s", self->path);
	l->buf = self->buf;
	l->fd = self->fd;
	ASSERT_EQ(0, wait_until(page_look, l, PASS_WAIT));
	/* Every file of the full list but the one deleted before its page. */
	for (i = 0, j = 0; i < l->n; i++) {
		if (l->full[i].ino == l->gone)
			continue;
		ASSERT_LT(j, l->ngot);
		EXPECT_EQ(l->full[i].ino, l->got[j].ino);
		EXPECT_EQ(l->full[i].temp, l->got[j].temp);
		j++;
	}
	EXPECT_EQ(j, l->ngot);
	free(l);
}

/*
 * @fn(@arg) as user and group nobody, in a child: its return value, 0 or
 * -errno (an errno up to 255); -CHILD_SETUP if the child could not become
 * nobody.
 */
static int as_nobody(int (*fn)(void *arg), void *arg)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return -CHILD_SETUP;
	if (!pid) {
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(CHILD_SETUP);
		_exit(-fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -CHILD_SETUP;
	return -WEXITSTATUS(status);
}

static int hot_items_fd(void *arg)
{
	struct hot_item_rec rec;
	struct hot_items_query q = {
		.rec_size = sizeof(rec), .nr = 1, .recs = (uintptr_t)&rec,
	};

	return hot_items(*(int *)arg, &q);
}

/* A page of files as user nobody, in a child: 0 or -errno. */
static int hot_items_as_nobody(int fd)
{
	return as_nobody(hot_items_fd, &fd);
}

/* Bad queries fail with the documented errno and leave the query as it was. */
TEST_F_TIMEOUT(hot, query_bad_input, WORKER_TIMEOUT)
{
	const char *off = getenv("HOT_TRACK_OFF_DIR");
	unsigned char big[2][HOT_ITEM_REC_SIZE_VER0 + 16];
	struct hot_item_rec recs[4];
	struct hot_items_query good = {
		.rec_size = sizeof(recs[0]), .nr = 4, .recs = (uintptr_t)recs,
	}, q, before;
	const struct {
		const char *what;
		int field;
		__u64 val;
	} bad[] = {
		{ "unknown flag", 0, 2 },
		{ "oflags given", 1, 1 },
		{ "record too small", 2, HOT_ITEM_REC_SIZE_VER0 - 1 },
		{ "record too large", 2, 4097 },
		{ "no room", 3, 0 },
		{ "too many", 3, HOT_QUERY_MAX + 1 },
		{ "reserved", 4, 1 },
		{ "cursor no call made", 5, 1 },
		{ "cursor of ranges for files", 5, 3ULL << 62 },
		{ "range in a cursor of files", 6, 1ULL << 32 },
	};
	unsigned int i, b;
	int fd;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	/* At least one item to list. */
	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, wait_for_pass());
	q = good;
	ASSERT_EQ(0, hot_items(self->fd, &q));
	ASSERT_LT(0, q.nr);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		q = good;
		switch (bad[i].field) {
		case 0:
			q.flags = bad[i].val;
			break;
		case 1:
			q.oflags = bad[i].val;
			break;
		case 2:
			q.rec_size = bad[i].val;
			break;
		case 3:
			q.nr = bad[i].val;
			break;
		case 4:
			q.reserved[2] = bad[i].val;
			break;
		case 5:
			q.cursor[0] = bad[i].val;
			break;
		case 6:
			q.cursor[0] = 1ULL << 62;
			q.cursor[3] = bad[i].val;
			break;
		}
		before = q;
		EXPECT_EQ(-EINVAL, hot_items(self->fd, &q))
			TH_LOG("%s", bad[i].what);
		EXPECT_EQ(0, memcmp(&q, &before, sizeof(q)));
	}
	q = good;
	q.recs = 8;
	EXPECT_EQ(-EFAULT, hot_items(self->fd, &q));
	EXPECT_EQ(-1, ioctl(self->fd, FS_IOC_GET_HOT_ITEMS, (void *)8));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-EPERM, hot_items_as_nobody(self->fd));

	/* A larger record than the kernel's comes back padded with zeros. */
	memset(big, 0xff, sizeof(big));
	q = good;
	q.rec_size = sizeof(big[0]);
	q.nr = 2;
	q.recs = (uintptr_t)big;
	ASSERT_EQ(0, hot_items(self->fd, &q));
	for (i = 0; i < q.nr; i++)
		for (b = HOT_ITEM_REC_SIZE_VER0; b < sizeof(big[0]); b++)
			EXPECT_EQ(0, big[i][b]);
	if (off) {
		fd = open(off, O_RDONLY | O_DIRECTORY);
		ASSERT_LE(0, fd);
		q = good;
		EXPECT_EQ(-EOPNOTSUPP, hot_items(fd, &q));
		close(fd);
	}
}

/* FS_IOC_SET_HEAT_INFO on @fd with @nr records; 0 or -errno. */
static int set_heat(int fd, struct hot_item_rec *recs, unsigned int nr)
{
	struct hot_heat_set set = {
		.rec_size = sizeof(*recs), .nr = nr, .recs = (uintptr_t)recs,
	};

	return ioctl(fd, FS_IOC_SET_HEAT_INFO, &set) ? -errno : 0;
}

struct set_heat_args {
	int fd;
	struct hot_item_rec *recs;
	unsigned int nr;
};

static int set_heat_fd(void *arg)
{
	struct set_heat_args *a = arg;

	return set_heat(a->fd, a->recs, a->nr);
}

/* FS_IOC_SET_HEAT_INFO as user nobody, in a child: 0 or -errno. */
static int set_heat_as_nobody(int fd, struct hot_item_rec *recs,
			      unsigned int nr)
{
	struct set_heat_args a = { .fd = fd, .recs = recs, .nr = nr };

	return as_nobody(set_heat_fd, &a);
}

/* A record of file @st, @range (-1: the file) read @reads times, @age ns ago. */
static void heat_rec(struct hot_item_rec *rec, const struct stat *st,
		     __u32 gen, __u64 root, long long range, __u32 reads,
		     __u64 age)
{
	memset(rec, 0, sizeof(*rec));
	rec->root = root;
	rec->ino = st->st_ino;
	rec->generation = gen;
	if (range >= 0) {
		rec->flags = HOT_REC_RANGE;
		rec->offset = range;
	}
	rec->num_reads = reads;
	rec->avg_delta_reads = 5000000;
	rec->read_age = age;
	rec->write_age = HOT_AGE_NEVER;
}

/* The root and generation of file @st, from the query's list. */
static int find_root_gen(int fd, const struct stat *st, __u64 *root,
			 __u32 *gen)
{
	struct hot_item_rec *recs = calloc(QMAX, sizeof(*recs));
	__u64 pass;
	int n, pos;

	if (!recs)
		return -1;
	do
		n = hot_items_all(fd, 0, QMAX, recs, &pass);
	while (n == -EAGAIN);
	pos = n > 0 ? rec_pos(recs, n, st->st_ino, 0) : -1;
	if (pos >= 0) {
		*root = recs[pos].root;
		*gen = recs[pos].generation;
	}
	free(recs);
	return pos >= 0 ? 0 : -1;
}

static unsigned long long timespec_ns(const struct timespec *ts)
{
	return ts->tv_sec * 1000000000ULL + ts->tv_nsec;
}

/*
 * Saved heat loads into the file it names: counts add, times are ages, the
 * rate of the saved gaps, cooled by their age, adds to the file's.  Bad
 * records load nothing.
 */
TEST_F_TIMEOUT(hot, set_heat_loads, WORKER_TIMEOUT)
{
	char other[PATH_MAX + 8], dir[PATH_MAX];
	struct hot_item_rec recs[3], bad[3];
	struct hot_heat_info info, after;
	struct timespec t0, t1, t2;
	long long pass;
	struct stat st;
	__u32 gen;
	__u64 root;
	int fd;

	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_EQ(0, make_file(self->fd, self->buf, 2 * MiB));
	ASSERT_EQ(0, fstat(self->fd, &st));
	ASSERT_EQ(0, wait_for_pass());
	ASSERT_EQ(0, find_root_gen(self->fd, &st, &root, &gen));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(0, info.num_reads);

	heat_rec(&recs[0], &st, gen, root, -1, 30, 2000000000ULL);
	heat_rec(&recs[1], &st, gen, root, MiB, 20, 2000000000ULL);
	heat_rec(&recs[2], &st, gen, root, 0, 10, 3000000000ULL);

	memcpy(bad, recs, sizeof(bad));
	bad[1].offset = MiB + 4096;
	EXPECT_EQ(-EINVAL, set_heat(self->fd, bad, 3));
	memcpy(bad, recs, sizeof(bad));
	bad[2].offset = MiB;
	EXPECT_EQ(-EINVAL, set_heat(self->fd, bad, 3));
	memcpy(bad, recs, sizeof(bad));
	bad[0].read_age = HOT_AGE_NEVER;
	EXPECT_EQ(-EINVAL, set_heat(self->fd, bad, 3));
	memcpy(bad, recs, sizeof(bad));
	bad[2].reserved = 1;
	EXPECT_EQ(-EINVAL, set_heat(self->fd, bad, 3));
	memcpy(bad, recs, sizeof(bad));
	bad[2].generation++;
	EXPECT_EQ(-ESTALE, set_heat(self->fd, bad, 3));
	memcpy(bad, recs, sizeof(bad));
	bad[0].ino++;
	EXPECT_EQ(-ESTALE, set_heat(self->fd, bad, 3));
	EXPECT_EQ(-EINVAL, set_heat(self->fd, recs, 0));
	EXPECT_EQ(-EFAULT, set_heat(self->fd, (void *)8, 1));
	EXPECT_EQ(-EPERM, set_heat_as_nobody(self->fd, recs, 3));
	snprintf(dir, sizeof(dir), "%s", self->path);
	*strrchr(dir, '/') = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ENOTTY, set_heat(fd, recs, 3));
	close(fd);
	/* Another file with the records of this one. */
	snprintf(other, sizeof(other), "%s.other", self->path);
	fd = open(other, O_RDWR | O_CREAT, 0644);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-ESTALE, set_heat(fd, recs, 3));
	close(fd);
	unlink(other);
	ASSERT_EQ(0, heat(self->fd, &after, 0));
	EXPECT_EQ(0, after.num_reads);
	EXPECT_EQ(info.num_writes, after.num_writes);

	/*
	 * Load and read back right after a pass ended, a hot-update-delay
	 * before the next begins, and see that none began meanwhile: a pass
	 * folds the loaded score as it begins.
	 */
	ASSERT_EQ(0, wait_for_pass());
	ASSERT_EQ(0, wait_until(no_pass_running, NULL, PASS_WAIT));
	pass = stats_value("passes_begun");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, set_heat(self->fd, recs, 3));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ASSERT_EQ(0, heat(self->fd, &after, 0));
	clock_gettime(CLOCK_MONOTONIC, &t2);
	EXPECT_EQ(30, after.num_reads);
	EXPECT_EQ(info.num_writes, after.num_writes);
	EXPECT_EQ(info.last_write_time, after.last_write_time);
	/*
	 * 5 ms, cooled by half for each pass (hot-update-delay 1 s) of its
	 * 2 s age: 20 ms for reads and writes together, shared out by their
	 * counts; a little less with the file's own writes.  The score cools
	 * on through the pass: read back a time e (s) after the load, the gap
	 * is longer by up to a factor 1 + e.  Unless a pass came in between:
	 * loaded heat not followed by accesses is cut back at the next pass.
	 */
	if (pass >= 0 && stats_value("passes_begun") == pass) {
		unsigned long long share = 20000000ULL *
					   (30 + after.num_writes) / 30;
		unsigned long long e = timespec_ns(&t2) - timespec_ns(&t0);

		EXPECT_LE(share * 8 / 10, after.avg_delta_reads);
		EXPECT_GE(share * 105 / 100 * (1000000000ULL + e) / 1000000000ULL,
			  after.avg_delta_reads);
	} else {
		TH_LOG("an update pass came between load and read");
	}
	/* Read 2 s before the call. */
	EXPECT_LE(timespec_ns(&t0) - 2000000000ULL, after.last_read_time);
	EXPECT_GE(timespec_ns(&t1) - 2000000000ULL, after.last_read_time);

	/* Loaded again: counts add, the later time stands. */
	recs[0].read_age = 60ULL * 1000000000;
	ASSERT_EQ(0, set_heat(self->fd, recs, 1));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(60, info.num_reads);
	EXPECT_EQ(after.last_read_time, info.last_read_time);
}

/* Out-of-range sysctl values give EINVAL and keep the old value. */
TEST(sysctl_bounds)
{
	const struct { int s; const char *val; } bad[] = {
		{ 0, "0" }, { 0, "604801" }, { 0, "-1" }, { 0, "x" },
		{ 1, "0" }, { 1, "3601" }, { 1, "-5" },
		{ 2, "-1" }, { 2, "0" }, { 2, "4095" },
	};
	long long before;
	char old[32];
	unsigned int i;

	if (access(sysctls[0], W_OK))
		SKIP(return, "no hot_track sysctls");
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		before = sysctl_read(sysctls[bad[i].s]);
		EXPECT_EQ(-EINVAL, sysctl_write(sysctls[bad[i].s], bad[i].val));
		EXPECT_EQ(before, sysctl_read(sysctls[bad[i].s]));
	}
	snprintf(old, sizeof(old), "%lld", sysctl_read(sysctls[0]));
	EXPECT_EQ(0, sysctl_write(sysctls[0], "604800"));
	EXPECT_EQ(604800, sysctl_read(sysctls[0]));
	EXPECT_EQ(0, sysctl_write(sysctls[0], old));
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
	unsigned int writes;

	if (shows_hot_track(dir) < 0)
		SKIP(return, "%s is not a mount point", dir);
	ASSERT_EQ(1, shows_hot_track(dir));
	ASSERT_EQ(0, make_file(self->fd, self->buf, MiB));
	ASSERT_EQ(0, heat(self->fd, &info, 0));
	writes = info.num_writes;

	/* A value for a flag option is refused and changes nothing. */
	EXPECT_EQ(-1, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track=1"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, heat(self->fd, &info, 0));
	EXPECT_EQ(writes, info.num_writes);

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

/*
 * The hot_track_mem= value that /proc/mounts shows for @dir: bytes, 0 if
 * none, -1 if @dir is not a mount point.
 */
static long long shown_mem(const char *dir)
{
	char line[4096], mnt[PATH_MAX], opts[2048], *p;
	FILE *f = fopen("/proc/mounts", "r");
	long long found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %4095s %*s %2047s", mnt, opts) == 2 &&
		    !strcmp(mnt, dir)) {
			p = strstr(opts, "hot_track_mem=");
			found = p ? atoll(p + strlen("hot_track_mem=")) : 0;
		}
	fclose(f);
	return found;
}

/*
 * hot_track_mem= caps the items of one superblock below the sysctl; a bad
 * value is refused and changes nothing; 0 follows the sysctl again, and
 * nohot_track forgets the cap.  Needs HOT_TRACK_DIR to be the root of its
 * mount.
 */
TEST_F_TIMEOUT(hot, mem_mount_option, WORKER_TIMEOUT)
{
	static const char * const bad[] = {
		"hot_track_mem=4095", "hot_track_mem=1x", "hot_track_mem=",
		"hot_track_mem=-4096", "hot_track_mem=9223372036854775808",
		"hot_track_mem=18446744073709551616", "hot_track_mem=16E",
		"nohot_track,hot_track_mem=1M",
	};
	const char *dir = getenv("HOT_TRACK_DIR");
	long long sysmax = sysctl_read(sysctls[2]), cap = 4096, over, mem;
	struct statvfs sv;
	struct stat st;
	int i, dfd;

	if (shown_mem(dir) < 0)
		SKIP(return, "%s is not a mount point", dir);
	if (no_worker_tests())
		SKIP(return, "%s", no_worker_tests());
	ASSERT_EQ(0, shown_mem(dir));
	ASSERT_EQ(sysmax, stats_value("mem_max"));
	self->mem_opt = true;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-1, mount(NULL, dir, NULL, MS_REMOUNT, bad[i]))
			TH_LOG("%s was taken", bad[i]);
		EXPECT_EQ(EINVAL, errno);
		EXPECT_EQ(1, shows_hot_track(dir));
		EXPECT_EQ(0, shown_mem(dir));
		EXPECT_EQ(sysmax, stats_value("mem_max"));
	}

	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track_mem=4k"));
	EXPECT_EQ(cap, shown_mem(dir));
	EXPECT_EQ(cap, stats_value("mem_max"));
	EXPECT_EQ(sysmax, sysctl_read(sysctls[2]));
	/* 4 KiB in each range of a 128 MiB file: more than 4 KiB of items. */
	over = stats_value("over_cap");
	ASSERT_EQ(0, fstat(self->fd, &st));
	dfd = open(self->path, O_RDWR | O_DIRECT);
	ASSERT_LE(0, dfd);
	for (i = 0; i < 128; i++)
		ASSERT_EQ(PG, pwrite(dfd, self->buf, PG, i * MiB));
	close(dfd);
	ASSERT_EQ(0, wait_until(mem_capped, &cap, PASS_WAIT));
	mem = stats_value("mem");
	EXPECT_LE(0, mem);
	EXPECT_GE(cap, mem);
	EXPECT_LT(over, stats_value("over_cap"));
	EXPECT_GT(64, debugfs_count_ranges(st.st_ino));

	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track_mem=0"));
	EXPECT_EQ(0, shown_mem(dir));
	EXPECT_EQ(sysmax, stats_value("mem_max"));

	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track_mem=1M"));
	EXPECT_EQ(MiB, shown_mem(dir));
	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "nohot_track"));
	EXPECT_EQ(0, shown_mem(dir));
	/*
	 * Refused before anything changes: the mount stays writable.  No
	 * file may be open for writing, or the VFS refuses ro (EBUSY) first.
	 */
	close(self->fd);
	self->fd = -1;
	unlink(self->path);
	EXPECT_EQ(-1, mount(NULL, dir, NULL, MS_REMOUNT | MS_RDONLY,
			    "hot_track_mem=1M"));
	EXPECT_EQ(EINVAL, errno);
	ASSERT_EQ(0, statvfs(dir, &sv));
	EXPECT_EQ(0, sv.f_flag & ST_RDONLY);
	EXPECT_EQ(0, shows_hot_track(dir));
	ASSERT_EQ(0, mount(NULL, dir, NULL, MS_REMOUNT, "hot_track"));
	EXPECT_EQ(0, shown_mem(dir));
	EXPECT_EQ(sysmax, stats_value("mem_max"));
	self->mem_opt = false;
}

TEST_HARNESS_MAIN
