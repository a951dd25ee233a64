// SPDX-License-Identifier: GPL-2.0-only
/*
 * latency.c - The guest's interrupt-handler duration under each policy (timer-storm.md §5): a
 * window from the entry that injects the vector to the entry after the deadline write, priced
 * as its trace time (or the exits' modeled round trips) plus what each policy's replay added to
 * the exits in it, plus handler_overhead_ns. The replay decides, the cost model prices: the
 * engine reports each priced exit with its cost (vpmc_replay_set_exit_hook()), the terms only
 * the exit's class decides (slowpath tax, mediated switch) included (exitclass.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <vpmc/latency.h>

#include "exitclass.h"
#include "internal.h"
#include "latency-local.h"
#include "msr-index.h"
#include "replay-local.h"

#define MSR_X2APIC_TMICT 0x838 /* x2APIC initial count: the end marker of a one-shot timer */

/* One policy on one vCPU: the window being measured and the results. */
struct lat_pv {
	double extra_us, x_us;      /* added by the policy to the window's exits so far */
	uint32_t drains, nr_keys;
	uint64_t key[VPMC_LATENCY_SAMPLE_KEYS];
	double fb_extra_us, fb_x_us; /* at the fallback end */
	uint32_t fb_drains, fb_nr_keys;
	uint64_t last_end;          /* where the previous sample ended under this policy */
	struct vpmc_hist h;         /* ns */
	double sum_ns;
	uint64_t n, fast, drains_total, flagged, fallback, overruns;
};

/* One vCPU of the trace: where its window stands. */
struct lat_vcpu {
	bool seen, armed, in_win, in_exit, end_pending, fb_pending, fb_have;
	uint64_t t_start, exit_t, fb_t;
	struct replay_exit_state xs; /* the exit's class */
	double adj_ns, fb_adj_ns;   /* --gaps model: sum of (round trip - span) in the window */
	struct lat_pv *pv;          /* by policy */
};

struct vpmc_latency {
	struct vpmc_latency_opts o;
	struct vpmc_replay *r;
	const struct vpmc_cost *cost;
	size_t nr_pol;
	bool gaps_trace;
	uint32_t nr_vcpus;
	struct lat_vcpu *vc[VPMC_MAX_VCPUS];
	uint64_t starts;
	struct vpmc_latency_sample *samples[VPMC_REPLAY_MAX_POLICIES];
	size_t nr_samples[VPMC_REPLAY_MAX_POLICIES], cap_samples[VPMC_REPLAY_MAX_POLICIES];
	int err;
};

void vpmc_latency_opts_default(struct vpmc_latency_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->vector = 0xec;
	o->max_window_ns = 2000000;
	o->fast_us = 20.0;
}

static double rt_ns(const struct vpmc_cost *c, enum replay_exit_class k)
{
	switch (k) {
	case EXIT_MSR_FAST:
		return c->exit_rt_msr_fast_ns;
	case EXIT_MSR_SLOW:
		return c->exit_rt_msr_slow_ns;
	case EXIT_INTR:
		return c->exit_rt_intr_ns;
	case EXIT_VINTR:
		return c->exit_rt_vintr_ns;
	case EXIT_NMI:
		return c->exit_rt_nmi_ns;
	default:
		return c->exit_rt_other_ns;
	}
}

static struct lat_vcpu *lat_vcpu(struct vpmc_latency *l, uint32_t v)
{
	struct lat_vcpu *lv = l->vc[v];
	size_t p;

	if (lv)
		return lv;
	lv = calloc(1, sizeof(*lv));
	if (lv)
		lv->pv = calloc(l->nr_pol, sizeof(*lv->pv));
	if (!lv || !lv->pv) {
		free(lv);
		l->err = VPMC_ERR_NOMEM;
		return NULL;
	}
	for (p = 0; p < l->nr_pol; p++)
		hist_init(&lv->pv[p].h);
	replay_exit_init(&lv->xs, vpmc_replay_config(l->r));
	l->vc[v] = lv;
	if (v >= l->nr_vcpus)
		l->nr_vcpus = v + 1;
	return lv;
}

static void exit_hook(void *data, unsigned int policy, const struct vpmc_exit_work *w, double us,
		      double x_us)
{
	struct vpmc_latency *l = data;
	struct lat_vcpu *lv = w->vcpu < VPMC_MAX_VCPUS ? l->vc[w->vcpu] : NULL;
	struct lat_pv *pv;

	if (!lv || !lv->in_win || policy >= l->nr_pol)
		return;
	pv = &lv->pv[policy];
	pv->extra_us += us;
	pv->x_us += x_us;
	if (w->drained) {
		pv->drains++;
		if (pv->nr_keys < VPMC_LATENCY_SAMPLE_KEYS)
			pv->key[pv->nr_keys] = w->ordinal;
		pv->nr_keys++;
	}
}

static void keep_sample(struct vpmc_latency *l, size_t p, const struct vpmc_latency_sample *s)
{
	if (l->nr_samples[p] == l->cap_samples[p]) {
		size_t cap = l->cap_samples[p] ? 2 * l->cap_samples[p] : 1024;
		struct vpmc_latency_sample *n = realloc(l->samples[p], cap * sizeof(*n));

		if (!n) {
			l->err = VPMC_ERR_NOMEM;
			return;
		}
		l->samples[p] = n;
		l->cap_samples[p] = cap;
	}
	l->samples[p][l->nr_samples[p]++] = *s;
}

/* The window of @lv ends: at @t_end (a sample), at the fallback (@fb), or flagged (@t_end 0). */
static void close_window(struct vpmc_latency *l, struct lat_vcpu *lv, uint32_t v, uint64_t t_end,
			 bool fb)
{
	size_t p;

	lv->in_win = false;
	for (p = 0; p < l->nr_pol; p++) {
		struct lat_pv *pv = &lv->pv[p];
		double extra = fb ? pv->fb_extra_us : pv->extra_us, x = fb ? pv->fb_x_us : pv->x_us;
		double adj = l->gaps_trace ? 0.0 : (fb ? lv->fb_adj_ns : lv->adj_ns), d;
		uint32_t drains = fb ? pv->fb_drains : pv->drains;
		uint32_t keys = fb ? pv->fb_nr_keys : pv->nr_keys;
		struct vpmc_latency_sample s = { .vcpu = v, .nr_keys = keys };

		if (!t_end) {
			pv->flagged++;
			continue;
		}
		d = (double)(t_end - lv->t_start) + adj + extra * 1000.0 +
		    l->cost->handler_overhead_ns;
		if (d < 0)
			d = 0;
		if (hist_add(&pv->h, replay_latency_ns(d)))
			l->err = VPMC_ERR_NOMEM;
		pv->sum_ns += d;
		pv->n++;
		pv->fast += d <= l->o.fast_us * 1000.0;
		pv->drains_total += drains;
		pv->fallback += fb;
		pv->last_end = lv->t_start + (uint64_t)d;
		if (l->o.keep_samples) {
			s.fixed_ns = d - l->cost->handler_overhead_ns - x * 1000.0;
			memcpy(s.key, pv->key, sizeof(s.key));
			keep_sample(l, p, &s);
		}
	}
}

/* No end marker in time, or the window was cut: the fallback end if there is one, else
 * flagged. */
static void give_up(struct vpmc_latency *l, struct lat_vcpu *lv, uint32_t v)
{
	if (lv->fb_have)
		close_window(l, lv, v, lv->fb_t, true);
	else
		close_window(l, lv, v, 0, false);
}

static void open_window(struct vpmc_latency *l, struct lat_vcpu *lv, uint64_t t)
{
	size_t p;

	lv->in_win = true;
	lv->t_start = t;
	lv->adj_ns = 0;
	lv->fb_have = false;
	l->starts++;
	for (p = 0; p < l->nr_pol; p++) {
		struct lat_pv *pv = &lv->pv[p];

		if (pv->n && t < pv->last_end)
			pv->overruns++;
		pv->extra_us = pv->x_us = 0;
		pv->drains = pv->nr_keys = 0;
	}
}

static void event_before(struct vpmc_latency *l, struct lat_vcpu *lv, const struct vpmc_event *ev)
{
	replay_exit_event(&lv->xs, ev);
	if (lv->in_win && ev->time_ns > lv->t_start + l->o.max_window_ns)
		give_up(l, lv, ev->vcpu);
	switch (ev->type) {
	case VPMC_EV_EXIT:
		lv->in_exit = true;
		lv->exit_t = ev->time_ns;
		lv->end_pending = lv->fb_pending = false;
		break;
	case VPMC_EV_WRMSR:
		if (ev->index == MSR_IA32_TSC_DEADLINE || ev->index == MSR_X2APIC_TMICT)
			lv->end_pending = true;
		if (ev->index == X2APIC_MSR_EOI)
			lv->fb_pending = true;
		break;
	case VPMC_EV_EOI:
		if (ev->index == l->o.vector)
			lv->fb_pending = true;
		break;
	case VPMC_EV_IRQ:
		if (ev->index != l->o.vector)
			break;
		if (lv->in_win)
			give_up(l, lv, ev->vcpu); /* cut by the next one */
		lv->armed = true;
		break;
	case VPMC_EV_ENTRY:
		if (lv->in_win && lv->in_exit && lv->xs.cls != EXIT_HLT)
			lv->adj_ns += rt_ns(l->cost, lv->xs.cls) - (double)(ev->time_ns - lv->exit_t);
		break;
	default:
		break;
	}
}

static void event_after(struct vpmc_latency *l, struct lat_vcpu *lv, const struct vpmc_event *ev)
{
	size_t p;

	if (ev->type != VPMC_EV_ENTRY)
		return;
	lv->in_exit = false;
	if (lv->armed) {
		lv->armed = false;
		open_window(l, lv, ev->time_ns);
		return;
	}
	if (!lv->in_win)
		return;
	if (lv->end_pending && l->o.end != VPMC_LATENCY_END_EOI) {
		close_window(l, lv, ev->vcpu, ev->time_ns, false);
	} else if (lv->fb_pending && l->o.end == VPMC_LATENCY_END_EOI) {
		close_window(l, lv, ev->vcpu, ev->time_ns, false);
	} else if (lv->fb_pending && l->o.end == VPMC_LATENCY_END_AUTO && !lv->fb_have) {
		lv->fb_have = true;
		lv->fb_t = ev->time_ns;
		lv->fb_adj_ns = lv->adj_ns;
		for (p = 0; p < l->nr_pol; p++) {
			struct lat_pv *pv = &lv->pv[p];

			pv->fb_extra_us = pv->extra_us;
			pv->fb_x_us = pv->x_us;
			pv->fb_drains = pv->drains;
			pv->fb_nr_keys = pv->nr_keys;
		}
	}
}

/* The engine's cost model, once it has begun. */
static void settle(struct vpmc_latency *l)
{
	l->cost = vpmc_replay_cost(l->r);
}

static void event_hook(void *data, const struct vpmc_event *ev, bool after)
{
	struct vpmc_latency *l = data;
	struct lat_vcpu *lv = lat_vcpu(l, ev->vcpu);

	if (!lv)
		return;
	if (!l->cost)
		settle(l);
	if (after)
		event_after(l, lv, ev);
	else
		event_before(l, lv, ev);
}

static const struct replay_shard_hooks shard_hooks;

/* The state and hooks of one engine @r (the caller's, or a shard of a parallel replay). */
static int latency_new(struct vpmc_latency **out, struct vpmc_replay *r,
		       const struct vpmc_latency_opts *o)
{
	struct vpmc_latency *l = calloc(1, sizeof(*l));

	if (!l)
		return VPMC_ERR_NOMEM;
	l->o = *o;
	l->r = r;
	l->nr_pol = vpmc_replay_nr_policies(r);
	l->gaps_trace = o->gaps == VPMC_LATENCY_GAPS_TRACE;
	vpmc_replay_set_exit_hook(r, exit_hook, event_hook, l);
	*out = l;
	return 0;
}

int vpmc_latency_new(struct vpmc_latency **out, struct vpmc_replay *r,
		     const struct vpmc_latency_opts *o)
{
	int err = latency_new(out, r, o);

	if (!err)
		replay_set_shard_hooks(r, &shard_hooks, *out);
	return err;
}

/*
 * Parallel replay (parallel.c): each shard measures the windows of its own policies. A
 * window's bounds come from the trace's events alone, so every shard opens and closes the same
 * windows; what a policy adds to them comes from its own exits. The per-vCPU window state is
 * then the first shard's, and each policy's results and samples its shard's: what one thread
 * computes for every policy.
 */
static int shard_attach(void *data, struct vpmc_replay *shard, void **out)
{
	struct vpmc_latency *l = data, *sl;
	int err = latency_new(&sl, shard, &l->o);

	if (!err)
		sl->gaps_trace = l->gaps_trace;
	*out = err ? NULL : sl;
	return err;
}

/* Move a policy's results @src into @dst (the histogram's buckets with them). */
static void adopt_pv(struct lat_pv *dst, struct lat_pv *src)
{
	hist_release(&dst->h);
	*dst = *src;
	hist_init(&src->h);
}

static int shard_adopt(void *data, void *shard_data, unsigned int first, bool first_shard)
{
	struct vpmc_latency *l = data, *sl = shard_data;
	struct lat_vcpu *lv, *src;
	struct lat_pv *pv;
	uint32_t v;
	size_t p;

	if (sl->err)
		return sl->err;
	settle(l);
	for (v = 0; v < sl->nr_vcpus; v++) {
		src = sl->vc[v];
		lv = src ? lat_vcpu(l, v) : NULL;
		if (!src)
			continue;
		if (!lv)
			return VPMC_ERR_NOMEM;
		if (first_shard) {
			pv = lv->pv;
			*lv = *src;
			lv->pv = pv;
		}
		for (p = 0; p < sl->nr_pol; p++)
			adopt_pv(&lv->pv[first + p], &src->pv[p]);
	}
	for (p = 0; p < sl->nr_pol; p++) {
		free(l->samples[first + p]);
		l->samples[first + p] = sl->samples[p];
		l->nr_samples[first + p] = sl->nr_samples[p];
		l->cap_samples[first + p] = sl->cap_samples[p];
		sl->samples[p] = NULL;
	}
	if (first_shard)
		l->starts = sl->starts;
	return 0;
}

static void shard_release(void *shard_data)
{
	vpmc_latency_free(shard_data);
}

static const struct replay_shard_hooks shard_hooks = {
	.attach = shard_attach,
	.adopt = shard_adopt,
	.release = shard_release,
};

void vpmc_latency_set_gaps(struct vpmc_latency *l, bool trace_is_base)
{
	if (l->o.gaps == VPMC_LATENCY_GAPS_AUTO)
		l->gaps_trace = trace_is_base;
}

int vpmc_latency_finish(struct vpmc_latency *l)
{
	uint32_t v;

	for (v = 0; v < l->nr_vcpus; v++) {
		if (l->vc[v] && l->vc[v]->in_win)
			give_up(l, l->vc[v], v);
	}
	return l->err;
}

void replay_latency_percentiles(const struct vpmc_hist *h, struct vpmc_latency_stats *s)
{
	s->p50_us = s->p99_us = s->p999_us = s->max_us = NAN;
	if (!h->n)
		return;
	s->p50_us = (double)hist_percentile(h, 5000) / 1000.0;
	s->p99_us = (double)hist_percentile(h, 9900) / 1000.0;
	s->p999_us = (double)hist_percentile(h, 9990) / 1000.0;
	s->max_us = (double)h->max / 1000.0;
}

static void stats_of(const struct vpmc_latency *l, const struct vpmc_hist *h,
		     struct vpmc_latency_stats *s)
{
	double span = vpmc_latency_span_s(l);

	s->samples_per_s = span > 0 ? (double)s->samples / span : NAN;
	s->mean_us = NAN;
	s->fast_fraction = s->drains_per_sample = NAN;
	replay_latency_percentiles(h, s);
}

void vpmc_latency_stats(const struct vpmc_latency *l, size_t policy, int vcpu,
			struct vpmc_latency_stats *s)
{
	struct vpmc_hist h;
	double sum = 0;
	uint64_t fast = 0;
	uint32_t v;

	memset(s, 0, sizeof(*s));
	hist_init(&h);
	for (v = 0; v < l->nr_vcpus; v++) {
		const struct lat_pv *pv;

		if (!l->vc[v] || (vcpu >= 0 && (uint32_t)vcpu != v))
			continue;
		pv = &l->vc[v]->pv[policy];
		if (hist_merge(&h, &pv->h))
			continue; /* out of memory: the percentiles then miss this vCPU */
		s->samples += pv->n;
		s->flagged += pv->flagged;
		s->fallback += pv->fallback;
		s->overruns += pv->overruns;
		s->drains += pv->drains_total;
		sum += pv->sum_ns;
		fast += pv->fast;
	}
	stats_of(l, &h, s);
	if (s->samples) {
		s->mean_us = sum / (double)s->samples / 1000.0;
		s->fast_fraction = (double)fast / (double)s->samples;
		s->drains_per_sample = (double)s->drains / (double)s->samples;
	}
	hist_release(&h);
}

const struct vpmc_latency_opts *vpmc_latency_options(const struct vpmc_latency *l)
{
	return &l->o;
}

uint32_t vpmc_latency_nr_vcpus(const struct vpmc_latency *l)
{
	return l->nr_vcpus;
}

uint64_t vpmc_latency_starts(const struct vpmc_latency *l)
{
	return l->starts;
}

double vpmc_latency_span_s(const struct vpmc_latency *l)
{
	uint64_t first, last;
	uint32_t n;

	if (!vpmc_replay_span(l->r, &n, &first, &last))
		return 0.0;
	return (double)(last - first) / 1e9;
}

bool vpmc_latency_gaps_trace(const struct vpmc_latency *l)
{
	return l->gaps_trace;
}

const struct vpmc_latency_sample *vpmc_latency_samples(const struct vpmc_latency *l,
							size_t policy, size_t *n)
{
	*n = policy < l->nr_pol ? l->nr_samples[policy] : 0;
	return policy < l->nr_pol ? l->samples[policy] : NULL;
}

void vpmc_latency_free(struct vpmc_latency *l)
{
	uint32_t v;
	size_t p;

	if (!l)
		return;
	for (v = 0; v < l->nr_vcpus; v++) {
		if (!l->vc[v])
			continue;
		for (p = 0; p < l->nr_pol; p++)
			hist_release(&l->vc[v]->pv[p].h);
		free(l->vc[v]->pv);
		free(l->vc[v]);
	}
	for (p = 0; p < VPMC_REPLAY_MAX_POLICIES; p++)
		free(l->samples[p]);
	free(l);
}

/* ---- merge_state (summary.c) ---- */

bool replay_latency_acc(const struct vpmc_latency *l, uint32_t v, size_t p,
			struct replay_latency_acc *a)
{
	const struct lat_pv *pv;

	if (v >= l->nr_vcpus || !l->vc[v] || p >= l->nr_pol)
		return false;
	pv = &l->vc[v]->pv[p];
	*a = (struct replay_latency_acc){
		.n = pv->n, .fast = pv->fast, .drains = pv->drains_total, .flagged = pv->flagged,
		.fallback = pv->fallback, .overruns = pv->overruns, .sum_ns = pv->sum_ns,
		.h = &pv->h,
	};
	return true;
}

int replay_latency_load(struct vpmc_latency *l, uint32_t v, size_t p,
			const struct replay_latency_acc *a)
{
	struct lat_vcpu *lv;
	struct lat_pv *pv;

	if (v >= VPMC_MAX_VCPUS || p >= l->nr_pol)
		return VPMC_ERR_INVAL;
	lv = lat_vcpu(l, v);
	if (!lv)
		return VPMC_ERR_NOMEM;
	pv = &lv->pv[p];
	if (hist_merge(&pv->h, a->h))
		return VPMC_ERR_NOMEM;
	pv->n += a->n;
	pv->fast += a->fast;
	pv->drains_total += a->drains;
	pv->flagged += a->flagged;
	pv->fallback += a->fallback;
	pv->overruns += a->overruns;
	pv->sum_ns += a->sum_ns;
	return 0;
}

void replay_latency_load_run(struct vpmc_latency *l, uint64_t starts, bool gaps_trace)
{
	l->starts += starts;
	l->gaps_trace = gaps_trace;
}
