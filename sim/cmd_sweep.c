// SPDX-License-Identifier: GPL-2.0-only
/* cmd_sweep.c - vpmcsim sweep: many tolerances in one pass; CSV and a gnuplot plot. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim sweep [OPTIONS] --tolerance LIST TRACE";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Replay TRACE through tolerance=T for every T of LIST in one pass; one CSV row each,\n"
		"after exact's (the baseline).\n\n"
		"  --tolerance LIST    comma-separated thresholds in events, e.g. 0,10,100,1000\n"
		"                      (repeatable: the lists add up; each T once, at most 64)\n"
		"  --wrap              sweep tolerance-wrap=T instead of tolerance=T\n"
		"  --plot FILE         also draw modeled host us in all (exact's as a line) and\n"
		"                      p99 sample lateness against T, samples lost at each T\n"
		"                      (log scale; T = 0 left out) with gnuplot, into FILE.svg\n"
		"                      or FILE.png\n"
		"  --assume SPEC, --cost NAME=VALUE, --cost-profile X   as for compare\n"
		"  -j N                as for compare\n"
		"  --format F          csv (default), text or json\n"
		"  --input-format F, --lenient, --guest-ips N   as for compare\n"
		"  --guest-branch-permille N, --host-kernel X.Y, --vendor V   as for compare\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

struct sweep_opts {
	const char *lists[VPMC_REPLAY_MAX_POLICIES]; /* each --tolerance, in order */
	unsigned int nr_lists;
	const char *plot;
	bool wrap;
};

/* Thresholds at most: one policy each, after the exact baseline. */
#define SWEEP_MAX_T (VPMC_REPLAY_MAX_POLICIES - 1)

static int too_many_thresholds(void)
{
	return vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance: at most %d thresholds in all",
			    SWEEP_MAX_T);
}

/* Exact first (the baseline row and line), then one policy per element of every --tolerance
 * LIST, each T once, at most SWEEP_MAX_T in all. */
static int sweep_policies(struct cli *c, const struct sweep_opts *so)
{
	static const struct vpmc_policy exact = { VPMC_POLICY_EXACT, 0 };
	char buf[VPMC_POLICY_NAME_MAX];
	struct vpmc_policy pol;
	unsigned int i, nr = 0;

	if (vpmc_replay_add_policy(c->r, &exact))
		return vpmcsim_fail(EXIT_USAGE, "sweep: %s", vpmc_replay_error(c->r));
	for (i = 0; i < so->nr_lists; i++) {
		const char *list = so->lists[i], *p = list;

		for (;;) {
			size_t n = strcspn(p, ",");

			snprintf(buf, sizeof(buf), "%s=%.*s", so->wrap ? "tolerance-wrap" :
				 "tolerance", (int)(n < 24 ? n : 24), p);
			if (!n || n > 20 || vpmc_policy_parse(&pol, buf, NULL))
				return vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance '%s': '%.*s' is "
						    "not a number of events (decimal, or hex with "
						    "0x; the list is comma-separated)", list,
						    (int)n, p);
			if (cli_find_policy(c->r, &pol) >= 0)
				return vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance '%s': T = %"
						    PRIu64 " given twice (each T is one row)",
						    list, pol.arg);
			if (++nr > SWEEP_MAX_T)
				return too_many_thresholds();
			if (vpmc_replay_add_policy(c->r, &pol))
				return vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance: %s",
						    vpmc_replay_error(c->r));
			if (!p[n])
				break;
			p += n + 1;
		}
	}
	return 0;
}

/* --plot FILE: .svg or .png (gnuplot's svg, pngcairo or png terminal). */
static bool plot_name_ok(const char *path)
{
	size_t n = strlen(path);

	return n > 4 && (!strcasecmp(path + n - 4, ".svg") || !strcasecmp(path + n - 4, ".png"));
}

/* Before replaying: the plot can be drawn (a T > 0; T = 0 is noted) and FILE written (@plot:
 * a temporary file beside it that gnuplot writes, renamed over FILE once the plot is drawn).
 * Return 0 or the exit code. */
static int plot_check(struct cli *c, const char *path, struct outfile *plot)
{
	bool zero = false, some = false;
	size_t i;

	for (i = 0; i < vpmc_replay_nr_policies(c->r); i++) {
		const struct vpmc_policy *p = vpmc_replay_policy(c->r, i);

		if (p->kind == VPMC_POLICY_EXACT)
			continue; /* the baseline, a line */
		zero |= !p->arg;
		some |= p->arg != 0;
	}
	if (!some)
		return vpmcsim_fail(EXIT_USAGE, "sweep: --plot: no tolerance T > 0 in the list: "
				    "T = 0 has no place on the plot's log axis");
	if (zero)
		fprintf(stderr, "vpmcsim: sweep: --plot: T = 0 is left out of the plot (no place "
			"on its log axis); its row is in the table\n");
	if (!outfile_open(plot, path))
		return vpmcsim_fail(EXIT_USAGE, "sweep: --plot: cannot write %s: %s", path,
				    strerror(errno));
	return 0;
}

/* Run gnuplot on @script; its own messages go to our standard error. */
static int run_gnuplot(const char *script, const char *path)
{
	void (*old)(int);
	FILE *gp;
	int st;

	gp = popen("gnuplot", "w");
	if (!gp)
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: cannot run gnuplot: %s",
				    strerror(errno));
	old = signal(SIGPIPE, SIG_IGN); /* a gnuplot that stops reading fails below, not us */
	fputs(script, gp);
	st = pclose(gp);
	signal(SIGPIPE, old);
	if (st == -1)
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot: %s", strerror(errno));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot could not be run (not "
				    "installed, or not on PATH); no plot in %s", path);
	if (WIFSIGNALED(st))
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot was killed by signal %d; "
				    "no plot in %s", WTERMSIG(st), path);
	if (WEXITSTATUS(st))
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot failed with exit status "
				    "%d (its messages are above); no plot in %s", WEXITSTATUS(st),
				    path);
	return 0;
}

static int sweep_plot(struct cli *c, const struct outfile *plot)
{
	const char *script, *path = plot->path;
	struct stat st;
	int rc;

	if (vpmc_replay_plot(c->r, outfile_name(plot), &script))
		return vpmcsim_fail(EXIT_INPUT, "sweep: --plot: %s", vpmc_replay_error(c->r));
	rc = run_gnuplot(script, path);
	if (!rc && (stat(outfile_name(plot), &st) || !st.st_size))
		rc = vpmcsim_fail(EXIT_INPUT, "sweep: --plot: gnuplot wrote nothing to %s", path);
	return rc;
}

/* --tolerance adds to the list (at most 64 in all); --plot is given once (cli_parse()). */
static int sweep_own(struct cli *c, int opt, const char *arg)
{
	struct sweep_opts *so = c->data;

	if (opt == OPT_TOLERANCE && so->nr_lists == SWEEP_MAX_T)
		return too_many_thresholds();
	else if (opt == OPT_TOLERANCE)
		so->lists[so->nr_lists++] = arg;
	else if (opt == OPT_WRAP)
		so->wrap = true;
	else if (opt == OPT_PLOT && !plot_name_ok(arg))
		return vpmcsim_fail(EXIT_USAGE, "sweep: --plot '%s': expected a file name ending "
				    "in .svg or .png", arg);
	else if (opt == OPT_PLOT)
		so->plot = arg;
	else
		return 1;
	return 0;
}

static int sweep_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_ENGINE_OPTIONS,
		{ "tolerance", required_argument, NULL, OPT_TOLERANCE },
		{ "wrap", no_argument, NULL, OPT_WRAP },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	struct sweep_opts so = { .nr_lists = 0 };
	struct outfile plot = { .f = NULL };
	struct cli c;
	int rc, err;

	cli_init(&c, "sweep", VPMC_OUTPUT_CSV);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "sweep: out of memory");
	c.data = &so;
	rc = cli_parse(&c, argc, argv, opts, sweep_own, usage, usage_line);
	if (!rc && !so.nr_lists)
		rc = vpmcsim_fail(EXIT_USAGE, "sweep: --tolerance LIST is required (usage: %s)",
				  usage_line);
	if (!rc)
		rc = sweep_policies(&c, &so);
	if (!rc && so.plot)
		rc = plot_check(&c, so.plot, &plot);
	if (!rc)
		rc = cli_run(&c);
	if (!rc)
		rc = cli_report(&c, VPMC_VIEW_SWEEP);
	if (!rc && so.plot)
		rc = sweep_plot(&c, &plot);
	err = plot.f ? outfile_close(&plot, !rc) : 0; /* no empty or half-drawn plot */
	if (!rc && err)
		rc = vpmcsim_write_error(so.plot, err > 0 ? err : 0);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_sweep = {
	.name = "sweep",
	.summary = "many tolerances in one pass: CSV and a gnuplot plot",
	.run = sweep_run,
};
