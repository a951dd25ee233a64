/* run.c - Replay and exit statistics over a reader: the loops that pull events. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "stat.h"
#include "replay-local.h"

/* The first WRMSR of the trace itself that undoes an --assume counter's programming: noted
 * once, with where it is (vpmc_replay_warning()). */
static void assume_conflict(struct vpmc_replay *r, const struct vpmc_reader *rd,
			    const struct vpmc_event *ev)
{
	char name[32], where[VPMC_ERRMSG_MAX / 2];
	int i = overlay_msr_conflict(&r->ov, &r->cfg, ev->index, ev->value, name, sizeof(name));

	if (i < 0)
		return;
	vpmc_reader_where(rd, where, sizeof(where));
	snprintf(r->warning, sizeof(r->warning), "the trace writes %s (%#" PRIx32 ") = %#" PRIx64
		 " itself at %s (vCPU %" PRIu32 ", %" PRIu64 " ns): --assume %s will be "
		 "overwritten", name, ev->index, ev->value, where, ev->vcpu, ev->time_ns,
		 r->ov.ctr[i].spec);
}

/* The engine's error @err about the event just read, prefixed with where it is in the trace. */
static int replay_error_where(struct vpmc_replay *r, const struct vpmc_reader *rd, int err)
{
	char where[VPMC_ERRMSG_MAX / 2], msg[VPMC_ERRMSG_MAX];

	vpmc_reader_where(rd, where, sizeof(where));
	snprintf(msg, sizeof(msg), "%s", vpmc_replay_error(r));
	return vpmc__set_error(&r->errbuf, err, "%s: %s", where, msg);
}

const char *vpmc_replay_warning(const struct vpmc_replay *r)
{
	return r->warning;
}

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
		if (ev.type == VPMC_EV_WRMSR && r->ov.nr && !r->warning[0])
			assume_conflict(r, rd, &ev);
		err = vpmc_replay_event(r, &ev);
		if (err)
			return replay_error_where(r, rd, err);
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

