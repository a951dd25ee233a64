/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/replay.h - Host cost model, the replay engine and its metrics. */
#ifndef VPMC_PUBLIC_REPLAY_H
#define VPMC_PUBLIC_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/model.h>
#include <vpmc/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Replay (issue 5): host cost model, replay engine and metrics, exit statistics.
 */

#define VPMC_COST_MULT_MAX 8

/* Host cost model: what the perf-backed vPMU work at a VM-entry costs the host. */
struct vpmc_cost {
	double resume_us;      /* one perf event reused by reprogram_counter() (pause, period, enable) */
	double create_us;      /* one perf event released and re-created by reprogram_counter() */
	double trigger_cycles; /* one kvm_pmu_trigger_event() that found candidate counters */
	double cpu_ghz;        /* host clock, converts trigger_cycles to time */
	/* v2 (timer-storm.md §6; vpmcsim(1), COST MODEL): zero in the profile "default", where
	 * they price nothing; units in the names (ns, us, cycles), counts and probabilities plain */
	double pause_us;               /* one counter left paused by a drain */
	double msr_access_cycles;      /* one host PMU RDMSR, WRMSR or RDPMC */
	double host_counters;          /* H: host-owned active counters */
	double host_flexible;          /* F_h: host flexible events */
	double guest_counters;         /* G: the vCPU's active KVM perf events (not counted) */
	double create_sigma;           /* log-normal sigma of a creation */
	double drain_fixed_ns;         /* kvm_pmu_handle_event() itself, per drain */
	double slowpath_tax_ns;        /* a fastpath exit that must leave the inner loop */
	double exit_rt_msr_fast_ns, exit_rt_msr_slow_ns, exit_rt_intr_ns, exit_rt_vintr_ns;
	double exit_rt_nmi_ns, exit_rt_other_ns; /* round trips by exit class (latency only) */
	double handler_overhead_ns;    /* per latency sample: what no trace shows */
	double drain_extra_p0;         /* q: probability that a drain has no extra */
	double drain_extra_quantum_us; /* the extra's unit */
	double drain_extra_jitter;     /* relative +- of the extra */
	double mediated_switch_cycles; /* PMU context switch per slow-path exit (mediated) */
	double draw_seed;              /* keys the cost draws */
	unsigned int mult_n;           /* drain_extra_mult: k quanta with probability p */
	double mult_k[VPMC_COST_MULT_MAX], mult_p[VPMC_COST_MULT_MAX];
};

/**
 * vpmc_cost_default() - The default cost parameters (sources in vpmcsim(1), COST MODEL).
 * @c: filled in
 */
void vpmc_cost_default(struct vpmc_cost *c);

/**
 * vpmc_cost_parse() - Override cost parameters: "resume_us=1.5,cpu_ghz=3".
 * @c: parameters to change; changed only on success
 * @spec: comma-separated NAME=VALUE, NAME one of resume_us, create_us (0 to 1e6 us),
 *        trigger_cycles (0 to 1e8), cpu_ghz (0.01 to 100), with trigger_cycles / cpu_ghz
 *        (ns per trigger, taking @c's values for NAMEs not in @spec) at most 1e6: bounds that
 *        keep every exit's cost a finite number; each NAME at most once
 * @why: if not NULL, set on failure to a static string naming what was expected (for a bad
 *       VALUE: the parameter and its range; for a NAME given twice: "NAME given twice"; for
 *       a trigger above 1e6 ns: both parameters and the bound)
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_cost_parse(struct vpmc_cost *c, const char *spec, const char **why);

/**
 * vpmc_cost_us() - Modeled host time of some vPMU work, in microseconds.
 * @c: parameters
 * @resumes: perf events resumed by reprogram_counter() (pmc_resume_counter() succeeded)
 * @creates: perf events created by reprogram_counter() (pmc_reprogram_counter())
 * @triggers: kvm_pmu_trigger_event() calls that found candidates
 *
 * Return: resumes * resume_us + creates * create_us + triggers * trigger_cycles / cpu_ghz / 1000.
 */
double vpmc_cost_us(const struct vpmc_cost *c, uint64_t resumes, uint64_t creates,
		    uint64_t triggers);

struct vpmc_replay;

/* What a replay assumed about what the trace does not say, for the report (vpmcsim(1),
 * ASSUMPTIONS); the engine keeps a copy and does not use it otherwise. */
struct vpmc_replay_assumptions {
	uint64_t guest_ips;                 /* guest instructions per second of guest-mode time */
	unsigned int guest_branch_permille; /* branches per 1000 of them */
	bool guest_synthesized;   /* the guest segments were made from them (imported trace), not
				   * read from the trace (.vtr) */
	char vendor_how[128];     /* how the PMU's vendor was decided ("kvm_exit isa=2 at ...") */
	char host_how[128];       /* how the host kernel was decided */
};

/**
 * vpmc_replay_set_assumptions() - What the report says was assumed.
 * @r: engine
 * @a: copied
 */
void vpmc_replay_set_assumptions(struct vpmc_replay *r, const struct vpmc_replay_assumptions *a);

/**
 * vpmc_replay_assumptions() - The assumptions vpmc_replay_set_assumptions() gave.
 * @r: engine
 *
 * Return: them (all zero if none were given), owned by @r.
 */
const struct vpmc_replay_assumptions *vpmc_replay_assumptions(const struct vpmc_replay *r);

/**
 * vpmc_replay_trace_exits() - The trace's own exit handling: each VM-exit of the trace to its
 * vCPU's next VM-entry of the trace (as vpmcsim stat measures it).
 * @r: engine
 * @ns_sum: if not NULL, set to the sum of those times, ns
 *
 * Return: the number of exits measured.
 */
uint64_t vpmc_replay_trace_exits(const struct vpmc_replay *r, uint64_t *ns_sum);

/* What one exit did under a policy, for the v2 terms (vpmc_cost_extra_us()). */
struct vpmc_exit_work {
	uint64_t triggers;           /* kvm_pmu_trigger_event() calls with candidates */
	unsigned int reprogrammed, resumed, created; /* by the drain at its entry */
	bool drained;                /* kvm_pmu_handle_event() ran at its entry */
	uint32_t vcpu;
	uint64_t ordinal;            /* keys the draws: a trace exit's ordinal on its vCPU; a
				      * modeled exit's, that of the trace exit before it +
				      * 2^40 x its index since (timer-storm.md §6.5) */
};

/**
 * vpmc_cost_v2() - Whether any v2 term of @c prices something (else vpmc_cost_us() alone is
 * the cost, as in vpmcsim 0.1).
 * @c: parameters
 *
 * Return: true when pause_us, msr_access_cycles, create_sigma, drain_fixed_ns, slowpath_tax_ns,
 * mediated_switch_cycles or the drain extra (q < 1 and a quantum) is non-zero.
 */
bool vpmc_cost_v2(const struct vpmc_cost *c);

/**
 * vpmc_cost_draw() - Cost draw i of an exit, uniform in [0, 1) (timer-storm.md §6.5).
 * @c: parameters (draw_seed)
 * @vcpu: the exit's vCPU
 * @ordinal: the exit's key on it (struct vpmc_exit_work.ordinal)
 * @i: 1, 2, 3 for the drain extra; 4 + 2c, 5 + 2c for counter c's creation
 *
 * Return: the draw.
 */
double vpmc_cost_draw(const struct vpmc_cost *c, uint32_t vcpu, uint64_t ordinal, unsigned int i);

/**
 * vpmc_cost_drain_extra_us() - The calibrated extra X of one drain, in microseconds.
 * @c: parameters (drain_extra_*)
 * @u1: draw 1 (no extra if below drain_extra_p0)
 * @u2: draw 2 (multiplicity, inverse CDF of drain_extra_mult)
 * @u3: draw 3 (jitter)
 *
 * Return: 0, or k * drain_extra_quantum_us * (1 + drain_extra_jitter * (2 * u3 - 1)).
 */
double vpmc_cost_drain_extra_us(const struct vpmc_cost *c, double u1, double u2, double u3);

/**
 * vpmc_cost_extra_us() - What the v2 terms add to vpmc_cost_us() for one exit, in microseconds.
 * @c: parameters
 * @w: the exit's work
 * @x_us: if not NULL, set to the drain extra X included (0 without a drain)
 *
 * Return: drain_fixed + per counter (resumed: a*(P+E), created: draw - create_us + a*P, left
 * paused: pause_us + a*P) + X when @w drained, a = msr_access_cycles / cpu_ghz ns; else 0.
 */
double vpmc_cost_extra_us(const struct vpmc_cost *c, const struct vpmc_exit_work *w,
			  double *x_us);

/* Tags of a cost-profile parameter line (timer-storm.md §2, §7). */
enum vpmc_cost_tag {
	VPMC_COST_TAG_NONE,
	VPMC_COST_TAG_MEASURED,
	VPMC_COST_TAG_DERIVED,
	VPMC_COST_TAG_ESTIMATE,
	VPMC_COST_TAG_CALIBRATED,
	VPMC_COST_TAG_OVERRIDE, /* set by --cost */
};

/* One cost parameter: its name, unit, allowed range, and for an estimate the documented
 * plausible range with its source (for a sensitivity analysis). */
struct vpmc_cost_param_info {
	const char *name, *unit;
	double min, max;         /* accepted values */
	double low, high;        /* plausible range; low == high == 0: none documented */
	const char *range_source;
	size_t off;              /* of its double in struct vpmc_cost (drain_extra_mult: 0) */
	bool latency_only;       /* prices only latency's windows (round trips, the handler) */
};

/**
 * vpmc_cost_params() - The table of cost parameters, in profile-file order.
 * @n: set to the number of entries
 *
 * Return: the table.
 */
const struct vpmc_cost_param_info *vpmc_cost_params(size_t *n);

/**
 * vpmc_cost_linear() - Whether a replay's host cost moves with parameter @i only through
 * vpmc_cost_us(), that is linearly in the perf_resumes, perf_creates and triggers it counted:
 * resume_us and trigger_cycles always; create_us while create_sigma draws nothing; cpu_ghz while
 * msr_access_cycles prices nothing (or the v2 terms are off).
 * @c: the parameters in force
 * @i: index into vpmc_cost_params()
 *
 * Return: true if the totals at another value of @i follow from the counts, false if the
 * parameter enters per-exit terms (vpmc_cost_extra_us()) or prices nothing in a replay.
 */
bool vpmc_cost_linear(const struct vpmc_cost *c, size_t i);

#define VPMC_COST_MAX_PARAMS 32

/* A cost profile: the parameters with their tags and sources, and the calibration metadata. */
struct vpmc_cost_profile {
	char name[64];
	struct vpmc_cost cost;
	enum vpmc_cost_tag tag[VPMC_COST_MAX_PARAMS];   /* by vpmc_cost_params() index */
	char *source[VPMC_COST_MAX_PARAMS];             /* NULL: none */
	char *fitted, *targets, *measured, *fitted_on;  /* metadata lines, NULL if absent */
	bool fitted_touched; /* a --cost override set a fitted parameter */
};

/**
 * vpmc_cost_profile_load() - Load a shipped profile ("default", "rfc-milan") or a file (a name
 * with '/' or ending in ".cost"), with its base.
 * @p: filled in; release with vpmc_cost_profile_release() (also after an error)
 * @spec: the name or path
 * @err: message on failure ("FILE:LINE: ..."; unknown shipped names are listed)
 * @errlen: its size
 *
 * Return: 0, VPMC_ERR_INVAL (bad file or name), VPMC_ERR_IO, VPMC_ERR_NOMEM.
 */
int vpmc_cost_profile_load(struct vpmc_cost_profile *p, const char *spec, char *err,
			   size_t errlen);

/**
 * vpmc_cost_profile_parse() - Parse profile text (timer-storm.md §7.1) over @p's values.
 * @p: the base (set by vpmc_cost_profile_load() or zeroed and then defaulted)
 * @text: the whole file, NUL-terminated
 * @file: its name for messages
 * @err: message on failure
 * @errlen: its size
 *
 * Return: 0, VPMC_ERR_INVAL, VPMC_ERR_NOMEM.
 */
int vpmc_cost_profile_parse(struct vpmc_cost_profile *p, const char *text, const char *file,
			    char *err, size_t errlen);

/**
 * vpmc_cost_profile_override() - Apply a --cost spec to a profile: values as vpmc_cost_parse(),
 * tags "override"; notes when a fitted parameter is touched.
 * @p: profile
 * @spec: NAME=VALUE[,NAME=VALUE...]
 * @why: as for vpmc_cost_parse()
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_cost_profile_override(struct vpmc_cost_profile *p, const char *spec, const char **why);

/**
 * vpmc_cost_profile_set() - Set one parameter of a profile with its tag and source.
 * @p: profile
 * @name: parameter name
 * @value: the value (in its range)
 * @tag: its tag
 * @source: its source (copied)
 *
 * Return: 0, VPMC_ERR_INVAL (unknown name, out of range), VPMC_ERR_NOMEM.
 */
int vpmc_cost_profile_set(struct vpmc_cost_profile *p, const char *name, double value,
			  enum vpmc_cost_tag tag, const char *source);

/**
 * vpmc_cost_profile_write() - Write @p as a profile file (every parameter with tag and source).
 * @p: profile
 * @out: stream
 *
 * Return: 0, or VPMC_ERR_IO.
 */
int vpmc_cost_profile_write(const struct vpmc_cost_profile *p, FILE *out);

/* Free what @p owns (not @p itself). */
void vpmc_cost_profile_release(struct vpmc_cost_profile *p);

/* The text of a shipped profile by name, or NULL. */
const char *vpmc_cost_profile_shipped(const char *name);

/* The name of a tag ("measured", ...). */
const char *vpmc_cost_tag_name(enum vpmc_cost_tag t);

/* Report formats. */

/*
 * Replay: one pass over a trace, every event applied to one model per selected policy and
 * vCPU and to the reference model; metrics of each policy against the reference (vpmcsim(1),
 * METRICS). Memory is per vCPU and does not grow with the length of the trace.
 */
struct vpmc_replay;

#define VPMC_REPLAY_MAX_POLICIES 65 /* sweep: 64 tolerances and its exact baseline */

/* A guest read whose trace event recorded what the real guest read there (rdmsr / rdpmc VALUE,
 * kvm_msr msr_read): ground truth from the recording host, checked against the model. */
struct vpmc_host_read {
	uint64_t time_ns;
	uint32_t vcpu;
	bool rdpmc;     /* RDPMC (index = ECX), else RDMSR (index = MSR) */
	uint32_t index;
	bool gp;        /* the model's guest took #GP there */
	uint64_t value; /* what the model's guest read (0 after #GP) */
	uint64_t host;  /* what the real guest read */
};

/* What one policy did, summed over vCPUs and counters as asked (vpmc_replay_metrics()).
 * Times in ns, host cost in us; lateness and per-exit figures are valid only when their count
 * (overflows_matched, exits) is non-zero. */
struct vpmc_metrics {
	/* guest reads of a counter (RDPMC, RDMSR): policy value - reference value, in events */
	uint64_t reads, reads_with_error, error_events_max_abs;
	double error_events_mean_abs, error_events_mean;
	/* reads of a GP counter whose event select has CMASK, INV, EDGE or IN_TX/IN_TXCP, which
	 * the reference does not model: not in reads, never scored (nor are its overflows) */
	uint64_t reads_not_modeled;
	uint64_t status_reads, status_reads_differ; /* GLOBAL_STATUS reads */
	/* reads of PMU registers whose trace event carries the value the real guest read, and
	 * those where the policy's guest read something else (or took #GP); for exact, how well
	 * the trace fits the modeled PMU (the recording host ran upstream KVM) */
	uint64_t host_reads, host_differ;
	struct vpmc_host_read host_first_differ; /* the earliest such read; host_differ != 0 */
	/* samples: PMIs delivered to the guest (its profiler's samples), against the ideal
	 * guest's, the trace's guest on a PMU that counts exactly, whose own PMIs run its own
	 * handler (vpmcsim(1), METRICS); lateness in trace instructions and ns, valid when
	 * samples_matched is not 0 */
	uint64_t samples, samples_ideal, samples_matched, samples_unmatched;
	uint64_t ideal_lateness_insn_p50, ideal_lateness_insn_p99, ideal_lateness_insn_max;
	uint64_t ideal_lateness_ns_p50, ideal_lateness_ns_p99, ideal_lateness_ns_max;
	/* sum over reads of |policy - reference| / sum of the reference values read: a fraction,
	 * 0 without reads */
	double count_error_rel_mean;
	/* PMIs against the lane's reference: the reference under the policy's own guest actions
	 * (the same guest as the ideal one without an overlay) */
	uint64_t ref_overflows;     /* reference overflows that raised a reference PMI */
	uint64_t overflows_matched, overflows_missed;
	/* reference overflows whose reference PMI the guest's own LVTPC dropped (masked, or
	 * ExtINT mode): not in ref_overflows, neither matched nor missed */
	uint64_t dropped_by_guest;
	uint64_t pmis_delivered, pmis_dropped, pmis_spurious;
	uint64_t pmis_not_modeled; /* delivered PMIs that covered only overflows of counters not
				    * modeled (CMASK, INV...): neither matched nor spurious */
	uint64_t lateness_events_p50, lateness_events_p99, lateness_events_max;
	uint64_t lateness_ns_p50, lateness_ns_p99, lateness_ns_max;
	/* host cost */
	uint64_t exits, exits_implicit, exits_with_drain;
	uint64_t drains, reprograms, perf_resumes, perf_creates, triggers;
	double host_us_total, host_us_per_exit_mean, host_us_per_exit_max;
	double host_us_per_exit_p50, host_us_per_exit_p99;
};

/**
 * vpmc_replay_new() - A replay engine with no policy, the default cost model, no overlay.
 * @out: set on success only
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_replay_new(struct vpmc_replay **out);

/**
 * vpmc_replay_add_policy() - Replay one more policy (one row of the report), before
 * vpmc_replay_begin().
 * @r: engine
 * @p: the policy (copied); "reference" is allowed (it then matches the reference exactly)
 *
 * Return: 0, VPMC_ERR_INVAL (bad policy, or already begun), VPMC_ERR_LIMIT (more than
 * VPMC_REPLAY_MAX_POLICIES).
 */
int vpmc_replay_add_policy(struct vpmc_replay *r, const struct vpmc_policy *p);

/**
 * vpmc_replay_assume() - Lay an assumed guest profiler's counter over the trace (--assume).
 * @r: engine, before vpmc_replay_begin()
 * @spec: "gpN=EVENT[,period=P]" or "fixedN[,period=P]" (vpmcsim(1), OVERLAY)
 *
 * Return: 0, or VPMC_ERR_INVAL / VPMC_ERR_LIMIT with vpmc_replay_error() saying why.
 */
int vpmc_replay_assume(struct vpmc_replay *r, const char *spec);

/**
 * vpmc_replay_set_cost() - Price exits with these parameters.
 * @r: engine
 * @c: parameters (copied)
 */
void vpmc_replay_set_cost(struct vpmc_replay *r, const struct vpmc_cost *c);

/**
 * vpmc_replay_set_cost_label() - Name the cost profile in the reports' headers.
 * @r: engine
 * @label: e.g. "rfc-milan (calibrated: ...)"; NULL or "" for the default (no header line, as in
 *         vpmcsim 0.1)
 */
void vpmc_replay_set_cost_label(struct vpmc_replay *r, const char *label);

/**
 * vpmc_replay_set_cost_profile() - Price exits with a profile's parameters, and report their
 * tags (measured, derived, estimate, calibrated, override) from it.
 * @r: engine
 * @p: the profile (its values and tags copied, not its sources); a later
 *     vpmc_replay_set_cost() changes the values, not the tags
 */
void vpmc_replay_set_cost_profile(struct vpmc_replay *r, const struct vpmc_cost_profile *p);

/**
 * vpmc_replay_cost_tag() - The tag of cost parameter @i of the parameters that price exits.
 * @r: engine
 * @i: index into vpmc_cost_params()
 *
 * Return: the tag vpmc_replay_set_cost_profile() gave; without one, the shipped profile
 * "default"'s tag for a value equal to vpmc_cost_default()'s and VPMC_COST_TAG_OVERRIDE for
 * any other; VPMC_COST_TAG_NONE for an @i out of range.
 */
enum vpmc_cost_tag vpmc_replay_cost_tag(const struct vpmc_replay *r, size_t i);

/**
 * vpmc_replay_cost_label() - The label set by vpmc_replay_set_cost_label().
 * @r: engine
 *
 * Return: the label, or NULL for the default.
 */
const char *vpmc_replay_cost_label(const struct vpmc_replay *r);

/**
 * vpmc_replay_set_exit_hook() - Be told of every priced exit of every policy (latency).
 * @r: engine, before vpmc_replay_begin()
 * @fn: gets the policy's index, the exit's work, its cost and the drain extra in it (us); called
 *      while the event that closes the exit (its VM-entry) is applied
 * @event_fn: or NULL; gets every event the engine takes, before (@after false) and after the
 *            models applied it
 * @data: passed to both
 */
void vpmc_replay_set_exit_hook(struct vpmc_replay *r,
			       void (*fn)(void *data, unsigned int policy,
					  const struct vpmc_exit_work *w, double us, double x_us),
			       void (*event_fn)(void *data, const struct vpmc_event *ev, bool after),
			       void *data);

/**
 * vpmc_replay_set_log() - Write the replay log (trace-format.md, "The replay log").
 * @r: engine, before vpmc_replay_begin()
 * @fn: gets one JSON object per line (no newline) for every read (with the reference's value),
 *      write, overflow, PMI, drain and reprogram, and each match, miss and spurious PMI
 * @data: passed to @fn
 */
void vpmc_replay_set_log(struct vpmc_replay *r, void (*fn)(void *data, const char *line),
			 void *data);

/**
 * vpmc_replay_set_progress() - Report progress.
 * @r: engine
 * @fn: called with the number of trace events applied so far, every 2^20 events
 * @data: passed to @fn
 */
void vpmc_replay_set_progress(struct vpmc_replay *r, void (*fn)(void *data, uint64_t events),
			      void *data);

/**
 * vpmc_replay_set_threads() - Let vpmc_replay_run() replay on up to @n threads, the calling
 * one included, which reads the trace into blocks of events: the ideal guest and shares of the
 * policies run block by block on whichever thread is free; results identical to one thread's.
 * One thread (as for @n 0 or 1) with the log or the exit hook; one thread runs more than 16
 * policies in shares too, one share after the other over each block.
 * @r: engine, before vpmc_replay_run()
 * @n: number of replaying threads
 */
void vpmc_replay_set_threads(struct vpmc_replay *r, unsigned int n);

/**
 * vpmc_replay_begin() - Start a replay for a PMU.
 * @r: engine with at least one policy
 * @cfg: the guest's PMU (e.g. vpmc_reader_pmu())
 *
 * Return: 0, or VPMC_ERR_INVAL (no policy; --assume counters the PMU does not have) with
 * vpmc_replay_error() set.
 */
int vpmc_replay_begin(struct vpmc_replay *r, const struct vpmc_pmu_config *cfg);

/**
 * vpmc_replay_event() - Apply one trace event to the reference and every policy's model of its
 * vCPU (the first event of a vCPU creates them, and with an overlay programs its counters). A
 * WRMSR that undoes an --assume counter's programming is noted for vpmc_replay_warning().
 * @r: engine after vpmc_replay_begin()
 * @ev: the event; times non-decreasing per vCPU
 *
 * Return: 0, VPMC_ERR_INVAL (bad vCPU, type or CPL; not begun), VPMC_ERR_NOMEM, VPMC_ERR_LIMIT;
 * vpmc_replay_error() says why.
 */
int vpmc_replay_event(struct vpmc_replay *r, const struct vpmc_event *ev);

/**
 * vpmc_replay_finish() - End of the trace: pending reference overflows become missed, an exit
 * still open is priced.
 * @r: engine
 *
 * Return: 0, VPMC_ERR_INVAL (not begun, or finished), VPMC_ERR_NOMEM.
 */
int vpmc_replay_finish(struct vpmc_replay *r);

/**
 * vpmc_replay_run() - begin (unless done), every event of @rd, finish.
 * @r: engine
 * @rd: an open reader
 *
 * Return: 0, the reader's error (message in vpmc_replay_error()), or an engine error (its
 * message prefixed with the event's place in the trace, vpmc_reader_where()).
 */
int vpmc_replay_run(struct vpmc_replay *r, struct vpmc_reader *rd);

/**
 * vpmc_replay_warning() - What vpmc_replay_event() found worth a warning: the first WRMSR of
 * the trace itself that undoes an --assume counter's programming (its counter or event select
 * MSR, its FIXED_CTR_CTRL field, or its GLOBAL_CTRL bit cleared), with the MSR's name, where it
 * is in the trace (under vpmc_replay_run() vpmc_reader_where(), else "event N", the event's
 * number in the replay) and the --assume it overwrites.
 * @r: engine
 *
 * Return: the message, "" if none; owned by @r.
 */
const char *vpmc_replay_warning(const struct vpmc_replay *r);

/**
 * vpmc_replay_add_warning() - Keep a warning the caller printed about this replay (the reader's,
 * vpmc_replay_warning(), the figures'), so that the JSON report's "warnings" lists it too, after
 * vpmc_replay_verdict_warning()'s. The first 64 are kept.
 * @r: engine
 * @msg: the warning, copied
 *
 * Return: 0, VPMC_ERR_INVAL (NULL argument) or VPMC_ERR_NOMEM.
 */
int vpmc_replay_add_warning(struct vpmc_replay *r, const char *msg);

/**
 * vpmc_replay_add_input_warning() - As vpmc_replay_add_warning(), for a warning about the input
 * (the reader's, vpmc_replay_warning()) rather than one derived from the figures: a merge of
 * summaries (vpmcsim(1), MERGE) carries it over, where it derives the others anew.
 * @r: engine
 * @msg: the warning, copied
 *
 * Return: 0, VPMC_ERR_INVAL (NULL argument) or VPMC_ERR_NOMEM.
 */
int vpmc_replay_add_input_warning(struct vpmc_replay *r, const char *msg);

/**
 * vpmc_replay_added_warning() - Warning @i of vpmc_replay_add_warning(), in the order added.
 * @r: engine
 * @i: from 0
 *
 * Return: the warning, or NULL past the last; owned by @r.
 */
const char *vpmc_replay_added_warning(const struct vpmc_replay *r, size_t i);

/**
 * vpmc_replay_nr_policies() - How many policies the engine replays.
 * @r: engine
 *
 * Return: the number added with vpmc_replay_add_policy().
 */
size_t vpmc_replay_nr_policies(const struct vpmc_replay *r);

/**
 * vpmc_replay_policy() - Policy @i, in the order added.
 * @r: engine
 * @i: index
 *
 * Return: the policy (owned by @r), or NULL if @i is out of range.
 */
const struct vpmc_policy *vpmc_replay_policy(const struct vpmc_replay *r, size_t i);

/**
 * vpmc_replay_handler_capped() - With an overlay: how often policy @i's guest PMI handler was
 * cut off because PMIs kept arriving while it ran.
 * @r: engine after vpmc_replay_run() or vpmc_replay_finish()
 * @i: policy index, in the order added
 * @first_ns: if not NULL and the count is not 0, the first cut's trace time, ns
 * @first_vcpu: if not NULL and the count is not 0, the first cut's vCPU
 *
 * At most 8 handler runs in a row; see vpmc(3), REPLAY ENGINE AND METRICS.
 *
 * Return: the number of cut-off handler runs (0 also for an @i out of range).
 */
uint64_t vpmc_replay_handler_capped(const struct vpmc_replay *r, size_t i, uint64_t *first_ns,
				    uint32_t *first_vcpu);

/**
 * vpmc_replay_metrics() - Results of policy @i.
 * @r: engine after vpmc_replay_finish()
 * @i: policy index, in the order added
 * @vcpu: a vCPU index, or -1 for all
 * @counter: a KVM global counter index, or -1 for all; for one counter only the read, overflow
 *           and lateness fields are filled (PMIs and exits belong to the vCPU)
 * @m: filled in
 *
 * Return: 0, VPMC_ERR_INVAL (no such policy), VPMC_ERR_NOMEM.
 */
int vpmc_replay_metrics(const struct vpmc_replay *r, size_t i, int vcpu, int counter,
			struct vpmc_metrics *m);

enum vpmc_replay_view {
	VPMC_VIEW_COMPARE, /* one row per policy */
	VPMC_VIEW_DETAIL,  /* per policy, per vCPU and per counter */
	VPMC_VIEW_SWEEP,   /* one row per policy with its tolerance, for plotting */
};

/**
 * vpmc_replay_report() - The results as text, CSV or JSON.
 * @r: engine after vpmc_replay_finish()
 * @view: which table
 * @fmt: output format
 * @out: set to the text, owned by @r until the next call or vpmc_replay_free()
 *
 * Return: 0, VPMC_ERR_NOMEM, or VPMC_ERR_LIMIT (JSON only: a figure that is not a finite
 * number, which JSON cannot hold; only cost parameters beyond vpmc_cost_parse()'s bounds give
 * one); vpmc_replay_error() says which.
 */
int vpmc_replay_report(struct vpmc_replay *r, enum vpmc_replay_view view, enum vpmc_output fmt,
		       const char **out);

/**
 * vpmc_replay_verdict_warning() - Warning @i about the results, one that keeps a reader from a
 * wrong conclusion: the trace's guest uses no counter and there is no overlay (every policy
 * does the same nothing); every row is identical; an estimated cost parameter's documented
 * range reverses two policies by host us ("an estimated cost parameter decides the ranking:
 * NAME", one per parameter; vpmcsim(1), COST MODEL, Sensitivity).
 * @r: engine after vpmc_replay_finish()
 * @i: index, from 0
 * @buf: set to the warning (no newline)
 * @len: its size
 *
 * Return: true if there is a warning @i, false when @i is past the last.
 */
bool vpmc_replay_verdict_warning(const struct vpmc_replay *r, size_t i, char *buf, size_t len);

/**
 * vpmc_replay_plot() - A gnuplot script that draws the sweep (x: tolerance T > 0, log scale,
 * over the data's range, from T/10 to 10T when there is one T; y: modeled host us in all with
 * exact's as a line when exact is a policy, and the p99 lateness against the ideal guest when
 * some T matched a sample; each T labeled with the samples it lost; the legend below) into an
 * SVG file, or a PNG file when @path ends in ".png"; the data is inline. The title says
 * tolerance or tolerance-wrap, names the trace and the overlay, and says what is missing (no
 * lateness curve, T = 0 left out).
 * @r: engine after vpmc_replay_finish()
 * @path: output file name written into the script
 * @out: set to the script, owned by @r until the next call or vpmc_replay_free()
 *
 * Return: 0, VPMC_ERR_INVAL (no policy with T > 0, or no exit and no matched sample at all:
 * nothing to draw) or VPMC_ERR_NOMEM; vpmc_replay_error() says which.
 */
int vpmc_replay_plot(struct vpmc_replay *r, const char *path, const char **out);

/**
 * vpmc_replay_set_source() - Describe the trace in the report header.
 * @r: engine
 * @path: the trace's path as given (copied), or NULL
 * @st: the reader's counts (copied), or NULL; vpmc_replay_run() fills them itself
 */
void vpmc_replay_set_source(struct vpmc_replay *r, const char *path,
			    const struct vpmc_reader_stats *st);

/* Run-wide facts, for reports of a replay (each valid from vpmc_replay_new() on). */

/**
 * vpmc_replay_source() - The trace as vpmc_replay_set_source() or vpmc_replay_run() described it.
 * @r: engine
 * @path: if not NULL, set to the trace's path (owned by @r), or NULL if none was given
 * @st: if not NULL and the reader's counts are known, set to them
 *
 * Return: true if the reader's counts are known (@st filled), false if not.
 */
bool vpmc_replay_source(const struct vpmc_replay *r, const char **path,
			struct vpmc_reader_stats *st);

/**
 * vpmc_replay_config() - The guest's PMU as the models have it (KVM's caps applied).
 * @r: engine
 *
 * Return: the configuration, owned by @r; all zero before vpmc_replay_begin().
 */
const struct vpmc_pmu_config *vpmc_replay_config(const struct vpmc_replay *r);

/**
 * vpmc_replay_cost() - The parameters that price exits.
 * @r: engine
 *
 * Return: vpmc_cost_default()'s, or the last vpmc_replay_set_cost()'s; owned by @r.
 */
const struct vpmc_cost *vpmc_replay_cost(const struct vpmc_replay *r);

/**
 * vpmc_replay_span() - How much of the trace the engine saw: events, vCPUs and times.
 * @r: engine
 * @nr_vcpus: if not NULL, set to the highest vCPU index with models, plus one (0: none)
 * @first_ns: if not NULL, set to the first event's time, ns
 * @last_ns: if not NULL, set to the latest event time, ns
 *
 * The times are those of the events given to vpmc_replay_event(), 0 before the first.
 *
 * Return: the number of events applied.
 */
uint64_t vpmc_replay_span(const struct vpmc_replay *r, uint32_t *nr_vcpus, uint64_t *first_ns,
			  uint64_t *last_ns);

/**
 * vpmc_replay_has_vcpu() - Whether the models and metrics of vCPU @vcpu exist (it had an event).
 * @r: engine
 * @vcpu: vCPU index
 *
 * Return: true if they do; vpmc_replay_metrics() of a vCPU without them is all zero.
 */
bool vpmc_replay_has_vcpu(const struct vpmc_replay *r, uint32_t vcpu);

/**
 * vpmc_replay_nr_assumed() - How many counters vpmc_replay_assume() laid over the trace.
 * @r: engine
 *
 * Return: their number, 0 without an overlay.
 */
size_t vpmc_replay_nr_assumed(const struct vpmc_replay *r);

/**
 * vpmc_replay_assumed() - Assumed counter @i as canonical text, "gp0=instructions,period=100000".
 * @r: engine
 * @i: index, in the order added
 *
 * Return: the text (owned by @r), or NULL if @i is out of range.
 */
const char *vpmc_replay_assumed(const struct vpmc_replay *r, size_t i);

/**
 * vpmc_replay_error() - The last error's message.
 * @r: engine
 *
 * Return: the message, "" if none; owned by @r.
 */
const char *vpmc_replay_error(const struct vpmc_replay *r);

/**
 * vpmc_replay_free() - Free the engine, its models and results.
 * @r: engine, or NULL
 */
void vpmc_replay_free(struct vpmc_replay *r);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_REPLAY_H */
