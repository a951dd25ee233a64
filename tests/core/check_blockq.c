// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_blockq.c - The ring of event blocks of a parallel replay (lib/core/blockq.c): every
 * shard sees every block in the order published, one thread at a time, and after the leading
 * shard; a slot is not refilled before all shards put it back; the producer runs shards while
 * the ring is full, or waits if told not to; the end is seen after the last block; the leading
 * shard is taken first.
 */
#include "config.h"

#include <pthread.h>
#include <unistd.h>

#include "blockq.h"
#include "check_common.h"

#define NR_SLOTS 3
#define NR_SHARDS 4
#define NR_THREADS 3
#define NR_BLOCKS 1000

struct ring {
	struct blockq *q;
	uint64_t seen[NR_SHARDS];     /* blocks each shard took */
	uint64_t bad[NR_SHARDS];      /* those whose number was not the shard's next one */
	uint64_t early;               /* blocks taken before shard 0 (leading) put them back */
	uint64_t led;                 /* blocks shard 0 put back (under q->lock) */
};

/* Shard @s took block @k, @b: check it and put it back. Each block holds its own number: a
 * shard must find 0, 1, 2, ... */
static void check_block(struct ring *r, const uint64_t *b, unsigned int s, uint64_t k)
{
	r->bad[s] += *b != r->seen[s] || k != r->seen[s];
	r->seen[s]++;
	pthread_mutex_lock(&r->q->lock);
	r->early += s && k >= r->led;
	r->led += !s;
	pthread_mutex_unlock(&r->q->lock);
	blockq_put(r->q, s, k);
}

/* A thread: shards' blocks until the end. */
static void *run(void *arg)
{
	struct ring *r = arg;
	unsigned int s;
	uint64_t *b, k;

	while ((b = blockq_take(r->q, &s, &k)))
		check_block(r, b, s, k);
	return NULL;
}

/* 1000 blocks through 3 slots to 4 shards (shard 0 leading) on 3 threads and the producer,
 * which runs shards while no slot is free and after the end: each shard takes all 1000, each
 * in order (a slot refilled before every shard put it back would show a shard a later
 * number), and none takes a block before shard 0 put it back. A shard is one thread's at a
 * time: seen[] and bad[] are counted without a lock, which two threads at once could miscount
 * (and a thread sanitizer would report). */
START_TEST(test_in_order)
{
	uint64_t blocks[NR_SLOTS];
	void *slot[NR_SLOTS] = { &blocks[0], &blocks[1], &blocks[2] };
	struct ring r = { 0 };
	pthread_t t[NR_THREADS];
	struct blockq q;
	unsigned int s;
	uint64_t n, k, *b;
	void *f;
	int i;

	ck_assert_int_eq(blockq_init(&q, slot, NR_SLOTS, NR_SHARDS, true), 0);
	r.q = &q;
	for (i = 0; i < NR_THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, run, &r), 0);
	for (n = 0; n < NR_BLOCKS; n++) {
		while ((b = blockq_next(&q, &f, &s, &k)))
			check_block(&r, b, s, k);
		ck_assert_ptr_eq(f, &blocks[n % NR_SLOTS]);
		*(uint64_t *)f = n;
		blockq_publish(&q);
	}
	blockq_end(&q);
	run(&r);
	for (i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	for (s = 0; s < NR_SHARDS; s++) {
		ck_assert_uint_eq(r.seen[s], NR_BLOCKS);
		ck_assert_uint_eq(r.bad[s], 0);
	}
	ck_assert_uint_eq(r.early, 0);
	blockq_destroy(&q);
}
END_TEST

/* Without threads taking them, two blocks published into two slots for two shards (none
 * leading): the producer, with no slot free, is given shard 0's block 0 (the oldest) to run;
 * a slot is free again only after both shards put its block back; after the end a thread gets
 * the blocks left and then NULL (not a wait). */
START_TEST(test_end_after_last)
{
	uint64_t blocks[2];
	void *slot[2] = { &blocks[0], &blocks[1] };
	struct blockq q;
	unsigned int s;
	uint64_t k;
	void *f = NULL;

	ck_assert_int_eq(blockq_init(&q, slot, 2, 2, false), 0);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
	*(uint64_t *)f = 7;
	blockq_publish(&q);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
	*(uint64_t *)f = 8;
	blockq_publish(&q);
	ck_assert_uint_eq(*(uint64_t *)blockq_next(&q, &f, &s, &k), 7);
	ck_assert_uint_eq(s, 0);
	ck_assert_uint_eq(k, 0);
	blockq_put(&q, 0, 0);
	ck_assert_uint_eq(q.pending[0], 1);
	ck_assert_uint_eq(*(uint64_t *)blockq_next(&q, &f, &s, &k), 7); /* shard 1's */
	ck_assert_uint_eq(s, 1);
	blockq_put(&q, 1, 0);
	ck_assert_uint_eq(q.pending[0], 0);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k)); /* slot 0 is free */
	ck_assert_ptr_eq(f, &blocks[0]);
	blockq_end(&q);
	ck_assert_uint_eq(*(uint64_t *)blockq_take(&q, &s, &k), 8);
	ck_assert_uint_eq(s, 0);
	ck_assert_uint_eq(k, 1);
	blockq_put(&q, s, k);
	ck_assert_uint_eq(*(uint64_t *)blockq_take(&q, &s, &k), 8);
	ck_assert_uint_eq(s, 1);
	blockq_put(&q, s, k);
	ck_assert_ptr_null(blockq_take(&q, &s, &k));
	blockq_destroy(&q);
}
END_TEST

/* Three blocks published to two shards, shard 0 leading: after shard 0 ran block 0, the next
 * taker gets shard 0's block 1, not shard 1's older block 0 (the lead first keeps it ahead, so
 * that the others have blocks to take); then, shard 0 being run, shard 1's block 0. */
START_TEST(test_lead_first)
{
	uint64_t blocks[3];
	void *slot[3] = { &blocks[0], &blocks[1], &blocks[2] };
	struct blockq q;
	unsigned int s, n;
	uint64_t k;
	void *f = NULL;

	ck_assert_int_eq(blockq_init(&q, slot, 3, 2, true), 0);
	for (n = 0; n < 3; n++) {
		ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
		*(uint64_t *)f = n;
		blockq_publish(&q);
	}
	ck_assert_uint_eq(*(uint64_t *)blockq_take(&q, &s, &k), 0);
	ck_assert_uint_eq(s, 0);
	blockq_put(&q, s, k);
	ck_assert_uint_eq(*(uint64_t *)blockq_take(&q, &s, &k), 1);
	ck_assert_uint_eq(s, 0);
	ck_assert_uint_eq(*(uint64_t *)blockq_take(&q, &s, &k), 0);
	ck_assert_uint_eq(s, 1);
	blockq_destroy(&q);
}
END_TEST

/* Shard 0's block 0 after a while: taken and put back by another thread. */
static void *late_take(void *arg)
{
	struct blockq *q = arg;
	unsigned int s;
	uint64_t k;

	usleep(20000);
	ck_assert_ptr_nonnull(blockq_take(q, &s, &k));
	ck_assert_uint_eq(k, 0);
	blockq_put(q, s, k);
	return NULL;
}

/* With producer_helps off, a producer whose ring is full is given no block to run: it waits
 * until another thread put the oldest back, and gets that slot to fill. */
START_TEST(test_producer_waits)
{
	uint64_t blocks[2];
	void *slot[2] = { &blocks[0], &blocks[1] };
	struct blockq q;
	pthread_t t;
	unsigned int s;
	uint64_t k;
	void *f = NULL;

	ck_assert_int_eq(blockq_init(&q, slot, 2, 1, false), 0);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
	blockq_publish(&q);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
	blockq_publish(&q);
	q.producer_helps = false;
	ck_assert_int_eq(pthread_create(&t, NULL, late_take, &q), 0);
	ck_assert_ptr_null(blockq_next(&q, &f, &s, &k));
	ck_assert_ptr_eq(f, &blocks[0]);
	ck_assert_uint_eq(q.next[0], 1); /* the other thread ran it */
	pthread_join(t, NULL);
	blockq_destroy(&q);
}
END_TEST

static Suite *blockq_suite(void)
{
	Suite *s = suite_create("blockq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_lead_first);
	tcase_add_test(tc, test_end_after_last);
	tcase_add_test(tc, test_producer_waits);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(blockq_suite)
