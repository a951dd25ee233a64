/* SPDX-License-Identifier: GPL-2.0-only */
/* latency_cli.h - What latency and calibrate share: the handler-window options and the run. */
#ifndef LATENCY_CLI_H
#define LATENCY_CLI_H

#include "cli.h"

/* Their own options (after the common ones). */
enum {
	OPT_LAT_VECTOR = OPT_END_ + 1,
	OPT_LAT_END,
	OPT_LAT_MAX_WINDOW,
	OPT_LAT_FAST_US,
	OPT_LAT_GAPS,
	OPT_LAT_LAST_
};

#define LATENCY_CLI_OPTIONS                                                    \
	{ "vector", required_argument, NULL, OPT_LAT_VECTOR },                 \
	{ "end", required_argument, NULL, OPT_LAT_END },                       \
	{ "max-window-us", required_argument, NULL, OPT_LAT_MAX_WINDOW },      \
	{ "fast-us", required_argument, NULL, OPT_LAT_FAST_US },               \
	{ "gaps", required_argument, NULL, OPT_LAT_GAPS }

struct latency_cli {
	struct vpmc_latency_opts o;
	const char *seen[OPT_LAT_LAST_ - OPT_LAT_VECTOR];
};

/* Handle one of LATENCY_CLI_OPTIONS: 0 handled, 1 not one of them, else an exit code. */
int latency_cli_option(struct latency_cli *lc, const char *cmd, int opt, const char *arg);

/* Open the trace, measure handler windows while c->r replays it: *@l is set (free it) on
 * success. Return 0 or the exit code (message printed). */
int latency_cli_run(struct cli *c, struct latency_cli *lc, struct vpmc_latency **l);

/* Whether @l saw no injection of the handler's vector; then "vpmcsim: @what: TRACE has no
 * injection of vector V (irq) followed by an entry: no handler to measure" is printed. */
bool latency_cli_no_handler(const struct cli *c, const struct latency_cli *lc,
			    const struct vpmc_latency *l, const char *what);

/* Warn when more than 1 % of a policy's windows (the first such policy's) were flagged. */
void latency_cli_flagged(const struct cli *c, const struct vpmc_latency *l);

/* The trace's first "!gen" line without its newline into @buf, or NULL. */
const char *latency_cli_gen(const struct cli *c, char *buf, size_t len);

#endif /* LATENCY_CLI_H */
