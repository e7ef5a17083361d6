// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: debugfs dumps of every item, for root.
 *
 *   /sys/kernel/debug/hot_track/<s_id>/inode_stat	every inode item
 *   /sys/kernel/debug/hot_track/<s_id>/range_stat	every range item
 *   /sys/kernel/debug/hot_track/<s_id>/inode_spot	the hottest inodes
 *   /sys/kernel/debug/hot_track/<s_id>/range_spot	the hottest ranges
 *   /sys/kernel/debug/hot_track/<s_id>/stats		counts and memory
 *
 * Formats are in Documentation/filesystems/hot_tracking.rst.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/hot_tracking.h>
#include <linux/init.h>
#include <linux/ktime.h>
#include <linux/seq_file.h>

#include "hot_tracking.h"

/* Lines in a spot list at most. */
#define HOT_SPOT_MAX	100

static struct dentry *hot_debugfs_root;

static void hot_inode_stat_one(void *arg, const struct hot_inode_key *key,
			       unsigned long index, const struct hot_freq *freq,
			       u32 temp)
{
	struct seq_file *m = arg;

	seq_printf(m, "%llu %llu %u %u %u\n", key->ino, key->root,
		   freq->nr_reads, freq->nr_writes, temp);
}

static void hot_range_stat_one(void *arg, const struct hot_inode_key *key,
			       unsigned long index, const struct hot_freq *freq,
			       u32 temp)
{
	struct seq_file *m = arg;

	seq_printf(m, "%llu %llu %llu %llu %u %u %u\n", key->ino, key->root,
		   (u64)index << HOT_RANGE_SHIFT, HOT_RANGE_SIZE,
		   freq->nr_reads, freq->nr_writes, temp);
}

static int hot_inode_stat_show(struct seq_file *m, void *v)
{
	hot_track_walk(m->private, false, hot_inode_stat_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hot_inode_stat);

static int hot_range_stat_show(struct seq_file *m, void *v)
{
	hot_track_walk(m->private, true, hot_range_stat_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hot_range_stat);

static int hot_inode_spot_show(struct seq_file *m, void *v)
{
	hot_track_drain(m->private);
	hot_track_spot(m->private, false, HOT_SPOT_MAX, hot_inode_stat_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hot_inode_spot);

static int hot_range_spot_show(struct seq_file *m, void *v)
{
	hot_track_drain(m->private);
	hot_track_spot(m->private, true, HOT_SPOT_MAX, hot_range_stat_one, m);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hot_range_spot);

static int hot_stats_show(struct seq_file *m, void *v)
{
	struct hot_info *hi = m->private;

	seq_printf(m, "inodes %ld\nranges %ld\nmem %ld\nover_cap %lld\npasses %lu\n",
		   atomic_long_read(&hi->nr_inodes),
		   atomic_long_read(&hi->nr_ranges),
		   atomic_long_read(&hi->mem),
		   percpu_counter_sum_positive(&hi->nr_over_cap),
		   READ_ONCE(hi->nr_passes));
	seq_printf(m, "mem_max %lu\npcp_mem %lu\npasses_begun %lu\nindex_mem %ld\n",
		   READ_ONCE(hi->mem_max) ?: READ_ONCE(sysctl_hot_mem_max),
		   hot_track_pcp_mem(), READ_ONCE(hi->nr_folds),
		   atomic_long_read(&hi->index_mem));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(hot_stats);

/**
 * hot_track_debugfs_add() - give a superblock its debugfs directory
 * @hi: the superblock's tracking state.
 *
 * A failure only leaves the superblock without dumps.
 *
 * Context: process context.
 */
void hot_track_debugfs_add(struct hot_info *hi)
{
	struct dentry *dir;

	if (IS_ERR_OR_NULL(hot_debugfs_root))
		return;
	dir = debugfs_create_dir(hi->sb->s_id, hot_debugfs_root);
	if (IS_ERR(dir))
		return;
	hi->debugfs_dir = dir;
	debugfs_create_file("inode_stat", 0400, dir, hi, &hot_inode_stat_fops);
	debugfs_create_file("range_stat", 0400, dir, hi, &hot_range_stat_fops);
	debugfs_create_file("inode_spot", 0400, dir, hi, &hot_inode_spot_fops);
	debugfs_create_file("range_spot", 0400, dir, hi, &hot_range_spot_fops);
	debugfs_create_file("stats", 0400, dir, hi, &hot_stats_fops);
}

/**
 * hot_track_debugfs_remove() - remove a superblock's debugfs directory
 * @hi: the superblock's tracking state.
 *
 * Waits for readers of its files to finish; later reads fail with EIO.
 *
 * Context: process context, may sleep.
 */
void hot_track_debugfs_remove(struct hot_info *hi)
{
	debugfs_remove(hi->debugfs_dir);
	hi->debugfs_dir = NULL;
}

static int __init hot_track_debugfs_init(void)
{
	hot_debugfs_root = debugfs_create_dir("hot_track", NULL);
	return 0;
}
fs_initcall(hot_track_debugfs_init);
