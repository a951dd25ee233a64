// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe.c - vpmc_nested_run() on two threads (-j, issue 15). The calling thread reads the trace
 * (decoding, importing, ordering across CPUs) into blocks of events; the classifier takes the
 * blocks in order on a second thread (lib/core/blockq.c, one shard), so it sees the events as
 * it sees them on one thread. It is one state machine whose rows, warnings and log lines follow
 * the trace's order across vCPUs: split by vCPU it would not give the same bytes, so a third
 * thread has nothing to do. While every slot is full the reading thread classifies a block
 * itself, and after the end it helps finish. Memory: PIPE_BLOCKS blocks, at any trace length.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "blockq.h"
#include "nested-local.h"

#define PIPE_EVENTS 4096
#define PIPE_BLOCKS 4 /* two per thread, as a parallel replay's ring */

struct pipe_block {
	unsigned int n;
	struct vpmc_event ev[PIPE_EVENTS];
	uint64_t mark[PIPE_EVENTS];     /* vpmc_reader_mark() of each, for a message's place */
};

struct pipe {
	struct vpmc_nested *n;
	struct blockq q;
	int err;                        /* the classifier's first error: it stops there */
	atomic_bool failed;             /* err is set: the reader stops */
};

/* Classify block @b, up to the first error. */
static void classify(struct pipe *p, const struct pipe_block *b)
{
	unsigned int i;

	for (i = 0; !p->err && i < b->n; i++) {
		p->n->at = b->mark[i];
		p->err = nested_event(p->n, &b->ev[i]);
	}
	if (p->err)
		atomic_store(&p->failed, true);
}

/* Classify the blocks that no other thread runs, until the end. */
static void *classify_run(void *arg)
{
	struct pipe *p = arg;
	struct pipe_block *b;
	unsigned int sh;
	uint64_t k;

	while ((b = blockq_take(&p->q, &sh, &k))) {
		classify(p, b);
		blockq_put(&p->q, sh, k);
	}
	return NULL;
}

/* Read @r into blocks until its end, its error or the classifier's, classifying while no slot
 * is free; then help the classifier finish. Return: the last vpmc_reader_next(). */
static int pipe_read(struct pipe *p, struct vpmc_reader *r)
{
	struct pipe_block *b, *f;
	void *free_block;
	unsigned int sh;
	uint64_t k;
	int rc = 1;

	do {
		while ((b = blockq_next(&p->q, &free_block, &sh, &k))) {
			classify(p, b);
			blockq_put(&p->q, sh, k);
		}
		f = free_block;
		f->n = 0;
		while (f->n < PIPE_EVENTS && (rc = vpmc_reader_next(r, &f->ev[f->n])) > 0)
			f->mark[f->n++] = vpmc_reader_mark(r);
		if (f->n)
			blockq_publish(&p->q);
	} while (rc > 0 && !atomic_load(&p->failed));
	blockq_end(&p->q);
	classify_run(p);
	return rc;
}

int nested_run_piped(struct vpmc_nested *n, struct vpmc_reader *r)
{
	struct pipe p = { .n = n };
	void *blocks[PIPE_BLOCKS] = { NULL };
	pthread_t tid;
	bool started;
	unsigned int i;
	int rc;

	for (i = 0; i < PIPE_BLOCKS; i++) {
		blocks[i] = malloc(sizeof(struct pipe_block));
		if (!blocks[i])
			break;
	}
	if (i < PIPE_BLOCKS || blockq_init(&p.q, blocks, PIPE_BLOCKS, 1, false)) {
		rc = vpmc__set_error(&n->err, VPMC_ERR_NOMEM, "%s", vpmc_strerror(VPMC_ERR_NOMEM));
	} else {
		/* without a second thread, this one does it all: the same result */
		started = !pthread_create(&tid, NULL, classify_run, &p);
		rc = pipe_read(&p, r);
		if (started)
			pthread_join(tid, NULL);
		blockq_destroy(&p.q);
		if (p.err)
			rc = p.err;
	}
	for (i = 0; i < PIPE_BLOCKS; i++)
		free(blocks[i]);
	return rc;
}
