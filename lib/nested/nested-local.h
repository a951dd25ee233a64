/* SPDX-License-Identifier: GPL-2.0-only */
/* nested-local.h - The nested round-trip model's internals (lib/nested; nested-gpc.md). The
 * layer sits beside the vPMU model: it uses core, and the trace layer's public reader API. */
#ifndef VPMC_NESTED_LOCAL_H
#define VPMC_NESTED_LOCAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hist.h"
#include "internal.h"
#include "vpmc.h"

/* ---- reasons (reason.c) ---------------------------------------------------------------- */

/* What the model needs to know of an exit reason. */
enum nested_rclass {
	NR_OTHER,
	NR_CPUID,
	NR_MSR,          /* SVM msr; VMX MSR_READ, MSR_WRITE and their _IMM forms */
	NR_IO,           /* SVM io; VMX IO_INSTRUCTION */
	NR_ENTRY,        /* L1's VMRUN / VMLAUNCH / VMRESUME */
	NR_RSM,
	NR_VMLOAD_SAVE,  /* SVM vmload / vmsave */
	NR_L0_OWNED,     /* exits L0 keeps: SVM npf, interrupt, nmi; VMX EXTERNAL_INTERRUPT,
			  * EPT_VIOLATION, EPT_MISCONFIG, PREEMPTION_TIMER, PML_FULL, BUS_LOCK */
};

struct nested_reason {
	enum vpmc_nested_isa isa; /* the alphabet that names it, NONE if neither tells */
	uint32_t code;            /* SVM exit code, when isa is SVM */
	enum nested_rclass cls;
};

/* Classify @reason as printed (native SVM, the plugin's EXIT_*, VMX). */
void nested_reason(const char *reason, struct nested_reason *r);

/* Whether an inject's reason names the same exit as the L2 exit's (§6.4): SVM codes compared
 * across both alphabets, VMX on the first word. */
bool nested_reason_same(const char *a, const char *b);

/* ---- counts of one round trip (count.c) ------------------------------------------------- */

/* What one round trip or L0-handled exit does, in each design (nested-gpc.md §2, §4.3, §5.3). */
struct nested_ops {
	uint64_t maps_b;     /* __kvm_vcpu_map() + kvm_vcpu_unmap() pairs, baseline */
	uint64_t reads_b;    /* kvm_vcpu_read_guest() page segments, baseline */
	uint64_t tails_b;    /* PFNMAP unmaps that carry the lazy purge, baseline */
	uint64_t maps_g;     /* maps the gpc design did not convert */
	uint64_t refreshes_g;/* kvm_gpc_refresh() / first uses of a cold cache */
	uint64_t hits_g;     /* kvm_gpc_check() under the lock */
	uint64_t loads_g;    /* accesses through a cache's khva */
	uint64_t reads_g;    /* kvm_vcpu_read_guest() segments the gpc design kept */
	uint64_t kicks_g;    /* invalidation kicks of VMX APIC-page caches */
	uint64_t tails_g;
};

/* The caches of the gpc design, per vCPU (and per L2 with a nested context). */
enum nested_cache {
	NC_VMCB12,
	NC_MSRPM0, NC_MSRPM1,            /* the two pages the SVM merge reads */
	NC_APIC_ACCESS, NC_VAPIC, NC_PI, /* nested_get_vmcs12_pages() */
	NC_MSR_BITMAP,                   /* nested_vmx_prepare_msr_bitmap() */
	NC_IOPM0, NC_IOPM1, NC_IOPM2,    /* SVM IOPM pages: shared by L1's L2s, never by GPA */
	NC_NR
};

struct nested_cacheset {
	uint64_t gpa;         /* the VMCB12 / vmcs12 these caches serve (a context's key) */
	uint64_t stamp;       /* last use, for replacing the least recent context */
	uint16_t used;        /* bit c: cache c was used once (it holds a page) */
	uint16_t valid;       /* bit c: that page is still the one to use */
};

#define NESTED_MAX_CONTEXTS 64 /* per vCPU; the least recently used one is replaced */

struct nested_caches {
	struct nested_cacheset *sets; /* [0]: IOPM and, without contexts, every other cache */
	unsigned int nr_sets, cap_sets;
	unsigned int cur;             /* the set of the current GPA */
	uint64_t clock;
};

/* ---- configuration (cost.c) ------------------------------------------------------------- */

enum nested_from { NF_DEFAULT, NF_OPTION, NF_DIRECTIVE, NF_TRACE };

struct nested_cfg {
	struct vpmc_nested_assume a;          /* values in force */
	enum nested_from from[VPMC_NESTED_KEY_NR];
	bool isa_known;                       /* a.isa settled (else still a guess) */
	bool msr_in_range, gpc_svm_merge, gpc_context, gpc_cold;
	uint64_t inval_every;
	enum vpmc_nested_anchor anchor;
	uint64_t p[VPMC_NP_NR];               /* parameters in force, cycles */
	uint64_t rt_fixed_svm;                /* the fit's level (the VMX one is p[RT_FIXED]) */
	uint32_t fitted;                      /* bit p: p[p] came from the fit (§7.3) */
	uint32_t given;                       /* bit p: p[p] given with --cost */
	bool params_set;
};

/* @c from the options @o, then the .vtr's "!nested" @dir (or NULL), then the defaults (§6.8). */
void nested_cfg_init(struct nested_cfg *c, const struct vpmc_nested_opts *o,
		     const struct vpmc_nested_assume *dir);

/* c->a.isa is settled: the defaults that depend on it (the nested context), then the
 * parameters. Return: as nested_params(). */
int nested_cfg_settle(struct nested_cfg *c, const struct vpmc_nested_opts *o,
		      struct vpmc__errbuf *err);

/* The parameter table's values for @isa and profile, then §7.3's fit (debug), keeping every
 * value given with --cost. Return: 0, or VPMC_ERR_INVAL (the fit went negative: @err says). */
int nested_params(struct nested_cfg *c, const struct vpmc_nested_opts *o,
		  struct vpmc__errbuf *err);

/* The tag (M, D, F, E) and source of parameter @p under @c, for the report. */
const char *nested_param_tag(const struct nested_cfg *c, enum vpmc_nested_param p);

/* Cycles of @ops in the baseline and in the gpc design under @c (§7.2). */
uint64_t nested_ops_cycles_b(const struct nested_cfg *c, const struct nested_ops *ops);
uint64_t nested_ops_cycles_g(const struct nested_cfg *c, const struct nested_ops *ops);

/* ---- counting rules (count.c) ----------------------------------------------------------- */

enum nested_entry { NE_VMRUN, NE_VMRESUME, NE_VMLAUNCH, NE_RSM, NE_NONE, NE_ASSUMED };

/* What the counting rules keep across round trips: the caches, the PFNMAP unmap counters. */
struct nested_counter {
	const struct nested_cfg *cfg;
	uint64_t unmaps_b, unmaps_g;   /* PFNMAP unmaps so far, per design, in trace order */
};

int nested_caches_init(struct nested_caches *cs);
void nested_caches_release(struct nested_caches *cs);

/* The VMCB12 / vmcs12 of the entry about to be counted is @gpa (@known: the trace gave one).
 * Return: 0 or VPMC_ERR_NOMEM. */
int nested_caches_select(struct nested_counter *k, struct nested_caches *cs, uint64_t gpa);

/* Invalidate every cache of @cs (MMU notifier, §6.6). Return the number of caches that held a
 * page (for gpc_inval_walk); *@kicks gets the VMX APIC-page caches of the current L2. */
unsigned int nested_caches_invalidate(struct nested_caches *cs, uint32_t *kicks);

/* The counts of an emulated VM-entry of kind @e (§4.3, §5.3), with SVM intercept word 3 @w3. */
void nested_count_entry(struct nested_counter *k, struct nested_caches *cs, enum nested_entry e,
			uint32_t w3, struct nested_ops *o);

/* The counts of the emulated VM-exit that ends a round trip (@late_fail: a late VM-Fail). */
void nested_count_exit(struct nested_counter *k, struct nested_caches *cs, bool late_fail,
		       struct nested_ops *o);

/* The bitmap reads of an L2 exit (§6.5): @r its reason, @info1 (if @has_info1). */
void nested_count_l2_exit(struct nested_counter *k, struct nested_caches *cs,
			  const struct nested_reason *r, uint64_t info1, bool has_info1,
			  uint32_t w3, struct nested_ops *o);

/* n_apic of §5.3: APIC-access (xapic) + virtual-APIC (x2apic or xapic) + PI descriptor. */
unsigned int nested_vmx_n_apic(const struct vpmc_nested_assume *a);

/* ---- exact-or-histogram distribution (report.c) ------------------------------------------ */

#define NESTED_DIST_EXACT 64 /* distinct values kept exactly before the histogram takes over */

struct nested_dist {
	uint64_t n;
	unsigned int nr_vals;
	uint64_t val[NESTED_DIST_EXACT], cnt[NESTED_DIST_EXACT];
	bool hist_on;
	struct vpmc_hist h;
};

void nested_dist_init(struct nested_dist *d);
void nested_dist_release(struct nested_dist *d);
int nested_dist_add(struct nested_dist *d, uint64_t v);
/* Nearest-rank p50: exact while at most NESTED_DIST_EXACT distinct values were seen, else the
 * histogram's (within 1 %). 0 when empty. */
uint64_t nested_dist_p50(const struct nested_dist *d);

/* ---- the classifier (nested.c) and its report (report.c) -------------------------------- */

/* Report rows, in the order they are printed (§6.4). */
enum nested_kind { NK_CPUID, NK_MSR, NK_IO, NK_OTHER, NK_SYNTH, NK_L0_MSR, NK_L0_IO,
		   NK_L0_OTHER, NK_NR };

enum nested_mode { NM_UNKNOWN, NM_L1, NM_L2 };

/* A finished round trip, or an L0-handled exit (l0). */
struct nested_rt {
	uint64_t t;             /* the inject (the exit, for l0), ns */
	uint64_t start;         /* the L1 exit that began the entry, ns (if has_start) */
	uint64_t measured_ns;   /* the window, if has_measured */
	uint32_t vcpu;
	enum nested_kind kind;
	enum nested_entry entry;
	bool l0, has_start, has_measured;
	char l2_reason[VPMC_REASON_MAX], inject_reason[VPMC_REASON_MAX];
	struct nested_ops ops;
};

struct nested_vcpu {
	enum nested_mode mode;
	/* the open exit: kvm_exit (or kvm_nested_vmexit alone) to kvm_entry */
	bool exit_open, exit_from_l2, exit_had_nexit, exit_injected;
	uint64_t exit_t;
	char exit_reason[VPMC_REASON_MAX];
	struct nested_ops exit_ops;    /* the L2 exit's bitmap reads */
	/* the open run: kvm_nested_vmenter to its inject or late VM-Fail */
	bool run_open, run_counted, run_has_w3, run_has_gpa, run_has_start;
	enum nested_entry run_entry;
	uint32_t run_w3;
	uint64_t run_gpa, run_start;
	struct nested_ops run_ops;     /* the entry's counts */
	bool has_pending_start;        /* an L1 VMRUN / VMLAUNCH / VMRESUME exit */
	uint64_t pending_start;
	bool has_gpa, has_w3;          /* the last VMCB12 / vmcs12 GPA, intercept word 3 */
	uint64_t gpa;
	uint32_t w3;
	bool rt_waiting;               /* rt ended; its window ends at the next kvm_entry */
	struct nested_rt rt;
	uint64_t nr_rts;
	uint64_t pending_kicks;        /* invalidation kicks, charged to the next round trip */
	struct nested_caches caches;
};

struct nested_row {
	uint64_t n, assumed;
	struct nested_ops ops;
	/* cycles under the model anchor, under the measured one, and the measured windows */
	struct nested_dist model_b, model_g, meas_b, meas_g, measured;
};

struct nested_totals {
	uint64_t l2_exits, roundtrips, l0_handled, incomplete_exits, incomplete_runs;
	uint64_t assumed_entries, l1_exits, gpa_changes, vmload_vmsave, invalidations;
	uint64_t inval_walk_cycles, unplaced, early_vmfails;
	struct nested_ops ops;
};

struct nested_logent {
	struct nested_rt rt;
	uint64_t model_b, model_g, cycles; /* cycles: the measured window's */
};

#define NESTED_WARNINGS_MAX 16
#define NESTED_UNPLACED_SHOWN 10

struct vpmc_nested {
	struct vpmc_nested_opts opts;
	struct nested_cfg cfg;
	struct nested_counter counter;
	struct nested_vcpu **vcpus;     /* VPMC_MAX_VCPUS slots */
	unsigned int nr_vcpus;
	struct nested_row rows[NK_NR];
	struct nested_totals tot;
	char *name;
	bool ran;
	struct vpmc_reader *reader;     /* during vpmc_nested_run() */
	uint64_t at;                    /* vpmc_reader_mark() of the event being classified */
	unsigned int threads;           /* vpmc_nested_set_threads() */
	uint64_t nr_events, nested_events, first_ns, last_ns, partial;
	bool fine_times;                /* a time stamp that is no multiple of 1,000 ns */
	bool usable, use_measured, intercepts_seen, isa_by_label;
	uint32_t trace_w[3];            /* the first kvm_nested_intercepts' words */
	char warnings[NESTED_WARNINGS_MAX][VPMC_ERRMSG_MAX];
	size_t nr_warnings;
	FILE *log_out;
	FILE *log_wait;                 /* log entries waiting for the anchor (log.c) */
	char *report;
	struct vpmc__errbuf err;
	/* a union of summaries (summary.c): the first's merge_state and file, the inputs, the
	 * vCPUs seen */
	struct json_t *merge_first, *merge_inputs;
	char *merge_path;
	uint8_t merged_vcpus[VPMC_MAX_VCPUS / 8];
};

const char *nested_kind_name(enum nested_kind k);
const char *nested_entry_name(enum nested_entry e);

/* The cycles of both designs under the measured anchor (§6.7): @cyc measured on the recorded
 * design, the other one @delta (ops_baseline - ops_gpc) away, never below 0. */
void nested_measured_pair(const struct nested_cfg *c, uint64_t cyc, int64_t delta, uint64_t *b,
			  uint64_t *g);

/* Classify @ev, the event the reader returned at n->at (its vpmc_reader_mark()), in trace
 * order. Return: 0 or an error (n->err says it). */
int nested_event(struct vpmc_nested *n, const struct vpmc_event *ev);

/* Read the rest of @r into blocks on this thread and classify them, in order, on a second one
 * (pipe.c). Return: 0 at the trace's end, else the first error: the classifier's (n->err
 * set), which precedes any the reader met after it, or the reader's. */
int nested_run_piped(struct vpmc_nested *n, struct vpmc_reader *r);

/* Time stamps usable (all of them multiples of 1,000 ns: not), and the anchor used. */
void nested_decide_anchor(struct vpmc_nested *n);

/* ---- summaries (summary.c) ---------------------------------------------------------------- */

/* The merge_state of the report of @n (a run, or a union of summaries) as JSON text (free()),
 * or NULL (out of memory). */
char *nested_summary_state(const struct vpmc_nested *n);

/* ---- the log (log.c) ---------------------------------------------------------------------- */

/* Log @e: written now if the anchor is known, else kept in a temporary file until it is.
 * Return: 0 or VPMC_ERR_IO. */
int nested_log_entry(struct vpmc_nested *n, const struct nested_logent *e);

/* At the end of the run (n->use_measured set): the entries still waiting, then a flush.
 * Return: 0 or VPMC_ERR_IO. */
int nested_log_end(struct vpmc_nested *n);

/* Drop what a run that failed left waiting. */
void nested_log_release(struct vpmc_nested *n);

#endif /* VPMC_NESTED_LOCAL_H */
