/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * metrics.h - What one policy did to one vCPU, measured against the reference (internal).
 *
 * Fed with the observations (struct vpmc_obs) of two models that saw the same events: the
 * policy's and the reference's. For each event the engine begins it (metrics_event_begin()),
 * feeds the reference's observations (metrics_ref_obs()) ahead of the policy's that came later
 * (metrics_pol_obs()), gives the policy's count of kvm_pmu_trigger_event() calls
 * (metrics_triggers()) and ends it (metrics_event_end(); an ENTRY closes the exit), so that host
 * cost is attributed per exit. Memory is fixed per vCPU: counters, and histograms of bounded size.
 *
 * Definitions (vpmcsim(1), METRICS; trace-format.md):
 * - Count error: at each guest read of a counter (RDPMC, RDMSR), the policy's value minus the
 *   reference's, as a signed number of events modulo the counter width; reads are paired in
 *   order (each event has at most one read).
 * - Not modeled: a GP counter whose event select has CMASK, INV, EDGE or IN_TX/IN_TXCP
 *   (vpmc_obs.not_modeled) is never scored: its reads are counted apart (reads_not_modeled),
 *   its overflows are not tracked, and a PMI that covers only such counters is not spurious.
 * - Host reads: a guest read of a PMU register whose trace event carries what the real guest
 *   read (metrics_event_host()) is counted, and counted as differing when the policy's guest
 *   read another value or took #GP; the earliest that differs is kept.
 * - A reference overflow is tracked when the reference raised a PMI for it in the same event
 *   (its PMI's GLOBAL_STATUS has the counter's bit); overflows of counters without PMI enabled
 *   are not expected to produce PMIs and are not tracked. When the guest's own LVTPC dropped
 *   that reference PMI (masked, or ExtINT mode), the overflow is not tracked either: it is
 *   counted as dropped_by_guest, never as a policy's miss.
 * - A delivered PMI of the policy covers counter i when GLOBAL_STATUS bit i is set in it and the
 *   policy itself overflowed counter i since its previous delivered PMI (a stale status bit the
 *   guest never cleared covers nothing). A tracked reference overflow is matched by the first
 *   PMI that covers it; lateness = events the reference counter counted after its overflow up to
 *   the delivery point, and delivery time minus overflow time. It is missed when no PMI covers it
 *   before the counter's next reference overflow, a write to the counter, or the end of the
 *   trace. A delivered PMI that covers no tracked reference overflow is spurious.
 * - Exits: every VM-entry ends one exit (trace entries, implicit entries after a host PMI inside
 *   a guest segment, entries added by the overlay); its host cost is the drain it absorbed
 *   (perf events resumed and created) plus the kvm_pmu_trigger_event() calls since the previous
 *   entry, priced by struct vpmc_cost.
 */
#ifndef VPMC_METRICS_H
#define VPMC_METRICS_H

#include <stdbool.h>
#include <stdint.h>
#include <vpmc/replay.h>

#include "exitclass.h"
#include "hist.h"
#include "internal.h"

/* A slot per counter KVM can have: the GP counters, then the fixed ones. */
#define METRICS_NR_SLOTS (VPMC_MAX_GP + VPMC_MAX_FIXED)

/* The slot of KVM global counter index @idx, or -1. */
int metrics_slot(int idx);
/* The KVM global counter index of slot @slot. */
int metrics_slot_idx(int slot);

struct metrics_ctr {
	/* results */
	uint64_t reads, reads_err, err_abs_max;
	uint64_t reads_not_modeled; /* reads of the counter while not modeled: never scored */
	double err_abs_sum, err_sum;
	double ref_sum;  /* the reference's values at those reads (count_error_rel_mean) */
	uint64_t ref_overflows, matched, missed;
	uint64_t dropped_by_guest; /* reference overflows whose reference PMI LVTPC dropped */
	struct vpmc_hist late_ev, late_ns;
	/* state */
	bool cand;      /* reference overflow in this event, waiting for the reference's PMI */
	bool pending;   /* tracked reference overflow not covered yet */
	bool pol_ovf;   /* the policy overflowed it since its last delivered PMI */
	uint64_t cand_t, pend_t;
	uint64_t cand_pos[2];  /* seg_insn, seg_br of the candidate inside a guest segment */
	uint64_t pend_pos[2];
	bool pend_this_event;  /* pending was set during the event being applied */
};

enum metrics_note_kind {
	METRICS_NOTE_READ,     /* a guest read: value under the policy and the reference */
	METRICS_NOTE_MATCH,    /* a reference overflow covered by a PMI */
	METRICS_NOTE_MISSED,   /* a reference overflow no PMI covered */
	METRICS_NOTE_SPURIOUS, /* a delivered PMI that covered no reference overflow */
};

/* Details for the replay log. */
struct metrics_note {
	enum metrics_note_kind kind;
	const struct vpmc_obs *obs; /* the policy's READ / PMI (NULL for MISSED) */
	uint64_t t;                 /* MISSED: when it became missed */
	int counter;                /* MATCH, MISSED: KVM global index */
	uint64_t ovf_t;             /* MATCH, MISSED: reference overflow time, ns */
	uint64_t late_events, late_ns;
	bool paired;                /* READ: the reference read too */
	uint64_t ref_value;         /* READ */
	bool ref_gp;                /* READ */
	bool has_host;              /* READ: the trace recorded what the real guest read */
	uint64_t host;              /* READ: that value */
};

/* Where the reference counter stood at a point of the policy's (for lateness). */
struct metrics_probe {
	/*
	 * The reference counter @idx at the point where @at (the policy's PMI) happened. @ovf_pos
	 * is NULL, or {seg_insn, seg_br} of the reference overflow when it happened earlier in
	 * the same guest segment (the counter read 0 there).
	 */
	uint64_t (*ref_count)(void *data, int idx, const struct vpmc_obs *at,
			      const uint64_t *ovf_pos);
	void *data;
};

struct metrics_vcpu {
	/* state read or written at every event first: with many policies per event, each
	 * policy's per-event fields share a cache line or two */
	bool in_guest;            /* applying a guest segment: drains are implicit exits */
	bool implicit_open;       /* an implicit exit at implicit_insn in this segment */
	bool host_has;            /* the event being applied recorded the real guest's read */
	bool ref_read, ref_read_gp;
	bool cur_drained, cur_open;
	bool cost_class;          /* the cost has terms the exit's class decides: track it */
	bool entry_traced;        /* the entry being applied is the trace's, not the overlay's */
	unsigned int event_slots; /* slots with cand or pend_this_event set (bit per slot) */
	int err;                  /* sticky VPMC_ERR_NOMEM from a histogram */
	uint64_t host_value;
	uint64_t triggers, cur_triggers;
	uint64_t pending_mask;    /* KVM indices with a tracked overflow pending */
	uint64_t ovf_not_modeled; /* KVM indices the policy overflowed while not modeled, since
				   * its last delivered PMI */
	uint64_t cur_resumes, cur_creates;
	uint64_t implicit_insn;
	uint64_t ref_read_value;

	struct metrics_ctr ctr[METRICS_NR_SLOTS];
	uint64_t status_reads, status_differ, unpaired_reads;
	uint64_t pmis, pmis_dropped, spurious;
	uint64_t pmis_not_modeled; /* delivered, covering only overflows of counters not modeled */
	uint64_t exits, exits_implicit, exits_drained;
	uint64_t drains, reprograms, resumes, creates;
	uint64_t ref_overflows_no_pmi;
	uint64_t host_reads, host_differ;
	struct vpmc_host_read host_first; /* valid when host_differ != 0 */
	struct vpmc_hist cost_ns; /* modeled host ns per exit */
	double cost_us_total, cost_us_max;
	uint64_t mask[2];         /* counter width masks: GP, fixed */
	uint32_t status_msr;      /* GLOBAL_STATUS of the vendor */
	const struct vpmc_cost *cost;
	bool cost_v2;             /* vpmc_cost_v2(cost): price the v2 terms too */
	bool no_perf_events;      /* mediated, reference: a drain reprograms no perf event */
	enum vpmc_policy_kind kind;
	struct replay_exit_state xs; /* the class of the trace exit being applied */
	uint32_t vcpu;            /* keys the cost draws */
	uint64_t exit_ord;        /* trace exits priced on the vCPU so far */
	uint64_t exit_modeled;    /* modeled exits priced since the last of them */
	unsigned int cur_reprogrammed;
	/* each priced exit: its work, its cost and the drain extra in it (us) */
	void (*exit_fn)(void *data, const struct vpmc_exit_work *w, double us, double x_us);
	void *exit_data;
	void (*note)(void *data, const struct metrics_note *n);
	void *note_data;
};

/* Set up @m for a vCPU of @cfg, priced by @cost (kept by pointer). */
void metrics_vcpu_init(struct metrics_vcpu *m, const struct vpmc_pmu_config *cfg,
		       const struct vpmc_cost *cost);
void metrics_vcpu_release(struct metrics_vcpu *m);

/* The engine starts applying an event of @type to both models (inline: once per event and
 * policy). */
static inline void metrics_event_begin(struct metrics_vcpu *m, enum vpmc_event_type type)
{
	m->in_guest = type == VPMC_EV_GUEST;
	m->implicit_open = false;
	m->host_has = false;
}

/* After metrics_event_begin(): the event @ev is from the trace; an RDMSR or RDPMC with a value
 * recorded what the real guest read, which the policy's read is checked against. */
static inline void metrics_event_host(struct metrics_vcpu *m, const struct vpmc_event *ev)
{
	m->host_has = ev->has_value && (ev->type == VPMC_EV_RDMSR || ev->type == VPMC_EV_RDPMC);
	m->host_value = ev->value;
}

/* One observation of the reference model, in order. */
void metrics_ref_obs(struct metrics_vcpu *m, const struct vpmc_obs *o);

/* One observation of the policy's model, in order. */
void metrics_pol_obs(struct metrics_vcpu *m, const struct vpmc_obs *o,
		     const struct metrics_probe *probe);

/* Before metrics_event_end(): the policy's model made @n kvm_pmu_trigger_event() calls in the
 * event (the growth of its vpmc_vcpu_stats().triggers), priced with the exit they belong to. */
static inline void metrics_triggers(struct metrics_vcpu *m, uint64_t n)
{
	if (!n)
		return;
	m->triggers += n;
	m->cur_triggers += n;
	m->cur_open = true;
}

/* Trace event @ev (not the overlay's) of a type that classifies an exit (exitclass.h). */
static inline void metrics_trace_class(struct metrics_vcpu *m, const struct vpmc_event *ev)
{
	if (m->cost_class)
		replay_exit_event(&m->xs, ev);
}

/* The trace's own VM-entry (not the overlay's) is being applied: the exit it ends is a trace
 * exit, whose ordinal keys its cost draws (timer-storm.md §6.5). */
static inline void metrics_trace_entry(struct metrics_vcpu *m)
{
	m->entry_traced = true;
}

/* A VM-entry (@traced: the trace's): the exit it ends is priced and counted. */
void metrics_close_exit(struct metrics_vcpu *m, bool traced);

/* The rare part of metrics_event_end(): reference overflows of the event without a reference
 * PMI are dropped, a reference read the policy did not make is counted. */
void metrics_event_settle(struct metrics_vcpu *m);

/* Both models have applied the whole event of @type: metrics_event_settle() if the event left
 * anything to settle; after an ENTRY the exit it ends is priced; host work after the last entry
 * leaves an exit in progress. Inline: once per event and policy. */
static inline void metrics_event_end(struct metrics_vcpu *m, enum vpmc_event_type type)
{
	if (m->event_slots || m->ref_read)
		metrics_event_settle(m);
	if (type == VPMC_EV_ENTRY) {
		metrics_close_exit(m, m->entry_traced);
		m->entry_traced = false;
	}
	else if (type == VPMC_EV_EXIT || type == VPMC_EV_RETIRE || type == VPMC_EV_WRMSR ||
		 type == VPMC_EV_RDMSR || type == VPMC_EV_RDPMC)
		m->cur_open = true;
	m->in_guest = false;
	m->implicit_open = false;
}

/* End of the trace: pending reference overflows are missed, an open exit is priced. */
void metrics_finish(struct metrics_vcpu *m, uint64_t time_ns);

/* Add @src's results into @dst (totals); histograms are merged. Return: 0 or NOMEM. */
int metrics_vcpu_add(struct metrics_vcpu *dst, const struct metrics_vcpu *src);

/* Make @dst's state and results @src's, @dst keeping its callbacks (a lane that followed
 * another's work takes it over, alike.c). Return: 0 or NOMEM. */
int metrics_vcpu_copy(struct metrics_vcpu *dst, const struct metrics_vcpu *src);

/* @sum's host-read figures into the public @m. */
void metrics_fill_host(const struct metrics_vcpu *sum, struct vpmc_metrics *m);

#endif /* VPMC_METRICS_H */
