// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: the FS_IOC_GET_HEAT_INFO ioctl.
 */

#include <linux/fs.h>
#include <linux/hot_tracking.h>
#include <linux/string.h>
#include <linux/time_namespace.h>
#include <linux/uaccess.h>

/*
 * Who may read the heat of a file: one who opened it for writing, its owner
 * (or one with CAP_FOWNER over it), and one who may write it, as for
 * mincore() on a file mapping since 2019.  The counts and times of disk I/O
 * tell when other users read or wrote a file; any reader of a shared
 * library or of a group-readable file must not learn that.
 */
static bool hot_heat_may_read(struct file *file)
{
	return (file->f_mode & FMODE_WRITE) || file_owner_or_capable(file) ||
	       file_permission(file, MAY_WRITE) == 0;
}

/*
 * A time of the I/O hooks, in the caller's time namespace.  0 (never) stays
 * 0; a time before the namespace's clock began (a negative offset) is given
 * as 1 ns, as early as can be.
 */
static u64 hot_time_for_user(u64 ns)
{
	struct timespec64 ts;
	s64 t;

	if (!ns)
		return 0;
	ts = ns_to_timespec64(ns);
	timens_add_monotonic(&ts);
	t = timespec64_to_ns(&ts);
	return t > 0 ? t : 1;
}

/**
 * hot_track_ioctl_get_heat_info() - FS_IOC_GET_HEAT_INFO
 * @file: the file asked about, open for reading or writing.
 * @uinfo: the user's &struct hot_heat_info.
 *
 * Times are given in CLOCK_MONOTONIC of the caller's time namespace.
 *
 * Context: process context.
 * Return: 0 with *@uinfo filled; -EFAULT if @uinfo cannot be read or
 * written; -EINVAL if a reserved field is not zero or live is neither 0
 * nor 1; -EOPNOTSUPP if the filesystem does not track hot data; -ENOTTY if
 * @file is not a regular file; -EPERM if the caller neither owns the file
 * nor may write it; -ENODATA if nothing of it was read from or written to
 * disk while tracking was on.
 */
long hot_track_ioctl_get_heat_info(struct file *file,
				   struct hot_heat_info __user *uinfo)
{
	struct inode *inode = file_inode(file);
	struct hot_heat_info info;
	struct hot_freq freq;
	int ret;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if (info.live > 1 || memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;
	if (!hot_track_enabled(inode->i_sb))
		return -EOPNOTSUPP;
	if (!S_ISREG(inode->i_mode))
		return -ENOTTY;
	if (!hot_heat_may_read(file))
		return -EPERM;
	ret = hot_track_get_freq(inode, &freq, info.live, &info.temp);
	if (ret)
		return ret;

	info.avg_delta_reads = hot_gap_ns(freq.avg_delta_reads);
	info.avg_delta_writes = hot_gap_ns(freq.avg_delta_writes);
	info.last_read_time = hot_time_for_user(freq.last_read_time);
	info.last_write_time = hot_time_for_user(freq.last_write_time);
	info.num_reads = freq.nr_reads;
	info.num_writes = freq.nr_writes;
	if (copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
