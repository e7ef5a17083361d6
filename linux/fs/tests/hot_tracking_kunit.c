// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the hot data tracking core, included at the end of
 * fs/hot_tracking.c to reach its static functions.
 */

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>

static void hot_range_span_test(struct kunit *test)
{
	u64 first = 7, last = 7;

	/* Nothing to record: the outputs are left alone. */
	KUNIT_EXPECT_FALSE(test, hot_range_span(0, 0, &first, &last));
	KUNIT_EXPECT_FALSE(test, hot_range_span(-1, 4096, &first, &last));
	KUNIT_EXPECT_EQ(test, first, 7);

	/* Exactly one aligned range. */
	KUNIT_EXPECT_TRUE(test, hot_range_span(SZ_1M, SZ_1M, &first, &last));
	KUNIT_EXPECT_EQ(test, first, 1);
	KUNIT_EXPECT_EQ(test, last, 1);

	/* One byte. */
	KUNIT_EXPECT_TRUE(test, hot_range_span(SZ_1M - 1, 1, &first, &last));
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, last, 0);

	/* Two bytes across a boundary touch two ranges. */
	KUNIT_EXPECT_TRUE(test, hot_range_span(SZ_1M - 1, 2, &first, &last));
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, last, 1);

	/* Unaligned, several ranges. */
	KUNIT_EXPECT_TRUE(test, hot_range_span(3 * SZ_1M + 5, 2 * SZ_1M,
					       &first, &last));
	KUNIT_EXPECT_EQ(test, first, 3);
	KUNIT_EXPECT_EQ(test, last, 5);

	/* Near the largest offset: cut there, no overflow. */
	KUNIT_EXPECT_TRUE(test, hot_range_span(LLONG_MAX - 10, 100,
					       &first, &last));
	KUNIT_EXPECT_EQ(test, first, (u64)(LLONG_MAX >> HOT_RANGE_SHIFT));
	KUNIT_EXPECT_EQ(test, last, (u64)(LLONG_MAX >> HOT_RANGE_SHIFT));
	KUNIT_EXPECT_TRUE(test, hot_range_span(0, U64_MAX, &first, &last));
	KUNIT_EXPECT_EQ(test, first, 0);
	KUNIT_EXPECT_EQ(test, last, (u64)(LLONG_MAX >> HOT_RANGE_SHIFT));
	KUNIT_EXPECT_TRUE(test, hot_range_span(LLONG_MAX, 1, &first, &last));
	KUNIT_EXPECT_EQ(test, first, last);
}

/* Counting sums and saturates; the latest time stands. */
static void hot_freq_count_test(struct kunit *test)
{
	struct hot_freq freq = {};

	hot_freq_count(&freq, 0, 5000, false);
	KUNIT_EXPECT_EQ(test, freq.nr_reads, 0);
	KUNIT_EXPECT_EQ(test, freq.last_read_time, 0);
	hot_freq_count(&freq, 3, 5000, false);
	hot_freq_count(&freq, 2, 4000, false);
	KUNIT_EXPECT_EQ(test, freq.nr_reads, 5);
	KUNIT_EXPECT_EQ(test, freq.pending, 5);
	KUNIT_EXPECT_EQ(test, freq.last_read_time, 5000);
	KUNIT_EXPECT_EQ(test, freq.nr_writes, 0);
	hot_freq_count(&freq, 1, 6000, true);
	KUNIT_EXPECT_EQ(test, freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, freq.pending, 6);
	KUNIT_EXPECT_EQ(test, freq.last_write_time, 6000);
	KUNIT_EXPECT_EQ(test, freq.last_read_time, 5000);
	hot_freq_count(&freq, U32_MAX, 7000, true);
	KUNIT_EXPECT_EQ(test, freq.nr_writes, U32_MAX);
	KUNIT_EXPECT_EQ(test, freq.pending, U32_MAX);
	KUNIT_EXPECT_EQ(test, freq.nr_reads, 5);
}

/* Fold @c accesses into @score and return the new score. */
static u32 hot_kunit_fold(struct kunit *test, u32 score, u32 c)
{
	struct hot_freq freq = { .score = score, .pending = c };

	hot_score_fold(&freq, HOT_SCALE_ONE);
	KUNIT_EXPECT_EQ(test, freq.pending, 0);
	return freq.score;
}

/*
 * The score: c accesses per pass hold c; one pass without access leaves
 * at most two; more accesses never give less; saturation ties.
 */
static void hot_score_fold_test(struct kunit *test)
{
	static const u32 scores[] = { 0, 1, 255, 256, 1000, 65536, 1U << 30,
				      U32_MAX };
	static const u32 counts[] = { 0, 1, 2, 3, 10, 1000, 1U << 24, U32_MAX };
	u32 score = 0;
	int i, j;

	/* Steady: 10 per pass converges to 10, and stays there. */
	for (i = 0; i < 40; i++)
		score = hot_kunit_fold(test, score, 10);
	KUNIT_EXPECT_GE(test, score, (10U << HOT_SCORE_SHIFT) - 1);
	KUNIT_EXPECT_LE(test, score, 10U << HOT_SCORE_SHIFT);
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, 10U << HOT_SCORE_SHIFT, 10),
			10U << HOT_SCORE_SHIFT);
	/* Accesses stop: two per pass at most at once, then halving to 0. */
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, 1000U << HOT_SCORE_SHIFT, 0),
			2U << HOT_SCORE_SHIFT);
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, 1U << HOT_SCORE_SHIFT, 0),
			1U << (HOT_SCORE_SHIFT - 1));
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, 1, 0), 0);
	/* From 1000 per pass down to 3: 2 * (3 + 1), then down to 3. */
	score = hot_kunit_fold(test, 1000U << HOT_SCORE_SHIFT, 3);
	KUNIT_EXPECT_EQ(test, score, 8U << HOT_SCORE_SHIFT);
	for (i = 0; i < 3; i++)
		score = hot_kunit_fold(test, score, 3);
	KUNIT_EXPECT_LE(test, score, 4U << HOT_SCORE_SHIFT);
	/* Monotone in both the score and the count; saturated at the top. */
	for (i = 0; i < ARRAY_SIZE(scores); i++) {
		for (j = 0; j + 1 < ARRAY_SIZE(counts); j++) {
			u32 here = hot_kunit_fold(test, scores[i], counts[j]);

			KUNIT_EXPECT_LE(test, here, hot_kunit_fold(test, scores[i],
								   counts[j + 1]));
			if (i + 1 < ARRAY_SIZE(scores))
				KUNIT_EXPECT_LE(test, here,
						hot_kunit_fold(test, scores[i + 1],
							       counts[j]));
		}
	}
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, U32_MAX, U32_MAX), U32_MAX);
	KUNIT_EXPECT_EQ(test, hot_kunit_fold(test, 0, U32_MAX), U32_MAX);
}

static void hot_log2_test(struct kunit *test)
{
	u64 x;

	KUNIT_EXPECT_EQ(test, hot_log2(0), 0);
	KUNIT_EXPECT_EQ(test, hot_log2(1), 0);
	KUNIT_EXPECT_EQ(test, hot_log2(2), 1U << HOT_TEMP_FRAC_BITS);
	KUNIT_EXPECT_EQ(test, hot_log2(3), (1U << HOT_TEMP_FRAC_BITS) +
			(1U << (HOT_TEMP_FRAC_BITS - 1)));
	KUNIT_EXPECT_EQ(test, hot_log2(BIT_ULL(40)), 40U << HOT_TEMP_FRAC_BITS);
	KUNIT_EXPECT_EQ(test, hot_log2(U64_MAX) >> HOT_TEMP_FRAC_BITS, 63);
	/* Strictly increasing over a sweep of every magnitude. */
	for (x = 2; x < U64_MAX / 3; x = x * 3 / 2 + 1)
		KUNIT_EXPECT_LT(test, hot_log2(x), hot_log2(x * 3 / 2 + 1));
}

/* @per_pass accesses in each of @passes passes of @pass, the last at @now. */
static void hot_kunit_passes(struct hot_freq *freq, struct hot_pass *pass,
			     u32 per_pass, int passes, u64 now)
{
	int i;

	for (i = passes - 1; i >= 0; i--) {
		hot_freq_count(freq, per_pass, now - i * pass->delay, false);
		hot_score_fold(freq, HOT_SCALE_ONE);
		pass->time = now - i * pass->delay;
	}
}

static void hot_temp_test(struct kunit *test)
{
	const u64 s = NSEC_PER_SEC, ms = NSEC_PER_MSEC;
	const u64 t0 = 1000ULL * NSEC_PER_SEC;
	struct hot_pass pass = { .time = t0, .delay = s, .len = s }, p2;
	struct hot_freq cold = {}, warm = {}, hot = {}, f;
	u64 now = t0 + 60 * s, x;
	u32 before;
	int i, c;

	KUNIT_EXPECT_EQ(test, hot_temp(&pass, &cold, t0), 0);

	/* Once a second for a minute, and ten times a second. */
	hot_kunit_passes(&warm, &pass, 1, 60, now);
	hot_kunit_passes(&hot, &pass, 10, 60, now);
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &hot, now),
			hot_temp(&pass, &warm, now));
	/* About once a second is near 2^31; ten times as often, log2(10) more. */
	KUNIT_EXPECT_EQ(test, hot_temp(&pass, &warm, now) >> 24, 128);
	KUNIT_EXPECT_EQ(test, (hot_temp(&pass, &hot, now) -
			       hot_temp(&pass, &warm, now) + (1U << 24)) >> 26,
			3);
	/* The same rate over a ten times longer pass: log2(10) cooler. */
	p2 = pass;
	p2.delay = 10 * s;
	p2.len = 10 * s;
	KUNIT_EXPECT_EQ(test, (hot_temp(&pass, &hot, now) -
			       hot_temp(&p2, &hot, now) + (1U << 24)) >> 26, 3);

	/* Writes add to reads. */
	f = warm;
	hot_freq_count(&f, 1, now, true);
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &f, now),
			hot_temp(&pass, &warm, now));

	/*
	 * Within a pass the score decays linearly, to half of it at the
	 * pass's end (what the next pass keeps if nothing comes).
	 */
	for (i = 0; i < 8; i++)
		KUNIT_EXPECT_LT(test, hot_temp(&pass, &hot, now + (i + 1) * s / 8),
				hot_temp(&pass, &hot, now + i * s / 8));
	x = hot.score + ((u64)hot.pending << HOT_SCORE_SHIFT);
	KUNIT_EXPECT_EQ(test, hot_score_now(&pass, &hot, now), x);
	KUNIT_EXPECT_EQ(test, hot_score_now(&pass, &hot, now + s),
			DIV_ROUND_UP_ULL(x, 2));
	KUNIT_EXPECT_EQ(test, hot_score_now(&pass, &hot, now + 5 * s),
			DIV_ROUND_UP_ULL(x, 2));
	/* The rate is the score over the time the pass counted, not the delay. */
	p2 = pass;
	p2.delay = 100 * s;
	KUNIT_EXPECT_EQ(test, hot_temp(&p2, &hot, now), hot_temp(&pass, &hot, now));
	p2.len = 2 * s;
	KUNIT_EXPECT_EQ(test, hot_temp(&pass, &hot, now) - hot_temp(&p2, &hot, now),
			1U << HOT_TEMP_FRAC_BITS);

	/* Idle time cools; an extra access never does. */
	for (i = 1; i < 1000; i *= 3) {
		KUNIT_EXPECT_LT(test, hot_temp(&pass, &hot, now + (i + 1) * ms),
				hot_temp(&pass, &hot, now + i * ms));
		KUNIT_EXPECT_LE(test, hot_temp(&pass, &hot, now + (i + 1) * s),
				hot_temp(&pass, &hot, now + i * s));
		f = hot;
		hot_freq_count(&f, 1, now + i * s, false);
		KUNIT_EXPECT_GE(test, hot_temp(&pass, &f, now + i * s),
				hot_temp(&pass, &hot, now + i * s));
		f = cold;
		hot_freq_count(&f, 1, now, i & 1);
		KUNIT_EXPECT_GE(test, hot_temp(&pass, &f, now + i * s),
				hot_temp(&pass, &cold, now + i * s));
	}
	/* A pass never warms an item: it holds what the live value reached. */
	for (c = 0; c < 40; c += 3) {
		f = hot;
		hot_freq_count(&f, c, now + s / 2, false);
		before = hot_temp(&pass, &f, now + s);
		hot_score_fold(&f, HOT_SCALE_ONE);
		p2 = (struct hot_pass){ .time = now + s, .delay = s, .len = s };
		KUNIT_EXPECT_LE(test, hot_temp(&p2, &f, now + s), before);
		KUNIT_EXPECT_LE(test, hot_temp(&p2, &f, now + 2 * s),
				hot_temp(&p2, &f, now + s));
	}

	/* Of two bursts in a pass, ten times the reads is hotter by log2(10). */
	f = cold;
	hot_freq_count(&f, 4, now, false);
	warm = cold;
	hot_freq_count(&warm, 40, now, false);
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &warm, now + SZ_1M),
			hot_temp(&pass, &f, now + SZ_1M) +
			(3U << HOT_TEMP_FRAC_BITS));

	/*
	 * The hot set moves: an item read 1000 times a pass is no longer
	 * read; by the second pass it is below one read 4 times a pass
	 * since the move.
	 */
	f = cold;
	hot_kunit_passes(&f, &pass, 1000, 10, now);
	warm = cold;
	hot_kunit_passes(&warm, &pass, 4, 2, now + 2 * s);
	hot_kunit_passes(&f, &pass, 0, 2, now + 2 * s);
	KUNIT_EXPECT_LT(test, hot_temp(&pass, &f, now + 2 * s),
			hot_temp(&pass, &warm, now + 2 * s));

	/* Saturated counters change nothing; a saturated score still cools. */
	f = hot;
	f.nr_reads = U32_MAX;
	KUNIT_EXPECT_EQ(test, hot_temp(&pass, &f, now),
			hot_temp(&pass, &hot, now));
	f.score = U32_MAX;
	f.pending = U32_MAX;
	p2 = (struct hot_pass){ .time = now, .delay = s, .len = s };
	KUNIT_EXPECT_LT(test, hot_temp(&p2, &f, now + s / 2),
			hot_temp(&p2, &f, now));
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &f, now), hot_temp(&pass, &hot, now));
	/* Extremes: a clock behind the pass and the last access, long idle. */
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &hot, t0), 0);
	f = hot;
	f.score = 0;
	f.pending = 0;
	f.last_read_time = 0;
	KUNIT_EXPECT_LT(test, hot_temp(&pass, &f, U64_MAX),
			3U << HOT_TEMP_FRAC_BITS);
	KUNIT_EXPECT_LE(test, hot_temp(&pass, &f, U64_MAX),
			hot_temp(&pass, &f, U64_MAX / 2));
	/* Idle, without score: 0x68000000 (demote_temp) after some 860 s. */
	f.last_read_time = t0;
	KUNIT_EXPECT_GT(test, hot_temp(&pass, &f, t0 + 855 * s), 0x68000000);
	KUNIT_EXPECT_LT(test, hot_temp(&pass, &f, t0 + 865 * s), 0x68000000);
}

/* The gaps a temperature stands for, and a saved gap loaded back. */
static void hot_gaps_test(struct kunit *test)
{
	const u64 s = NSEC_PER_SEC, ms = NSEC_PER_MSEC, t0 = 1000 * s;
	struct hot_pass pass = { .time = t0, .delay = s, .len = s };
	struct hot_freq f = {};
	u64 r, w;

	hot_freq_gaps(&pass, &f, t0, &r, &w);
	KUNIT_EXPECT_EQ(test, r, 0);
	KUNIT_EXPECT_EQ(test, w, 0);
	/*
	 * 100 reads a pass: 10 ms, and the temperature of 10 ms, but for
	 * hot_log2() taking the logarithms of score and delay apart.
	 */
	hot_kunit_passes(&f, &pass, 100, 20, t0);
	hot_freq_gaps(&pass, &f, t0, &r, &w);
	KUNIT_EXPECT_LE(test, abs((s64)r - (s64)(10 * ms)), 10 * ms / 100);
	KUNIT_EXPECT_EQ(test, w, 0);
	KUNIT_EXPECT_LE(test, abs((s64)hot_temp(&pass, &f, t0) -
			(s64)hot_log2(div64_u64(BIT_ULL(HOT_RATE_SHIFT), r))),
			1 << 23);
	/* Reads and writes share the rate as they share the counts. */
	f.nr_writes = f.nr_reads / 3;
	hot_freq_gaps(&pass, &f, t0, &r, &w);
	KUNIT_EXPECT_LE(test, abs((s64)(r * f.nr_reads - w * f.nr_writes)),
			(s64)(f.nr_reads + f.nr_writes));
	KUNIT_EXPECT_GT(test, w, r);
	/* Long idle, the score gone: the idle gap, 15 s + age / 16. */
	f.score = 0;
	hot_freq_gaps(&pass, &f, t0 + 1600 * s, &r, &w);
	KUNIT_EXPECT_EQ(test, r, div64_u64((15 * s + 100 * s) *
					   (f.nr_reads + f.nr_writes),
					   f.nr_reads));

	/* A loaded gap reads back as saved, cooled by half a pass of age. */
	f = (struct hot_freq){ .nr_reads = 1 };
	pass.time = t0 - s / 3;
	f.score = hot_score_load(&pass, 5 * ms, 0, t0);
	hot_freq_gaps(&pass, &f, t0, &r, &w);
	KUNIT_EXPECT_LE(test, abs((s64)r - (s64)(5 * ms)), 50000);
	f.score = hot_score_load(&pass, 5 * ms, 2 * s + s / 2, t0);
	hot_freq_gaps(&pass, &f, t0, &r, &w);
	/* 2.5 passes: 1/4 and 3/4 of that: 5 ms * 16 / 3. */
	KUNIT_EXPECT_LE(test, abs((s64)r - (s64)(80 * ms / 3)), 270000);
	KUNIT_EXPECT_EQ(test, hot_score_load(&pass, 0, 64 * s, t0), 0);
	KUNIT_EXPECT_GT(test, hot_score_load(&pass, 0, 0, t0), 0);
}

/* Inodes of this generation are the test filesystem's internal files. */
#define HOT_KUNIT_INTERNAL	0xdead

/* Inode numbers unique per "root", taken from i_generation in these tests. */
static bool hot_kunit_inode_root(const struct inode *inode, u64 *root)
{
	*root = inode->i_generation;
	return inode->i_generation != HOT_KUNIT_INTERNAL;
}

static const struct hot_type hot_kunit_type = {
	.inode_root = hot_kunit_inode_root,
};

static struct file_system_type hot_kunit_fs_type = {
	.name = "hot_kunit",
};

struct hot_kunit_fs {
	struct super_block *sb;
	struct inode *inode[2];
	struct hot_info *hi;
};

static int hot_kunit_init(struct kunit *test)
{
	struct hot_kunit_fs *fs;
	int i;

	fs = kunit_kzalloc(test, sizeof(*fs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->sb = kunit_kzalloc(test, sizeof(*fs->sb), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fs->sb);
	strscpy(fs->sb->s_id, "hot_kunit");
	fs->sb->s_type = &hot_kunit_fs_type;
	for (i = 0; i < ARRAY_SIZE(fs->inode); i++) {
		fs->inode[i] = kunit_kzalloc(test, sizeof(struct inode),
					     GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, fs->inode[i]);
		fs->inode[i]->i_sb = fs->sb;
		fs->inode[i]->i_mode = S_IFREG | 0644;
		fs->inode[i]->i_ino = 100 + i;
		fs->inode[i]->__i_nlink = 1;
	}
	KUNIT_ASSERT_EQ(test, hot_track_enable(fs->sb, &hot_kunit_type), 0);
	fs->hi = rcu_dereference_protected(fs->sb->s_hot_info, true);
	/* The tests run the update passes; those that need the worker queue it. */
	cancel_delayed_work_sync(&fs->hi->update_work);
	test->priv = fs;
	return 0;
}

static void hot_kunit_exit(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;

	hot_track_disable(fs->sb);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(fs->sb->s_hot_info));
}

/*
 * An item after what the I/O hooks counted per CPU was folded into the
 * items.
 */
static struct hot_inode_item *hot_kunit_item(struct hot_kunit_fs *fs, int i)
{
	struct hot_inode_item *he;

	hot_track_drain(fs->hi);
	rcu_read_lock();
	he = hot_inode_lookup(fs->hi, fs->inode[i]);
	rcu_read_unlock();
	return he;
}

/*
 * Stamp @freq, of @he or one of its ranges, a minute ahead: the accesses
 * that follow go to the per-CPU slots however long this thread waits
 * between them (hot_freq_stale()), on a loaded machine too.
 */
static void hot_kunit_fresh(struct hot_inode_item *he, struct hot_freq *freq)
{
	u64 t = hot_clock_ns() + 60 * NSEC_PER_SEC;

	xa_lock(&he->ranges);
	freq->last_read_time = t;
	freq->last_write_time = t;
	xa_unlock(&he->ranges);
}

/* I/O recorded, and counted in the items, as after an update pass. */
static void hot_kunit_io(struct inode *inode, loff_t pos, u64 len, int rw)
{
	struct hot_info *hi;

	hot_track_io(inode, pos, len, rw);
	hi = rcu_access_pointer(inode->i_sb->s_hot_info);
	if (hi)
		hot_track_drain(hi);
}

/*
 * What &hot_info.mem should say of these items and range xarray leaf nodes,
 * with the inode index's roots and nodes (hot_index_nodes_test() checks
 * those).
 */
static long hot_kunit_mem(struct hot_info *hi, long inodes, long ranges,
			  long nodes)
{
	return inodes * kmem_cache_size(hot_inode_cachep) +
	       ranges * kmem_cache_size(hot_range_cachep) +
	       nodes * sizeof(struct xa_node) + atomic_long_read(&hi->index_mem);
}

static void hot_track_io_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	struct hot_range_item *hr;

	/* 3 MiB from 512 KiB: ranges 0 to 3, each once, the inode once. */
	hot_kunit_io(fs->inode[0], SZ_512K, 3 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->key.ino, 100);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 4);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 4, 1));

	hot_kunit_io(fs->inode[0], 2 * SZ_1M, 4096, WRITE);
	hr = xa_load(&he->ranges, 2);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	KUNIT_EXPECT_EQ(test, hr->index, 2);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 1);
	hr = xa_load(&he->ranges, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, 0);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 4));

	/* Nothing for zero bytes, for other file types, for other inodes. */
	hot_kunit_io(fs->inode[0], 0, 0, READ);
	fs->inode[1]->i_mode = S_IFDIR | 0755;
	hot_kunit_io(fs->inode[1], 0, SZ_1M, READ);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 1));
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 1);

	/*
	 * Ranges from 4 PiB into a file on are not tracked; the inode is.  The
	 * walk over the ranges of a request ends at the last range number, on
	 * 32-bit too.
	 */
	hot_kunit_io(fs->inode[0], (loff_t)HOT_RANGE_INDEX_MAX << HOT_RANGE_SHIFT,
		     2 * SZ_1M, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 2);
	hr = xa_load(&he->ranges, HOT_RANGE_INDEX_MAX);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	KUNIT_EXPECT_EQ(test, hr->index, HOT_RANGE_INDEX_MAX);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 5);
	hot_kunit_io(fs->inode[0], (loff_t)HOT_RANGE_INDEX_MAX << HOT_RANGE_SHIFT,
		     SZ_1M, READ);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 2);
	hot_kunit_io(fs->inode[0], (HOT_RANGE_INDEX_MAX + 1LL) << HOT_RANGE_SHIFT,
		     SZ_1M, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 4);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 5);
}

/* The I/O of a filesystem's internal files makes no item at all. */
static void hot_internal_inode_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;

	fs->inode[1]->i_generation = HOT_KUNIT_INTERNAL;
	hot_kunit_io(fs->inode[1], 0, 3 * SZ_1M, READ);
	hot_kunit_io(fs->inode[1], 0, SZ_1M, WRITE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);

	/* Its neighbour, in a root of its own, is a file like any other. */
	hot_kunit_io(fs->inode[0], 0, SZ_1M, READ);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 1);
}

static void hot_track_writeback_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	int i;

	/* One pass of 512 folios of 4 KiB over 2 MiB: one write each. */
	hot_track_writeback_begin(fs->inode[0]);
	for (i = 0; i < 512; i++)
		hot_track_record(fs->inode[0], i * 4096ULL, 4096,
				 HOT_WRITEBACK);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)
			       xa_load(&he->ranges, 0))->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)
			       xa_load(&he->ranges, 1))->freq.nr_writes, 1);

	/* A second pass over range 1 only. */
	hot_track_writeback_begin(fs->inode[0]);
	hot_track_record(fs->inode[0], SZ_1M, 4096, HOT_WRITEBACK);
	hot_track_record(fs->inode[0], SZ_1M + 4096, 4096, HOT_WRITEBACK);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 2);
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)
			       xa_load(&he->ranges, 0))->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)
			       xa_load(&he->ranges, 1))->freq.nr_writes, 2);
}

static void hot_track_lifetime_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;

	hot_kunit_io(fs->inode[0], 0, 5 * SZ_1M, READ);
	hot_kunit_io(fs->inode[1], 0, SZ_1M, WRITE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 6);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 2, 6, 1));

	/* Eviction from the inode cache keeps the heat. */
	hot_track_evict_inode(fs->inode[0]);
	KUNIT_EXPECT_NOT_NULL(test, hot_kunit_item(fs, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 6);

	/*
	 * Eviction of a deleted file kills its items at once, and frees them,
	 * and only those, from a work item.
	 */
	fs->inode[0]->__i_nlink = 0;
	hot_track_evict_inode(fs->inode[0]);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 0));
	flush_work(&fs->hi->free_work);
	KUNIT_EXPECT_NOT_NULL(test, hot_kunit_item(fs, 1));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 1, 0));
	/* Evicting an untracked inode is harmless. */
	hot_track_evict_inode(fs->inode[0]);

	/* A new file with the same number starts cold. */
	fs->inode[0]->__i_nlink = 1;
	hot_kunit_io(fs->inode[0], 0, 4096, READ);
	KUNIT_EXPECT_EQ(test, hot_kunit_item(fs, 0)->freq.nr_reads, 1);

	/* The same inode number in another root is another file. */
	fs->inode[1]->i_ino = fs->inode[0]->i_ino;
	fs->inode[1]->i_generation = 7;
	hot_kunit_io(fs->inode[1], 0, 4096, READ);
	KUNIT_EXPECT_PTR_NE(test, hot_kunit_item(fs, 1), hot_kunit_item(fs, 0));
	KUNIT_EXPECT_EQ(test, hot_kunit_item(fs, 0)->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hot_kunit_item(fs, 1)->freq.nr_reads, 1);

	/* Turning tracking off frees the rest (checked in disable). */
	hot_track_disable(fs->sb);
	KUNIT_EXPECT_FALSE(test, hot_track_enabled(fs->sb));
	/* Nothing is recorded while it is off; on again starts empty. */
	hot_kunit_io(fs->inode[0], 0, 4096, READ);
	KUNIT_ASSERT_EQ(test, hot_track_enable(fs->sb, &hot_kunit_type), 0);
	fs->hi = rcu_dereference_protected(fs->sb->s_hot_info, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, hot_track_enable(fs->sb, &hot_kunit_type), 0);
}

static void hot_temp_bucket_test(struct kunit *test)
{
	unsigned int b;
	u64 t;

	KUNIT_EXPECT_EQ(test, hot_temp_bucket(0), 0);
	KUNIT_EXPECT_EQ(test, hot_temp_bucket(U32_MAX), HOT_MAP_BUCKETS - 1);
	for (b = 0; b < HOT_MAP_BUCKETS; b++) {
		KUNIT_EXPECT_EQ(test, hot_temp_bucket(b << HOT_MAP_SHIFT), b);
		KUNIT_EXPECT_EQ(test, hot_temp_bucket((b << HOT_MAP_SHIFT) |
						      0xffffff), b);
	}
	for (t = 1; t <= U32_MAX; t = t * 3 + 1)
		KUNIT_EXPECT_LE(test, hot_temp_bucket(t),
				hot_temp_bucket(min_t(u64, t * 3 + 1, U32_MAX)));
}

/*
 * An update pass at @now (ns) that counted the hot-update-delay before it,
 * as the update worker's do, whatever the time of the pass before.
 */
static void hot_kunit_pass(struct hot_info *hi, u64 now, u64 kick)
{
	u64 delay = (u64)READ_ONCE(sysctl_hot_update_delay) * NSEC_PER_SEC;

	WRITE_ONCE(hi->pass.time, now > delay ? now - delay : 0);
	hot_update_all(hi, now, kick);
}

/*
 * Give range @index of @he a read history: one read every @gap ns until
 * @now, steady over the passes of the current hot-update-delay.
 */
static void hot_kunit_set_range(struct hot_inode_item *he, unsigned long index,
				u64 gap, u64 now)
{
	struct hot_range_item *hr = xa_load(&he->ranges, index);
	u64 per_pass = div64_u64((u64)READ_ONCE(sysctl_hot_update_delay) *
				 NSEC_PER_SEC, gap);

	xa_lock(&he->ranges);
	hr->freq.nr_reads = 10;
	hr->freq.pending = per_pass;
	hr->freq.score = per_pass << HOT_SCORE_SHIFT;
	hr->freq.last_read_time = now;
	hr->freq.nr_writes = 0;
	hr->freq.last_write_time = 0;
	xa_unlock(&he->ranges);
}

static bool hot_kunit_in_map(struct hot_info *hi, struct hot_range_item *hr)
{
	struct hot_range_item *pos;
	bool found = false;

	spin_lock(&hi->map_lock);
	list_for_each_entry(pos, &hi->range_map[hot_temp_bucket(hr->temp)],
			    track_list)
		found |= pos == hr;
	spin_unlock(&hi->map_lock);
	return found;
}

static void hot_update_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	const u64 ms = NSEC_PER_MSEC, s = NSEC_PER_SEC;
	struct hot_inode_item *he;
	struct hot_range_item *hr[4];
	u64 now = hot_clock_ns() + 1000 * s;
	struct hot_freq freq;
	u64 gap;
	u32 temp;
	int i;
	bool more;

	hot_kunit_io(fs->inode[0], 0, 4 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	/* Range 0 read every ms, range 3 every 1000 ms. */
	for (i = 0; i < 4; i++) {
		hot_kunit_set_range(he, i, ms * (i == 3 ? 1000 : 1 + 10 * i), now);
		hr[i] = xa_load(&he->ranges, i);
	}
	xa_lock(&he->ranges);
	he->freq.last_read_time = now;
	xa_unlock(&he->ranges);

	hot_kunit_pass(fs->hi, now, 60 * s);
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_EQ(test, hr[i]->temp,
				hot_temp(&fs->hi->pass, &hr[i]->freq, now));
		KUNIT_EXPECT_TRUE(test, hot_kunit_in_map(fs->hi, hr[i]));
	}
	KUNIT_EXPECT_GT(test, hr[0]->temp, hr[1]->temp);
	KUNIT_EXPECT_GT(test, hr[2]->temp, hr[3]->temp);
	KUNIT_EXPECT_NE(test, he->temp, 0);
	/* The ioctl reports that of the last pass unless asked for a live one. */
	KUNIT_EXPECT_EQ(test, hot_track_get_freq(fs->inode[0], &freq, false,
						 &temp, &gap, &gap), 0);
	KUNIT_EXPECT_EQ(test, temp, he->temp);

	/* The coldest goes first, then the next. */
	KUNIT_EXPECT_EQ(test, hot_evict_coldest(fs->hi, 1, &more), 1);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 3));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 2));
	KUNIT_EXPECT_EQ(test, hot_evict_coldest(fs->hi, 1, &more), 1);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 2));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 2, 1));

	/* Aging: range 1 idle for 2 minutes goes, range 0 stays. */
	hot_kunit_set_range(he, 1, ms, now - 120 * s);
	hot_kunit_pass(fs->hi, now, 60 * s);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 1));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 0));
	KUNIT_EXPECT_NOT_NULL(test, hot_kunit_item(fs, 0));

	/* Everything idle: the ranges, then the inode item, go. */
	hot_kunit_pass(fs->hi, now + 120 * s, 60 * s);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);
}

/* Inode number @i of a layout of the index tests. */
typedef u64 (*hot_kunit_ino_fn)(unsigned int i);

/* Files made one after another: ext4 in a group, btrfs in a subvolume. */
static u64 hot_kunit_ino_seq(unsigned int i)
{
	return 1000 + i;
}

/* xfs: one file per 64-inode chunk, a leaf node each. */
static u64 hot_kunit_ino_chunk(unsigned int i)
{
	return 128 + 64 * (u64)i;
}

/* Numbers that differ only above bit 42 (overlayfs xino, FUSE). */
static u64 hot_kunit_ino_high(unsigned int i)
{
	return 1000 + ((u64)i << 42);
}

/*
 * Read, or delete, files @from to @to - 1 of a layout of root @root, their
 * inode numbers by @ino, in order, or in reverse order if @reverse.
 */
static void hot_kunit_index_span(struct hot_kunit_fs *fs, unsigned int from,
				 unsigned int to, hot_kunit_ino_fn ino,
				 u32 root, bool delete, bool reverse)
{
	struct inode *inode = fs->inode[0];
	unsigned int i;

	inode->__i_nlink = !delete;
	inode->i_generation = root;
	for (i = from; i < to; i++) {
		inode->i_ino = ino(reverse ? from + to - 1 - i : i);
		if (delete)
			hot_track_evict_inode(inode);
		else
			hot_track_io(inode, 0, SZ_4K, READ);
	}
	inode->i_ino = 100;
	inode->i_generation = 0;
	inode->__i_nlink = 1;
	flush_work(&fs->hi->free_work);
}

/* Read, or delete, the first @nr files of a layout, in order. */
static void hot_kunit_index_files(struct hot_kunit_fs *fs, unsigned int nr,
				  hot_kunit_ino_fn ino, u32 root, bool delete)
{
	hot_kunit_index_span(fs, 0, nr, ino, root, delete, false);
}

/*
 * The levels of nodes an xarray needs to hold @index: none for index 0,
 * which its head holds.
 */
static unsigned int hot_kunit_height(unsigned long index)
{
	return index ? (fls_long(index) - 1) / XA_CHUNK_SHIFT + 1 : 0;
}

/*
 * The nodes an xarray holding @nr entries, at @ino(0) < @ino(1) < ... ,
 * has: one for each group of 64^l indexes that holds one, for every level
 * l up to the one whose single node holds the largest.
 */
static long hot_kunit_xa_nodes(unsigned int nr, hot_kunit_ino_fn ino)
{
	unsigned int level, height = hot_kunit_height(ino(nr - 1)), i;
	long nodes = 0;

	for (level = 1; level <= height; level++) {
		unsigned int shift = level * XA_CHUNK_SHIFT;

		for (i = 0; i < nr; i++)
			if (!i || ino(i) >> shift != ino(i - 1) >> shift)
				nodes++;
	}
	return nodes;
}

/* The nodes of the xarray below @entry, a node or an entry, walked. */
static long hot_kunit_walk_nodes(void *entry)
{
	struct xa_node *node;
	long nodes = 1;
	unsigned int i;

	if (!xa_is_node(entry))
		return 0;
	node = xa_to_node(entry);
	for (i = 0; i < XA_CHUNK_SIZE; i++)
		nodes += hot_kunit_walk_nodes(rcu_dereference_raw(node->slots[i]));
	return nodes;
}

/* The bytes the inode index of @hi really takes: its roots and nodes. */
static long hot_kunit_index_bytes(struct hot_info *hi)
{
	struct hot_root *root;
	unsigned long id;
	long nodes, roots = 0;

	rcu_read_lock();
	nodes = hot_kunit_walk_nodes(rcu_dereference_raw(hi->roots.xa_head));
	xa_for_each(&hi->roots, id, root) {
		nodes += hot_kunit_walk_nodes(rcu_dereference_raw(root->inodes.xa_head));
		roots++;
	}
	rcu_read_unlock();
	return nodes * sizeof(struct xa_node) + roots * hot_root_bytes();
}

/*
 * The inode index counts in &hot_info.mem the nodes its xarrays have (a
 * walk of them tells), for dense and sparse inode numbers and numbers 2^42
 * apart, in root 0 and in one of a btrfs subvolume's, with half of the
 * files gone from either end, with two roots, and nothing once the files
 * are gone, the root with them.
 */
static void hot_index_nodes_test(struct kunit *test)
{
	static const struct {
		hot_kunit_ino_fn ino;
		unsigned int nr;
	} layouts[] = {
		{ hot_kunit_ino_seq, 1000 },
		{ hot_kunit_ino_chunk, 300 },
		{ hot_kunit_ino_high, 300 },
	};
	struct hot_kunit_fs *fs = test->priv;
	struct hot_info *hi = fs->hi;
	unsigned int i, root, half;
	long bytes;

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		if (BITS_PER_LONG < 64 &&
		    layouts[i].ino(layouts[i].nr - 1) > ULONG_MAX)
			continue;
		for (root = 0; root <= 5; root += 5) {
			hot_kunit_index_files(fs, layouts[i].nr, layouts[i].ino,
					      root, false);
			KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->nr_inodes),
					layouts[i].nr);
			bytes = hot_kunit_index_bytes(hi);
			KUNIT_EXPECT_EQ_MSG(test,
					    atomic_long_read(&hi->index_mem),
					    bytes, "layout %u root %u", i, root);
			/* The walk agrees with the layout's own count. */
			KUNIT_EXPECT_EQ(test, bytes,
					(hot_kunit_xa_nodes(layouts[i].nr,
							    layouts[i].ino) +
					 (root ? 1 : 0)) *
					sizeof(struct xa_node) +
					hot_root_bytes());
			KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem),
					layouts[i].nr *
					(kmem_cache_size(hot_inode_cachep) +
					 kmem_cache_size(hot_range_cachep)) +
					bytes);
			kunit_info(test, "layout %u: %lu bytes per item\n", i,
				   atomic_long_read(&hi->mem) / layouts[i].nr);

			/*
			 * Exact part-way too: root 0 loses its first half in
			 * order, root 5 its last half from the largest down.
			 */
			half = layouts[i].nr / 2;
			if (!root)
				hot_kunit_index_span(fs, 0, half,
						     layouts[i].ino, root, true,
						     false);
			else
				hot_kunit_index_span(fs, half, layouts[i].nr,
						     layouts[i].ino, root, true,
						     true);
			KUNIT_EXPECT_EQ_MSG(test,
					    atomic_long_read(&hi->index_mem),
					    hot_kunit_index_bytes(hi),
					    "layout %u root %u half", i, root);
			if (!root)
				hot_kunit_index_span(fs, half, layouts[i].nr,
						     layouts[i].ino, root, true,
						     false);
			else
				hot_kunit_index_span(fs, 0, half,
						     layouts[i].ino, root, true,
						     true);
			KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->nr_inodes),
					0);
			KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
					0);
			KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem), 0);
			KUNIT_EXPECT_TRUE(test, xa_empty(&hi->roots));
		}
	}

	/* Roots 5 and 6 side by side, and one without the other. */
	hot_kunit_index_files(fs, 100, hot_kunit_ino_seq, 5, false);
	hot_kunit_index_files(fs, 100, hot_kunit_ino_chunk, 6, false);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_files(fs, 100, hot_kunit_ino_seq, 5, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_files(fs, 100, hot_kunit_ino_chunk, 6, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem), 0);
	KUNIT_EXPECT_TRUE(test, xa_empty(&hi->roots));
}

/* Read, or delete, the file of inode number @ino of root 0. */
static void hot_kunit_index_file(struct hot_kunit_fs *fs, u64 ino,
				 bool delete)
{
	struct inode *inode = fs->inode[0];

	inode->i_ino = ino;
	inode->__i_nlink = !delete;
	if (delete)
		hot_track_evict_inode(inode);
	else
		hot_track_io(inode, 0, SZ_4K, READ);
	inode->i_ino = 100;
	inode->__i_nlink = 1;
}

/*
 * The count follows the xarray's height, read from its head: exact after
 * the file with the largest number goes, as the xarray shrinks, by one
 * level or many, and after one that shared its leaf goes, which leaves
 * inode number 0 alone in the head.  Inode number 0 counts too.
 */
static void hot_index_height_test(struct kunit *test)
{
	static const unsigned long heights[][2] = {
		{ 0, 0 }, { 1, 1 }, { XA_CHUNK_SIZE - 1, 1 },
		{ XA_CHUNK_SIZE, 2 }, { ULONG_MAX, HOT_INDEX_LEVELS },
	};
	const long node = sizeof(struct xa_node);
	struct hot_kunit_fs *fs = test->priv;
	struct hot_info *hi = fs->hi;
	unsigned int i, height;
	/* Not DEFINE_XARRAY(): lockdep takes only static keys. */
	struct xarray xa;

	xa_init(&xa);
	for (i = 0; i < ARRAY_SIZE(heights); i++) {
		KUNIT_ASSERT_EQ(test, xa_err(xa_store(&xa, heights[i][0],
						      xa_mk_value(1),
						      GFP_KERNEL)), 0);
		xa_lock(&xa);
		height = hot_index_xa_height(&xa);
		xa_unlock(&xa);
		KUNIT_EXPECT_EQ_MSG(test, height, heights[i][1], "index %lu",
				    heights[i][0]);
		KUNIT_EXPECT_EQ(test, hot_kunit_height(heights[i][0]),
				heights[i][1]);
		xa_destroy(&xa);
	}

	/* 100 and 101: one leaf under a node of two levels. */
	hot_kunit_index_file(fs, 100, false);
	hot_kunit_index_file(fs, 101, false);
	KUNIT_EXPECT_EQ(test, hot_kunit_index_bytes(hi),
			hot_root_bytes() + 2 * node);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	/* 5: a leaf of its own, under the same top node. */
	hot_kunit_index_file(fs, 5, false);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_root_bytes() + 3 * node);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 100, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	/* 101 goes: the xarray shrinks to a leaf, and the count with it. */
	hot_kunit_index_file(fs, 101, true);
	KUNIT_EXPECT_EQ(test, hot_kunit_index_bytes(hi),
			hot_root_bytes() + node);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_root_bytes() + node);
	hot_kunit_index_file(fs, 5, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);

	/* 0, in the head, then 7: a leaf; then 0 goes, then 7. */
	hot_kunit_index_file(fs, 0, false);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 7, false);
	KUNIT_EXPECT_EQ(test, hot_kunit_index_bytes(hi),
			hot_root_bytes() + node);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 0, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 7, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);

	/* 0 and 7 again, 7 first: its leaf was shared, and the head takes 0. */
	hot_kunit_index_file(fs, 0, false);
	hot_kunit_index_file(fs, 7, false);
	hot_kunit_index_file(fs, 7, true);
	KUNIT_EXPECT_EQ(test, hot_kunit_index_bytes(hi), hot_root_bytes());
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_root_bytes());
	hot_kunit_index_file(fs, 0, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);

	/* 100, 101 and one far above: it goes, and the levels above 2 go. */
	hot_kunit_index_file(fs, 100, false);
	hot_kunit_index_file(fs, 101, false);
	hot_kunit_index_file(fs, BIT(BITS_PER_LONG - 4), false);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, BIT(BITS_PER_LONG - 4), true);
	KUNIT_EXPECT_EQ(test, hot_kunit_index_bytes(hi),
			hot_root_bytes() + 2 * node);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem),
			hot_root_bytes() + 2 * node);
	hot_kunit_index_file(fs, 100, true);
	hot_kunit_index_file(fs, 101, true);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);
	flush_work(&hi->free_work);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem), 0);
}

/* Make the nodes of @xa down to @index, as a failed insertion may. */
static void hot_kunit_xa_path(struct kunit *test, struct xarray *xa,
			      unsigned long index)
{
	XA_STATE(xas, xa, index);

	do {
		xas_lock(&xas);
		xas_create_range(&xas);
		xas_unlock(&xas);
	} while (xas_nomem(&xas, GFP_KERNEL));
	KUNIT_ASSERT_FALSE(test, xas_error(&xas));
}

/* Root 0 of @fs, which must be there. */
static struct hot_root *hot_kunit_root0(struct kunit *test,
					struct hot_kunit_fs *fs)
{
	struct hot_root *root;

	rcu_read_lock();
	root = hot_root_lookup(fs->hi, 0);
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, root);
	return root;
}

/*
 * A root whose last item goes is freed even if its xarray still has nodes
 * without entries, as an insertion that failed for want of memory leaves
 * (made here by xas_create_range()): it is told empty by its count, not by
 * xa_empty(), and xa_destroy() frees those nodes with it.  Counted as
 * hot_index_store() counts a failure, the nodes such an insertion leaves
 * are not more than the count, even where it raised the xarray's height,
 * from that of inode number 300 to that of bit BITS_PER_LONG - 4.
 */
static void hot_index_leftover_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_info *hi = fs->hi;
	struct hot_root *root;

	hot_kunit_index_file(fs, 300, false);
	root = hot_kunit_root0(test, fs);
	hot_kunit_xa_path(test, &root->inodes, BIT(30));
	KUNIT_EXPECT_GT(test, hot_kunit_index_bytes(hi),
			atomic_long_read(&hi->index_mem));
	hot_kunit_index_file(fs, 300, true);
	KUNIT_EXPECT_TRUE(test, xa_empty(&hi->roots));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);
	flush_work(&hi->free_work);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem), 0);

	hot_kunit_index_file(fs, 300, false);
	root = hot_kunit_root0(test, fs);
	hot_kunit_xa_path(test, &root->inodes, BIT(BITS_PER_LONG - 4));
	xa_lock(&root->inodes);
	hot_index_count(hi, &root->nodes, &root->inodes, 0, HOT_INDEX_SPARE);
	xa_unlock(&root->inodes);
	KUNIT_EXPECT_GE(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	/* An insertion after it counts the height the failure left. */
	hot_kunit_index_file(fs, 301, false);
	KUNIT_EXPECT_GE(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 300, true);
	KUNIT_EXPECT_GE(test, atomic_long_read(&hi->index_mem),
			hot_kunit_index_bytes(hi));
	hot_kunit_index_file(fs, 301, true);
	KUNIT_EXPECT_TRUE(test, xa_empty(&hi->roots));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->index_mem), 0);
	flush_work(&hi->free_work);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&hi->mem), 0);
}

/*
 * On 32-bit, a file whose inode number or root does not fit an xarray index
 * is not tracked, as an internal file is not: no item, not counted as one
 * not made (which would hold hot_track_seen_all() back), and
 * hot_track_range_temp() says so.  On 64-bit it is tracked.
 */
static void hot_index_fits_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct inode *inode = fs->inode[0];
	struct hot_inode_key key = { .ino = BIT_ULL(40) + 7 };
	u32 temp;

	inode->i_ino = key.ino;
	hot_track_io(inode, 0, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, !!hot_kunit_item(fs, 0), BITS_PER_LONG == 64);
	KUNIT_EXPECT_FALSE(test, fs->hi->refused);
	KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &key, 0, &temp),
			BITS_PER_LONG == 64 ? 0 : -EOVERFLOW);
	/* A root that does not fit. */
	inode->i_ino = 100;
	inode->i_generation = 0;
	key.ino = 100;
	key.root = BIT_ULL(33);
	KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &key, 0, &temp),
			BITS_PER_LONG == 64 ? -ENODATA : -EOVERFLOW);
}

/*
 * The access that makes an item counts in it after the item is in the
 * table: a pass that finds it without one first keeps it.  The next one
 * drops it if it is still without one.
 */
static void hot_new_item_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	const u64 s = NSEC_PER_SEC;
	u64 now = hot_clock_ns() + 1000 * s;
	struct hot_inode_item *he;

	rcu_read_lock();
	he = hot_inode_get(fs->hi, fs->inode[0]);
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, he);
	hot_update_all(fs->hi, now, 60 * s);
	KUNIT_EXPECT_PTR_EQ(test, hot_kunit_item(fs, 0), he);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 1);

	hot_update_all(fs->hi, now, 60 * s);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);
}

/*
 * An insertion into the range xarray that fails half-way can leave an
 * empty node (a reserved entry stands for it here): the item still counts
 * as one without ranges, ages out and is freed, node and all (kmemleak),
 * and freeing its ranges in batches ends.
 */
static void hot_empty_node_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	const u64 s = NSEC_PER_SEC;
	u64 now = hot_clock_ns();
	struct hot_inode_item *he;
	bool more;

	hot_kunit_io(fs->inode[0], 0, SZ_4K, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_ASSERT_EQ(test, xa_reserve(&he->ranges, SZ_1M, GFP_KERNEL), 0);
	hot_kunit_pass(fs->hi, now, 60 * s);
	KUNIT_EXPECT_PTR_EQ(test, hot_kunit_item(fs, 0), he);
	hot_kunit_pass(fs->hi, now + 120 * s, 60 * s);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 0));
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);

	hot_kunit_io(fs->inode[1], 0, SZ_4K, READ);
	he = hot_kunit_item(fs, 1);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_ASSERT_EQ(test, xa_reserve(&he->ranges, SZ_1M, GFP_KERNEL), 0);
	spin_lock(&fs->hi->map_lock);
	xa_lock(&he->ranges);
	more = hot_inode_free_ranges(fs->hi, he);
	xa_unlock(&he->ranges);
	spin_unlock(&fs->hi->map_lock);
	KUNIT_EXPECT_FALSE(test, more);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	/* Deleted, the file's item goes with the node. */
	__hot_track_evict_inode(fs->inode[1]);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);
}

/*
 * The memory cap reads the memory use once: when it dropped under the cap
 * meanwhile, nothing is freed.  Eviction frees a batch at most per call.
 */
static void hot_evict_batch_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	unsigned long size = kmem_cache_size(hot_range_cachep) +
			     sizeof(struct xa_node);
	bool more;

	KUNIT_EXPECT_EQ(test, hot_mem_excess(SZ_1M, 0), 0);
	KUNIT_EXPECT_EQ(test, hot_mem_excess(0, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, hot_mem_excess(SZ_1M - 1, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, hot_mem_excess(SZ_1M, SZ_1M), 0);
	KUNIT_EXPECT_EQ(test, hot_mem_excess(SZ_1M + 1, SZ_1M), 1);
	KUNIT_EXPECT_EQ(test, hot_mem_excess(SZ_1M + size + 1, SZ_1M), 2);

	hot_kunit_io(fs->inode[0], 0, 1500ULL * SZ_1M, READ);
	hot_kunit_pass(fs->hi, hot_clock_ns(), 60ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, hot_evict_coldest(fs->hi, ULONG_MAX, &more),
			HOT_EVICT_BATCH);
	KUNIT_EXPECT_TRUE(test, more);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges),
			1500 - HOT_EVICT_BATCH);
	/* The rest of the ranges, then the inode item left without any. */
	KUNIT_EXPECT_EQ(test, hot_evict_coldest(fs->hi, ULONG_MAX, &more),
			1500 - HOT_EVICT_BATCH + 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);
}

/*
 * However large the file, an update pass and the freeing of its item hold
 * the locks for HOT_LOCK_BATCH ranges at most, and get through all of them.
 */
static void hot_lock_batch_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_update_ctl ctl = {
		.pass.time = hot_clock_ns(), .pass.delay = NSEC_PER_SEC,
		.pass.len = NSEC_PER_SEC, .scale = HOT_SCALE_ONE, .nr = 1,
		.kick = 60ULL * NSEC_PER_SEC,
	};
	struct hot_inode_item *he;
	unsigned long next = 0, holds;
	bool done;

	hot_kunit_io(fs->inode[0], 0, 2500ULL * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);

	rcu_read_lock();
	spin_lock(&fs->hi->map_lock);
	done = hot_update_inode(fs->hi, he, &ctl, &next);
	spin_unlock(&fs->hi->map_lock);
	KUNIT_EXPECT_FALSE(test, done);
	KUNIT_EXPECT_EQ(test, next, HOT_LOCK_BATCH);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fs->hi->nr_mapped), HOT_LOCK_BATCH);
	for (holds = 1; !done && holds < 2500; holds++) {
		spin_lock(&fs->hi->map_lock);
		done = hot_update_inode(fs->hi, he, &ctl, &next);
		spin_unlock(&fs->hi->map_lock);
	}
	rcu_read_unlock();
	/* The ranges in full batches, the rest with the inode item itself. */
	KUNIT_EXPECT_TRUE(test, done);
	KUNIT_EXPECT_EQ(test, holds, DIV_ROUND_UP(2500, HOT_LOCK_BATCH));
	KUNIT_EXPECT_EQ(test, READ_ONCE(fs->hi->nr_mapped), 2501);

	/* One batch freed under one hold of the locks, then the rest. */
	spin_lock(&fs->hi->map_lock);
	xa_lock(&he->ranges);
	he->dead = true;
	KUNIT_EXPECT_TRUE(test, hot_inode_free_ranges(fs->hi, he));
	xa_unlock(&he->ranges);
	spin_unlock(&fs->hi->map_lock);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges),
			2500 - HOT_LOCK_BATCH);
	fs->inode[0]->__i_nlink = 0;
	hot_track_evict_inode(fs->inode[0]);
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 0));
	flush_work(&fs->hi->free_work);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fs->hi->nr_mapped), 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem), 0);
}

/* Set the score and pending accesses of @freq, under the item lock. */
static void hot_kunit_set_score(struct hot_inode_item *he,
				struct hot_freq *freq, u32 score, u32 pending)
{
	xa_lock(&he->ranges);
	freq->score = score;
	freq->pending = pending;
	xa_unlock(&he->ranges);
}

/* The number of a new pass for &hot_inode_item.folded, as hot_update_all(). */
static u8 hot_kunit_next_nr(struct hot_info *hi)
{
	hi->nr_folds++;
	return hi->nr_folds % 255 + 1;
}

/* Item @he in the pass of @ctl, as hot_update_one(): true when done. */
static bool hot_kunit_update_inode(struct hot_info *hi,
				   struct hot_inode_item *he,
				   const struct hot_update_ctl *ctl)
{
	unsigned long next = 0;
	bool done;

	rcu_read_lock();
	spin_lock(&hi->map_lock);
	done = hot_update_inode(hi, he, ctl, &next);
	spin_unlock(&hi->map_lock);
	rcu_read_unlock();
	return done;
}

/*
 * Range 0 of file 0 read once, counted in the items: the range item, and
 * the inode item in *@he; NULL if there is none.
 */
static struct hot_range_item *hot_kunit_read_one(struct hot_kunit_fs *fs,
						 struct hot_inode_item **he)
{
	hot_kunit_io(fs->inode[0], 0, SZ_1M, READ);
	hot_track_drain(fs->hi);
	*he = hot_kunit_item(fs, 0);
	return *he ? xa_load(&(*he)->ranges, 0) : NULL;
}

/* A pass folds an item once however often it meets it; the next again. */
static void hot_fold_once_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_update_ctl ctl = {
		.pass.time = hot_clock_ns(), .pass.delay = NSEC_PER_SEC,
		.pass.len = NSEC_PER_SEC, .scale = HOT_SCALE_ONE,
		.kick = 60ULL * NSEC_PER_SEC,
	};
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	int i;

	hr = hot_kunit_read_one(fs, &he);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	ctl.nr = hot_kunit_next_nr(fs->hi);
	hot_kunit_set_score(he, &he->freq, 0, 8);
	hot_kunit_set_score(he, &hr->freq, 0, 8);
	for (i = 0; i < 3; i++) {
		KUNIT_EXPECT_TRUE(test, hot_kunit_update_inode(fs->hi, he, &ctl));
		/* 8 pending: a score of 4, and no more folding in this pass. */
		KUNIT_EXPECT_EQ(test, he->freq.score, 4U << HOT_SCORE_SHIFT);
		KUNIT_EXPECT_EQ(test, hr->freq.score, 4U << HOT_SCORE_SHIFT);
		KUNIT_EXPECT_EQ(test, hr->freq.pending, 0);
	}
	/* The next pass halves it. */
	ctl.nr = hot_kunit_next_nr(fs->hi);
	KUNIT_EXPECT_TRUE(test, hot_kunit_update_inode(fs->hi, he, &ctl));
	KUNIT_EXPECT_EQ(test, he->freq.score, 2U << HOT_SCORE_SHIFT);
	KUNIT_EXPECT_EQ(test, hr->freq.score, 2U << HOT_SCORE_SHIFT);
	/* So does hot_update_all(), at each call. */
	hot_kunit_pass(fs->hi, ctl.pass.time, ctl.kick);
	KUNIT_EXPECT_EQ(test, hr->freq.score, 1U << HOT_SCORE_SHIFT);
	hot_kunit_pass(fs->hi, ctl.pass.time, ctl.kick);
	KUNIT_EXPECT_EQ(test, hr->freq.score, 1U << (HOT_SCORE_SHIFT - 1));
}

/*
 * A pass counts over the time since the pass before, within bounds, and
 * takes the scores from the length of that one to its own.
 */
static void hot_pass_len_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	const u64 s = NSEC_PER_SEC, t = hot_clock_ns() + 1000 * s;
	struct hot_inode_item *he;
	struct hot_range_item *hr;

	hr = hot_kunit_read_one(fs, &he);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	hot_kunit_pass(fs->hi, t, U64_MAX);
	KUNIT_EXPECT_EQ(test, fs->hi->pass.len,
			(u64)READ_ONCE(sysctl_hot_update_delay) * s);
	hot_update_all(fs->hi, t + 3 * s, U64_MAX);
	KUNIT_EXPECT_EQ(test, fs->hi->pass.len, 3 * s);
	/*
	 * 12 accesses per pass of 3 s, then 12 in a pass of 6 s: the score,
	 * 24 per 6 s, and the 12 make 18 per 6 s (12 without rescaling).
	 */
	hot_kunit_set_score(he, &hr->freq, 12U << HOT_SCORE_SHIFT, 12);
	hot_update_all(fs->hi, t + 9 * s, U64_MAX);
	KUNIT_EXPECT_EQ(test, fs->hi->pass.len, 6 * s);
	KUNIT_EXPECT_EQ(test, hr->freq.score, 18U << HOT_SCORE_SHIFT);
	KUNIT_EXPECT_EQ(test, hr->temp,
			hot_temp(&fs->hi->pass, &hr->freq, t + 9 * s));
	/* A clock behind the last pass, and a pass days after it. */
	hot_update_all(fs->hi, t, U64_MAX);
	KUNIT_EXPECT_EQ(test, fs->hi->pass.len, HOT_PASS_LEN_MIN);
	hot_update_all(fs->hi, t + BIT_ULL(50), U64_MAX);
	KUNIT_EXPECT_EQ(test, fs->hi->pass.len, HOT_PASS_LEN_MAX);
}

/*
 * An update pass asked to reschedule within a file stops after a batch, for
 * the walk to break RCU, and goes on from the range where it stopped.
 */
static void hot_update_resched_test(struct kunit *test)
{
	struct hot_update_ctl ctl = {
		.pass.time = hot_clock_ns(), .pass.delay = NSEC_PER_SEC,
		.pass.len = NSEC_PER_SEC, .scale = HOT_SCALE_ONE, .nr = 1,
		.kick = 60ULL * NSEC_PER_SEC,
	};
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	unsigned int calls = 1;
	bool again;

	hot_kunit_io(fs->inode[0], 0, 2500ULL * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);

	/* Preemption off keeps the request to reschedule until the end. */
	rcu_read_lock();
	preempt_disable();
	set_tsk_need_resched(current);
	again = hot_update_one(fs->hi, he, &ctl);
	preempt_enable();
	rcu_read_unlock();
	KUNIT_EXPECT_TRUE(test, again);
	KUNIT_EXPECT_PTR_EQ(test, ctl.he, he);
	KUNIT_EXPECT_EQ(test, ctl.next, HOT_LOCK_BATCH);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fs->hi->nr_mapped), HOT_LOCK_BATCH);

	/* As hot_walk_inodes() does: look the item up again, go on. */
	cond_resched();
	rcu_read_lock();
	he = hot_inode_lookup(fs->hi, fs->inode[0]);
	KUNIT_ASSERT_NOT_NULL(test, he);
	while (hot_update_one(fs->hi, he, &ctl) && calls < 2500)
		calls++;
	rcu_read_unlock();
	KUNIT_EXPECT_NULL(test, ctl.he);
	KUNIT_EXPECT_EQ(test, READ_ONCE(fs->hi->nr_mapped), 2501);
}

/*
 * The memory counted: one xarray leaf node per group of 64 ranges that holds
 * an item.  At the cap the hooks make no item and count that; a pass frees
 * the coldest down to seven eighths of the cap.
 */
static void hot_mem_cap_test(struct kunit *test)
{
	static const unsigned long index[] = {
		0, XA_CHUNK_SIZE - 1, XA_CHUNK_SIZE, 10 * XA_CHUNK_SIZE
	};
	unsigned long saved = sysctl_hot_mem_max, cap;
	struct hot_kunit_fs *fs = test->priv;
	u64 now = hot_clock_ns();
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	int i;

	/* Ranges 0, 63, 64 and 640 (with 64-slot nodes): three leaf nodes. */
	for (i = 0; i < ARRAY_SIZE(index); i++)
		hot_kunit_io(fs->inode[0], (loff_t)index[i] << HOT_RANGE_SHIFT,
			     SZ_4K, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->nr_nodes, 3);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 4, 3));

	/*
	 * The coldest, range 64, goes first, and its leaf node with it: the
	 * update worker's pass, below, folds these and evicts.
	 */
	for (i = 0; i < ARRAY_SIZE(index); i++)
		hot_kunit_set_range(he, index[i],
				    i == 2 ? NSEC_PER_SEC : NSEC_PER_MSEC, now);
	/* A cap whose seven eighths leave room for the three others. */
	cap = DIV_ROUND_UP(hot_kunit_mem(fs->hi, 1, 3, 2) * HOT_MEM_ROOM,
			   HOT_MEM_ROOM - 1);
	sysctl_hot_mem_max = cap;
	mod_delayed_work(system_dfl_wq, &fs->hi->update_work, 0);
	flush_delayed_work(&fs->hi->update_work);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, index[2]));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, index[1]));
	KUNIT_EXPECT_EQ(test, he->nr_nodes, 2);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 3, 2));
	KUNIT_EXPECT_LE(test, atomic_long_read(&fs->hi->mem),
			cap - cap / HOT_MEM_ROOM);

	/* At the cap: no new item, counted; existing items still count I/O. */
	sysctl_hot_mem_max = hot_kunit_mem(fs->hi, 1, 3, 2);
	hot_kunit_io(fs->inode[0], 5ULL << HOT_RANGE_SHIFT, SZ_4K, READ);
	hot_kunit_io(fs->inode[1], 0, SZ_4K, READ);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 5));
	KUNIT_EXPECT_NULL(test, hot_kunit_item(fs, 1));
	KUNIT_EXPECT_EQ(test, percpu_counter_sum(&fs->hi->nr_over_cap), 2);
	hot_kunit_io(fs->inode[0], 0, SZ_4K, READ);
	hr = xa_load(&he->ranges, 0);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 11);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, 3, 2));
	sysctl_hot_mem_max = saved;
}

static void hot_shrink_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct shrink_control sc = { .gfp_mask = GFP_KERNEL };
	u64 now = hot_clock_ns();
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	unsigned long count, idx;
	int i;

	hot_kunit_io(fs->inode[0], 0, 1000 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	for (i = 0; i < 1000; i++)
		hot_kunit_set_range(he, i, NSEC_PER_MSEC * (i + 1), now);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);

	/* 1001 items; the hottest 1/8 (125) are never offered. */
	count = hot_shrink_count(fs->hi->shrinker, &sc);
	KUNIT_EXPECT_EQ(test, count, 1001 - 1001 / HOT_SHRINK_KEEP);
	sc.nr_to_scan = count;
	KUNIT_EXPECT_EQ(test, hot_shrink_scan(fs->hi->shrinker, &sc), count);
	/*
	 * Coldest bucket first; the order within a bucket (four per doubling
	 * of the gap) is not defined: ranges with gaps up to 100 ms are in
	 * buckets hotter than the one of the 125th, from 150 ms colder.
	 */
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 0));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 99));
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 149));
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 999));

	/*
	 * Shrinking again and again (drop_caches) frees nothing more: the
	 * floor is an eighth of what the last pass saw, not of what is left.
	 */
	do {
		sc.nr_to_scan = hot_shrink_count(fs->hi->shrinker, &sc);
	} while (sc.nr_to_scan && hot_shrink_scan(fs->hi->shrinker, &sc) !=
				  SHRINK_STOP);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges) +
			atomic_long_read(&fs->hi->nr_inodes),
			1001 / HOT_SHRINK_KEEP);
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 99));

	/* Each pass lowers the floor to an eighth of what is left. */
	xa_for_each(&he->ranges, idx, hr)
		hot_kunit_set_range(he, idx, NSEC_PER_MSEC * (idx + 1), now);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, hot_shrink_count(fs->hi->shrinker, &sc),
			1001 / HOT_SHRINK_KEEP - HOT_SHRINK_KEEP_MIN);
	sc.nr_to_scan = hot_shrink_count(fs->hi->shrinker, &sc);
	hot_shrink_scan(fs->hi->shrinker, &sc);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges) +
			atomic_long_read(&fs->hi->nr_inodes),
			HOT_SHRINK_KEEP_MIN);
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 0));
	KUNIT_EXPECT_NOT_NULL(test, xa_load(&he->ranges, 40));
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 99));
}

struct hot_kunit_spot {
	u32 temp[8];
	int n;
};

static void hot_kunit_spot_one(void *arg, const struct hot_inode_key *key,
			       unsigned long index, const struct hot_freq *freq,
			       u32 temp)
{
	struct hot_kunit_spot *spot = arg;

	if (spot->n < ARRAY_SIZE(spot->temp))
		spot->temp[spot->n++] = temp;
}

static void hot_spot_order_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	u64 now = hot_clock_ns() + 1000ULL * NSEC_PER_SEC;
	struct hot_kunit_spot spot = {};
	struct hot_inode_item *he;
	int i;

	/*
	 * Gaps of 1.10 to 1.17 ms, coldest first in the file: one heat-map
	 * bucket, which the pass must sort hottest first.
	 */
	hot_kunit_io(fs->inode[0], 0, 8 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	for (i = 0; i < 8; i++)
		hot_kunit_set_range(he, i, NSEC_PER_MSEC * (1170 - 10 * i) / 1000,
				    now);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
	hot_track_spot(fs->hi, true, 8, hot_kunit_spot_one, &spot);
	KUNIT_ASSERT_EQ(test, spot.n, 8);
	KUNIT_EXPECT_EQ(test, hot_temp_bucket(spot.temp[0]),
			hot_temp_bucket(spot.temp[7]));
	for (i = 1; i < 8; i++)
		KUNIT_EXPECT_GT(test, spot.temp[i - 1], spot.temp[i]);
}

/* The exported lookups for filesystems that move data by heat. */
static void hot_hot_ranges_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	u64 now = hot_clock_ns() + 1000ULL * NSEC_PER_SEC;
	struct hot_inode_key key = { .root = 0, .ino = 100 };
	struct hot_range_ref refs[8];
	struct hot_inode_item *he;
	u32 temp, min_temp;
	int i, n;

	/* Ranges 0..5: range i read every (i + 1) ms, so range 0 is hottest. */
	hot_kunit_io(fs->inode[0], 0, 6 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	for (i = 0; i < 6; i++)
		hot_kunit_set_range(he, i, (i + 1) * NSEC_PER_MSEC, now);
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, 0, 0, refs, 8), 0);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);

	n = hot_track_hot_ranges(fs->sb, 0, 0, refs, 8);
	KUNIT_ASSERT_EQ(test, n, 6);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, refs[i].index, i);
		KUNIT_EXPECT_EQ(test, refs[i].key.ino, 100);
		KUNIT_EXPECT_EQ(test, refs[i].nr_reads, 10);
		KUNIT_EXPECT_EQ(test, refs[i].nr_writes, 0);
		KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &key, i, &temp),
				0);
		KUNIT_EXPECT_EQ(test, temp, refs[i].temp);
		if (i)
			KUNIT_EXPECT_GT(test, refs[i - 1].temp, refs[i].temp);
	}

	/* A threshold inside the list, and paging through what passes it. */
	min_temp = refs[3].temp;
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, min_temp, 0, refs, 8),
			4);
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, min_temp, 1, refs, 2),
			2);
	KUNIT_EXPECT_EQ(test, refs[0].index, 1);
	KUNIT_EXPECT_EQ(test, refs[1].index, 2);
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, min_temp, 3, refs, 8),
			1);
	KUNIT_EXPECT_EQ(test, refs[0].index, 3);
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, min_temp, 4, refs, 8),
			0);
	KUNIT_EXPECT_EQ(test, hot_track_hot_ranges(fs->sb, U32_MAX, 0, refs, 8),
			0);

	/* Untracked ranges and files. */
	KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &key, 6, &temp),
			-ENODATA);
	key.root = 1;
	KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &key, 0, &temp),
			-ENODATA);
}

/*
 * hot_track_count_temp() is the temperature an update pass gives a range
 * read that many times in it and never before; the shorter the passes,
 * the hotter a count.
 */
static void hot_count_temp_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	const u64 s = NSEC_PER_SEC, now = hot_clock_ns() + 1000 * s;
	unsigned int delay = READ_ONCE(sysctl_hot_update_delay);
	static const u32 nr[] = { 4, 5, 10 };
	struct hot_range_ref refs[4];
	struct super_block *none;
	u64 pass;
	u32 temp;
	int i, j, n;

	for (i = 0; i < ARRAY_SIZE(nr); i++)
		for (j = 0; j < nr[i]; j++)
			hot_kunit_io(fs->inode[0], (loff_t)i * SZ_1M, SZ_4K, READ);
	/* A pass of 10 s: those counts are above the idle rate. */
	WRITE_ONCE(sysctl_hot_update_delay, 10);
	hot_kunit_pass(fs->hi, now, U64_MAX);
	WRITE_ONCE(sysctl_hot_update_delay, delay);
	KUNIT_ASSERT_EQ(test, fs->hi->pass.len, 10 * s);
	n = hot_track_hot_ranges(fs->sb, 0, 0, refs, ARRAY_SIZE(refs));
	KUNIT_ASSERT_EQ(test, n, ARRAY_SIZE(nr));
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, refs[i].nr_reads, nr[n - 1 - i]);
		KUNIT_EXPECT_EQ(test, refs[i].temp,
				hot_track_count_temp(fs->sb, refs[i].nr_reads,
						     &pass));
		KUNIT_EXPECT_EQ(test, pass, now);
	}
	/* No pass to tell while one reorders the heat maps. */
	fs->hi->map_seq++;
	hot_track_count_temp(fs->sb, 5, &pass);
	KUNIT_EXPECT_EQ(test, pass, 0);
	fs->hi->map_seq++;
	hot_track_count_temp(fs->sb, 5, &pass);
	KUNIT_EXPECT_EQ(test, pass, now);

	/* Five reads in a pass of 10 s: one read per 4 s. */
	temp = hot_track_count_temp(fs->sb, 5, NULL);
	KUNIT_EXPECT_GE(test, temp, 0x78000000U);
	KUNIT_EXPECT_LT(test, temp, 0x79000000U);
	KUNIT_EXPECT_LT(test, hot_track_count_temp(fs->sb, 4, NULL), temp);
	KUNIT_EXPECT_GT(test, hot_track_count_temp(fs->sb, 10, NULL), temp);
	KUNIT_EXPECT_EQ(test, hot_track_count_temp(fs->sb, 0, NULL), 0);
	/* In a pass of 1 s, more than one read per 0.76 s (0x82000000). */
	WRITE_ONCE(fs->hi->pass.len, s);
	KUNIT_EXPECT_GT(test, hot_track_count_temp(fs->sb, 5, NULL),
			0x82000000U);

	none = kunit_kzalloc(test, sizeof(*none), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, none);
	pass = 1;
	KUNIT_EXPECT_EQ(test, hot_track_count_temp(none, 5, &pass), 0);
	KUNIT_EXPECT_EQ(test, pass, 0);
}

static void hot_mute_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;

	hot_track_mute_range(fs->inode[0], 1, true);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);

	/* I/O to the muted range alone: nothing, not even the file. */
	hot_kunit_io(fs->inode[0], SZ_1M, SZ_1M, READ);
	hot_kunit_io(fs->inode[0], SZ_1M + 4096, 4096, WRITE);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 0);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 0);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 1));

	/* Across it: its neighbours and the file count. */
	hot_kunit_io(fs->inode[0], 0, 3 * SZ_1M, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 1));
	KUNIT_ASSERT_NOT_NULL(test, xa_load(&he->ranges, 2));
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)xa_load(&he->ranges, 2))
			->freq.nr_reads, 1);

	/* Another file is not muted; resuming another range changes nothing. */
	hot_kunit_io(fs->inode[1], SZ_1M, 4096, READ);
	KUNIT_EXPECT_NOT_NULL(test, hot_kunit_item(fs, 1));
	hot_track_mute_range(fs->inode[0], 2, false);
	hot_kunit_io(fs->inode[0], SZ_1M, 4096, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);

	/* Resumed: counted again. */
	hot_track_mute_range(fs->inode[0], 1, false);
	hot_kunit_io(fs->inode[0], SZ_1M, 4096, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 2);
	KUNIT_ASSERT_NOT_NULL(test, xa_load(&he->ranges, 1));
	KUNIT_EXPECT_EQ(test, he->muted, 0);
}

/* Accesses per thread of hot_concurrent_test, and the ranges they cycle over. */
#define HOT_KUNIT_ACCESSES	20000
#define HOT_KUNIT_RANGES	8

/*
 * Reads and writes but the first of each item, and the first after half a
 * second, go to this CPU's slots until a drain: the update pass,
 * hot_track_drain(); the heat of one file (hot_track_get_freq()) shows
 * them without taking them.  Writeback and muted files count at once.
 */
static void hot_pcp_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	struct hot_freq freq;
	u64 r, w;
	u32 temp;
	int i;

	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	rcu_read_lock();
	he = hot_inode_lookup(fs->hi, fs->inode[0]);
	rcu_read_unlock();
	KUNIT_ASSERT_NOT_NULL(test, he);
	hr = xa_load(&he->ranges, 0);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);

	hot_kunit_fresh(he, &he->freq);
	hot_kunit_fresh(he, &hr->freq);
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	hot_track_io(fs->inode[0], 0, SZ_4K, WRITE);
	hot_track_io(fs->inode[0], 0, SZ_4K, WRITE);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);

	/* The heat of one file shows what its slots hold, and leaves it. */
	KUNIT_EXPECT_EQ(test, hot_track_get_freq(fs->inode[0], &freq, true,
						 &temp, &r, &w), 0);
	KUNIT_EXPECT_EQ(test, freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, freq.nr_writes, 2);
	KUNIT_EXPECT_EQ(test, freq.pending, 4);
	KUNIT_EXPECT_EQ(test, r, w);
	KUNIT_EXPECT_GT(test, temp, 0);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, 2);

	/* An update pass folds them too. */
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	hot_kunit_pass(fs->hi, hot_clock_ns(), 3600ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 3);

	/*
	 * Idle for a second: the next access counts at once, so that a pass
	 * between it and the next drain does not find the items idle.
	 */
	xa_lock(&he->ranges);
	he->freq.last_read_time = hot_clock_ns() - NSEC_PER_SEC;
	he->freq.last_write_time = he->freq.last_read_time;
	hr->freq.last_read_time = he->freq.last_read_time;
	hr->freq.last_write_time = he->freq.last_read_time;
	xa_unlock(&he->ranges);
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 4);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 4);

	/* While a range is muted the file's I/O counts under its lock. */
	hot_track_mute_range(fs->inode[0], 5, true);
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 5);
	hot_track_mute_range(fs->inode[0], 5, false);

	/* More items than slots: all counted once folded. */
	for (i = 0; i < 2 * HOT_PCP_SLOTS; i++)
		hot_track_io(fs->inode[1], (loff_t)i * SZ_1M, SZ_4K, READ);
	for (i = 0; i < 2 * HOT_PCP_SLOTS; i++)
		hot_track_io(fs->inode[1], (loff_t)i * SZ_1M, SZ_4K, READ);
	he = hot_kunit_item(fs, 1);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 4 * HOT_PCP_SLOTS);
	for (i = 0; i < 2 * HOT_PCP_SLOTS; i++) {
		hr = xa_load(&he->ranges, i);
		KUNIT_ASSERT_NOT_NULL(test, hr);
		KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 2);
	}
}

/*
 * Accesses still in slots are not counted for another item: not for the
 * next file of a deleted file's number, nor for a range made again after
 * the shrinker freed it, whose file gets them; and nothing freed is
 * touched (KASAN).
 */
static void hot_pcp_gone_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	bool more;
	u32 nr;

	hot_track_io(fs->inode[0], 0, 3 * SZ_1M, READ);
	hot_track_io(fs->inode[0], 0, 3 * SZ_1M, READ);
	/*
	 * The next file of that number, of another generation (and so, in
	 * this filesystem, another root), made while the RCU read section
	 * keeps the deleted one's items from being freed: at another address.
	 * (A range item made at the address of a freed one may get what a
	 * slot held for that item.)
	 */
	rcu_read_lock();
	fs->inode[0]->__i_nlink = 0;
	hot_track_evict_inode(fs->inode[0]);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 0);
	fs->inode[0]->__i_nlink = 1;
	fs->inode[0]->i_generation++;
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	rcu_read_unlock();
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, ((struct hot_range_item *)
			       xa_load(&he->ranges, 0))->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 1);

	/* Range 1 read thrice, freed with its third read in a slot, read again. */
	hot_track_io(fs->inode[0], SZ_1M, SZ_4K, READ);
	hr = xa_load(&he->ranges, 1);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	hot_kunit_fresh(he, &hr->freq);
	hot_track_io(fs->inode[0], SZ_1M, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);
	hot_kunit_pass(fs->hi, hot_clock_ns(), 3600ULL * NSEC_PER_SEC);
	nr = he->freq.nr_reads;
	hot_kunit_fresh(he, &he->freq);
	hot_track_io(fs->inode[0], SZ_1M, SZ_4K, READ);
	/* Freed and made again in one RCU read section: at another address. */
	rcu_read_lock();
	KUNIT_EXPECT_EQ(test, hot_evict_coldest(fs->hi, 2, &more), 2);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 1));
	hot_track_io(fs->inode[0], SZ_1M, SZ_4K, READ);
	rcu_read_unlock();
	hr = xa_load(&he->ranges, 1);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 1);
	/* The file counts both reads, the one in the freed range's slot too. */
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, nr + 2);
}

/*
 * The slots of one item on two CPUs add up: every access counts once, the
 * latest time stands, and the pass folds them into the score.
 */
static void hot_pcp_merge_test(struct kunit *test)
{
	const u64 ms = NSEC_PER_MSEC;
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	struct hot_pcp_slot *s;
	int cpu, n = 0;
	u64 last;
	u32 h;

	if (num_possible_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	hot_kunit_io(fs->inode[0], 0, SZ_4K, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	hr = xa_load(&he->ranges, 0);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	h = hot_pcp_hash(&he->key, 0);
	last = he->freq.last_read_time;
	for_each_possible_cpu(cpu) {
		if (n == 2)
			break;
		s = &per_cpu_ptr(fs->hi->pcp, cpu)->slot[h];
		hot_pcp_lock(s);
		KUNIT_EXPECT_FALSE(test, hot_pcp_busy(s));
		/* Accesses to range 0, of which those of the inode 40 and n. */
		*s = (struct hot_pcp_slot){
			.item = READ_ONCE(s->item),
			.key = he->key, .generation = he->generation,
			.index = 0, .nr_reads = 50, .nr_writes = n + 1,
			.nr_inode_reads = 40, .nr_inode_writes = n,
			.last_read_time = last + (n ? 1000 : 990) * ms,
			.last_write_time = last + (n ? 5 : 3) * ms,
		};
		hot_pcp_set_item(s, hr);
		hot_pcp_unlock(s);
		n++;
	}
	/* The same key, another generation: another file's, not counted. */
	cpu = cpumask_first(cpu_possible_mask);
	s = &per_cpu_ptr(fs->hi->pcp, cpu)->slot[hot_pcp_hash(&he->key, 1)];
	hot_pcp_lock(s);
	if (!hot_pcp_busy(s)) {
		*s = (struct hot_pcp_slot){
			.item = READ_ONCE(s->item),
			.key = he->key, .generation = he->generation + 1,
			.index = 1, .nr_reads = 7, .nr_inode_reads = 7,
			.last_read_time = last,
		};
		hot_pcp_set_item(s, hr);
	}
	hot_pcp_unlock(s);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 101);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, 3);
	KUNIT_EXPECT_EQ(test, hr->freq.pending, 104);
	KUNIT_EXPECT_EQ(test, hr->freq.last_read_time, last + 1000 * ms);
	KUNIT_EXPECT_EQ(test, hr->freq.last_write_time, last + 5 * ms);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 81);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, 1);
	KUNIT_EXPECT_EQ(test, he->freq.pending, 82);
	KUNIT_EXPECT_EQ(test, he->freq.last_read_time, last + 1000 * ms);
	KUNIT_EXPECT_EQ(test, he->freq.last_write_time, last + 5 * ms);
	hot_kunit_pass(fs->hi, hot_clock_ns(), 3600ULL * NSEC_PER_SEC);
	KUNIT_EXPECT_EQ(test, he->freq.pending, 0);
	KUNIT_EXPECT_EQ(test, he->freq.score, 82U << (HOT_SCORE_SHIFT - 1));
	KUNIT_EXPECT_EQ(test, hr->freq.score, 104U << (HOT_SCORE_SHIFT - 1));
}

/*
 * Make range j of file @a, the first from @from whose slot is that of range
 * 0 of file @b (and not that of @a's inode), and stamp both ranges ahead.
 * Return: j, or 0 if there is none below 4096 or a file has no item; the
 * two range items in @ha and @hb.
 */
static u32 hot_kunit_collide(struct hot_kunit_fs *fs, int a, int b, u32 from,
			     struct hot_range_item **ha,
			     struct hot_range_item **hb)
{
	struct hot_inode_item *hea = hot_kunit_item(fs, a);
	struct hot_inode_item *heb = hot_kunit_item(fs, b);
	u32 h, j;

	if (!hea || !heb)
		return 0;
	h = hot_pcp_hash(&heb->key, 0);
	for (j = from; j < 4096; j++)
		if (hot_pcp_hash(&hea->key, j) == h &&
		    hot_pcp_hash(&hea->key, HOT_PCP_INODE) != h)
			break;
	if (j == 4096)
		return 0;
	hot_kunit_io(fs->inode[a], (loff_t)j * SZ_1M, SZ_4K, READ);
	*ha = xa_load(&hea->ranges, j);
	*hb = xa_load(&heb->ranges, 0);
	if (!*ha || !*hb)
		return 0;
	hot_kunit_fresh(hea, &(*ha)->freq);
	hot_kunit_fresh(heb, &(*hb)->freq);
	return j;
}

/*
 * An item whose slot holds another item on this CPU is counted under its
 * lock at once; the holder keeps the slot until the drain.
 */
static void hot_pcp_busy_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_range_item *h0, *hj;
	u32 j;

	hot_kunit_io(fs->inode[0], 0, SZ_4K, READ);
	hot_kunit_io(fs->inode[1], 0, SZ_4K, READ);
	/* A range of the second file with the slot of the first's range 0. */
	j = hot_kunit_collide(fs, 1, 0, 1, &hj, &h0);
	KUNIT_ASSERT_NE(test, j, 0);

	migrate_disable();
	hot_track_io(fs->inode[0], 0, SZ_4K, READ);
	hot_track_io(fs->inode[1], (loff_t)j * SZ_1M, SZ_4K, READ);
	hot_track_io(fs->inode[1], (loff_t)j * SZ_1M, SZ_4K, READ);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, h0->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hj->freq.nr_reads, 3);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, h0->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hj->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, hot_kunit_item(fs, 0)->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hot_kunit_item(fs, 1)->freq.nr_reads, 4);
}

/*
 * A read that begins in one of a file's first HOT_PCP_HOME ranges, whose
 * slot holds another file's range, counts for the range and the file
 * under the lock at once.
 */
static void hot_pcp_busy_home_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_inode_item *he0, *he1;
	struct hot_range_item *h0, *hj;
	u32 j;

	hot_kunit_io(fs->inode[0], 0, SZ_4K, READ);
	hot_kunit_io(fs->inode[1], 0, SZ_4K, READ);
	/* A range of the first file, past its first ones, on that slot. */
	j = hot_kunit_collide(fs, 0, 1, HOT_PCP_HOME, &hj, &h0);
	KUNIT_ASSERT_NE(test, j, 0);
	he0 = hot_kunit_item(fs, 0);
	he1 = hot_kunit_item(fs, 1);
	hot_kunit_fresh(he0, &he0->freq);
	hot_kunit_fresh(he1, &he1->freq);

	migrate_disable();
	hot_track_io(fs->inode[0], (loff_t)j * SZ_1M, SZ_4K, READ);
	hot_track_io(fs->inode[1], 0, SZ_4K, READ);
	migrate_enable();
	KUNIT_EXPECT_EQ(test, h0->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, he1->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hj->freq.nr_reads, 1);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, hj->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, he0->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, he1->freq.nr_reads, 2);
}

/*
 * A request over several ranges counts once for the inode: in the slot of
 * its first range if that is one of the first HOT_PCP_HOME, else in the
 * inode's; the last range number is counted under the lock; the heat of
 * the file shows every slot's share before a drain.
 */
static void hot_pcp_span_test(struct kunit *test)
{
	const loff_t last = (loff_t)HOT_RANGE_INDEX_MAX << HOT_RANGE_SHIFT;
	const loff_t far = (loff_t)HOT_PCP_HOME << HOT_RANGE_SHIFT;
	struct hot_kunit_fs *fs = test->priv;
	struct hot_range_item *hr[4];
	static const u32 index[4] = { 0, 1, 2, HOT_PCP_HOME };
	struct hot_inode_item *he;
	struct hot_freq freq;
	u64 r, w;
	u32 temp;
	int i;

	hot_kunit_io(fs->inode[0], 0, 3 * SZ_1M, READ);
	hot_kunit_io(fs->inode[0], far, SZ_4K, READ);
	hot_kunit_io(fs->inode[0], last, SZ_4K, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	for (i = 0; i < 4; i++) {
		hr[i] = xa_load(&he->ranges, index[i]);
		KUNIT_ASSERT_NOT_NULL(test, hr[i]);
		hot_kunit_fresh(he, &hr[i]->freq);
	}
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 3);
	hot_kunit_fresh(he, &he->freq);
	/* The slots these reads take are apart, or one would count at once. */
	for (i = 0; i < 4; i++)
		if (hot_pcp_hash(&he->key, index[i]) ==
		    hot_pcp_hash(&he->key, HOT_PCP_INODE) ||
		    (i && hot_pcp_hash(&he->key, index[i]) ==
			  hot_pcp_hash(&he->key, 0)))
			kunit_skip(test, "slots of this key collide");

	/*
	 * Home ranges, far ones, past the last one: in slots, but range 17,
	 * new, under the lock.
	 */
	hot_track_io(fs->inode[0], 0, 3 * SZ_1M, READ);
	hot_track_io(fs->inode[0], SZ_1M, 2 * SZ_1M, READ);
	hot_track_io(fs->inode[0], far, SZ_4K, READ);
	hot_track_io(fs->inode[0], far, 2 * SZ_1M, READ);
	hot_track_io(fs->inode[0], last + SZ_1M, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, hr[1]->freq.nr_reads, 1);
	KUNIT_EXPECT_EQ(test, hot_track_get_freq(fs->inode[0], &freq, true,
						 &temp, &r, &w), 0);
	KUNIT_EXPECT_EQ(test, freq.nr_reads, 8);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 8);
	KUNIT_EXPECT_EQ(test, hr[0]->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, hr[1]->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, hr[2]->freq.nr_reads, 3);
	KUNIT_EXPECT_EQ(test, hr[3]->freq.nr_reads, 3);

	/* Range U32_MAX is counted at once, the inode in its slot. */
	hr[0] = xa_load(&he->ranges, HOT_RANGE_INDEX_MAX);
	KUNIT_ASSERT_NOT_NULL(test, hr[0]);
	hot_kunit_fresh(he, &hr[0]->freq);
	hot_track_io(fs->inode[0], last, SZ_4K, READ);
	KUNIT_EXPECT_EQ(test, hr[0]->freq.nr_reads, 2);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 8);
	hot_track_drain(fs->hi);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 9);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges), 6);
}

struct hot_kunit_thread {
	struct inode *inode;
	struct completion *go;
	struct completion done;
};

static int hot_kunit_thread_fn(void *arg)
{
	struct hot_kunit_thread *t = arg;
	unsigned int i;

	wait_for_completion(t->go);
	for (i = 0; i < HOT_KUNIT_ACCESSES; i++)
		hot_track_io(t->inode, (loff_t)(i / 2 % HOT_KUNIT_RANGES) * SZ_1M,
			     SZ_4K, i % 2 ? WRITE : READ);
	complete(&t->done);
	return 0;
}

/*
 * A thread per CPU records on one file while update passes and lookups run
 * beside them: no access is lost or counted twice, on weakly ordered and
 * 32-bit machines too.
 */
static void hot_concurrent_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	unsigned int nr = max(num_online_cpus(), 2U), started = 0, i;
	u32 each = nr * HOT_KUNIT_ACCESSES / HOT_KUNIT_RANGES / 2, temp;
	DECLARE_COMPLETION_ONSTACK(go);
	struct hot_kunit_thread *t;
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	struct task_struct *task;
	unsigned int passes = 0;
	struct hot_freq freq;
	bool busy = true;
	u64 r, w;

	t = kunit_kcalloc(test, nr, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < nr; i++) {
		t[i].inode = fs->inode[0];
		t[i].go = &go;
		init_completion(&t[i].done);
		task = kthread_run(hot_kunit_thread_fn, &t[i], "hot_kunit/%u", i);
		if (IS_ERR(task))
			break;
		started++;
	}
	complete_all(&go);
	/* The threads wait on @go, on this stack: let them finish first. */
	while (busy) {
		hot_kunit_pass(fs->hi, hot_clock_ns(), 3600ULL * NSEC_PER_SEC);
		hot_track_get_freq(fs->inode[0], &freq, true, &temp, &r, &w);
		passes++;
		cond_resched();
		busy = false;
		for (i = 0; i < started; i++)
			busy |= !completion_done(&t[i].done);
	}
	KUNIT_ASSERT_EQ(test, started, nr);
	kunit_info(test, "%u threads, %u update passes beside them\n", nr,
		   passes);
	/* What the threads counted in slots after the last pass's drain. */
	hot_track_drain(fs->hi);

	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, nr * HOT_KUNIT_ACCESSES / 2);
	KUNIT_EXPECT_EQ(test, he->freq.nr_writes, nr * HOT_KUNIT_ACCESSES / 2);
	for (i = 0; i < HOT_KUNIT_RANGES; i++) {
		hr = xa_load(&he->ranges, i);
		KUNIT_ASSERT_NOT_NULL(test, hr);
		KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, each);
		KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, each);
	}
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_inodes), 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->nr_ranges),
			HOT_KUNIT_RANGES);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&fs->hi->mem),
			hot_kunit_mem(fs->hi, 1, HOT_KUNIT_RANGES, 1));
}

struct hot_kunit_drainer {
	struct hot_info *hi;
	bool stop;
	struct completion done;
};

static int hot_kunit_drain_fn(void *arg)
{
	struct hot_kunit_drainer *d = arg;

	while (!READ_ONCE(d->stop)) {
		hot_track_drain(d->hi);
		cond_resched();
	}
	complete(&d->done);
	return 0;
}

/*
 * The heat of a file (hot_track_get_freq()) counts every access made before
 * it while drains move them from the slots to the item beside it: each is
 * in the one or the other when read.
 */
static void hot_live_drain_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_kunit_drainer d = { .hi = fs->hi };
	struct task_struct *task;
	unsigned int i, missed = 0;
	struct hot_freq freq;
	u64 r, w;
	u32 temp;

	/* On one CPU the drain never runs inside the reader's window. */
	if (num_online_cpus() < 2)
		kunit_skip(test, "needs two CPUs");
	init_completion(&d.done);
	task = kthread_run(hot_kunit_drain_fn, &d, "hot_kunit/drain");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	for (i = 1; i <= HOT_KUNIT_ACCESSES; i++) {
		hot_track_io(fs->inode[0], 0, SZ_4K, READ);
		if (hot_track_get_freq(fs->inode[0], &freq, false, &temp, &r,
				       &w) || freq.nr_reads != i)
			missed++;
		cond_resched();
	}
	/* @d is on this stack: let the drain finish first. */
	WRITE_ONCE(d.stop, true);
	wait_for_completion(&d.done);
	KUNIT_EXPECT_EQ(test, missed, 0);
}

/* Page through the ranges @max at a time; the number listed, or -errno. */
static int hot_kunit_query_all(struct hot_kunit_fs *fs, bool ranges,
			       unsigned int max, struct hot_item_rec *recs,
			       unsigned int room, u32 *oflags)
{
	u64 cursor[4] = {}, pass;
	unsigned int n = 0;
	int ret;

	*oflags = 0;
	do {
		ret = hot_track_query(fs->sb, ranges, cursor, recs + n,
				      min(max, room - n), oflags, &pass);
		if (ret < 0)
			return ret;
		n += ret;
	} while (!(*oflags & HOT_QUERY_END) && n < room);
	return n;
}

/* FS_IOC_GET_HOT_ITEMS's walk: the order of the maps, pages, cursors. */
static void hot_query_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	u64 now = hot_clock_ns() + 1000ULL * NSEC_PER_SEC;
	struct hot_range_ref refs[8];
	struct hot_item_rec *recs;
	struct hot_inode_item *he;
	u64 cursor[4] = {}, pass;
	u32 oflags = 0;
	bool more;
	int i, n;

	recs = kunit_kcalloc(test, 16, sizeof(*recs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, recs);
	/* Ranges 0..5, range i read every (i + 1) ms: range 0 hottest. */
	hot_kunit_io(fs->inode[0], 0, 6 * SZ_1M, READ);
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	for (i = 0; i < 6; i++)
		hot_kunit_set_range(he, i, (i + 1) * NSEC_PER_MSEC, now);

	/* No pass yet: nothing is in the heat maps. */
	KUNIT_EXPECT_EQ(test, hot_kunit_query_all(fs, true, 4, recs, 16,
						  &oflags), 0);
	KUNIT_EXPECT_EQ(test, oflags, HOT_QUERY_END);

	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
	n = hot_track_hot_ranges(fs->sb, 0, 0, refs, 8);
	KUNIT_ASSERT_EQ(test, n, 6);
	/* Pages of one, two, or all: the order of hot_track_hot_ranges(). */
	for (i = 1; i <= 8; i *= 2) {
		KUNIT_ASSERT_EQ(test, hot_kunit_query_all(fs, true, i, recs, 16,
							  &oflags), 6);
		KUNIT_EXPECT_EQ(test, oflags, HOT_QUERY_END);
		for (n = 0; n < 6; n++) {
			KUNIT_EXPECT_EQ(test, recs[n].offset,
					(u64)refs[n].index << HOT_RANGE_SHIFT);
			KUNIT_EXPECT_EQ(test, recs[n].temp, refs[n].temp);
			KUNIT_EXPECT_EQ(test, recs[n].ino, 100);
			KUNIT_EXPECT_EQ(test, recs[n].flags, HOT_REC_RANGE);
			KUNIT_EXPECT_EQ(test, recs[n].num_reads, 10);
			KUNIT_EXPECT_EQ(test, recs[n].write_age, HOT_AGE_NEVER);
		}
	}

	/* A page ends at range 1; range 1 and range 3 go; the rest follow. */
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 2,
					      &oflags, &pass), 2);
	KUNIT_EXPECT_EQ(test, recs[1].offset, SZ_1M);
	spin_lock(&fs->hi->map_lock);
	xa_lock(&he->ranges);
	hot_range_erase(fs->hi, he, xa_load(&he->ranges, 1));
	hot_range_erase(fs->hi, he, xa_load(&he->ranges, 3));
	xa_unlock(&he->ranges);
	spin_unlock(&fs->hi->map_lock);
	hot_mem_add(fs->hi, hot_range_cachep, -2);
	oflags = 0;
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 8,
					      &oflags, &pass), 3);
	KUNIT_EXPECT_EQ(test, oflags, HOT_QUERY_END);
	KUNIT_EXPECT_EQ(test, recs[0].offset, 2 * SZ_1M);
	KUNIT_EXPECT_EQ(test, recs[1].offset, 4 * SZ_1M);
	KUNIT_EXPECT_EQ(test, recs[2].offset, 5 * SZ_1M);

	/* A pass between two pages is said. */
	memset(cursor, 0, sizeof(cursor));
	oflags = 0;
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 1,
					      &oflags, &pass), 1);
	KUNIT_EXPECT_EQ(test, oflags, 0);
	/* The same accesses again, for the pass to keep the order. */
	for (i = 0; i < 6; i++)
		if (i != 1 && i != 3)
			hot_kunit_set_range(he, i, (i + 1) * NSEC_PER_MSEC,
					    now);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 8,
					      &oflags, &pass), 3);
	KUNIT_EXPECT_EQ(test, oflags, HOT_QUERY_REORDERED | HOT_QUERY_END);

	/* A cursor of ranges is no cursor of files, nor one made up. */
	KUNIT_EXPECT_EQ(test, hot_track_query(fs->sb, false, cursor, recs, 8,
					      &oflags, &pass), -EINVAL);
	cursor[0] = 1;
	KUNIT_EXPECT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 8,
					      &oflags, &pass), -EINVAL);

	/* Files: the one file, whose generation was kept. */
	KUNIT_ASSERT_EQ(test, hot_kunit_query_all(fs, false, 1, recs, 16,
						  &oflags), 1);
	KUNIT_EXPECT_EQ(test, recs[0].flags, 0);
	KUNIT_EXPECT_EQ(test, recs[0].offset, 0);
	KUNIT_EXPECT_EQ(test, recs[0].generation, fs->inode[0]->i_generation);

	/* The place of a gone item in a bucket in no order is no place. */
	memset(cursor, 0, sizeof(cursor));
	oflags = 0;
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, true, cursor, recs, 1,
					      &oflags, &pass), 1);
	spin_lock(&fs->hi->map_lock);
	__set_bit(hot_temp_bucket(recs[0].temp), fs->hi->range_unsorted);
	xa_lock(&he->ranges);
	hot_range_erase(fs->hi, he, xa_load(&he->ranges, 0));
	xa_unlock(&he->ranges);
	spin_unlock(&fs->hi->map_lock);
	hot_mem_add(fs->hi, hot_range_cachep, -1);
	KUNIT_EXPECT_GE(test, hot_track_query(fs->sb, true, cursor, recs, 8,
					      &oflags, &pass), 0);
	KUNIT_EXPECT_TRUE(test, oflags & HOT_QUERY_REORDERED);

	/* Eviction that moves files behind others of their bucket is said. */
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
	memset(cursor, 0, sizeof(cursor));
	oflags = 0;
	KUNIT_ASSERT_EQ(test, hot_track_query(fs->sb, false, cursor, recs, 1,
					      &oflags, &pass), 1);
	KUNIT_EXPECT_EQ(test, oflags, 0);
	/* A range no pass mapped yet keeps the file from being freed. */
	hot_kunit_io(fs->inode[0], 7 * SZ_1M, 1, READ);
	hot_evict_coldest(fs->hi, HOT_EVICT_BATCH, &more);
	KUNIT_ASSERT_NOT_NULL(test, hot_kunit_item(fs, 0));
	oflags = 0;
	KUNIT_EXPECT_EQ(test, hot_track_query(fs->sb, false, cursor, recs, 8,
					      &oflags, &pass), 0);
	KUNIT_EXPECT_EQ(test, oflags, HOT_QUERY_REORDERED | HOT_QUERY_END);
	hot_kunit_pass(fs->hi, now, 60ULL * NSEC_PER_SEC);
}

/* FS_IOC_SET_HEAT_INFO's load: counts add, ages become times, the cap. */
static void hot_load_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	struct hot_item_rec recs[2] = {
		{ .num_reads = 7, .avg_delta_reads = 4 * NSEC_PER_MSEC,
		  .read_age = 3ULL * NSEC_PER_SEC, .write_age = HOT_AGE_NEVER },
		{ .flags = HOT_REC_RANGE, .offset = 2 * SZ_1M, .num_reads = 5,
		  .avg_delta_reads = 2 * NSEC_PER_MSEC, .read_age = U64_MAX - 1,
		  .num_writes = U32_MAX, .avg_delta_writes = NSEC_PER_SEC,
		  .write_age = NSEC_PER_SEC },
	};
	struct hot_inode_item *he;
	struct hot_range_item *hr;
	u64 before, after, r, w;
	struct hot_pass pass;

	before = hot_clock_coarse_ns();
	hot_kunit_io(fs->inode[0], 0, 1, READ);
	KUNIT_ASSERT_EQ(test, hot_track_load(fs->inode[0], recs, 2), 0);
	after = hot_clock_ns();
	he = hot_kunit_item(fs, 0);
	KUNIT_ASSERT_NOT_NULL(test, he);
	/* The file read once here: the saved rate adds to its own. */
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 8);
	KUNIT_EXPECT_GT(test, he->freq.score, 0);
	/* The later time: the read here, not the one 3 s ago. */
	KUNIT_EXPECT_GE(test, he->freq.last_read_time, before);
	hr = xa_load(&he->ranges, 2);
	KUNIT_ASSERT_NOT_NULL(test, hr);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 5);
	/* Reads too old to count; writes 1 s apart, 1 s ago: about 1 s. */
	pass = hot_pass_get(fs->hi);
	hot_freq_gaps(&pass, &hr->freq, hot_clock_ns(), &r, &w);
	KUNIT_EXPECT_GE(test, w, 9ULL * NSEC_PER_SEC / 10);
	KUNIT_EXPECT_LE(test, w, 12ULL * NSEC_PER_SEC / 10);
	/* Older than the clock reaches: as early as can be, not never. */
	KUNIT_EXPECT_EQ(test, hr->freq.last_read_time, 1);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, U32_MAX);
	KUNIT_EXPECT_GE(test, hr->freq.last_write_time, before - NSEC_PER_SEC);
	KUNIT_EXPECT_LE(test, hr->freq.last_write_time, after - NSEC_PER_SEC);
	/* A range no pass has seen has its temperature of now, not 0. */
	KUNIT_EXPECT_EQ(test, hot_track_range_temp(fs->sb, &he->key, 2,
						   &recs[0].temp), 0);
	KUNIT_EXPECT_GE(test, recs[0].temp,
			hot_temp(&pass, &hr->freq, hot_clock_ns()));
	KUNIT_EXPECT_GT(test, recs[0].temp, 0);

	/* Counts saturate. */
	KUNIT_ASSERT_EQ(test, hot_track_load(fs->inode[0], &recs[1], 1), 0);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_writes, U32_MAX);
	KUNIT_EXPECT_EQ(test, hr->freq.nr_reads, 10);

	/* At the cap nothing loads. */
	WRITE_ONCE(fs->hi->mem_max, atomic_long_read(&fs->hi->mem) + 1);
	recs[1].offset = 9 * SZ_1M;
	KUNIT_EXPECT_EQ(test, hot_track_load(fs->inode[0], recs, 2), -ENOSPC);
	KUNIT_EXPECT_NULL(test, xa_load(&he->ranges, 9));
	KUNIT_EXPECT_EQ(test, he->freq.nr_reads, 8);
}

/*
 * Data without an item is cold once tracking has been on for kick time,
 * and an item refused as long ago.
 */
static void hot_seen_all_test(struct kunit *test)
{
	struct hot_kunit_fs *fs = test->priv;
	unsigned int kick_secs = READ_ONCE(sysctl_hot_kick_time);
	u64 kick = (u64)kick_secs * NSEC_PER_SEC;

	KUNIT_EXPECT_FALSE(test, hot_track_seen_all(fs->sb));
	fs->hi->enabled_at = hot_clock_ns() - kick - 1;
	KUNIT_EXPECT_TRUE(test, hot_track_seen_all(fs->sb));
	/* A longer kick time set later does not undo it. */
	WRITE_ONCE(sysctl_hot_kick_time, kick_secs * 2);
	KUNIT_EXPECT_TRUE(test, hot_track_seen_all(fs->sb));
	WRITE_ONCE(sysctl_hot_kick_time, kick_secs);
	/* An item refused at the cap: data accessed now may have none. */
	WRITE_ONCE(fs->hi->mem_max, HOT_MEM_MAX_MIN);
	hot_kunit_io(fs->inode[0], 0, SZ_1M, READ);
	while (atomic_long_read(&fs->hi->mem) < HOT_MEM_MAX_MIN)
		hot_kunit_io(fs->inode[0],
			     (atomic_long_read(&fs->hi->nr_ranges) + 1) * SZ_1M,
			     1, READ);
	hot_kunit_io(fs->inode[1], 0, 1, READ);
	KUNIT_EXPECT_TRUE(test, fs->hi->refused);
	KUNIT_EXPECT_FALSE(test, hot_track_seen_all(fs->sb));
	fs->hi->refused_at = ktime_get_boottime_seconds() - kick_secs - 1;
	KUNIT_EXPECT_TRUE(test, hot_track_seen_all(fs->sb));
}

static struct kunit_case hot_track_test_cases[] = {
	KUNIT_CASE(hot_range_span_test),
	KUNIT_CASE(hot_freq_count_test),
	KUNIT_CASE(hot_score_fold_test),
	KUNIT_CASE(hot_log2_test),
	KUNIT_CASE(hot_temp_test),
	KUNIT_CASE(hot_gaps_test),
	KUNIT_CASE(hot_track_io_test),
	KUNIT_CASE(hot_internal_inode_test),
	KUNIT_CASE(hot_track_writeback_test),
	KUNIT_CASE(hot_track_lifetime_test),
	KUNIT_CASE(hot_index_nodes_test),
	KUNIT_CASE(hot_index_height_test),
	KUNIT_CASE(hot_index_leftover_test),
	KUNIT_CASE(hot_index_fits_test),
	KUNIT_CASE(hot_temp_bucket_test),
	KUNIT_CASE(hot_update_test),
	KUNIT_CASE(hot_new_item_test),
	KUNIT_CASE(hot_empty_node_test),
	KUNIT_CASE(hot_evict_batch_test),
	KUNIT_CASE(hot_mem_cap_test),
	KUNIT_CASE(hot_lock_batch_test),
	KUNIT_CASE(hot_fold_once_test),
	KUNIT_CASE(hot_pass_len_test),
	KUNIT_CASE(hot_update_resched_test),
	KUNIT_CASE(hot_shrink_test),
	KUNIT_CASE(hot_spot_order_test),
	KUNIT_CASE(hot_hot_ranges_test),
	KUNIT_CASE(hot_count_temp_test),
	KUNIT_CASE(hot_query_test),
	KUNIT_CASE(hot_load_test),
	KUNIT_CASE(hot_seen_all_test),
	KUNIT_CASE(hot_mute_test),
	KUNIT_CASE(hot_pcp_test),
	KUNIT_CASE(hot_pcp_gone_test),
	KUNIT_CASE(hot_pcp_merge_test),
	KUNIT_CASE(hot_pcp_busy_test),
	KUNIT_CASE(hot_pcp_busy_home_test),
	KUNIT_CASE(hot_pcp_span_test),
	KUNIT_CASE(hot_concurrent_test),
	KUNIT_CASE(hot_live_drain_test),
	{}
};

static struct kunit_suite hot_track_test_suite = {
	.name = "hot_track",
	.init = hot_kunit_init,
	.exit = hot_kunit_exit,
	.test_cases = hot_track_test_cases,
};

kunit_test_suite(hot_track_test_suite);
