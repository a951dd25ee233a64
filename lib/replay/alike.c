// SPDX-License-Identifier: GPL-2.0-only
/* alike.c - Lanes that behave alike: one computes, the others follow (see alike.h). */
#include "config.h"

#include <string.h>

#include "alike.h"
#include "replay-local.h"

static bool tolerance_kind(enum vpmc_policy_kind kind)
{
	return kind == VPMC_POLICY_TOLERANCE || kind == VPMC_POLICY_TOLERANCE_FOLD ||
	       kind == VPMC_POLICY_TOLERANCE_WRAP;
}

/* Whether @r's lanes may share (alike.h). */
static bool alike_allowed(const struct vpmc_replay *r)
{
	return r->ov.nr && !r->exit_fn && !r->event_fn && !r->log.obs;
}

bool alike_possible(const struct vpmc_replay *r)
{
	unsigned int i, j;

	if (!alike_allowed(r))
		return false;
	for (i = 1; i < r->nr_lanes; i++) {
		for (j = i + 1; tolerance_kind(r->lanes[i].policy.kind) && j < r->nr_lanes; j++) {
			if (r->lanes[j].policy.kind == r->lanes[i].policy.kind)
				return true;
		}
	}
	return false;
}

unsigned int alike_units(const struct vpmc_replay *s, unsigned int *first)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nr_lanes; i++) {
		if (s->lead[i] == i)
			first[n++] = i;
	}
	first[n] = s->nr_lanes;
	return n;
}

void alike_begin(struct vpmc_replay *r)
{
	unsigned int i, j;

	for (i = 0; i < r->nr_lanes; i++)
		r->lead[i] = (uint8_t)i;
	if (!alike_allowed(r))
		return;
	for (i = 1; i < r->nr_lanes; i++) {
		if (r->lead[i] != i || !tolerance_kind(r->lanes[i].policy.kind))
			continue;
		for (j = i + 1; j < r->nr_lanes; j++) {
			if (r->lead[j] == j && r->lanes[j].policy.kind == r->lanes[i].policy.kind) {
				r->lead[j] = (uint8_t)i;
				r->idle[j] = true;
				r->alike = true;
			}
		}
	}
}

/* The lowest lane that follows lane @i, or 0 (lane 0 follows none). */
static unsigned int first_follower(const struct vpmc_replay *r, unsigned int i)
{
	unsigned int j;

	for (j = i + 1; j < r->nr_lanes; j++) {
		if (r->lead[j] == i)
			return j;
	}
	return 0;
}

/* Lane @i's comparisons with its T on every vCPU since the last look (alike.h). */
static void lane_seen(struct vpmc_replay *r, unsigned int i, uint64_t *le, uint64_t *gt)
{
	uint32_t v;

	*le = *gt = 0;
	for (v = replay_next_vcpu(r, 0); v < r->nr_vcpus; v = replay_next_vcpu(r, v + 1))
		vpmc__vcpu_tolerance_seen(r->lanes[i].vcpus[v]->pol, le, gt);
}

/* Lane @d's state on one vCPU made @s's: both models, metrics, samples, guest state. Every
 * field that outlives an event is here (ev, seg and the group's queue are the event's). */
static int lane_vcpu_copy(struct lane_vcpu *d, const struct lane_vcpu *s)
{
	int err;

	err = vpmc__vcpu_copy(d->pol, s->pol);
	if (!err)
		err = vpmc__vcpu_copy(d->gv->ref, s->gv->ref);
	if (!err)
		err = metrics_vcpu_copy(&d->m, &s->m);
	if (!err)
		err = ideal_copy(&d->ideal, &s->ideal);
	if (err)
		return err;
	d->triggers_seen = s->triggers_seen;
	d->qi = s->qi;
	d->cpl = s->cpl;
	d->pmi_delivered = s->pmi_delivered;
	d->in_handler = s->in_handler;
	d->pos = s->pos;
	d->seg_base = s->seg_base;
	d->ref_seg = s->ref_seg;
	d->read_value = s->read_value;
	d->og = s->og;
	return 0;
}

/* Lane @d's state made lane @s's on the vCPUs that had models at the block's start (one added
 * since ran its first event on its own, which a pass again does not repeat). */
static int lane_copy(struct vpmc_replay *r, unsigned int d, unsigned int s)
{
	struct replay_lane *ld = &r->lanes[d];
	const struct replay_lane *ls = &r->lanes[s];
	uint32_t v;
	int err;

	for (v = 0; v < r->ck_nr_vcpus; v++) {
		if (!(r->ck_present[v / 64] & (1ULL << (v % 64))))
			continue;
		err = lane_vcpu_copy(ld->vcpus[v], ls->vcpus[v]);
		if (err)
			return err;
	}
	ld->handler_runs = ls->handler_runs;
	ld->handler_capped = ls->handler_capped;
	ld->capped_first_ns = ls->capped_first_ns;
	ld->capped_first_vcpu = ls->capped_first_vcpu;
	return 0;
}

int alike_pass_begin(struct vpmc_replay *r, bool first)
{
	unsigned int i, f;
	uint64_t le, gt;
	int err;

	if (first) {
		memcpy(r->ck_present, r->vcpu_present, sizeof(r->ck_present));
		r->ck_nr_vcpus = r->nr_vcpus;
	}
	r->rerun = !first;
	for (i = 1; i < r->nr_lanes; i++) {
		if (r->idle[i] || r->lead[i] != i)
			continue;
		f = first_follower(r, i);
		if (!f)
			continue;
		lane_seen(r, i, &le, &gt); /* forget what earlier blocks found */
		err = lane_copy(r, f, i);
		if (err)
			return err;
	}
	return 0;
}

int alike_pass_end(struct vpmc_replay *r)
{
	bool next[VPMC_REPLAY_MAX_POLICIES + 1] = { false };
	unsigned int i, j, f, nl;
	uint64_t le, gt;
	bool again = false;
	int err;

	for (i = 1; i < r->nr_lanes; i++) {
		if (r->idle[i] || r->lead[i] != i)
			continue;
		f = first_follower(r, i);
		if (!f)
			continue;
		lane_seen(r, i, &le, &gt);
		nl = 0;
		for (j = f; j < r->nr_lanes; j++) {
			if (r->lead[j] != i || alike_same(le, gt, r->lanes[j].policy.arg))
				continue;
			if (!nl)
				nl = j; /* the first to leave leads the others that leave */
			r->lead[j] = (uint8_t)nl;
		}
		if (!nl)
			continue;
		if (nl != f) { /* f holds the checkpoint */
			err = lane_copy(r, nl, f);
			if (err)
				return err;
		}
		next[nl] = again = true;
	}
	for (i = 0; i < r->nr_lanes; i++)
		r->idle[i] = again ? !next[i] : r->lead[i] != i;
	r->rerun = false;
	return again;
}

int alike_finish(struct vpmc_replay *r)
{
	unsigned int j;
	int err;

	if (!r->alike)
		return 0;
	memcpy(r->ck_present, r->vcpu_present, sizeof(r->ck_present));
	r->ck_nr_vcpus = r->nr_vcpus;
	for (j = 1; j < r->nr_lanes; j++) {
		if (r->lead[j] == j)
			continue;
		err = lane_copy(r, j, r->lead[j]);
		if (err)
			return err;
	}
	return 0;
}
