// SPDX-License-Identifier: GPL-2.0-only
/*
 * parallel.c - vpmc_replay_run() on threads (issue 15). The calling thread reads the trace into
 * blocks of events; each worker is an engine of its own (a shard) with a contiguous share of the
 * policies, and takes every block in order. A shard replays its own ideal guest (lane 0) and
 * its own reference group: those are what its lanes compare with, and a lane depends on nothing
 * else, so each lane's results are those of one thread. At the end the lanes' models and
 * metrics move into the engine; the shards stay until vpmc_replay_free(), which frees the
 * references. Memory: BLOCK_EVENTS events times two blocks per worker, at any trace length.
 */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "blockq.h"
#include "replay-local.h"

#define BLOCK_EVENTS 4096

struct replay_block {
	uint64_t first;                 /* the number of ev[0] in the replay, from 0 */
	unsigned int n;
	struct vpmc_event ev[BLOCK_EVENTS];
	uint64_t mark[BLOCK_EVENTS];    /* vpmc_reader_mark() of each, for an error's place */
};

struct shard_worker {
	struct vpmc_replay *s;
	unsigned int first_lane;        /* its lane 1 is the engine's lane first_lane */
	struct blockq *q;
	atomic_bool *failed;
	pthread_t tid;
	void *hook;                     /* the shard's exit hook state (r->shard_hooks) */
	int err;                        /* of the event err_at, or of vpmc_replay_finish() */
	bool finish_err;
	uint64_t err_at, err_mark;
};

static void *shard_run(void *arg)
{
	struct shard_worker *w = arg;
	struct replay_block *b;
	unsigned int i;
	uint64_t k;

	for (k = 0; (b = blockq_get(w->q, k)); k++) {
		for (i = 0; !w->err && i < b->n; i++) {
			w->err = vpmc_replay_event(w->s, &b->ev[i]);
			if (w->err) {
				w->err_at = b->first + i;
				w->err_mark = b->mark[i];
				atomic_store(w->failed, true);
			}
		}
		blockq_release(w->q, k);
	}
	if (!w->err) {
		w->err = vpmc_replay_finish(w->s);
		w->finish_err = w->err != 0;
	}
	return NULL;
}

/* @w's shard with policies [from, to) of @r, its exit hook if @r has one, begun for @r's
 * PMU. */
static int shard_new(struct vpmc_replay *r, unsigned int from, unsigned int to,
		     struct shard_worker *w)
{
	struct vpmc_replay *s;
	unsigned int i;
	int err;

	err = vpmc_replay_new(&s);
	if (err)
		return err;
	w->s = s;
	s->cost = r->cost;
	s->ov = r->ov;
	for (i = from; i < to; i++) {
		err = vpmc_replay_add_policy(s, &r->lanes[i + 1].policy);
		if (err)
			return err;
	}
	if (r->shard_hooks) {
		err = r->shard_hooks->attach(r->shard_data, s, &w->hook);
		if (err)
			return err;
	}
	return vpmc_replay_begin(s, &r->cfg);
}

/* The lanes of @w's shard into @r: their per-vCPU models and metrics, and the handler counts. */
static void shard_adopt(struct vpmc_replay *r, struct shard_worker *w, bool ideal)
{
	struct vpmc_replay *s = w->s;
	unsigned int j;

	for (j = ideal ? 0 : 1; j < s->nr_lanes; j++) {
		struct replay_lane *dst = &r->lanes[j ? w->first_lane + j - 1 : 0];
		struct replay_lane *src = &s->lanes[j];

		dst->vcpus = src->vcpus;
		src->vcpus = NULL;
		dst->handler_runs = src->handler_runs;
		dst->handler_capped = src->handler_capped;
		dst->capped_first_ns = src->capped_first_ns;
		dst->capped_first_vcpu = src->capped_first_vcpu;
	}
}

/* Read the trace into blocks for the workers, until its end, an error, or a worker's error;
 * *@warn_at: the event that raised the --assume warning, if any.
 * Return: the reader's last vpmc_reader_next(). */
static int parallel_read(struct vpmc_replay *r, struct vpmc_reader *rd, struct blockq *q,
			 atomic_bool *failed, uint64_t *warn_at)
{
	struct replay_block *b;
	int rc = 1;

	do {
		b = blockq_next_free(q);
		b->first = r->events;
		b->n = 0;
		while (b->n < BLOCK_EVENTS && (rc = vpmc_reader_next(rd, &b->ev[b->n])) > 0) {
			if (!r->warning[0]) {
				replay_watch_conflict(r, &b->ev[b->n]);
				*warn_at = r->events;
			}
			replay_span_add(r, &b->ev[b->n]);
			replay_count(r);
			b->mark[b->n++] = vpmc_reader_mark(rd);
		}
		if (b->n)
			blockq_publish(q);
	} while (rc > 0 && !atomic_load(failed));
	blockq_end(q);
	return rc;
}

/* The result of the workers, as one thread would have had it: the first failing event's error
 * (the lowest shard at the same event: its lanes come first), else a finish's error. */
static int parallel_result(struct vpmc_replay *r, struct vpmc_reader *rd,
			   struct shard_worker *w, unsigned int nw, int rc, uint64_t warn_at)
{
	struct shard_worker *bad = NULL;
	char where[VPMC_ERRMSG_MAX / 2];
	unsigned int i;

	for (i = 0; i < nw; i++) {
		if (w[i].err && !w[i].finish_err && (!bad || w[i].err_at < bad->err_at))
			bad = &w[i];
	}
	if (bad) {
		if (warn_at > bad->err_at) /* one thread stops at the error, before it */
			r->warning[0] = '\0';
		vpmc__set_error(&r->errbuf, bad->err, "%s", vpmc_replay_error(bad->s));
		vpmc_reader_where_at(rd, bad->err_mark, where, sizeof(where));
		return replay_error_at(r, where, bad->err);
	}
	if (rc < 0)
		return vpmc__set_error(&r->errbuf, rc, "%s", vpmc_reader_error(rd));
	for (i = 0; i < nw; i++) {
		if (w[i].err)
			return vpmc__set_error(&r->errbuf, w[i].err, "%s", vpmc_replay_error(w[i].s));
	}
	return 0;
}

/* Start @nw workers over @q; Return: how many started. */
static unsigned int parallel_start(struct vpmc_replay *r, struct shard_worker *w,
				   unsigned int nw, struct blockq *q, atomic_bool *failed)
{
	unsigned int n = (unsigned int)vpmc_replay_nr_policies(r), i;

	for (i = 0; i < nw; i++) {
		w[i].first_lane = 1 + i * n / nw;
		w[i].q = q;
		w[i].failed = failed;
		if (shard_new(r, i * n / nw, (i + 1) * n / nw, &w[i]) ||
		    pthread_create(&w[i].tid, NULL, shard_run, &w[i]))
			break;
	}
	return i;
}

static int parallel_go(struct vpmc_replay *r, struct vpmc_reader *rd, struct shard_worker *w,
		       unsigned int nw, void **blocks)
{
	struct vpmc_reader_stats st;
	atomic_bool failed = false;
	uint64_t warn_at = 0;
	struct blockq q;
	unsigned int i, started;
	int rc = 0, err;

	if (blockq_init(&q, blocks, 2 * nw, nw))
		return VPMC_ERR_NOMEM;
	started = parallel_start(r, w, nw, &q, &failed);
	r->rd = rd; /* the warning's place in the trace (replay_assume_conflict()) */
	if (started == nw)
		rc = parallel_read(r, rd, &q, &failed, &warn_at);
	else
		blockq_end(&q);
	r->rd = NULL;
	for (i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	blockq_destroy(&q);
	if (started < nw)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_NOMEM, "%s",
				       vpmc_strerror(VPMC_ERR_NOMEM));
	err = parallel_result(r, rd, w, nw, rc, warn_at);
	if (err)
		return err;
	for (i = 0; i < nw; i++) {
		shard_adopt(r, &w[i], i == 0);
		err = r->shard_hooks ? r->shard_hooks->adopt(r->shard_data, w[i].hook,
							    w[i].first_lane - 1, i == 0) : 0;
		if (err)
			return vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
	}
	r->nr_vcpus = w[0].s->nr_vcpus;
	r->cap_vcpus = w[0].s->cap_vcpus;
	memcpy(r->vcpu_present, w[0].s->vcpu_present, sizeof(r->vcpu_present));
	r->exit_ns_sum = w[0].s->exit_ns_sum;
	r->exits_measured = w[0].s->exits_measured;
	vpmc_reader_stats(rd, &st);
	r->source_stats = st;
	r->has_source_stats = true;
	r->finished = true;
	return 0;
}

int replay_run_parallel(struct vpmc_replay *r, struct vpmc_reader *rd)
{
	unsigned int n = (unsigned int)vpmc_replay_nr_policies(r), nw, i;
	struct shard_worker *w;
	void **blocks;
	int err = VPMC_ERR_NOMEM;

	nw = r->threads < n ? r->threads : n;
	if (nw < 2 || r->log.obs || ((r->exit_fn || r->event_fn) && !r->shard_hooks) ||
	    r->events || r->finished)
		return 1;
	w = calloc(nw, sizeof(*w));
	blocks = calloc(2 * nw, sizeof(*blocks));
	r->shards = calloc(nw, sizeof(*r->shards));
	for (i = 0; blocks && i < 2 * nw; i++) {
		blocks[i] = malloc(sizeof(struct replay_block));
		if (!blocks[i])
			break;
	}
	if (w && blocks && r->shards && i == 2 * nw)
		err = parallel_go(r, rd, w, nw, blocks);
	else
		vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
	for (i = 0; w && i < nw; i++) {
		if (w[i].hook)
			r->shard_hooks->release(w[i].hook);
		if (w[i].s && r->shards)
			r->shards[r->nr_shards++] = w[i].s;
		else
			vpmc_replay_free(w[i].s);
	}
	for (i = 0; blocks && i < 2 * nw; i++)
		free(blocks[i]);
	free(blocks);
	free(w);
	return err;
}
