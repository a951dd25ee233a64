// SPDX-License-Identifier: GPL-2.0-only
/* cmd_latency.c - vpmcsim latency: the guest's interrupt-handler duration under each policy
 * (timer-storm.md §5). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "latency_cli.h"
#include "vpmcsim.h"

static const char usage_line[] = "vpmcsim latency [OPTIONS] TRACE";

/* The RFC's two rows, the proposals, and mediated (timer-storm.md §5.1). */
static const char *const default_policies[] = {
	"exact", "disabled=0x12", "tolerance=100", "tolerance=10000", "tolerance-wrap=10000",
	"mediated",
};

enum { OPT_LAT_BASELINE = OPT_LAT_LAST_, OPT_LAT_PER_VCPU };

struct latency_opts {
	struct latency_cli lc;
	const char *baseline, *baseline_seen;
	bool per_vcpu;
};

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: %s\n\n"
		"Replay TRACE through each policy and print the modeled duration of the guest's\n"
		"interrupt handler for a vector (from the entry that injects it to the entry after\n"
		"the TSC-deadline write), pooled and per vCPU.\n\n"
		"  --policy P           as for compare (repeatable; default: exact disabled=0x12\n"
		"                       tolerance=100 tolerance=10000 tolerance-wrap=10000 mediated)\n"
		"  --cost-profile X     default, rfc-milan, or a .cost file (vpmcsim(1), COST MODEL)\n"
		"  --cost NAME=VALUE    override a cost parameter (repeatable; each NAME once)\n"
		"  --vector V           the handler's vector (default 0xec, LOCAL_TIMER_VECTOR)\n"
		"  --end auto|deadline|eoi   the end marker (default auto: deadline, else EOI)\n"
		"  --max-window-us N    a window without an end marker is flagged (default 2000)\n"
		"  --fast-us X          a fast sample is at most X us (default 20)\n"
		"  --baseline P         speedups relative to this policy (default: the first)\n"
		"  --gaps auto|trace|model   exits cost their trace span or the model's round trip\n"
		"  --per-vcpu           one block per vCPU\n"
		"  -j N                 replay on N threads (default: the online CPUs)\n"
		"  --assume, --format (text, csv, json), --input-format, --lenient, --guest-ips\n"
		"                       as for compare\n"
		"  -h, --help           this text; see vpmcsim(1)\n",
		usage_line);
}

static int latency_own(struct cli *c, int opt, const char *arg)
{
	struct latency_opts *lo = c->data;
	int rc = latency_cli_option(&lo->lc, c->cmd, opt, arg);

	if (rc != 1)
		return rc;
	if (opt == OPT_LAT_PER_VCPU) {
		lo->per_vcpu = true;
		return 0;
	}
	if (opt != OPT_LAT_BASELINE)
		return 1;
	rc = vpmcsim_once(c->cmd, "--baseline", &lo->baseline_seen, arg);
	lo->baseline = arg;
	return rc;
}

/* The index of --baseline among the policies (added when missing). */
static int baseline_index(struct cli *c, const char *text, size_t *out)
{
	struct vpmc_policy p;
	const char *why;
	int i;

	*out = 0;
	if (!text)
		return 0;
	if (vpmc_policy_parse(&p, text, &why))
		return vpmcsim_fail(EXIT_USAGE, "latency: --baseline '%s': %s", text, why);
	i = cli_find_policy(c->r, &p);
	if (i < 0) {
		if (cli_add_policy(c, text))
			return EXIT_USAGE;
		i = (int)vpmc_replay_nr_policies(c->r) - 1;
	}
	*out = (size_t)i;
	return 0;
}

static int latency_report(struct cli *c, struct latency_opts *lo, struct vpmc_latency *l,
			  size_t baseline)
{
	struct vpmc_latency_labels lab = {
		.trace = c->name, .profile = c->prof.name, .fitted = c->prof.fitted,
		.targets = c->prof.targets, .prof = &c->prof, .baseline = baseline,
		.per_vcpu = lo->per_vcpu,
	};
	char gen[512], fitted_on[520], *text = NULL;
	int rc;

	lab.gen = latency_cli_gen(c, gen, sizeof(gen));
	lab.marks = c->prof.targets && !c->prof.fitted_touched;
	if (c->prof.targets && c->prof.fitted_touched)
		fprintf(stderr, "vpmcsim: warning: latency: --cost changed a fitted parameter of %s: "
			"no statistic is marked as calibrated\n", c->prof.name);
	snprintf(fitted_on, sizeof(fitted_on), "gen %s", lab.gen ? lab.gen + strlen("workload=")
								 : c->name);
	lab.other_trace = c->prof.fitted_on && strcmp(c->prof.fitted_on, fitted_on);
	latency_cli_no_handler(c, &lo->lc, l, "warning: latency");
	latency_cli_flagged(c, l);
	if (vpmc_latency_report(l, c->r, &lab, c->fmt, &text))
		return vpmcsim_fail(EXIT_INPUT, "latency: out of memory");
	rc = cli_print(text);
	free(text);
	return rc;
}

static int latency_run(int argc, char **argv)
{
	static const struct option opts[] = {
		CLI_COMMON_OPTIONS,
		CLI_ENGINE_OPTIONS,
		LATENCY_CLI_OPTIONS,
		{ "policy", required_argument, NULL, OPT_POLICY },
		{ "baseline", required_argument, NULL, OPT_LAT_BASELINE },
		{ "per-vcpu", no_argument, NULL, OPT_LAT_PER_VCPU },
		{ NULL, 0, NULL, 0 },
	};
	struct latency_opts lo;
	struct vpmc_latency *l = NULL;
	struct cli c;
	size_t i, baseline = 0;
	int rc;

	memset(&lo, 0, sizeof(lo));
	vpmc_latency_opts_default(&lo.lc.o);
	cli_init(&c, "latency", VPMC_OUTPUT_TEXT);
	if (vpmc_replay_new(&c.r))
		return vpmcsim_fail(EXIT_INPUT, "latency: out of memory");
	c.data = &lo;
	rc = cli_parse(&c, argc, argv, opts, latency_own, usage, usage_line);
	if (!rc && !vpmc_replay_nr_policies(c.r)) {
		for (i = 0; !rc && i < sizeof(default_policies) / sizeof(default_policies[0]); i++)
			rc = cli_add_policy(&c, default_policies[i]);
	}
	if (!rc)
		rc = baseline_index(&c, lo.baseline, &baseline);
	if (!rc)
		rc = latency_cli_run(&c, &lo.lc, &l);
	if (!rc)
		rc = latency_report(&c, &lo, l, baseline);
	vpmc_latency_free(l);
	cli_close(&c);
	return rc == CLI_HELP ? EXIT_OK : rc;
}

const struct vpmcsim_cmd cmd_latency = {
	.name = "latency",
	.summary = "guest interrupt-handler duration per policy (timer storm)",
	.run = latency_run,
};
