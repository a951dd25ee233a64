// SPDX-License-Identifier: GPL-2.0-only
/* run.c - Replay over a reader: the loop that pulls events into the engine. */
#include "config.h"

#include <stdio.h>

#include "replay-local.h"

int replay_error_at(struct vpmc_replay *r, const char *where, int err)
{
	char msg[VPMC_ERRMSG_MAX];

	snprintf(msg, sizeof(msg), "%s", vpmc_replay_error(r));
	return vpmc__set_error(&r->errbuf, err, "%s: %s", where, msg);
}

/* The engine's error @err about the event just read, prefixed with where it is in the trace. */
static int replay_error_where(struct vpmc_replay *r, const struct vpmc_reader *rd, int err)
{
	char where[VPMC_ERRMSG_MAX / 2];

	vpmc_reader_where(rd, where, sizeof(where));
	return replay_error_at(r, where, err);
}

const char *vpmc_replay_warning(const struct vpmc_replay *r)
{
	return r->warning;
}

int vpmc_replay_run(struct vpmc_replay *r, struct vpmc_reader *rd)
{
	struct vpmc_reader_stats st;
	struct vpmc_event ev;
	int rc = 0, err = 0;

	if (!r->begun) {
		err = vpmc_replay_begin(r, vpmc_reader_pmu(rd));
		if (err)
			return err;
	}
	rc = replay_run_parallel(r, rd);
	if (rc != 1)
		return rc;
	rc = 0;
	r->rd = rd; /* the warning's place in the trace (replay_assume_conflict()) */
	while (!err && (rc = vpmc_reader_next(rd, &ev)) > 0)
		err = vpmc_replay_event(r, &ev);
	r->rd = NULL;
	if (err)
		return replay_error_where(r, rd, err);
	if (rc < 0)
		return vpmc__set_error(&r->errbuf, rc, "%s", vpmc_reader_error(rd));
	vpmc_reader_stats(rd, &st);
	r->source_stats = st;
	r->has_source_stats = true;
	return vpmc_replay_finish(r);
}
