// SPDX-License-Identifier: GPL-2.0
/*
 * hot_heat: print the heat of files, as hot data tracking records it.
 *
 *   hot_heat [-l] FILE...
 *
 * For each file: reads and writes that went to disk, the average gap
 * between them, how long ago the last one was, and the temperature (-l:
 * computed now instead of at the last update pass).  Uses the
 * FS_IOC_GET_HEAT_INFO ioctl; see Documentation/filesystems/hot_tracking.rst.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include <linux/hot_tracking.h>

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

int main(int argc, char **argv)
{
	int live = 0, opt, ret = 0;

	while ((opt = getopt(argc, argv, "lh")) != -1) {
		switch (opt) {
		case 'l':
			live = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-l] FILE...\n", argv[0]);
			return opt == 'h' ? 0 : 2;
		}
	}
	if (optind == argc) {
		fprintf(stderr, "usage: %s [-l] FILE...\n", argv[0]);
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
