// SPDX-License-Identifier: GPL-2.0-only
/* latency_cli.c - What latency and calibrate share: the handler-window options and the run. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "latency_cli.h"
#include "vpmcsim.h"

/* The three spellings of --end and --gaps, in enum order. */
static const char *const end_words[] = { "auto", "deadline", "eoi" };
static const char *const gaps_words[] = { "auto", "trace", "model" };

/* @arg as an index into @words (three of them); return 0 or EXIT_USAGE. */
static int keyword(const char *cmd, const char *opt, const char *arg, const char *const *words,
		   int *out)
{
	int i;

	for (i = 0; i < 3; i++) {
		if (!strcmp(arg, words[i])) {
			*out = i;
			return 0;
		}
	}
	return vpmcsim_fail(EXIT_USAGE, "%s: %s '%s': expected %s, %s or %s", cmd, opt, arg,
			    words[0], words[1], words[2]);
}

int latency_cli_option(struct latency_cli *lc, const char *cmd, int opt, const char *arg)
{
	static const char *const names[] = { "--vector", "--end", "--max-window-us", "--fast-us",
					    "--gaps" };
	uint64_t u;
	double d;
	char *end;
	int rc, k = 0;

	if (opt < OPT_LAT_VECTOR || opt >= OPT_LAT_LAST_)
		return 1;
	rc = vpmcsim_once(cmd, names[opt - OPT_LAT_VECTOR], &lc->seen[opt - OPT_LAT_VECTOR], arg);
	if (rc)
		return rc;
	switch (opt) {
	case OPT_LAT_VECTOR:
		errno = 0;
		u = strtoull(arg, &end, 0);
		if (errno || end == arg || *end || u > 255 || *arg == '-')
			return vpmcsim_fail(EXIT_USAGE, "%s: --vector '%s': expected 0 to 255 "
					    "(0x-hex allowed)", cmd, arg);
		lc->o.vector = (uint32_t)u;
		return 0;
	case OPT_LAT_END:
		rc = keyword(cmd, "--end", arg, end_words, &k);
		lc->o.end = rc ? lc->o.end : (enum vpmc_latency_end)k;
		return rc;
	case OPT_LAT_MAX_WINDOW:
		if (cli_parse_u64(arg, 1000000, &u) || !u)
			return vpmcsim_fail(EXIT_USAGE, "%s: --max-window-us '%s': expected 1 to "
					    "10^6", cmd, arg);
		lc->o.max_window_ns = u * 1000;
		return 0;
	case OPT_LAT_FAST_US:
		errno = 0;
		d = strtod(arg, &end);
		if (errno || end == arg || *end || !(d >= 0) || d > 1e6)
			return vpmcsim_fail(EXIT_USAGE, "%s: --fast-us '%s': expected 0 to 10^6",
					    cmd, arg);
		lc->o.fast_us = d;
		return 0;
	default:
		rc = keyword(cmd, "--gaps", arg, gaps_words, &k);
		lc->o.gaps = rc ? lc->o.gaps : (enum vpmc_latency_gaps)k;
		return rc;
	}
}

int latency_cli_run(struct cli *c, struct latency_cli *lc, struct vpmc_latency **l)
{
	int rc;

	if (vpmc_latency_new(l, c->r, &lc->o))
		return vpmcsim_fail(EXIT_INPUT, "%s: out of memory", c->cmd);
	rc = cli_open(c);
	if (!rc) {
		vpmc_latency_set_gaps(*l, vpmc_reader_gaps(c->reader, NULL) == VPMC_GAPS_BASE);
		rc = cli_run(c);
	}
	if (!rc && vpmc_latency_finish(*l))
		rc = vpmcsim_fail(EXIT_INPUT, "%s: out of memory", c->cmd);
	if (rc) {
		vpmc_latency_free(*l);
		*l = NULL;
	}
	return rc;
}

const char *latency_cli_gen(const struct cli *c, char *buf, size_t len)
{
	const char *g = vpmc_reader_gen(c->reader);

	if (!g)
		return NULL;
	snprintf(buf, len, "%.*s", (int)strcspn(g, "\n"), g);
	return buf;
}

void latency_cli_flagged(const struct cli *c, const struct vpmc_latency *l)
{
	struct vpmc_latency_stats s;
	size_t p;

	for (p = 0; p < vpmc_replay_nr_policies(c->r); p++) {
		vpmc_latency_stats(l, p, -1, &s);
		if (s.flagged * 100 > s.samples + s.flagged && s.flagged)
			fprintf(stderr, "vpmcsim: warning: latency: %llu of %llu windows flagged (no "
				"end marker within the window, or cut)\n",
				(unsigned long long)s.flagged,
				(unsigned long long)(s.samples + s.flagged));
		if (s.flagged)
			break;
	}
}

bool latency_cli_no_handler(const struct cli *c, const struct latency_cli *lc,
			    const struct vpmc_latency *l, const char *what)
{
	if (vpmc_latency_starts(l))
		return false;
	fprintf(stderr, "vpmcsim: %s: %s has no injection of vector 0x%x (irq) followed by an "
		"entry: no handler to measure\n", what, c->name, lc->o.vector);
	return true;
}
