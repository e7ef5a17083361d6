// SPDX-License-Identifier: GPL-2.0
/*
 * Hot relocation (mount -o hot_move): on a filesystem with rotational and
 * non-rotational devices, move the ranges that hot data tracking finds hot
 * to the non-rotational devices, and cold data back when those fill up.
 *
 * Ordinary data allocations prefer rotational devices while relocation is
 * active (btrfs_hot_move_data_class()); a work item per filesystem, run
 * every few seconds on a workqueue of its own (&btrfs_hot_move.wq), then:
 *
 * - promotes: takes the hottest ranges at or above promote_temp from the
 *   heat map of hot data tracking and rewrites those not on
 *   non-rotational devices through the COW path (btrfs_hot_move_range()),
 *   as long as the usage of the fast devices stays under the high
 *   watermark; while it is under the low watermark, warm ranges too, up
 *   to it: those read often enough at two update passes to tell them from
 *   chance (HOT_MOVE_WARM_READS, HOT_MOVE_WARM_TEMP);
 * - demotes: when the usage is at or above the high watermark, scans the
 *   extents of the non-rotational data block groups, looks up the
 *   temperature of the file ranges that own them, and rewrites the coldest
 *   ones below demote_temp onto rotational devices, until the usage is
 *   under the low watermark.  Cold ranges are found from the extents, not
 *   from the heat map, because idle items age out of the heat map; data
 *   with no item is cold only once tracking has been on for
 *   hot-kick-time (hot_track_seen_all()).
 *
 * Relocation I/O is muted for hot data tracking (hot_track_mute_range()):
 * moving data must not make it look hot.  Each run moves at most batch_bytes
 * each way.
 */

#include <linux/hash.h>
#include <linux/hot_tracking.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include "ctree.h"
#include "fs.h"
#include "disk-io.h"
#include "volumes.h"
#include "block-group.h"
#include "space-info.h"
#include "backref.h"
#include "defrag.h"
#include "btrfs_inode.h"
#include "accessors.h"
#include "hot-move.h"
#include <trace/events/btrfs.h>

/* Hot ranges looked at per run, and per call of hot_track_hot_ranges(). */
#define HOT_MOVE_PROMOTE_SCAN	4096
#define HOT_MOVE_REFS		64

/* Extent items looked at per run for demotion, and candidates kept. */
#define HOT_MOVE_DEMOTE_SCAN	4096
#define HOT_MOVE_CANDIDATES	64

/* Free data space relocation leaves to user writes: 1/20, at least this. */
#define HOT_MOVE_MIN_FREE	SZ_64M

/*
 * Relocation pauses while users write at a rate that would fill the free
 * space above that margin within this many seconds.
 */
#define HOT_MOVE_FILL_SECS	600ULL

/* Seconds the rate is measured over: from half of this, or one interval. */
#define HOT_MOVE_FILL_WINDOW	10ULL

/*
 * Dirty data of users not yet written, in bytes, above which relocation
 * pauses too: a writer stalled in writeback throttling for longer than the
 * window has this much on its way to disk, and takes space once it is.
 */
#define HOT_MOVE_FILL_DIRTY	SZ_32M

/*
 * Runs promotion waits at most after it fell back to rotational devices,
 * before it tries again: the backoff doubles from one run up to this.
 */
#define HOT_MOVE_BACKOFF_MAX	64

struct hot_move_usage {
	u64 used;
	u64 total;
	u64 free;
	u64 reserve;
	unsigned int nr_nonrot;
	unsigned int nr_rot;
	bool rot;
	bool nonrot;
};

/*
 * Free data space, in bytes: the unallocated space of the writeable devices
 * and what the data block groups do not use.  With @u, also the classes
 * present and the unallocated space of the non-rotational devices that
 * promotion may take: all but their room for metadata
 * (btrfs_nonrot_meta_reserve()).
 */
static u64 hot_move_free(struct btrfs_fs_info *fs_info,
			 struct hot_move_usage *u)
{
	struct btrfs_fs_devices *fs_devices = fs_info->fs_devices;
	struct btrfs_space_info *sinfo = fs_info->data_sinfo;
	struct btrfs_device *device;
	u64 free = 0, reserve = 0;

	if (u) {
		reserve = btrfs_nonrot_meta_reserve(fs_info);
		u->reserve = reserve;
	}
	mutex_lock(&fs_devices->device_list_mutex);
	list_for_each_entry(device, &fs_devices->devices, dev_list) {
		u64 avail;

		if (!test_bit(BTRFS_DEV_STATE_WRITEABLE, &device->dev_state) ||
		    test_bit(BTRFS_DEV_STATE_REPLACE_TGT, &device->dev_state))
			continue;
		avail = device->total_bytes > device->bytes_used ?
			device->total_bytes - device->bytes_used : 0;
		free += avail;
		if (!u)
			continue;
		if (btrfs_device_nonrot(device)) {
			u->nonrot = true;
			u->nr_nonrot++;
			u->total += avail > reserve ? avail - reserve : 0;
		} else {
			u->rot = true;
			u->nr_rot++;
		}
	}
	mutex_unlock(&fs_devices->device_list_mutex);
	if (!sinfo)
		return free;

	spin_lock(&sinfo->lock);
	free += sinfo->total_bytes - min(sinfo->total_bytes,
					 btrfs_space_info_used(sinfo, true));
	spin_unlock(&sinfo->lock);
	return free;
}

/* Space use of the non-rotational devices, and which classes exist. */
static void hot_move_usage(struct btrfs_fs_info *fs_info,
			   struct hot_move_usage *u)
{
	struct btrfs_space_info *sinfo = fs_info->data_sinfo;
	struct btrfs_block_group *bg;
	int i;

	memset(u, 0, sizeof(*u));
	u->free = hot_move_free(fs_info, u);
	if (!sinfo)
		return;

	down_read(&sinfo->groups_sem);
	for (i = 0; i < BTRFS_NR_RAID_TYPES; i++) {
		list_for_each_entry(bg, &sinfo->block_groups[i], list) {
			if (!test_bit(BLOCK_GROUP_FLAG_NONROT, &bg->runtime_flags))
				continue;
			spin_lock(&bg->lock);
			u->total += bg->length;
			u->used += bg->used + bg->reserved + bg->pinned;
			spin_unlock(&bg->lock);
		}
	}
	up_read(&sinfo->groups_sem);
}

/*
 * Whether relocation can run: both device classes are present, each with
 * enough devices for a chunk of the data profile (two for RAID1 data), as
 * chunks of one class take devices of that class only.  Logs once when
 * the profile keeps relocation idle.  Called by the work item and by
 * btrfs_hot_move_update(), never at the same time.
 */
static bool hot_move_can_run(struct btrfs_fs_info *fs_info,
			     const struct hot_move_usage *u)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u64 profile = btrfs_data_alloc_profile(fs_info);
	unsigned int devs_min =
		btrfs_raid_array[btrfs_bg_flags_to_raid_index(profile)].devs_min;

	if (!u->rot || !u->nonrot)
		return false;
	if (u->nr_nonrot >= devs_min && u->nr_rot >= devs_min) {
		hm->profile_idle = false;
		return true;
	}
	if (!hm->profile_idle)
		btrfs_warn(fs_info,
			   "hot_move: data profile %s needs %u devices of each class, there are %u non-rotational and %u rotational: relocation idle",
			   btrfs_bg_type_to_raid_name(profile), devs_min,
			   u->nr_nonrot, u->nr_rot);
	hm->profile_idle = true;
	return false;
}

/* Bytes relocation moved so far, @run_moved of them in the current run. */
static u64 hot_move_moved(struct btrfs_hot_move *hm, u64 run_moved)
{
	return atomic64_read(&hm->promoted) + atomic64_read(&hm->demoted) +
	       run_moved;
}

/*
 * Whether users are filling the filesystem: over a window that ends now
 * (since &btrfs_hot_move.fill[1] if that is HOT_MOVE_FILL_WINDOW / 2
 * seconds old, else since &btrfs_hot_move.fill[0]: from 5 to 11 seconds at
 * an interval of 1 s, one interval from 5 s on; shorter, but at least a
 * second, in the first seconds after a reset), the free data space fell
 * by more than
 * relocation moved meanwhile (@run_moved bytes of it in the current run),
 * at a rate that would use up the free space above @margin within
 * HOT_MOVE_FILL_SECS.  Relocation then pauses: moving 1 MiB ranges out of
 * larger extents keeps the old extents allocated, and that space is the
 * users'.  A window of several seconds sees a writer that stalls for a
 * while, in writeback throttling or on a busy machine; more than
 * HOT_MOVE_FILL_DIRTY bytes of dirty data waiting for writeback count as
 * filling too, however long the stall.  Counts the pause.
 */
static bool hot_move_filling(struct btrfs_fs_info *fs_info, u64 free,
			     u64 run_moved, u64 margin)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u64 now = ktime_get_ns();
	const struct btrfs_hot_move_fill *from =
		now - hm->fill[1].time >= HOT_MOVE_FILL_WINDOW / 2 * NSEC_PER_SEC ?
		&hm->fill[1] : &hm->fill[0];
	u64 moved = hot_move_moved(hm, run_moved) - from->moved;
	enum btrfs_hot_move_pause_reason reason = BTRFS_HOT_MOVE_PAUSE_FILLING;
	u64 elapsed, taken;

	/* Relocation's own delalloc is on disk before each check. */
	if (percpu_counter_sum_positive(&fs_info->delalloc_bytes) >=
	    HOT_MOVE_FILL_DIRTY) {
		reason = BTRFS_HOT_MOVE_PAUSE_DIRTY;
		goto pause;
	}
	if (from->free <= free + moved)
		return false;
	taken = from->free - free - moved;
	/* At least a second: a rate over a few ms just after mount is noise. */
	elapsed = max_t(u64, now - from->time, NSEC_PER_SEC);
	if (free > margin &&
	    mul_u64_u64_div_u64(taken, HOT_MOVE_FILL_SECS * NSEC_PER_SEC,
				elapsed) < free - margin)
		return false;
pause:
	trace_btrfs_hot_move_pause(fs_info, reason, free, margin);
	atomic64_inc(&hm->fill_pauses);
	return true;
}

/* Whether a freeze of the filesystem has begun (or is complete). */
static bool hot_move_frozen(struct btrfs_fs_info *fs_info)
{
	return READ_ONCE(fs_info->sb->s_writers.frozen) != SB_UNFROZEN;
}

static bool hot_move_stopping(struct btrfs_fs_info *fs_info)
{
	return READ_ONCE(fs_info->hot_move.stopped) ||
	       btrfs_fs_closing(fs_info) || sb_rdonly(fs_info->sb) ||
	       !(fs_info->sb->s_flags & SB_ACTIVE) || hot_move_frozen(fs_info);
}

/*
 * Count an error relocation met, note its errno and log it, ratelimited:
 * @what failed, for the file range at @start of inode @ino of root
 * @rootid (0 when it is about no file).
 */
static void hot_move_error(struct btrfs_fs_info *fs_info, const char *what,
			   u64 rootid, u64 ino, u64 start, int error)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;

	atomic64_inc(&hm->errors);
	WRITE_ONCE(hm->last_error, -error);
	if (rootid)
		btrfs_warn_rl(fs_info,
			      "hot_move: %s failed for root %llu inode %llu offset %llu: %d",
			      what, rootid, ino, start, error);
	else
		btrfs_warn_rl(fs_info, "hot_move: %s failed: %d", what, error);
}

/*
 * Move [@start, @start + @len) of inode @ino of root @rootid to the class
 * @to_nonrot says, 1 MiB hot_track range by range, each muted while it
 * moves.  Returns the bytes moved there; sets *@full if the allocator put
 * some of them on the other class because that one was full
 * (&btrfs_hot_move.fallback, or .rot_fallback, grew): those bytes are not
 * counted moved.
 * Holds freeze protection from the inode lookup to its release: a freeze
 * waits for one file at most, and stops the run (the file is left alone
 * if the freeze has begun).
 */
static u64 hot_move_file_range(struct btrfs_fs_info *fs_info, u64 rootid,
			       u64 ino, u64 start, u64 len, bool to_nonrot,
			       bool *full)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	atomic64_t *fallbacks = to_nonrot ? &hm->fallback : &hm->rot_fallback;
	struct btrfs_inode *inode;
	struct btrfs_root *root;
	u64 cur, next, moved = 0;
	int ret = 0;

	/* Files of subvolumes only, never the filesystem's internal inodes. */
	if (!btrfs_is_fstree(rootid))
		return 0;
	if (!sb_start_write_trylock(fs_info->sb))
		return 0;
	root = btrfs_get_fs_root(fs_info, rootid, true);
	if (IS_ERR(root)) {
		/* A deleted subvolume is no error. */
		if (PTR_ERR(root) != -ENOENT)
			hot_move_error(fs_info, "root lookup", rootid, ino,
				       start, PTR_ERR(root));
		goto out_write;
	}
	inode = btrfs_iget(ino, root);
	btrfs_put_root(root);
	if (IS_ERR(inode)) {
		/* Nor a deleted file. */
		if (PTR_ERR(inode) != -ENOENT && PTR_ERR(inode) != -ESTALE)
			hot_move_error(fs_info, "inode lookup", rootid, ino,
				       start, PTR_ERR(inode));
		goto out_write;
	}
	if (!S_ISREG(inode->vfs_inode.i_mode))
		goto out;

	for (cur = start; cur < start + len && !ret; cur = next) {
		struct btrfs_hot_move_ctl ctl = {
			.to_nonrot = to_nonrot,
			.move_shared = READ_ONCE(hm->move_shared),
		};
		u64 index = cur >> HOT_RANGE_SHIFT;
		u64 fallback = atomic64_read(fallbacks);

		if (hot_move_stopping(fs_info))
			break;
		next = min(start + len, (index + 1) << HOT_RANGE_SHIFT);
		hot_track_mute_range(&inode->vfs_inode, index, true);
		ret = btrfs_hot_move_range(inode, cur, next - cur, &ctl);
		hot_track_mute_range(&inode->vfs_inode, index, false);
		/*
		 * Only this work item allocates for the fast devices; for the
		 * slow ones, users' writes may have fallen back meanwhile too,
		 * and then the slow devices are full all the same.
		 */
		fallback = atomic64_read(fallbacks) - fallback;
		/* Ranges found in place, the most of a run's, are not traced. */
		if (ctl.moved || ret) {
			if (to_nonrot)
				trace_btrfs_hot_move_promote(fs_info, rootid, ino,
							     cur, next - cur,
							     ctl.moved,
							     min(ctl.moved, fallback),
							     ret);
			else
				trace_btrfs_hot_move_demote(fs_info, rootid, ino,
							    cur, next - cur,
							    ctl.moved,
							    min(ctl.moved, fallback),
							    ret);
		}
		moved += ctl.moved - min(ctl.moved, fallback);
		atomic64_add(ctl.skipped_shared, &hm->skipped_shared);
		/* Read-only subvolumes and swap files are left alone. */
		if (ret < 0 && ret != -EROFS && ret != -ETXTBSY)
			hot_move_error(fs_info, to_nonrot ? "promotion" : "demotion",
				       rootid, ino, cur, ret);
		if (fallback) {
			trace_btrfs_hot_move_fallback(fs_info, rootid, ino, cur,
						      next - cur, ctl.moved,
						      min(ctl.moved, fallback),
						      ret);
			*full = true;
			break;
		}
	}
out:
	iput(&inode->vfs_inode);
out_write:
	sb_end_write(fs_info->sb);
	return moved;
}

/*
 * Reads from disk a hot range needs to be promoted.  New writes go to
 * rotational devices anyway, and one access looks hot for a while (it
 * counts as one per update pass until the passes after halve it).
 */
#define HOT_MOVE_MIN_READS	2

/*
 * A warm range, promoted below promote_temp while the fast devices have
 * room under the low watermark: read more than written, with a temperature
 * of at least HOT_MOVE_WARM_READS reads in one update pass
 * (hot_track_count_temp()), one read per 4.3 s and twice the rate of
 * demote_temp, at two update passes that two runs saw.  A first pass
 * halves a count, so that is a rate of 2.5 reads per pass or more: at the
 * default hot-update-delay (10 s), one read per 4 s.  A range read once or
 * twice by chance is not warm, nor one read in one burst, as of a
 * compressed extent (a read per extent), which the next pass cools.  With
 * passes shorter than about 2 s, five reads in one are hotter than the
 * default promote_temp, which then decides.
 */
#define HOT_MOVE_WARM_READS	5
#define HOT_MOVE_WARM_TEMP	0x78000000U

/*
 * The warm ranges a pass is looked at for, in an open-addressed table of
 * 64-bit hashes (0: empty), at most three quarters full so that every
 * probe ends.  A pass with more warm ranges leaves the rest out: they are
 * not promoted at the next pass (nor are ranges whose hash is that of a
 * warm range, rarely).
 */
#define HOT_MOVE_WARM_SLOTS	4096
#define HOT_MOVE_WARM_MAX	(HOT_MOVE_WARM_SLOTS / 4 * 3)

static u64 hot_move_warm_hash(const struct hot_range_ref *ref)
{
	u64 h = ref->key.root * GOLDEN_RATIO_64;

	h = (h ^ ref->key.ino) * GOLDEN_RATIO_64;
	h = (h ^ ref->index) * GOLDEN_RATIO_64;
	return (h ^ (h >> 29)) ?: 1;
}

/*
 * Whether the table @set holds hash @h; if not and @nr is not NULL, add it
 * if the table has room, counting it in *@nr.
 */
static bool hot_move_warm_find(u64 *set, unsigned int *nr, u64 h)
{
	unsigned int i = hash_64(h, ilog2(HOT_MOVE_WARM_SLOTS));

	for (; set[i]; i = (i + 1) % HOT_MOVE_WARM_SLOTS)
		if (set[i] == h)
			return true;
	if (nr && *nr < HOT_MOVE_WARM_MAX) {
		set[i] = h;
		(*nr)++;
	}
	return false;
}

/*
 * The lowest temperature of a warm range now, and in *@pass the update pass
 * the heat maps are of; at a new pass, the warm ranges found at the last
 * become those of an earlier pass.  Returns 0 if warm ranges cannot be told
 * now: a pass is reordering the heat maps, or no memory.
 */
static u32 hot_move_warm_pass(struct btrfs_fs_info *fs_info, u64 *pass)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u32 temp, demote = READ_ONCE(hm->demote_temp);
	int i;

	temp = hot_track_count_temp(fs_info->sb, HOT_MOVE_WARM_READS, pass);
	if (!*pass)
		return 0;
	for (i = 0; i < ARRAY_SIZE(hm->warm); i++) {
		if (!hm->warm[i])
			hm->warm[i] = kvcalloc(HOT_MOVE_WARM_SLOTS, sizeof(u64),
					       GFP_KERNEL);
		if (!hm->warm[i])
			return 0;
	}
	if (*pass != hm->warm_pass) {
		swap(hm->warm[0], hm->warm[1]);
		memset(hm->warm[1], 0, HOT_MOVE_WARM_SLOTS * sizeof(u64));
		hm->warm_nr = 0;
		hm->warm_pass = *pass;
	}
	/* 2^26 more: twice the rate of demote_temp. */
	demote = demote > U32_MAX - BIT(26) ? U32_MAX : demote + BIT(26);
	return max3(temp, HOT_MOVE_WARM_TEMP, demote);
}

/*
 * Whether the heat maps are still of update pass @pass: warm ranges listed
 * from them are of one pass.
 */
static bool hot_move_same_pass(struct btrfs_fs_info *fs_info, u64 pass)
{
	u64 now;

	hot_track_count_temp(fs_info->sb, 0, &now);
	return now == pass;
}

/*
 * Move hot ranges to the fast devices, up to @budget bytes, and warm ones
 * (above) while less than @warm bytes have moved in all, while users do
 * not fill the free space above @margin.  Returns true if a move fell
 * back to rotational devices: the fast ones are full.
 */
static bool hot_move_promote(struct btrfs_fs_info *fs_info, u64 budget,
			     u64 warm, u64 margin)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u32 promote = READ_ONCE(hm->promote_temp);
	u32 min_temp = promote, warm_temp = 0;
	struct hot_range_ref *refs;
	unsigned long skip = 0;
	bool full = false;
	u64 moved = 0, pass, h;
	int i, n;

	if (warm)
		warm_temp = hot_move_warm_pass(fs_info, &pass);
	if (!warm_temp)
		warm = 0;
	else
		min_temp = min(promote, warm_temp);

	refs = kmalloc_array(HOT_MOVE_REFS, sizeof(*refs), GFP_KERNEL);
	if (!refs) {
		hot_move_error(fs_info, "promotion", 0, 0, 0, -ENOMEM);
		return false;
	}
	while (moved < budget && skip < HOT_MOVE_PROMOTE_SCAN) {
		n = hot_track_hot_ranges(fs_info->sb, min_temp, skip, refs,
					 HOT_MOVE_REFS);
		if (n <= 0)
			break;
		skip += n;
		if (warm && !hot_move_same_pass(fs_info, pass))
			warm = 0;
		for (i = 0; i < n && moved < budget; i++) {
			if (hot_move_stopping(fs_info))
				goto out;
			if (refs[i].nr_reads < HOT_MOVE_MIN_READS)
				continue;
			if (refs[i].temp < promote) {
				/*
				 * The list goes down the heat map's buckets:
				 * past promote_temp's, no range is hot.
				 */
				if (moved >= warm) {
					if (hot_temp_bucket(refs[i].temp) <
					    hot_temp_bucket(promote))
						goto out;
					continue;
				}
				if (refs[i].nr_writes > refs[i].nr_reads)
					continue;
				/* Promoted if found at an earlier pass too. */
				h = hot_move_warm_hash(&refs[i]);
				hot_move_warm_find(hm->warm[1], &hm->warm_nr, h);
				if (!hot_move_warm_find(hm->warm[0], NULL, h))
					continue;
			}
			if (hot_move_filling(fs_info, hot_move_free(fs_info, NULL),
					     moved, margin))
				goto out;
			moved += hot_move_file_range(fs_info, refs[i].key.root,
						     refs[i].key.ino,
						     (u64)refs[i].index << HOT_RANGE_SHIFT,
						     HOT_RANGE_SIZE, true, &full);
			/* Fell back: do not rewrite more onto the same devices. */
			if (full)
				goto out;
			cond_resched();
		}
	}
out:
	atomic64_add(moved, &hm->promoted);
	kfree(refs);
	return full;
}

/*
 * A cold extent on the fast devices: who owns it and how hot it is.
 * @root, @ino, @offset and @len give the file range of its first owner,
 * spanning all the references of that file; @max_span is the most they
 * may span: the extent's size on disk.
 */
struct hot_move_candidate {
	u64 root;
	u64 ino;
	u64 offset;
	u64 len;
	u64 max_span;
	u32 temp;
	unsigned int owners;
	bool internal;
};

static int hot_move_owner(u64 ino, u64 offset, u64 num_bytes, u64 root,
			  void *ctx)
{
	struct hot_move_candidate *c = ctx;
	u64 start, end;

	/* Also owned by relocation's inode (a balance runs): leave it. */
	if (!btrfs_is_fstree(root)) {
		c->internal = true;
		return BTRFS_ITERATE_EXTENT_INODES_STOP;
	}
	if (!c->owners) {
		c->owners = 1;
		c->root = root;
		c->ino = ino;
		c->offset = offset;
		c->len = num_bytes;
		return 0;
	}
	/*
	 * Another reference of the same file, as an overwrite in the middle
	 * of the extent leaves: the same owner, whose range now spans both,
	 * if that is no more than the extent held (a reflink within the file
	 * elsewhere is another owner).  Moving that range moves both, and
	 * the overwritten middle is on the rotational devices already.
	 */
	start = min(c->offset, offset);
	end = max(c->offset + c->len, offset + num_bytes);
	if (root == c->root && ino == c->ino && end - start <= c->max_span) {
		c->offset = start;
		c->len = end - start;
		return 0;
	}
	c->owners++;
	return 0;
}

/*
 * The temperature of a file range: that of its hottest 1 MiB range.  A
 * range hot data tracking knows nothing of is cold only once it has been
 * on for hot-kick-time: until then it may not have been read since the
 * mount, or its saved heat not loaded yet, and counts as hottest.  A file
 * it cannot track (on 32-bit, an inode number above 32 bits) counts as
 * hottest always: never demoted, and never listed to be promoted.
 */
static u32 hot_move_range_temp(struct btrfs_fs_info *fs_info,
			       const struct hot_move_candidate *c)
{
	struct hot_inode_key key = { .root = c->root, .ino = c->ino };
	u64 index = c->offset >> HOT_RANGE_SHIFT;
	u64 last = min_t(u64, (c->offset + c->len - 1) >> HOT_RANGE_SHIFT,
			 HOT_RANGE_INDEX_MAX);
	bool seen_all = hot_track_seen_all(fs_info->sb);
	u32 temp, max = 0;
	int ret;

	for (; index <= last; index++) {
		ret = hot_track_range_temp(fs_info->sb, &key, index, &temp);
		if (!ret)
			max = max(max, temp);
		else if (!seen_all || ret == -EOVERFLOW)
			return U32_MAX;
	}
	return max;
}

static int hot_move_candidate_cmp(const void *a, const void *b)
{
	const struct hot_move_candidate *ca = a, *cb = b;

	return ca->temp < cb->temp ? -1 : ca->temp > cb->temp;
}

/*
 * Find up to HOT_MOVE_CANDIDATES extents of the fast devices, owned by one
 * file each (or any number with move_shared), colder than
 * demote_temp, scanning from the cursor through the committed extent tree.
 * Returns how many, coldest first.
 */
static int hot_move_find_cold(struct btrfs_fs_info *fs_info,
			      struct hot_move_candidate *cand)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u32 max_temp = READ_ONCE(hm->demote_temp);
	bool move_shared = READ_ONCE(hm->move_shared);
	struct btrfs_path *path;
	struct btrfs_key key;
	struct btrfs_key *extents;
	int nr = 0, scanned = 0;
	bool wrapped = false;
	int ret, i, n;

	path = btrfs_alloc_path();
	extents = kmalloc_array(HOT_MOVE_CANDIDATES, sizeof(*extents),
				GFP_KERNEL);
	if (!path || !extents) {
		hot_move_error(fs_info, "scan for cold extents", 0, 0, 0,
			       -ENOMEM);
		goto out;
	}
	path->search_commit_root = true;
	path->skip_locking = true;

	while (nr < HOT_MOVE_CANDIDATES && scanned < HOT_MOVE_DEMOTE_SCAN) {
		struct btrfs_root *extent_root;
		struct btrfs_block_group *bg;
		u64 cursor = hm->demote_cursor;

		/* The next non-rotational data block group from the cursor. */
		bg = btrfs_lookup_block_group(fs_info, cursor);
		if (!bg)
			bg = btrfs_lookup_first_block_group(fs_info, cursor);
		while (bg && (!(bg->flags & BTRFS_BLOCK_GROUP_DATA) ||
			      !test_bit(BLOCK_GROUP_FLAG_NONROT, &bg->runtime_flags)))
			bg = btrfs_next_block_group(bg);
		if (!bg) {
			/* Wrap around, once per run. */
			hm->demote_cursor = 0;
			if (wrapped || !cursor)
				break;
			wrapped = true;
			continue;
		}
		cursor = max(cursor, bg->start);

		/* Collect a batch of extent items of that block group. */
		n = 0;
		extent_root = btrfs_extent_root(fs_info, cursor);
		key.objectid = cursor;
		key.type = BTRFS_EXTENT_ITEM_KEY;
		key.offset = 0;
		down_read(&fs_info->commit_root_sem);
		ret = btrfs_search_slot(NULL, extent_root, &key, path, 0, 0);
		while (ret >= 0 && n < HOT_MOVE_CANDIDATES) {
			if (path->slots[0] >= btrfs_header_nritems(path->nodes[0])) {
				ret = btrfs_next_leaf(extent_root, path);
				if (ret)
					break;
				continue;
			}
			btrfs_item_key_to_cpu(path->nodes[0], &key, path->slots[0]);
			if (key.objectid >= btrfs_block_group_end(bg))
				break;
			if (key.type == BTRFS_EXTENT_ITEM_KEY &&
			    key.objectid >= cursor)
				extents[n++] = key;
			path->slots[0]++;
		}
		up_read(&fs_info->commit_root_sem);
		btrfs_release_path(path);
		if (n == HOT_MOVE_CANDIDATES)
			hm->demote_cursor = extents[n - 1].objectid + 1;
		else
			hm->demote_cursor = btrfs_block_group_end(bg);
		btrfs_put_block_group(bg);
		if (ret < 0) {
			hot_move_error(fs_info, "scan for cold extents", 0, 0,
				       0, ret);
			break;
		}

		/* Owners and temperatures. */
		for (i = 0; i < n && nr < HOT_MOVE_CANDIDATES; i++) {
			struct btrfs_backref_walk_ctx walk = {
				.bytenr = extents[i].objectid,
				.ignore_extent_item_pos = true,
				.fs_info = fs_info,
			};
			struct hot_move_candidate *c = &cand[nr];

			scanned++;
			memset(c, 0, sizeof(*c));
			c->max_span = extents[i].offset;
			ret = iterate_extent_inodes(&walk, true, hot_move_owner, c);
			/* Freed since the commit: no error. */
			if (ret < 0 && ret != -ENOENT)
				hot_move_error(fs_info, "backref walk", 0, 0, 0,
					       ret);
			if (ret || c->internal || !c->owners ||
			    (c->owners > 1 && !move_shared))
				continue;
			c->temp = hot_move_range_temp(fs_info, c);
			if (c->temp < max_temp)
				nr++;
		}
		if (hot_move_stopping(fs_info))
			break;
		cond_resched();
	}
	sort(cand, nr, sizeof(*cand), hot_move_candidate_cmp, NULL);
out:
	kfree(extents);
	btrfs_free_path(path);
	return nr;
}

/* Move the coldest data of the fast devices back, up to @budget bytes. */
static void hot_move_demote(struct btrfs_fs_info *fs_info, u64 budget)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	struct hot_move_candidate *cand;
	bool full = false;
	u64 moved = 0;
	int i, n;

	cand = kmalloc_array(HOT_MOVE_CANDIDATES, sizeof(*cand), GFP_KERNEL);
	if (!cand) {
		hot_move_error(fs_info, "demotion", 0, 0, 0, -ENOMEM);
		return;
	}
	n = hot_move_find_cold(fs_info, cand);
	for (i = 0; i < n && moved < budget && !full; i++) {
		if (hot_move_stopping(fs_info))
			break;
		moved += hot_move_file_range(fs_info, cand[i].root, cand[i].ino,
					     cand[i].offset, cand[i].len, false,
					     &full);
		cond_resched();
	}
	atomic64_add(moved, &hm->demoted);
	kfree(cand);
}

/* The batch size in bytes, read whole: a u64 may tear on 32-bit. */
static u64 hot_move_batch(struct btrfs_hot_move *hm)
{
	u64 batch;

	mutex_lock(&hm->lock);
	batch = hm->batch_bytes;
	mutex_unlock(&hm->lock);
	return batch;
}

static void hot_move_run(struct btrfs_fs_info *fs_info)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	u64 batch = hot_move_batch(hm);
	u32 high = READ_ONCE(hm->high_wm), low = READ_ONCE(hm->low_wm);
	struct hot_move_usage u;
	u64 high_bytes, low_bytes, margin, promoted;

	btrfs_update_block_groups_nonrot(fs_info);
	hot_move_usage(fs_info, &u);
	WRITE_ONCE(hm->active, hot_move_can_run(fs_info, &u));
	atomic64_set(&hm->ssd_used, u.used);
	atomic64_set(&hm->ssd_total, u.total);
	atomic64_set(&hm->meta_reserve, u.reserve);
	if (!hm->active)
		return;
	atomic64_inc(&hm->runs);

	/* Leave free space to user writes: the old extents stay until commit. */
	margin = max_t(u64, HOT_MOVE_MIN_FREE, div_u64(u.free + u.used, 20));
	if (hot_move_filling(fs_info, u.free, 0, margin))
		return;

	high_bytes = div_u64(u.total * high, 100);
	low_bytes = div_u64(u.total * low, 100);
	if (u.used >= high_bytes) {
		/* low_wm may be above high_wm while both are written. */
		if (u.used > low_bytes)
			hot_move_demote(fs_info, min(batch, u.used - low_bytes));
		return;
	}
	if (u.free <= margin) {
		trace_btrfs_hot_move_pause(fs_info, BTRFS_HOT_MOVE_PAUSE_NO_ROOM,
					   u.free, margin);
		return;
	}
	/*
	 * After a fallback, wait until a batch has left the fast devices or
	 * the backoff is over, whichever comes first: the room a fallback
	 * found missing may come back by other means (a deleted file, a
	 * scrub that set a block group read-only for a while).
	 */
	if (hm->full_used && u.used + batch > hm->full_used &&
	    ktime_get_ns() < hm->retry_at) {
		trace_btrfs_hot_move_pause(fs_info, BTRFS_HOT_MOVE_PAUSE_BACKOFF,
					   u.free, margin);
		return;
	}
	hm->full_used = 0;
	promoted = atomic64_read(&hm->promoted);
	if (hot_move_promote(fs_info, min3(batch, high_bytes - u.used,
					   u.free - margin),
			     u.used < low_bytes ? low_bytes - u.used : 0,
			     margin)) {
		if (!hm->backoff)
			btrfs_info(fs_info,
				   "hot_move: non-rotational devices full at %llu of %llu bytes, promotion fell back to rotational ones",
				   u.used, u.total);
		hm->full_used = max_t(u64, u.used, 1);
		hm->backoff = clamp_t(u32, hm->backoff * 2, 1,
				      HOT_MOVE_BACKOFF_MAX);
		hm->retry_at = ktime_get_ns() + (u64)hm->backoff *
			       READ_ONCE(hm->interval) * NSEC_PER_SEC;
	} else if (atomic64_read(&hm->promoted) != promoted) {
		/* Promoted without a fallback: the fast devices had room. */
		hm->backoff = 0;
	}
}

/*
 * Note the free space now for hot_move_filling(): a new window starts at
 * @fill[1] once that is HOT_MOVE_FILL_WINDOW / 2 seconds old, and @fill[1]
 * moves to now.  @reset starts both at now.
 */
static void hot_move_fill_mark(struct btrfs_fs_info *fs_info, bool reset)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	struct btrfs_hot_move_fill now = {
		.time = ktime_get_ns(),
		.free = hot_move_free(fs_info, NULL),
		.moved = hot_move_moved(hm, 0),
	};

	if (reset) {
		hm->fill[0] = now;
		hm->fill[1] = now;
	} else if (now.time - hm->fill[1].time >=
		   HOT_MOVE_FILL_WINDOW / 2 * NSEC_PER_SEC) {
		hm->fill[0] = hm->fill[1];
		hm->fill[1] = now;
	}
}

static void hot_move_work(struct work_struct *work)
{
	struct btrfs_hot_move *hm = container_of(to_delayed_work(work),
						 struct btrfs_hot_move, work);
	struct btrfs_fs_info *fs_info = container_of(hm, struct btrfs_fs_info,
						     hot_move);

	if (!btrfs_test_opt(fs_info, HOT_MOVE))
		return;
	/* Frozen, it runs again later; stopped, not. */
	if (hot_move_stopping(fs_info) && !hot_move_frozen(fs_info))
		return;
	/*
	 * Each file moved holds freeze protection on its own
	 * (hot_move_file_range()), not the whole run: a freeze waits for
	 * one file at most, and stops the run.
	 */
	if (!test_bit(BTRFS_FS_STATE_REMOUNTING, &fs_info->fs_state) &&
	    !hot_move_frozen(fs_info))
		hot_move_run(fs_info);
	/* Frozen or remounting: measure anew from the next run. */
	hot_move_fill_mark(fs_info, hot_move_frozen(fs_info) ||
			   test_bit(BTRFS_FS_STATE_REMOUNTING,
				    &fs_info->fs_state));
	if (!READ_ONCE(hm->stopped))
		queue_delayed_work(hm->wq, &hm->work,
				   READ_ONCE(hm->interval) * HZ);
}

/**
 * btrfs_hot_move_init() - set up the hot relocation state of a filesystem
 * @fs_info: the filesystem, being set up.
 *
 * Sets the tunables to their defaults; nothing runs until
 * btrfs_hot_move_update().
 */
void btrfs_hot_move_init(struct btrfs_fs_info *fs_info)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;

	INIT_DELAYED_WORK(&hm->work, hot_move_work);
	mutex_init(&hm->lock);
	hm->stopped = true;
	hm->promote_temp = BTRFS_HOT_MOVE_PROMOTE_TEMP;
	hm->demote_temp = BTRFS_HOT_MOVE_DEMOTE_TEMP;
	hm->interval = BTRFS_HOT_MOVE_INTERVAL;
	hm->high_wm = BTRFS_HOT_MOVE_HIGH_WM;
	hm->low_wm = BTRFS_HOT_MOVE_LOW_WM;
	hm->batch_bytes = BTRFS_HOT_MOVE_BATCH_BYTES;
}

/**
 * btrfs_hot_move_stop() - stop hot relocation and wait for it
 * @fs_info: the filesystem.
 *
 * Waits for a run in progress, which stops between two ranges.  Data
 * allocations stop preferring rotational devices.
 *
 * Context: process context; not from the work item itself.
 */
void btrfs_hot_move_stop(struct btrfs_fs_info *fs_info)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;

	/* Under the lock: a tunable's store must not queue the work after. */
	mutex_lock(&hm->lock);
	WRITE_ONCE(hm->stopped, true);
	mutex_unlock(&hm->lock);
	cancel_delayed_work_sync(&hm->work);
	WRITE_ONCE(hm->active, false);
	/* A new start finds warm ranges anew. */
	kvfree(hm->warm[0]);
	kvfree(hm->warm[1]);
	hm->warm[0] = NULL;
	hm->warm[1] = NULL;
	hm->warm_pass = 0;
	hm->warm_nr = 0;
}

/**
 * btrfs_hot_move_update() - start or stop hot relocation after (re)mount
 * @fs_info: the filesystem.
 *
 * Runs relocation if the filesystem is read-write and mounted with
 * hot_move, and stops it otherwise.
 *
 * Context: process context; mount or remount (&super_block.s_umount held).
 */
void btrfs_hot_move_update(struct btrfs_fs_info *fs_info)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;
	struct hot_move_usage u;

	if (!btrfs_test_opt(fs_info, HOT_MOVE) || sb_rdonly(fs_info->sb)) {
		btrfs_hot_move_stop(fs_info);
		return;
	}
	if (!READ_ONCE(hm->stopped))
		return;
	/* Prefer rotational devices for data from now on. */
	btrfs_update_block_groups_nonrot(fs_info);
	hot_move_usage(fs_info, &u);
	/* A new start: no fallback, backoff or warning from before. */
	hm->full_used = 0;
	hm->backoff = 0;
	hm->profile_idle = false;
	WRITE_ONCE(hm->active, hot_move_can_run(fs_info, &u));
	hot_move_fill_mark(fs_info, true);
	mutex_lock(&hm->lock);
	WRITE_ONCE(hm->stopped, false);
	queue_delayed_work(hm->wq, &hm->work,
			   READ_ONCE(hm->interval) * HZ);
	mutex_unlock(&hm->lock);
}

/**
 * btrfs_hot_move_kick() - run hot relocation now
 * @fs_info: the filesystem.
 *
 * For a change of the tunables: the next run starts at once, if
 * relocation is running.
 *
 * Context: process context, under &btrfs_hot_move.lock.
 */
void btrfs_hot_move_kick(struct btrfs_fs_info *fs_info)
{
	struct btrfs_hot_move *hm = &fs_info->hot_move;

	lockdep_assert_held(&hm->lock);
	if (!READ_ONCE(hm->stopped))
		mod_delayed_work(hm->wq, &hm->work, 0);
}
