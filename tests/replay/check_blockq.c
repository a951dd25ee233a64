// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_blockq.c - The ring of event blocks of a parallel replay (lib/replay/blockq.c): every
 * consumer sees every block in the order published, a slot is not refilled before all
 * consumers released it, and the end is seen after the last block.
 */
#include "config.h"

#include <pthread.h>

#include "blockq.h"
#include "check_common.h"

#define NR_SLOTS 3
#define NR_CONSUMERS 3
#define NR_BLOCKS 1000

struct consumer {
	struct blockq *q;
	uint64_t seen, bad;      /* blocks taken; those whose number was not the next one */
};

/* Each block holds its own number: a consumer must find 0, 1, 2, ... */
static void *consume(void *arg)
{
	struct consumer *c = arg;
	uint64_t *b;

	while ((b = blockq_get(c->q, c->seen))) {
		c->bad += *b != c->seen;
		blockq_release(c->q, c->seen);
		c->seen++;
	}
	return NULL;
}

/* 1000 blocks through 3 slots to 3 consumers: each takes all 1000, each in order. A slot
 * refilled before every consumer released it would show a consumer a later number. */
START_TEST(test_in_order)
{
	uint64_t blocks[NR_SLOTS];
	void *slot[NR_SLOTS] = { &blocks[0], &blocks[1], &blocks[2] };
	struct consumer c[NR_CONSUMERS];
	pthread_t t[NR_CONSUMERS];
	struct blockq q;
	uint64_t k;
	int i;

	ck_assert_int_eq(blockq_init(&q, slot, NR_SLOTS, NR_CONSUMERS), 0);
	for (i = 0; i < NR_CONSUMERS; i++) {
		c[i] = (struct consumer){ &q, 0, 0 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, consume, &c[i]), 0);
	}
	for (k = 0; k < NR_BLOCKS; k++) {
		uint64_t *b = blockq_next_free(&q);

		ck_assert_ptr_eq(b, &blocks[k % NR_SLOTS]);
		*b = k;
		blockq_publish(&q);
	}
	blockq_end(&q);
	for (i = 0; i < NR_CONSUMERS; i++) {
		pthread_join(t[i], NULL);
		ck_assert_uint_eq(c[i].seen, NR_BLOCKS);
		ck_assert_uint_eq(c[i].bad, 0);
	}
	blockq_destroy(&q);
}
END_TEST

/* Without consumers taking them, two blocks published into two slots; the end: a consumer then
 * gets both and NULL after them (not a wait), and the first slot is free again only after the
 * one consumer released it. */
START_TEST(test_end_after_last)
{
	uint64_t blocks[2];
	void *slot[2] = { &blocks[0], &blocks[1] };
	struct blockq q;

	ck_assert_int_eq(blockq_init(&q, slot, 2, 1), 0);
	*(uint64_t *)blockq_next_free(&q) = 7;
	blockq_publish(&q);
	*(uint64_t *)blockq_next_free(&q) = 8;
	blockq_publish(&q);
	blockq_end(&q);
	ck_assert_uint_eq(q.pending[0], 1);
	ck_assert_uint_eq(*(uint64_t *)blockq_get(&q, 0), 7);
	blockq_release(&q, 0);
	ck_assert_uint_eq(q.pending[0], 0);
	ck_assert_uint_eq(*(uint64_t *)blockq_get(&q, 1), 8);
	blockq_release(&q, 1);
	ck_assert_ptr_null(blockq_get(&q, 2));
	blockq_destroy(&q);
}
END_TEST

static Suite *blockq_suite(void)
{
	Suite *s = suite_create("blockq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_in_order);
	tcase_add_test(tc, test_end_after_last);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(blockq_suite)
