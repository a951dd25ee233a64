// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - The replay log (trace-format.md, "The replay log"): one JSON object per line for every
 * observation and metrics note the engine sends to its log sink (lib/replay/replay.h).
 */
#include "config.h"

#include <jansson.h>
#include <stdlib.h>

#include "outbuf.h"
#include "replay.h"

/* Hand @o to the log's user as one line, and drop it. Return: @err, or VPMC_ERR_NOMEM. */
static int log_emit(const struct replay_log_sink *s, json_t *o, int err)
{
	char *line;

	if (!err) {
		line = json_dumps(o, JSON_COMPACT);
		if (line) {
			s->line(s->data, line);
			free(line);
		} else {
			err = VPMC_ERR_NOMEM;
		}
	}
	json_decref(o);
	return err;
}

static json_t *log_start(const char *kind, uint64_t t, uint32_t vcpu, const char *policy,
			 int *err)
{
	json_t *o = json_object();

	if (!o) {
		*err = VPMC_ERR_NOMEM;
		return NULL;
	}
	out_json_set(o, "kind", json_string(kind), err);
	out_json_set(o, "t_ns", out_json_u64(t), err);
	out_json_set(o, "vcpu", json_integer(vcpu), err);
	out_json_set(o, "policy", json_string(policy), err);
	return o;
}

/* An observation of a model (the policy's, or the reference's with @policy "reference"). */
static int log_obs(const struct replay_log_sink *s, const char *policy, const struct vpmc_obs *o)
{
	static const char *const kinds[VPMC_OBS_NR] = {
		[VPMC_OBS_WRITE] = "write",
		[VPMC_OBS_OVERFLOW] = "overflow",
		[VPMC_OBS_PMI] = "pmi",
		[VPMC_OBS_DRAIN] = "drain",
		[VPMC_OBS_REPROGRAM] = "reprogram",
	};
	json_t *j;
	int err = 0;

	if ((unsigned int)o->kind >= VPMC_OBS_NR || !kinds[o->kind])
		return 0;
	j = log_start(kinds[o->kind], o->time_ns, o->vcpu, policy, &err);
	if (!j)
		goto out;
	switch (o->kind) {
	case VPMC_OBS_WRITE:
		out_json_set(j, "index", json_integer(o->index), &err);
		out_json_set(j, "value", out_json_u64(o->value), &err);
		out_json_set(j, "counter", json_integer(o->counter), &err);
		out_json_set(j, "gp", json_boolean(o->gp), &err);
		break;
	case VPMC_OBS_OVERFLOW:
		out_json_set(j, "counter", json_integer(o->counter), &err);
		out_json_set(j, "source", json_string(o->emulated ? "emulated" : "hardware"), &err);
		break;
	case VPMC_OBS_PMI:
		out_json_set(j, "delivered", json_boolean(o->delivered), &err);
		out_json_set(j, "global_status", out_json_u64(o->global_status), &err);
		break;
	case VPMC_OBS_DRAIN:
		out_json_set(j, "counters", json_integer(o->nr_reprogrammed), &err);
		out_json_set(j, "resumed", json_integer(o->nr_resumed), &err);
		out_json_set(j, "created", json_integer(o->nr_created), &err);
		break;
	default: /* REPROGRAM */
		out_json_set(j, "counter", json_integer(o->counter), &err);
		out_json_set(j, "created", json_boolean(o->created), &err);
		break;
	}
out:
	return log_emit(s, j, err);
}

/* Reads with both values, and what the metrics decided about overflows and PMIs. */
static int log_note(const struct replay_log_sink *s, const char *policy, uint32_t vcpu,
		    const struct metrics_note *n)
{
	static const char *const kinds[] = {
		[METRICS_NOTE_READ] = "read",
		[METRICS_NOTE_MATCH] = "match",
		[METRICS_NOTE_MISSED] = "missed",
		[METRICS_NOTE_SPURIOUS] = "spurious",
	};
	uint64_t t = n->obs ? n->obs->time_ns : n->t;
	json_t *j;
	int err = 0;

	j = log_start(kinds[n->kind], t, vcpu, policy, &err);
	if (!j)
		goto out;
	switch (n->kind) {
	case METRICS_NOTE_READ:
		out_json_set(j, "insn", json_string(n->obs->rdpmc ? "rdpmc" : "rdmsr"), &err);
		out_json_set(j, "index", json_integer(n->obs->index), &err);
		out_json_set(j, "counter", json_integer(n->counter), &err);
		out_json_set(j, "value", n->obs->gp ? json_null() : out_json_u64(n->obs->value),
			     &err);
		out_json_set(j, "reference",
			     !n->paired || n->ref_gp ? json_null() : out_json_u64(n->ref_value), &err);
		if (n->has_host) /* what the real guest read, from the trace */
			out_json_set(j, "host", out_json_u64(n->host), &err);
		break;
	case METRICS_NOTE_MATCH:
		out_json_set(j, "counter", json_integer(n->counter), &err);
		out_json_set(j, "overflow_t_ns", out_json_u64(n->ovf_t), &err);
		out_json_set(j, "lateness_events", out_json_u64(n->late_events), &err);
		out_json_set(j, "lateness_ns", out_json_u64(n->late_ns), &err);
		break;
	case METRICS_NOTE_MISSED:
		out_json_set(j, "counter", json_integer(n->counter), &err);
		out_json_set(j, "overflow_t_ns", out_json_u64(n->ovf_t), &err);
		break;
	default:
		out_json_set(j, "global_status", out_json_u64(n->obs->global_status), &err);
		break;
	}
out:
	return log_emit(s, j, err);
}

void vpmc_replay_set_log(struct vpmc_replay *r, void (*fn)(void *data, const char *line),
			 void *data)
{
	const struct replay_log_sink sink = { log_obs, log_note, fn, data };

	replay_set_log_sink(r, &sink);
}
