// SPDX-License-Identifier: GPL-2.0-only
/* cmd_stat.c - vpmcsim stat: exit statistics in the columns of perf kvm stat report. */
#include "config.h"

#include <stdio.h>

#include "cli.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim stat [OPTIONS] TRACE";

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Per exit reason: samples, share of samples and of time, min, max, mean (+- the\n"
		"mean's relative standard error) and p50 / p99 of the time from a VM-exit to the\n"
		"next VM-entry of the same vCPU, as perf kvm stat report prints them.\n\n"
		"  --vcpu LIST         only these vCPUs, e.g. 0,2-3 (repeatable: they add up)\n"
		"  --time START,STOP   only exits in this trace-time range, in seconds\n"
		"  --key K             sort by sample (default), time (mean), max or min, largest\n"
		"                      first (perf's percent_sample, percent_time, mean_t, max_t,\n"
		"                      min_t too)\n"
		"  --event E           vmexit (default), mmio or ioport, as perf kvm stat report\n"
		"  --format F          text (default), csv or json\n"
		"  --input-format F, --lenient, --guest-ips N   as for compare\n"
		"  --guest-branch-permille N, --host-kernel X.Y, --vendor V   as for compare\n"
		"  -h, --help          this text; see vpmcsim(1)\n",
		usage_line);
}

/* --vcpu adds to the vCPUs counted; --time, --key and --event are given once (cli_parse()). */
static int stat_own(struct cli *c, int opt, const char *arg)
{
	struct vpmc_stat *s = c->data;
	int err;

	switch (opt) {
	case OPT_VCPU:
		err = vpmc_stat_set_vcpus(s, arg);
		break;
	case OPT_TIME:
		err = vpmc_stat_set_time(s, arg);
		break;
	case OPT_KEY:
		err = vpmc_stat_set_key(s, arg);
		break;
	case OPT_EVENT:
		err = vpmc_stat_set_event(s, arg);
		c->ropts.accesses = vpmc_stat_wants_accesses(s);
		break;
	default:
		return 1;
	}
	return err ? vpmcsim_fail(EXIT_USAGE, "stat: %s", vpmc_stat_error(s)) : 0;
}

static int stat_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		{ "vcpu", required_argument, NULL, OPT_VCPU },
		{ "time", required_argument, NULL, OPT_TIME },
		{ "key", required_argument, NULL, OPT_KEY },
		{ "event", required_argument, NULL, OPT_EVENT },
		{ NULL, 0, NULL, 0 },
	};
	struct cli c;
	struct vpmc_stat *s;
	const char *text;
	int rc, err;

	cli_init(&c, "stat", VPMC_OUTPUT_TEXT);
	if (vpmc_stat_new(&s))
		return vpmcsim_fail(EXIT_INPUT, "stat: out of memory");
	c.data = s;
	rc = cli_parse(&c, argc, argv, opts, stat_own, usage, usage_line);
	if (!rc)
		rc = cli_open(&c);
	if (!rc && vpmc_stat_set_source(s, c.trace))
		rc = vpmcsim_fail(EXIT_INPUT, "stat: out of memory");
	if (!rc) {
		err = vpmc_stat_run(s, c.reader);
		rc = cli_read_end(&c, err, vpmc_stat_error(s),
					 err ? NULL : vpmc_stat_warning(s));
	}
	if (!rc) {
		if (vpmc_stat_report(s, c.fmt, &text))
			rc = vpmcsim_fail(EXIT_INPUT, "stat: out of memory");
		else
			rc = cli_print(text);
	}
	vpmc_stat_free(s);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_stat = {
	.name = "stat",
	.summary = "exit statistics like perf kvm stat report, with p50 / p99",
	.run = stat_run,
};
