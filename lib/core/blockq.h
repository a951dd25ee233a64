/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * blockq.h - A ring of blocks that one producer fills in order and that every shard of a
 * parallel replay, or nested's classifier, takes in the same order (issue 15). A shard is a
 * unit of work that any thread may run, one block at a time and one thread at a time:
 * whichever thread is free takes the leading shard if it may run, else the one furthest behind,
 * and the producer takes one while no slot is free. A slot is reused when every shard has put
 * its block back, so memory is the ring's size, whatever the length of the input. A ring may
 * have a leading shard, shard 0: the others take a block after it put the block back.
 */
#ifndef VPMC_CORE_BLOCKQ_H
#define VPMC_CORE_BLOCKQ_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct blockq {
	pthread_mutex_t lock;
	pthread_cond_t changed;    /* published, put back, or the end */
	void **slot;               /* nr_slots blocks, the caller's */
	unsigned int *pending;     /* shards yet to put back each slot's block */
	uint64_t *next;            /* by shard: the next block it takes */
	bool *busy;                /* by shard: a thread runs it on block next */
	unsigned int nr_slots, nr_shards, waiting;
	bool lead;                 /* shard 0 leads */
	bool producer_helps;       /* the producer runs shards while no slot is free (its own) */
	uint64_t published;        /* blocks published so far: block k is in slot k % nr_slots */
	bool done;                 /* no block will follow */
};

/* Set up a ring over @nr_slots blocks @slot (kept by the caller) for @nr_shards shards, the
 * first leading if @lead; Return: 0, or VPMC_ERR_NOMEM. */
int blockq_init(struct blockq *q, void **slot, unsigned int nr_slots, unsigned int nr_shards,
		bool lead);

/* Free what blockq_init() took (not the blocks). */
void blockq_destroy(struct blockq *q);

/* Producer: the block to fill next (Return: NULL) when its slot is free; while it is not, a
 * shard's block to run meanwhile if q->producer_helps (Return: that block, *@shard and *@k as
 * blockq_take()). Waits while there is neither. */
void *blockq_next(struct blockq *q, void **free_block, unsigned int *shard, uint64_t *k);

/* Producer: publish the block blockq_next() gave to fill. */
void blockq_publish(struct blockq *q);

/* Producer: no more blocks. */
void blockq_end(struct blockq *q);

/* Any thread: the leading shard's next block if it may run, else the oldest block that a shard
 * not being run has yet to take, and the shard (*@shard) and block number (*@k, from 0); the
 * shard is then the caller's until blockq_put(). Waits for one; Return: NULL once none will
 * come (after the end). */
void *blockq_take(struct blockq *q, unsigned int *shard, uint64_t *k);

/* Shard @shard is done with block @k (from blockq_take() or blockq_next()). */
void blockq_put(struct blockq *q, unsigned int shard, uint64_t k);

#endif /* VPMC_CORE_BLOCKQ_H */
