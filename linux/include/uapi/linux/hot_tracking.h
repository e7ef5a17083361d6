/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Hot data tracking: the user interface.
 *
 * See Documentation/filesystems/hot_tracking.rst.
 */
#ifndef _UAPI_LINUX_HOT_TRACKING_H
#define _UAPI_LINUX_HOT_TRACKING_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct hot_heat_info - the heat of a file, for %FS_IOC_GET_HEAT_INFO
 * @avg_delta_reads: out: weighted average time between two reads from
 *	disk, in ns; it starts at one second (the gap assumed before the
 *	first read) and moves 1/16 of the way to each gap seen.
 * @avg_delta_writes: out: the same for writes to disk, in ns.
 * @last_read_time: out: time of the last read from disk, in ns of
 *	CLOCK_MONOTONIC as the caller's clock_gettime() gives it (in its
 *	time namespace); 0 if never.
 * @last_write_time: out: time of the last write to disk, the same way.
 * @num_reads: out: reads from disk; saturates at 2^32 - 1.
 * @num_writes: out: writes to disk; saturates at 2^32 - 1.
 * @temp: out: the temperature: as of the last update pass, or as of now
 *	if @live is set.
 * @live: in: 1 to compute @temp now, 0 for the last update pass's value.
 * @reserved: in: must be zero; out: zero.
 */
struct hot_heat_info {
	__u64 avg_delta_reads;
	__u64 avg_delta_writes;
	__u64 last_read_time;
	__u64 last_write_time;
	__u32 num_reads;
	__u32 num_writes;
	__u32 temp;
	__u32 live;
	__u64 reserved[4];
};

/*
 * Fill a struct hot_heat_info for the file of the descriptor.  The caller
 * must own the file or be allowed to write it (as for mincore()).  Errors:
 * EFAULT (bad pointer), EINVAL (reserved fields not zero or @live not 0 or
 * 1), EOPNOTSUPP (hot data tracking is off for this filesystem), ENOTTY (not
 * a regular file), EPERM (the caller neither owns the file nor may write
 * it), ENODATA (no data of the file was read from or written to disk since
 * tracking began, or its heat was forgotten).  An O_PATH descriptor gets
 * EBADF, as for every ioctl.
 */
#define FS_IOC_GET_HEAT_INFO	_IOWR('f', 0x60, struct hot_heat_info)

#endif /* _UAPI_LINUX_HOT_TRACKING_H */
