// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: sysctls, in /proc/sys/fs/.
 *
 *   hot-kick-time        seconds without access after which an item is
 *                        dropped (1 to 604800, default 300)
 *   hot-update-delay     seconds between two update passes (1 to 3600,
 *                        default 10); a new value applies at once
 *   hot-mem-max-bytes    bytes each superblock's items may use (4096 to
 *                        LONG_MAX, default 1/256 of RAM, at least 1 MiB)
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
static unsigned long hot_mem_max_min = HOT_MEM_MAX_MIN;
static unsigned long hot_mem_max_max = LONG_MAX;

/* A new delay applies at once, not after the pass already waiting. */
static int hot_update_delay_handler(const struct ctl_table *table, int write,
				    void *buffer, size_t *lenp, loff_t *ppos)
{
	int ret = proc_douintvec_minmax(table, write, buffer, lenp, ppos);

	if (!ret && write)
		hot_track_update_delay_changed();
	return ret;
}

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
		.proc_handler	= hot_update_delay_handler,
		.extra1		= &hot_update_delay_min,
		.extra2		= &hot_update_delay_max,
	},
	{
		.procname	= "hot-mem-max-bytes",
		.data		= &sysctl_hot_mem_max,
		.maxlen		= sizeof(unsigned long),
		.mode		= 0644,
		.proc_handler	= proc_doulongvec_minmax,
		.extra1		= &hot_mem_max_min,
		.extra2		= &hot_mem_max_max,
	},
};

static int __init hot_track_sysctl_init(void)
{
	register_sysctl_init("fs", hot_track_sysctls);
	return 0;
}
fs_initcall(hot_track_sysctl_init);
