// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: the FS_IOC_GET_HEAT_INFO ioctl.
 */

#include <linux/fs.h>
#include <linux/hot_tracking.h>
#include <linux/string.h>
#include <linux/uaccess.h>

/**
 * hot_track_ioctl_get_heat_info() - FS_IOC_GET_HEAT_INFO
 * @file: the file asked about; any open file will do.
 * @uinfo: the user's &struct hot_heat_info.
 *
 * Context: process context.
 * Return: 0 with *@uinfo filled; -EFAULT if @uinfo cannot be read or
 * written; -EINVAL if a reserved field is not zero or live is neither 0
 * nor 1; -EOPNOTSUPP if the filesystem does not track hot data; -ENOTTY if
 * @file is not a regular file; -ENODATA if nothing of it was read from or
 * written to disk while tracking was on.
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
	ret = hot_track_get_freq(inode, &freq, info.live, &info.temp);
	if (ret)
		return ret;

	info.avg_delta_reads = hot_gap_ns(freq.avg_delta_reads);
	info.avg_delta_writes = hot_gap_ns(freq.avg_delta_writes);
	info.last_read_time = freq.last_read_time;
	info.last_write_time = freq.last_write_time;
	info.num_reads = freq.nr_reads;
	info.num_writes = freq.nr_writes;
	if (copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}
