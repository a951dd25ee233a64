/* cmd_sweep.c - vpmcsim sweep: many tolerances in one pass; CSV and a gnuplot plot. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "replay_cli.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim sweep [OPTIONS] --tolerance LIST TRACE";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Replay TRACE through tolerance=T for every T of LIST in one pass; one CSV row each.\n\n"
		"  --tolerance LIST    comma-separated thresholds in events, e.g. 0,10,100,1000\n"
		"  --wrap              sweep tolerance-wrap=T instead of tolerance=T\n"
		"  --plot FILE.svg     also draw host us per exit and p99 PMI lateness against T\n"
		"                      (log scale; T = 0 left out) with gnuplot\n"
		"  --assume SPEC, --cost NAME=VALUE   as for compare\n"
		"  --format F          csv (default), text or json\n"
		"  --input-format F, --lenient, --guest-ips N   as for compare\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

/* One policy per element of @list. */
static int sweep_policies(struct replay_cli *c, const char *list, bool wrap)
{
	char buf[VPMC_POLICY_NAME_MAX];
	const char *p = list;
	int rc;

	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n || n > 20) {
			return vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance '%s': expected a comma-"
					    "separated list of event counts", list);
		}
		snprintf(buf, sizeof(buf), "%s=%.*s", wrap ? "tolerance-wrap" : "tolerance",
			 (int)n, p);
		rc = replay_cli_add_policy(c, buf);
		if (rc)
			return rc;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

static int sweep_plot(struct replay_cli *c, const char *svg)
{
	const char *script;
	FILE *gp;
	int st;

	if (vpmc_replay_plot(c->r, svg, &script))
		return vpmcsim_fail(EXIT_INPUT, "sweep: out of memory");
	gp = popen("gnuplot", "w");
	if (!gp)
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: cannot run gnuplot: %s",
				    strerror(errno));
	fputs(script, gp);
	st = pclose(gp);
	if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st))
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot failed (is it installed?)");
	return 0;
}

struct sweep_opts {
	const char *list, *plot;
	bool wrap;
};

static int sweep_own(struct replay_cli *c, int opt, const char *arg)
{
	struct sweep_opts *so = c->data;

	if (opt == OPT_TOLERANCE)
		so->list = arg;
	else if (opt == OPT_WRAP)
		so->wrap = true;
	else if (opt == OPT_PLOT)
		so->plot = arg;
	else
		return 1;
	return 0;
}

static int sweep_run(int argc, char **argv)
{
	static const struct option opts[] = {
		REPLAY_CLI_COMMON_OPTIONS,
		REPLAY_CLI_ENGINE_OPTIONS,
		{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
		{ "wrap", no_argument, NULL, OPT_WRAP },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct sweep_opts so = { NULL, NULL, false };
	struct replay_cli c;
	int rc;

	replay_cli_init(&c, "sweep", VPMC_OUTPUT_CSV);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "sweep: out of memory");
	c.data = &so;
	rc = replay_cli_parse(&c, argc, argv, opts, sweep_own, usage, usage_line);
	if (!rc && !so.list)
		rc = vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance LIST is required (usage: %s)",
				  usage_line);
	if (!rc)
		rc = sweep_policies(&c, so.list, so.wrap);
	if (!rc)
		rc = replay_cli_run(&c);
	if (!rc)
		rc = replay_cli_report(&c, VPMC_VIEW_SWEEP);
	if (!rc && so.plot)
		rc = sweep_plot(&c, so.plot);
	replay_cli_close(&c);
	return rc == REPLAY_CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_sweep = {
	.name = "sweep",
	.summary = "many tolerances in one pass: CSV and a gnuplot plot",
	.run = sweep_run,
};
