// SPDX-License-Identifier: GPL-2.0-only
/*
 * log.c - The replay log (trace-format.md, "The replay log"): one JSON object per line for every
 * observation and metrics note the engine sends to its log sink (lib/replay/replay.h).
 *
 * Each line is formatted in place, byte for byte what jansson's json_dumps(JSON_COMPACT) printed
 * for the object built key by key (no spaces; keys in the order set; a u64 above INT64_MAX as
 * "0x..." text, as out_json_u64()): a jansson tree per line took most of a logged replay's time.
 * Every string is a word of this file or a lane's name (vpmc_policy_format(): letters, digits,
 * '=', '-'): none needs escaping.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "replay.h"

/* The longest line: "read" with every field (about 240 bytes) and a policy name. */
#define LOG_LINE_MAX (320 + VPMC_POLICY_NAME_MAX)

/* A line being built; @len stays below the buffer's size, as the fields are bounded. */
struct log_line {
	char buf[LOG_LINE_MAX];
	size_t len;
};

static void put(struct log_line *l, const char *s, size_t n)
{
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

/* @key's name and colon, after a comma unless it is the first. */
static void put_key(struct log_line *l, const char *key)
{
	char sep = l->len ? ',' : '{';

	l->buf[l->len++] = sep;
	l->buf[l->len++] = '"';
	put(l, key, strlen(key));
	put(l, "\":", 2);
}

static void put_str(struct log_line *l, const char *key, const char *s)
{
	put_key(l, key);
	l->buf[l->len++] = '"';
	put(l, s, strlen(s));
	l->buf[l->len++] = '"';
}

/* A JSON integer, as jansson prints one ("%lld"). */
static void put_int(struct log_line *l, const char *key, int64_t v)
{
	char d[20];
	size_t n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;

	put_key(l, key);
	if (v < 0)
		l->buf[l->len++] = '-';
	do {
		d[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	while (n)
		l->buf[l->len++] = d[--n];
}

/* out_json_u64(): an integer up to INT64_MAX, "0x..." text above. */
static void put_u64(struct log_line *l, const char *key, uint64_t v)
{
	char hex[24];

	if (v <= INT64_MAX) {
		put_int(l, key, (int64_t)v);
		return;
	}
	snprintf(hex, sizeof(hex), "%#" PRIx64, v);
	put_str(l, key, hex);
}

static void put_bool(struct log_line *l, const char *key, bool v)
{
	put_key(l, key);
	if (v)
		put(l, "true", 4);
	else
		put(l, "false", 5);
}

static void put_null(struct log_line *l, const char *key)
{
	put_key(l, key);
	put(l, "null", 4);
}

static void log_start(struct log_line *l, const char *kind, uint64_t t, uint32_t vcpu,
		      const char *policy)
{
	l->len = 0;
	put_str(l, "kind", kind);
	put_u64(l, "t_ns", t);
	put_int(l, "vcpu", vcpu);
	put_str(l, "policy", policy);
}

/* Close @l and hand it to the log's user. Return: 0. */
static int log_emit(const struct replay_log_sink *s, struct log_line *l)
{
	l->buf[l->len++] = '}';
	l->buf[l->len] = '\0';
	s->line(s->data, l->buf);
	return 0;
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
	struct log_line l;

	if ((unsigned int)o->kind >= VPMC_OBS_NR || !kinds[o->kind])
		return 0;
	log_start(&l, kinds[o->kind], o->time_ns, o->vcpu, policy);
	switch (o->kind) {
	case VPMC_OBS_WRITE:
		put_int(&l, "index", o->index);
		put_u64(&l, "value", o->value);
		put_int(&l, "counter", o->counter);
		put_bool(&l, "gp", o->gp);
		break;
	case VPMC_OBS_OVERFLOW:
		put_int(&l, "counter", o->counter);
		put_str(&l, "source", o->emulated ? "emulated" : "hardware");
		break;
	case VPMC_OBS_PMI:
		put_bool(&l, "delivered", o->delivered);
		put_u64(&l, "global_status", o->global_status);
		break;
	case VPMC_OBS_DRAIN:
		put_int(&l, "counters", o->nr_reprogrammed);
		put_int(&l, "resumed", o->nr_resumed);
		put_int(&l, "created", o->nr_created);
		break;
	default: /* REPROGRAM */
		put_int(&l, "counter", o->counter);
		put_bool(&l, "created", o->created);
		break;
	}
	return log_emit(s, &l);
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
	struct log_line l;

	log_start(&l, kinds[n->kind], t, vcpu, policy);
	switch (n->kind) {
	case METRICS_NOTE_READ:
		put_str(&l, "insn", n->obs->rdpmc ? "rdpmc" : "rdmsr");
		put_int(&l, "index", n->obs->index);
		put_int(&l, "counter", n->counter);
		if (n->obs->gp)
			put_null(&l, "value");
		else
			put_u64(&l, "value", n->obs->value);
		if (!n->paired || n->ref_gp)
			put_null(&l, "reference");
		else
			put_u64(&l, "reference", n->ref_value);
		if (n->has_host) /* what the real guest read, from the trace */
			put_u64(&l, "host", n->host);
		break;
	case METRICS_NOTE_MATCH:
		put_int(&l, "counter", n->counter);
		put_u64(&l, "overflow_t_ns", n->ovf_t);
		put_u64(&l, "lateness_events", n->late_events);
		put_u64(&l, "lateness_ns", n->late_ns);
		break;
	case METRICS_NOTE_MISSED:
		put_int(&l, "counter", n->counter);
		put_u64(&l, "overflow_t_ns", n->ovf_t);
		break;
	default:
		put_u64(&l, "global_status", n->obs->global_status);
		break;
	}
	return log_emit(s, &l);
}

void vpmc_replay_set_log(struct vpmc_replay *r, void (*fn)(void *data, const char *line),
			 void *data)
{
	const struct replay_log_sink sink = { log_obs, log_note, fn, data };

	replay_set_log_sink(r, &sink);
}
