// SPDX-License-Identifier: GPL-2.0-only
/* log.c - The per-round-trip log (vpmcsim(1), NESTED, --log): one JSON line per round trip and
 * per L0-handled exit, in trace order, written as the run goes. A line's cycles depend on the
 * anchor (§6.7); under --anchor auto that is known once a time stamp finer than 1 µs has been
 * seen, or at the end. Until then the entries wait in a temporary file, so that memory does not
 * grow with the trace. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "nested-local.h"

/* Whether the anchor in force is settled, and then whether it is the measured one. */
static bool anchor_known(const struct vpmc_nested *n, bool *measured)
{
	*measured = n->cfg.anchor == VPMC_NESTED_ANCHOR_MEASURED ||
		    (n->cfg.anchor == VPMC_NESTED_ANCHOR_AUTO && n->fine_times);
	return n->cfg.anchor != VPMC_NESTED_ANCHOR_AUTO || n->fine_times;
}

static void line(const struct vpmc_nested *n, const struct nested_logent *e, bool measured)
{
	const struct nested_ops *o = &e->rt.ops;
	uint64_t b = e->model_b, g = e->model_g;
	FILE *f = n->log_out;

	if (measured && e->rt.has_measured)
		nested_measured_pair(&n->cfg, e->cycles, (int64_t)(e->model_b - e->model_g), &b, &g);
	fprintf(f, "{\"t\": %" PRIu64 ", \"vcpu\": %" PRIu32 ", \"kind\": \"%s\", \"entry\": ",
		e->rt.t, e->rt.vcpu, nested_kind_name(e->rt.kind));
	if (e->rt.l0)
		fputs("null", f);
	else
		fprintf(f, "\"%s\"", nested_entry_name(e->rt.entry));
	fputs(", \"l2_reason\": ", f);
	if (e->rt.l2_reason[0])
		vpmc_json_string(f, e->rt.l2_reason);
	else
		fputs("null", f);
	fputs(", \"inject_reason\": ", f);
	if (e->rt.inject_reason[0])
		vpmc_json_string(f, e->rt.inject_reason);
	else
		fputs("null", f);
	fprintf(f, ", \"maps_baseline\": %" PRIu64 ", \"reads_baseline\": %" PRIu64
		", \"maps_gpc\": %" PRIu64 ", \"refreshes_gpc\": %" PRIu64 ", \"hits_gpc\": %"
		PRIu64 ", \"loads_gpc\": %" PRIu64 ", \"reads_gpc\": %" PRIu64
		", \"cycles_baseline\": %" PRIu64 ", \"cycles_gpc\": %" PRIu64
		", \"measured_ns\": ", o->maps_b, o->reads_b, o->maps_g + o->refreshes_g,
		o->refreshes_g, o->hits_g, o->loads_g, o->reads_g, b, g);
	if (e->rt.has_measured)
		fprintf(f, "%" PRIu64 "}\n", e->rt.measured_ns);
	else
		fputs("null}\n", f);
}

static int write_error(struct vpmc_nested *n)
{
	return vpmc__set_error(&n->err, VPMC_ERR_IO, "write error on the log");
}

/* The waiting entries, in order, under the anchor now known; the temporary file is closed. */
static int drain(struct vpmc_nested *n, bool measured)
{
	struct nested_logent e;
	FILE *w = n->log_wait;
	int ret = 0;

	if (!w)
		return 0;
	n->log_wait = NULL;
	if (fflush(w) || fseek(w, 0, SEEK_SET))
		ret = vpmc__set_error(&n->err, VPMC_ERR_IO, "the log's temporary file: %s",
				      strerror(errno));
	while (!ret && fread(&e, sizeof(e), 1, w) == 1) {
		line(n, &e, measured);
		if (ferror(n->log_out))
			ret = write_error(n);
	}
	if (!ret && ferror(w))
		ret = vpmc__set_error(&n->err, VPMC_ERR_IO, "the log's temporary file: read error");
	fclose(w);
	return ret;
}

int nested_log_entry(struct vpmc_nested *n, const struct nested_logent *e)
{
	bool measured;
	int ret;

	if (anchor_known(n, &measured)) {
		ret = drain(n, measured);
		if (ret)
			return ret;
		line(n, e, measured);
		return ferror(n->log_out) ? write_error(n) : 0;
	}
	if (!n->log_wait) {
		n->log_wait = tmpfile();
		if (!n->log_wait)
			return vpmc__set_error(&n->err, VPMC_ERR_IO, "the log: cannot create a "
					       "temporary file: %s", strerror(errno));
	}
	if (fwrite(e, sizeof(*e), 1, n->log_wait) != 1)
		return vpmc__set_error(&n->err, VPMC_ERR_IO, "the log's temporary file: %s",
				       strerror(errno));
	return 0;
}

int nested_log_end(struct vpmc_nested *n)
{
	int ret = drain(n, n->use_measured);

	if (!ret && (fflush(n->log_out) || ferror(n->log_out)))
		ret = write_error(n);
	return ret;
}

void nested_log_release(struct vpmc_nested *n)
{
	if (n->log_wait)
		fclose(n->log_wait);
	n->log_wait = NULL;
}
