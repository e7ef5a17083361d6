/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hot data tracking: what the core shares with its user interfaces.
 */
#ifndef _FS_HOT_TRACKING_H
#define _FS_HOT_TRACKING_H

#include <linux/hot_tracking.h>

/* Defaults of the sysctls, in seconds. */
#define HOT_KICK_TIME_DEFAULT		300
#define HOT_UPDATE_DELAY_DEFAULT	10

extern unsigned int sysctl_hot_kick_time;
extern unsigned int sysctl_hot_update_delay;
extern unsigned long sysctl_hot_mem_max;

/* The smallest cap of a superblock's items, bytes: sysctl and mount option. */
#define HOT_MEM_MAX_MIN			4096

void hot_track_update_delay_changed(void);
unsigned long hot_track_pcp_mem(void);
void hot_track_drain(struct hot_info *hi);

typedef void (*hot_walk_fn)(void *arg, const struct hot_inode_key *key,
			    unsigned long index, const struct hot_freq *freq,
			    u32 temp);

void hot_track_walk(struct hot_info *hi, bool ranges, hot_walk_fn fn,
		    void *arg);
void hot_track_spot(struct hot_info *hi, bool ranges, unsigned int max,
		    hot_walk_fn fn, void *arg);

#ifdef CONFIG_DEBUG_FS
void hot_track_debugfs_add(struct hot_info *hi);
void hot_track_debugfs_remove(struct hot_info *hi);
#else
static inline void hot_track_debugfs_add(struct hot_info *hi) {}
static inline void hot_track_debugfs_remove(struct hot_info *hi) {}
#endif

#endif /* _FS_HOT_TRACKING_H */
