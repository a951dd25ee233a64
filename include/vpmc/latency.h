/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/latency.h - Guest interrupt-handler duration per policy (timer-storm.md §5). */
#ifndef VPMC_PUBLIC_LATENCY_H
#define VPMC_PUBLIC_LATENCY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/replay.h>

#ifdef __cplusplus
extern "C" {
#endif

enum vpmc_latency_end {
	VPMC_LATENCY_END_AUTO,     /* the deadline write, else (after the window) the EOI */
	VPMC_LATENCY_END_DEADLINE, /* wrmsr 0x6e0 or 0x838 only */
	VPMC_LATENCY_END_EOI,      /* eoi V or wrmsr 0x80b only */
};

enum vpmc_latency_gaps {
	VPMC_LATENCY_GAPS_AUTO,  /* trace with "!gaps base", else model */
	VPMC_LATENCY_GAPS_TRACE, /* an exit costs its span in the trace */
	VPMC_LATENCY_GAPS_MODEL, /* an exit costs exit_rt_* of its class (hlt keeps its span) */
};

struct vpmc_latency_opts {
	uint32_t vector;            /* default 0xec, LOCAL_TIMER_VECTOR */
	enum vpmc_latency_end end;
	uint64_t max_window_ns;     /* default 2 ms */
	double fast_us;             /* a fast sample is at most this; default 20 */
	enum vpmc_latency_gaps gaps;
	bool keep_samples;          /* keep each sample for vpmc_latency_samples() (calibrate) */
};

/* One policy's statistics, pooled or of one vCPU (times in us; NAN when samples == 0). */
struct vpmc_latency_stats {
	uint64_t samples, flagged, fallback, overruns, drains;
	double samples_per_s, mean_us, p50_us, p99_us, p999_us, max_us, fast_fraction;
	double drains_per_sample;
};

/* One kept sample: its duration without handler_overhead_ns and without the drain extras, and
 * the draw keys (vCPU, exit ordinal) of the drains in its window. */
#define VPMC_LATENCY_SAMPLE_KEYS 4
struct vpmc_latency_sample {
	double fixed_ns;
	uint32_t vcpu;
	uint32_t nr_keys;           /* may exceed VPMC_LATENCY_SAMPLE_KEYS: only the first kept */
	uint64_t key[VPMC_LATENCY_SAMPLE_KEYS];
};

struct vpmc_latency;

/* Defaults of the options. */
void vpmc_latency_opts_default(struct vpmc_latency_opts *o);

/**
 * vpmc_latency_new() - Measure handler windows while @r replays (sets @r's exit hook).
 * @out: set on success
 * @r: engine with its policies and cost, before vpmc_replay_begin()
 * @o: options
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_latency_new(struct vpmc_latency **out, struct vpmc_replay *r,
		     const struct vpmc_latency_opts *o);

/**
 * vpmc_latency_set_gaps() - Decide the gaps once the trace's "!gaps" is known.
 * @l: latency
 * @trace_is_base: the trace says "!gaps base"
 */
void vpmc_latency_set_gaps(struct vpmc_latency *l, bool trace_is_base);

/**
 * vpmc_latency_finish() - After vpmc_replay_finish(): open windows are flagged.
 * @l: latency
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_latency_finish(struct vpmc_latency *l);

/**
 * vpmc_latency_stats() - Statistics of policy @policy.
 * @l: latency after vpmc_latency_finish()
 * @policy: index in the engine
 * @vcpu: a vCPU, or -1 for all pooled
 * @s: filled in
 */
void vpmc_latency_stats(const struct vpmc_latency *l, size_t policy, int vcpu,
			struct vpmc_latency_stats *s);

/* The options @l was made with. */
const struct vpmc_latency_opts *vpmc_latency_options(const struct vpmc_latency *l);

/* vCPU indices seen (highest + 1); starts (injections of the vector) seen; the trace span in
 * seconds; whether exits were priced by their trace span. */
uint32_t vpmc_latency_nr_vcpus(const struct vpmc_latency *l);
uint64_t vpmc_latency_starts(const struct vpmc_latency *l);
double vpmc_latency_span_s(const struct vpmc_latency *l);
bool vpmc_latency_gaps_trace(const struct vpmc_latency *l);

/**
 * vpmc_latency_samples() - The kept samples of a policy (opts.keep_samples).
 * @l: latency
 * @policy: index
 * @n: set to their number
 *
 * Return: the samples, in trace order per vCPU.
 */
const struct vpmc_latency_sample *vpmc_latency_samples(const struct vpmc_latency *l,
							size_t policy, size_t *n);

/* Free. */
void vpmc_latency_free(struct vpmc_latency *l);

/**
 * vpmc_latency_sample_stats() - Statistics of a policy's kept samples repriced under @c: each
 * sample's fixed part + handler_overhead_ns + the drain extras its keys draw (mean by sum;
 * percentiles by nearest rank on the histogram vpmc_latency_stats() uses, so both agree).
 * @l: latency with kept samples
 * @policy: index
 * @c: cost parameters (handler_overhead_ns, drain_extra_*, draw_seed)
 * @s: filled in (samples, samples_per_s, mean, p50, p99, p99.9, max, fast_fraction)
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_latency_sample_stats(const struct vpmc_latency *l, size_t policy,
			      const struct vpmc_cost *c, struct vpmc_latency_stats *s);

/* What vpmc_calibrate() fits, and to what (timer-storm.md §8). */
enum vpmc_calib_shape { VPMC_CALIB_SHAPE_NONE, VPMC_CALIB_SHAPE_P50, VPMC_CALIB_SHAPE_FAST };
struct vpmc_calib {
	int free_pol;               /* drain-free policy with a mean target, or -1 */
	double free_mean_us;
	int drain_pol;              /* draining policy with a mean target, or -1 */
	double drain_mean_us;
	enum vpmc_calib_shape shape; /* its second target */
	double shape_value;         /* us (p50) or a fraction */
	bool fit_h, fit_q, fit_quantum; /* handler_overhead_ns, drain_extra_p0, _quantum_us */
};

/**
 * vpmc_calibrate() - Fit the named calibrated terms to the targets (timer-storm.md §8.2):
 * handler_overhead_ns from the drain-free mean (linear), then q by bisection with the quantum
 * from the draining mean at each q.
 * @l: latency with kept samples
 * @c: parameters: the base on entry, the fitted values on success (the closest on failure)
 * @k: what to fit
 * @err: message on failure
 * @errlen: its size
 *
 * Return: 0, VPMC_ERR_LIMIT (a target cannot be met within 1 %, or a value leaves its range),
 * VPMC_ERR_NOMEM.
 */
int vpmc_calibrate(const struct vpmc_latency *l, struct vpmc_cost *c, const struct vpmc_calib *k,
		   char *err, size_t errlen);

/* What the report says about the trace and the cost profile. */
struct vpmc_latency_labels {
	const char *trace;          /* path */
	const char *gen;            /* the trace's first "!gen" line, or NULL */
	const char *profile;        /* cost profile name */
	const char *fitted;         /* the profile's "fitted" line, or NULL */
	const char *targets;        /* its "targets" line, or NULL */
	const struct vpmc_cost_profile *prof; /* every parameter with its tag (JSON "cost") */
	bool marks;                 /* label calibrated statistics (no override touched them) */
	bool other_trace;           /* the profile was fitted on another trace */
	size_t baseline;            /* the policy speedups are relative to */
	bool per_vcpu;              /* add one block per vCPU */
};

/**
 * vpmc_latency_calibrated() - Whether statistic @stat ("mean", "p50", "fast_fraction", ...) of
 * policy @p is one a profile's "targets" line fitted.
 * @targets: the line ("POLICY:STAT=VALUE ..."), or NULL
 * @p: the policy
 * @stat: the statistic's short name
 *
 * Return: true if it is named there.
 */
bool vpmc_latency_calibrated(const char *targets, const struct vpmc_policy *p, const char *stat);

/**
 * vpmc_latency_report() - The latency table (timer-storm.md §5.5) as text, CSV or JSON.
 * @l: latency after vpmc_latency_finish()
 * @r: its engine
 * @lab: labels
 * @fmt: format
 * @text: set to the report (malloc'd)
 *
 * Return: 0, VPMC_ERR_NOMEM.
 */
int vpmc_latency_report(const struct vpmc_latency *l, const struct vpmc_replay *r,
			const struct vpmc_latency_labels *lab, enum vpmc_output fmt, char **text);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_LATENCY_H */
