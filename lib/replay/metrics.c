// SPDX-License-Identifier: GPL-2.0-only
/* metrics.c - Count error, PMI matching and lateness, host cost per exit (see metrics.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "metrics.h"
#include "msr-index.h"

int metrics_slot(int idx)
{
	if (idx >= 0 && idx < VPMC_MAX_GP)
		return idx;
	if (idx >= VPMC_FIXED_BASE && idx < VPMC_FIXED_BASE + VPMC_MAX_FIXED)
		return VPMC_MAX_GP + idx - VPMC_FIXED_BASE;
	return -1;
}

int metrics_slot_idx(int slot)
{
	return slot < VPMC_MAX_GP ? slot : VPMC_FIXED_BASE + slot - VPMC_MAX_GP;
}

static uint64_t width_mask(unsigned int bits)
{
	return bits >= 64 ? UINT64_MAX : (1ULL << bits) - 1;
}

void metrics_vcpu_init(struct metrics_vcpu *m, const struct vpmc_pmu_config *cfg,
		       const struct vpmc_cost *cost)
{
	int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		hist_init(&m->ctr[i].late_ev);
		hist_init(&m->ctr[i].late_ns);
	}
	hist_init(&m->cost_ns);
	m->cost = cost;
	m->cost_v2 = cost && vpmc_cost_v2(cost);
	if (cfg) {
		replay_exit_init(&m->xs, cfg);
		m->cost_class = cost && (cost->slowpath_tax_ns || cost->mediated_switch_cycles);
		m->mask[0] = width_mask(cfg->gp_width);
		m->mask[1] = width_mask(cfg->fixed_width);
		m->status_msr = cfg->vendor == VPMC_VENDOR_AMD ? MSR_AMD64_PERF_CNTR_GLOBAL_STATUS
							       : MSR_CORE_PERF_GLOBAL_STATUS;
	}
}

void metrics_vcpu_release(struct metrics_vcpu *m)
{
	int i;

	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		hist_release(&m->ctr[i].late_ev);
		hist_release(&m->ctr[i].late_ns);
	}
	hist_release(&m->cost_ns);
}

static void metrics_hist_add(struct metrics_vcpu *m, struct vpmc_hist *h, uint64_t v)
{
	int err = hist_add(h, v);

	if (err && !m->err)
		m->err = err;
}

static void metrics_note(struct metrics_vcpu *m, const struct metrics_note *n)
{
	if (m->note)
		m->note(m->note_data, n);
}

/* @us in whole ns for the histogram; 2^64 ns (584 years) and more count as UINT64_MAX, which
 * the percentiles, clamped to the histogram's maximum, then report as 1.8e13 us at most. */
static uint64_t cost_ns(double us)
{
	double ns = us * 1000.0;

	if (!(ns >= 0.0))
		return 0;
	return ns >= 0x1p64 ? UINT64_MAX : (uint64_t)(ns + 0.5);
}

/* The key of the cost draws of the exit being priced (timer-storm.md §6.5): a trace exit's
 * (one the trace's entry, or its end, closes) ordinal on its vCPU, from 0; a modeled exit's (a
 * host PMI's implicit exit, the overlay's accesses) that of the trace exit before it plus 2^40
 * times its index since (1, 2, ...): a modeled exit shifts no trace exit's draws. */
static uint64_t metrics_draw_key(struct metrics_vcpu *m, bool traced)
{
	if (traced) {
		m->exit_modeled = 0;
		return m->exit_ord++;
	}
	return m->exit_ord - 1 + (++m->exit_modeled << 40);
}

/* Price one exit and count it: vpmcsim 0.1's expression, then the v2 terms when the profile
 * has any (so that the profile "default" prints the same digits). @traced: it is the trace's
 * exit, not a modeled one. */
static void metrics_exit(struct metrics_vcpu *m, uint64_t resumes, uint64_t creates,
			 uint64_t triggers, bool drained, unsigned int reprogrammed, bool traced)
{
	double us = m->cost ? vpmc_cost_us(m->cost, resumes, creates, triggers) : 0.0, x = 0.0;
	struct vpmc_exit_work w = {
		.triggers = triggers, .reprogrammed = reprogrammed, .resumed = (unsigned int)resumes,
		.created = (unsigned int)creates, .drained = drained, .vcpu = m->vcpu,
		.ordinal = metrics_draw_key(m, traced),
	};

	if (m->cost_v2 && !m->no_perf_events)
		us += vpmc_cost_extra_us(m->cost, &w, &x);
	if (m->cost_class && traced)
		us += replay_exit_class_us(m->cost, m->kind, &m->xs, drained);
	if (m->exit_fn)
		m->exit_fn(m->exit_data, &w, us, x);
	metrics_hist_add(m, &m->cost_ns, cost_ns(us));
	m->cost_us_total += us;
	if (us > m->cost_us_max)
		m->cost_us_max = us;
	m->exits++;
	m->exits_drained += drained;
}

static void metrics_missed(struct metrics_vcpu *m, int slot, uint64_t t)
{
	struct metrics_ctr *c = &m->ctr[slot];
	struct metrics_note n = {
		.kind = METRICS_NOTE_MISSED,
		.t = t,
		.counter = metrics_slot_idx(slot),
		.ovf_t = c->pend_t,
	};

	c->missed++;
	c->pending = false;
	m->pending_mask &= ~BIT_ULL(metrics_slot_idx(slot));
	metrics_note(m, &n);
}

/* The policy's guest read @o where the real guest read m->host_value (trace-format.md: "a VALUE
 * in the trace is ground truth from a real host and becomes a check, never an input"). */
static void metrics_host_read(struct metrics_vcpu *m, const struct vpmc_obs *o)
{
	m->host_has = false; /* one read per event */
	m->host_reads++;
	if (!o->gp && o->value == m->host_value)
		return;
	if (!m->host_differ++)
		m->host_first = (struct vpmc_host_read){
			.time_ns = o->time_ns, .vcpu = o->vcpu, .rdpmc = o->rdpmc,
			.index = o->index, .gp = o->gp, .value = o->value, .host = m->host_value,
		};
}

void metrics_ref_obs(struct metrics_vcpu *m, const struct vpmc_obs *o)
{
	int slot = metrics_slot(o->counter), i;
	struct metrics_ctr *c = slot >= 0 ? &m->ctr[slot] : NULL;

	switch (o->kind) {
	case VPMC_OBS_READ:
		m->ref_read = true;
		m->ref_read_gp = o->gp;
		m->ref_read_value = o->value;
		break;
	case VPMC_OBS_WRITE:
		if (!c || o->gp)
			break;
		if (c->pending)
			metrics_missed(m, slot, o->time_ns);
		c->cand = false;
		break;
	case VPMC_OBS_OVERFLOW:
		if (!c || o->not_modeled)
			break;
		/* the counter's next reference overflow ends the previous one's window */
		if (c->pending)
			metrics_missed(m, slot, o->time_ns);
		if (c->cand)
			m->ref_overflows_no_pmi++;
		c->cand = true;
		m->event_slots |= 1u << slot;
		c->cand_t = o->time_ns;
		c->cand_pos[0] = o->seg_insn;
		c->cand_pos[1] = o->seg_br;
		break;
	case VPMC_OBS_PMI:
		for (i = 0; i < METRICS_NR_SLOTS; i++) {
			c = &m->ctr[i];
			if (!c->cand || !(o->global_status & BIT_ULL(metrics_slot_idx(i))))
				continue;
			c->cand = false;
			if (!o->delivered) {
				/* the guest's LVTPC dropped it: no policy could deliver it */
				c->dropped_by_guest++;
				continue;
			}
			c->pending = true;
			c->pend_this_event = true;
			c->pend_t = c->cand_t;
			c->pend_pos[0] = c->cand_pos[0];
			c->pend_pos[1] = c->cand_pos[1];
			c->ref_overflows++;
			m->pending_mask |= BIT_ULL(metrics_slot_idx(i));
		}
		break;
	default:
		break;
	}
}

static void metrics_read(struct metrics_vcpu *m, const struct vpmc_obs *o)
{
	int slot = metrics_slot(o->counter);
	struct metrics_note n = {
		.kind = METRICS_NOTE_READ,
		.obs = o,
		.counter = o->counter,
		.paired = m->ref_read,
		.ref_value = m->ref_read_value,
		.ref_gp = m->ref_read_gp,
		.has_host = m->host_has,
		.host = m->host_value,
	};

	if (m->host_has)
		metrics_host_read(m, o);
	metrics_note(m, &n);
	if (!m->ref_read) {
		m->unpaired_reads++;
		return;
	}
	m->ref_read = false;
	if (o->gp || m->ref_read_gp)
		return;
	if (o->not_modeled && slot >= 0) {
		m->ctr[slot].reads_not_modeled++;
		return;
	}
	if (slot >= 0) {
		struct metrics_ctr *c = &m->ctr[slot];
		uint64_t mask = m->mask[o->counter >= VPMC_FIXED_BASE];
		uint64_t d = (o->value - m->ref_read_value) & mask;
		/* signed difference modulo the counter width */
		int64_t err = (d & (mask ^ (mask >> 1))) ? (int64_t)(d | ~mask) : (int64_t)d;
		uint64_t abs_err = err < 0 ? (uint64_t)0 - (uint64_t)err : (uint64_t)err;

		c->reads++;
		c->reads_err += err != 0;
		c->err_abs_sum += (double)abs_err;
		c->err_sum += (double)err;
		c->ref_sum += (double)m->ref_read_value;
		if (abs_err > c->err_abs_max)
			c->err_abs_max = abs_err;
	} else if (!o->rdpmc && o->index == m->status_msr) {
		m->status_reads++;
		m->status_differ += o->value != m->ref_read_value;
	}
}

static void metrics_pmi(struct metrics_vcpu *m, const struct vpmc_obs *o,
			const struct metrics_probe *probe)
{
	bool matched = false;
	int i;

	if (m->in_guest && !(m->implicit_open && m->implicit_insn == o->seg_insn)) {
		/* a host PMI forced an exit with no drain to absorb (mediated) */
		metrics_exit(m, 0, 0, 0, false, 0, false);
		m->exits_implicit++;
	}
	if (!o->delivered) {
		m->pmis_dropped++;
		return;
	}
	m->pmis++;
	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		struct metrics_ctr *c = &m->ctr[i];
		int idx = metrics_slot_idx(i);
		struct metrics_note n = { .kind = METRICS_NOTE_MATCH, .obs = o, .counter = idx };
		const uint64_t *pos;

		if (!c->pol_ovf || !(o->global_status & BIT_ULL(idx)))
			continue;
		c->pol_ovf = false;
		if (!c->pending)
			continue;
		pos = c->pend_this_event && m->in_guest ? c->pend_pos : NULL;
		n.late_events = probe ? probe->ref_count(probe->data, idx, o, pos) &
						m->mask[idx >= VPMC_FIXED_BASE]
				      : 0;
		n.late_ns = o->time_ns > c->pend_t ? o->time_ns - c->pend_t : 0;
		n.ovf_t = c->pend_t;
		metrics_hist_add(m, &c->late_ev, n.late_events);
		metrics_hist_add(m, &c->late_ns, n.late_ns);
		c->matched++;
		c->pending = false;
		m->pending_mask &= ~BIT_ULL(idx);
		matched = true;
		metrics_note(m, &n);
	}
	if (!matched && (o->global_status & m->ovf_not_modeled))
		m->pmis_not_modeled++;
	if (!matched && !(o->global_status & m->ovf_not_modeled)) {
		struct metrics_note n = { .kind = METRICS_NOTE_SPURIOUS, .obs = o, .counter = -1 };

		m->spurious++;
		metrics_note(m, &n);
	}
	m->ovf_not_modeled &= ~o->global_status;
}

void metrics_pol_obs(struct metrics_vcpu *m, const struct vpmc_obs *o,
		     const struct metrics_probe *probe)
{
	int slot = metrics_slot(o->counter);

	switch (o->kind) {
	case VPMC_OBS_READ:
		metrics_read(m, o);
		break;
	case VPMC_OBS_OVERFLOW:
		if (slot >= 0 && o->not_modeled)
			m->ovf_not_modeled |= BIT_ULL(o->counter);
		else if (slot >= 0)
			m->ctr[slot].pol_ovf = true;
		break;
	case VPMC_OBS_PMI:
		metrics_pmi(m, o, probe);
		break;
	case VPMC_OBS_DRAIN:
		m->drains++;
		m->reprograms += o->nr_reprogrammed;
		m->resumes += o->nr_resumed;
		m->creates += o->nr_created;
		if (m->in_guest) {
			/* the implicit exit/entry of a host PMI inside the segment */
			metrics_exit(m, o->nr_resumed, o->nr_created, 0, true, o->nr_reprogrammed,
				     false);
			m->exits_implicit++;
			m->implicit_open = true;
			m->implicit_insn = o->seg_insn;
		} else {
			m->cur_resumes += o->nr_resumed;
			m->cur_creates += o->nr_created;
			m->cur_reprogrammed += o->nr_reprogrammed;
			m->cur_drained = true;
			m->cur_open = true;
		}
		break;
	default:
		break;
	}
}

void metrics_close_exit(struct metrics_vcpu *m, bool traced)
{
	metrics_exit(m, m->cur_resumes, m->cur_creates, m->cur_triggers, m->cur_drained,
		     m->cur_reprogrammed, traced);
	m->cur_resumes = m->cur_creates = m->cur_triggers = m->cur_reprogrammed = 0;
	m->cur_drained = m->cur_open = false;
}

void metrics_event_settle(struct metrics_vcpu *m)
{
	int i;

	for (i = 0; m->event_slots && i < METRICS_NR_SLOTS; i++) {
		struct metrics_ctr *c = &m->ctr[i];

		if (c->cand) {
			m->ref_overflows_no_pmi++;
			c->cand = false;
		}
		c->pend_this_event = false;
	}
	m->event_slots = 0;
	if (m->ref_read) {
		/* the reference read and the policy did not */
		m->unpaired_reads++;
		m->ref_read = false;
	}
}

void metrics_finish(struct metrics_vcpu *m, uint64_t time_ns)
{
	int i;

	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		if (m->ctr[i].pending)
			metrics_missed(m, i, time_ns);
	}
	if (m->cur_open)
		metrics_close_exit(m, true); /* the trace ends inside its exit */
}

int metrics_vcpu_add(struct metrics_vcpu *dst, const struct metrics_vcpu *src)
{
	int i, err;

	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		struct metrics_ctr *d = &dst->ctr[i];
		const struct metrics_ctr *s = &src->ctr[i];

		d->reads += s->reads;
		d->reads_err += s->reads_err;
		d->reads_not_modeled += s->reads_not_modeled;
		if (s->err_abs_max > d->err_abs_max)
			d->err_abs_max = s->err_abs_max;
		d->err_abs_sum += s->err_abs_sum;
		d->err_sum += s->err_sum;
		d->ref_sum += s->ref_sum;
		d->ref_overflows += s->ref_overflows;
		d->matched += s->matched;
		d->missed += s->missed;
		d->dropped_by_guest += s->dropped_by_guest;
		err = hist_merge(&d->late_ev, &s->late_ev);
		if (!err)
			err = hist_merge(&d->late_ns, &s->late_ns);
		if (err)
			return err;
	}
	dst->status_reads += src->status_reads;
	dst->status_differ += src->status_differ;
	dst->unpaired_reads += src->unpaired_reads;
	dst->pmis += src->pmis;
	dst->pmis_dropped += src->pmis_dropped;
	dst->spurious += src->spurious;
	dst->pmis_not_modeled += src->pmis_not_modeled;
	dst->exits += src->exits;
	dst->exits_implicit += src->exits_implicit;
	dst->exits_drained += src->exits_drained;
	dst->drains += src->drains;
	dst->reprograms += src->reprograms;
	dst->resumes += src->resumes;
	dst->creates += src->creates;
	dst->triggers += src->triggers;
	dst->ref_overflows_no_pmi += src->ref_overflows_no_pmi;
	/* the earliest differing read of all (then the lowest vCPU: they are added in order) */
	if (src->host_differ && (!dst->host_differ ||
				 src->host_first.time_ns < dst->host_first.time_ns))
		dst->host_first = src->host_first;
	dst->host_reads += src->host_reads;
	dst->host_differ += src->host_differ;
	dst->cost_us_total += src->cost_us_total;
	if (src->cost_us_max > dst->cost_us_max)
		dst->cost_us_max = src->cost_us_max;
	return hist_merge(&dst->cost_ns, &src->cost_ns);
}

int metrics_vcpu_copy(struct metrics_vcpu *dst, const struct metrics_vcpu *src)
{
	struct vpmc_hist h[2 * METRICS_NR_SLOTS + 1];
	struct metrics_vcpu cb = { .exit_fn = dst->exit_fn, .exit_data = dst->exit_data,
				   .note = dst->note, .note_data = dst->note_data };
	unsigned int i;
	int err = 0;

	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		h[2 * i] = dst->ctr[i].late_ev;
		h[2 * i + 1] = dst->ctr[i].late_ns;
	}
	h[2 * METRICS_NR_SLOTS] = dst->cost_ns;
	*dst = *src;
	dst->exit_fn = cb.exit_fn;
	dst->exit_data = cb.exit_data;
	dst->note = cb.note;
	dst->note_data = cb.note_data;
	for (i = 0; i < METRICS_NR_SLOTS; i++) {
		dst->ctr[i].late_ev = h[2 * i];
		dst->ctr[i].late_ns = h[2 * i + 1];
		err = err ? err : hist_copy(&dst->ctr[i].late_ev, &src->ctr[i].late_ev);
		err = err ? err : hist_copy(&dst->ctr[i].late_ns, &src->ctr[i].late_ns);
	}
	dst->cost_ns = h[2 * METRICS_NR_SLOTS];
	return err ? err : hist_copy(&dst->cost_ns, &src->cost_ns);
}

void metrics_fill_host(const struct metrics_vcpu *sum, struct vpmc_metrics *m)
{
	m->host_reads = sum->host_reads;
	m->host_differ = sum->host_differ;
	if (sum->host_differ)
		m->host_first_differ = sum->host_first;
}
