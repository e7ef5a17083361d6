// SPDX-License-Identifier: GPL-2.0
/*
 * Hot data tracking: the ioctls, FS_IOC_GET_HEAT_INFO for the heat of one
 * file, FS_IOC_GET_HOT_ITEMS for the hottest items of a filesystem and
 * FS_IOC_SET_HEAT_INFO to load saved heat into a file.
 */

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/hot_tracking.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/time_namespace.h>
#include <linux/uaccess.h>

/*
 * Who may read the heat of a file: one who opened it for writing, its owner
 * (or one with CAP_FOWNER over it), and one who may write it, as for
 * mincore() on a file mapping since 2019.  The counts and times of disk I/O
 * tell when other users read or wrote a file; any reader of a shared
 * library or of a group-readable file must not learn that.
 */
static bool hot_heat_may_read(struct file *file)
{
	return (file->f_mode & FMODE_WRITE) || file_owner_or_capable(file) ||
	       file_permission(file, MAY_WRITE) == 0;
}

/*
 * A time of the I/O hooks (hot_clock_ns()), in CLOCK_MONOTONIC of the
 * caller's time namespace.  0 (never) stays 0; a time before that clock
 * began (loaded heat from before boot, or a negative namespace offset) is
 * given as 1 ns, as early as can be.
 */
static u64 hot_time_for_user(u64 ns)
{
	struct timespec64 ts;
	s64 t;

	if (!ns)
		return 0;
	if (ns <= HOT_CLOCK_BIAS)
		return 1;
	ts = ns_to_timespec64(ns - HOT_CLOCK_BIAS);
	timens_add_monotonic(&ts);
	t = timespec64_to_ns(&ts);
	return t > 0 ? t : 1;
}

/**
 * hot_track_ioctl_get_heat_info() - FS_IOC_GET_HEAT_INFO
 * @file: the file asked about, open for reading or writing.
 * @uinfo: the user's &struct hot_heat_info.
 *
 * Times are given in CLOCK_MONOTONIC of the caller's time namespace.
 *
 * Context: process context.
 * Return: 0 with *@uinfo filled; -EFAULT if @uinfo cannot be read or
 * written; -EINVAL if a reserved field is not zero or live is neither 0
 * nor 1; -EOPNOTSUPP if the filesystem does not track hot data; -ENOTTY if
 * @file is not a regular file; -EPERM if the caller neither owns the file
 * nor may write it; -ENODATA if nothing of it was read from or written to
 * disk while tracking was on.
 */
long hot_track_ioctl_get_heat_info(struct file *file,
				   struct hot_heat_info __user *uinfo)
{
	struct inode *inode = file_inode(file);
	struct hot_heat_info info;
	struct hot_freq freq;
	int ret;

	if (copy_from_user(&info, uinfo, sizeof(info)))
		return -EFAULT;
	if (info.live > 1 || memchr_inv(info.reserved, 0, sizeof(info.reserved)))
		return -EINVAL;
	if (!hot_track_enabled(inode->i_sb))
		return -EOPNOTSUPP;
	if (!S_ISREG(inode->i_mode))
		return -ENOTTY;
	if (!hot_heat_may_read(file))
		return -EPERM;
	ret = hot_track_get_freq(inode, &freq, info.live, &info.temp,
				 &info.avg_delta_reads, &info.avg_delta_writes);
	if (ret)
		return ret;

	info.last_read_time = hot_time_for_user(freq.last_read_time);
	info.last_write_time = hot_time_for_user(freq.last_write_time);
	info.num_reads = freq.nr_reads;
	info.num_writes = freq.nr_writes;
	if (copy_to_user(uinfo, &info, sizeof(info)))
		return -EFAULT;
	return 0;
}

/* The largest record the ioctls take, in bytes, whatever the page size. */
#define HOT_REC_SIZE_MAX	4096

/* Whether @size is a record size the ioctls take, in bytes. */
static bool hot_rec_size_ok(u32 size)
{
	return size >= HOT_ITEM_REC_SIZE_VER0 && size <= HOT_REC_SIZE_MAX;
}

/**
 * hot_track_ioctl_get_hot_items() - FS_IOC_GET_HOT_ITEMS
 * @file: any open file of the filesystem asked about.
 * @uquery: the user's &struct hot_items_query.
 *
 * A listing from the hottest item (cursor zero) first counts in the items
 * what the CPUs hold in their slots (hot_track_sync()).  Fills up to nr
 * records of rec_size bytes, hottest first, a batch at a
 * time (see hot_track_query()), and stops early at the end of the list,
 * when the order changed since the cursor (%HOT_QUERY_REORDERED), or on a
 * fatal signal.  Records of another size than the kernel's are cut,
 * or padded with zeros.
 *
 * Context: process context.
 * Return: 0 with *@uquery updated: nr, oflags, pass and cursor; -EFAULT if
 * @uquery or the records cannot be read or written; -EINVAL for unknown
 * flags, reserved fields or oflags not zero, a record size or count out of
 * bounds, or a cursor no call made; -EOPNOTSUPP if the filesystem does not
 * track hot data; -EPERM without CAP_SYS_ADMIN; -ENOMEM; -EINTR (never
 * seen) on a fatal signal while a listing from the hottest item waits.
 */
long hot_track_ioctl_get_hot_items(struct file *file,
				   struct hot_items_query __user *uquery)
{
	struct super_block *sb = file_inode(file)->i_sb;
	unsigned int batch = 64, done = 0, i;
	struct hot_items_query q;
	struct hot_item_rec *recs;
	u8 __user *dst;
	int n = 0;

	if (copy_from_user(&q, uquery, sizeof(q)))
		return -EFAULT;
	if (q.flags & ~HOT_QUERY_RANGES || q.oflags ||
	    memchr_inv(q.reserved, 0, sizeof(q.reserved)) ||
	    !hot_rec_size_ok(q.rec_size) || !q.nr || q.nr > HOT_QUERY_MAX)
		return -EINVAL;
	if (!hot_track_enabled(sb))
		return -EOPNOTSUPP;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;

	/* A listing from the hottest item on counts every access so far. */
	if (!memchr_inv(q.cursor, 0, sizeof(q.cursor))) {
		n = hot_track_sync(sb);
		if (n)
			return n;
	}
	recs = kmalloc_array(batch, sizeof(*recs), GFP_KERNEL);
	if (!recs)
		return -ENOMEM;
	dst = u64_to_user_ptr(q.recs);
	while (done < q.nr && !(q.oflags & HOT_QUERY_END)) {
		n = hot_track_query(sb, q.flags & HOT_QUERY_RANGES, q.cursor,
				    recs, min(batch, q.nr - done), &q.oflags,
				    &q.pass);
		if (n < 0)
			break;
		for (i = 0; i < n; i++, dst += q.rec_size) {
			/* Cut to an older record, zeros in a newer one's tail. */
			if (copy_struct_to_user(dst, q.rec_size, &recs[i],
						sizeof(*recs), NULL)) {
				n = -EFAULT;
				break;
			}
		}
		if (n < 0)
			break;
		done += n;
		/* Let the caller decide whether to start again. */
		if (q.oflags & HOT_QUERY_REORDERED ||
		    fatal_signal_pending(current))
			break;
		cond_resched();
	}
	kfree(recs);
	if (n < 0)
		return n;
	q.nr = done;
	if (copy_to_user(uquery, &q, sizeof(q)))
		return -EFAULT;
	return 0;
}

/* Records of one file: the file's first, then its ranges by offset. */
static int hot_rec_cmp(const void *a, const void *b)
{
	const struct hot_item_rec *ra = a, *rb = b;

	if ((ra->flags ^ rb->flags) & HOT_REC_RANGE)
		return ra->flags & HOT_REC_RANGE ? 1 : -1;
	return ra->offset < rb->offset ? -1 : ra->offset > rb->offset;
}

/* Whether a count and the age of its last access agree. */
static bool hot_rec_age_ok(u32 nr, u64 age)
{
	return !nr == (age == HOT_AGE_NEVER);
}

/*
 * Check saved records for @inode, sorted by hot_rec_cmp().  Return: 0;
 * -EINVAL for a bad field or two records of one item; -ESTALE for a record
 * of another file.
 */
static int hot_recs_check(struct inode *inode, u64 root,
			  const struct hot_item_rec *recs, unsigned int nr)
{
	const struct hot_item_rec *rec;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		rec = &recs[i];
		if (rec->flags & ~HOT_REC_RANGE || rec->reserved ||
		    !hot_rec_age_ok(rec->num_reads, rec->read_age) ||
		    !hot_rec_age_ok(rec->num_writes, rec->write_age))
			return -EINVAL;
		if (rec->flags & HOT_REC_RANGE ?
		    rec->offset & (HOT_RANGE_SIZE - 1) ||
		    rec->offset >> HOT_RANGE_SHIFT > HOT_RANGE_INDEX_MAX :
		    rec->offset)
			return -EINVAL;
		if (i && !hot_rec_cmp(&recs[i - 1], rec))
			return -EINVAL;
	}
	for (i = 0; i < nr; i++)
		if (recs[i].root != root || recs[i].ino != inode->i_ino ||
		    recs[i].generation != inode->i_generation)
			return -ESTALE;
	return 0;
}

/**
 * hot_track_ioctl_set_heat_info() - FS_IOC_SET_HEAT_INFO
 * @file: the file to load heat into.
 * @uset: the user's &struct hot_heat_set.
 *
 * Checks every record before it loads any (see hot_track_load()).
 *
 * Context: process context.
 * Return: 0 on success; -EFAULT if @uset or the records cannot be read;
 * -EINVAL for bad flags, sizes, counts, offsets, reserved fields, a count
 * without an age or an age without a count, or two records of one item;
 * -EOPNOTSUPP if the filesystem does not track hot data for the file;
 * -ENOTTY if @file is not a regular file; -EPERM without CAP_SYS_ADMIN;
 * -ESTALE if a record is of another file (root, inode number or
 * generation); -ENOSPC at the memory cap, -ENOMEM.
 */
long hot_track_ioctl_set_heat_info(struct file *file,
				   struct hot_heat_set __user *uset)
{
	struct inode *inode = file_inode(file);
	struct hot_item_rec *recs;
	struct hot_heat_set set;
	u8 __user *src;
	unsigned int i;
	u64 root;
	long ret;

	if (copy_from_user(&set, uset, sizeof(set)))
		return -EFAULT;
	if (set.flags || set.reserved1 ||
	    memchr_inv(set.reserved, 0, sizeof(set.reserved)) ||
	    !hot_rec_size_ok(set.rec_size) || !set.nr ||
	    set.nr > HOT_QUERY_MAX)
		return -EINVAL;
	if (!hot_track_enabled(inode->i_sb))
		return -EOPNOTSUPP;
	if (!S_ISREG(inode->i_mode))
		return -ENOTTY;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (!hot_track_inode_root(inode, &root))
		return -EOPNOTSUPP;

	recs = kvmalloc_array(set.nr, sizeof(*recs), GFP_KERNEL);
	if (!recs)
		return -ENOMEM;
	src = u64_to_user_ptr(set.recs);
	for (i = 0; i < set.nr; i++, src += set.rec_size) {
		/*
		 * An older record is padded with zeros; a newer one's fields
		 * this kernel does not know must be zero (E2BIG: EINVAL).
		 */
		ret = copy_struct_from_user(&recs[i], sizeof(*recs), src,
					    set.rec_size);
		if (ret) {
			ret = ret == -E2BIG ? -EINVAL : ret;
			goto out;
		}
	}
	sort(recs, set.nr, sizeof(*recs), hot_rec_cmp, NULL);
	ret = hot_recs_check(inode, root, recs, set.nr);
	if (!ret)
		ret = hot_track_load(inode, recs, set.nr);
out:
	kvfree(recs);
	return ret;
}
