// SPDX-License-Identifier: GPL-2.0-only
/*
 * results.c - What a replay found: each policy's metrics, summed over vCPUs and counters, and
 * the run-wide facts a report prints with them.
 */
#include "config.h"

#include <string.h>

#include "replay-local.h"

/* Add lane @l's metrics and samples of every vCPU into @sum and @ideal. */
static int replay_lane_sum(const struct vpmc_replay *r, const struct replay_lane *l,
			   struct metrics_vcpu *sum, struct ideal_match *ideal)
{
	uint32_t v;
	int err = 0;

	for (v = replay_next_vcpu(r, 0); !err && v < r->nr_vcpus; v = replay_next_vcpu(r, v + 1)) {
		if (l->vcpus[v])
			err = metrics_vcpu_add(sum, &l->vcpus[v]->m);
		if (!err && l->vcpus[v])
			err = ideal_add(ideal, &l->vcpus[v]->ideal);
	}
	return err;
}

/* The one vCPU of lane @l that vCPU @vcpu (-1 all) covers, or NULL: its figures are read in
 * place (a sum into a copy merged every histogram, allocating its blocks, at each call: most
 * of a report's and of fuzz_engine's time per vCPU and counter). */
static const struct lane_vcpu *replay_lane_one(const struct vpmc_replay *r,
					       const struct replay_lane *l, int vcpu)
{
	const struct lane_vcpu *one = NULL;
	uint32_t v;

	if (vcpu >= 0)
		return (uint32_t)vcpu < r->nr_vcpus ? l->vcpus[vcpu] : NULL;
	for (v = replay_next_vcpu(r, 0); v < r->nr_vcpus; v = replay_next_vcpu(r, v + 1)) {
		if (!l->vcpus[v])
			continue;
		if (one)
			return NULL;
		one = l->vcpus[v];
	}
	return one;
}

/* The samples of @im into @m (vCPU rows: not per counter). */
static void replay_fill_samples(const struct ideal_match *im, struct vpmc_metrics *m)
{
	m->samples = m->pmis_delivered;
	m->samples_ideal = im->ideal;
	m->samples_matched = im->matched;
	m->samples_unmatched = im->unmatched;
	m->ideal_lateness_insn_p50 = hist_percentile(&im->late_ev, 5000);
	m->ideal_lateness_insn_p99 = hist_percentile(&im->late_ev, 9900);
	m->ideal_lateness_insn_max = im->late_ev.max;
	m->ideal_lateness_ns_p50 = hist_percentile(&im->late_ns, 5000);
	m->ideal_lateness_ns_p99 = hist_percentile(&im->late_ns, 9900);
	m->ideal_lateness_ns_max = im->late_ns.max;
}

/* The lateness of @sum's counter slot @slot, or (-1) of all its slots, into @m: a slot's own
 * histograms when it alone has samples, else merged into @ev and @ns (empty; the caller
 * releases them). */
static void replay_fill_lateness(const struct metrics_vcpu *sum, int slot, struct vpmc_metrics *m,
				 struct vpmc_hist *ev, struct vpmc_hist *ns)
{
	const struct vpmc_hist *e = ev, *n = ns;
	int i, one = slot, nr = 0;

	for (i = 0; slot < 0 && i < METRICS_NR_SLOTS; i++) {
		if (sum->ctr[i].late_ev.n || sum->ctr[i].late_ns.n)
			one = nr++ ? -1 : i;
	}
	if (one >= 0) {
		e = &sum->ctr[one].late_ev;
		n = &sum->ctr[one].late_ns;
	}
	/* a merge that fails for memory leaves the percentiles short, never wrong-sized */
	for (i = 0; nr > 1 && i < METRICS_NR_SLOTS; i++) {
		if (hist_merge(ev, &sum->ctr[i].late_ev) || hist_merge(ns, &sum->ctr[i].late_ns))
			break;
	}
	m->lateness_events_p50 = hist_percentile(e, 5000);
	m->lateness_events_p99 = hist_percentile(e, 9900);
	m->lateness_events_max = e->max;
	m->lateness_ns_p50 = hist_percentile(n, 5000);
	m->lateness_ns_p99 = hist_percentile(n, 9900);
	m->lateness_ns_max = n->max;
}

/* @sum's figures for one counter slot (-1 all) as the public struct. */
static void replay_fill_metrics(const struct metrics_vcpu *sum, int slot, struct vpmc_metrics *m)
{
	struct vpmc_hist ev, ns;
	double abs_sum = 0, sum_err = 0, ref_sum = 0;
	int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		const struct metrics_ctr *c = &sum->ctr[i];

		if (slot >= 0 && i != slot)
			continue;
		m->reads += c->reads;
		m->reads_with_error += c->reads_err;
		m->reads_not_modeled += c->reads_not_modeled;
		if (c->err_abs_max > m->error_events_max_abs)
			m->error_events_max_abs = c->err_abs_max;
		abs_sum += c->err_abs_sum;
		sum_err += c->err_sum;
		ref_sum += c->ref_sum;
		m->ref_overflows += c->ref_overflows;
		m->overflows_matched += c->matched;
		m->overflows_missed += c->missed;
		m->dropped_by_guest += c->dropped_by_guest;
	}
	if (m->reads) {
		m->error_events_mean_abs = abs_sum / (double)m->reads;
		m->error_events_mean = sum_err / (double)m->reads;
	}
	if (ref_sum > 0)
		m->count_error_rel_mean = abs_sum / ref_sum;
	hist_init(&ev);
	hist_init(&ns);
	replay_fill_lateness(sum, slot, m, &ev, &ns);
	hist_release(&ev);
	hist_release(&ns);
	if (slot >= 0)
		return;
	m->status_reads = sum->status_reads;
	m->status_reads_differ = sum->status_differ;
	m->pmis_delivered = sum->pmis;
	m->pmis_dropped = sum->pmis_dropped;
	m->pmis_spurious = sum->spurious;
	m->pmis_not_modeled = sum->pmis_not_modeled;
	m->exits = sum->exits;
	m->exits_implicit = sum->exits_implicit;
	m->exits_with_drain = sum->exits_drained;
	m->drains = sum->drains;
	m->reprograms = sum->reprograms;
	m->perf_resumes = sum->resumes;
	m->perf_creates = sum->creates;
	m->triggers = sum->triggers;
	m->host_us_total = sum->cost_us_total;
	m->host_us_per_exit_max = sum->cost_us_max;
	if (sum->exits)
		m->host_us_per_exit_mean = sum->cost_us_total / (double)sum->exits;
	m->host_us_per_exit_p50 = (double)hist_percentile(&sum->cost_ns, 5000) / 1000.0;
	m->host_us_per_exit_p99 = (double)hist_percentile(&sum->cost_ns, 9900) / 1000.0;
	metrics_fill_host(sum, m);
}

int vpmc_replay_metrics(const struct vpmc_replay *r, size_t i, int vcpu, int counter,
			struct vpmc_metrics *m)
{
	const struct replay_lane *l;
	const struct lane_vcpu *one;
	struct metrics_vcpu sum;
	struct ideal_match ideal;
	int slot = counter < 0 ? -1 : metrics_slot(counter), err;

	if (i >= vpmc_replay_nr_policies(r) || (counter >= 0 && slot < 0))
		return VPMC_ERR_INVAL;
	l = &r->lanes[i + 1];
	one = replay_lane_one(r, l, vcpu);
	if (one) {
		replay_fill_metrics(&one->m, slot, m);
		if (slot < 0)
			replay_fill_samples(&one->ideal, m);
		return 0;
	}
	/* several vCPUs, or none (an empty sum) */
	metrics_vcpu_init(&sum, &r->cfg, NULL);
	ideal_init(&ideal);
	err = vcpu >= 0 ? 0 : replay_lane_sum(r, l, &sum, &ideal);
	if (!err) {
		replay_fill_metrics(&sum, slot, m);
		if (slot < 0)
			replay_fill_samples(&ideal, m);
	}
	metrics_vcpu_release(&sum);
	ideal_release(&ideal);
	return err;
}

/* ---- run-wide facts ---- */

bool vpmc_replay_source(const struct vpmc_replay *r, const char **path,
			struct vpmc_reader_stats *st)
{
	if (path)
		*path = r->source;
	if (st && r->has_source_stats)
		*st = r->source_stats;
	return r->has_source_stats;
}

void vpmc_replay_set_assumptions(struct vpmc_replay *r, const struct vpmc_replay_assumptions *a)
{
	r->assumed = *a;
	r->assumed.vendor_how[sizeof(r->assumed.vendor_how) - 1] = '\0';
	r->assumed.host_how[sizeof(r->assumed.host_how) - 1] = '\0';
}

const struct vpmc_replay_assumptions *vpmc_replay_assumptions(const struct vpmc_replay *r)
{
	return &r->assumed;
}

uint64_t vpmc_replay_trace_exits(const struct vpmc_replay *r, uint64_t *ns_sum)
{
	if (ns_sum)
		*ns_sum = r->exit_ns_sum;
	return r->exits_measured;
}

const struct vpmc_pmu_config *vpmc_replay_config(const struct vpmc_replay *r)
{
	return &r->cfg;
}

const struct vpmc_cost *vpmc_replay_cost(const struct vpmc_replay *r)
{
	return &r->cost;
}

uint64_t vpmc_replay_span(const struct vpmc_replay *r, uint32_t *nr_vcpus, uint64_t *first_ns,
			  uint64_t *last_ns)
{
	if (nr_vcpus)
		*nr_vcpus = r->nr_vcpus;
	if (first_ns)
		*first_ns = r->t_first;
	if (last_ns)
		*last_ns = r->t_last;
	return r->events;
}

/* All lanes get a vCPU's models together (replay_add_vcpu()); the engine tests the first. */
bool vpmc_replay_has_vcpu(const struct vpmc_replay *r, uint32_t vcpu)
{
	return vcpu < r->nr_vcpus && r->lanes[0].vcpus[vcpu];
}

size_t vpmc_replay_nr_assumed(const struct vpmc_replay *r)
{
	return r->ov.nr;
}

const char *vpmc_replay_assumed(const struct vpmc_replay *r, size_t i)
{
	return i < r->ov.nr ? r->ov.ctr[i].spec : NULL;
}

/* ---- the report's slots ---- */

char **replay_text(struct vpmc_replay *r)
{
	return &r->text;
}

struct vpmc__errbuf *replay_errbuf(struct vpmc_replay *r)
{
	return &r->errbuf;
}

/* ---- mergeable summaries ---- */

static const struct lane_vcpu *unit(const struct vpmc_replay *r, size_t i, uint32_t vcpu)
{
	if (i >= vpmc_replay_nr_policies(r) || !vpmc_replay_has_vcpu(r, vcpu))
		return NULL;
	return r->lanes[i + 1].vcpus[vcpu];
}

const struct metrics_vcpu *replay_unit_metrics(const struct vpmc_replay *r, size_t i,
					       uint32_t vcpu)
{
	const struct lane_vcpu *lv = unit(r, i, vcpu);

	return lv ? &lv->m : NULL;
}

const struct ideal_match *replay_unit_ideal(const struct vpmc_replay *r, size_t i, uint32_t vcpu)
{
	const struct lane_vcpu *lv = unit(r, i, vcpu);

	return lv ? &lv->ideal : NULL;
}

void replay_get_facts(const struct vpmc_replay *r, struct replay_facts *f)
{
	f->events = r->events;
	f->t_first = r->t_first;
	f->t_last = r->t_last;
	f->exits_measured = r->exits_measured;
	f->exit_ns_sum = r->exit_ns_sum;
}

uint64_t replay_handler_runs(const struct vpmc_replay *r, size_t i)
{
	return i < vpmc_replay_nr_policies(r) ? r->lanes[i + 1].handler_runs : 0;
}

void replay_set_summary(struct vpmc_replay *r, void *summary, void (*free_fn)(void *summary))
{
	if (r->summary_free)
		r->summary_free(r->summary);
	r->summary = summary;
	r->summary_free = free_fn;
}

void *replay_summary(const struct vpmc_replay *r)
{
	return r->summary;
}
