// SPDX-License-Identifier: GPL-2.0-only
/* cmd_compare.c - vpmcsim compare: every policy side by side, one row each. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim compare [OPTIONS] TRACE";

/* The default set: upstream, the two proposals at two thresholds, the tolerance that keeps
 * the PMIs (tolerance-wrap), and mediated. */
static const char *const default_policies[] = {
	"exact", "disabled=0x12", "tolerance=100", "tolerance=10000", "tolerance-wrap=10000",
	"mediated",
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Replay TRACE through several accounting policies at once and print, for each, the\n"
		"guest's samples against an ideal guest's, count errors, and the modeled host cost\n"
		"against exact's.\n\n"
		"  --policy P          exact, disabled=MASK, tolerance=N, tolerance-wrap=N, mediated,\n"
		"                      reference (repeatable, each once; default: exact\n"
		"                      disabled=0x12 tolerance=100 tolerance=10000\n"
		"                      tolerance-wrap=10000 mediated)\n"
		"  --assume SPEC       a guest profiler's counter, gpN=EVENT[,period=P] or\n"
		"                      fixedN[,period=P] (repeatable; each counter once)\n"
		"  --cost NAME=VALUE   resume_us, create_us, trigger_cycles, cpu_ghz (repeatable;\n"
		"                      each NAME once)\n"
		"  --cost-profile X    default, rfc-milan or a .cost file (default: default)\n"
		"  -j N                replay on N threads (default: the online CPUs)\n"
		"  --format F          text (default), csv or json\n"
		"  --input-format F    auto (default), vtr, text or dat\n"
		"  --lenient           skip malformed trace lines (counted) instead of failing\n"
		"  --guest-ips N       guest instructions per second of guest time (imported traces)\n"
		"  --guest-branch-permille N, --host-kernel X.Y, --vendor intel|amd\n"
		"                      as for convert (default: what the trace says)\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

static int compare_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_ENGINE_OPTIONS,
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c;
	size_t i;
	int rc;

	cli_init(&c, "compare", VPMC_OUTPUT_TEXT);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "compare: out of memory");
	rc = cli_parse(&c, argc, argv, opts, NULL, usage, usage_line);
	if (!rc && !vpmc_replay_nr_policies(c.r)) {
		for (i = 0; !rc && i < sizeof(default_policies) / sizeof(default_policies[0]); i++)
			rc = cli_add_policy(&c, default_policies[i]);
	}
	if (!rc)
		rc = cli_run(&c);
	if (!rc)
		rc = cli_report(&c, VPMC_VIEW_COMPARE);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_compare = {
	.name = "compare",
	.summary = "every accounting policy side by side on one trace",
	.run = compare_run,
};
