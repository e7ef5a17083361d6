/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hot data tracking: how often the data of a file is read from and written
 * to disk, per inode and per 1 MiB range.
 *
 * See Documentation/filesystems/hot_tracking.rst.
 */
#ifndef _LINUX_HOT_TRACKING_H
#define _LINUX_HOT_TRACKING_H

#include <linux/bits.h>
#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/jump_label.h>
#include <linux/percpu_counter.h>
#include <linux/rcupdate.h>
#include <linux/seqlock.h>
#include <linux/spinlock.h>
#include <linux/timekeeping.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include <uapi/linux/hot_tracking.h>

/* Ranges are 1 MiB, aligned to a multiple of their size in the file. */
#define HOT_RANGE_SHIFT		20
#define HOT_RANGE_SIZE		BIT_ULL(HOT_RANGE_SHIFT)

/* Heat maps: items by the top byte of their temperature. */
#define HOT_MAP_BUCKETS		256
#define HOT_MAP_SHIFT		24

/*
 * The clock of hot data tracking runs %HOT_CLOCK_BIAS ns (about 13 days,
 * more than the longest hot-kick-time) ahead of CLOCK_MONOTONIC, so that
 * the time of an access from before boot, which loaded heat brings, is
 * still a time after 0 (never).
 */
#define HOT_CLOCK_BIAS		BIT_ULL(50)

/**
 * hot_clock_ns() - the time of hot data tracking
 *
 * Context: any but NMI.
 * Return: ktime_get_ns() plus %HOT_CLOCK_BIAS, in ns.
 */
static inline u64 hot_clock_ns(void)
{
	return ktime_get_ns() + HOT_CLOCK_BIAS;
}

/**
 * hot_clock_coarse_ns() - the time of hot data tracking, to the tick
 *
 * The time of the last timekeeping update (normally the last tick) on the
 * clock of hot_clock_ns(): never later than hot_clock_ns(), and cheaper to
 * read.
 *
 * Context: any but NMI.
 * Return: ktime_get_coarse_ns() plus %HOT_CLOCK_BIAS, in ns.
 */
static inline u64 hot_clock_coarse_ns(void)
{
	return ktime_get_coarse_ns() + HOT_CLOCK_BIAS;
}

/* Range numbers are 32 bits: ranges past 4 PiB into a file are not tracked. */
#define HOT_RANGE_INDEX_MAX	U32_MAX

/**
 * struct hot_freq - access history of an inode or of a range
 * @last_read_time: when data was last read from disk, in ns of
 *	hot_clock_ns(); 0 if never.  A read counted by the I/O hooks is
 *	stamped to the tick (hot_clock_coarse_ns()).
 * @last_write_time: when data was last written to disk, in ns; 0 if
 *	never.  Likewise to the tick, but for writeback.
 * @nr_reads: reads from disk; saturates at U32_MAX instead of wrapping.
 * @nr_writes: writes to disk; saturates at U32_MAX.
 * @score: reads and writes per update pass, decayed by half at each pass,
 *	with 8 bits of fraction; saturates at U32_MAX.  Written by the update
 *	pass, which adds @pending to it.
 * @pending: reads and writes counted since the last update pass;
 *	saturates at U32_MAX.
 *
 * An item's frequency data is protected by the xa_lock of the range
 * xarray of the inode item it belongs to (&hot_inode_item.ranges).
 */
struct hot_freq {
	u64 last_read_time;
	u64 last_write_time;
	u32 nr_reads;
	u32 nr_writes;
	u32 score;
	u32 pending;
};

/**
 * struct hot_range_item - frequency data of one range of a file
 * @freq: frequency data of the range.
 * @index: range number in the file: the range covers the bytes from
 *	@index << %HOT_RANGE_SHIFT for %HOT_RANGE_SIZE bytes.
 * @temp: temperature computed by the last update pass, 0 before the first;
 *	under &hot_info.map_lock.
 * @hot_inode: the inode item the range belongs to.
 * @track_list: link in a &hot_info.range_map bucket, under
 *	&hot_info.map_lock; empty until the first update pass.
 * @rcu: frees the item after an RCU grace period.  Shares space with
 *	@track_list: an item leaves its heat map, under &hot_info.map_lock,
 *	before it is queued for freeing, and only holders of that lock walk
 *	the maps.
 *
 * One exists for every range read or written, so it is kept to 64 bytes on
 * 64-bit machines.
 */
struct hot_range_item {
	struct hot_freq freq;
	u32 index;
	u32 temp;
	struct hot_inode_item *hot_inode;
	union {
		struct list_head track_list;
		struct rcu_head rcu;
	};
};

/**
 * struct hot_inode_key - what identifies a file in a superblock
 * @root: the part of the filesystem its inode number belongs to, for
 *	filesystems whose inode numbers are unique only within a part (btrfs
 *	subvolumes); 0 for the others.
 * @ino: the inode number.
 */
struct hot_inode_key {
	u64 root;
	u64 ino;
};

/**
 * struct hot_inode_item - frequency data of one regular file
 * @freq: frequency data of the whole file.
 * @ranges: the file's &struct hot_range_item, indexed by range number.  Its
 *	xa_lock is the item lock: it protects @freq, the ranges' frequency
 *	data and @dead.
 * @key: the file's key in the inode index (&hot_info.roots).  The item
 *	outlives the in-memory inode, whose eviction from the inode cache
 *	does not make its data any colder; it goes when the file is deleted.
 * @wb_start: when the current writeback pass over the file began, in ns;
 *	a pass counts one write per range and one for the inode: those whose
 *	last write is older.
 * @temp: as &hot_range_item.temp; may be read without the lock with
 *	READ_ONCE().
 * @muted: one more than the number of the range whose I/O is not counted
 *	(see hot_track_mute_range()), 0 if none is; under the item lock.
 * @nr_groups: groups of 64 consecutive ranges that hold a range item, 0
 *	exactly when the item has no range (@ranges may still hold an empty
 *	node, which an insertion that failed half-way can leave); under the
 *	item lock.
 * @nr_nodes: the leaf nodes of @ranges counted in &hot_info.mem: @nr_groups,
 *	or none while range 0 alone is in the xarray's head; under the item
 *	lock.
 * @generation: the file's generation (&inode.i_generation) when the item
 *	was made: with @key it names the file across umounts and reboots.
 * @dead: set once the item left the inode index; no range is added after.
 * @folded: the number, 1 to 255 (&hot_info.nr_folds % 255 + 1), of the
 *	update pass that last added the pending accesses of the item and its
 *	ranges to their scores, 0 before any; under &hot_info.map_lock.  A
 *	pass that meets the item twice folds once.
 * @track_list: link in a &hot_info.inode_map bucket, under
 *	&hot_info.map_lock; empty until the first update pass.
 * @rcu: frees the item after an RCU grace period; shares space with
 *	@track_list, as in &struct hot_range_item.  A deleted file's item,
 *	dead, is linked by @track_list in &hot_info.dead_items instead, until
 *	&hot_info.free_work frees it.
 */
struct hot_inode_item {
	struct hot_freq freq;
	struct xarray ranges;
	struct hot_inode_key key;
	u64 wb_start;
	u32 temp;
	u32 muted;
	u32 nr_groups;
	u32 nr_nodes;
	u32 generation;
	bool dead;
	u8 folded;
	union {
		struct list_head track_list;
		struct rcu_head rcu;
	};
};

/**
 * struct hot_type - what a filesystem tells hot data tracking
 * @inode_root: whether the I/O of a regular file is tracked and, if so, its
 *	&hot_inode_key.root in @root.  Returns false for the filesystem's
 *	internal files (btrfs's data relocation and free space cache inodes),
 *	whose I/O is the filesystem's own: they never get an item.  NULL if
 *	every regular file is tracked and inode numbers are unique in the
 *	superblock.  Must give the same answer for an inode's whole life.
 *	Called wherever an inode's item is looked up: in the I/O path, with
 *	interrupts possibly disabled, and at eviction; must not sleep.
 *
 * A filesystem passes one to hot_track_mount_opt(), or NULL; it must
 * outlive the superblock's tracking.  Every operation is optional.
 */
struct hot_type {
	bool (*inode_root)(const struct inode *inode, u64 *root);
};

struct hot_pcp;

/**
 * struct hot_pass - an update pass, as temperatures between passes see it
 * @time: when it began, in ns of hot_clock_ns().
 * @delay: hot-update-delay when it began, in ns: the time until the next
 *	pass, over which a score decays between passes.
 * @len: the time the pass counted accesses over, in ns: from the pass
 *	before to this one, within 1 ms and 2^44 ns (hot-update-delay before
 *	the first pass).  Scores are accesses per @len.
 *
 * Written by the update pass (hot_update_all()) with WRITE_ONCE() and read
 * with READ_ONCE() without a lock: a reader that sees fields of two passes,
 * or on 32-bit a field torn between them, only computes a temperature a
 * little off (the reader keeps @len within its bounds).
 */
struct hot_pass {
	u64 time;
	u64 delay;
	u64 len;
};

/**
 * struct hot_index_nodes - the nodes of an xarray of the inode index that
 *	&hot_info.mem counts
 * @groups: groups of indexes that hold an entry, at every level: groups of
 *	64, 64^2, and so on up to one of every index (XA_CHUNK_SHIFT bits a
 *	level), however many levels the xarray has.
 * @spare: nodes counted for insertions that failed for want of memory, as
 *	many as each may have left without an entry, up to a bound, until the
 *	xarray goes.
 * @nodes: the nodes counted: @groups less the levels above the xarray's
 *	height, whose one group each has no node, and @spare; exact but for
 *	what failed insertions left, which @spare counts up to its bound.
 *
 * Under the lock of the xarray counted.
 */
struct hot_index_nodes {
	unsigned long groups;
	unsigned long spare;
	unsigned long nodes;
};

/**
 * struct hot_root - the inode items of one root of a superblock
 * @inodes: the &struct hot_inode_item of the root, by inode number.  Its
 *	xa_lock is the index lock.
 * @nodes: the nodes of @inodes counted in &hot_info.mem.
 * @id: &hot_inode_key.root of the items: 0 on filesystems without roots;
 *	a btrfs subvolume's objectid.
 * @dead: set, under the index lock, when the last item of the root left it
 *	(or the one it was made for did not join it); the root then leaves
 *	&hot_info.roots and is freed after a grace period, and one that wants
 *	to add an item makes a new root.
 * @rcu: frees the root after an RCU grace period.
 */
struct hot_root {
	struct xarray inodes;
	struct hot_index_nodes nodes;
	u64 id;
	bool dead;
	struct rcu_head rcu;
};

/**
 * struct hot_info - hot data tracking state of one superblock
 * @sb: the superblock.
 * @type: what the filesystem tells hot data tracking, or NULL.
 * @roots: the inode index: &struct hot_root by id (&hot_inode_key.root; 0,
 *	the only one, on filesystems without roots, &hot_type.inode_root).
 *	Its lock is taken after an index lock is let go (see
 *	fs/hot_tracking.c).
 * @root0: root 0 of @roots, or NULL, for lookups without a walk of it;
 *	set and cleared under its lock.
 * @root_nodes: the nodes of @roots counted in @mem; under its lock.
 * @index_mem: the bytes of @mem that the inode index takes: its roots and
 *	the nodes of its xarrays.
 * @mem: bytes used by the items of this superblock: their slab objects,
 *	the leaf nodes of the range xarrays, the roots and the nodes of the
 *	inode index (&struct hot_index_nodes).
 * @nr_inodes: number of inode items.
 * @nr_ranges: number of range items.
 * @enabled_at: when tracking was turned on, in ns of hot_clock_ns().
 * @refused_at: when an item was last not made (at the cap, out of memory,
 *	or by an inode index that could not take it), in seconds of
 *	CLOCK_BOOTTIME, if @refused.
 * @refused: whether an item was ever not made.
 * @seen_all: set once hot_track_seen_all() found tracking on for longer
 *	than hot-kick-time.
 * @mem_max: the cap of @mem in bytes that the hot_track_mem= mount option
 *	set, or 0 to follow the sysctl hot-mem-max-bytes.
 * @pcp: per CPU, the reads and writes not yet counted in the items (see
 *	hot_track_sync()); not counted in @mem.
 * @pcp_mutex: one drain of @pcp at a time.
 * @drain_lock: the drain takes a slot of @pcp and counts it in its items in
 *	one write section; hot_track_get_freq() reads an item and its slots
 *	in read sections until one saw no drain, never holding the lock.
 *	Writers hold @pcp_mutex too; a seqlock_t all the same, not a
 *	seqcount tied to @pcp_mutex: on PREEMPT_RT a reader that meets a
 *	write section waits on the writer's lock, and the reader is under
 *	rcu_read_lock(), where it may wait on a spinlock but not a mutex.
 * @pass: the last update pass, for temperatures computed between passes.
 * @nr_over_cap: items the I/O hooks did not make because @mem was at the
 *	cap (@mem_max, or the sysctl hot-mem-max-bytes); per CPU, as every CPU
 *	doing I/O may add to it at the cap.
 * @nr_passes: update passes done; written by the update worker only, under
 *	@map_lock.
 * @nr_folds: update passes begun, hot_update_all(): each folds the scores
 *	of every item once (&hot_inode_item.folded); written by the pass
 *	with WRITE_ONCE(), read without a lock (debugfs stats).
 * @dead_items: inode items of deleted files whose ranges @free_work frees,
 *	linked by their &hot_inode_item.track_list; under @map_lock.
 * @free_work: frees the items on @dead_items, a batch of ranges at a time.
 * @list: link in the list of superblocks that track hot data, which the
 *	sysctls go through; under a mutex of their own.
 * @debugfs_dir: the superblock's directory in debugfs, or NULL.
 * @map_lock: protects the heat maps and the items' places in them.  Taken
 *	before an item lock, never in the I/O path.
 * @map_seq: odd while an update pass reorders the heat maps, and one more
 *	each time one begins or ends; under @map_lock.  Cursors of
 *	hot_track_query() keep it.
 * @inode_map: inode items by temperature bucket, as of the last update pass.
 * @range_map: range items by temperature bucket, as of the last update pass.
 * @inode_unsorted: the buckets of @inode_map that are not in hot_order():
 *	too large for the last pass to sort, or reordered by eviction since;
 *	under @map_lock.
 * @range_unsorted: the same for @range_map.
 * @update_work: the update worker: temperatures, heat maps, aging, the
 *	memory cap; runs every hot-update-delay seconds.
 * @next_pass: when @update_work is due to run next, in jiffies; under
 *	@pass_lock.
 * @pass_lock: orders the queueing of @update_work (by itself, by the
 *	hot-update-delay sysctl, by the mount option) and @next_pass.
 * @shrinker: frees the coldest items under memory pressure.
 * @nr_mapped: items in the heat maps, which the shrinker and the memory
 *	cap can free; under @map_lock, read without it by the shrinker.
 * @shrink_keep: items the shrinker leaves: the hottest eighth of those the
 *	last update pass put in the heat maps, at least 64; set by the pass.
 */
struct hot_info {
	struct super_block *sb;
	const struct hot_type *type;
	struct xarray roots;
	struct hot_root __rcu *root0;
	struct hot_index_nodes root_nodes;
	atomic_long_t index_mem;
	atomic_long_t mem;
	atomic_long_t nr_inodes;
	atomic_long_t nr_ranges;
	u64 enabled_at;
	unsigned long refused_at;
	bool refused;
	bool seen_all;
	unsigned long mem_max;
	struct hot_pcp __percpu *pcp;
	struct mutex pcp_mutex;	/* drains of @pcp */
	seqlock_t drain_lock;	/* a slot in its item; see above */
	struct hot_pass pass;
	struct percpu_counter nr_over_cap;
	unsigned long nr_passes;
	unsigned long nr_folds;
	struct list_head dead_items;
	struct work_struct free_work;
	struct list_head list;
	struct dentry *debugfs_dir;
	spinlock_t map_lock;	/* the heat maps; see above */
	u64 map_seq;
	struct list_head inode_map[HOT_MAP_BUCKETS];
	struct list_head range_map[HOT_MAP_BUCKETS];
	DECLARE_BITMAP(inode_unsorted, HOT_MAP_BUCKETS);
	DECLARE_BITMAP(range_unsorted, HOT_MAP_BUCKETS);
	struct delayed_work update_work;
	unsigned long next_pass;
	spinlock_t pass_lock;	/* @next_pass; see above */
	struct shrinker *shrinker;
	unsigned long nr_mapped;
	unsigned long shrink_keep;
};

/**
 * struct hot_range_ref - a range of a file, as hot_track_hot_ranges() lists it
 * @key: the file's key (&hot_inode_item.key).
 * @index: the range number: the range covers the bytes from
 *	@index << %HOT_RANGE_SHIFT for %HOT_RANGE_SIZE bytes.
 * @temp: its temperature as of the last update pass.
 * @nr_reads: its reads from disk so far (&hot_freq.nr_reads).
 * @nr_writes: its writes to disk so far (&hot_freq.nr_writes).
 */
struct hot_range_ref {
	struct hot_inode_key key;
	u32 index;
	u32 temp;
	u32 nr_reads;
	u32 nr_writes;
};

/**
 * hot_temp_bucket() - the heat-map bucket of a temperature
 * @temp: the temperature.
 *
 * Return: 0 (coldest) to %HOT_MAP_BUCKETS - 1 (hottest).
 */
static inline unsigned int hot_temp_bucket(u32 temp)
{
	return temp >> HOT_MAP_SHIFT;
}

#ifdef CONFIG_HOT_TRACKING

DECLARE_STATIC_KEY_FALSE(hot_track_key);

int hot_track_enable(struct super_block *sb, const struct hot_type *type);
void hot_track_disable(struct super_block *sb);
int hot_track_mount_opt(struct fs_context *fc, struct super_block *sb,
			int on, long mem_max, const struct hot_type *type);
int hot_track_check_opt(struct fs_context *fc, struct super_block *sb, int on,
			long mem_max);
int hot_track_parse_mem(struct fs_context *fc, struct fs_parameter *param,
			long *mem_max);
unsigned long hot_track_mem_opt(struct super_block *sb);
u32 hot_temp(const struct hot_pass *pass, const struct hot_freq *freq,
	     u64 now);
void hot_freq_gaps(const struct hot_pass *pass, const struct hot_freq *freq,
		   u64 now, u64 *reads, u64 *writes);
int hot_track_get_freq(struct inode *inode, struct hot_freq *freq, bool live,
		       u32 *temp, u64 *avg_reads, u64 *avg_writes);
long hot_track_ioctl_get_heat_info(struct file *file,
				   struct hot_heat_info __user *uinfo);
int hot_track_hot_ranges(struct super_block *sb, u32 min_temp,
			 unsigned long skip, struct hot_range_ref *refs,
			 unsigned int max);
int hot_track_range_temp(struct super_block *sb,
			 const struct hot_inode_key *key, u64 index, u32 *temp);
u32 hot_track_count_temp(struct super_block *sb, u32 nr, u64 *pass);
bool hot_track_seen_all(struct super_block *sb);
void hot_track_mute_range(struct inode *inode, u64 index, bool mute);
int hot_track_query(struct super_block *sb, bool ranges, u64 *cursor,
		    struct hot_item_rec *recs, unsigned int max, u32 *oflags,
		    u64 *pass);
int hot_track_sync(struct super_block *sb);
bool hot_track_inode_root(struct inode *inode, u64 *root);
int hot_track_load(struct inode *inode, const struct hot_item_rec *recs,
		   unsigned int nr);
long hot_track_ioctl_get_hot_items(struct file *file,
				   struct hot_items_query __user *uquery);
long hot_track_ioctl_set_heat_info(struct file *file,
				   struct hot_heat_set __user *uset);
void __hot_track_io(struct inode *inode, loff_t pos, u64 len, int rw);
void __hot_track_writeback_folio(struct inode *inode, struct folio *folio);
void __hot_track_writeback_begin(struct inode *inode);
void __hot_track_evict_inode(struct inode *inode);

/**
 * hot_track_enabled() - whether a superblock tracks hot data
 * @sb: the superblock.
 *
 * Context: any; the answer may be stale unless the caller holds
 * &super_block.s_umount.
 * Return: true if @sb has hot data tracking on.
 */
static inline bool hot_track_enabled(const struct super_block *sb)
{
	return static_branch_unlikely(&hot_track_key) &&
	       rcu_access_pointer(sb->s_hot_info);
}

static inline bool hot_track_inode(const struct inode *inode)
{
	return inode && hot_track_enabled(inode->i_sb) &&
	       S_ISREG(inode->i_mode);
}

/**
 * hot_track_io() - record a read or write that goes to disk
 * @inode: the file.
 * @pos: offset of the first byte, in bytes.
 * @len: length, in bytes; 0 records nothing.
 * @rw: %READ or %WRITE.
 *
 * Counts one access for the inode and one for each 1 MiB range that
 * [@pos, @pos + @len) touches.  Costs one static branch when no filesystem
 * tracks hot data, and nothing but a test of the superblock when this one
 * does not.  Never sleeps; on allocation failure the access is not recorded.
 *
 * Context: any context that may take a spinlock; not from interrupts.
 */
static inline void hot_track_io(struct inode *inode, loff_t pos, u64 len,
				int rw)
{
	if (hot_track_inode(inode))
		__hot_track_io(inode, pos, len, rw);
}

/**
 * hot_track_writeback_folio() - record a folio that goes to disk
 * @inode: the file the folio belongs to, or NULL.
 * @folio: the folio, locked, whose writeback starts.
 *
 * Within one writeback pass over the file (see hot_track_writeback_begin())
 * each range and the inode count one write, however many folios go out.
 *
 * Context: as hot_track_io(); may be called with interrupts disabled.
 */
static inline void hot_track_writeback_folio(struct inode *inode,
					     struct folio *folio)
{
	if (hot_track_inode(inode))
		__hot_track_writeback_folio(inode, folio);
}

/**
 * hot_track_writeback_begin() - a writeback pass over a file begins
 * @inode: the file.
 *
 * Context: as hot_track_io().
 */
static inline void hot_track_writeback_begin(struct inode *inode)
{
	if (hot_track_inode(inode))
		__hot_track_writeback_begin(inode);
}

/**
 * hot_track_evict_inode() - an inode leaves the inode cache
 * @inode: the inode; no I/O on it may be in flight.
 *
 * Forgets the heat of the file if it was deleted (no link left); the heat
 * of a file that is only evicted from the cache is kept.
 *
 * Context: process context.
 */
static inline void hot_track_evict_inode(struct inode *inode)
{
	if (hot_track_inode(inode) && !inode->i_nlink)
		__hot_track_evict_inode(inode);
}

#else /* !CONFIG_HOT_TRACKING */

static inline int hot_track_mount_opt(struct fs_context *fc,
				      struct super_block *sb, int on,
				      long mem_max,
				      const struct hot_type *type)
{
	if (on <= 0)
		return 0;
	errorfc(fc, "hot_track: not supported by this kernel");
	return -EOPNOTSUPP;
}

static inline int hot_track_parse_mem(struct fs_context *fc,
				      struct fs_parameter *param,
				      long *mem_max)
{
	errorfc(fc, "hot_track: not supported by this kernel");
	return -EOPNOTSUPP;
}

static inline int hot_track_check_opt(struct fs_context *fc,
				      struct super_block *sb, int on,
				      long mem_max)
{
	return 0;
}

static inline unsigned long hot_track_mem_opt(struct super_block *sb)
{
	return 0;
}

static inline bool hot_track_enabled(const struct super_block *sb)
{
	return false;
}

static inline int hot_track_enable(struct super_block *sb,
				   const struct hot_type *type)
{
	return -EOPNOTSUPP;
}

static inline void hot_track_disable(struct super_block *sb) {}

static inline long
hot_track_ioctl_get_heat_info(struct file *file,
			      struct hot_heat_info __user *uinfo)
{
	return -EOPNOTSUPP;
}

static inline long
hot_track_ioctl_get_hot_items(struct file *file,
			      struct hot_items_query __user *uquery)
{
	return -EOPNOTSUPP;
}

static inline long
hot_track_ioctl_set_heat_info(struct file *file,
			      struct hot_heat_set __user *uset)
{
	return -EOPNOTSUPP;
}

static inline int hot_track_hot_ranges(struct super_block *sb, u32 min_temp,
				       unsigned long skip,
				       struct hot_range_ref *refs,
				       unsigned int max)
{
	return 0;
}

static inline int hot_track_range_temp(struct super_block *sb,
				       const struct hot_inode_key *key,
				       u64 index, u32 *temp)
{
	return -ENODATA;
}

static inline u32 hot_track_count_temp(struct super_block *sb, u32 nr,
				       u64 *pass)
{
	if (pass)
		*pass = 0;
	return 0;
}

static inline bool hot_track_seen_all(struct super_block *sb)
{
	return false;
}

static inline void hot_track_mute_range(struct inode *inode, u64 index,
					bool mute) {}
static inline void hot_track_io(struct inode *inode, loff_t pos, u64 len,
				int rw) {}
static inline void hot_track_writeback_folio(struct inode *inode,
					     struct folio *folio) {}
static inline void hot_track_writeback_begin(struct inode *inode) {}
static inline void hot_track_evict_inode(struct inode *inode) {}

#endif /* CONFIG_HOT_TRACKING */

#endif /* _LINUX_HOT_TRACKING_H */
