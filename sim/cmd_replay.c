/* cmd_replay.c - vpmcsim replay: one policy in detail, per vCPU and counter, and its log. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "replay_cli.h"
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
		"                      PMI, drain and reprogram, with time, vCPU and counter\n"
		"  --assume SPEC       a guest profiler's counter (repeatable)\n"
		"  --cost NAME=VALUE   cost parameters (repeatable)\n"
		"  --format F          text (default), csv or json\n"
		"  --input-format F, --lenient, --guest-ips N   as for compare\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

static void log_line(void *data, const char *line)
{
	FILE *f = data;

	fputs(line, f);
	fputc('\n', f);
}

static int replay_own(struct replay_cli *c, int opt, const char *arg)
{
	if (opt != OPT_LOG)
		return 1;
	c->data = (void *)arg;
	return 0;
}

static int replay_run(int argc, char **argv)
{
	static const struct option opts[] = {
		REPLAY_CLI_COMMON_OPTIONS,
		REPLAY_CLI_ENGINE_OPTIONS,
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "log", required_argument, NULL, OPT_LOG },
		{ NULL, 0, NULL, 0 },
	};
	struct replay_cli c;
	const char *log_path;
	FILE *log = NULL;
	int rc;

	replay_cli_init(&c, "replay", VPMC_OUTPUT_TEXT);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "replay: out of memory");
	rc = replay_cli_parse(&c, argc, argv, opts, replay_own, usage, usage_line);
	log_path = c.data;
	if (!rc && vpmc_replay_nr_policies(c.r) != 1)
		rc = vpmcsim_fail(EXIT_USAGE, "replay: give exactly one --policy (usage: %s)",
				  usage_line);
	if (!rc && log_path) {
		log = fopen(log_path, "w");
		if (!log)
			rc = vpmcsim_fail(EXIT_USAGE, "replay: --log '%s': %s", log_path,
					  strerror(errno));
		else
			vpmc_replay_set_log(c.r, log_line, log);
	}
	if (!rc)
		rc = replay_cli_run(&c);
	if (log && (ferror(log) | fclose(log)) && !rc)
		rc = vpmcsim_fail(EXIT_INPUT, "replay: writing '%s' failed", log_path);
	if (!rc)
		rc = replay_cli_report(&c, VPMC_VIEW_DETAIL);
	replay_cli_close(&c);
	return rc == REPLAY_CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_replay = {
	.name = "replay",
	.summary = "one policy in detail (per vCPU, per counter), with --log",
	.run = replay_run,
};
