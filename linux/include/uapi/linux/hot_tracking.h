/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Hot data tracking: the user interface.
 *
 * See Documentation/filesystems/hot_tracking.rst.
 */
#ifndef _UAPI_LINUX_HOT_TRACKING_H
#define _UAPI_LINUX_HOT_TRACKING_H

#include <linux/ioctl.h>
#include <linux/types.h>

/**
 * struct hot_heat_info - the heat of a file, for %FS_IOC_GET_HEAT_INFO
 * @avg_delta_reads: out: the time between two reads from disk that the
 *	temperature stands for, as of now, in ns: the gap of its rate of
 *	reads and writes, times their count over that of reads; 0 if never
 *	read.
 * @avg_delta_writes: out: the same for writes to disk, in ns.
 * @last_read_time: out: time of the last read from disk, in ns of
 *	CLOCK_MONOTONIC as the caller's clock_gettime() gives it (in its
 *	time namespace); a read counted by the kernel is stamped to the tick
 *	(the last timekeeping update); 0 if never.
 * @last_write_time: out: time of the last write to disk, the same way
 *	(to the nanosecond for writeback).
 * @num_reads: out: reads from disk; saturates at 2^32 - 1.
 * @num_writes: out: writes to disk; saturates at 2^32 - 1.
 * @temp: out: the temperature: as of the last update pass, or as of now
 *	if @live is set.
 * @live: in: 1 to compute @temp now, 0 for the last update pass's value.
 * @reserved: in: must be zero; out: zero.
 */
struct hot_heat_info {
	__u64 avg_delta_reads;
	__u64 avg_delta_writes;
	__u64 last_read_time;
	__u64 last_write_time;
	__u32 num_reads;
	__u32 num_writes;
	__u32 temp;
	__u32 live;
	__u64 reserved[4];
};

/* Age of an access that never happened, in &struct hot_item_rec. */
#define HOT_AGE_NEVER		(~0ULL)

/* &hot_item_rec.flags: the record is of a 1 MiB range, not of a file. */
#define HOT_REC_RANGE		0x1

/**
 * struct hot_item_rec - the heat of a file or of one 1 MiB range of it
 * @root: the part of the filesystem the inode number belongs to: the
 *	subvolume ID on btrfs, 0 on filesystems whose inode numbers are unique.
 * @ino: the inode number of the file.
 * @generation: the generation of the file (as in file handles): with @root
 *	and @ino it names the file across umounts and reboots.  A file that
 *	reuses the inode number of a deleted one has another generation.
 * @flags: %HOT_REC_RANGE for a range, 0 for a whole file.
 * @offset: for a range, its first byte in the file, a multiple of 1 MiB
 *	(bytes); 0 for a file.
 * @num_reads: reads from disk; saturates at 2^32 - 1.
 * @num_writes: writes to disk; saturates at 2^32 - 1.
 * @temp: the temperature as of the last update pass (0 before the first
 *	pass that saw the item); ignored by %FS_IOC_SET_HEAT_INFO.
 * @reserved: zero.
 * @avg_delta_reads: time between two reads from disk, in ns, as in
 *	&struct hot_heat_info; %FS_IOC_SET_HEAT_INFO adds the rate it stands
 *	for, halved for each hot-update-delay of @read_age, to the item's
 *	(a gap saved some time after the last read was cooled for that time
 *	already, and is cooled again); the next update pass keeps at most
 *	two accesses per pass of it unless the file is accessed meanwhile.
 * @avg_delta_writes: the same for writes, in ns.
 * @read_age: time since the last read from disk, in ns, as of the call;
 *	%HOT_AGE_NEVER if never.
 * @write_age: time since the last write to disk, in ns; %HOT_AGE_NEVER if
 *	never.
 *
 * Ages, unlike times, mean the same after a reboot: a saved record loaded
 * back with its ages advanced by the time in between describes the same
 * past.
 */
struct hot_item_rec {
	__u64 root;
	__u64 ino;
	__u32 generation;
	__u32 flags;
	__u64 offset;
	__u32 num_reads;
	__u32 num_writes;
	__u32 temp;
	__u32 reserved;
	__u64 avg_delta_reads;
	__u64 avg_delta_writes;
	__u64 read_age;
	__u64 write_age;
};

/* The size of the first version of &struct hot_item_rec, in bytes. */
#define HOT_ITEM_REC_SIZE_VER0	80

/* &hot_items_query.flags: list ranges instead of files. */
#define HOT_QUERY_RANGES	0x1

/* &hot_items_query.oflags: no item comes after the last one returned. */
#define HOT_QUERY_END		0x1
/*
 * &hot_items_query.oflags: the order changed since the cursor was made (an
 * update pass ran, or runs now; the memory cap or the shrinker reordered
 * the files; or the item the cursor names left a part of the heat maps
 * that is in no defined order): items may be missed or returned twice, and
 * the call returned after the batch of records (64 at most) in which it
 * saw the change.  A caller that wants one consistent list starts again.
 */
#define HOT_QUERY_REORDERED	0x2

/* The most records one %FS_IOC_GET_HOT_ITEMS or %FS_IOC_SET_HEAT_INFO takes. */
#define HOT_QUERY_MAX		4096

/**
 * struct hot_items_query - a page of a filesystem's hottest items, for
 *	%FS_IOC_GET_HOT_ITEMS
 * @flags: in: %HOT_QUERY_RANGES to list ranges, 0 to list files.
 * @rec_size: in: the size of one record in @recs, in bytes: at least
 *	%HOT_ITEM_REC_SIZE_VER0 and at most 4096.  A larger record than the
 *	kernel knows is filled up to the size it knows, the rest with zeros;
 *	a smaller one (of an older version) up to its size.
 * @nr: in: room in @recs, in records, 1 to %HOT_QUERY_MAX; out: records
 *	filled.
 * @oflags: in: zero; out: %HOT_QUERY_END, %HOT_QUERY_REORDERED.
 * @recs: in: user address of the records.
 * @pass: out: the number of update passes done when the page was taken.
 * @cursor: in and out: all zeros to begin with the hottest item; after a
 *	call, where the next page begins.  Opaque: pass it back as it is.
 * @reserved: in: zero.
 */
struct hot_items_query {
	__u32 flags;
	__u32 rec_size;
	__u32 nr;
	__u32 oflags;
	__u64 recs;
	__u64 pass;
	__u64 cursor[4];
	__u64 reserved[4];
};

/**
 * struct hot_heat_set - heat to load into a file, for %FS_IOC_SET_HEAT_INFO
 * @flags: in: zero.
 * @rec_size: in: the size of one record in @recs, in bytes, as in
 *	&struct hot_items_query.
 * @nr: in: records in @recs, 1 to %HOT_QUERY_MAX.
 * @reserved1: in: zero.
 * @recs: in: user address of the records: at most one of the whole file
 *	and any of its ranges, each for the file of the descriptor.
 * @reserved: in: zero.
 */
struct hot_heat_set {
	__u32 flags;
	__u32 rec_size;
	__u32 nr;
	__u32 reserved1;
	__u64 recs;
	__u64 reserved[2];
};

/*
 * Fill a struct hot_heat_info for the file of the descriptor.  The caller
 * must own the file or be allowed to write it (as for mincore()).  Errors:
 * EFAULT (bad pointer), EINVAL (reserved fields not zero or @live not 0 or
 * 1), EOPNOTSUPP (hot data tracking is off for this filesystem), ENOTTY (not
 * a regular file), EPERM (the caller neither owns the file nor may write
 * it), ENODATA (no data of the file was read from or written to disk since
 * tracking began, or its heat was forgotten).  An O_PATH descriptor gets
 * EBADF, as for every ioctl.
 */
#define FS_IOC_GET_HEAT_INFO	_IOWR('f', 0x60, struct hot_heat_info)

/*
 * List the hottest files or ranges of the filesystem of the descriptor, hottest
 * first, in the order of the heat maps of the last update pass, a page per
 * call.  Needs CAP_SYS_ADMIN.  Errors: EFAULT, EINVAL (unknown flags,
 * reserved fields not zero, @rec_size or @nr out of bounds, a cursor whose
 * flags no call made, or of the other list), EOPNOTSUPP (hot data tracking
 * is off), EPERM.
 */
#define FS_IOC_GET_HOT_ITEMS	_IOWR('f', 0x61, struct hot_items_query)

/*
 * Load saved heat into the file of the descriptor; counts add to what was
 * recorded since.  Needs CAP_SYS_ADMIN.  Errors: EFAULT, EINVAL (bad flags,
 * sizes, offsets or reserved fields, two records of one item), ENOTTY (not a
 * regular file), EOPNOTSUPP, EPERM, ESTALE (a record of another file: root,
 * inode number or generation differ), ENOSPC (at the memory cap: nothing was
 * loaded, unless the cap was met on the way), EAGAIN (update passes freed
 * the file's new item: try again).
 */
#define FS_IOC_SET_HEAT_INFO	_IOW('f', 0x62, struct hot_heat_set)

#endif /* _UAPI_LINUX_HOT_TRACKING_H */
