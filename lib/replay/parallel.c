// SPDX-License-Identifier: GPL-2.0-only
/*
 * parallel.c - vpmc_replay_run() on threads (issue 15). The calling thread reads the trace into
 * blocks of events. Engines of their own run on the blocks, each a contiguous share of the lanes
 * (share.h): the first runs the ideal guest (lane 0), whose samples go with the block, and the
 * first policies; each other one, a shard, runs its policies with their references and takes
 * lane 0's samples from the block where its own lane 0 would have made them, so each lane
 * computes what it computes on one thread. Every engine takes every block in
 * order, lane 0's first, on whichever thread is free (blockq.c), the reading thread too while
 * no slot is free and after the end. At the end the lanes' models and metrics move into the
 * engine; the engines stay until vpmc_replay_free(), which frees the references. Memory:
 * BLOCK_EVENTS events (and lane 0's samples) times two blocks per thread, at any trace length.
 */
#include "config.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alike.h"
#include "blockq.h"
#include "replay-local.h"
#include "share.h"

#define BLOCK_EVENTS 4096

/* The reading thread measures reading and the engines over each this many blocks, and sets its
 * share of the engines' work (share_help()) for the next as they were in the last (the first
 * blocks cost twice what the later ones do: no share is set before the third). */
#define CALIBRATE_BLOCKS 16

struct replay_block {
	uint64_t first;                 /* the number of ev[0] in the replay, from 0 */
	unsigned int n;
	struct replay_ideal *ideal;     /* lane 0's samples in the block, in order */
	unsigned int nr_ideal, cap_ideal;
	_Alignas(16) struct vpmc_event ev[BLOCK_EVENTS]; /* block_stream()'s stores need it */
	uint64_t mark[BLOCK_EVENTS];    /* vpmc_reader_mark() of each, for an error's place */
};

/* An engine that runs on blocks: the ideal guest's (lane 0) with the first policies, or a
 * shard of the policies. */
struct shard_worker {
	struct vpmc_replay *s;
	unsigned int first_lane;        /* its lane 1 is the engine's lane first_lane */
	void *hook;                     /* the shard's exit hook state (r->shard_hooks) */
	int err;                        /* of the event err_at, or of vpmc_replay_finish() */
	uint64_t err_at, err_mark;
	atomic_uint_fast64_t ns, blocks; /* CPU time on blocks, and how many, for the share */
	uint64_t ns_seen, blocks_seen;  /* the reading thread's last look at them */
};

/* One parallel replay: its engines, which any thread runs: w[0] lane 0's, leading the others
 * (their lanes need its samples), and w[1 ..] the shards. */
struct parallel {
	struct vpmc_replay *r;
	struct shard_worker *w;
	unsigned int nw;
	/* the lanes in units (share.h): unit u's first lane; and the first block, read before
	 * the engines were made (probe_units()), with the reader's return after it */
	unsigned int unit_first[VPMC_REPLAY_MAX_POLICIES + 2];
	unsigned int nr_units;
	struct replay_block *probed;
	int probed_rc;
	uint64_t warn_at;               /* the event that raised the --assume warning, if any */
	struct blockq q;
	atomic_bool failed;
	struct replay_block *cur;       /* the block lane 0 runs on, and the event in it */
	uint32_t cur_at;
	/* the reading thread's: its CPU time reading since the last calibrate(), the blocks read,
	 * the engines' time it may take per block read (help_ns) and has left */
	unsigned int nt;
	uint64_t read_ns, nr_read, help_ns;
	int64_t credit_ns;
};

/* The calling thread's CPU time in ns. */
static uint64_t thread_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* Lane 0's sample @is: into the block, for the shards. */
static int ideal_keep(void *data, const struct replay_ideal *is)
{
	struct parallel *p = data;
	struct replay_block *b = p->cur;

	if (b->nr_ideal == b->cap_ideal) {
		unsigned int cap = b->cap_ideal ? 2 * b->cap_ideal : 64;
		void *m = realloc(b->ideal, cap * sizeof(*b->ideal));

		if (!m)
			return VPMC_ERR_NOMEM;
		b->ideal = m;
		b->cap_ideal = cap;
	}
	b->ideal[b->nr_ideal] = *is;
	b->ideal[b->nr_ideal++].at = p->cur_at;
	return 0;
}

/* One pass of @w's engine over block @b, up to its first error; lane 0's samples from the
 * block if the engine has no lane 0 or runs the block again (alike.h). */
static void shard_pass(struct parallel *p, struct shard_worker *w, struct replay_block *b)
{
	const struct replay_ideal *is = b->ideal, *end = b->ideal + b->nr_ideal;
	struct vpmc_replay *s = w->s;
	bool ext = s->ideal_ext || s->rerun;
	uint32_t i;

	if (!ext) {
		p->cur = b;
		b->nr_ideal = 0;
	}
	for (i = 0; !w->err && i < b->n; i++) {
		if (ext) {
			s->ideal_in = is;
			while (is < end && is->at == i)
				is++;
			s->ideal_n = (unsigned int)(is - s->ideal_in);
		} else {
			p->cur_at = i;
		}
		w->err = vpmc_replay_event(s, &b->ev[i]);
		if (w->err) {
			w->err_at = b->first + i;
			w->err_mark = b->mark[i];
			atomic_store(&p->failed, true);
		}
	}
}

/* Run @w's engine on block @b: a pass, and with lanes that behave alike a pass again for
 * those that left their group, until none does (alike.h). Return: the CPU time it took, ns. */
static uint64_t shard_block(struct parallel *p, struct shard_worker *w, struct replay_block *b)
{
	struct vpmc_replay *s = w->s;
	uint64_t t0 = thread_ns(), ns;
	bool first = true;
	int rc = 0;

	if (!s->alike)
		shard_pass(p, w, b);
	while (s->alike && !w->err) {
		rc = alike_pass_begin(s, first);
		first = false;
		if (rc)
			break;
		shard_pass(p, w, b);
		rc = w->err ? 0 : alike_pass_end(s);
		if (rc <= 0)
			break;
	}
	if (rc < 0) {
		w->err = vpmc__set_error(&s->errbuf, rc, "%s", vpmc_strerror(rc));
		w->err_at = b->first;
		w->err_mark = b->mark[0];
		atomic_store(&p->failed, true);
	}
	ns = thread_ns() - t0;
	atomic_fetch_add_explicit(&w->ns, ns, memory_order_relaxed);
	atomic_fetch_add_explicit(&w->blocks, 1, memory_order_relaxed);
	return ns;
}

/* Run the engines on the blocks that no other thread runs, until the end. */
static void *shard_run(void *arg)
{
	struct parallel *p = arg;
	struct replay_block *b;
	unsigned int sh;
	uint64_t k;

	while ((b = blockq_take(&p->q, &sh, &k))) {
		shard_block(p, &p->w[sh], b);
		blockq_put(&p->q, sh, k);
	}
	return NULL;
}

/* @w's engine with policies [from, to) of @r, its exit hook if @r has one and it has policies,
 * begun for @r's PMU; with lane 0 for @p if @lead, else a shard. */
static int shard_new(struct parallel *p, unsigned int from, unsigned int to, bool lead,
		     struct shard_worker *w)
{
	struct vpmc_replay *r = p->r, *s;
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
	if (lead) {
		s->ideal_fn = ideal_keep;
		s->ideal_data = p;
	} else {
		s->ideal_ext = true;
	}
	if (r->shard_hooks && from < to) {
		err = r->shard_hooks->attach(r->shard_data, s, &w->hook);
		if (err)
			return err;
	}
	err = vpmc_replay_begin(s, &r->cfg);
	if (!err)
		alike_begin(s);
	return err;
}

/* The lanes of @w's engine into @r: their per-vCPU models and metrics, and the handler
 * counts; lane 0 from the engine of lane 0 only. */
static void shard_adopt(struct vpmc_replay *r, struct shard_worker *w)
{
	struct vpmc_replay *s = w->s;
	unsigned int j;

	for (j = s->ideal_ext ? 1 : 0; j < s->nr_lanes; j++) {
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

/* Every CALIBRATE_BLOCKS blocks read: what reading a block cost the reading thread, and each
 * engine's block, since the last time, set its share of their work (share_help()). */
static void calibrate(struct parallel *p)
{
	uint64_t engines = 0, ns, n;
	unsigned int i;

	for (i = 0; i < p->nw; i++) {
		struct shard_worker *w = &p->w[i];

		ns = atomic_load_explicit(&w->ns, memory_order_relaxed);
		n = atomic_load_explicit(&w->blocks, memory_order_relaxed);
		if (n > w->blocks_seen)
			engines += (ns - w->ns_seen) / (n - w->blocks_seen);
		w->ns_seen = ns;
		w->blocks_seen = n;
	}
	p->help_ns = share_help(p->read_ns / CALIBRATE_BLOCKS, engines, p->nt);
	p->read_ns = 0;
}

/* Whether the reading thread may take an engine's block while no slot is free: from the third
 * CALIBRATE_BLOCKS blocks on, while its share is not used up (before, any). */
static void help_gate(struct parallel *p)
{
	if (p->nt > 1 && p->nr_read >= 2 * CALIBRATE_BLOCKS)
		p->q.producer_helps = p->credit_ns > 0;
}

/* After a block read in @ns of CPU time: calibrate, and the reading thread's share grows. */
static void read_done(struct parallel *p, uint64_t ns)
{
	p->read_ns += ns;
	p->nr_read++;
	if (p->nt < 2)
		return; /* alone: it runs every engine */
	if (p->nr_read % CALIBRATE_BLOCKS == 0)
		calibrate(p);
	/* at most a ring's worth: what it could not take while behind comes in no burst */
	p->credit_ns += (int64_t)p->help_ns;
	if (p->credit_ns > (int64_t)(p->q.nr_slots * p->help_ns))
		p->credit_ns = (int64_t)(p->q.nr_slots * p->help_ns);
	help_gate(p);
}

/* Read the trace into blocks for the engines, until the trace's end, an error, or an engine's
 * error; while no slot is free, run an engine on a block (within its share, once calibrated:
 * an engine's block it takes is one that another thread may wait for, as the lanes after lane
 * 0's wait for its block), and after the end help them finish.
 * *@warn_at: the event that raised the --assume warning, if any.
 * Return: the reader's last vpmc_reader_next(). */
/*
 * Copy an event the reading thread decoded into a block with non-temporal stores. A block's
 * lines were last read by the engines' thread on the other core; each ordinary store to them
 * waited for that core to give the line up (a read for ownership), and the reading thread, the
 * longest at -j 2, spent a third of its time there (perf: 0.17 s of 0.37 s on the 4-vCPU bench
 * trace; 0.01 s with both threads on one core). The engines then read the block from memory,
 * in order, which the hardware prefetches. Flushed by block_stream_end() before the block is
 * published.
 */
static inline void block_stream(struct vpmc_event *dst, const struct vpmc_event *src)
{
#ifdef __SSE2__
	_Static_assert(sizeof(*src) % 16 == 0, "events are copied 16 bytes at a time");
	const __m128i *s = (const __m128i *)src;
	__m128i *d = (__m128i *)dst;
	size_t i;

	for (i = 0; i < sizeof(*src) / 16; i++)
		_mm_stream_si128(d + i, _mm_loadu_si128(s + i));
#else
	*dst = *src;
#endif
}

/* Order block_stream()'s stores before the block's publication (they are weakly ordered). */
static inline void block_stream_end(void)
{
#ifdef __SSE2__
	_mm_sfence();
#endif
}

/* Read the trace into block @f until it is full or the trace ends; *@warn_at as for
 * parallel_read(). Return: the reader's last vpmc_reader_next(). */
static int block_fill(struct parallel *p, struct vpmc_reader *rd, struct replay_block *f,
		      uint64_t *warn_at)
{
	struct vpmc_replay *r = p->r;
	struct vpmc_event ev;
	int rc = 1;

	f->first = r->events;
	f->n = 0;
	while (f->n < BLOCK_EVENTS && (rc = vpmc_reader_next(rd, &ev)) > 0) {
		if (!r->warning[0]) {
			replay_watch_conflict(r, &ev);
			*warn_at = r->events;
		}
		replay_span_add(r, &ev);
		replay_count(r);
		block_stream(&f->ev[f->n], &ev);
		f->mark[f->n++] = vpmc_reader_mark(rd);
	}
	block_stream_end();
	return rc;
}

static int parallel_read(struct parallel *p, struct vpmc_reader *rd, uint64_t *warn_at)
{
	struct replay_block *b, *f;
	unsigned int sh;
	uint64_t k;
	void *free_block;
	uint64_t t0;
	int rc = 1;

	do {
		while ((b = blockq_next(&p->q, &free_block, &sh, &k))) {
			p->credit_ns -= (int64_t)shard_block(p, &p->w[sh], b);
			blockq_put(&p->q, sh, k);
			help_gate(p);
		}
		f = free_block;
		if (f == p->probed) { /* the first slot: read before the engines were made */
			p->probed = NULL;
			rc = p->probed_rc;
		} else {
			t0 = thread_ns();
			rc = block_fill(p, rd, f, warn_at);
			read_done(p, thread_ns() - t0);
		}
		if (f->n)
			blockq_publish(&p->q);
	} while (rc > 0 && !atomic_load(&p->failed));
	blockq_end(&p->q);
	shard_run(p);
	return rc;
}

/* The result of the engines, as one thread would have had it: the first failing event's error
 * (lane 0's, then the lowest shard's at the same event: its lanes come first), else a
 * finish's error. */
static int parallel_result(struct parallel *p, struct vpmc_reader *rd, int rc, uint64_t warn_at)
{
	struct vpmc_replay *r = p->r;
	struct shard_worker *w = p->w, *bad = NULL;
	char where[VPMC_ERRMSG_MAX / 2];
	unsigned int i;

	for (i = 0; i < p->nw; i++) {
		if (w[i].err && (!bad || w[i].err_at < bad->err_at))
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
	for (i = 0; i < p->nw; i++) {
		w[i].err = alike_finish(w[i].s);
		if (!w[i].err)
			w[i].err = vpmc_replay_finish(w[i].s);
		if (w[i].err)
			return vpmc__set_error(&r->errbuf, w[i].err, "%s", vpmc_replay_error(w[i].s));
	}
	return 0;
}

/* The p->nw engines of @p, each a share of the units of lanes (share_units()); and @nt - 1
 * threads beside the caller's. Return: how many threads started, or -1 if an engine could not
 * be made. */
static int parallel_start(struct parallel *p, pthread_t *tid, unsigned int nt)
{
	unsigned int i, from, to, lo, hi;

	for (i = 0; i < p->nw; i++) {
		share_units(p->nr_units, p->nw, i, &from, &to);
		lo = p->unit_first[from];
		hi = p->unit_first[to];
		/* lanes [lo, hi): lane l > 0 is policy l - 1 */
		p->w[i].first_lane = lo ? lo : 1;
		if (shard_new(p, lo ? lo - 1 : 0, hi - 1, i == 0, &p->w[i]))
			return -1;
	}
	for (i = 0; i + 1 < nt; i++) {
		if (pthread_create(&tid[i], NULL, shard_run, p))
			break;
	}
	return (int)i;
}

static int parallel_go(struct parallel *p, struct vpmc_reader *rd, unsigned int nt,
		       void **blocks, unsigned int nb)
{
	struct vpmc_replay *r = p->r;
	struct vpmc_reader_stats st;
	pthread_t tid[VPMC_REPLAY_MAX_POLICIES];
	unsigned int i;
	int rc = 0, err, started;
	bool first = true;

	if (blockq_init(&p->q, blocks, nb, p->nw, true))
		return vpmc__set_error(&r->errbuf, VPMC_ERR_NOMEM, "%s",
				       vpmc_strerror(VPMC_ERR_NOMEM));
	started = parallel_start(p, tid, nt);
	r->rd = rd; /* the warning's place in the trace (replay_assume_conflict()) */
	if (started == (int)nt - 1)
		rc = parallel_read(p, rd, &p->warn_at);
	else
		blockq_end(&p->q);
	r->rd = NULL;
	for (i = 0; started > 0 && i < (unsigned int)started; i++)
		pthread_join(tid[i], NULL);
	blockq_destroy(&p->q);
	if (started != (int)nt - 1)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_NOMEM, "%s",
				       vpmc_strerror(VPMC_ERR_NOMEM));
	err = parallel_result(p, rd, rc, p->warn_at);
	if (err)
		return err;
	for (i = 0; i < p->nw; i++) {
		shard_adopt(r, &p->w[i]);
		if (!p->w[i].hook)
			continue;
		err = r->shard_hooks->adopt(r->shard_data, p->w[i].hook, p->w[i].first_lane - 1,
					    first);
		if (err)
			return vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
		first = false;
	}
	r->nr_vcpus = p->w[0].s->nr_vcpus;
	r->cap_vcpus = p->w[0].s->cap_vcpus;
	memcpy(r->vcpu_present, p->w[0].s->vcpu_present, sizeof(r->vcpu_present));
	r->exit_ns_sum = p->w[0].s->exit_ns_sum;
	r->exits_measured = p->w[0].s->exits_measured;
	vpmc_reader_stats(rd, &st);
	r->source_stats = st;
	r->has_source_stats = true;
	r->finished = true;
	return 0;
}

/*
 * The units of @p's lanes when some may behave alike: an engine of every lane runs the first
 * block, read into @b (the ring's first slot, p->probed), and each lane that leads a group
 * after it, or computes alone, starts a unit with the lanes after it that follow
 * (alike_units()), so that an engine holds the lanes that behaved alike there, and shares
 * count what the lanes compute, not how many they are (a 32-tolerance sweep with an overlay:
 * 10 units of its 34 lanes on the bench's 4-vCPU trace). Behaviours that part later split a group
 * within its engine (alike.h). The engine's error, if any, comes again on the engines.
 */
static void probe_units(struct parallel *p, struct vpmc_reader *rd, struct replay_block *b)
{
	struct vpmc_replay *r = p->r;
	struct shard_worker w = { 0 };

	r->rd = rd; /* the warning's place in the trace (replay_assume_conflict()) */
	p->probed_rc = block_fill(p, rd, b, &p->warn_at);
	r->rd = NULL;
	p->probed = b;
	if (b->n && !shard_new(p, 0, (unsigned int)vpmc_replay_nr_policies(r), true, &w)) {
		shard_block(p, &w, b);
		if (!w.err)
			p->nr_units = alike_units(w.s, p->unit_first);
	}
	vpmc_replay_free(w.s);
	atomic_store(&p->failed, false);
}

/*
 * -j N: N threads, the reading thread one of them. N engines (at most one per unit of lanes, at
 * least one per SHARE_LANES_MAX units: share_engines()), each a share of the units, lane 0's
 * with the first policies, go block by block to whichever thread is free, lane 0's first on
 * each block (a shard takes a block only after it); the reading thread runs them too while the
 * ring is full, up to its share of their work as measured over the last CALIBRATE_BLOCKS
 * blocks (share_help(): more, and the others waited for the blocks it held), and every lane is
 * computed as on one thread whichever thread runs it. Lane 0 with the first policies, not
 * alone: an engine runs on one thread at a time, and with lane 0 alone (compare + overlay at
 * -j 2: lane 0's engine 0.05 s CPU, the shard of five policies 0.21 s, reading 0.19 s) the
 * shard was the longest chain, which no other thread could shorten; equal shares also walk
 * the events once less than lane 0 alone and N shards. A unit is a lane, or with lanes that
 * may behave alike, those that did on the first block (probe_units()); then one engine on one
 * thread runs on blocks too, for them to share. With one thread and more than
 * SHARE_LANES_MAX units, that thread runs the engines one after the other on each block.
 * Memory: 2 N blocks (2 with one thread).
 */
int replay_run_parallel(struct vpmc_replay *r, struct vpmc_reader *rd)
{
	unsigned int nw, nt, nb, i;
	unsigned int threads = r->threads ? r->threads : 1;
	struct parallel p = { .r = r };
	struct replay_block *probed = NULL;
	void **blocks = NULL;
	bool alike = alike_possible(r) && !r->shard_hooks;
	int err = VPMC_ERR_NOMEM;

	for (i = 0; i <= r->nr_lanes; i++)
		p.unit_first[i] = i;
	p.nr_units = r->nr_lanes;
	nw = share_engines(p.nr_units, threads);
	if ((nw < 2 && !alike) || r->log.obs || ((r->exit_fn || r->event_fn) && !r->shard_hooks) ||
	    r->events || r->finished)
		return 1;
	if (alike) {
		probed = calloc(1, sizeof(*probed));
		if (!probed)
			return vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
		probe_units(&p, rd, probed);
		nw = share_engines(p.nr_units, threads);
	}
	nt = threads < nw ? threads : nw;
	nb = 2 * nt;
	p.nt = nt;
	p.nw = nw;
	p.w = calloc(p.nw, sizeof(*p.w));
	blocks = calloc(nb, sizeof(*blocks));
	r->shards = calloc(p.nw, sizeof(*r->shards));
	for (i = 0; blocks && i < nb; i++) {
		/* the probed block in the first slot, which the reading thread fills first */
		blocks[i] = i || !probed ? calloc(1, sizeof(struct replay_block)) : probed;
		if (!blocks[i])
			break;
	}
	if (!blocks)
		free(probed);
	if (p.w && blocks && r->shards && i == nb)
		err = parallel_go(&p, rd, nt, blocks, nb);
	else
		vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
	for (i = 0; p.w && i < p.nw; i++) {
		if (p.w[i].hook)
			r->shard_hooks->release(p.w[i].hook);
		if (p.w[i].s && r->shards)
			r->shards[r->nr_shards++] = p.w[i].s;
		else
			vpmc_replay_free(p.w[i].s);
	}
	for (i = 0; blocks && i < nb; i++) {
		if (blocks[i])
			free(((struct replay_block *)blocks[i])->ideal);
		free(blocks[i]);
	}
	free(blocks);
	free(p.w);
	return err;
}
