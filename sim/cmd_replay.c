// SPDX-License-Identifier: GPL-2.0-only
/* cmd_replay.c - vpmcsim replay: one policy in detail, per vCPU and counter, and its log. */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim replay [OPTIONS] --policy P TRACE";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Replay TRACE through one accounting policy and print its results per vCPU and per\n"
		"counter.\n\n"
		"  --policy P          the policy (required, once)\n"
		"  --log FILE          JSON Lines: every read (with the reference's value), overflow,\n"
		"                      PMI, drain and reprogram, with time, vCPU and counter ('-':\n"
		"                      standard output, before the report)\n"
		"  --assume SPEC       a guest profiler's counter (repeatable; each counter once)\n"
		"  --cost NAME=VALUE   cost parameters (repeatable; each NAME once)\n"
		"  --cost-profile X    as for compare\n"
		"  -j N                as for compare (one policy: one thread)\n"
		"  --format F          text (default), csv or json\n"
		"  --input-format F, --lenient, --guest-ips N   as for compare\n"
		"  --guest-branch-permille N, --host-kernel X.Y, --vendor V   as for compare\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

/* --log FILE ('-': standard output), and the first error writing it. */
struct replay_log {
	const char *path;
	char what[32 + 4096];
	FILE *f;
	struct outfile out; /* removed when not whole */
	int err;      /* errno of the first failed write; -1 if it had none */
};

static void log_line(void *data, const char *line)
{
	struct replay_log *l = data;

	if (l->err)
		return;
	errno = 0;
	if (fputs(line, l->f) == EOF || fputc('\n', l->f) == EOF)
		l->err = errno ? errno : -1;
}

/* Open --log FILE; return 0 or the exit code. */
static int log_open(struct replay_log *l, struct vpmc_replay *r)
{
	l->f = outfile_open(&l->out, l->path);
	if (!l->f)
		return vpmcsim_fail(EXIT_USAGE, "replay: --log '%s': %s", l->path, strerror(errno));
	if (l->f == stdout)
		snprintf(l->what, sizeof(l->what), "standard output");
	else
		snprintf(l->what, sizeof(l->what), "--log %s", l->path);
	vpmc_replay_set_log(r, log_line, l);
	return 0;
}

/* Close the log; report its first write error (then the log is removed: it is not whole). */
static int log_close(struct replay_log *l, int rc)
{
	int err = outfile_close(&l->out, !l->err);

	if (l->err)
		err = l->err;
	if (!err)
		return rc;
	return rc ? rc : vpmcsim_write_error(l->what, err > 0 ? err : 0);
}

static int replay_own(struct cli *c, int opt, const char *arg)
{
	struct replay_log *l = c->data;

	if (opt != OPT_LOG)
		return 1;
	l->path = arg; /* given once: cli_parse() */
	return 0;
}

static int replay_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_ENGINE_OPTIONS,
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "log", required_argument, NULL, OPT_LOG },
		{ NULL, 0, NULL, 0 },
	};
	struct replay_log log = { .path = NULL };
	struct cli c;
	int rc;

	cli_init(&c, "replay", VPMC_OUTPUT_TEXT);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "replay: out of memory");
	c.data = &log;
	c.one_policy = true;
	rc = cli_parse(&c, argc, argv, opts, replay_own, usage, usage_line);
	if (!rc && vpmc_replay_nr_policies(c.r) != 1)
		rc = vpmcsim_fail(EXIT_USAGE, "replay: give exactly one --policy (usage: %s)",
				  usage_line);
	if (!rc && log.path)
		rc = log_open(&log, c.r);
	if (!rc)
		rc = cli_run(&c);
	if (log.f)
		rc = log_close(&log, rc);
	if (!rc)
		rc = cli_report(&c, VPMC_VIEW_DETAIL);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_replay = {
	.name = "replay",
	.summary = "one policy in detail (per vCPU, per counter), with --log",
	.run = replay_run,
};
