// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: sysctls, in /proc/sys/fs/.
 *
 *   hot-kick-time        seconds without access after which an item is
 *                        dropped (1 to 604800, default 300)
 *   hot-update-delay     seconds between two update passes (1 to 3600,
 *                        default 10); a new value applies from the next pass
 *   hot-mem-high-thresh  bytes of items each superblock may keep before
 *                        the update worker frees the coldest (0: no cap)
 *
 * A value out of range is refused with EINVAL and the old one kept.
 */

#include <linux/init.h>
#include <linux/sysctl.h>

#include "hot_tracking.h"

static unsigned int hot_kick_time_min = 1;
static unsigned int hot_kick_time_max = 7 * 24 * 3600;
static unsigned int hot_update_delay_min = 1;
static unsigned int hot_update_delay_max = 3600;
static unsigned long hot_mem_thresh_min;
static unsigned long hot_mem_thresh_max = LONG_MAX;

static const struct ctl_table hot_track_sysctls[] = {
	{
		.procname	= "hot-kick-time",
		.data		= &sysctl_hot_kick_time,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &hot_kick_time_min,
		.extra2		= &hot_kick_time_max,
	},
	{
		.procname	= "hot-update-delay",
		.data		= &sysctl_hot_update_delay,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec_minmax,
		.extra1		= &hot_update_delay_min,
		.extra2		= &hot_update_delay_max,
	},
	{
		.procname	= "hot-mem-high-thresh",
		.data		= &sysctl_hot_mem_high_thresh,
		.maxlen		= sizeof(unsigned long),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
		.extra1		= &hot_mem_thresh_min,
		.extra2		= &hot_mem_thresh_max,
	},
};

static int __init hot_track_sysctl_init(void)
{
	register_sysctl_init("fs", hot_track_sysctls);
	return 0;
}
fs_initcall(hot_track_sysctl_init);
