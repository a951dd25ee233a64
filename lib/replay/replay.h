/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay.h - The replay engine's interface to the report layer (internal): the log sink and the
 * result slots. Everything else a report needs comes from the public vpmc_replay_*() getters.
 *
 * The engine owns what reports return (vpmc.h: strings belong to the object until the next
 * call on it): a report writes its text into replay_text() and its message into
 * replay_errbuf(), and the engine frees them with itself.
 */
#ifndef VPMC_LIB_REPLAY_H
#define VPMC_LIB_REPLAY_H

#include "internal.h"
#include "ideal.h"
#include "metrics.h"

/*
 * Where the engine sends the replay log (lib/report/log.c formats it): one call per
 * observation and one per metrics note, in the order they happen. A hook returns 0 or a
 * negative enum vpmc_err, which becomes the engine's sticky error (vpmc_replay_event() and
 * vpmc_replay_finish() return it).
 */
struct replay_log_sink {
	/* An observation of @policy's model, or of the reference's (@policy "reference"). */
	int (*obs)(const struct replay_log_sink *s, const char *policy, const struct vpmc_obs *o);
	/* What the metrics of @policy on vCPU @vcpu decided (metrics_note). */
	int (*note)(const struct replay_log_sink *s, const char *policy, uint32_t vcpu,
		    const struct metrics_note *n);
	/* the log's user: vpmc_replay_set_log()'s callback and its data */
	void (*line)(void *data, const char *line);
	void *data;
};

/* Send the log to @sink (copied), before vpmc_replay_begin(); NULL or a NULL @sink->line: no
 * log. */
void replay_set_log_sink(struct vpmc_replay *r, const struct replay_log_sink *sink);

/* The slot for the text a report returns: the engine frees it, and a new report replaces it. */
char **replay_text(struct vpmc_replay *r);

/* The engine's error buffer, read by vpmc_replay_error(). */
struct vpmc__errbuf *replay_errbuf(struct vpmc_replay *r);

/* ---- mergeable summaries (lib/report/summary.c; vpmcsim(1), MERGE) ---- */

/* The results of policy @i on vCPU @vcpu (NULL: the vCPU had no event); the ideal samples too. */
const struct metrics_vcpu *replay_unit_metrics(const struct vpmc_replay *r, size_t i,
					       uint32_t vcpu);
const struct ideal_match *replay_unit_ideal(const struct vpmc_replay *r, size_t i, uint32_t vcpu);

/* Whether added warning @i is about the input (vpmc_replay_add_input_warning()). */
bool replay_warning_is_input(const struct vpmc_replay *r, size_t i);

/* What a replay counted besides the lanes' metrics: the span of the trace and its own exits. */
struct replay_facts {
	uint64_t events, t_first, t_last;
	uint64_t exits_measured, exit_ns_sum;
};

void replay_get_facts(const struct vpmc_replay *r, struct replay_facts *f);

/*
 * A begun engine loaded with results instead of a trace: replay_load_unit() adds @m and @im
 * (their results only) to policy @i's on vCPU @vcpu, replay_load_lane() a lane's handler counts
 * (vpmc_replay_handler_capped()), replay_load_facts() sets the facts and ends the replay as
 * vpmc_replay_finish() would. Return: 0, VPMC_ERR_INVAL (not begun, finished, out of range),
 * VPMC_ERR_NOMEM.
 */
int replay_load_unit(struct vpmc_replay *r, size_t i, uint32_t vcpu, const struct metrics_vcpu *m,
		     const struct ideal_match *im);
int replay_load_lane(struct vpmc_replay *r, size_t i, uint64_t runs, uint64_t capped,
		     uint64_t first_ns, uint32_t first_vcpu);
int replay_load_facts(struct vpmc_replay *r, const struct replay_facts *f);

/* The union of the summaries an engine was loaded from (the report's, opaque here), freed with
 * the engine by @free_fn; NULL for an engine that replayed a trace. */
void replay_set_summary(struct vpmc_replay *r, void *summary, void (*free_fn)(void *summary));
void *replay_summary(const struct vpmc_replay *r);

/* Lane @i's guest PMI handler runs (vpmc_replay_handler_capped() has the capped ones). */
uint64_t replay_handler_runs(const struct vpmc_replay *r, size_t i);

struct vpmc_latency;

/* One policy's handler windows on one vCPU (latency.c), as a merge_state holds them: @h points
 * into the results (replay_latency_acc()) or is added (replay_latency_load()). */
struct replay_latency_acc {
	uint64_t n, fast, drains, flagged, fallback, overruns;
	double sum_ns;
	const struct vpmc_hist *h;
};

/* Policy @p's windows on vCPU @v of @l. Return: false when @l saw no event of @v. */
bool replay_latency_acc(const struct vpmc_latency *l, uint32_t v, size_t p,
			struct replay_latency_acc *a);

/* A latency loaded with results instead of a run (vpmc_latency_new() on a loaded engine): the
 * windows @a added to policy @p's on vCPU @v, then the injections seen and whether exits were
 * priced by their trace span. Return: 0, VPMC_ERR_INVAL (out of range), VPMC_ERR_NOMEM. */
int replay_latency_load(struct vpmc_latency *l, uint32_t v, size_t p,
			const struct replay_latency_acc *a);
void replay_latency_load_run(struct vpmc_latency *l, uint64_t starts, bool gaps_trace);

#endif /* VPMC_LIB_REPLAY_H */
