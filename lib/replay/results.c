/* results.c - What a replay found: each policy's metrics, summed over vCPUs and counters. */
#include "config.h"

#include <string.h>

#include "replay-local.h"

int replay_lane_sum(const struct vpmc_replay *r, const struct replay_lane *l, int vcpu,
		    struct metrics_vcpu *sum)
{
	uint32_t v;
	int err = 0;

	metrics_vcpu_init(sum, &r->cfg, NULL);
	for (v = 0; !err && v < r->nr_vcpus; v++) {
		if (l->vcpus[v] && (vcpu < 0 || (uint32_t)vcpu == v))
			err = metrics_vcpu_add(sum, &l->vcpus[v]->m);
	}
	return err;
}

void replay_fill_metrics(const struct metrics_vcpu *sum, int slot, struct vpmc_metrics *m)
{
	struct vpmc_hist ev, ns;
	double abs_sum = 0, sum_err = 0;
	int i;

	memset(m, 0, sizeof(*m));
	hist_init(&ev);
	hist_init(&ns);
	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		const struct metrics_ctr *c = &sum->ctr[i];

		if (slot >= 0 && i != slot)
			continue;
		m->reads += c->reads;
		m->reads_with_error += c->reads_err;
		if (c->err_abs_max > m->error_events_max_abs)
			m->error_events_max_abs = c->err_abs_max;
		abs_sum += c->err_abs_sum;
		sum_err += c->err_sum;
		m->ref_overflows += c->ref_overflows;
		m->overflows_matched += c->matched;
		m->overflows_missed += c->missed;
		/* a merge that fails for memory leaves the percentiles short, never wrong-sized */
		if (hist_merge(&ev, &c->late_ev) || hist_merge(&ns, &c->late_ns))
			break;
	}
	if (m->reads) {
		m->error_events_mean_abs = abs_sum / (double)m->reads;
		m->error_events_mean = sum_err / (double)m->reads;
	}
	m->lateness_events_p50 = hist_percentile(&ev, 5000);
	m->lateness_events_p99 = hist_percentile(&ev, 9900);
	m->lateness_events_max = ev.max;
	m->lateness_ns_p50 = hist_percentile(&ns, 5000);
	m->lateness_ns_p99 = hist_percentile(&ns, 9900);
	m->lateness_ns_max = ns.max;
	hist_release(&ev);
	hist_release(&ns);
	if (slot >= 0)
		return;
	m->status_reads = sum->status_reads;
	m->status_reads_differ = sum->status_differ;
	m->pmis_delivered = sum->pmis;
	m->pmis_dropped = sum->pmis_dropped;
	m->pmis_spurious = sum->spurious;
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
	struct metrics_vcpu sum;
	int slot = counter < 0 ? -1 : metrics_slot(counter), err;

	if (i >= r->nr_lanes || (counter >= 0 && slot < 0))
		return VPMC_ERR_INVAL;
	err = replay_lane_sum(r, &r->lanes[i], vcpu, &sum);
	if (!err)
		replay_fill_metrics(&sum, slot, m);
	metrics_vcpu_release(&sum);
	return err;
}

char **replay_text(struct vpmc_replay *r)
{
	return &r->text;
}

struct vpmc__errbuf *replay_errbuf(struct vpmc_replay *r)
{
	return &r->errbuf;
}
