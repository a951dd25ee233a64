// SPDX-License-Identifier: GPL-2.0-only
/*
 * replay.c - The replay engine: one pass over the events, each applied to the reference and to
 * every policy's model of its vCPU; observations go to the metrics (and the log) in the order
 * they happened; with an overlay, each policy's PMIs run the guest's PMI handler where they
 * came, inside a guest segment too (lane_guest()).
 */
#include "config.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

#define GROUP_QUEUE_MAX 4096   /* reference observations of one event */
#define HANDLER_ROUNDS_MAX 8   /* PMIs latched while the guest's handler runs */
#define SEGMENT_PARTS_MAX (1u << 20) /* PMI handler runs inside one guest segment */
#define PROGRESS_EVERY (1u << 20)

int vpmc_replay_new(struct vpmc_replay **out)
{
	struct vpmc_replay *r = calloc(1, sizeof(*r));
	struct replay_lane *ideal;

	if (!r)
		return VPMC_ERR_NOMEM;
	vpmc_cost_default(&r->cost);
	ideal = &r->lanes[REPLAY_IDEAL];
	ideal->policy = (struct vpmc_policy){ VPMC_POLICY_REFERENCE, 0 };
	snprintf(ideal->name, sizeof(ideal->name), "ideal");
	r->nr_lanes = 1;
	*out = r;
	return 0;
}

static void group_vcpu_free(struct group_vcpu *gv)
{
	if (!gv)
		return;
	vpmc_vcpu_free(gv->ref);
	free(gv->q);
	free(gv);
}

static void lane_vcpu_free(struct lane_vcpu *lv)
{
	if (!lv)
		return;
	vpmc_vcpu_free(lv->pol);
	metrics_vcpu_release(&lv->m);
	ideal_release(&lv->ideal);
	free(lv);
}

void vpmc_replay_free(struct vpmc_replay *r)
{
	unsigned int i;
	uint32_t v;

	if (!r)
		return;
	for (i = 0; i < r->nr_lanes; i++) {
		for (v = replay_next_vcpu(r, 0); r->lanes[i].vcpus && v < r->nr_vcpus;
		     v = replay_next_vcpu(r, v + 1))
			lane_vcpu_free(r->lanes[i].vcpus[v]);
		free(r->lanes[i].vcpus);
	}
	for (i = 0; i < r->nr_groups; i++) {
		for (v = replay_next_vcpu(r, 0); r->groups[i]->vcpus && v < r->nr_vcpus;
		     v = replay_next_vcpu(r, v + 1))
			group_vcpu_free(r->groups[i]->vcpus[v]);
		free(r->groups[i]->vcpus);
		free(r->groups[i]->lanes);
		free(r->groups[i]);
	}
	free(r->vlanes);
	free(r->vgroups);
	for (i = 0; i < r->nr_shards; i++)
		vpmc_replay_free(r->shards[i]);
	free(r->shards);
	replay_warnings_free(r);
	if (r->summary_free)
		r->summary_free(r->summary);
	free(r->source);
	free(r->text);
	free(r);
}

void vpmc_replay_set_threads(struct vpmc_replay *r, unsigned int n)
{
	r->threads = n;
}

const char *vpmc_replay_error(const struct vpmc_replay *r)
{
	return r->errbuf.msg;
}

int vpmc_replay_add_policy(struct vpmc_replay *r, const struct vpmc_policy *p)
{
	struct replay_lane *l;

	if (r->begun || !p || (unsigned int)p->kind >= VPMC_POLICY_NR)
		return VPMC_ERR_INVAL;
	if (r->nr_lanes == VPMC_REPLAY_MAX_POLICIES + 1)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_LIMIT, "at most %d policies",
				       VPMC_REPLAY_MAX_POLICIES);
	l = &r->lanes[r->nr_lanes];
	memset(l, 0, sizeof(*l));
	l->policy = *p;
	vpmc_policy_format(p, l->name, sizeof(l->name));
	r->nr_lanes++;
	return 0;
}

int vpmc_replay_assume(struct vpmc_replay *r, const char *spec)
{
	struct vpmc__errbuf why;
	int err;

	if (r->begun)
		return VPMC_ERR_INVAL;
	err = overlay_add(&r->ov, spec, &why);
	if (err)
		return vpmc__set_error(&r->errbuf, err, "--assume '%s': %s", spec, why.msg);
	return 0;
}

void vpmc_replay_set_cost(struct vpmc_replay *r, const struct vpmc_cost *c)
{
	r->cost = *c;
}

void vpmc_replay_set_cost_label(struct vpmc_replay *r, const char *label)
{
	snprintf(r->cost_label, sizeof(r->cost_label), "%s", label ? label : "");
}

const char *vpmc_replay_cost_label(const struct vpmc_replay *r)
{
	return r->cost_label[0] ? r->cost_label : NULL;
}

void vpmc_replay_set_exit_hook(struct vpmc_replay *r,
			       void (*fn)(void *data, unsigned int policy,
					  const struct vpmc_exit_work *w, double us, double x_us),
			       void (*event_fn)(void *data, const struct vpmc_event *ev, bool after),
			       void *data)
{
	r->exit_fn = fn;
	r->event_fn = event_fn;
	r->exit_data = data;
}

void replay_set_shard_hooks(struct vpmc_replay *r, const struct replay_shard_hooks *hooks,
			    void *data)
{
	r->shard_hooks = hooks;
	r->shard_data = data;
}

/* A policy lane's exit was priced: tell the hook which policy (lane REPLAY_IDEAL is none). */
static void lane_exit(void *data, const struct vpmc_exit_work *w, double us, double x_us)
{
	struct lane_vcpu *lv = data;
	unsigned int policy = (unsigned int)(lv->lane - lv->r->lanes) - (REPLAY_IDEAL + 1);

	lv->r->exit_fn(lv->r->exit_data, policy, w, us, x_us);
}

void replay_set_log_sink(struct vpmc_replay *r, const struct replay_log_sink *sink)
{
	if (sink && sink->line)
		r->log = *sink;
	else
		memset(&r->log, 0, sizeof(r->log));
}

void vpmc_replay_set_progress(struct vpmc_replay *r, void (*fn)(void *data, uint64_t events),
			      void *data)
{
	r->progress = fn;
	r->progress_data = data;
}

void vpmc_replay_set_source(struct vpmc_replay *r, const char *path,
			    const struct vpmc_reader_stats *st)
{
	free(r->source);
	r->source = path ? strdup(path) : NULL;
	r->has_source_stats = st != NULL;
	if (st)
		r->source_stats = *st;
}

size_t vpmc_replay_nr_policies(const struct vpmc_replay *r)
{
	return r->nr_lanes - 1;
}

uint64_t vpmc_replay_handler_capped(const struct vpmc_replay *r, size_t i, uint64_t *first_ns,
				    uint32_t *first_vcpu)
{
	const struct replay_lane *l;

	if (!r || i >= vpmc_replay_nr_policies(r))
		return 0;
	l = &r->lanes[i + 1];
	if (l->handler_capped && first_ns)
		*first_ns = l->capped_first_ns;
	if (l->handler_capped && first_vcpu)
		*first_vcpu = l->capped_first_vcpu;
	return l->handler_capped;
}

const struct vpmc_policy *vpmc_replay_policy(const struct vpmc_replay *r, size_t i)
{
	return i < vpmc_replay_nr_policies(r) ? &r->lanes[i + 1].policy : NULL;
}

/* ---- observations ---- */

/* A log hook's error is kept as the engine's sticky error, as an observer's is. */
static void replay_log_err(struct vpmc_replay *r, int err)
{
	if (err && !r->err)
		r->err = err;
}

/* The metrics of a lane's vCPU noted @n: to the log. */
static void lane_note(void *data, const struct metrics_note *n)
{
	struct lane_vcpu *lv = data;

	replay_log_err(lv->r, lv->r->log.note(&lv->r->log, lv->lane->name, lv->vcpu, n));
}

/* The reference model observed @o: keep it for the lanes of the group. */
static void group_obs(void *data, const struct vpmc_obs *o)
{
	struct group_vcpu *gv = data;
	struct vpmc_obs *q;

	if (gv->nq == gv->cap) {
		unsigned int cap = gv->cap ? 2 * gv->cap : 16;

		q = cap <= GROUP_QUEUE_MAX ? realloc(gv->q, cap * sizeof(*q)) : NULL;
		if (!q) {
			if (!gv->r->err)
				gv->r->err = cap <= GROUP_QUEUE_MAX ? VPMC_ERR_NOMEM : VPMC_ERR_LIMIT;
			return;
		}
		gv->q = q;
		gv->cap = cap;
	}
	gv->q[gv->nq++] = *o;
}

/* The lane that logs its group's reference: the group's first policy (not the ideal guest,
 * whose lane is not logged). */
static bool lane_logs_ref(const struct lane_vcpu *lv)
{
	const struct replay_group *g = lv->gv->g;
	unsigned int k = g->lanes[0] == &lv->r->lanes[REPLAY_IDEAL];

	/* a lane whose policy is the reference logs the same records as "reference" itself */
	return k < g->nr_lanes && lv->lane == g->lanes[k] &&
	       lv->lane->policy.kind != VPMC_POLICY_REFERENCE;
}

static void lane_feed_ref_queued(struct lane_vcpu *lv, const struct vpmc_obs *upto)
{
	struct group_vcpu *gv = lv->gv;
	bool first = lv->r->log.obs && lane_logs_ref(lv);

	while (lv->qi < gv->nq) {
		const struct vpmc_obs *o = &gv->q[lv->qi];

		if (upto && lv->ev->type == VPMC_EV_GUEST && o->seg_insn > upto->seg_insn)
			break;
		metrics_ref_obs(&lv->m, o);
		if (lv->r->log.obs && first &&
		    (o->kind == VPMC_OBS_OVERFLOW || o->kind == VPMC_OBS_PMI))
			replay_log_err(lv->r, lv->r->log.obs(&lv->r->log, "reference", o));
		lv->qi++;
	}
}

/* Feed the reference's observations of this event to the lane's metrics, up to @upto inside a
 * guest segment (all of them elsewhere, and at the end of the event). Most events have none. */
static inline void lane_feed_ref(struct lane_vcpu *lv, const struct vpmc_obs *upto)
{
	if (lv->qi != lv->gv->nq)
		lane_feed_ref_queued(lv, upto);
}

/*
 * The reference counter @idx where the policy's PMI @at happened. At an event boundary that
 * is its value now. Inside a guest segment (seg_insn of @at), it is the value at the segment's
 * start (or 0 at the reference's own overflow earlier in it, @ovf_pos) plus what it counted up
 * to @at: instructions or branches of the segment, whichever the counter turned out to count
 * over the segment (trace-format.md spreads both evenly; vcpu.c's seg_branches()). With an
 * overlay the reference runs the segment along with the policy (lane_guest()) and stands at @at:
 * its value now.
 */
static uint64_t lane_ref_count(void *data, int idx, const struct vpmc_obs *at,
			       const uint64_t *ovf_pos)
{
	struct lane_vcpu *lv = data;
	const struct vpmc_event *ev = lv->ev;
	uint64_t c_after = vpmc_vcpu_counter(lv->gv->ref, (unsigned int)idx), c_start, ks, bs;
	uint64_t mask = lv->m.mask[idx >= VPMC_FIXED_BASE], n, b, delta, after;
	int slot = metrics_slot(idx);

	if (ev->type != VPMC_EV_GUEST || lv->seg || !at->seg_insn || !ev->insn || slot < 0)
		return c_after;
	n = ev->insn;
	b = ev->br < n ? ev->br : n;
	if (ovf_pos) {
		c_start = 0;
		ks = ovf_pos[0];
		bs = ovf_pos[1];
	} else if (lv->gv->watched & BIT_ULL(idx)) {
		c_start = lv->gv->c_before[slot];
		ks = bs = 0;
	} else {
		return c_after;
	}
	delta = (c_after - c_start) & mask;
	if (delta == n - ks)
		after = n - at->seg_insn;
	else if (delta == b - bs)
		after = b - at->seg_br;
	else if (!delta)
		after = 0;
	else
		after = (uint64_t)((unsigned __int128)delta * (n - at->seg_insn) / (n - ks));
	return (c_after - after) & mask;
}

/* With an overlay: the lane's reference runs the segment on up to instruction @upto (through
 * its own PMIs: the guest's handler follows the policy's). */
static void lane_ref_upto(struct lane_vcpu *lv, uint64_t upto)
{
	const struct vpmc_event *ev = lv->seg;

	while (!lv->ref_seg.started || lv->ref_seg.insn < upto)
		vpmc__vcpu_guest_until_pmi(lv->gv->ref, ev->time_ns, ev->insn, ev->br, ev->cpl, upto,
					   &lv->ref_seg);
}

/* A PMI @obs reached the guest of @lv: a sample of the ideal guest, or of a policy's guest. */
static void lane_sample(struct lane_vcpu *lv, const struct vpmc_obs *obs)
{
	struct vpmc_replay *r = lv->r;
	uint64_t pos = obs->seg_insn ? lv->seg_base + obs->seg_insn : lv->pos;
	unsigned int i;

	if (lv->lane != &r->lanes[REPLAY_IDEAL]) {
		ideal_sample(&lv->ideal, pos, obs->time_ns);
		return;
	}
	if (r->ideal_fn) {
		struct replay_ideal is = { 0, lv->vcpu, pos, obs->time_ns };

		replay_log_err(r, r->ideal_fn(r->ideal_data, &is));
	}
	for (i = REPLAY_IDEAL + 1; i < r->nr_lanes; i++) {
		if (!r->idle[i])
			ideal_push(&r->vlanes[(size_t)lv->vcpu * r->nr_lanes + i]->ideal, pos,
				   obs->time_ns);
	}
}

/* A shard without lane 0, or a pass again: the ideal guest's samples of the event, to every
 * running lane's matching. */
static void ideal_take(struct vpmc_replay *r)
{
	const struct replay_ideal *is;
	unsigned int i;

	for (is = r->ideal_in; is < r->ideal_in + r->ideal_n; is++) {
		for (i = REPLAY_IDEAL + 1; i < r->nr_lanes; i++) {
			if (!r->idle[i])
				ideal_push(&r->vlanes[(size_t)is->vcpu * r->nr_lanes + i]->ideal,
					   is->pos, is->t_ns);
		}
	}
}

/* The policy's model observed @o. */
static void lane_obs(void *data, const struct vpmc_obs *obs)
{
	struct lane_vcpu *lv = data;
	struct metrics_probe probe = { lane_ref_count, lv };

	if (lv->seg && obs->seg_insn)
		lane_ref_upto(lv, obs->seg_insn); /* the reference up to the same instruction */
	lane_feed_ref(lv, obs);
	metrics_pol_obs(&lv->m, obs, &probe);
	if (obs->kind == VPMC_OBS_PMI && obs->delivered) {
		lv->pmi_delivered = true;
		lane_sample(lv, obs);
	} else if (obs->kind == VPMC_OBS_READ)
		lv->read_value = obs->value;
	if (lv->r->log.obs && lv->lane != &lv->r->lanes[REPLAY_IDEAL])
		replay_log_err(lv->r, lv->r->log.obs(&lv->r->log, lv->lane->name, obs));
}

/* ---- applying events ---- */

/* The policy's kvm_pmu_trigger_event() calls in the event: counted by the model, not observed
 * one by one (there is one per retired instruction). */
static inline void lane_triggers(struct lane_vcpu *lv)
{
	uint64_t now = *lv->pol_triggers;

	if (now == lv->triggers_seen)
		return;
	metrics_triggers(&lv->m, now - lv->triggers_seen);
	lv->triggers_seen = now;
}

/* Event @ev to model @v. RETIRE, most events, goes straight to vpmc_vcpu_retire(): the type
 * and CPL were checked before any model took the event (vpmc_replay_event(); the overlay's
 * RETIRE has CPL 0), which vpmc_vcpu_event() would check again for each model. */
static inline int model_event(struct vpmc_vcpu *v, const struct vpmc_event *ev)
{
	if (ev->type != VPMC_EV_RETIRE)
		return vpmc_vcpu_event(v, ev);
	vpmc_vcpu_retire(v, ev->time_ns, ev->branch, ev->cpl);
	return 0;
}

/* Event @ev to the group's reference. Inline: once per event and policy with an overlay. */
static inline __attribute__((always_inline)) int group_apply(struct group_vcpu *gv, uint32_t vcpu,
							      const struct vpmc_event *ev)
{
	unsigned int i;

	gv->nq = 0;
	gv->watched = 0;
	if (ev->type == VPMC_EV_GUEST) {
		/* counters whose value at the segment's start a lateness may need */
		for (i = 0; i < gv->g->nr_lanes; i++)
			gv->watched |= gv->g->lanes[i]->vcpus[vcpu]->m.pending_mask;
		for (i = 0; i < METRICS_NR_SLOTS; i++) {
			int idx = metrics_slot_idx((int)i);

			if (gv->watched & BIT_ULL(idx))
				gv->c_before[i] = vpmc_vcpu_counter(gv->ref, (unsigned int)idx);
		}
	}
	return model_event(gv->ref, ev);
}

static int lane_pmi_handler(struct lane_vcpu *lv, uint64_t t);

/* One part of segment @ev: the policy up to the next PMI it delivers, the reference to the same
 * instruction; the metrics take the part as one event. Return: true while instructions remain. */
static bool lane_guest_part(struct lane_vcpu *lv, const struct vpmc_event *ev,
			    struct vpmc__guest_progress *p)
{
	bool more;

	lv->ev = ev;
	lv->qi = 0;
	lv->gv->nq = 0;
	lv->seg = ev;
	metrics_event_begin(&lv->m, ev->type);
	more = vpmc__vcpu_guest_until_pmi(lv->pol, ev->time_ns, ev->insn, ev->br, ev->cpl, ev->insn,
					  p);
	lane_ref_upto(lv, more ? p->insn : ev->insn);
	lv->seg = NULL;
	lane_feed_ref(lv, NULL);
	lane_triggers(lv);
	metrics_event_end(&lv->m, ev->type);
	return more;
}

/*
 * A guest segment with an overlay, in parts, with the guest's PMI handler after each part, at
 * the PMI's time: the host PMI forced a VM-exit at that instruction (trace-format.md), KVM
 * injected the PMI at the entry, and the guest takes the NMI at once; the rest of the segment
 * follows. Out of line: its frame (the segment's progress) would otherwise be set up for every
 * event of lane_apply().
 */
static __attribute__((noinline)) int lane_guest(struct lane_vcpu *lv, const struct vpmc_event *ev)
{
	struct vpmc__guest_progress p = VPMC__GUEST_PROGRESS_INIT;
	struct vpmc_replay *r = lv->r;
	uint64_t base = lv->pos; /* the trace position at the segment's start */
	unsigned int parts = 0;
	bool more;
	int err = 0;

	lv->ref_seg = (struct vpmc__guest_progress)VPMC__GUEST_PROGRESS_INIT;
	if (ev->cpl <= 3)
		lv->cpl = ev->cpl; /* what the handler returns to */
	do {
		if (++parts > SEGMENT_PARTS_MAX) {
			r->segment_parts_limit = true;
			return VPMC_ERR_LIMIT;
		}
		lv->seg_base = base; /* the handler's events moved it */
		more = lane_guest_part(lv, ev, &p);
		lv->pos = base + (more ? p.insn : ev->insn); /* where the handler runs */
		if (lv->m.err || r->err)
			return lv->m.err ? lv->m.err : r->err;
		if (lv->pmi_delivered && !lv->in_handler)
			err = lane_pmi_handler(lv, p.time_ns);
	} while (!err && more);
	return err;
}

/* With an overlay, after an event of the trace or of the guest's handler: the CPL the handler
 * returns to, and the handler itself if the event delivered a PMI. */
static int lane_overlay_after(struct lane_vcpu *lv, const struct vpmc_event *ev)
{
	if ((ev->type == VPMC_EV_RETIRE || ev->type == VPMC_EV_CPL) && ev->cpl <= 3)
		lv->cpl = ev->cpl;
	if (lv->pmi_delivered && !lv->in_handler)
		return lane_pmi_handler(lv, ev->time_ns);
	return 0;
}

/* Event @ev to the lane's model and metrics; the caller checks r->err. Inline (always: GCC
 * kept a call in lane_apply()): this is most of what a lane does, once per event and policy. */
static inline __attribute__((always_inline)) int lane_event(struct lane_vcpu *lv, const struct vpmc_event *ev)
{
	int err;

	lv->ev = ev;
	lv->qi = 0;
	lv->seg_base = lv->pos;
	if (ev->type == VPMC_EV_RETIRE && !lv->in_handler) /* not the overlay's own */
		lv->pos++; /* a sample at it is at it */
	metrics_event_begin(&lv->m, ev->type);
	if (!lv->in_handler) {
		metrics_trace_class(&lv->m, ev);
		if (ev->type == VPMC_EV_ENTRY)
			metrics_trace_entry(&lv->m);
	}
	metrics_event_host(&lv->m, ev);
	err = model_event(lv->pol, ev);
	if (err)
		return err;
	if (ev->type == VPMC_EV_GUEST)
		lv->pos += ev->insn;
	lane_feed_ref(lv, NULL);
	lane_triggers(lv);
	metrics_event_end(&lv->m, ev->type);
	return lv->m.err;
}

/* Event @ev to the lane, with an overlay (its only callers). Inline: once per event and
 * policy. */
static inline __attribute__((always_inline)) int lane_apply(struct lane_vcpu *lv,
							     const struct vpmc_event *ev)
{
	int err;

	if (ev->type == VPMC_EV_GUEST)
		return lane_guest(lv, ev);
	err = lane_event(lv, ev);
	if (err || lv->r->err)
		return err ? err : lv->r->err;
	return lane_overlay_after(lv, ev);
}

/* One event of the overlay's guest: to this lane's reference and policy only. */
static int overlay_apply(void *data, const struct vpmc_event *in, uint64_t *value)
{
	struct lane_vcpu *lv = data;
	struct vpmc_event ev = *in;
	int err;

	ev.vcpu = lv->vcpu;
	lv->read_value = 0;
	err = group_apply(lv->gv, lv->vcpu, &ev);
	if (!err)
		err = lane_apply(lv, &ev);
	*value = lv->read_value;
	return err;
}

/* Back to the CPL the guest had before the overlay's kernel code ran. */
static int lane_restore_cpl(struct lane_vcpu *lv, uint8_t cpl, uint64_t t)
{
	struct vpmc_event ev;
	uint64_t dummy;

	if (lv->cpl == cpl)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.time_ns = t;
	ev.type = VPMC_EV_CPL;
	ev.cpl = cpl;
	return overlay_apply(lv, &ev, &dummy);
}

/* The guest's PMI handler, again while PMIs arrive during it (latched NMIs), a few times. */
static int lane_pmi_handler(struct lane_vcpu *lv, uint64_t t)
{
	struct overlay_sink sink = { overlay_apply, lv };
	struct vpmc_replay *r = lv->r;
	unsigned int round;
	uint8_t cpl = lv->cpl;
	int err = 0;

	lv->in_handler = true;
	for (round = 0; !err && lv->pmi_delivered && round < HANDLER_ROUNDS_MAX; round++) {
		lv->pmi_delivered = false;
		err = overlay_pmi_handler(&r->ov, &r->cfg, &lv->og, lv->vcpu, t, &sink);
		lv->lane->handler_runs++;
	}
	if (lv->pmi_delivered) { /* no handler: an Intel guest's LVTPC stays masked */
		if (!lv->lane->handler_capped++) {
			lv->lane->capped_first_ns = t;
			lv->lane->capped_first_vcpu = lv->vcpu;
		}
		lv->pmi_delivered = false;
	}
	if (!err)
		err = lane_restore_cpl(lv, cpl, t);
	lv->in_handler = false;
	return err;
}

/* ---- vCPUs ---- */

/* @p, an array of @old elements of @size bytes, grown to @new, the new ones zeroed. calloc()
 * and a copy, not realloc() and memset(): a large array (vCPU indices up to 4095, a few of
 * them used) comes as zero pages from mmap(2), which stay untouched until a vCPU is stored.
 * Return: the array (@p freed), or NULL (then @p is unchanged). */
static void *grow_zeroed(void *p, size_t old, size_t new, size_t size)
{
	void *q = calloc(new, size);

	if (!q)
		return NULL;
	if (old)
		memcpy(q, p, old * size);
	free(p);
	return q;
}

static int replay_grow(struct vpmc_replay *r, uint32_t vcpu)
{
	uint32_t cap = r->cap_vcpus ? r->cap_vcpus : 4, old = r->cap_vcpus, i;
	struct group_vcpu **gv;
	struct lane_vcpu **lv;

	while (cap <= vcpu)
		cap *= 2;
	if (cap > VPMC_MAX_VCPUS)
		cap = VPMC_MAX_VCPUS;
	for (i = 0; i < r->nr_lanes; i++) {
		lv = grow_zeroed(r->lanes[i].vcpus, old, cap, sizeof(*lv));
		if (!lv)
			return VPMC_ERR_NOMEM;
		r->lanes[i].vcpus = lv;
	}
	for (i = 0; i < r->nr_groups; i++) {
		gv = grow_zeroed(r->groups[i]->vcpus, old, cap, sizeof(*gv));
		if (!gv)
			return VPMC_ERR_NOMEM;
		r->groups[i]->vcpus = gv;
	}
	lv = grow_zeroed(r->vlanes, (size_t)old * r->nr_lanes, (size_t)cap * r->nr_lanes,
			 sizeof(*lv));
	if (!lv)
		return VPMC_ERR_NOMEM;
	r->vlanes = lv;
	gv = grow_zeroed(r->vgroups, (size_t)old * r->nr_groups, (size_t)cap * r->nr_groups,
			 sizeof(*gv));
	if (!gv)
		return VPMC_ERR_NOMEM;
	r->vgroups = gv;
	r->cap_vcpus = cap;
	return 0;
}

uint32_t replay_next_vcpu(const struct vpmc_replay *r, uint32_t v)
{
	uint32_t w = v / 64, nr_words = (r->nr_vcpus + 63) / 64;
	uint64_t bits;

	if (v >= r->nr_vcpus)
		return r->nr_vcpus;
	bits = r->vcpu_present[w] & (~0ULL << (v % 64));
	while (!bits && ++w < nr_words)
		bits = r->vcpu_present[w];
	if (!bits)
		return r->nr_vcpus;
	v = w * 64 + (uint32_t)__builtin_ctzll(bits);
	return v < r->nr_vcpus ? v : r->nr_vcpus;
}

/* Models, metrics and (overlay) the profiler's programming for a vCPU's first event. */
static int replay_add_vcpu(struct vpmc_replay *r, uint32_t vcpu, uint64_t t)
{
	static const struct vpmc_policy reference = { VPMC_POLICY_REFERENCE, 0 };
	struct vpmc_observer obs;
	unsigned int i;
	int err;

	if (vcpu >= r->cap_vcpus) {
		err = replay_grow(r, vcpu);
		if (err)
			return err;
	}
	if (vcpu >= r->nr_vcpus)
		r->nr_vcpus = vcpu + 1;
	r->vcpu_present[vcpu / 64] |= 1ULL << (vcpu % 64);
	for (i = 0; i < r->nr_groups; i++) {
		struct group_vcpu *gv = calloc(1, sizeof(*gv));

		if (!gv)
			return VPMC_ERR_NOMEM;
		r->groups[i]->vcpus[vcpu] = gv;
		r->vgroups[(size_t)vcpu * r->nr_groups + i] = gv;
		gv->g = r->groups[i];
		gv->r = r;
		obs.fn = group_obs;
		obs.data = gv;
		/* the metrics use the reference's reads, writes, overflows and PMIs; it never drains */
		obs.ignore = 1u << VPMC_OBS_DRAIN | 1u << VPMC_OBS_REPROGRAM | 1u << VPMC_OBS_TRIGGER;
		err = vpmc_vcpu_new(&gv->ref, &r->cfg, &reference, vcpu, &obs);
		if (err)
			return err;
	}
	for (i = 0; i < r->nr_lanes; i++) {
		struct replay_lane *l = &r->lanes[i];
		struct lane_vcpu *lv = calloc(1, sizeof(*lv));

		if (!lv)
			return VPMC_ERR_NOMEM;
		l->vcpus[vcpu] = lv;
		r->vlanes[(size_t)vcpu * r->nr_lanes + i] = lv;
		lv->lane = l;
		lv->r = r;
		lv->vcpu = vcpu;
		lv->gv = l->g->vcpus[vcpu];
		metrics_vcpu_init(&lv->m, &r->cfg, &r->cost);
		ideal_init(&lv->ideal);
		lv->m.vcpu = vcpu;
		lv->m.no_perf_events = l->policy.kind == VPMC_POLICY_MEDIATED ||
				       l->policy.kind == VPMC_POLICY_REFERENCE;
		lv->m.kind = l->policy.kind;
		if (r->exit_fn && i != REPLAY_IDEAL) {
			lv->m.exit_fn = lane_exit;
			lv->m.exit_data = lv;
		}
		if (r->log.obs && i != REPLAY_IDEAL) {
			lv->m.note = lane_note;
			lv->m.note_data = lv;
		}
		obs.fn = lane_obs;
		obs.data = lv;
		obs.ignore = 1u << VPMC_OBS_TRIGGER; /* lane_triggers() */
		err = vpmc_vcpu_new(&lv->pol, &r->cfg, &l->policy, vcpu, &obs);
		if (err)
			return err;
		lv->pol_triggers = vpmc__vcpu_trigger_count(lv->pol);
	}
	for (i = 0; r->ov.nr && i < r->nr_lanes; i++) {
		struct lane_vcpu *lv = r->lanes[i].vcpus[vcpu];
		struct overlay_sink sink = { overlay_apply, lv };

		lv->in_handler = true; /* its PMIs, if any, wait for the trace's next event */
		err = overlay_program(&r->ov, &r->cfg, &lv->og, vcpu, t, &sink);
		lv->in_handler = false;
		if (err)
			return err;
	}
	return 0;
}

/* ---- public entry points ---- */

int vpmc_replay_begin(struct vpmc_replay *r, const struct vpmc_pmu_config *cfg)
{
	static const struct vpmc_policy reference = { VPMC_POLICY_REFERENCE, 0 };
	struct vpmc_vcpu *probe;
	unsigned int i, ng;
	int err;

	if (r->begun)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_INVAL, "replay already begun");
	if (!vpmc_replay_nr_policies(r) && !r->ideal_fn)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_INVAL, "no policy to replay");
	/* the configuration as KVM caps it, which the overlay must fit */
	err = vpmc_vcpu_new(&probe, cfg, &reference, 0, NULL);
	if (err)
		return vpmc__set_error(&r->errbuf, err, "PMU configuration: %s", vpmc_strerror(err));
	r->cfg = *vpmc_vcpu_config(probe);
	vpmc_vcpu_free(probe);
	err = overlay_check(&r->ov, &r->cfg, &r->errbuf);
	if (err)
		return err;
	ng = r->ov.nr ? r->nr_lanes : 1;
	for (i = 0; i < ng; i++) {
		struct replay_group *g = calloc(1, sizeof(*g));

		if (!g)
			return VPMC_ERR_NOMEM;
		r->groups[r->nr_groups++] = g;
		g->lanes = calloc(r->nr_lanes, sizeof(*g->lanes));
		if (!g->lanes)
			return VPMC_ERR_NOMEM;
	}
	for (i = 0; i < r->nr_lanes; i++) {
		struct replay_group *g = r->groups[r->ov.nr ? i : 0];

		r->lanes[i].g = g;
		g->lanes[g->nr_lanes++] = &r->lanes[i];
	}
	r->begun = true;
	return 0;
}

/* Why @ev failed with @err, naming the event (and for VPMC_ERR_LIMIT, which limit). */
static int replay_event_error(struct vpmc_replay *r, const struct vpmc_event *ev, int err)
{
	const char *name = vpmc_event_type_name(ev->type);
	char what[64];

	if (ev->type == VPMC_EV_GUEST)
		snprintf(what, sizeof(what), "guest segment of %" PRIu64 " instructions", ev->insn);
	else
		snprintf(what, sizeof(what), "%s event", name ? name : "unknown");
	if (err == VPMC_ERR_INVAL)
		return vpmc__set_error(&r->errbuf, err, "%s at %" PRIu64 " ns on vCPU %" PRIu32
				       ": bad type or CPL", what, ev->time_ns, ev->vcpu);
	if (err == VPMC_ERR_LIMIT && r->segment_parts_limit) /* lane_guest() */
		return vpmc__set_error(&r->errbuf, err, "%s at %" PRIu64 " ns on vCPU %" PRIu32
				       ": more than %u PMIs in one guest segment, each running the "
				       "guest's handler, the engine's limit (a period this short or "
				       "a segment this long)", what, ev->time_ns, ev->vcpu,
				       SEGMENT_PARTS_MAX);
	if (err == VPMC_ERR_LIMIT) /* group_obs() */
		return vpmc__set_error(&r->errbuf, err, "%s at %" PRIu64 " ns on vCPU %" PRIu32
				       ": more than %d reference overflows and PMIs in one event, "
				       "the engine's limit (a counter this narrow or a segment this "
				       "long wraps too often)", what, ev->time_ns, ev->vcpu,
				       GROUP_QUEUE_MAX);
	return vpmc__set_error(&r->errbuf, err, "%s", vpmc_strerror(err));
}

/*
 * The first WRMSR of the trace itself that undoes an --assume counter's programming: noted once,
 * with where it is (vpmc_replay_warning()): the reader's place under vpmc_replay_run(), else the
 * event's number in the replay.
 */
static void replay_assume_conflict(struct vpmc_replay *r, const struct vpmc_event *ev)
{
	char name[32], where[VPMC_ERRMSG_MAX / 2];
	int i = overlay_msr_conflict(&r->ov, &r->cfg, ev->index, ev->value, name, sizeof(name));

	if (i < 0)
		return;
	if (r->rd)
		vpmc_reader_where(r->rd, where, sizeof(where));
	else
		snprintf(where, sizeof(where), "event %" PRIu64, r->events + 1);
	snprintf(r->warning, sizeof(r->warning), "the trace writes %s (%#" PRIx32 ") = %#" PRIx64
		 " itself at %s (vCPU %" PRIu32 ", %" PRIu64 " ns): --assume %s will be "
		 "overwritten", name, ev->index, ev->value, where, ev->vcpu, ev->time_ns,
		 r->ov.ctr[i].spec);
}

void replay_watch_conflict(struct vpmc_replay *r, const struct vpmc_event *ev)
{
	if (ev->type == VPMC_EV_WRMSR && r->ov.nr && !r->warning[0])
		replay_assume_conflict(r, ev);
}

void replay_span_add(struct vpmc_replay *r, const struct vpmc_event *ev)
{
	if (!r->events)
		r->t_first = ev->time_ns;
	r->t_last = ev->time_ns > r->t_last ? ev->time_ns : r->t_last;
}

void replay_count(struct vpmc_replay *r)
{
	if (++r->events % PROGRESS_EVERY == 0 && r->progress)
		r->progress(r->progress_data, r->events);
}

/* The trace's own exit handling (vpmc_replay_trace_exits()): a VM-exit of the trace to the
 * vCPU's next VM-entry of the trace, as stat measures it; an exit that follows an exit
 * replaces it. */
static void replay_trace_exit(struct group_vcpu *gv, const struct vpmc_event *ev,
			      struct vpmc_replay *r)
{
	if (ev->type == VPMC_EV_EXIT) {
		gv->exit_open = true;
		gv->exit_t = ev->time_ns;
	} else if (ev->type == VPMC_EV_ENTRY && gv->exit_open) {
		gv->exit_open = false;
		r->exit_ns_sum += ev->time_ns >= gv->exit_t ? ev->time_ns - gv->exit_t : 0;
		r->exits_measured++;
	}
}

int vpmc_replay_event(struct vpmc_replay *r, const struct vpmc_event *ev)
{
	struct lane_vcpu **lanes;
	struct group_vcpu **groups;
	bool ov = r->ov.nr;
	unsigned int i, ng;
	int err;

	if (!r->begun || r->finished)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_INVAL, "replay not begun or finished");
	replay_watch_conflict(r, ev);
	if (ev->vcpu >= VPMC_MAX_VCPUS)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_INVAL, "vCPU %" PRIu32 " out of range",
				       ev->vcpu);
	/* before any model takes it: with an overlay no vpmc_vcpu_event() sees a segment */
	if ((unsigned int)ev->type >= VPMC_EV_NR || (ev->cpl > 3 && ev->cpl != VPMC_CPL_KEEP))
		return replay_event_error(r, ev, VPMC_ERR_INVAL);
	replay_span_add(r, ev);
	if (ev->vcpu >= r->nr_vcpus || !r->vlanes[(size_t)ev->vcpu * r->nr_lanes]) {
		err = replay_add_vcpu(r, ev->vcpu, ev->time_ns);
		if (err)
			goto fail;
	}
	lanes = r->vlanes + (size_t)ev->vcpu * r->nr_lanes;
	groups = r->vgroups + (size_t)ev->vcpu * r->nr_groups;
	if (!r->rerun)
		replay_trace_exit(groups[0], ev, r);
	if (r->event_fn)
		r->event_fn(r->exit_data, ev, false);
	/* with an overlay each lane runs its reference through a guest segment (lane_guest());
	 * and group 0 is lane 0's alone, which a shard with ideal_ext does not run */
	ng = ov && ev->type == VPMC_EV_GUEST ? 0 : r->nr_groups;
	for (i = r->ideal_ext && ov; i < ng; i++) {
		if (r->idle[i]) /* with an overlay group i is lane i's */
			continue;
		err = group_apply(groups[i], ev->vcpu, ev);
		if (err)
			goto fail;
	}
	if (r->ideal_ext || r->rerun)
		ideal_take(r);
	for (i = r->ideal_ext; i < r->nr_lanes; i++) {
		struct lane_vcpu *lv = lanes[i];

		if (r->idle[i])
			continue;
		err = ov ? lane_apply(lv, ev) : lane_event(lv, ev);
		if (!err)
			err = r->err; /* the reference's queue or the log */
		if (err)
			goto fail;
	}
	if (r->event_fn)
		r->event_fn(r->exit_data, ev, true);
	if (!r->rerun)
		replay_count(r);
	return 0;
fail:
	return replay_event_error(r, ev, err);
}

int vpmc_replay_finish(struct vpmc_replay *r)
{
	unsigned int i;
	uint32_t v;

	if (!r->begun || r->finished)
		return vpmc__set_error(&r->errbuf, VPMC_ERR_INVAL, "replay not begun or finished");
	for (i = 0; i < r->nr_lanes; i++) {
		for (v = replay_next_vcpu(r, 0); v < r->nr_vcpus; v = replay_next_vcpu(r, v + 1)) {
			struct lane_vcpu *lv = r->lanes[i].vcpus[v];

			if (!lv)
				continue;
			metrics_finish(&lv->m, r->t_last);
			if (!lv->m.err)
				lv->m.err = lv->ideal.err;
			if (lv->m.err)
				return vpmc__set_error(&r->errbuf, lv->m.err, "%s",
						       vpmc_strerror(lv->m.err));
		}
	}
	r->finished = true;
	return r->err ? vpmc__set_error(&r->errbuf, r->err, "%s", vpmc_strerror(r->err)) : 0;
}

/* ---- an engine loaded with results (mergeable summaries) ---- */

int replay_load_unit(struct vpmc_replay *r, size_t i, uint32_t vcpu, const struct metrics_vcpu *m,
		     const struct ideal_match *im)
{
	struct lane_vcpu *lv;
	int err;

	if (!r->begun || r->finished || i >= vpmc_replay_nr_policies(r) || vcpu >= VPMC_MAX_VCPUS)
		return VPMC_ERR_INVAL;
	if (vcpu >= r->nr_vcpus || !r->lanes[0].vcpus[vcpu]) {
		unsigned int k;

		err = replay_add_vcpu(r, vcpu, 0);
		if (err)
			return err;
		/* no results but the summaries' (the overlay's programming made some) */
		for (k = 0; k < r->nr_lanes; k++) {
			lv = r->lanes[k].vcpus[vcpu];
			metrics_vcpu_release(&lv->m);
			metrics_vcpu_init(&lv->m, &r->cfg, &r->cost);
			ideal_release(&lv->ideal);
			ideal_init(&lv->ideal);
		}
	}
	lv = r->lanes[i + 1].vcpus[vcpu];
	err = metrics_vcpu_add(&lv->m, m);
	return err ? err : ideal_add(&lv->ideal, im);
}

int replay_load_lane(struct vpmc_replay *r, size_t i, uint64_t runs, uint64_t capped,
		     uint64_t first_ns, uint32_t first_vcpu)
{
	struct replay_lane *l;

	if (!r->begun || r->finished || i >= vpmc_replay_nr_policies(r))
		return VPMC_ERR_INVAL;
	l = &r->lanes[i + 1];
	l->handler_runs += runs;
	/* the first cut-off: the earliest, then the lowest vCPU */
	if (capped && (!l->handler_capped || first_ns < l->capped_first_ns ||
		       (first_ns == l->capped_first_ns && first_vcpu < l->capped_first_vcpu))) {
		l->capped_first_ns = first_ns;
		l->capped_first_vcpu = first_vcpu;
	}
	l->handler_capped += capped;
	return 0;
}

int replay_load_facts(struct vpmc_replay *r, const struct replay_facts *f)
{
	if (!r->begun || r->finished)
		return VPMC_ERR_INVAL;
	r->events = f->events;
	r->t_first = f->t_first;
	r->t_last = f->t_last;
	r->exits_measured = f->exits_measured;
	r->exit_ns_sum = f->exit_ns_sum;
	r->finished = true;
	return 0;
}
