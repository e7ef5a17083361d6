/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hot relocation: hot data to non-rotational devices, cold data back.
 */
#ifndef BTRFS_HOT_MOVE_H
#define BTRFS_HOT_MOVE_H

#include <linux/atomic.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct btrfs_fs_info;

/* Defaults and bounds of the tunables (/sys/fs/btrfs/<uuid>/hot_move/). */
#define BTRFS_HOT_MOVE_PROMOTE_TEMP	0x82000000U
#define BTRFS_HOT_MOVE_DEMOTE_TEMP	0x68000000U
#define BTRFS_HOT_MOVE_INTERVAL		30
#define BTRFS_HOT_MOVE_INTERVAL_MAX	3600
#define BTRFS_HOT_MOVE_HIGH_WM		90
#define BTRFS_HOT_MOVE_LOW_WM		75
#define BTRFS_HOT_MOVE_BATCH_BYTES	SZ_64M
#define BTRFS_HOT_MOVE_BATCH_BYTES_MAX	SZ_4G

/**
 * struct btrfs_hot_move_fill - the free data space at one moment
 * @time: when, in ns of ktime_get_ns().
 * @free: free data space then, in bytes.
 * @moved: bytes relocation had moved by then (promoted and demoted).
 */
struct btrfs_hot_move_fill {
	u64 time;
	u64 free;
	u64 moved;
};

/**
 * struct btrfs_hot_move - hot relocation state of a filesystem
 * @wq: the workqueue @work runs on (ordered, not freezable), from
 *	btrfs_init_workqueues() to btrfs_stop_all_workers().
 * @work: the relocation work item; runs every @interval seconds while the
 *	filesystem is mounted read-write with hot_move.
 * @lock: serialises the stores of the tunables, which must stay ordered.
 * @stopped: set while the work item must not run or requeue itself.
 * @active: both device classes are present and writeable, so data
 *	allocations prefer rotational devices; updated by each run.
 * @promote_temp: ranges at or above this temperature (hot_track units)
 *	move to non-rotational devices.
 * @demote_temp: ranges below it may move back when the fast devices fill;
 *	less than @promote_temp.
 * @interval: seconds between two runs, 1 to %BTRFS_HOT_MOVE_INTERVAL_MAX.
 * @high_wm: percentage of the fast devices' data capacity above which
 *	cold data moves back, and up to which hot data moves there.
 * @low_wm: percentage demotion brings the usage back under, and promotion
 *	of warm ranges fills it up to; < @high_wm; 0 demotes every cold
 *	range and promotes no warm one.
 * @batch_bytes: bytes moved per run and direction at most.
 * @move_shared: also move extents shared with other files or snapshots.
 * @demote_cursor: logical address the next scan for cold extents starts
 *	at; only the work item uses it.
 * @full_used: data usage of the fast devices, in bytes, when a promotion
 *	last fell back to rotational ones; promotion waits until usage is a
 *	batch below it, or until @retry_at.  0 when it did not; only the
 *	work item uses it.
 * @retry_at: when promotion tries again after a fallback, in ns of
 *	ktime_get_ns(); only the work item uses it.
 * @backoff: runs (intervals) between that fallback and @retry_at: 1 after
 *	a first fallback, doubled after each that follows a retry, up to
 *	%HOT_MOVE_BACKOFF_MAX; 0 once a promotion run moved data without a
 *	fallback.  Only the work item uses it.
 * @profile_idle: relocation is idle because the devices of one class
 *	cannot hold a chunk of the data profile (logged once when it
 *	begins); only the work item uses it.
 * @fill: the free space at two moments, to tell whether users are filling
 *	the filesystem: @fill[0] starts the window hot_move_filling()
 *	measures over, @fill[1] is the next start; only the work item and
 *	btrfs_hot_move_update() use them, never at the same time.
 * @runs: runs of the work item that found both device classes.
 * @promoted: bytes moved to non-rotational devices.
 * @demoted: bytes moved to rotational devices.
 * @fallback: bytes that promotion asked the non-rotational devices for and
 *	the allocator placed on rotational ones, for lack of room; counted by
 *	find_free_extent(), the signal that the fast devices are full.
 * @rot_fallback: the same for rotational devices, asked for by demotion
 *	and by user writes alike while relocation is active: growing during
 *	a demotion, it tells that the slow devices are full.
 * @skipped_shared: bytes of shared extents left in place.
 * @fill_pauses: runs paused, or stopped early, because users were filling
 *	the filesystem.
 * @ssd_used: bytes used in non-rotational data block groups, last run.
 * @ssd_total: their capacity: those block groups and the unallocated
 *	space of non-rotational devices but their room for metadata, in
 *	bytes, last run.
 * @meta_reserve: that room, per non-rotational device, in bytes, last run
 *	(btrfs_nonrot_meta_reserve()).
 * @errors: errors relocation met (a range it could not move, a scan that
 *	failed), each also logged, ratelimited.
 * @last_error: the errno of the last of them (positive), 0 if none.
 * @warm_pass: the update pass (hot_track_count_temp()) whose warm ranges
 *	@warm[1] holds.
 * @warm: the warm ranges promotion found, as hashes (hot_move_warm_find()):
 *	[1] at the pass of @warm_pass, [0] at an earlier one, by the run
 *	before.  A warm range is promoted only if found at both: one burst of
 *	reads is warm for one pass only.  Allocated by the first run that
 *	looks for warm ranges, freed by btrfs_hot_move_stop(); only the work
 *	item uses them.
 * @warm_nr: the hashes in @warm[1].
 */
struct btrfs_hot_move {
	struct workqueue_struct *wq;
	struct delayed_work work;
	struct mutex lock;	/* tunable stores, @stopped */
	bool stopped;
	bool active;
	u32 promote_temp;
	u32 demote_temp;
	u32 interval;
	u32 high_wm;
	u32 low_wm;
	u64 batch_bytes;
	bool move_shared;
	u64 demote_cursor;
	u64 full_used;
	u64 retry_at;
	u32 backoff;
	bool profile_idle;
	struct btrfs_hot_move_fill fill[2];
	atomic64_t runs;
	atomic64_t promoted;
	atomic64_t demoted;
	atomic64_t fallback;
	atomic64_t rot_fallback;
	atomic64_t skipped_shared;
	atomic64_t fill_pauses;
	atomic64_t ssd_used;
	atomic64_t ssd_total;
	atomic64_t meta_reserve;
	atomic64_t errors;
	int last_error;
	u64 warm_pass;
	u64 *warm[2];
	unsigned int warm_nr;
};

void btrfs_hot_move_init(struct btrfs_fs_info *fs_info);
void btrfs_hot_move_update(struct btrfs_fs_info *fs_info);
void btrfs_hot_move_stop(struct btrfs_fs_info *fs_info);
void btrfs_hot_move_kick(struct btrfs_fs_info *fs_info);

#endif
