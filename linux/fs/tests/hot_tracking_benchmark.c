// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmarks of hot data tracking, as KUnit cases that print their numbers
 * with kunit_info() and assert only that the work was done.  They run when
 * CONFIG_HOT_TRACKING_BENCHMARK is set and are skipped otherwise.  Build
 * them without debugging options (lockdep, KASAN) for numbers that mean
 * anything:
 *
 * - the cost of the I/O hook, in ns per recorded access: on one CPU, with
 *   every online CPU on one file, and with every CPU on a file of its own;
 * - the size of the slab objects of the items, in bytes;
 * - the time of one update pass over 1k to 1M range items, in ns per item;
 * - the cost of deleting a file that has items, in ns per file;
 * - the inode index as files come and go, in ns per file, and its nodes, in
 *   bytes per file;
 * - the cost of an irq-off section, a spinlock and a per-CPU increment, in
 *   ns, which the costs of locks depend on;
 * - the longest hold of &hot_info.map_lock and an item lock in an update
 *   pass, the freeing of a file's items, and eviction, over 1M ranges in
 *   one file and in 1000 files, in us;
 * - a read with cold caches, and the parts of it: what the hook reads up to
 *   each of its steps, in ns.
 *
 * Included at the end of fs/hot_tracking.c to reach its static functions.
 */

#include <kunit/test.h>
#include <linux/bit_spinlock.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/vmalloc.h>

/* Accesses per measurement and per CPU. */
#define HOT_BENCH_ACCESSES	1000000UL
/* Ranges of a file that the accesses cycle over. */
#define HOT_BENCH_RANGES	64
/* 4 KiB folios in a range. */
#define HOT_BENCH_FOLIOS	(SZ_1M / SZ_4K)
/* Range items per file in the update pass benchmark. */
#define HOT_BENCH_FILE_RANGES	1000
/* Memory read between two accesses to make them cold, in bytes. */
#define HOT_BENCH_SWEEP		SZ_32M
/* Accesses with cold caches per measurement. */
#define HOT_BENCH_COLD		1000
/* An inode number as xfs gives: six levels of the inode index's xarray. */
#define HOT_BENCH_DEEP_INO	(BIT(30) + 100)

static struct file_system_type hot_bench_fs_type = {
	.name = "hot_bench",
};

struct hot_bench_fs {
	struct super_block *sb;
	struct inode *inodes;
	unsigned int nr_inodes;
	struct hot_info *hi;
	unsigned long saved_cap;
};

static void hot_bench_skip_unless_enabled(struct kunit *test)
{
	if (!IS_ENABLED(CONFIG_HOT_TRACKING_BENCHMARK))
		kunit_skip(test, "CONFIG_HOT_TRACKING_BENCHMARK is not set");
}

/* A superblock with @nr regular files and tracking on, without worker. */
static struct hot_bench_fs *hot_bench_fs_create(struct kunit *test,
						unsigned int nr)
{
	struct hot_bench_fs *fs;
	unsigned int i;

	fs = kunit_kzalloc(test, sizeof(*fs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->sb = kunit_kzalloc(test, sizeof(*fs->sb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fs->sb);
	fs->inodes = vzalloc(array_size(nr, sizeof(*fs->inodes)));
	KUNIT_ASSERT_NOT_NULL(test, fs->inodes);
	fs->nr_inodes = nr;
	strscpy(fs->sb->s_id, "hot_bench");
	fs->sb->s_type = &hot_bench_fs_type;
	for (i = 0; i < nr; i++) {
		fs->inodes[i].i_sb = fs->sb;
		fs->inodes[i].i_mode = S_IFREG | 0644;
		fs->inodes[i].i_ino = 100 + i;
		fs->inodes[i].__i_nlink = 1;
	}
	/* The benchmarks measure up to 1M items: no cap. */
	fs->saved_cap = sysctl_hot_mem_max;
	sysctl_hot_mem_max = LONG_MAX;
	KUNIT_ASSERT_EQ(test, hot_track_enable(fs->sb, NULL), 0);
	fs->hi = rcu_dereference_protected(fs->sb->s_hot_info, true);
	/* Passes run only when a benchmark asks for them. */
	cancel_delayed_work_sync(&fs->hi->update_work);
	return fs;
}

static void hot_bench_fs_destroy(struct hot_bench_fs *fs)
{
	hot_track_disable(fs->sb);
	sysctl_hot_mem_max = fs->saved_cap;
	vfree(fs->inodes);
}

/* Reads, or writes if @write, recorded for @inode. */
static u32 hot_bench_nr(struct hot_info *hi, struct inode *inode, bool write)
{
	struct hot_inode_item *he;
	u32 nr = 0;

	hot_track_drain(hi);
	rcu_read_lock();
	he = hot_inode_lookup(hi, inode);
	if (he)
		nr = write ? READ_ONCE(he->freq.nr_writes) :
			     READ_ONCE(he->freq.nr_reads);
	rcu_read_unlock();
	return nr;
}

/* @n reads of 4 KiB cycling over the first ranges of @inode; ns taken. */
static u64 hot_bench_reads(struct inode *inode, unsigned long n)
{
	unsigned long i;
	u64 t = ktime_get_ns();

	for (i = 0; i < n; i++)
		hot_track_io(inode, (loff_t)(i % HOT_BENCH_RANGES) <<
				    HOT_RANGE_SHIFT, SZ_4K, READ);
	return ktime_get_ns() - t;
}

/*
 * A read of range @i % %HOT_BENCH_RANGES of @inode, in ns, after reading a
 * byte of each cache line of @sweep: what the hook's last call left in the
 * data caches up to L2 and in the data TLB is gone (not from a last-level
 * cache larger than %HOT_BENCH_SWEEP, nor its code from the instruction
 * caches).
 */
static u64 hot_bench_cold_read(struct inode *inode, const u8 *sweep,
			       unsigned long i)
{
	unsigned long j;
	u64 t;

	for (j = 0; j < HOT_BENCH_SWEEP; j += L1_CACHE_BYTES)
		READ_ONCE(sweep[j]);
	t = ktime_get_ns();
	hot_track_io(inode, (loff_t)(i % HOT_BENCH_RANGES) << HOT_RANGE_SHIFT,
		     SZ_4K, READ);
	return ktime_get_ns() - t;
}

/* How far hot_bench_cold_step() goes into the hook's data. */
enum hot_bench_depth {
	HOT_BENCH_HI,		/* the superblock's hot_info and root 0 */
	HOT_BENCH_INDEX,	/* the inode index's walk to the inode item */
	HOT_BENCH_INODE,	/* the inode item's counts */
	HOT_BENCH_RANGES_WALK,	/* the walk of its ranges to the range item */
	HOT_BENCH_RANGE,	/* the range item's counts */
	HOT_BENCH_SLOT,		/* this CPU's slot for the range */
	HOT_BENCH_CLOCK,	/* the clock the hook reads */
	HOT_BENCH_DEPTHS
};

static const char * const hot_bench_depth_names[] = {
	[HOT_BENCH_HI] = "hot_info and root",
	[HOT_BENCH_INDEX] = "inode index walk",
	[HOT_BENCH_INODE] = "inode item",
	[HOT_BENCH_RANGES_WALK] = "ranges walk",
	[HOT_BENCH_RANGE] = "range item",
	[HOT_BENCH_SLOT] = "per-CPU slot",
	[HOT_BENCH_CLOCK] = "clock",
};

/*
 * What the hook reads, up to @depth, of a read of range @i %
 * %HOT_BENCH_RANGES of @inode, with cold caches as hot_bench_cold_read()
 * makes them; in ns.  The differences between depths tell which of the
 * hook's cache lines and pages cost most; what the whole hook takes more
 * than all of them is its code, locks and stores.
 */
static u64 hot_bench_cold_step(struct inode *inode, const u8 *sweep,
			       unsigned long i, enum hot_bench_depth depth)
{
	unsigned long index = i % HOT_BENCH_RANGES;
	struct hot_range_item *hr = NULL;
	struct hot_inode_item *he = NULL;
	struct hot_inode_key key;
	struct hot_pcp_slot *slot;
	struct hot_root *root;
	struct hot_info *hi;
	unsigned long j;
	u64 t, sum = 0;

	for (j = 0; j < HOT_BENCH_SWEEP; j += L1_CACHE_BYTES)
		READ_ONCE(sweep[j]);
	t = ktime_get_ns();
	rcu_read_lock();
	hi = rcu_dereference(inode->i_sb->s_hot_info);
	hot_inode_key(hi, inode, &key);
	root = hot_root_lookup(hi, key.root);
	if (depth >= HOT_BENCH_INDEX)
		he = xa_load(&root->inodes, key.ino);
	if (depth >= HOT_BENCH_INODE)
		/* As hot_track_record() reads it, without the item lock. */
		sum += READ_ONCE(he->freq.nr_reads) + data_race(he->muted);
	if (depth >= HOT_BENCH_RANGES_WALK)
		hr = xa_load(&he->ranges, index);
	if (depth >= HOT_BENCH_RANGE)
		sum += READ_ONCE(hr->freq.nr_reads);
	if (depth >= HOT_BENCH_SLOT) {
		slot = &raw_cpu_ptr(hi->pcp)->slot[hot_pcp_hash(&key, index)];
		sum += hot_pcp_item(slot);
	}
	if (depth >= HOT_BENCH_CLOCK)
		sum += hot_clock_coarse_ns();
	rcu_read_unlock();
	t = ktime_get_ns() - t;
	/* Keep the loads: a sum no access gives. */
	return sum == ULLONG_MAX ? 0 : t;
}

/* Print @what: @t ns over @n @per, per one of them, to a tenth of a ns. */
static void hot_bench_print_per(struct kunit *test, const char *what, u64 t,
				u64 n, const char *per)
{
	u64 tenths = div64_u64(t * 10, n);

	kunit_info(test, "%s: %llu.%llu ns per %s\n", what,
		   div_u64(tenths, 10), tenths % 10, per);
}

/* Print @what: @t ns over @n accesses, per access. */
static void hot_bench_print(struct kunit *test, const char *what, u64 t,
			    u64 n)
{
	hot_bench_print_per(test, what, t, n, "access");
}

/*
 * Print the time of hot_bench_cold_step() on @inode at each depth up to
 * @last, @label added to what is printed.
 */
static void hot_bench_cold_steps(struct kunit *test, struct inode *inode,
				 const u8 *sweep, const char *label,
				 enum hot_bench_depth last)
{
	enum hot_bench_depth depth;
	unsigned long i;
	char what[96];
	u64 t;

	for (depth = 0; depth <= last; depth++) {
		t = 0;
		for (i = 0; i < HOT_BENCH_COLD; i++)
			t += hot_bench_cold_step(inode, sweep, i, depth);
		snprintf(what, sizeof(what), "cold caches%s, reads up to the %s",
			 label, hot_bench_depth_names[depth]);
		hot_bench_print(test, what, t, HOT_BENCH_COLD);
	}
}

static void hot_bench_item_size(struct kunit *test)
{
	hot_bench_skip_unless_enabled(test);
	kunit_info(test, "inode item: %u bytes (slab object %u)\n",
		   (unsigned int)sizeof(struct hot_inode_item),
		   kmem_cache_size(hot_inode_cachep));
	kunit_info(test, "range item: %u bytes (slab object %u)\n",
		   (unsigned int)sizeof(struct hot_range_item),
		   kmem_cache_size(hot_range_cachep));
}

static void hot_bench_hook_one_cpu(struct kunit *test)
{
	struct hot_bench_fs *fs, *off;
	u64 t, t_off;
	unsigned long i;
	u8 *sweep;
	loff_t pos;

	hot_bench_skip_unless_enabled(test);
	fs = hot_bench_fs_create(test, 2);

	/* Every access adds a range item. */
	t = ktime_get_ns();
	for (i = 0; i < HOT_BENCH_ACCESSES / 16; i++)
		hot_track_io(&fs->inodes[1], (loff_t)i << HOT_RANGE_SHIFT,
			     SZ_4K, READ);
	t = ktime_get_ns() - t;
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges),
			HOT_BENCH_ACCESSES / 16);
	hot_bench_print(test, "new range", t, HOT_BENCH_ACCESSES / 16);

	/* Accesses to items that exist: the steady state. */
	hot_bench_reads(&fs->inodes[0], HOT_BENCH_RANGES);
	t = hot_bench_reads(&fs->inodes[0], HOT_BENCH_ACCESSES);
	KUNIT_EXPECT_EQ(test, hot_bench_nr(fs->hi, &fs->inodes[0], false),
			HOT_BENCH_ACCESSES + HOT_BENCH_RANGES);
	hot_bench_print(test, "existing range, 1 CPU", t, HOT_BENCH_ACCESSES);

	/*
	 * Writeback of 4 KiB folios, a pass per MiB: one write counted per
	 * range and pass, the other 255 folios only checked.
	 */
	t = ktime_get_ns();
	for (i = 0; i < HOT_BENCH_ACCESSES; i++) {
		pos = (loff_t)(i % (HOT_BENCH_RANGES * HOT_BENCH_FOLIOS)) * SZ_4K;
		if (i % HOT_BENCH_FOLIOS == 0)
			hot_track_writeback_begin(&fs->inodes[0]);
		hot_track_record(&fs->inodes[0], pos, SZ_4K, HOT_WRITEBACK);
	}
	t = ktime_get_ns() - t;
	KUNIT_EXPECT_EQ(test, hot_bench_nr(fs->hi, &fs->inodes[0], true),
			DIV_ROUND_UP(HOT_BENCH_ACCESSES, HOT_BENCH_FOLIOS));
	hot_bench_print(test, "writeback folio, 1 CPU", t, HOT_BENCH_ACCESSES);
	hot_bench_fs_destroy(fs);

	/* A superblock without tracking while another one tracks. */
	fs = hot_bench_fs_create(test, 1);
	off = hot_bench_fs_create(test, 1);
	hot_track_disable(off->sb);
	t = hot_bench_reads(&off->inodes[0], HOT_BENCH_ACCESSES);
	hot_bench_print(test, "tracking off on the superblock", t,
			HOT_BENCH_ACCESSES);

	/*
	 * The same with cold caches, as between two reads an I/O path evicts
	 * some of what the hook uses: what it costs is what it touches.
	 */
	sweep = vzalloc(HOT_BENCH_SWEEP);
	if (!sweep)
		goto out;
	hot_bench_reads(&fs->inodes[0], HOT_BENCH_RANGES);
	t = 0;
	t_off = 0;
	for (i = 0; i < HOT_BENCH_COLD; i++) {
		t += hot_bench_cold_read(&fs->inodes[0], sweep, i);
		t_off += hot_bench_cold_read(&off->inodes[0], sweep, i);
	}
	hot_bench_print(test, "existing range, cold caches", t, HOT_BENCH_COLD);
	hot_bench_print(test, "tracking off on the superblock, cold caches",
			t_off, HOT_BENCH_COLD);
	/* Where the time goes: what the hook reads, one step more each time. */
	hot_bench_cold_steps(test, &fs->inodes[0], sweep, "", HOT_BENCH_CLOCK);
	/*
	 * A number as xfs gives, with the AG in its high bits: the walk has
	 * six levels instead of two, for this file and the first.
	 */
	fs->inodes[0].i_ino = HOT_BENCH_DEEP_INO;
	hot_bench_reads(&fs->inodes[0], HOT_BENCH_RANGES);
	t = 0;
	for (i = 0; i < HOT_BENCH_COLD; i++)
		t += hot_bench_cold_read(&fs->inodes[0], sweep, i);
	hot_bench_print(test, "existing range, inode 2^30 + 100, cold caches",
			t, HOT_BENCH_COLD);
	hot_bench_cold_steps(test, &fs->inodes[0], sweep, ", inode 2^30 + 100",
			     HOT_BENCH_INODE);
	vfree(sweep);
out:
	hot_bench_fs_destroy(off);
	hot_bench_fs_destroy(fs);
}

struct hot_bench_thread {
	struct inode *inode;
	struct completion *go;
	struct completion done;
	u64 ns;
};

static int hot_bench_thread_fn(void *arg)
{
	struct hot_bench_thread *bt = arg;

	wait_for_completion(bt->go);
	bt->ns = hot_bench_reads(bt->inode, HOT_BENCH_ACCESSES);
	complete(&bt->done);
	return 0;
}

/* One thread per online CPU, on one file or on a file each. */
static void hot_bench_hook_cpus(struct kunit *test, bool same_file)
{
	unsigned int nr = num_online_cpus(), i = 0, started, cpu;
	struct hot_bench_thread *bt;
	struct task_struct *task;
	struct hot_bench_fs *fs;
	u32 per_thread = HOT_BENCH_ACCESSES + HOT_BENCH_RANGES, per_file;
	DECLARE_COMPLETION_ONSTACK(go);
	u64 sum = 0, max = 0;
	char what[48];

	hot_bench_skip_unless_enabled(test);
	fs = hot_bench_fs_create(test, nr);
	bt = kunit_kcalloc(test, nr, sizeof(*bt), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, bt);
	for_each_online_cpu(cpu) {
		if (i == nr)
			break;
		bt[i].inode = &fs->inodes[same_file ? 0 : i];
		bt[i].go = &go;
		init_completion(&bt[i].done);
		hot_bench_reads(bt[i].inode, HOT_BENCH_RANGES);
		task = kthread_run_on_cpu(hot_bench_thread_fn, &bt[i], cpu,
					  "hot_bench/%u");
		if (IS_ERR(task))
			break;
		i++;
	}
	/* The threads started wait on @go, on this stack: let them finish. */
	started = i;
	complete_all(&go);
	for (i = 0; i < started; i++) {
		wait_for_completion(&bt[i].done);
		sum += bt[i].ns;
		max = max(max, bt[i].ns);
	}
	KUNIT_ASSERT_EQ(test, started, nr);
	/* Every access counted, none lost to a race. */
	per_file = same_file ? nr * per_thread : per_thread;
	KUNIT_EXPECT_EQ(test, hot_bench_nr(fs->hi, &fs->inodes[0], false),
			per_file);
	for (i = 1; i < nr; i++)
		KUNIT_EXPECT_EQ(test,
				hot_bench_nr(fs->hi, &fs->inodes[i], false),
				same_file ? 0 : per_file);
	snprintf(what, sizeof(what), "%u CPUs, %s, mean of CPUs", nr,
		 same_file ? "one file" : "a file each");
	hot_bench_print(test, what, sum, nr * HOT_BENCH_ACCESSES);
	snprintf(what, sizeof(what), "%u CPUs, %s, wall time", nr,
		 same_file ? "one file" : "a file each");
	hot_bench_print(test, what, max, nr * HOT_BENCH_ACCESSES);
	hot_bench_fs_destroy(fs);
}

static void hot_bench_hook_cpus_same_file(struct kunit *test)
{
	hot_bench_hook_cpus(test, true);
}

static void hot_bench_hook_cpus_own_file(struct kunit *test)
{
	hot_bench_hook_cpus(test, false);
}

/*
 * The life of a small file in the tracking: its first read, which adds an
 * inode item and a range item, then its deletion: the eviction hook of
 * each, then the work that frees what it left, then the RCU callbacks, in
 * ns per file; a file of one range, as most small files are.  What is
 * freed after a grace period is counted with the wait for it.
 */
static void hot_bench_delete(struct kunit *test)
{
	const unsigned int nr = 10000;
	struct hot_bench_fs *fs;
	u64 t, t_free, t_rcu;
	unsigned int i;

	hot_bench_skip_unless_enabled(test);
	fs = hot_bench_fs_create(test, nr);
	t = 0;
	for (i = 0; i < nr; i++) {
		u64 t0;

		t0 = ktime_get_ns();
		hot_track_io(&fs->inodes[i], 0, SZ_4K, READ);
		t += ktime_get_ns() - t0;
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), nr);
	hot_bench_print(test, "new file of one range, first read", t, nr);
	rcu_barrier();

	t = ktime_get_ns();
	for (i = 0; i < nr; i++)
		__hot_track_evict_inode(&fs->inodes[i]);
	t = ktime_get_ns() - t;
	t_free = ktime_get_ns();
	flush_work(&fs->hi->free_work);
	t_free = ktime_get_ns() - t_free;
	t_rcu = ktime_get_ns();
	rcu_barrier();
	t_rcu = ktime_get_ns() - t_rcu;
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	kunit_info(test, "deleted file of one range: hook %llu, free work %llu, after a grace period %llu, in all %llu ns per file\n",
		   div_u64(t, nr), div_u64(t_free, nr), div_u64(t_rcu, nr),
		   div_u64(t + t_free + t_rcu, nr));
	hot_bench_fs_destroy(fs);
}

/*
 * The inode index as files come and go, twice: @nr files' items made by
 * their first read, then deleted, as a build tree is made and removed, with
 * inode numbers @stride apart (1: dense, as ext4 and btrfs give them to
 * files made one after another; 64: one file per xfs inode chunk, a leaf
 * node each; 2^20: a path of nodes each), in ns per file that joined (the
 * whole first read) or left (the eviction hook), and the bytes of the
 * index (its root and nodes) per file while they are all in.
 */
static void hot_bench_index_nr(struct kunit *test, unsigned int nr,
			       u64 stride)
{
	struct hot_bench_fs *fs;
	unsigned int i, round;
	u64 t_new, t_del;
	long bytes;

	fs = hot_bench_fs_create(test, nr);
	for (i = 0; i < nr; i++)
		fs->inodes[i].i_ino = 100 + i * stride;
	for (round = 1; round <= 2; round++) {
		t_new = ktime_get_ns();
		for (i = 0; i < nr; i++)
			hot_track_io(&fs->inodes[i], 0, SZ_4K, READ);
		t_new = ktime_get_ns() - t_new;
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), nr);
		bytes = atomic_long_read(&fs->hi->index_mem);
		t_del = ktime_get_ns();
		for (i = 0; i < nr; i++)
			__hot_track_evict_inode(&fs->inodes[i]);
		t_del = ktime_get_ns() - t_del;
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->index_mem), 0);
		kunit_info(test, "inode index, %u files %llu apart, round %u: %llu ns per new file, %llu ns per deleted file, %lu bytes of index per file\n",
			   nr, stride, round, div_u64(t_new, nr),
			   div_u64(t_del, nr), bytes / nr);
		/* The items freed, before the next round makes them again. */
		flush_work(&fs->hi->free_work);
		kvfree_rcu_barrier();
	}
	hot_bench_fs_destroy(fs);
}

static void hot_bench_index(struct kunit *test)
{
	hot_bench_skip_unless_enabled(test);
	hot_bench_index_nr(test, 10000, 1);
	hot_bench_index_nr(test, 40000, 1);
	hot_bench_index_nr(test, 10000, 64);
	/* On 32-bit, inode numbers past 2^32 are not tracked. */
	if (BITS_PER_LONG == 64)
		hot_bench_index_nr(test, 10000, SZ_1M);
}

static void hot_bench_update_pass(struct kunit *test)
{
	static const unsigned long sizes[] = { 1000, 10000, 100000, 1000000 };
	const u64 kick = 3600ULL * NSEC_PER_SEC;
	struct hot_bench_fs *fs;
	unsigned long i, n;
	unsigned int k;
	u64 t, first;

	hot_bench_skip_unless_enabled(test);
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		n = sizes[k];
		fs = hot_bench_fs_create(test, n / HOT_BENCH_FILE_RANGES);
		for (i = 0; i < n; i++) {
			hot_track_io(&fs->inodes[i / HOT_BENCH_FILE_RANGES],
				     (loff_t)(i % HOT_BENCH_FILE_RANGES) <<
				     HOT_RANGE_SHIFT, SZ_4K, READ);
			if (i % 4096 == 0)
				cond_resched();
		}
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), n);

		/* The first pass puts every item in a heat map. */
		t = ktime_get_ns();
		hot_update_all(fs->hi, hot_clock_ns(), kick);
		first = ktime_get_ns() - t;
		t = ktime_get_ns();
		hot_update_all(fs->hi, hot_clock_ns(), kick);
		t = ktime_get_ns() - t;
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), n);
		kunit_info(test, "%lu range items in %lu files: pass %llu us (first %llu us), %llu ns per item, memory %ld bytes\n",
			   n, n / HOT_BENCH_FILE_RANGES, div_u64(t, 1000),
			   div_u64(first, 1000), div64_u64(t, n),
			   atomic_long_read(&fs->hi->mem));
		hot_bench_fs_destroy(fs);
	}
}

struct hot_bench_hold {
	u64 max;	/* the longest hold, in ns */
	u64 sum;	/* all holds, in ns */
};

static void hot_bench_hold_add(struct hot_bench_hold *h, u64 t)
{
	h->max = max(h->max, t);
	h->sum += t;
}

/* 1M range items in @nr files: with requests of 1 GiB, 1024 ranges each. */
static struct hot_bench_fs *hot_bench_fill(struct kunit *test,
					   unsigned int nr)
{
	unsigned long per_file = SZ_1M / nr, i;
	struct hot_bench_fs *fs = hot_bench_fs_create(test, nr);
	unsigned int f;

	for (f = 0; f < nr; f++) {
		for (i = 0; i < per_file; i += 1024) {
			hot_track_io(&fs->inodes[f], (loff_t)i << HOT_RANGE_SHIFT,
				     min(1024UL, per_file - i) << HOT_RANGE_SHIFT,
				     READ);
			cond_resched();
		}
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges),
			per_file * nr);
	return fs;
}

/* An update pass over the @nr files of @fs, each hold of the locks timed. */
static void hot_bench_pass(struct hot_bench_fs *fs, unsigned int nr, u64 now,
			   u64 kick, struct hot_bench_hold *hold)
{
	struct hot_update_ctl ctl = {
		.pass.time = now, .pass.delay = NSEC_PER_SEC,
		.pass.len = NSEC_PER_SEC,
		/* A pass a little longer than the one before, as they are. */
		.scale = HOT_SCALE_ONE + (HOT_SCALE_ONE >> 10),
		.nr = ++fs->hi->nr_folds % 255 + 1, .kick = kick,
	};
	struct hot_inode_item *he;
	unsigned long next;
	unsigned int f;
	bool done;
	u64 t;

	for (f = 0; f < nr; f++) {
		rcu_read_lock();
		he = hot_inode_lookup(fs->hi, &fs->inodes[f]);
		next = 0;
		do {
			t = ktime_get_ns();
			spin_lock(&fs->hi->map_lock);
			done = hot_update_inode(fs->hi, he, &ctl, &next);
			spin_unlock(&fs->hi->map_lock);
			hot_bench_hold_add(hold, ktime_get_ns() - t);
		} while (!done);
		rcu_read_unlock();
		cond_resched();
	}
}

/*
 * How long the update pass, the freeing of items and eviction hold the
 * locks the I/O hooks of a file wait for: each hold is timed as the pass,
 * hot_inode_free() and the worker take it.
 */
static void hot_bench_lock_hold(struct kunit *test)
{
	static const unsigned int files[] = { 1, 1000 };
	const u64 kick = 3600ULL * NSEC_PER_SEC;
	struct hot_bench_hold pass, aging, unlink, evict;
	struct hot_inode_item *he;
	struct hot_bench_fs *fs;
	unsigned int k, f;
	bool more;
	u64 t;

	hot_bench_skip_unless_enabled(test);
	for (k = 0; k < ARRAY_SIZE(files); k++) {
		memset(&pass, 0, sizeof(pass));
		memset(&unlink, 0, sizeof(unlink));
		memset(&aging, 0, sizeof(aging));
		memset(&evict, 0, sizeof(evict));

		fs = hot_bench_fill(test, files[k]);
		hot_bench_pass(fs, files[k], hot_clock_ns(), kick, &pass);
		/* Eviction of the coldest half, batch by batch. */
		while (atomic_long_read(&fs->hi->nr_ranges) > SZ_512K) {
			t = ktime_get_ns();
			hot_evict_coldest(fs->hi, HOT_EVICT_BATCH, &more);
			hot_bench_hold_add(&evict, ktime_get_ns() - t);
			cond_resched();
		}
		/* Unlink: the rest of every file's items. */
		for (f = 0; f < files[k]; f++) {
			rcu_read_lock();
			he = hot_inode_lookup(fs->hi, &fs->inodes[f]);
			if (he && hot_index_remove(fs->hi, he)) {
				do {
					t = ktime_get_ns();
					spin_lock(&fs->hi->map_lock);
					xa_lock(&he->ranges);
					he->dead = true;
					more = hot_inode_free_ranges(fs->hi, he);
					if (more)
						xa_unlock(&he->ranges);
					else
						hot_inode_free_locked(fs->hi, he);
					spin_unlock(&fs->hi->map_lock);
					hot_bench_hold_add(&unlink,
							   ktime_get_ns() - t);
				} while (more);
			}
			rcu_read_unlock();
			cond_resched();
		}
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
		hot_bench_fs_destroy(fs);

		/* Again, and an aging pass that drops every range (kick 0). */
		fs = hot_bench_fill(test, files[k]);
		hot_update_all(fs->hi, hot_clock_ns(), kick);
		hot_bench_pass(fs, files[k], hot_clock_ns() + 1, 0, &aging);
		KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
		kunit_info(test, "1M ranges in %u files: longest lock hold: pass %llu us (pass in all %llu us), aging pass %llu us (in all %llu us), eviction %llu us, unlink %llu us (in all %llu us)\n",
			   files[k], div_u64(pass.max, 1000),
			   div_u64(pass.sum, 1000), div_u64(aging.max, 1000),
			   div_u64(aging.sum, 1000), div_u64(evict.max, 1000),
			   div_u64(unlink.max, 1000), div_u64(unlink.sum, 1000));
		hot_bench_fs_destroy(fs);
	}
}

static DEFINE_PER_CPU(unsigned long, hot_bench_pcp);
static DEFINE_SPINLOCK(hot_bench_lock);

/* Print @what: @t ns over @n operations, per operation. */
static void hot_bench_print_op(struct kunit *test, const char *what, u64 t,
			       u64 n)
{
	hot_bench_print_per(test, what, t, n, "operation");
}

/*
 * What the primitives under the hooks' locks cost on this machine, in ns
 * per pair or operation: an irq-off section, a spinlock (the item lock, the
 * index lock), a bit spinlock inside an irq-off section (a hash table's
 * bucket lock, as rhashtable takes it), a per-CPU counter increment.
 * Where an irq-off section costs much more than a spinlock (SMP UML, where
 * masking the IPI signal is a host syscall), so does every lock taken with
 * interrupts off.
 */
static void hot_bench_primitives(struct kunit *test)
{
	const unsigned long n = HOT_BENCH_ACCESSES;
	unsigned long i, flags, sum, bits = 0;
	int cpu;
	u64 t;

	hot_bench_skip_unless_enabled(test);
	t = ktime_get_ns();
	for (i = 0; i < n; i++) {
		local_irq_save(flags);
		local_irq_restore(flags);
	}
	hot_bench_print_op(test, "local_irq_save() and restore",
			   ktime_get_ns() - t, n);

	t = ktime_get_ns();
	for (i = 0; i < n; i++) {
		spin_lock(&hot_bench_lock);
		spin_unlock(&hot_bench_lock);
	}
	hot_bench_print_op(test, "spin_lock() and unlock", ktime_get_ns() - t,
			   n);

	t = ktime_get_ns();
	for (i = 0; i < n; i++) {
		local_irq_save(flags);
		bit_spin_lock(0, &bits);
		bit_spin_unlock(0, &bits);
		local_irq_restore(flags);
	}
	hot_bench_print_op(test, "bit_spin_lock() and unlock, irqs saved",
			   ktime_get_ns() - t, n);

	t = ktime_get_ns();
	for (i = 0; i < n; i++)
		this_cpu_inc(hot_bench_pcp);
	hot_bench_print_op(test, "this_cpu_inc()", ktime_get_ns() - t, n);
	sum = 0;
	for_each_possible_cpu(cpu)
		sum += per_cpu(hot_bench_pcp, cpu);
	KUNIT_EXPECT_GE(test, sum, n);
}

static struct kunit_case hot_bench_cases[] = {
	KUNIT_CASE(hot_bench_item_size),
	KUNIT_CASE_SLOW(hot_bench_hook_one_cpu),
	KUNIT_CASE(hot_bench_hook_cpus_same_file),
	KUNIT_CASE(hot_bench_hook_cpus_own_file),
	KUNIT_CASE(hot_bench_delete),
	KUNIT_CASE(hot_bench_index),
	KUNIT_CASE(hot_bench_primitives),
	KUNIT_CASE_SLOW(hot_bench_update_pass),
	KUNIT_CASE_SLOW(hot_bench_lock_hold),
	{}
};

static struct kunit_suite hot_bench_suite = {
	.name = "hot_track_benchmark",
	.test_cases = hot_bench_cases,
};

kunit_test_suite(hot_bench_suite);
