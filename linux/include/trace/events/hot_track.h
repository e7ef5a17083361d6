/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Hot data tracking: update passes, items freed to bound memory, and files
 * whose heat is forgotten.  See Documentation/filesystems/hot_tracking.rst.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM hot_track

#if !defined(_TRACE_HOT_TRACK_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_HOT_TRACK_H

#include <linux/fs.h>
#include <linux/tracepoint.h>

#ifndef _HOT_TRACK_TRACE_ENUMS
#define _HOT_TRACK_TRACE_ENUMS
/* Why items were freed: hot_track_evict's reason. */
enum hot_evict_reason {
	HOT_EVICT_CAP,
	HOT_EVICT_SHRINKER,
};

/* Why a file's heat was forgotten: hot_track_inode_drop's reason. */
enum hot_drop_reason {
	HOT_DROP_DELETED,
	HOT_DROP_AGED,
	HOT_DROP_EVICTED,
};
#endif

TRACE_DEFINE_ENUM(HOT_EVICT_CAP);
TRACE_DEFINE_ENUM(HOT_EVICT_SHRINKER);
TRACE_DEFINE_ENUM(HOT_DROP_DELETED);
TRACE_DEFINE_ENUM(HOT_DROP_AGED);
TRACE_DEFINE_ENUM(HOT_DROP_EVICTED);

#define show_hot_evict_reason(reason)					\
	__print_symbolic(reason, { HOT_EVICT_CAP, "cap" },		\
			 { HOT_EVICT_SHRINKER, "shrinker" })

#define show_hot_drop_reason(reason)					\
	__print_symbolic(reason, { HOT_DROP_DELETED, "deleted" },	\
			 { HOT_DROP_AGED, "aged" },			\
			 { HOT_DROP_EVICTED, "evicted" })

/**
 * hot_track_update_pass - an update pass of a superblock ended
 * @sb: the superblock.
 * @pass: the number of passes done, this one included.
 * @inodes: inode items after the pass.
 * @ranges: range items after the pass.
 * @mapped: items in the heat maps.
 * @mem: bytes the items use.
 * @evicted: items the pass freed to bring the memory under the cap.
 * @duration: how long the pass took, in ns.
 */
TRACE_EVENT(hot_track_update_pass,
	TP_PROTO(struct super_block *sb, unsigned long pass,
		 unsigned long inodes, unsigned long ranges,
		 unsigned long mapped, long mem, unsigned long evicted,
		 u64 duration),
	TP_ARGS(sb, pass, inodes, ranges, mapped, mem, evicted, duration),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(unsigned long, pass)
		__field(unsigned long, inodes)
		__field(unsigned long, ranges)
		__field(unsigned long, mapped)
		__field(long, mem)
		__field(unsigned long, evicted)
		__field(u64, duration)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->pass = pass;
		__entry->inodes = inodes;
		__entry->ranges = ranges;
		__entry->mapped = mapped;
		__entry->mem = mem;
		__entry->evicted = evicted;
		__entry->duration = duration;
	),
	TP_printk("dev=%d:%d pass=%lu inodes=%lu ranges=%lu mapped=%lu mem=%ld evicted=%lu duration_ns=%llu",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->pass,
		  __entry->inodes, __entry->ranges, __entry->mapped,
		  __entry->mem, __entry->evicted, __entry->duration)
);

/**
 * hot_track_evict - the coldest items of a superblock were freed
 * @sb: the superblock.
 * @reason: %HOT_EVICT_CAP (the memory cap, after an update pass) or
 *	%HOT_EVICT_SHRINKER (memory pressure).
 * @freed: items freed.
 * @mem: bytes the items use after.
 */
TRACE_EVENT(hot_track_evict,
	TP_PROTO(struct super_block *sb, enum hot_evict_reason reason,
		 unsigned long freed, long mem),
	TP_ARGS(sb, reason, freed, mem),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(int, reason)
		__field(unsigned long, freed)
		__field(long, mem)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->reason = reason;
		__entry->freed = freed;
		__entry->mem = mem;
	),
	TP_printk("dev=%d:%d reason=%s freed=%lu mem=%ld",
		  MAJOR(__entry->dev), MINOR(__entry->dev),
		  show_hot_evict_reason(__entry->reason),
		  __entry->freed, __entry->mem)
);

/**
 * hot_track_inode_drop - the heat of a file was forgotten
 * @sb: the superblock.
 * @root: the file's root (&hot_inode_key.root).
 * @ino: its inode number.
 * @generation: its generation.
 * @reason: %HOT_DROP_DELETED (the file was deleted), %HOT_DROP_AGED (no
 *	access for hot-kick-time) or %HOT_DROP_EVICTED (the memory cap or
 *	the shrinker freed it, the coldest).
 */
TRACE_EVENT(hot_track_inode_drop,
	TP_PROTO(struct super_block *sb, u64 root, u64 ino, u32 generation,
		 enum hot_drop_reason reason),
	TP_ARGS(sb, root, ino, generation, reason),
	TP_STRUCT__entry(
		__field(dev_t, dev)
		__field(u64, root)
		__field(u64, ino)
		__field(u32, generation)
		__field(int, reason)
	),
	TP_fast_assign(
		__entry->dev = sb->s_dev;
		__entry->root = root;
		__entry->ino = ino;
		__entry->generation = generation;
		__entry->reason = reason;
	),
	TP_printk("dev=%d:%d root=%llu ino=%llu gen=%u reason=%s",
		  MAJOR(__entry->dev), MINOR(__entry->dev), __entry->root,
		  __entry->ino, __entry->generation,
		  show_hot_drop_reason(__entry->reason))
);

#endif /* _TRACE_HOT_TRACK_H */

#include <trace/define_trace.h>
