/* run.c - Replay and exit statistics over a reader: the loops that pull events. */
#include "config.h"

#include "exitstat.h"
#include "replay.h"

int vpmc_replay_run(struct vpmc_replay *r, struct vpmc_reader *rd)
{
	struct vpmc_reader_stats st;
	struct vpmc_event ev;
	int rc, err;

	if (!r->begun) {
		err = vpmc_replay_begin(r, vpmc_reader_pmu(rd));
		if (err)
			return err;
	}
	while ((rc = vpmc_reader_next(rd, &ev)) > 0) {
		err = vpmc_replay_event(r, &ev);
		if (err)
			return err;
	}
	if (rc < 0)
		return vpmc__set_error(&r->errbuf, rc, "%s", vpmc_reader_error(rd));
	vpmc_reader_stats(rd, &st);
	r->source_stats = st;
	r->has_source_stats = true;
	return vpmc_replay_finish(r);
}

int vpmc_stat_run(struct vpmc_stat *s, struct vpmc_reader *r)
{
	struct vpmc_event ev;
	int rc, err;

	while ((rc = vpmc_reader_next(r, &ev)) > 0) {
		err = vpmc_stat_event(s, &ev);
		if (err)
			return vpmc__set_error(&s->err, err, "%s", vpmc_strerror(err));
	}
	if (rc < 0)
		return vpmc__set_error(&s->err, rc, "%s", vpmc_reader_error(r));
	return 0;
}

