// SPDX-License-Identifier: GPL-2.0-only
/* nested_cli.c - The model options of vpmcsim nested and gen nested-pingpong. */
#include "config.h"

#include <string.h>

#include "cli.h"
#include "nested_cli.h"
#include "vpmcsim.h"

void nested_cli_init(struct nested_cli *nc)
{
	memset(nc, 0, sizeof(*nc));
	vpmc_nested_opts_default(&nc->opts);
}

/* "yes" or "no". Return: 0 or -1. */
static int yes_no(const char *arg, bool *v)
{
	if (!strcmp(arg, "yes") || !strcmp(arg, "no")) {
		*v = arg[0] == 'y';
		return 0;
	}
	return -1;
}

/* One assumption key from an option; return 0 or EXIT_USAGE. */
static int assume(struct nested_cli *nc, const char *cmd, const char *opt, const char *key,
		  const char *arg)
{
	const char *why;

	if (vpmc_nested_assume_set(&nc->opts.assume, key, strlen(key), arg, strlen(arg), &why))
		return vpmcsim_fail(EXIT_USAGE, "%s: %s '%s': %s", cmd, opt, arg, why);
	return 0;
}

/* --vmcs12 apic=...,pi=...: the vmcs12 keys only. */
static int vmcs12(struct nested_cli *nc, const char *cmd, const char *arg)
{
	static const char *const keys[] = { "apic", "pi", "msr_bitmap", "io_bitmap", "evmcs" };
	const char *item = arg, *why;

	while (item) {
		const char *end = strchr(item, ','), *eq;
		size_t len = end ? (size_t)(end - item) : strlen(item), i;

		eq = memchr(item, '=', len);
		for (i = 0; eq && i < sizeof(keys) / sizeof(keys[0]); i++) {
			if (strlen(keys[i]) == (size_t)(eq - item) &&
			    !memcmp(item, keys[i], strlen(keys[i])))
				break;
		}
		if (!eq || i == sizeof(keys) / sizeof(keys[0]))
			return vpmcsim_fail(EXIT_USAGE, "%s: --vmcs12 '%s': expected KEY=VALUE[,...] "
					    "with KEY apic, pi, msr_bitmap, io_bitmap or evmcs", cmd,
					    arg);
		if (vpmc_nested_assume_set(&nc->opts.assume, item, (size_t)(eq - item), eq + 1,
					   len - (size_t)(eq - item) - 1, &why))
			return vpmcsim_fail(EXIT_USAGE, "%s: --vmcs12 '%s': %.*s: %s", cmd, arg,
					    (int)(eq - item), item, why);
		item = end ? end + 1 : NULL;
	}
	return 0;
}

int nested_cli_option(struct nested_cli *nc, const char *cmd, int opt, const char *arg)
{
	static const char *const names[] = {
		"--profile", "--l1-memory", "--isa", "--recorded", "--vmcs12", "--svm-intercepts",
		"--svm-merge-chunks", "--msr-in-range", "--gpc-svm-merge", "--gpc-context",
		"--gpc-cold", "--gpc-invalidate-every", "--ghz", "--anchor", "--cost",
	};
	struct vpmc_nested_opts *o = &nc->opts;
	const char *name, *why;
	uint64_t v;
	bool b;
	int rc;

	if (opt < OPT_NESTED_PROFILE || opt >= OPT_NESTED_END_)
		return 1;
	name = names[opt - OPT_NESTED_PROFILE];
	if (arg && opt != OPT_NESTED_COST) {
		rc = vpmcsim_once(cmd, name, &nc->seen[opt - OPT_NESTED_PROFILE], arg);
		if (rc)
			return rc;
	}
	switch (opt) {
	case OPT_NESTED_PROFILE:
		return assume(nc, cmd, name, "profile", arg);
	case OPT_NESTED_L1MEM:
		return assume(nc, cmd, name, "l1mem", arg);
	case OPT_NESTED_ISA:
		return assume(nc, cmd, name, "isa", arg);
	case OPT_NESTED_RECORDED:
		return assume(nc, cmd, name, "recorded", arg);
	case OPT_NESTED_GHZ:
		return assume(nc, cmd, name, "ghz", arg);
	case OPT_NESTED_SVM_INTERCEPTS:
		return assume(nc, cmd, name, "svm_intercepts", arg);
	case OPT_NESTED_SVM_MERGE_CHUNKS:
		return assume(nc, cmd, name, "svm_merge_chunks", arg);
	case OPT_NESTED_VMCS12:
		return vmcs12(nc, cmd, arg);
	case OPT_NESTED_MSR_IN_RANGE:
	case OPT_NESTED_GPC_SVM_MERGE:
	case OPT_NESTED_GPC_CONTEXT:
		if (yes_no(arg, &b))
			return vpmcsim_fail(EXIT_USAGE, "%s: %s '%s': expected yes or no", cmd, name,
					    arg);
		if (opt == OPT_NESTED_MSR_IN_RANGE) {
			o->msr_in_range = b;
			o->given |= VPMC_NESTED_OPT_MSR_IN_RANGE;
		} else if (opt == OPT_NESTED_GPC_SVM_MERGE) {
			o->gpc_svm_merge = b;
			o->given |= VPMC_NESTED_OPT_GPC_SVM_MERGE;
		} else {
			o->gpc_context = b;
			o->given |= VPMC_NESTED_OPT_GPC_CONTEXT;
		}
		return 0;
	case OPT_NESTED_GPC_COLD:
		o->gpc_cold = true;
		o->given |= VPMC_NESTED_OPT_GPC_COLD;
		return 0;
	case OPT_NESTED_GPC_INVALIDATE_EVERY:
		if (cli_parse_u64(arg, 100000000, &v) || !v)
			return vpmcsim_fail(EXIT_USAGE, "%s: %s '%s': expected a number of round "
					    "trips, 1 to 10^8", cmd, name, arg);
		o->gpc_invalidate_every = v;
		o->given |= VPMC_NESTED_OPT_GPC_INVALIDATE_EVERY;
		return 0;
	case OPT_NESTED_ANCHOR:
		if (!strcmp(arg, "auto"))
			o->anchor = VPMC_NESTED_ANCHOR_AUTO;
		else if (!strcmp(arg, "measured"))
			o->anchor = VPMC_NESTED_ANCHOR_MEASURED;
		else if (!strcmp(arg, "model"))
			o->anchor = VPMC_NESTED_ANCHOR_MODEL;
		else
			return vpmcsim_fail(EXIT_USAGE, "%s: --anchor '%s': expected auto, measured "
					    "or model", cmd, arg);
		o->given |= VPMC_NESTED_OPT_ANCHOR;
		return 0;
	default: /* --cost */
		if (vpmc_nested_cost_parse(o, arg, &why))
			return vpmcsim_fail(EXIT_USAGE, "%s: --cost '%s': %s", cmd, arg, why);
		return 0;
	}
}
