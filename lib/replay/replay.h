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

#endif /* VPMC_LIB_REPLAY_H */
