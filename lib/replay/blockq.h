/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blockq.h - A ring of blocks that one producer fills in order and every consumer reads in the
 * same order (parallel replay, issue 15): a slot is reused when all consumers released it, so
 * memory is the ring's size, whatever the length of the input.
 */
#ifndef VPMC_REPLAY_BLOCKQ_H
#define VPMC_REPLAY_BLOCKQ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct blockq {
	pthread_mutex_t lock;
	pthread_cond_t filled;     /* a block was published, or the end */
	pthread_cond_t released;   /* a slot became free */
	void **slot;               /* nr_slots blocks, the caller's */
	unsigned int *pending;     /* consumers yet to release each slot */
	unsigned int nr_slots, nr_consumers;
	uint64_t published;        /* blocks published so far: block k is in slot k % nr_slots */
	bool done;                 /* no block will follow */
};

/* Set up a ring over @nr_slots blocks @slot (kept by the caller) for @nr_consumers readers;
 * Return: 0, or VPMC_ERR_NOMEM. */
int blockq_init(struct blockq *q, void **slot, unsigned int nr_slots, unsigned int nr_consumers);

/* Free what blockq_init() took (not the blocks). */
void blockq_destroy(struct blockq *q);

/* Producer: the block to fill next, once every consumer released it. */
void *blockq_next_free(struct blockq *q);

/* Producer: publish the block blockq_next_free() gave. */
void blockq_publish(struct blockq *q);

/* Producer: no more blocks; consumers see NULL after the last one. */
void blockq_end(struct blockq *q);

/* Consumer: block number @k (its own count, from 0), waiting for it; NULL after the end. */
void *blockq_get(struct blockq *q, uint64_t k);

/* Consumer: done with block @k. */
void blockq_release(struct blockq *q, uint64_t k);

#endif /* VPMC_REPLAY_BLOCKQ_H */
