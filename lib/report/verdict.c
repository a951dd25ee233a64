// SPDX-License-Identifier: GPL-2.0-only
/*
 * verdict.c - Warnings that keep a reader of compare or sweep from a wrong conclusion: a trace
 * on which no policy can differ, rows that do not differ, a mediated row on a PMU the mediated
 * vPMU does not support, and a ranking by host cost that an estimated cost parameter decides.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <vpmc/replay.h>

#include "internal.h"
#include "sensitivity.h"

/* Did the guest use a counter under any policy: read it, reprogram it, or get a sample? */
static bool verdict_counter_used(const struct vpmc_replay *r)
{
	size_t i, n = vpmc_replay_nr_policies(r);
	struct vpmc_metrics m;

	for (i = 0; i < n; i++) {
		if (vpmc_replay_metrics(r, i, -1, -1, &m))
			return true; /* unknown: no claim */
		if (m.reads || m.reprograms || m.samples || m.samples_ideal || m.ref_overflows ||
		    m.status_reads)
			return true;
	}
	return false;
}

/* The figures a row is judged by. */
static bool verdict_same(const struct vpmc_metrics *a, const struct vpmc_metrics *b)
{
	return a->samples == b->samples && a->samples_matched == b->samples_matched &&
	       a->reads_with_error == b->reads_with_error &&
	       a->error_events_mean_abs == b->error_events_mean_abs &&
	       a->pmis_delivered == b->pmis_delivered && a->pmis_spurious == b->pmis_spurious &&
	       a->overflows_matched == b->overflows_matched && a->exits == b->exits &&
	       a->drains == b->drains && a->reprograms == b->reprograms &&
	       a->triggers == b->triggers && a->host_us_total == b->host_us_total &&
	       a->ideal_lateness_insn_max == b->ideal_lateness_insn_max &&
	       a->lateness_events_max == b->lateness_events_max;
}

/* Every row gives the same figures (two rows at least). */
static bool verdict_all_same(const struct vpmc_replay *r)
{
	size_t i, n = vpmc_replay_nr_policies(r);
	struct vpmc_metrics first, m;

	if (n < 2 || vpmc_replay_metrics(r, 0, -1, -1, &first))
		return false;
	for (i = 1; i < n; i++) {
		if (vpmc_replay_metrics(r, i, -1, -1, &m) || !verdict_same(&first, &m))
			return false;
	}
	return true;
}

/* Warning @i about the ranking by host cost: a parameter whose range flips it. */
static bool verdict_sensitivity(const struct vpmc_replay *r, size_t i, char *buf, size_t len)
{
	struct sens *s = malloc(sizeof(*s));
	size_t j, k = 0, n;
	bool found = false;

	if (!s || sens_compute(r, s)) {
		free(s);
		return false;
	}
	for (j = 0; !found && j < s->n; j++) {
		if (s->p[j].flips && k++ == i) {
			snprintf(buf, len, "an estimated cost parameter decides the ranking: %s",
				 vpmc_cost_params(&n)[s->p[j].idx].name);
			found = true;
		}
	}
	free(s);
	return found;
}

/* A mediated row on an AMD PMU without PerfMonV2: the mediated vPMU needs it (as latency's row
 * note says), so the row is this guest on a host that has it. */
static bool verdict_mediated_hypothetical(const struct vpmc_replay *r)
{
	const struct vpmc_pmu_config *cfg = vpmc_replay_config(r);
	size_t i, n = vpmc_replay_nr_policies(r);

	if (!cfg || cfg->vendor != VPMC_VENDOR_AMD || cfg->version >= 2)
		return false;
	for (i = 0; i < n; i++) {
		if (vpmc_replay_policy(r, i)->kind == VPMC_POLICY_MEDIATED)
			return true;
	}
	return false;
}

bool vpmc_replay_verdict_warning(const struct vpmc_replay *r, size_t i, char *buf, size_t len)
{
	size_t k = 0;

	if (!vpmc_replay_nr_assumed(r) && !verdict_counter_used(r) && k++ == i) {
		snprintf(buf, len, "the trace's guest programs no PMU counter (none read, "
			 "reprogrammed or overflowed) and no --assume was given: no policy can differ "
			 "here, and equal rows do not mean \"no impact\"; lay a guest profiler over "
			 "the trace with --assume, e.g. --assume fixed0,period=100000");
		return true;
	}
	if (verdict_all_same(r) && k++ == i) {
		snprintf(buf, len, "all %zu rows are identical: on this trace the policies do not "
			 "differ", vpmc_replay_nr_policies(r));
		return true;
	}
	if (verdict_mediated_hypothetical(r) && k++ == i) {
		snprintf(buf, len, "mediated is hypothetical on this trace: the mediated vPMU needs "
			 "PerfMonV2 on AMD, which this PMU (version %u) lacks; its row is this guest on "
			 "a host that has it", vpmc_replay_config(r)->version);
		return true;
	}
	return i >= k && verdict_sensitivity(r, i - k, buf, len);
}
