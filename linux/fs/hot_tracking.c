// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: how often the data of a file is read from and written
 * to disk, per inode and per 1 MiB range.
 *
 * See Documentation/filesystems/hot_tracking.rst for the design.
 *
 * Locking and lifetime, in short:
 *
 * - &super_block.s_hot_info is set by hot_track_enable() and cleared by
 *   hot_track_disable(), which waits for an RCU grace period before freeing.
 * - The I/O hooks run entirely under rcu_read_lock() and never sleep: they
 *   look items up without locks and allocate with GFP_NOWAIT.  The sleeping
 *   allocations of the original design cannot be used in
 *   folio_start_writeback(), which btrfs calls under a spinlock.
 * - An inode item's xa_lock (of its range xarray) protects its frequency
 *   data, that of its ranges, and its dead flag, which is written with
 *   &hot_info.map_lock held too.  No one holds it for more than
 *   HOT_LOCK_BATCH ranges of a file, nor map_lock for more than a batch
 *   (eviction: HOT_EVICT_BATCH items), but for the spot lists and
 *   hot_track_hot_ranges(), which may pass over the ranges of a deleted
 *   file until free_work has freed them, and over @skip ranges.
 * - Reads and direct writes are counted in slots of the CPU that issues
 *   them, each under its own lock (a bit of &hot_pcp_slot.item), and
 *   counted in the items by the drain of the update worker and of readers
 *   that want every access (see "Per-CPU counting" below).  No other lock
 *   is taken with a slot lock held; of the locks here, only the drain's
 *   &hot_info.pcp_mutex and &hot_info.drain_lock are held when one is
 *   taken (the hooks take it under whatever the filesystem holds, below).
 *   Readers of &hot_info.drain_lock never hold it across their
 *   reads: they only wait for a write section to end.
 * - &hot_info.map_lock protects the heat maps and the items' links in them.
 *   The update worker, the shrinker, the memory cap, the spot lists and the
 *   freeing of items take it, before an item lock; the I/O path never does.
 * - Lock order, outer first: &super_block.s_umount (hot_track_sync()),
 *   &hot_info.pcp_mutex (the drain), &hot_info.drain_lock (the drain of one
 *   slot), &hot_info.map_lock, an item lock, an index lock (of a
 *   &hot_root; the update pass and hot_evict_coldest() remove an idle item
 *   from the index in the hold of its lock that frees it), the lock of
 *   &hot_info.roots (taken after the index lock is let go).
 *   A slot lock nests only in pcp_mutex and drain_lock, taken with no
 *   other lock held under them; &hot_info.pass_lock only in
 *   hot_infos_lock, which nests in s_umount (mount and umount).  The I/O
 *   hooks hold one of an item lock, an index lock or the lock of
 *   &hot_info.roots (inserting an item) or a slot lock at a time, under
 *   whatever the filesystem holds around them (btrfs: a spinlock, in
 *   writeback), and allocate with GFP_NOWAIT.  The shrinker takes map_lock
 *   from reclaim: nothing allocates under these locks but so.
 * - Items are freed after an RCU grace period, once they left their index
 *   and their heat map.  A deleted file's item is killed (dead) by the
 *   eviction hook and freed by &hot_info.free_work, which owns it once it
 *   left the inode index.  hot_track_disable() first stops everything that
 *   could still reach them: debugfs, the worker, the shrinker, the hooks,
 *   then drains free_work.  hot_track_sync() is kept out by s_umount.
 */

#include <linux/bit_spinlock.h>
#include <linux/bitmap.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/hash.h>
#include <linux/hot_tracking.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list_sort.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/percpu.h>
#include <linux/shrinker.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hot_tracking.h"

#define CREATE_TRACE_POINTS
#include <trace/events/hot_track.h>

/* Allocations in the I/O path: never sleep, never warn, never dip into reserves. */
#define HOT_GFP		(GFP_NOWAIT | __GFP_NOWARN | __GFP_NOMEMALLOC)

/*
 * Under memory pressure the shrinker frees the coldest items, but leaves
 * the hottest 1/HOT_SHRINK_KEEP of the items the last update pass put in
 * the heat maps, and at least HOT_SHRINK_KEEP_MIN: even drop_caches, which
 * shrinks until nothing is left to free, leaves the data that matters
 * most.  Only a pass lowers the floor, so memory pressure that lasts
 * leaves an eighth of what is left at each pass.  The memory cap, after
 * each pass, is the bound that does not depend on pressure.
 */
#define HOT_SHRINK_KEEP		8
#define HOT_SHRINK_KEEP_MIN	64UL

/* Items visited between two breaks of the RCU read section of a walk. */
#define HOT_WALK_BATCH	256

/*
 * Range items an update pass, the freeing of an inode item or an I/O hook
 * handles under one hold of the item lock (and of &hot_info.map_lock, but
 * for the hook), whatever the size of the file or of the request: the I/O
 * hooks of a file wait for one batch at most.
 */
#define HOT_LOCK_BATCH	256UL

/*
 * The bounds of &hot_pass.len, in ns (1 ms to 4.9 hours, beyond the
 * longest hot-update-delay): the ratio of two is below 2^25, and a score
 * rescaled from one to the other below 2^57.
 */
#define HOT_PASS_LEN_MIN	NSEC_PER_MSEC
#define HOT_PASS_LEN_MAX	BIT_ULL(44)
/* Bits of fraction of &hot_update_ctl.scale; HOT_SCALE_ONE is 1. */
#define HOT_SCALE_SHIFT		32
#define HOT_SCALE_ONE		BIT_ULL(HOT_SCALE_SHIFT)

/* The largest heat-map bucket an update pass sorts. */
#define HOT_SORT_BUCKET_MAX	4096

/* Records hot_track_query() fills under one hold of map_lock. */
#define HOT_QUERY_BATCH		64U

/*
 * Temperature: 2^26 * log2(rate * 2^62 ns), where rate is the estimated
 * number of accesses per ns: that of &hot_freq.score over &hot_pass.len,
 * or, if higher, one access per HOT_IDLE_GAP ns that grows longer by 1/16
 * of the time since the last access.  Loaded gaps count as at least
 * HOT_MIN_GAP ns.
 */
#define HOT_TEMP_FRAC_BITS	26
#define HOT_RATE_SHIFT		62
#define HOT_MIN_GAP		1024ULL
/*
 * The idle rate's gap, in ns: an item whose score has gone counts as
 * accessed once per HOT_IDLE_GAP and colder as it stays idle, below the
 * rates hot_move is told to tell apart (one access per 4 s and faster).
 */
#define HOT_IDLE_GAP		(16ULL * NSEC_PER_SEC)
/* Bits of fraction of &hot_freq.score. */
#define HOT_SCORE_SHIFT		8
/*
 * An update pass leaves an item at most 2^HOT_CLAMP_SHIFT / 2 times the
 * accesses per pass it counted in that pass, plus one: an item whose
 * accesses stop loses its history at once, not one halving at a time.
 */
#define HOT_CLAMP_SHIFT		2

enum hot_io {
	HOT_READ,
	HOT_WRITE,
	HOT_WRITEBACK,
};

DEFINE_STATIC_KEY_FALSE(hot_track_key);
/* hot_track_enabled(), inline, tests it in filesystems built as modules. */
EXPORT_SYMBOL_GPL(hot_track_key);

/* Range items are the bulk of the memory: keep them to a cache line. */
static_assert(!IS_ENABLED(CONFIG_64BIT) || sizeof(struct hot_range_item) == 64);

unsigned int sysctl_hot_kick_time __read_mostly = HOT_KICK_TIME_DEFAULT;
unsigned int sysctl_hot_update_delay __read_mostly = HOT_UPDATE_DELAY_DEFAULT;
/* Set from the size of RAM by hot_track_init(). */
unsigned long sysctl_hot_mem_max __read_mostly = SZ_1M;

/* The superblocks that track hot data, for the sysctls. */
static LIST_HEAD(hot_infos);
static DEFINE_MUTEX(hot_infos_lock);

static struct kmem_cache *hot_inode_cachep __ro_after_init;
static struct kmem_cache *hot_range_cachep __ro_after_init;

/*
 * The inode index: a superblock's inode items by &hot_inode_key, an xarray
 * of items by inode number for each root (&struct hot_root), in
 * &hot_info.roots by id: root 0 for filesystems without roots.  A root is
 * made with its first item and freed with its last.  Files made one after
 * another mostly get neighbouring numbers, which share the index's nodes
 * (64 slots each), and the index never resizes.
 *
 * Lookups run under rcu_read_lock().  Insertion and removal take the index
 * lock (the xa_lock of &hot_root.inodes), and the lock of &hot_info.roots
 * to add or take out a root, one after the other: the removals of the update
 * pass and of the memory cap under &hot_info.map_lock and an item lock (see
 * the lock order above), that of the eviction hook and the insertion under
 * neither.  Both are in task context and do not turn interrupts off (btrfs
 * may call the writeback hook, and so insert, with them off; freeing a root
 * does, in xa_destroy()), nor are the locks taken from interrupts; both
 * allocate with GFP_NOWAIT under the lock.  The xarrays of the index have
 * their own lockdep classes: their locks nest in an item lock, the xa_lock
 * of another xarray of this file.
 *
 * On 32-bit, whose xarray indexes have 32 bits, files whose inode number or
 * root does not fit are not tracked (hot_index_fits()).
 */
static struct lock_class_key hot_index_lock_key;
static struct lock_class_key hot_roots_lock_key;

/* The levels of nodes of an xarray, up to one that holds every index. */
#define HOT_INDEX_LEVELS	DIV_ROUND_UP(BITS_PER_LONG, XA_CHUNK_SHIFT)

/*
 * The nodes counted for an insertion that failed for want of memory, up to
 * %HOT_INDEX_SPARE_MAX for an xarray: more than it leaves without an entry
 * in an xarray that holds entries (the levels it added above the head and
 * the path down from there, never a leaf).  One into &hot_info.roots that
 * only nodes a failure left hold may leave more, but the failure that left
 * them counted more than it left: as failures add up, the count stays at
 * or above the nodes the xarray has.  They stay counted until the xarray
 * goes (a root with its last item, &hot_info.roots when tracking is turned
 * off), and xa_destroy() frees what is left of them; nodes a later
 * insertion fills are counted twice until then.  Past the bound, under
 * failures at many indexes, what they leave is not counted: a bound on
 * what memory pressure can take from the cap.
 */
#define HOT_INDEX_SPARE		HOT_INDEX_LEVELS
#define HOT_INDEX_SPARE_MAX	(8 * HOT_INDEX_LEVELS)

/*
 * The levels of nodes @xa has: none if its head holds an entry (index 0)
 * or nothing.  Caller holds its xa_lock.
 */
static unsigned int hot_index_xa_height(struct xarray *xa)
{
	void *head = xa_head_locked(xa);

	return xa_is_node(head) ?
	       xa_to_node(head)->shift / XA_CHUNK_SHIFT + 1 : 0;
}

/*
 * At how many levels @index is alone in its group of indexes (of 64, 64^2
 * ... and of every index, %HOT_INDEX_LEVELS in all), from the first up: an
 * xarray has a node for each group that holds an entry, up to its height.
 * At most %HOT_INDEX_LEVELS lookups, one in the common case of a neighbour
 * in the group of 64.  Caller holds the xa_lock of @xa, in which @index has
 * no entry.
 */
static unsigned int hot_index_alone(struct xarray *xa, unsigned long index)
{
	unsigned long first = 0;
	unsigned int level;

	lockdep_assert_held(&xa->xa_lock);
	for (level = 1; level < HOT_INDEX_LEVELS; level++) {
		unsigned long size = 1UL << (level * XA_CHUNK_SHIFT);

		first = round_down(index, size);
		if (xa_find(xa, &first, first + size - 1, XA_PRESENT))
			return level - 1;
	}
	/*
	 * Not xa_empty(): a failed insertion may have left nodes without an
	 * entry.
	 */
	first = 0;
	return xa_find(xa, &first, ULONG_MAX, XA_PRESENT) ?
	       HOT_INDEX_LEVELS - 1 : HOT_INDEX_LEVELS;
}

/*
 * Count in &hot_info.mem the nodes that @n now has, after @groups groups
 * joined (or left, if negative) and @spare nodes were left (or freed, if
 * negative) by insertions that failed.  @xa is the xarray counted, whose
 * lock the caller holds, or NULL once it is destroyed.  Exact but for
 * @spare: the levels above the xarray's height have one group each and
 * no node, every group below has one.
 */
static void hot_index_count(struct hot_info *hi, struct hot_index_nodes *n,
			    struct xarray *xa, long groups, long spare)
{
	unsigned long nodes = 0;
	long delta;

	n->groups += groups;
	n->spare += spare;
	if (n->groups && !WARN_ON_ONCE(!xa))
		nodes = n->groups - HOT_INDEX_LEVELS + hot_index_xa_height(xa);
	nodes += n->spare;
	delta = (long)nodes - (long)n->nodes;
	if (!delta)
		return;
	n->nodes = nodes;
	atomic_long_add(delta * (long)sizeof(struct xa_node), &hi->mem);
	atomic_long_add(delta * (long)sizeof(struct xa_node), &hi->index_mem);
}

/*
 * Add @entry at @index of @xa, an xarray of the index counted by @n, if
 * it has none.  Caller holds its lock.  Return: NULL if added, else the
 * entry there or an xa_err() entry (-ENOMEM).
 */
static void *hot_index_store(struct hot_info *hi, struct xarray *xa,
			     struct hot_index_nodes *n, unsigned long index,
			     void *entry)
{
	unsigned int alone = hot_index_alone(xa, index);
	void *curr;

	/* Not dropped to allocate, the lock keeps @alone true. */
	BUILD_BUG_ON(HOT_GFP & __GFP_DIRECT_RECLAIM);
	curr = __xa_cmpxchg(xa, index, NULL, entry, HOT_GFP);
	if (!curr)
		hot_index_count(hi, n, xa, alone, 0);
	else if (xa_is_err(curr) && n->spare < HOT_INDEX_SPARE_MAX)
		hot_index_count(hi, n, xa, 0, HOT_INDEX_SPARE);
	return curr;
}

/*
 * Take @entry out of @xa, as for hot_index_store().  The count of the
 * leaf node that holds @entry tells whether another entry shares it, as
 * one does for all but the last of 64 files deleted one after another:
 * then no group is left empty, and hot_index_alone()'s walk of the group
 * is not needed.  Return: whether @entry was at @index.
 */
static bool hot_index_erase(struct hot_info *hi, struct xarray *xa,
			    struct hot_index_nodes *n, unsigned long index,
			    void *entry)
{
	XA_STATE(xas, xa, index);
	unsigned int alone = 0;
	bool shared;

	lockdep_assert_held(&xa->xa_lock);
	if (xas_load(&xas) != entry)
		return false;
	/* The leaf that holds it, or NULL for the head (index 0 alone). */
	VM_WARN_ON_ONCE(xas.xa_node && xas.xa_node->shift);
	shared = xas.xa_node && xas.xa_node->count > 1;
	xas_store(&xas, NULL);
	if (!shared)
		alone = hot_index_alone(xa, index);
	/* Even if shared: the xarray may have shrunk. */
	hot_index_count(hi, n, xa, -(long)alone, 0);
	return true;
}

/* The bytes of a root, counted in &hot_info.mem. */
static size_t hot_root_bytes(void)
{
	return kmalloc_size_roundup(sizeof(struct hot_root));
}

/*
 * The root of id @id, dead or alive, or NULL.  Caller holds RCU.  Root 0,
 * the only one of most filesystems, without a walk of &hot_info.roots.
 */
static __always_inline struct hot_root *hot_root_lookup(struct hot_info *hi,
							u64 id)
{
	if (likely(!id))
		return rcu_dereference(hi->root0);
	return xa_load(&hi->roots, id);
}

/*
 * Make @root, just put in &hot_info.roots, &hot_info.root0 if it is root 0.
 * Caller holds the lock of &hot_info.roots.
 */
static void hot_root_set(struct hot_info *hi, struct hot_root *root)
{
	if (!root->id)
		rcu_assign_pointer(hi->root0, root);
}

/*
 * The live root of id @id, made if there is none.  Caller holds RCU.
 * Return: the root, or NULL out of memory.
 */
static struct hot_root *hot_root_get(struct hot_info *hi, u64 id)
{
	struct hot_root *root = hot_root_lookup(hi, id);
	struct hot_root *new, *curr;

	if (root && !READ_ONCE(root->dead))
		return root;
	new = kzalloc_obj(*new, HOT_GFP);
	if (!new)
		return NULL;
	xa_init(&new->inodes);
	lockdep_set_class(&new->inodes.xa_lock, &hot_index_lock_key);
	new->id = id;
	xa_lock(&hi->roots);
	curr = xa_load(&hi->roots, id);
	if (curr && !READ_ONCE(curr->dead)) {
		root = curr;
	} else if (curr) {
		/* Its last item went: replace it, and let its killer free it. */
		__xa_store(&hi->roots, id, new, 0);
		root = new;
	} else {
		curr = hot_index_store(hi, &hi->roots, &hi->root_nodes, id,
				       new);
		root = xa_is_err(curr) ? NULL : new;
	}
	if (root == new)
		hot_root_set(hi, new);
	xa_unlock(&hi->roots);
	if (root != new) {
		kfree(new);
	} else {
		atomic_long_add(hot_root_bytes(), &hi->mem);
		atomic_long_add(hot_root_bytes(), &hi->index_mem);
	}
	return root;
}

/*
 * Take dead root @root out of &hot_info.roots, if a new one did not take
 * its place, and free it after a grace period, with the nodes that failed
 * insertions left in it.  Called once, by whoever made it dead, or by
 * hot_index_destroy(), without its index lock (xa_destroy() takes it) but
 * maybe under an item lock and &hot_info.map_lock; readers under RCU may
 * still see it, dead and empty, until the grace period ends.
 */
static void hot_root_free(struct hot_info *hi, struct hot_root *root)
{
	long spare = root->nodes.spare;

	xa_lock(&hi->roots);
	if (hot_index_erase(hi, &hi->roots, &hi->root_nodes, root->id, root) &&
	    !root->id)
		RCU_INIT_POINTER(hi->root0, NULL);
	xa_unlock(&hi->roots);
	xa_destroy(&root->inodes);
	/* Dead and empty: no one changes its count any more. */
	hot_index_count(hi, &root->nodes, NULL, 0, -spare);
	atomic_long_sub(hot_root_bytes(), &hi->mem);
	atomic_long_sub(hot_root_bytes(), &hi->index_mem);
	kfree_rcu(root, rcu);
}

/*
 * Make @root dead if it has no item left.  Caller holds its index lock.
 * Return: whether it did; the caller then calls hot_root_free() once it let
 * the lock go.
 */
static bool hot_root_kill(struct hot_root *root)
{
	/* Not xa_empty(): a failed insertion may have left empty nodes. */
	if (root->dead || root->nodes.groups)
		return false;
	WRITE_ONCE(root->dead, true);
	return true;
}

/*
 * Whether @key can be in the index: on 32-bit, whether it fits its indexes.
 * A file whose key does not is not tracked, as the filesystem's internal
 * files are not, and not counted as an item not made: that would keep
 * hot_track_seen_all() false for as long as it is read.
 */
static __always_inline bool hot_index_fits(const struct hot_inode_key *key)
{
	return BITS_PER_LONG == 64 ||
	       !(upper_32_bits(key->ino) | upper_32_bits(key->root));
}

/* The item of @key in @hi, or NULL.  Caller holds rcu_read_lock(). */
static __always_inline struct hot_inode_item *
hot_index_lookup(struct hot_info *hi, const struct hot_inode_key *key)
{
	struct hot_root *root;

	if (!hot_index_fits(key))
		return NULL;
	root = hot_root_lookup(hi, key->root);
	return root ? xa_load(&root->inodes, key->ino) : NULL;
}

/*
 * Add @he to @hi's index unless an item of its key is in it.  Return:
 * NULL if added, else the item found, or an ERR_PTR() if the index could
 * not take it (-ENOMEM; -EAGAIN if the roots of its id kept dying as it
 * tried; -EOVERFLOW for a key that does not fit).
 * Caller holds rcu_read_lock().
 */
static struct hot_inode_item *hot_index_insert(struct hot_info *hi,
					       struct hot_inode_item *he)
{
	struct hot_root *root;
	unsigned int tries;
	bool killed;
	void *curr;

	if (!hot_index_fits(&he->key))
		return ERR_PTR(-EOVERFLOW);
	for (tries = 0; ; tries++) {
		root = hot_root_get(hi, he->key.root);
		if (!root)
			return ERR_PTR(-ENOMEM);
		xa_lock(&root->inodes);
		if (!root->dead)
			break;
		xa_unlock(&root->inodes);
		/*
		 * Its last item went since: get the root that replaces it, a
		 * few times at most, as others make and kill roots of this id.
		 */
		if (tries == 2)
			return ERR_PTR(-EAGAIN);
	}
	curr = hot_index_store(hi, &root->inodes, &root->nodes, he->key.ino,
			       he);
	/* A root made for @he goes with it. */
	killed = xa_is_err(curr) && hot_root_kill(root);
	xa_unlock(&root->inodes);
	if (killed)
		hot_root_free(hi, root);
	if (xa_is_err(curr))
		return ERR_PTR(xa_err(curr));
	return curr;
}

/*
 * Take @he out of @hi's index.  Caller keeps @he from being freed (holds
 * rcu_read_lock() or its item lock).  Return: true if this call took it
 * out, false if it was not in it (another one did first).
 */
static bool hot_index_remove(struct hot_info *hi, struct hot_inode_item *he)
{
	struct hot_root *root;
	bool removed, killed;

	if (!hot_index_fits(&he->key))
		return false;
	rcu_read_lock();
	root = hot_root_lookup(hi, he->key.root);
	if (!root) {
		rcu_read_unlock();
		return false;
	}
	xa_lock(&root->inodes);
	removed = hot_index_erase(hi, &root->inodes, &root->nodes,
				  he->key.ino, he);
	killed = removed && hot_root_kill(root);
	xa_unlock(&root->inodes);
	if (killed)
		hot_root_free(hi, root);
	rcu_read_unlock();
	return removed;
}

/* Set up @hi's index, empty: it allocates nothing until an item joins. */
static void hot_index_init(struct hot_info *hi)
{
	xa_init(&hi->roots);
	lockdep_set_class(&hi->roots.xa_lock, &hot_roots_lock_key);
}

/**
 * hot_range_span() - the ranges that a byte range of a file touches
 * @pos: offset of the first byte, in bytes.
 * @len: length, in bytes.
 * @first: the first range number, on success.
 * @last: the last range number, on success.
 *
 * A request that runs past the largest file offset is cut there.
 *
 * Return: false if there is nothing to record (@len is 0 or @pos negative).
 */
static bool hot_range_span(loff_t pos, u64 len, u64 *first, u64 *last)
{
	u64 end;

	if (pos < 0 || !len)
		return false;
	if (len > (u64)(LLONG_MAX - pos))
		end = LLONG_MAX;
	else
		end = pos + len - 1;
	*first = pos >> HOT_RANGE_SHIFT;
	*last = end >> HOT_RANGE_SHIFT;
	return true;
}

/* Add @n to the counter @c, saturating at U32_MAX. */
static void hot_add_sat(u32 *c, u32 n)
{
	*c = n > U32_MAX - *c ? U32_MAX : *c + n;
}

/*
 * Count @n reads (@write false) or writes, the latest at @last (ns), in
 * @freq.  Caller holds the item lock, or owns @freq.
 */
static void hot_freq_count(struct hot_freq *freq, u32 n, u64 last, bool write)
{
	if (!n)
		return;
	hot_add_sat(write ? &freq->nr_writes : &freq->nr_reads, n);
	hot_add_sat(&freq->pending, n);
	if (write)
		freq->last_write_time = max(freq->last_write_time, last);
	else
		freq->last_read_time = max(freq->last_read_time, last);
}

/**
 * hot_score_fold() - add the accesses of the pass that ends to the score
 * @freq: the item's frequency data.
 * @scale: the length of this pass over that of the pass before, with
 *	%HOT_SCALE_SHIFT bits of fraction, below 2^57: the score counted
 *	accesses per pass before, and is taken to per this pass first.
 *
 * score = (score * scale + pending) / 2, with the sum first cut to
 * 2^%HOT_CLAMP_SHIFT (pending + 1): an item counted the same c accesses
 * per pass holds c, and one whose accesses stop falls to at most two
 * accesses per pass.  Neither the cut nor the saturation can make an item
 * with more accesses score less than one with fewer.  Caller holds the
 * item lock.
 */
static void hot_score_fold(struct hot_freq *freq, u64 scale)
{
	u64 x = freq->score;

	if (scale != HOT_SCALE_ONE)
		x = mul_u64_u64_shr(x, scale, HOT_SCALE_SHIFT);
	x += (u64)freq->pending << HOT_SCORE_SHIFT;

	x = min(x, ((u64)freq->pending + 1) <<
		   (HOT_SCORE_SHIFT + HOT_CLAMP_SHIFT));
	freq->score = min_t(u64, x >> 1, U32_MAX);
	freq->pending = 0;
}

/*
 * The score of @freq at @now, with 8 bits of fraction: score plus pending,
 * decayed by the part of the pass @pass that has gone by (linearly from 1
 * to 1/2 at its end, what the next pass will keep if nothing else comes).
 */
static u64 hot_score_now(const struct hot_pass *pass,
			 const struct hot_freq *freq, u64 now)
{
	u64 x = freq->score + ((u64)freq->pending << HOT_SCORE_SHIFT);
	u64 delay = max(pass->delay, 1ULL);
	u64 since = now > pass->time ? min(now - pass->time, delay) : 0;

	return x - mul_u64_u64_div_u64(x, since, 2 * delay);
}

/*
 * The gap between accesses of an item last accessed at @last, at @now, in
 * ns: HOT_IDLE_GAP, or 15/16 of it plus 1/16 of the time since @last if
 * that is longer.  An item accessed once is thought of as accessed once
 * per HOT_IDLE_GAP, and grows colder slowly as it stays idle.
 */
static u64 hot_idle_gap(u64 last, u64 now)
{
	u64 age = now > last ? now - last : 0;

	return max(HOT_IDLE_GAP,
		   HOT_IDLE_GAP - (HOT_IDLE_GAP >> 4) + (age >> 4));
}

/* The latest access of @freq, in ns; 0 if none. */
static u64 hot_freq_last(const struct hot_freq *freq)
{
	return max(freq->last_read_time, freq->last_write_time);
}

/* log2(@x) in fixed point with HOT_TEMP_FRAC_BITS bits of fraction. */
static u32 hot_log2(u64 x)
{
	unsigned int il;
	u64 frac;

	if (x < 2)
		return 0;
	il = ilog2(x);
	if (il >= HOT_TEMP_FRAC_BITS)
		frac = x >> (il - HOT_TEMP_FRAC_BITS);
	else
		frac = x << (HOT_TEMP_FRAC_BITS - il);
	return (il << HOT_TEMP_FRAC_BITS) |
	       (frac & (BIT_ULL(HOT_TEMP_FRAC_BITS) - 1));
}

/**
 * hot_temp() - temperature of an item
 * @pass: the last update pass, or, in the pass, this one.
 * @freq: the item's frequency data.
 * @now: the time to compute it for, hot_clock_ns() (ns).
 *
 * The temperature is a logarithm of the estimated access rate, reads and
 * writes together: the accesses per update pass of &hot_freq.score and
 * &hot_freq.pending over &hot_pass.len, or, if that is lower, one
 * access per 16 s growing slower by 1/16 of the time since the last
 * access.  An access never makes an item colder, and time without access
 * does.  Doubling the rate adds 2^26; an item accessed once a second is
 * near 2^31.  See Documentation/filesystems/hot_tracking.rst.
 *
 * Context: any; the caller keeps @freq stable.
 * Return: the temperature; 0 for an item never accessed.
 */
u32 hot_temp(const struct hot_pass *pass, const struct hot_freq *freq,
	     u64 now)
{
	u64 xs = hot_score_now(pass, freq, now);
	u32 idle;
	s64 t;

	if (!freq->nr_reads && !freq->nr_writes)
		return 0;
	idle = hot_log2(div64_u64(BIT_ULL(HOT_RATE_SHIFT),
				  hot_idle_gap(hot_freq_last(freq), now)));
	if (!xs)
		return idle;
	/* xs / 2^8 accesses in pass->len ns, times 2^62 ns. */
	t = (s64)hot_log2(xs) - hot_log2(max(pass->len, 1ULL)) +
	    ((s64)(HOT_RATE_SHIFT - HOT_SCORE_SHIFT) << HOT_TEMP_FRAC_BITS);
	return clamp_t(s64, t, idle, U32_MAX);
}

/* @gap (ns) times @nr / @part, saturating at U64_MAX; 0 if @part is 0. */
static u64 hot_gap_share(u64 gap, u64 nr, u32 part)
{
	if (!part)
		return 0;
	if (gap > div64_u64(U64_MAX, nr))
		return U64_MAX;
	return div64_u64(gap * nr, part);
}

/**
 * hot_freq_gaps() - the gaps between accesses that a temperature stands for
 * @pass: the last update pass.
 * @freq: the item's frequency data.
 * @now: the time to compute them for, hot_clock_ns() (ns).
 * @reads: set to the time between two reads, in ns; 0 if never read.
 * @writes: set to the time between two writes, in ns; 0 if never written.
 *
 * The rate of hot_temp(), shared between reads and writes as their
 * counts are: for an item only read, hot_temp() is 2^26 * log2(2^62 /
 * *@reads).
 *
 * Context: any; the caller keeps @freq stable.
 */
void hot_freq_gaps(const struct hot_pass *pass, const struct hot_freq *freq,
		   u64 now, u64 *reads, u64 *writes)
{
	u64 nr = (u64)freq->nr_reads + freq->nr_writes;
	u64 gap = hot_idle_gap(hot_freq_last(freq), now);
	u64 xs = hot_score_now(pass, freq, now);

	if (xs)
		gap = min(gap, div64_u64(max(pass->len, 1ULL) <<
					 HOT_SCORE_SHIFT, xs));
	*reads = hot_gap_share(gap, nr, freq->nr_reads);
	*writes = hot_gap_share(gap, nr, freq->nr_writes);
}

/*
 * The last update pass of @hi, read without a lock.  On 32-bit a field may
 * be torn between two passes: @len is kept within its bounds, or a torn
 * one, far below a millisecond, would make one temperature the highest.
 */
static struct hot_pass hot_pass_get(const struct hot_info *hi)
{
	struct hot_pass pass = {
		.time = READ_ONCE(hi->pass.time),
		.delay = READ_ONCE(hi->pass.delay),
		.len = clamp(READ_ONCE(hi->pass.len), HOT_PASS_LEN_MIN,
			     HOT_PASS_LEN_MAX),
	};

	return pass;
}

/* Count @nr items of @cachep (fewer if negative) in @hi's mem and counts. */
static void hot_mem_add(struct hot_info *hi, struct kmem_cache *cachep,
			long nr)
{
	long size = kmem_cache_size(cachep);

	if (!nr)
		return;
	atomic_long_add(nr * size, &hi->mem);
	atomic_long_add(nr, cachep == hot_inode_cachep ? &hi->nr_inodes :
					&hi->nr_ranges);
}

/*
 * Put an item in heat-map bucket @bucket, counting it in
 * &hot_info.nr_mapped if it was in no map.  Caller holds
 * &hot_info.map_lock.
 */
static void hot_map_add(struct hot_info *hi, struct list_head *entry,
			struct list_head *bucket)
{
	if (list_empty(entry))
		WRITE_ONCE(hi->nr_mapped, hi->nr_mapped + 1);
	list_move_tail(entry, bucket);
}

/* Take an item out of its heat map, if in one.  Caller holds map_lock. */
static void hot_map_del(struct hot_info *hi, struct list_head *entry)
{
	if (list_empty(entry))
		return;
	WRITE_ONCE(hi->nr_mapped, hi->nr_mapped - 1);
	list_del_init(entry);
}

/*
 * Bring the leaf nodes of @he->ranges counted in &hot_info.mem in line:
 * one per group of 64 ranges that holds an item, none while the xarray
 * holds range 0 alone, in its head.  Caller holds the item lock.
 */
static void hot_nodes_sync(struct hot_info *hi, struct hot_inode_item *he)
{
	u32 nodes = xa_is_node(xa_head_locked(&he->ranges)) ?
		    he->nr_groups : 0;

	if (nodes == he->nr_nodes)
		return;
	atomic_long_add(((long)nodes - (long)he->nr_nodes) *
			(long)sizeof(struct xa_node), &hi->mem);
	he->nr_nodes = nodes;
}

/*
 * Whether no range of the 64 that share a leaf node of @he->ranges with
 * range @index has an item.  Caller holds the item lock.
 */
static bool hot_group_empty(struct hot_inode_item *he, unsigned long index)
{
	unsigned long start = round_down(index, XA_CHUNK_SIZE);

	return !xa_find(&he->ranges, &start, start + XA_CHUNK_SIZE - 1,
			XA_PRESENT);
}

/*
 * Take range item @hr out of its inode item and its heat map, and free it
 * after a grace period.  Caller holds &hot_info.map_lock and the item lock.
 */
static void hot_range_erase(struct hot_info *hi, struct hot_inode_item *he,
			    struct hot_range_item *hr)
{
	__xa_erase(&he->ranges, hr->index);
	hot_map_del(hi, &hr->track_list);
	if (hot_group_empty(he, hr->index))
		he->nr_groups--;
	hot_nodes_sync(hi, he);
	kfree_rcu(hr, rcu);
}

/*
 * Free an inode item that left the inode index, and its ranges, all in one
 * hold of &hot_info.map_lock and of the item lock, which the caller holds:
 * for items with few ranges, or none (hot_inode_free() takes any number).
 * Drops the item lock.  Readers under RCU may still see the items until
 * the grace period ends.
 */
static void hot_inode_free_locked(struct hot_info *hi,
				  struct hot_inode_item *he)
	__releases(&he->ranges.xa_lock)
{
	struct hot_range_item *hr;
	unsigned long index;
	long nr = 0;

	lockdep_assert_held(&hi->map_lock);
	lockdep_assert_held(&he->ranges.xa_lock);
	he->dead = true;
	xa_for_each(&he->ranges, index, hr) {
		__xa_erase(&he->ranges, index);
		hot_map_del(hi, &hr->track_list);
		kfree_rcu(hr, rcu);
		nr++;
	}
	hot_map_del(hi, &he->track_list);
	he->nr_groups = 0;
	hot_nodes_sync(hi, he);
	xa_unlock(&he->ranges);
	/*
	 * Every entry erased, the xarray has no node left, unless an insertion
	 * that failed half-way (xas_create()) left an empty one.
	 */
	if (unlikely(!xa_empty(&he->ranges)))
		xa_destroy(&he->ranges);
	hot_mem_add(hi, hot_range_cachep, -nr);
	hot_mem_add(hi, hot_inode_cachep, -1);
	kfree_rcu(he, rcu);
}

/*
 * Free up to %HOT_LOCK_BATCH ranges of @he, which is dead.  Caller holds
 * &hot_info.map_lock and the item lock.  Return: true if ranges are left
 * (not xa_empty(): an empty node may be left, see hot_inode_free_locked()).
 */
static bool hot_inode_free_ranges(struct hot_info *hi,
				  struct hot_inode_item *he)
{
	struct hot_range_item *hr;
	unsigned long index;
	bool more = false;
	long nr = 0;

	xa_for_each(&he->ranges, index, hr) {
		if (nr == HOT_LOCK_BATCH) {
			more = true;
			break;
		}
		hot_range_erase(hi, he, hr);
		nr++;
	}
	hot_mem_add(hi, hot_range_cachep, -nr);
	return more;
}

/*
 * Free an inode item that left the inode index and may have any number of
 * ranges: dead first, so that no range is added, then the ranges in
 * batches, letting others take the locks and run in between.  Process
 * context, outside RCU read sections.
 */
static void hot_inode_free(struct hot_info *hi, struct hot_inode_item *he)
{
	bool more;

	do {
		spin_lock(&hi->map_lock);
		xa_lock(&he->ranges);
		he->dead = true;
		more = hot_inode_free_ranges(hi, he);
		if (more)
			xa_unlock(&he->ranges);
		else
			hot_inode_free_locked(hi, he);
		spin_unlock(&hi->map_lock);
		cond_resched();
	} while (more);
}

/*
 * Free the items of deleted files that hot_inode_kill() left.  They left
 * the inode index, so nothing else frees them: they are valid here
 * without RCU.
 */
static void hot_free_work(struct work_struct *work)
{
	struct hot_info *hi = container_of(work, struct hot_info, free_work);
	struct hot_inode_item *he;

	for (;;) {
		spin_lock(&hi->map_lock);
		he = list_first_entry_or_null(&hi->dead_items,
					      struct hot_inode_item, track_list);
		if (he)
			list_del_init(&he->track_list);
		spin_unlock(&hi->map_lock);
		if (!he)
			break;
		hot_inode_free(hi, he);
	}
}

/*
 * Kill the item of a deleted file, which left the inode index: it is
 * dead at once, so that no range is added and the heat maps' readers skip
 * its ranges.  An item of a batch of ranges at most, as every file of up
 * to 256 MiB has, is freed here: handing it on costs more than freeing
 * it.  A larger one goes to hot_free_work(), which frees its ranges in
 * batches and may sleep in between.  Caller holds rcu_read_lock().
 */
static void hot_inode_kill(struct hot_info *hi, struct hot_inode_item *he)
{
	bool small;

	trace_hot_track_inode_drop(hi->sb, he->key.root, he->key.ino,
				   he->generation, HOT_DROP_DELETED);
	spin_lock(&hi->map_lock);
	xa_lock(&he->ranges);
	he->dead = true;
	/* At most 64 ranges per group that holds one: a batch at most. */
	small = he->nr_groups <= HOT_LOCK_BATCH / XA_CHUNK_SIZE;
	if (small) {
		hot_inode_free_locked(hi, he);
	} else {
		xa_unlock(&he->ranges);
		hot_map_del(hi, &he->track_list);
		list_add_tail(&he->track_list, &hi->dead_items);
		queue_work(system_dfl_wq, &hi->free_work);
	}
	spin_unlock(&hi->map_lock);
}

/*
 * The key of @inode in @hi's inode index; false if the filesystem does not track
 * @inode, one of its internal files.
 */
static bool hot_inode_key(struct hot_info *hi, const struct inode *inode,
			  struct hot_inode_key *key)
{
	key->root = 0;
	key->ino = inode->i_ino;
	return !hi->type || !hi->type->inode_root ||
	       hi->type->inode_root(inode, &key->root);
}

/*
 * An item was not made: data accessed now has no item for hot-kick-time
 * (see hot_track_seen_all()).  A store only once a second, so that CPUs at
 * the cap do not write one cache line all the time.
 */
static void hot_refused(struct hot_info *hi)
{
	unsigned long now = ktime_get_boottime_seconds();

	if (READ_ONCE(hi->refused_at) != now || !READ_ONCE(hi->refused)) {
		WRITE_ONCE(hi->refused_at, now);
		/* Pairs with smp_load_acquire() in hot_track_seen_all(). */
		smp_store_release(&hi->refused, true);
	}
}

/* The cap of @hi's items, in bytes. */
static unsigned long hot_mem_cap(struct hot_info *hi)
{
	return READ_ONCE(hi->mem_max) ?: READ_ONCE(sysctl_hot_mem_max);
}

/* Whether the items of @hi use the bytes the cap allows. */
static bool hot_mem_at_cap(struct hot_info *hi)
{
	return atomic_long_read(&hi->mem) >= hot_mem_cap(hi);
}

/*
 * Whether the items of @hi use the bytes the cap allows: then the I/O hooks
 * make no new item (and count that) until an update pass frees some.
 */
static bool hot_mem_full(struct hot_info *hi)
{
	if (atomic_long_read(&hi->mem) < hot_mem_cap(hi))
		return false;
	percpu_counter_inc(&hi->nr_over_cap);
	hot_refused(hi);
	return true;
}

/* Find the item of @inode.  Caller holds rcu_read_lock(). */
static struct hot_inode_item *hot_inode_lookup(struct hot_info *hi,
					       const struct inode *inode)
{
	struct hot_inode_key key;

	if (!hot_inode_key(hi, inode, &key))
		return NULL;
	return hot_index_lookup(hi, &key);
}

/* Find or add the item of @inode.  Caller holds rcu_read_lock(). */
static struct hot_inode_item *hot_inode_get(struct hot_info *hi,
					    struct inode *inode)
{
	struct hot_inode_item *he, *old;
	struct hot_inode_key key;

	if (!hot_inode_key(hi, inode, &key))
		return NULL;
	he = hot_index_lookup(hi, &key);
	if (he || unlikely(!hot_index_fits(&key)) || hot_mem_full(hi))
		return he;

	he = kmem_cache_zalloc(hot_inode_cachep, HOT_GFP);
	if (!he) {
		hot_refused(hi);
		return NULL;
	}
	xa_init(&he->ranges);
	INIT_LIST_HEAD(&he->track_list);
	he->key = key;
	he->generation = inode->i_generation;
	old = hot_index_insert(hi, he);
	if (old) {
		/* Lost a race, or the index could not take it. */
		kmem_cache_free(hot_inode_cachep, he);
		if (!IS_ERR(old))
			return old;
		hot_refused(hi);
		return NULL;
	}
	hot_mem_add(hi, hot_inode_cachep, 1);
	return he;
}

/* Find or add range @index of @he.  Caller holds the item lock. */
static struct hot_range_item *hot_range_get(struct hot_info *hi,
					    struct hot_inode_item *he,
					    unsigned long index)
{
	struct hot_range_item *hr;
	bool new_node;

	hr = xa_load(&he->ranges, index);
	if (hr || hot_mem_full(hi))
		return hr;
	hr = kmem_cache_zalloc(hot_range_cachep, HOT_GFP);
	if (!hr) {
		hot_refused(hi);
		return NULL;
	}
	hr->index = index;
	hr->hot_inode = he;
	INIT_LIST_HEAD(&hr->track_list);
	new_node = hot_group_empty(he, index);
	if (__xa_insert(&he->ranges, index, hr, HOT_GFP)) {
		kmem_cache_free(hot_range_cachep, hr);
		hot_refused(hi);
		return NULL;
	}
	hot_mem_add(hi, hot_range_cachep, 1);
	if (new_node)
		he->nr_groups++;
	hot_nodes_sync(hi, he);
	return hr;
}

/*
 * Whether a writeback pass that began at @start counted a write of @freq
 * already.  A pass is taken to have begun before any write outside a pass.
 */
static bool hot_wb_counted(const struct hot_freq *freq, u64 start)
{
	return freq->nr_writes && freq->last_write_time >= start;
}

/*
 * Whether a folio of a writeback pass can skip the item lock: when it lies
 * in one range, and the inode and that range counted their write of the
 * pass already, as they have for all but the first folio of each range.
 * Read without the lock, so a pass that begins meanwhile may lose a write;
 * only where 64-bit times cannot tear.  Caller holds rcu_read_lock().
 */
static bool hot_wb_done(struct hot_inode_item *he, u64 first, u64 last)
{
	u64 start = READ_ONCE(he->wb_start);
	struct hot_range_item *hr;

	if (!IS_ENABLED(CONFIG_64BIT) || first != last)
		return false;
	hr = xa_load(&he->ranges, first);
	/* Unlocked on purpose: a stale answer loses one count at most. */
	return hr && data_race(hot_wb_counted(&he->freq, start) &&
			       hot_wb_counted(&hr->freq, start));
}

/*
 * Per-CPU counting.  Reads and writes other than writeback are counted in
 * slots of the CPU that issues them, so that CPUs sharing a file write no
 * shared cache line per access.  A slot counts for one range item, and for
 * its inode item the accesses that begin in that range if it is one of
 * the first %HOT_PCP_HOME of the file, until the slots are next drained:
 * such an access to one range touches the 64 bytes of its slot, which
 * hold the slot's lock too.  An access that begins further in counts for
 * the inode in a slot of the inode item's own.  An item whose slot holds
 * another one is counted under the item lock.  The drain
 * (hot_track_drain()) adds what each slot holds to its items' counts: they
 * add up in any order.  It takes a slot and counts it in one write section
 * of &hot_info.drain_lock, so that a reader of an item and its slots
 * (hot_track_get_freq(), in read sections, never holding the lock) finds
 * each access in the one or in the other, not in neither nor in both.  A
 * slot keeps the address of its range item only to compare it: the item
 * may be freed meanwhile, and the drain finds it, or not, by its key; the
 * inode's share goes to the file's inode item, found by key and
 * generation, whatever became of the range.
 * Writeback keeps the locked path: its one write per range and pass needs
 * the item's own times.
 */

/* Slots per CPU and superblock. */
#define HOT_PCP_SHIFT		7
#define HOT_PCP_SLOTS		BIT(HOT_PCP_SHIFT)
/* The bit of &hot_pcp_slot.item that is the slot's lock. */
#define HOT_PCP_LOCK_BIT	0
/*
 * Accesses that begin in one of the first HOT_PCP_HOME ranges of a file
 * count for its inode in that range's slot, the others in the inode's: so
 * the slots that may hold a file's accesses are at most HOT_PCP_HOME + 1
 * per CPU, which hot_pcp_peek_inode() reads.
 */
#define HOT_PCP_HOME		16
/*
 * &hot_pcp_slot.index of the slot of an inode item.  Range U32_MAX, the
 * last one tracked, is counted under the item lock instead.
 */
#define HOT_PCP_INODE		U32_MAX

/**
 * struct hot_pcp_slot - accesses to one item not yet counted in it
 * @item: the address of the &struct hot_range_item, or of the
 *	&struct hot_inode_item, compared, never dereferenced; its bit
 *	%HOT_PCP_LOCK_BIT (items are aligned) is the slot's lock, a bit
 *	spinlock.  The lock protects the other fields and
 *	the rest of @item.  Taken by the I/O hooks (of this CPU, or of a task
 *	that moved off it after choosing the slots), by the drain under
 *	&hot_info.pcp_mutex and &hot_info.drain_lock, and by
 *	hot_pcp_peek_inode(); no lock is taken under it; not in interrupt
 *	context.
 * @key: the file's key, by which the drain finds the items.
 * @generation: the file's generation, as &hot_inode_item.generation.
 * @index: the range number, or %HOT_PCP_INODE for the inode item.
 * @nr_reads: reads of the item counted, saturating at U32_MAX; 0 with
 *	@nr_writes 0 if the slot is empty.
 * @nr_writes: writes of the item counted, likewise.
 * @nr_inode_reads: of @nr_reads, those that count for the inode item: all
 *	for the inode's slot, those that begin in the range for one of the
 *	first %HOT_PCP_HOME ranges, none for the others.
 * @nr_inode_writes: the same for @nr_writes.
 * @last_read_time: time of the latest read counted, in ns.
 * @last_write_time: time of the latest write counted, in ns.
 *
 * 64 bytes, one cache line on most machines: what an access touches of
 * the slots.
 */
struct hot_pcp_slot {
	unsigned long item;
	struct hot_inode_key key;
	u32 generation;
	u32 index;
	u32 nr_reads;
	u32 nr_writes;
	u32 nr_inode_reads;
	u32 nr_inode_writes;
	u64 last_read_time;
	u64 last_write_time;
} __aligned(64);

static_assert(sizeof(struct hot_pcp_slot) == 64);

/**
 * struct hot_pcp - the slots of one CPU
 * @slot: the slots, indexed by hot_pcp_hash() of the range they count for.
 */
struct hot_pcp {
	struct hot_pcp_slot slot[HOT_PCP_SLOTS];
};

#ifdef CONFIG_LOCKDEP
/*
 * One class for the slot locks of every superblock and CPU; a spinning
 * lock that disables preemption, as a raw_spinlock_t.
 */
static struct lockdep_map hot_pcp_dep_map = {
	.name = "hot_pcp_slot",
	.key = (void *)&hot_pcp_dep_map,
	.wait_type_inner = LD_WAIT_SPIN,
};
#endif

static void hot_pcp_lock(struct hot_pcp_slot *s)
	__acquires(__bitlock(HOT_PCP_LOCK_BIT, &s->item))
{
	lock_map_acquire(&hot_pcp_dep_map);
	bit_spin_lock(HOT_PCP_LOCK_BIT, &s->item);
}

static void hot_pcp_unlock(struct hot_pcp_slot *s)
	__releases(__bitlock(HOT_PCP_LOCK_BIT, &s->item))
{
	lock_map_release(&hot_pcp_dep_map);
	/* Others only test and set the bit meanwhile, as for hlist_bl. */
	__bit_spin_unlock(HOT_PCP_LOCK_BIT, &s->item);
}

/* The item slot @s counts for, without the lock bit. */
static unsigned long hot_pcp_item(const struct hot_pcp_slot *s)
{
	/* Other CPUs may set the lock bit meanwhile. */
	return READ_ONCE(s->item) & ~BIT(HOT_PCP_LOCK_BIT);
}

/*
 * Make slot @s count for @item.  Caller holds the slot lock, whose bit
 * stays as it is: set, but on uniprocessor kernels without
 * CONFIG_DEBUG_SPINLOCK, where the lock only disables preemption.
 */
static void hot_pcp_set_item(struct hot_pcp_slot *s, const void *item)
{
	WRITE_ONCE(s->item, (unsigned long)item |
			    (READ_ONCE(s->item) & BIT(HOT_PCP_LOCK_BIT)));
}

/*
 * The slot of range @index (or %HOT_PCP_INODE) of the file of @key, the
 * same on every CPU: the ranges of a file and the files spread over them.
 */
static u32 hot_pcp_hash(const struct hot_inode_key *key, u32 index)
{
	u64 h = (key->ino ^ (key->root * GOLDEN_RATIO_64)) * GOLDEN_RATIO_64;

	return hash_64(h + index, HOT_PCP_SHIFT);
}

/* Whether slot @s counts for the file of @he. */
static bool hot_pcp_file(const struct hot_pcp_slot *s,
			 const struct hot_inode_item *he)
{
	return s->key.ino == he->key.ino && s->key.root == he->key.root &&
	       s->generation == he->generation;
}

/* Whether slot @s holds accesses. */
static bool hot_pcp_busy(const struct hot_pcp_slot *s)
{
	return s->nr_reads || s->nr_writes;
}

/*
 * Count an access to @item, range @index (or the inode) of @he, in @pcp,
 * and for @he too if @inode.  Return: false if the slot holds another
 * item: the caller counts the access under the item lock.
 */
static bool hot_pcp_add(struct hot_pcp *pcp, const void *item,
			struct hot_inode_item *he, u32 index, u64 now,
			bool write, bool inode)
{
	struct hot_pcp_slot *s = &pcp->slot[hot_pcp_hash(&he->key, index)];
	bool ret = true;

	hot_pcp_lock(s);
	if (hot_pcp_item(s) != (unsigned long)item || s->index != index ||
	    !hot_pcp_file(s, he)) {
		if (hot_pcp_busy(s)) {
			ret = false;
			goto unlock;
		}
		hot_pcp_set_item(s, item);
		s->key = he->key;
		s->generation = he->generation;
		s->index = index;
	}
	if (write) {
		hot_add_sat(&s->nr_writes, 1);
		if (inode)
			hot_add_sat(&s->nr_inode_writes, 1);
		s->last_write_time = max(s->last_write_time, now);
	} else {
		hot_add_sat(&s->nr_reads, 1);
		if (inode)
			hot_add_sat(&s->nr_inode_reads, 1);
		s->last_read_time = max(s->last_read_time, now);
	}
unlock:
	hot_pcp_unlock(s);
	return ret;
}

/*
 * Count the accesses of slot @s in @freq, its range's frequency data, if
 * not NULL, and those of them that count for the inode in @inode.  Caller
 * holds the item lock of the data, or owns a copy of it.  For the inode's
 * own slot, @freq is NULL.
 */
static void hot_pcp_count(struct hot_freq *freq, struct hot_freq *inode,
			  const struct hot_pcp_slot *s)
{
	if (freq) {
		hot_freq_count(freq, s->nr_reads, s->last_read_time, false);
		hot_freq_count(freq, s->nr_writes, s->last_write_time, true);
	}
	/*
	 * The latest time of the slot is that of an access to the file,
	 * though not always of one counted for the inode here: then it was
	 * counted in another slot or under the lock, at the same time.
	 */
	hot_freq_count(inode, s->nr_inode_reads, s->last_read_time, false);
	hot_freq_count(inode, s->nr_inode_writes, s->last_write_time, true);
}

/*
 * Count the accesses of slot @s, taken from a CPU, in its items, if they
 * are still there: for the inode, the file's inode item, by key and
 * generation; for a range, its item only if it is the one the slot
 * counted for (not freed, nor made again).  Caller holds rcu_read_lock().
 */
static void hot_pcp_fold(struct hot_info *hi, const struct hot_pcp_slot *s)
{
	struct hot_inode_item *he;
	struct hot_range_item *hr;

	he = hot_index_lookup(hi, &s->key);
	if (!he || he->generation != s->generation)
		return;
	xa_lock(&he->ranges);
	if (!he->dead) {
		hr = s->index == HOT_PCP_INODE ? NULL :
		     xa_load(&he->ranges, s->index);
		if ((unsigned long)hr != hot_pcp_item(s))
			hr = NULL;
		hot_pcp_count(hr ? &hr->freq : NULL, &he->freq, s);
	}
	xa_unlock(&he->ranges);
}

/**
 * hot_track_drain() - count the accesses of every CPU's slots in the items
 * @hi: the superblock's tracking state; stays valid during the call.
 *
 * Takes what each CPU's slots hold, one slot per hold of its lock, and
 * counts it in the items.  Accesses counted in slots before the call are
 * in the items when it returns.  One drain at a time, under
 * &hot_info.pcp_mutex.  The update worker drains at each pass, debugfs
 * before it lists items.
 *
 * Context: process context; sleeps between CPUs.
 */
void hot_track_drain(struct hot_info *hi)
{
	struct hot_pcp_slot got;
	unsigned int h;
	int cpu;

	mutex_lock(&hi->pcp_mutex);
	for_each_possible_cpu(cpu) {
		struct hot_pcp *pcp = per_cpu_ptr(hi->pcp, cpu);

		for (h = 0; h < HOT_PCP_SLOTS; h++) {
			struct hot_pcp_slot *s = &pcp->slot[h];

			/* Filled after the look: as if filled after the call. */
			if (!data_race(hot_pcp_busy(s)))
				continue;
			write_seqlock(&hi->drain_lock);
			hot_pcp_lock(s);
			/* Others may test and set the lock bit. */
			got = data_race(*s);
			got.item = hot_pcp_item(s);
			s->nr_reads = 0;
			s->nr_writes = 0;
			s->nr_inode_reads = 0;
			s->nr_inode_writes = 0;
			s->last_read_time = 0;
			s->last_write_time = 0;
			hot_pcp_unlock(s);
			if (hot_pcp_busy(&got)) {
				rcu_read_lock();
				hot_pcp_fold(hi, &got);
				rcu_read_unlock();
			}
			write_sequnlock(&hi->drain_lock);
		}
		cond_resched();
	}
	mutex_unlock(&hi->pcp_mutex);
}

/*
 * @freq, a copy of the frequency data of the inode item @he, with the
 * accesses to it that every CPU's slots hold, which stay there: a live
 * view that changes nothing.  Reads, on every CPU, the slots that may hold
 * them, those of the file's first %HOT_PCP_HOME ranges and of its inode,
 * and takes the lock of those that do.  Caller holds rcu_read_lock().
 */
static void hot_pcp_peek_inode(struct hot_info *hi, struct hot_inode_item *he,
			       struct hot_freq *freq)
{
	DECLARE_BITMAP(slots, HOT_PCP_SLOTS);
	unsigned int h;
	int cpu;

	bitmap_zero(slots, HOT_PCP_SLOTS);
	__set_bit(hot_pcp_hash(&he->key, HOT_PCP_INODE), slots);
	for (h = 0; h < HOT_PCP_HOME; h++)
		__set_bit(hot_pcp_hash(&he->key, h), slots);
	for_each_possible_cpu(cpu) {
		struct hot_pcp *pcp = per_cpu_ptr(hi->pcp, cpu);

		for_each_set_bit(h, slots, HOT_PCP_SLOTS) {
			struct hot_pcp_slot *s = &pcp->slot[h];

			/* Only the slots that seem to count for the file. */
			if (!data_race(hot_pcp_file(s, he) &&
				       (s->nr_inode_reads || s->nr_inode_writes)))
				continue;
			hot_pcp_lock(s);
			if (hot_pcp_file(s, he))
				hot_pcp_count(NULL, freq, s);
			hot_pcp_unlock(s);
		}
	}
}

/* The bytes of the per-CPU slots of a superblock. */
unsigned long hot_track_pcp_mem(void)
{
	return sizeof(struct hot_pcp) * num_possible_cpus();
}

/* The count of reads (@write false) or writes of @freq, read without lock. */
static u32 hot_freq_nr(const struct hot_freq *freq, bool write)
{
	/*
	 * Only tells the first access from the others: a stale 0 takes the
	 * locked path once more, and the count never goes back to 0.
	 */
	return data_race(write ? freq->nr_writes : freq->nr_reads);
}

/*
 * Whether @freq saw no access for half a second by @now (ns), read without
 * lock: its next access is counted under the item lock, not in a slot.  A
 * slot's counts reach the item at the next drain; an update pass, which
 * drains before it walks, could meanwhile find an item idle for longer
 * than hot-kick-time (a second at least) and free it with them.  The pass
 * takes its time before it drains, and half a second leaves room for the
 * hooks' coarse clock, which lags it by a tick or so.  A torn or stale
 * time only takes one access to the locked path, or not.
 */
static bool hot_freq_stale(const struct hot_freq *freq, u64 now)
{
	/* Without the item lock: see above. */
	u64 last = data_race(max(freq->last_read_time, freq->last_write_time));

	return now > last + NSEC_PER_SEC / 2;
}

/*
 * Count an access to @he if @inode, and to its range @index if @range,
 * under the item lock, making the range item if there is none.  Caller
 * holds rcu_read_lock().
 */
static void hot_count_locked(struct hot_info *hi, struct hot_inode_item *he,
			     bool inode, bool range, u64 index, u64 now,
			     bool write)
{
	struct hot_range_item *hr;

	xa_lock(&he->ranges);
	if (he->dead)
		goto unlock;
	if (inode)
		hot_freq_count(&he->freq, 1, now, write);
	if (!range)
		goto unlock;
	/* Not made (at the cap, or no memory): the others still count. */
	hr = hot_range_get(hi, he, index);
	if (hr)
		hot_freq_count(&hr->freq, 1, now, write);
unlock:
	xa_unlock(&he->ranges);
}

/*
 * Count a read or a write of ranges @first to @last of @he in the slots of
 * this CPU, the access to @he in the slot of range @first if that is one
 * of the first %HOT_PCP_HOME, else in the inode's.  The first access of
 * each direction to an item, that to an item idle for half a second
 * (hot_freq_stale()), that to a range without item, and that to an item
 * whose slot holds another one are counted under the item lock instead:
 * an item gets the time of an access at once (an update pass ages out an
 * item without a recent one), and a range item has to be made.  Caller
 * holds rcu_read_lock().
 */
static void hot_record_pcp(struct hot_info *hi, struct hot_inode_item *he,
			   u64 first, u64 last, u64 now, bool write)
{
	/* Any CPU's slots will do: they are under their locks. */
	struct hot_pcp *pcp = raw_cpu_ptr(hi->pcp);
	/* Whether the access is still to be counted for @he. */
	bool inode = true;
	struct hot_range_item *hr;
	u64 index;

	/* The locks are not irq-safe: from task context only. */
	lockdep_assert(in_task());
	if (!hot_freq_nr(&he->freq, write) || hot_freq_stale(&he->freq, now)) {
		hot_count_locked(hi, he, true, false, 0, now, write);
		inode = false;
	} else if (first >= HOT_PCP_HOME) {
		if (!hot_pcp_add(pcp, he, he, HOT_PCP_INODE, now, write, true))
			hot_count_locked(hi, he, true, false, 0, now, write);
		inode = false;
	}
	for (index = first; index <= last; index++) {
		hr = xa_load(&he->ranges, index);
		if (!hr || index == HOT_PCP_INODE ||
		    !hot_freq_nr(&hr->freq, write) ||
		    hot_freq_stale(&hr->freq, now) ||
		    !hot_pcp_add(pcp, hr, he, index, now, write, inode))
			hot_count_locked(hi, he, inode, true, index, now,
					 write);
		inode = false;
	}
}

/*
 * Count a writeback folio, or any access to a file one of whose ranges is
 * muted, under the item lock.  Caller holds rcu_read_lock().
 */
static void hot_record_locked(struct hot_info *hi, struct hot_inode_item *he,
			      u64 first, u64 last, u64 now, enum hot_io io)
{
	bool write = io != HOT_READ;
	unsigned int batch = 0;
	struct hot_range_item *hr;
	u64 index;

	xa_lock(&he->ranges);
	if (he->dead)
		goto unlock;
	/* I/O confined to the muted range is not counted at all. */
	if (unlikely(he->muted) && first == last && he->muted == first + 1)
		goto unlock;
	if (io != HOT_WRITEBACK || !hot_wb_counted(&he->freq, he->wb_start))
		hot_freq_count(&he->freq, 1, now, write);
	for (index = first; index <= last; index++) {
		/* Let others at the item every HOT_LOCK_BATCH ranges. */
		if (batch++ == HOT_LOCK_BATCH) {
			batch = 1;
			xa_unlock(&he->ranges);
			xa_lock(&he->ranges);
			if (he->dead)
				break;
		}
		if (unlikely(he->muted == index + 1))
			continue;
		/* Not made (at the cap, or no memory): the others still count. */
		hr = hot_range_get(hi, he, index);
		if (!hr)
			continue;
		if (io == HOT_WRITEBACK && hot_wb_counted(&hr->freq, he->wb_start))
			continue;
		hot_freq_count(&hr->freq, 1, now, write);
	}
unlock:
	xa_unlock(&he->ranges);
}

static void hot_track_record(struct inode *inode, loff_t pos, u64 len,
			     enum hot_io io)
{
	struct hot_inode_item *he;
	struct hot_info *hi;
	u64 first, last;
	u64 now;

	if (!hot_range_span(pos, len, &first, &last))
		return;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	if (!hi)
		goto out;
	he = hot_inode_get(hi, inode);
	if (!he || (io == HOT_WRITEBACK && hot_wb_done(he, first, last)))
		goto out;

	/*
	 * Reads and direct writes to the tick: a fine clock cost a fifth of
	 * the warm hook (KUnit benchmark, UML), and the times serve aging and
	 * gaps of seconds.  Writeback tells a write of its pass from one
	 * before by time (hot_wb_counted()), so it keeps the fine clock, as
	 * hot_track_writeback_begin() does.
	 */
	now = io == HOT_WRITEBACK ? hot_clock_ns() : hot_clock_coarse_ns();
	/* Ranges past the largest range number are not tracked. */
	last = min_t(u64, last, HOT_RANGE_INDEX_MAX);
	/* Set before the muted I/O is issued, cleared after it completed. */
	if (io == HOT_WRITEBACK || data_race(he->muted))
		hot_record_locked(hi, he, first, last, now, io);
	else
		hot_record_pcp(hi, he, first, last, now, io == HOT_WRITE);
out:
	rcu_read_unlock();
}

/**
 * __hot_track_io() - record a read or write that goes to disk
 * @inode: the file, a regular file.
 * @pos: offset of the first byte, in bytes.
 * @len: length, in bytes.
 * @rw: %READ or %WRITE.
 *
 * Called through hot_track_io(), which see.
 */
void __hot_track_io(struct inode *inode, loff_t pos, u64 len, int rw)
{
	hot_track_record(inode, pos, len, rw == WRITE ? HOT_WRITE : HOT_READ);
}
EXPORT_SYMBOL_GPL(__hot_track_io);

/**
 * __hot_track_writeback_folio() - record a folio that goes to disk
 * @inode: the file, a regular file.
 * @folio: the folio.
 *
 * Called through hot_track_writeback_folio(), which see.
 */
void __hot_track_writeback_folio(struct inode *inode, struct folio *folio)
{
	hot_track_record(inode, folio_pos(folio), folio_size(folio),
			 HOT_WRITEBACK);
}

/**
 * __hot_track_writeback_begin() - a writeback pass over a file begins
 * @inode: the file, a regular file.
 *
 * Called through hot_track_writeback_begin(), which see.
 */
void __hot_track_writeback_begin(struct inode *inode)
{
	u64 now = hot_clock_ns();
	struct hot_inode_item *he;
	struct hot_info *hi;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	he = hi ? hot_inode_lookup(hi, inode) : NULL;
	if (he) {
		xa_lock(&he->ranges);
		WRITE_ONCE(he->wb_start, max(he->wb_start, now));
		xa_unlock(&he->ranges);
	}
	rcu_read_unlock();
}

/**
 * __hot_track_evict_inode() - forget the heat of a deleted inode
 * @inode: the inode, evicted with no link left.
 *
 * Called through hot_track_evict_inode(), which see.
 */
void __hot_track_evict_inode(struct inode *inode)
{
	struct hot_inode_item *he;
	struct hot_info *hi;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	he = hi ? hot_inode_lookup(hi, inode) : NULL;
	if (he && hot_index_remove(hi, he))
		hot_inode_kill(hi, he);
	rcu_read_unlock();
}

/**
 * hot_track_spot() - visit the hottest items of a superblock
 * @hi: the superblock's tracking state.
 * @ranges: visit range items if true, inode items if false.
 * @max: how many items to visit at most.
 * @fn: as for hot_track_walk(); called under &hot_info.map_lock.
 * @arg: passed to @fn.
 *
 * Visits items hottest first by the heat maps of the last update pass: by
 * bucket, and by temperature within each bucket of up to
 * %HOT_SORT_BUCKET_MAX items, which the pass sorted (hot_sort_map()),
 * unless the memory cap or the shrinker reordered it since.
 *
 * Context: task context: the locks it takes are not safe from interrupts
 * or softirqs.
 */
void hot_track_spot(struct hot_info *hi, bool ranges, unsigned int max,
		    hot_walk_fn fn, void *arg)
{
	struct hot_range_item *hr;
	struct hot_inode_item *he;
	struct hot_freq freq;
	int b;

	spin_lock(&hi->map_lock);
	for (b = HOT_MAP_BUCKETS - 1; b >= 0 && max; b--) {
		if (ranges) {
			list_for_each_entry(hr, &hi->range_map[b], track_list) {
				he = hr->hot_inode;
				/* A deleted file's, until hot_free_work() frees it. */
				if (he->dead)
					continue;
				xa_lock(&he->ranges);
				freq = hr->freq;
				xa_unlock(&he->ranges);
				fn(arg, &he->key, hr->index, &freq, hr->temp);
				if (!--max)
					break;
			}
			continue;
		}
		list_for_each_entry(he, &hi->inode_map[b], track_list) {
			xa_lock(&he->ranges);
			freq = he->freq;
			xa_unlock(&he->ranges);
			fn(arg, &he->key, 0, &freq, he->temp);
			if (!--max)
				break;
		}
	}
	spin_unlock(&hi->map_lock);
}

/**
 * hot_track_hot_ranges() - list the hottest ranges of a superblock
 * @sb: the superblock.
 * @min_temp: the lowest temperature to list.
 * @skip: how many of the matching ranges to pass over first, to page
 *	through a long list in several calls.
 * @refs: where to store the ranges, hottest first.
 * @max: room in @refs, in entries.
 *
 * Lists the ranges whose temperature, as of the last update pass, is at
 * least @min_temp, in the order of hot_track_spot().  An update pass between
 * two calls reorders the list, so a caller paging through it may see a
 * range twice or miss one.  The result is a copy: the caller may sleep on it.
 *
 * The work under the lock is bounded: after the first @skip matching ranges
 * a call passes over at most %HOT_LOCK_BATCH ranges that do not match
 * (colder ranges in the bucket of @min_temp, ranges of deleted files), then
 * stops, so it may return fewer than @max entries while more would match.
 *
 * Context: task context; takes &hot_info.map_lock and, inside it, each
 * listed range's item lock, which are not safe from interrupts or softirqs.
 * Return: the number of entries stored in @refs; 0 if @sb does not track
 * hot data.
 */
int hot_track_hot_ranges(struct super_block *sb, u32 min_temp,
			 unsigned long skip, struct hot_range_ref *refs,
			 unsigned int max)
{
	unsigned int n = 0, b, last = hot_temp_bucket(min_temp);
	unsigned int misses = HOT_LOCK_BATCH;
	struct hot_range_item *hr;
	struct hot_info *hi;

	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	if (!hi || !max)
		goto out;
	spin_lock(&hi->map_lock);
	for (b = HOT_MAP_BUCKETS; b-- > last && n < max; ) {
		list_for_each_entry(hr, &hi->range_map[b], track_list) {
			/* dead is written under map_lock: a deleted file's. */
			if (hr->temp < min_temp || hr->hot_inode->dead) {
				if (!skip && !--misses)
					goto unlock;
				continue;
			}
			if (skip) {
				skip--;
				continue;
			}
			refs[n].key = hr->hot_inode->key;
			refs[n].index = hr->index;
			refs[n].temp = hr->temp;
			xa_lock(&hr->hot_inode->ranges);
			refs[n].nr_reads = hr->freq.nr_reads;
			refs[n].nr_writes = hr->freq.nr_writes;
			xa_unlock(&hr->hot_inode->ranges);
			if (++n == max)
				break;
		}
	}
unlock:
	spin_unlock(&hi->map_lock);
out:
	rcu_read_unlock();
	return n;
}
EXPORT_SYMBOL_GPL(hot_track_hot_ranges);

/**
 * hot_track_range_temp() - the temperature of one range
 * @sb: the superblock.
 * @key: the file's key, as in &struct hot_range_ref.
 * @index: the range number; none past %HOT_RANGE_INDEX_MAX is tracked.
 * @temp: where to store the range's temperature as of the last update pass,
 *	or, for a range no pass has seen yet (new, or loaded), as of now.
 *
 * Context: task context; takes &hot_info.map_lock and, for a range no pass
 * has seen, the item lock inside it, which are not safe from interrupts or
 * softirqs.
 * Return: 0 on success; -ENODATA if the range is not tracked: never read
 * or written since tracking began, aged out, or @sb does not track hot data;
 * -EOVERFLOW if the file cannot be tracked at all (on 32-bit, its inode
 * number or root does not fit an xarray index).
 */
int hot_track_range_temp(struct super_block *sb,
			 const struct hot_inode_key *key, u64 index, u32 *temp)
{
	struct hot_range_item *hr = NULL;
	struct hot_inode_item *he;
	struct hot_pass pass;
	struct hot_freq freq;
	struct hot_info *hi;

	if (index > HOT_RANGE_INDEX_MAX)
		return -ENODATA;
	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	if (hi && !hot_index_fits(key)) {
		rcu_read_unlock();
		return -EOVERFLOW;
	}
	he = hi ? hot_index_lookup(hi, key) : NULL;
	if (he) {
		spin_lock(&hi->map_lock);
		hr = xa_load(&he->ranges, index);
		if (hr && list_empty(&hr->track_list)) {
			/* Its temperature is not 0 but not computed yet. */
			xa_lock(&he->ranges);
			freq = hr->freq;
			xa_unlock(&he->ranges);
			pass = hot_pass_get(hi);
			*temp = hot_temp(&pass, &freq, hot_clock_ns());
		} else if (hr) {
			*temp = hr->temp;
		}
		spin_unlock(&hi->map_lock);
	}
	rcu_read_unlock();
	return hr ? 0 : -ENODATA;
}
EXPORT_SYMBOL_GPL(hot_track_range_temp);

/**
 * hot_track_count_temp() - the temperature of a count in one update pass
 * @sb: the superblock.
 * @nr: reads.
 * @pass: if not NULL, set to the time of the last update pass (ns of
 *	hot_clock_ns()), the pass whose temperatures the heat maps hold, to
 *	tell passes apart; 0 while an update pass is reordering the heat
 *	maps, which then hold temperatures of two passes, or if @sb does not
 *	track hot data.
 *
 * The temperature that the last update pass gave a range read @nr times in
 * the time it counted (&hot_pass.len) and never before: that of @nr / 2
 * reads per pass length, as hot_score_fold() halves a first count, but not
 * below the idle rate that hot_temp() gives any range just read.  The
 * shorter the passes (hot-update-delay), the hotter a count of @nr: a
 * caller that compares the heat map's temperatures against it asks for
 * ranges read at least that many times in one pass, whatever the delay.
 *
 * Context: task context; takes &hot_info.map_lock, which is not safe from
 * interrupts or softirqs.
 * Return: the temperature; 0 if @nr is 0 or @sb does not track hot data.
 */
u32 hot_track_count_temp(struct super_block *sb, u32 nr, u64 *pass)
{
	struct hot_freq freq = {};
	struct hot_pass now = {};
	struct hot_info *hi;
	u64 seq = 1;

	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	if (hi) {
		spin_lock(&hi->map_lock);
		seq = hi->map_seq;
		now = hot_pass_get(hi);
		spin_unlock(&hi->map_lock);
	}
	rcu_read_unlock();
	if (pass)
		*pass = seq & 1 ? 0 : now.time;
	if (!hi)
		return 0;
	hot_freq_count(&freq, nr, now.time, false);
	hot_score_fold(&freq, HOT_SCALE_ONE);
	return hot_temp(&now, &freq, now.time);
}
EXPORT_SYMBOL_GPL(hot_track_count_temp);

/**
 * hot_track_seen_all() - whether data with no item is cold
 * @sb: the superblock.
 *
 * Once a superblock has tracked hot data for hot-kick-time, data with no
 * item was not read or written for that long, or its item was freed as
 * one of the coldest when memory was short: it is cold.  Before, it may
 * just not have been accessed since the mount, nor its saved heat loaded;
 * nor within hot-kick-time of an item the I/O hooks could not make (at
 * the memory cap, out of memory, or refused by the inode index), whose
 * data may be hot.
 *
 * Context: any but NMI.
 * Return: true if @sb has tracked hot data for longer than hot-kick-time;
 * false if it has not, or does not track hot data.
 */
bool hot_track_seen_all(struct super_block *sb)
{
	unsigned int kick_secs = READ_ONCE(sysctl_hot_kick_time);
	u64 kick = (u64)kick_secs * NSEC_PER_SEC;
	u64 now = hot_clock_ns();
	struct hot_info *hi;
	bool ret = false;

	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	/* Pairs with smp_store_release() in hot_refused(): a set time. */
	if (!hi || (smp_load_acquire(&hi->refused) &&
		    (unsigned long)ktime_get_boottime_seconds() -
		    READ_ONCE(hi->refused_at) <= kick_secs))
		goto out;
	/* Once true, a longer hot-kick-time set later does not undo it. */
	ret = READ_ONCE(hi->seen_all) || now - hi->enabled_at > kick;
	if (ret && !READ_ONCE(hi->seen_all))
		WRITE_ONCE(hi->seen_all, true);
out:
	rcu_read_unlock();
	return ret;
}
EXPORT_SYMBOL_GPL(hot_track_seen_all);

/*
 * The order of the heat maps, as hot_track_spot() and hot_track_query() walk
 * them: hotter first, then by key and range number.  Buckets that the update
 * pass sorts (see hot_sort_map()) are in this order.
 */
static int hot_order(u32 ta, const struct hot_inode_key *ka, u32 ia,
		     u32 tb, const struct hot_inode_key *kb, u32 ib)
{
	if (ta != tb)
		return ta > tb ? -1 : 1;
	if (ka->root != kb->root)
		return ka->root < kb->root ? -1 : 1;
	if (ka->ino != kb->ino)
		return ka->ino < kb->ino ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/*
 * Where a page of hot_track_query() ends, kept in the caller's cursor: the
 * map sequence (&hot_info.map_seq) it was taken at, and the item it ended
 * with.
 */
struct hot_cursor {
	u64 seq;
	struct hot_inode_key key;
	u32 index;
	u32 temp;
};

#define HOT_CURSOR_STARTED	BIT_ULL(62)
#define HOT_CURSOR_RANGES	BIT_ULL(63)

static int hot_cursor_get(const u64 *c, bool ranges, struct hot_cursor *cur)
{
	u64 flags = c[0] & (HOT_CURSOR_STARTED | HOT_CURSOR_RANGES);

	if (!c[0] && !c[1] && !c[2] && !c[3])
		return 0;
	if (flags != (HOT_CURSOR_STARTED | (ranges ? HOT_CURSOR_RANGES : 0)) ||
	    (!ranges && c[3] >> 32))
		return -EINVAL;
	cur->seq = c[0] & ~(HOT_CURSOR_STARTED | HOT_CURSOR_RANGES);
	cur->key.root = c[1];
	cur->key.ino = c[2];
	cur->index = c[3] >> 32;
	cur->temp = (u32)c[3];
	return 1;
}

static void hot_cursor_put(u64 *c, bool ranges, u64 seq,
			   const struct hot_inode_key *key, u32 index, u32 temp)
{
	c[0] = seq | HOT_CURSOR_STARTED | (ranges ? HOT_CURSOR_RANGES : 0);
	c[1] = key->root;
	c[2] = key->ino;
	c[3] = (u64)index << 32 | temp;
}

/* The age of an access at @last at @now, as &struct hot_item_rec has it. */
static u64 hot_age(u64 last, u64 now)
{
	if (!last)
		return HOT_AGE_NEVER;
	return now > last ? now - last : 0;
}

static void hot_rec_fill(struct hot_item_rec *rec, struct hot_inode_item *he,
			 const struct hot_freq *freq, u64 index, u32 temp,
			 bool range, const struct hot_pass *pass, u64 now)
{
	memset(rec, 0, sizeof(*rec));
	rec->root = he->key.root;
	rec->ino = he->key.ino;
	rec->generation = he->generation;
	rec->flags = range ? HOT_REC_RANGE : 0;
	rec->offset = index << HOT_RANGE_SHIFT;
	rec->num_reads = freq->nr_reads;
	rec->num_writes = freq->nr_writes;
	rec->temp = temp;
	hot_freq_gaps(pass, freq, now, &rec->avg_delta_reads,
		      &rec->avg_delta_writes);
	rec->read_age = hot_age(freq->last_read_time, now);
	rec->write_age = hot_age(freq->last_write_time, now);
}

/* How the heat-map entry at @pos compares with the cursor, in hot_order(). */
static int hot_cursor_order(struct list_head *pos, bool ranges,
			    const struct hot_cursor *cur)
{
	struct hot_range_item *hr;
	struct hot_inode_item *he;

	if (ranges) {
		hr = list_entry(pos, struct hot_range_item, track_list);
		return hot_order(hr->temp, &hr->hot_inode->key, hr->index,
				 cur->temp, &cur->key, cur->index);
	}
	he = list_entry(pos, struct hot_inode_item, track_list);
	return hot_order(he->temp, &he->key, 0, cur->temp, &cur->key, 0);
}

/*
 * The heat-map entry after which a page begins: the cursor's item if it is
 * still where the page before left it, else the last entry of the cursor's
 * bucket that comes before the cursor in hot_order(), which is exact if
 * the bucket is sorted; *@reordered is set if it is not.  Returns the list
 * position to go on from, in bucket *@b.  Caller holds map_lock and
 * rcu_read_lock().
 */
static struct list_head *hot_query_resume(struct hot_info *hi, bool ranges,
					  const struct hot_cursor *cur, int *b,
					  bool *reordered)
{
	struct list_head *map = ranges ? hi->range_map : hi->inode_map;
	unsigned long *unsorted = ranges ? hi->range_unsorted :
					   hi->inode_unsorted;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	struct list_head *pos;
	unsigned int seen = 0;

	*b = hot_temp_bucket(cur->temp);
	he = hot_index_lookup(hi, &cur->key);
	if (he && !he->dead && cur->seq == hi->map_seq) {
		if (!ranges && he->temp == cur->temp &&
		    !list_empty(&he->track_list))
			return &he->track_list;
		hr = ranges ? xa_load(&he->ranges, cur->index) : NULL;
		if (hr && hr->temp == cur->temp && !list_empty(&hr->track_list))
			return &hr->track_list;
	}
	/*
	 * Gone or moved: by order, exact in the buckets a pass sorted.  In
	 * another, exact only if the entry is still there: a range of a
	 * deleted file that a page ended on.
	 */
	if (test_bit(*b, unsorted)) {
		for (pos = map[*b].next; pos != &map[*b]; pos = pos->next) {
			if (!hot_cursor_order(pos, ranges, cur))
				return pos;
			if (++seen > HOT_SORT_BUCKET_MAX)
				break;
		}
		*reordered = true;
		seen = 0;
	}
	for (pos = map[*b].next; pos != &map[*b]; pos = pos->next) {
		if (hot_cursor_order(pos, ranges, cur) > 0)
			break;
		if (++seen > HOT_SORT_BUCKET_MAX)
			break;
	}
	return pos->prev;
}

/**
 * hot_track_query() - a page of the hottest items of a superblock
 * @sb: the superblock.
 * @ranges: list range items if true, inode items if false.
 * @cursor: in: where the page begins, four zeros for the hottest item;
 *	out: where the next page begins.
 * @recs: where to store the items, hottest first.
 * @max: room in @recs, in records; at most %HOT_QUERY_BATCH are filled.
 * @oflags: %HOT_QUERY_END and %HOT_QUERY_REORDERED are or'ed in.
 * @pass: set to the number of update passes done.
 *
 * Lists items in the order of the heat maps of the last update pass, as
 * hot_track_spot() visits them, from where the page before ended.  Within
 * one pass a page goes on after the item the page before ended with, and
 * items that left the maps meanwhile (files deleted, items freed) do not
 * make it miss or repeat any other.  Once the item the cursor names left,
 * it goes on after the place that item has in the order (hotter first,
 * then by key and range), which is exact in a bucket the pass sorted (see
 * hot_sort_map()).  %HOT_QUERY_REORDERED says when it may not be: after
 * an update pass (or during one), when the cursor's place is in a bucket
 * in no order, or after eviction reordered the inode map.  Ranges of
 * deleted files are passed over, %HOT_LOCK_BATCH at most per call, which
 * may then return no item while more follow.
 *
 * Context: process context; takes &hot_info.map_lock and, inside it, the
 * item lock of each item listed, for %HOT_QUERY_BATCH items at most, and
 * %HOT_SORT_BUCKET_MAX + 1 more looked at to find the cursor's place, twice
 * that in a bucket the pass left unsorted.
 * Return: the number of records stored; -EINVAL for a cursor whose flags
 * this function did not set; -EOPNOTSUPP if @sb does not track hot data.
 */
int hot_track_query(struct super_block *sb, bool ranges, u64 *cursor,
		    struct hot_item_rec *recs, unsigned int max, u32 *oflags,
		    u64 *pass)
{
	unsigned int n = 0, misses = 0;
	struct hot_range_item *hr;
	struct hot_inode_item *he;
	struct list_head *map, *pos;
	struct hot_pass pass_now;
	struct hot_cursor cur;
	struct hot_freq freq;
	struct hot_info *hi;
	bool reordered;
	int b, ret;
	u64 now;

	ret = hot_cursor_get(cursor, ranges, &cur);
	if (ret < 0)
		return ret;
	max = min_t(unsigned int, max, HOT_QUERY_BATCH);
	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	if (!hi) {
		rcu_read_unlock();
		return -EOPNOTSUPP;
	}
	map = ranges ? hi->range_map : hi->inode_map;
	pass_now = hot_pass_get(hi);
	now = hot_clock_ns();
	spin_lock(&hi->map_lock);
	*pass = hi->nr_passes;
	/* A pass reorders the maps: a page taken meanwhile is of no order. */
	reordered = hi->map_seq & 1;
	if (!ret) {
		b = HOT_MAP_BUCKETS - 1;
		pos = &map[b];
	} else {
		reordered |= cur.seq != hi->map_seq;
		pos = hot_query_resume(hi, ranges, &cur, &b, &reordered);
	}
	if (reordered)
		*oflags |= HOT_QUERY_REORDERED;
	while (n < max) {
		pos = pos->next;
		if (pos == &map[b]) {
			if (!b) {
				*oflags |= HOT_QUERY_END;
				break;
			}
			pos = &map[--b];
			continue;
		}
		if (ranges) {
			hr = list_entry(pos, struct hot_range_item, track_list);
			he = hr->hot_inode;
			hot_cursor_put(cursor, true, hi->map_seq, &he->key,
				       hr->index, hr->temp);
			/* A deleted file's, until free_work frees it. */
			if (he->dead) {
				if (++misses >= HOT_LOCK_BATCH)
					break;
				continue;
			}
			xa_lock(&he->ranges);
			freq = hr->freq;
			xa_unlock(&he->ranges);
			hot_rec_fill(&recs[n++], he, &freq, hr->index, hr->temp,
				     true, &pass_now, now);
		} else {
			he = list_entry(pos, struct hot_inode_item, track_list);
			hot_cursor_put(cursor, false, hi->map_seq, &he->key, 0,
				       he->temp);
			xa_lock(&he->ranges);
			freq = he->freq;
			xa_unlock(&he->ranges);
			hot_rec_fill(&recs[n++], he, &freq, 0, he->temp, false,
				     &pass_now, now);
		}
	}
	spin_unlock(&hi->map_lock);
	rcu_read_unlock();
	return n;
}

/*
 * The score of accesses @gap ns apart, the latest @age ns before @now, at
 * @now: accesses per &hot_pass.len of @pass, halved for each
 * hot-update-delay that @age spans (linearly in between), and raised by
 * what hot_score_now() takes off for the part of @pass gone by, so that
 * the temperature is that of @gap and @age at once.
 */
static u64 hot_score_load(const struct hot_pass *pass, u64 gap, u64 age,
			  u64 now)
{
	u64 delay = max(pass->delay, 1ULL);
	u64 since = now > pass->time ? min(now - pass->time, delay) : 0;
	u64 x, rem, passes;

	x = div64_u64(clamp(pass->len, HOT_PASS_LEN_MIN, HOT_PASS_LEN_MAX) <<
		      HOT_SCORE_SHIFT, max(gap, HOT_MIN_GAP));
	passes = div64_u64_rem(age, delay, &rem);
	if (passes >= 64)
		return 0;
	x >>= passes;
	x -= mul_u64_u64_div_u64(x, rem, 2 * delay);
	return mul_u64_u64_div_u64(x, 2 * delay, 2 * delay - since);
}

/* Load the count and time of reads or writes of a record into @freq. */
static void hot_freq_load(struct hot_freq *freq, u32 nr, u64 age, u64 now,
			  bool write)
{
	u64 *last = write ? &freq->last_write_time : &freq->last_read_time;

	if (!nr)
		return;
	hot_add_sat(write ? &freq->nr_writes : &freq->nr_reads, nr);
	*last = max(*last, now > age ? now - age : 1);
}

/*
 * Load a saved record into @freq at @now: counts add, the later times
 * stand, and the rate of its gaps, cooled by their age, adds to the score.
 */
static void hot_rec_load(const struct hot_pass *pass, struct hot_freq *freq,
			 const struct hot_item_rec *rec, u64 now)
{
	u64 score = freq->score;

	if (rec->num_reads)
		score += hot_score_load(pass, rec->avg_delta_reads,
					rec->read_age, now);
	if (rec->num_writes)
		score += hot_score_load(pass, rec->avg_delta_writes,
					rec->write_age, now);
	freq->score = min_t(u64, score, U32_MAX);
	hot_freq_load(freq, rec->num_reads, rec->read_age, now, false);
	hot_freq_load(freq, rec->num_writes, rec->write_age, now, true);
}

/**
 * hot_track_inode_root() - whether a file is tracked, and its root
 * @inode: a regular file of a superblock that tracks hot data.
 * @root: set to &hot_inode_key.root of the file.
 *
 * Context: any context that may take a spinlock.
 * Return: false if the filesystem does not track @inode, one of its
 * internal files, or no longer tracks hot data.
 */
bool hot_track_inode_root(struct inode *inode, u64 *root)
{
	struct hot_inode_key key;
	struct hot_info *hi;
	bool ret;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	ret = hi && hot_inode_key(hi, inode, &key);
	rcu_read_unlock();
	*root = key.root;
	return ret;
}

/**
 * hot_track_load() - load saved heat into a file
 * @inode: the file, a regular file of a superblock that tracks hot data.
 * @recs: the records, checked by the caller: of @inode's file (key and
 *	generation), at most one of the whole file and one per range, and
 *	consistent (an age for each count that is not 0, %HOT_AGE_NEVER for
 *	the others).
 * @nr: the number of records.
 *
 * Counts add to those recorded since tracking began, the time of the last
 * access is the later of the two, and the rate a saved gap stands for,
 * halved for each hot-update-delay of its age, adds to the item's score
 * (hot_score_load()); like any score, the next update pass cuts it to at
 * most two accesses per pass unless the file is accessed meanwhile.  Items
 * made here join the heat maps at the next update pass.
 *
 * Context: process context; takes the item lock for %HOT_LOCK_BATCH
 * records at most at a time.
 * Return: 0 on success; -EOPNOTSUPP if the superblock does not track hot
 * data or the file is one of the filesystem's internal files; -ENOSPC if
 * the items would go over the memory cap (nothing is loaded), or met it on
 * the way (I/O took the room meanwhile, or sparse ranges needed more
 * xarray nodes than estimated: the records before are loaded); -ENOMEM if
 * an item could not be allocated (the records before it are loaded);
 * -EAGAIN if update passes freed the new item three times over.
 */
int hot_track_load(struct inode *inode, const struct hot_item_rec *recs,
		   unsigned int nr)
{
	struct hot_inode_key key;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	unsigned int i, tries = 0;
	struct hot_pass pass;
	struct hot_info *hi;
	long need;
	u64 now;
	int ret;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	if (!hi) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	/* The most the records can take: a leaf node per 64 ranges. */
	need = kmem_cache_size(hot_inode_cachep) + nr *
	       kmem_cache_size(hot_range_cachep) +
	       (nr / XA_CHUNK_SIZE + 1) * sizeof(struct xa_node);
	if (atomic_long_read(&hi->mem) + need > hot_mem_cap(hi)) {
		ret = -ENOSPC;
		goto out;
	}
	if (!hot_inode_key(hi, inode, &key) || !hot_index_fits(&key)) {
		ret = -EOPNOTSUPP;
		goto out;
	}
again:
	ret = 0;
	he = hot_inode_get(hi, inode);
	if (!he) {
		ret = hot_mem_at_cap(hi) ? -ENOSPC : -ENOMEM;
		goto out;
	}
	pass = hot_pass_get(hi);
	now = hot_clock_ns();
	xa_lock(&he->ranges);
	for (i = 0; i < nr && !he->dead; i++) {
		/* Let the I/O hooks at the item every HOT_LOCK_BATCH records. */
		if (i && i % HOT_LOCK_BATCH == 0) {
			xa_unlock(&he->ranges);
			xa_lock(&he->ranges);
			if (he->dead)
				break;
		}
		if (!(recs[i].flags & HOT_REC_RANGE)) {
			hot_rec_load(&pass, &he->freq, &recs[i], now);
			continue;
		}
		hr = hot_range_get(hi, he, recs[i].offset >> HOT_RANGE_SHIFT);
		if (!hr) {
			ret = hot_mem_at_cap(hi) ? -ENOSPC : -ENOMEM;
			break;
		}
		hot_rec_load(&pass, &hr->freq, &recs[i], now);
	}
	/*
	 * The item was freed before the records were in it (the file was
	 * deleted, or eviction or an update pass freed an item idle or
	 * without ranges): load them into the item that replaced it, if any.
	 */
	if (he->dead && !ret) {
		xa_unlock(&he->ranges);
		if (++tries < 3)
			goto again;
		ret = -EAGAIN;
		goto out;
	}
	xa_unlock(&he->ranges);
out:
	rcu_read_unlock();
	return ret;
}

/**
 * hot_track_mute_range() - stop or resume counting the I/O of one range
 * @inode: the file, a regular file.
 * @index: the range number; from %HOT_RANGE_INDEX_MAX on, ranges cannot be
 *	muted.
 * @mute: true to stop counting, false to resume.
 *
 * For a filesystem that moves data itself (reads it and writes it back
 * elsewhere): that I/O says nothing about how hot the data is.  While a
 * range is muted no I/O to it is counted, the file's included, whoever
 * issues it; I/O that also touches other ranges counts for those and for
 * the file.  One range per file is muted at a time: muting another one
 * unmutes the first; resuming a range that is not muted does nothing.
 *
 * Context: task context: the item lock is not safe from interrupts or
 * softirqs.  On allocation failure the range is not muted.
 */
void hot_track_mute_range(struct inode *inode, u64 index, bool mute)
{
	struct hot_inode_item *he;
	struct hot_info *hi;

	if (!hot_track_inode(inode) || index > HOT_RANGE_INDEX_MAX - 1)
		return;
	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	he = hi ? hot_inode_get(hi, inode) : NULL;
	if (he) {
		xa_lock(&he->ranges);
		if (mute)
			he->muted = index + 1;
		else if (he->muted == index + 1)
			he->muted = 0;
		xa_unlock(&he->ranges);
	}
	rcu_read_unlock();
}
EXPORT_SYMBOL_GPL(hot_track_mute_range);

/**
 * hot_track_get_freq() - copy the frequency data of a file
 * @inode: the file.
 * @freq: where to copy it.
 * @live: compute the temperature as of now, as the update worker does,
 *	instead of taking the one of the last update pass.
 * @temp: where to put the temperature.
 * @avg_reads: where to put the time between two reads it stands for, in
 *	ns, as of now (see hot_freq_gaps()).
 * @avg_writes: the same for writes.
 *
 * The copy includes the accesses that CPUs hold in their slots for the
 * file, which stay there.
 *
 * Context: task context, not under an item lock or &hot_info.map_lock.
 * Reads on every CPU the slots that may count for the file, up to
 * %HOT_PCP_HOME + 1, and takes the lock of those that do; reads again
 * while a drain of the superblock's slots (any file's) moved accesses
 * meanwhile, so for as long as drains run.
 * Return: 0 on success; -EOPNOTSUPP if @inode's superblock does not track
 * hot data; -ENODATA if there is no data for @inode.
 */
int hot_track_get_freq(struct inode *inode, struct hot_freq *freq, bool live,
		       u32 *temp, u64 *avg_reads, u64 *avg_writes)
{
	struct hot_inode_item *he;
	struct hot_pass pass;
	struct hot_info *hi;
	int ret = -ENODATA;
	unsigned int seq;
	u64 now;

	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	if (!hi) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	he = hot_inode_lookup(hi, inode);
	if (!he)
		goto out;
	/*
	 * The item and the slots as of one point of the drain, which moves
	 * accesses from the slots to the item.  Never holding the lock: a
	 * reader must not hold up the update worker's drain, which ends.
	 */
	do {
		seq = read_seqbegin(&hi->drain_lock);
		ret = -ENODATA;
		xa_lock(&he->ranges);
		if (!he->dead) {
			*freq = he->freq;
			ret = 0;
		}
		xa_unlock(&he->ranges);
		if (!ret)
			hot_pcp_peek_inode(hi, he, freq);
	} while (read_seqretry(&hi->drain_lock, seq));
	if (ret)
		goto out;
	pass = hot_pass_get(hi);
	now = hot_clock_ns();
	*temp = live ? hot_temp(&pass, freq, now) : READ_ONCE(he->temp);
	hot_freq_gaps(&pass, freq, now, avg_reads, avg_writes);
out:
	rcu_read_unlock();
	return ret;
}

/* Whether an item saw no access for @kick ns. */
static bool hot_item_obsolete(const struct hot_freq *freq, u64 now, u64 kick)
{
	u64 last = max(freq->last_read_time, freq->last_write_time);

	return now > last && now - last > kick;
}

/**
 * struct hot_update_ctl - an update pass going through the inode items
 * @pass: the pass: when it began and the hot-update-delay it counts over.
 * @scale: &hot_pass.len of the pass over that of the pass before, with
 *	%HOT_SCALE_SHIFT bits of fraction (hot_score_fold()).
 * @nr: the pass's number for &hot_inode_item.folded, 1 to 255: two passes
 *	in a row share one only where &hot_info.nr_folds wraps, and items are
 *	made with 0.
 * @kick: items with no access for longer than this, in ns, are dropped.
 * @he: the item @next is of, or NULL.
 * @next: the range of @he to go on from.
 */
struct hot_update_ctl {
	struct hot_pass pass;
	u64 scale;
	u8 nr;
	u64 kick;
	struct hot_inode_item *he;
	unsigned long next;
};

/*
 * One inode item in an update pass: drop its obsolete ranges, add the
 * accesses of the pass that ends to the scores of the others and its own,
 * give them their temperature and heat-map bucket, and drop the item
 * itself once it has no range left and is obsolete.  Not an item that no
 * pass has put in a heat map yet: the access that made it counts in it
 * only after it is in the inode index.  Handles at most
 * %HOT_LOCK_BATCH ranges, from range *@next on; the item itself with the
 * last batch.  An item met again in the same pass (a walk that broke RCU
 * after it) keeps its scores, and is not dropped.  Caller
 * holds &hot_info.map_lock and rcu_read_lock().
 *
 * Return: true when done with the item, false with *@next set to the range
 * to go on from, in another hold of &hot_info.map_lock.
 */
static bool hot_update_inode(struct hot_info *hi, struct hot_inode_item *he,
			     const struct hot_update_ctl *ctl,
			     unsigned long *next)
{
	bool fold = he->folded != ctl->nr;
	/* In a heat map before this pass: met again, it was not. */
	bool mapped = !list_empty(&he->track_list) && fold;
	u64 now = ctl->pass.time;
	unsigned long index, seen = 0;
	struct hot_range_item *hr;
	bool drop;
	long nr = 0;
	u32 temp;

	xa_lock(&he->ranges);
	if (he->dead) {
		xa_unlock(&he->ranges);
		return true;
	}
	xa_for_each_start(&he->ranges, index, hr, *next) {
		if (seen++ == HOT_LOCK_BATCH) {
			*next = index;
			xa_unlock(&he->ranges);
			hot_mem_add(hi, hot_range_cachep, -nr);
			return false;
		}
		if (hot_item_obsolete(&hr->freq, now, ctl->kick)) {
			hot_range_erase(hi, he, hr);
			nr++;
			continue;
		}
		if (fold)
			hot_score_fold(&hr->freq, ctl->scale);
		temp = hot_temp(&ctl->pass, &hr->freq, now);
		hr->temp = temp;
		hot_map_add(hi, &hr->track_list,
			    &hi->range_map[hot_temp_bucket(temp)]);
	}
	if (fold)
		hot_score_fold(&he->freq, ctl->scale);
	he->folded = ctl->nr;
	temp = hot_temp(&ctl->pass, &he->freq, now);
	WRITE_ONCE(he->temp, temp);
	hot_map_add(hi, &he->track_list, &hi->inode_map[hot_temp_bucket(temp)]);
	drop = mapped && !he->nr_groups &&
	       hot_item_obsolete(&he->freq, now, ctl->kick);
	hot_mem_add(hi, hot_range_cachep, -nr);
	/*
	 * Removed and freed in this hold of the item lock: an access that
	 * takes it after the decision finds the item dead, not counted in an
	 * item about to be freed.  The index lock, and that of the roots,
	 * nest inside the item lock here and in hot_evict_coldest(); nothing
	 * takes them the other way round.
	 */
	if (drop && hot_index_remove(hi, he)) {
		trace_hot_track_inode_drop(hi->sb, he->key.root, he->key.ino,
					   he->generation, HOT_DROP_AGED);
		hot_inode_free_locked(hi, he);
		return true;
	}
	xa_unlock(&he->ranges);
	return true;
}

/*
 * Call @fn for every inode item of @hi, root by root in order of id and
 * inode number, under rcu_read_lock(), which is broken every HOT_WALK_BATCH
 * items to let others run, and whenever @fn returns true: @fn is then
 * called again for the item at its key after the break, if any (the same
 * item, unless it was freed meanwhile), else for the next one.  Items added
 * or removed meanwhile may be missed; an item is met again only when @fn
 * asked for it.  A root is looked up again by id after each break: it may
 * have been freed with its last item, or made again.
 * Process context.
 */
typedef bool (*hot_inode_fn)(struct hot_info *hi, struct hot_inode_item *he,
			     void *arg);

static void hot_walk_inodes(struct hot_info *hi, hot_inode_fn fn, void *arg)
{
	struct hot_inode_item *he;
	struct hot_root *root;
	unsigned long id = 0, ino;
	unsigned int n = 0;
	bool again;

	rcu_read_lock();
	root = xa_find(&hi->roots, &id, ULONG_MAX, XA_PRESENT);
	while (root) {
		ino = 0;
		while ((he = xa_find(&root->inodes, &ino, ULONG_MAX,
				     XA_PRESENT))) {
			again = fn(hi, he, arg);
			if (again || ++n % HOT_WALK_BATCH == 0) {
				rcu_read_unlock();
				cond_resched();
				rcu_read_lock();
				/* Freed meanwhile, if its last item went. */
				root = hot_root_lookup(hi, id);
				if (!root)
					break;
			}
			if (!again && ino++ == ULONG_MAX)
				break;
		}
		if (id == ULONG_MAX)
			break;
		id++;
		root = xa_find(&hi->roots, &id, ULONG_MAX, XA_PRESENT);
	}
	rcu_read_unlock();
}

/*
 * Update one inode item, a batch of ranges per hold of the locks.  The item
 * stays valid under RCU while they are let go; when the CPU is wanted
 * elsewhere, ask hot_walk_inodes() to break RCU and call again.
 */
static bool hot_update_one(struct hot_info *hi, struct hot_inode_item *he,
			   void *arg)
{
	struct hot_update_ctl *ctl = arg;
	bool done;

	/*
	 * Another item: from its first range.  (One made again at the address
	 * of a freed one goes on from where that stopped; the ranges before
	 * wait for the next pass.)
	 */
	if (he != ctl->he) {
		ctl->he = he;
		ctl->next = 0;
	}
	do {
		spin_lock(&hi->map_lock);
		done = hot_update_inode(hi, he, ctl, &ctl->next);
		spin_unlock(&hi->map_lock);
		if (done) {
			ctl->he = NULL;
			return false;
		}
	} while (!need_resched());
	return true;
}

/* In hot_order(): hottest first, then by key and range number. */
static int hot_range_cmp(void *priv, const struct list_head *a,
			 const struct list_head *b)
{
	struct hot_range_item *ra = list_entry(a, struct hot_range_item,
					       track_list);
	struct hot_range_item *rb = list_entry(b, struct hot_range_item,
					       track_list);

	return hot_order(ra->temp, &ra->hot_inode->key, ra->index,
			 rb->temp, &rb->hot_inode->key, rb->index) > 0;
}

static int hot_inode_cmp(void *priv, const struct list_head *a,
			 const struct list_head *b)
{
	struct hot_inode_item *ea = list_entry(a, struct hot_inode_item,
					       track_list);
	struct hot_inode_item *eb = list_entry(b, struct hot_inode_item,
					       track_list);

	return hot_order(ea->temp, &ea->key, 0, eb->temp, &eb->key, 0) > 0;
}

/*
 * Sort each bucket of a heat map by hot_order(), one hold of map_lock per
 * bucket, but for those of more than HOT_SORT_BUCKET_MAX items, which are
 * left as they are and marked in @unsorted (under map_lock).
 */

static void hot_sort_map(struct hot_info *hi, struct list_head *map,
			 unsigned long *unsorted, list_cmp_func_t cmp)
{
	struct list_head *pos;
	unsigned int n;
	int b;

	for (b = HOT_MAP_BUCKETS - 1; b >= 0; b--) {
		spin_lock(&hi->map_lock);
		n = 0;
		list_for_each(pos, &map[b])
			if (++n > HOT_SORT_BUCKET_MAX)
				break;
		if (n > HOT_SORT_BUCKET_MAX) {
			__set_bit(b, unsorted);
		} else {
			list_sort(NULL, &map[b], cmp);
			__clear_bit(b, unsorted);
		}
		spin_unlock(&hi->map_lock);
	}
}

/* An update pass begins or ends reordering the heat maps. */
static void hot_map_seq_inc(struct hot_info *hi)
{
	spin_lock(&hi->map_lock);
	hi->map_seq++;
	spin_unlock(&hi->map_lock);
}

/* The shrinker's floor: the hottest eighth of the items a pass mapped. */
static void hot_update_keep(struct hot_info *hi)
{
	WRITE_ONCE(hi->shrink_keep, max(READ_ONCE(hi->nr_mapped) /
					HOT_SHRINK_KEEP, HOT_SHRINK_KEEP_MIN));
}

/**
 * hot_update_all() - one update pass over the items of a superblock
 * @hi: the superblock's tracking state.
 * @now: the time of the pass, hot_clock_ns() (ns).
 * @kick: items with no access for longer than this (ns) are dropped.
 *
 * The pass adds the accesses since the last one to the scores, as
 * accesses per the time since the last pass (&hot_pass.len; the scores
 * taken from the length of the pass before to it), and decays them
 * between passes over the hot-update-delay of now: temperatures computed
 * between passes use it from here on.  Until the walk reaches an item,
 * they take its score and pending accesses as they are, neither folded,
 * rescaled nor cut: twice what they were just before the pass began (times
 * the length of the pass before over that of this one), and for an item
 * no longer accessed more than the pass will leave it.  The score a pass
 * stores for an item not accessed since the pass before stands for at
 * most half the rate of the score stored then; the temperature, a log2
 * taken of score and length apart, for at most 2^0.17 times that, or the
 * idle floor.
 *
 * Context: process context, from the update worker (one pass at a time
 * per superblock) or KUnit; sleeps between batches of items.
 */
static void hot_update_all(struct hot_info *hi, u64 now, u64 kick)
{
	struct hot_update_ctl ctl = {
		.pass.time = now,
		.pass.delay = (u64)READ_ONCE(sysctl_hot_update_delay) *
			      NSEC_PER_SEC,
		.pass.len = clamp(now > hi->pass.time ? now - hi->pass.time : 0,
				  HOT_PASS_LEN_MIN, HOT_PASS_LEN_MAX),
		.kick = kick,
	};

	ctl.scale = mul_u64_u64_div_u64(ctl.pass.len, HOT_SCALE_ONE,
					clamp(hi->pass.len, HOT_PASS_LEN_MIN,
					      HOT_PASS_LEN_MAX));
	WRITE_ONCE(hi->nr_folds, hi->nr_folds + 1);
	ctl.nr = hi->nr_folds % 255 + 1;

	hot_track_drain(hi);
	/* A new pass, once the heat maps are marked as being reordered. */
	hot_map_seq_inc(hi);
	WRITE_ONCE(hi->pass.time, ctl.pass.time);
	WRITE_ONCE(hi->pass.delay, ctl.pass.delay);
	WRITE_ONCE(hi->pass.len, ctl.pass.len);
	hot_walk_inodes(hi, hot_update_one, &ctl);
	hot_sort_map(hi, hi->range_map, hi->range_unsorted, hot_range_cmp);
	hot_sort_map(hi, hi->inode_map, hi->inode_unsorted, hot_inode_cmp);
	hot_map_seq_inc(hi);
	hot_update_keep(hi);
}

/* After a pass the items use at most (1 - 1/HOT_MEM_ROOM) of the cap. */
#define HOT_MEM_ROOM		8

/* Items hot_evict_coldest() frees or looks at under one hold of map_lock. */
#define HOT_EVICT_BATCH		1024UL

/**
 * hot_evict_coldest() - free the coldest items of a superblock
 * @hi: the superblock's tracking state.
 * @nr: how many items to free at most; more than %HOT_EVICT_BATCH count
 *	as %HOT_EVICT_BATCH.
 * @more: set if the walk ended at the batch limit.
 *
 * Frees range items from the coldest heat-map bucket up, then inode items
 * left without ranges, coldest first.  Items that no update pass has put
 * in a heat map yet are not freed.  Looks at %HOT_EVICT_BATCH items at
 * most, which bounds the time &hot_info.map_lock is held.
 *
 * Context: task context: the locks it takes are not safe from interrupts
 * or softirqs.
 * Return: the number of items freed; *@more is set if the walk stopped at
 * %HOT_EVICT_BATCH items, with more to look at.
 */
static unsigned long hot_evict_coldest(struct hot_info *hi, unsigned long nr,
				       bool *more)
{
	struct hot_range_item *hr, *hr_next;
	struct hot_inode_item *he, *he_next;
	unsigned long freed = 0, seen = 0;
	unsigned int b;

	nr = min(nr, HOT_EVICT_BATCH);
	spin_lock(&hi->map_lock);
	for (b = 0; b < HOT_MAP_BUCKETS && freed < nr; b++) {
		list_for_each_entry_safe(hr, hr_next, &hi->range_map[b],
					 track_list) {
			he = hr->hot_inode;
			xa_lock(&he->ranges);
			hot_range_erase(hi, he, hr);
			xa_unlock(&he->ranges);
			hot_mem_add(hi, hot_range_cachep, -1);
			seen++;
			if (++freed >= nr)
				break;
		}
	}
	for (b = 0; b < HOT_MAP_BUCKETS && freed < nr && seen < HOT_EVICT_BATCH;
	     b++) {
		LIST_HEAD(skipped);

		list_for_each_entry_safe(he, he_next, &hi->inode_map[b],
					 track_list) {
			if (++seen > HOT_EVICT_BATCH)
				break;
			/*
			 * Not xa_empty(): see hot_inode_free_locked().  Told,
			 * removed and freed in one hold of the item lock: a
			 * range added meanwhile would go with it.
			 */
			xa_lock(&he->ranges);
			if (he->nr_groups) {
				xa_unlock(&he->ranges);
				list_move_tail(&he->track_list, &skipped);
				continue;
			}
			if (!hot_index_remove(hi, he)) {
				xa_unlock(&he->ranges);
				continue;
			}
			trace_hot_track_inode_drop(hi->sb, he->key.root,
						   he->key.ino, he->generation,
						   HOT_DROP_EVICTED);
			hot_inode_free_locked(hi, he);
			if (++freed >= nr)
				break;
		}
		/*
		 * Items with ranges that joined since the last pass go behind
		 * the others of their bucket, out of the way of the next call.
		 * That leaves the bucket in no order, and moves items from
		 * before the cursors of hot_track_query() to after them.
		 */
		if (!list_empty(&skipped)) {
			list_splice_tail(&skipped, &hi->inode_map[b]);
			__set_bit(b, hi->inode_unsorted);
			hi->map_seq += 2;
		}
	}
	spin_unlock(&hi->map_lock);
	*more = seen >= HOT_EVICT_BATCH;
	return freed;
}

/*
 * How many items to free to bring @mem bytes under @thresh bytes: as many
 * as it takes if each range item freed takes its leaf node with it; the
 * caller asks again after freeing them.  An inode item with a number far
 * from others' takes more of the index's nodes with it, so that eviction
 * may free more than it must.  0 when not over, or for no @thresh.  @mem
 * is read once by the caller: other CPUs lower it meanwhile (unlink, the
 * shrinker).
 */
static unsigned long hot_mem_excess(long mem, unsigned long thresh)
{
	if (!thresh || mem <= 0 || (unsigned long)mem <= thresh)
		return 0;
	return DIV_ROUND_UP((unsigned long)mem - thresh,
			    kmem_cache_size(hot_range_cachep) +
			    sizeof(struct xa_node));
}

/*
 * Queue the next update pass @delay jiffies from now unless one is queued.
 * With @sooner one that is queued for later is moved there; a pass is never
 * moved later.  A pass that is running is not a queued one: a pass queued
 * meanwhile comes @delay from now, and the running one, which queues the
 * next itself as it ends, then finds it queued.
 */
static void hot_queue_pass(struct hot_info *hi, unsigned long delay,
			   bool sooner)
{
	unsigned long due = jiffies + delay;

	spin_lock(&hi->pass_lock);
	if (!delayed_work_pending(&hi->update_work)) {
		if (queue_delayed_work(system_dfl_wq, &hi->update_work, delay))
			hi->next_pass = due;
	} else if (sooner && time_after(hi->next_pass, due)) {
		mod_delayed_work(system_dfl_wq, &hi->update_work, delay);
		hi->next_pass = due;
	}
	spin_unlock(&hi->pass_lock);
}

static void hot_update_work(struct work_struct *work)
{
	struct hot_info *hi = container_of(to_delayed_work(work),
					   struct hot_info, update_work);
	unsigned long cap = hot_mem_cap(hi);
	u64 kick = (u64)READ_ONCE(sysctl_hot_kick_time) * NSEC_PER_SEC;
	unsigned long excess, freed, evicted = 0, idle = 0;
	u64 start = hot_clock_ns();
	bool more;

	hot_update_all(hi, start, kick);
	/*
	 * Down to seven eighths of the cap, which leaves the I/O hooks room
	 * for new items.  In batches, letting others take map_lock in
	 * between.  A batch that freed nothing may have only met items that
	 * cannot go yet: go on for as many batches as it takes to look at
	 * every inode item once.
	 */
	while ((excess = hot_mem_excess(atomic_long_read(&hi->mem),
					cap - cap / HOT_MEM_ROOM))) {
		freed = hot_evict_coldest(hi, excess, &more);
		evicted += freed;
		if (freed)
			idle = 0;
		else if (!more || ++idle > atomic_long_read(&hi->nr_inodes) /
					   HOT_EVICT_BATCH)
			break;
		cond_resched();
	}
	if (evicted)
		trace_hot_track_evict(hi->sb, HOT_EVICT_CAP, evicted,
				      atomic_long_read(&hi->mem));
	spin_lock(&hi->map_lock);
	WRITE_ONCE(hi->nr_passes, hi->nr_passes + 1);
	spin_unlock(&hi->map_lock);
	if (trace_hot_track_update_pass_enabled())
		trace_hot_track_update_pass(hi->sb, hi->nr_passes,
					    atomic_long_read(&hi->nr_inodes),
					    atomic_long_read(&hi->nr_ranges),
					    READ_ONCE(hi->nr_mapped),
					    atomic_long_read(&hi->mem),
					    evicted, hot_clock_ns() - start);
	hot_queue_pass(hi, READ_ONCE(sysctl_hot_update_delay) * HZ, false);
}

static unsigned long hot_shrink_count(struct shrinker *shrink,
				      struct shrink_control *sc)
{
	struct hot_info *hi = shrink->private_data;
	/* Items in no heat map yet cannot be freed: they do not count. */
	unsigned long nr = READ_ONCE(hi->nr_mapped);
	unsigned long keep = READ_ONCE(hi->shrink_keep);

	return nr > keep ? nr - keep : 0;
}

static unsigned long hot_shrink_scan(struct shrinker *shrink,
				     struct shrink_control *sc)
{
	/* Reclaim may ask for more than was counted: keep the floor. */
	unsigned long nr = min(sc->nr_to_scan, hot_shrink_count(shrink, sc));
	struct hot_info *hi = shrink->private_data;
	unsigned long freed = 0;
	bool more;

	if (nr)
		freed = hot_evict_coldest(hi, nr, &more);
	if (freed)
		trace_hot_track_evict(hi->sb, HOT_EVICT_SHRINKER, freed,
				      atomic_long_read(&hi->mem));
	return freed ?: SHRINK_STOP;
}

struct hot_walk_ctl {
	struct hot_pass pass;
	u64 now;
	bool ranges;
	hot_walk_fn fn;
	void *arg;
};

static bool hot_walk_one(struct hot_info *hi, struct hot_inode_item *he,
			 void *arg)
{
	struct hot_walk_ctl *ctl = arg;
	struct hot_range_item *hr;
	struct hot_freq freq;
	unsigned long index;

	if (!ctl->ranges) {
		xa_lock(&he->ranges);
		freq = he->freq;
		xa_unlock(&he->ranges);
		ctl->fn(ctl->arg, &he->key, 0, &freq,
			hot_temp(&ctl->pass, &freq, ctl->now));
		return false;
	}
	xa_for_each(&he->ranges, index, hr) {
		xa_lock(&he->ranges);
		freq = hr->freq;
		xa_unlock(&he->ranges);
		ctl->fn(ctl->arg, &he->key, index, &freq,
			hot_temp(&ctl->pass, &freq, ctl->now));
	}
	return false;
}

/**
 * hot_track_walk() - visit the items of a superblock
 * @hi: the superblock's tracking state.
 * @ranges: visit the range items if true, the inode items if false.
 * @fn: called with the file's key, the range number (0 for an inode item),
 *	a copy of the item's frequency data and its temperature as of now,
 *	under RCU: must not sleep.
 * @arg: passed to @fn.
 *
 * Counts the accesses of the per-CPU slots first (hot_track_drain()).  Items added
 * or removed during the walk may be missed.
 *
 * Context: process context; sleeps between batches of items.
 */
void hot_track_walk(struct hot_info *hi, bool ranges, hot_walk_fn fn,
		    void *arg)
{
	struct hot_walk_ctl ctl = { .ranges = ranges, .fn = fn, .arg = arg };

	hot_track_drain(hi);
	ctl.pass = hot_pass_get(hi);
	ctl.now = hot_clock_ns();
	hot_walk_inodes(hi, hot_walk_one, &ctl);
}

/**
 * hot_track_sync() - count the accesses of the per-CPU slots in the items
 * @sb: the superblock.
 *
 * The I/O hooks count reads and writes in slots of the CPU that issues
 * them; the update worker counts them in the items at each pass.  For
 * readers of the items' frequency data that want every access made before
 * the call counted (%FS_IOC_GET_HOT_ITEMS): see hot_track_drain().  Does
 * nothing if @sb does not track hot data.
 *
 * Context: process context; takes @sb->s_umount for reading, which keeps
 * tracking from being turned off meanwhile; the caller must not hold it.
 * Return: 0, or -EINTR if a fatal signal came while waiting for it.
 */
int hot_track_sync(struct super_block *sb)
{
	struct hot_info *hi;

	if (down_read_killable(&sb->s_umount))
		return -EINTR;
	hi = rcu_dereference_protected(sb->s_hot_info,
				       lockdep_is_held(&sb->s_umount));
	if (hi)
		hot_track_drain(hi);
	up_read(&sb->s_umount);
	return 0;
}

/*
 * hot_track_enable() with the cap of hot_track_mem=, @mem_max bytes (0 for
 * the sysctl's).
 */
static int hot_track_enable_cap(struct super_block *sb,
				const struct hot_type *type,
				unsigned long mem_max)
{
	struct hot_info *hi;
	int i, ret;

	if (rcu_access_pointer(sb->s_hot_info))
		return 0;
	hi = kzalloc_obj(*hi);
	if (!hi)
		return -ENOMEM;
	hi->sb = sb;
	hi->type = type;
	hi->enabled_at = hot_clock_ns();
	mutex_init(&hi->pcp_mutex);
	seqlock_init(&hi->drain_lock);
	spin_lock_init(&hi->map_lock);
	spin_lock_init(&hi->pass_lock);
	for (i = 0; i < HOT_MAP_BUCKETS; i++) {
		INIT_LIST_HEAD(&hi->inode_map[i]);
		INIT_LIST_HEAD(&hi->range_map[i]);
	}
	INIT_DELAYED_WORK(&hi->update_work, hot_update_work);
	INIT_LIST_HEAD(&hi->dead_items);
	INIT_WORK(&hi->free_work, hot_free_work);
	hi->pcp = alloc_percpu(struct hot_pcp);
	if (!hi->pcp) {
		ret = -ENOMEM;
		goto out_free;
	}
	hi->pass.time = hi->enabled_at;
	hi->pass.delay = (u64)READ_ONCE(sysctl_hot_update_delay) *
			 NSEC_PER_SEC;
	hi->pass.len = hi->pass.delay;
	ret = percpu_counter_init(&hi->nr_over_cap, 0, GFP_KERNEL);
	if (ret)
		goto out_pcp;
	hi->mem_max = mem_max;
	hot_index_init(hi);
	hi->shrink_keep = HOT_SHRINK_KEEP_MIN;
	hi->shrinker = shrinker_alloc(0, "hot_track-%s", sb->s_id);
	if (!hi->shrinker) {
		ret = -ENOMEM;
		goto out_counter;
	}
	hi->shrinker->count_objects = hot_shrink_count;
	hi->shrinker->scan_objects = hot_shrink_scan;
	hi->shrinker->private_data = hi;
	shrinker_register(hi->shrinker);

	static_branch_inc(&hot_track_key);
	rcu_assign_pointer(sb->s_hot_info, hi);
	hot_track_debugfs_add(hi);
	mutex_lock(&hot_infos_lock);
	hot_queue_pass(hi, READ_ONCE(sysctl_hot_update_delay) * HZ, false);
	list_add(&hi->list, &hot_infos);
	mutex_unlock(&hot_infos_lock);
	pr_info("VFS: Turning on hot data tracking on %s\n", sb->s_id);
	return 0;

out_counter:
	percpu_counter_destroy(&hi->nr_over_cap);
out_pcp:
	free_percpu(hi->pcp);
out_free:
	mutex_destroy(&hi->pcp_mutex);
	kfree(hi);
	return ret;
}

/**
 * hot_track_enable() - turn hot data tracking on for a superblock
 * @sb: the superblock.
 * @type: what the filesystem tells hot data tracking, or NULL.
 *
 * Does nothing if tracking is on already.  Starts the superblock's update
 * worker and registers its shrinker.
 *
 * Context: process context; the caller holds @sb->s_umount for writing
 * (mount and remount do).
 * Return: 0 on success, -ENOMEM if the state cannot be allocated.
 */
int hot_track_enable(struct super_block *sb, const struct hot_type *type)
{
	return hot_track_enable_cap(sb, type, 0);
}

/*
 * Take every item out of @hi's index and free it, and the roots with their
 * last item.  Nothing else uses the index any more.
 */
static void hot_index_destroy(struct hot_info *hi)
{
	struct hot_inode_item *he;
	struct hot_root *root;
	unsigned long id, ino;
	long spare;

	for (;;) {
		he = NULL;
		rcu_read_lock();
		xa_for_each(&hi->roots, id, root) {
			ino = 0;
			he = xa_find(&root->inodes, &ino, ULONG_MAX, XA_PRESENT);
			if (he)
				break;
		}
		if (he)
			WARN_ON_ONCE(!hot_index_remove(hi, he));
		rcu_read_unlock();
		if (!he)
			break;
		hot_inode_free(hi, he);
	}
	/* None: a root goes with its last item, or when none joined it. */
	xa_for_each(&hi->roots, id, root) {
		xa_lock(&root->inodes);
		WARN_ON_ONCE(!hot_root_kill(root));
		xa_unlock(&root->inodes);
		hot_root_free(hi, root);
	}
	spare = hi->root_nodes.spare;
	xa_destroy(&hi->roots);
	hot_index_count(hi, &hi->root_nodes, NULL, 0, -spare);
}

/**
 * hot_track_disable() - turn hot data tracking off and free its state
 * @sb: the superblock.
 *
 * Does nothing if tracking is off.  Removes the debugfs files, cancels the
 * update worker and waits for it, frees the shrinker, waits for the I/O
 * hooks that still use the state to finish, lets &hot_info.free_work free
 * the items of deleted files, then frees every other item.  Unmount calls
 * it after the filesystem's ->put_super().
 *
 * Context: process context, may sleep; the caller holds @sb->s_umount for
 * writing, or owns @sb (unmount).
 */
void hot_track_disable(struct super_block *sb)
{
	struct hot_info *hi = rcu_replace_pointer(sb->s_hot_info, NULL, true);

	if (!hi)
		return;
	hot_track_debugfs_remove(hi);
	mutex_lock(&hot_infos_lock);
	list_del(&hi->list);
	mutex_unlock(&hot_infos_lock);
	cancel_delayed_work_sync(&hi->update_work);
	shrinker_free(hi->shrinker);
	synchronize_rcu();
	/*
	 * The hooks that could queue it are done: its last run frees the
	 * items of deleted files.  Then all the others.
	 */
	flush_work(&hi->free_work);
	hot_index_destroy(hi);
	WARN_ON_ONCE(atomic_long_read(&hi->mem) ||
		     atomic_long_read(&hi->nr_inodes) ||
		     atomic_long_read(&hi->nr_ranges));
	static_branch_dec(&hot_track_key);
	percpu_counter_destroy(&hi->nr_over_cap);
	free_percpu(hi->pcp);
	mutex_destroy(&hi->pcp_mutex);
	kfree(hi);
	pr_info("VFS: Turning off hot data tracking on %s\n", sb->s_id);
}

/**
 * hot_track_check_opt() - check the hot_track mount options before a remount
 * @fc: the mount or reconfiguration context, for error messages.
 * @sb: the superblock.
 * @on: as for hot_track_mount_opt().
 * @mem_max: as for hot_track_mount_opt().
 *
 * For a filesystem's ->reconfigure(), with its other checks, before it
 * changes anything: then hot_track_mount_opt() cannot fail on the options,
 * only for lack of memory.
 *
 * Context: process context; the caller holds @sb->s_umount for writing.
 * Return: 0 if the options can be applied, -EINVAL if @mem_max is given
 * while tracking is off and @on does not turn it on.
 */
int hot_track_check_opt(struct fs_context *fc, struct super_block *sb, int on,
			long mem_max)
{
	if (mem_max >= 0 && (!on || (on < 0 && !hot_track_enabled(sb))))
		return invalfc(fc, "hot_track_mem: needs hot_track");
	return 0;
}
EXPORT_SYMBOL_GPL(hot_track_check_opt);

/**
 * hot_track_mount_opt() - apply the hot_track mount option
 * @fc: the mount or reconfiguration context, for error messages.
 * @sb: the superblock being mounted or reconfigured.
 * @on: 1 for hot_track, 0 for nohot_track, -1 if neither was given.
 * @mem_max: the cap of the superblock's items in bytes from hot_track_mem=
 *	(see hot_track_parse_mem()), 0 to follow the sysctl
 *	hot-mem-max-bytes, or -1 if the option was not given.
 * @type: what the filesystem tells hot data tracking, or NULL; see
 *	&struct hot_type.
 *
 * For filesystems that offer the options: they parse them with
 * fsparam_flag_no("hot_track", ...) and fsparam_string("hot_track_mem",
 * ...) and call this from ->fill_super() (early: state set up before a
 * failure is freed at unmount) and, last, from ->reconfigure(), having
 * checked the options with hot_track_check_opt().  Without the options the
 * state is left as it is.  The cap lasts while tracking is on: nohot_track
 * forgets it.  A cap below the memory in use makes the update worker run at
 * once.
 *
 * Context: process context; the caller holds @sb->s_umount for writing.
 * Return: 0 on success, -EINVAL if @mem_max is given for a superblock that
 * does not track hot data after this call (nothing is changed then),
 * -ENOMEM if tracking cannot be turned on.
 */
int hot_track_mount_opt(struct fs_context *fc, struct super_block *sb, int on,
			long mem_max, const struct hot_type *type)
{
	struct hot_info *hi;
	int ret;

	ret = hot_track_check_opt(fc, sb, on, mem_max);
	if (ret)
		return ret;
	if (!on) {
		hot_track_disable(sb);
		return 0;
	}
	if (on > 0) {
		ret = hot_track_enable_cap(sb, type, max(mem_max, 0L));
		if (ret) {
			errorfc(fc, "hot_track: cannot turn on: %d", ret);
			return ret;
		}
	}
	if (mem_max < 0)
		return 0;
	hi = rcu_dereference_protected(sb->s_hot_info, true);	/* s_umount */
	WRITE_ONCE(hi->mem_max, mem_max);
	if (atomic_long_read(&hi->mem) > hot_mem_cap(hi))
		hot_queue_pass(hi, 0, true);
	return 0;
}
EXPORT_SYMBOL_GPL(hot_track_mount_opt);

/**
 * hot_track_parse_mem() - parse the value of the hot_track_mem= mount option
 * @fc: the mount or reconfiguration context, for error messages.
 * @param: the option, parsed with fsparam_string("hot_track_mem", ...).
 * @mem_max: where to put the cap, in bytes, for hot_track_mount_opt().
 *
 * The value is a size in bytes with an optional K, M, G, ... suffix, as
 * memparse() reads it: 0, to follow the sysctl hot-mem-max-bytes again,
 * or from 4096 to LONG_MAX, as that sysctl.
 *
 * Context: process context.
 * Return: 0 on success, -EINVAL for any other value; *@mem_max is then
 * left as it is.
 */
int hot_track_parse_mem(struct fs_context *fc, struct fs_parameter *param,
			long *mem_max)
{
	unsigned long long val;
	char *end;

	/* Past ULLONG_MAX, memparse() gives ULLONG_MAX: refused below. */
	val = memparse(param->string, &end);
	if (end == param->string || *end ||
	    (val && val < HOT_MEM_MAX_MIN) || val > LONG_MAX)
		return invalfc(fc, "hot_track_mem: %s is not 0 nor %d to %ld bytes",
			       param->string, HOT_MEM_MAX_MIN, LONG_MAX);
	*mem_max = val;
	return 0;
}
EXPORT_SYMBOL_GPL(hot_track_parse_mem);

/**
 * hot_track_mem_opt() - the value of the hot_track_mem= mount option
 * @sb: the superblock.
 *
 * For a filesystem's ->show_options(), to show "hot_track_mem=<bytes>"
 * when it is not 0.
 *
 * Context: any context.
 * Return: the cap in bytes that the option set and that is in force, 0 if
 * none.
 */
unsigned long hot_track_mem_opt(struct super_block *sb)
{
	struct hot_info *hi;
	unsigned long mem_max = 0;

	rcu_read_lock();
	hi = rcu_dereference(sb->s_hot_info);
	if (hi)
		mem_max = READ_ONCE(hi->mem_max);
	rcu_read_unlock();
	return mem_max;
}
EXPORT_SYMBOL_GPL(hot_track_mem_opt);

/**
 * hot_track_update_delay_changed() - apply a new hot-update-delay at once
 *
 * A superblock whose next update pass is due later than the new delay from
 * now has it moved to then; one due sooner keeps it.  One whose pass is
 * running gets its next pass the new delay from now.
 *
 * Context: process context, may sleep; takes &hot_infos_lock.
 */
void hot_track_update_delay_changed(void)
{
	unsigned long delay = READ_ONCE(sysctl_hot_update_delay) * HZ;
	struct hot_info *hi;

	mutex_lock(&hot_infos_lock);
	list_for_each_entry(hi, &hot_infos, list) {
		hot_queue_pass(hi, delay, true);
	}
	mutex_unlock(&hot_infos_lock);
}

static int __init hot_track_init(void)
{
	/* A small share of RAM per superblock, never nothing. */
	sysctl_hot_mem_max = max(totalram_pages() / 256 * PAGE_SIZE,
				 (unsigned long)SZ_1M);
	hot_inode_cachep = KMEM_CACHE(hot_inode_item, SLAB_RECLAIM_ACCOUNT);
	hot_range_cachep = KMEM_CACHE(hot_range_item, SLAB_RECLAIM_ACCOUNT);
	if (!hot_inode_cachep || !hot_range_cachep) {
		kmem_cache_destroy(hot_inode_cachep);
		kmem_cache_destroy(hot_range_cachep);
		return -ENOMEM;
	}
	return 0;
}
fs_initcall(hot_track_init);

#ifdef CONFIG_HOT_TRACKING_KUNIT_TEST
#include "tests/hot_tracking_kunit.c"
#include "tests/hot_tracking_benchmark.c"
#endif
