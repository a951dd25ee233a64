/* SPDX-License-Identifier: GPL-2.0-only */
/* nested_cli.h - The model options that vpmcsim nested and gen nested-pingpong share. */
#ifndef NESTED_CLI_H
#define NESTED_CLI_H

#include <getopt.h>
#include <stdint.h>

#include "vpmc.h"
#include "vpmcsim.h"

/* Option values, above cli.h's. */
enum {
	OPT_NESTED_PROFILE = 512,
	OPT_NESTED_L1MEM,
	OPT_NESTED_ISA,
	OPT_NESTED_RECORDED,
	OPT_NESTED_VMCS12,
	OPT_NESTED_SVM_INTERCEPTS,
	OPT_NESTED_SVM_MERGE_CHUNKS,
	OPT_NESTED_MSR_IN_RANGE,
	OPT_NESTED_GPC_SVM_MERGE,
	OPT_NESTED_GPC_CONTEXT,
	OPT_NESTED_GPC_COLD,
	OPT_NESTED_GPC_INVALIDATE_EVERY,
	OPT_NESTED_GHZ,
	OPT_NESTED_ANCHOR,
	OPT_NESTED_COST,
	OPT_NESTED_END_
};

#define NESTED_CLI_MODEL_OPTIONS                                                         \
	{ "profile", required_argument, NULL, OPT_NESTED_PROFILE },                      \
	{ "l1-memory", required_argument, NULL, OPT_NESTED_L1MEM },                      \
	{ "isa", required_argument, NULL, OPT_NESTED_ISA },                              \
	{ "vmcs12", required_argument, NULL, OPT_NESTED_VMCS12 },                        \
	{ "svm-intercepts", required_argument, NULL, OPT_NESTED_SVM_INTERCEPTS },        \
	{ "svm-merge-chunks", required_argument, NULL, OPT_NESTED_SVM_MERGE_CHUNKS },    \
	{ "gpc-svm-merge", required_argument, NULL, OPT_NESTED_GPC_SVM_MERGE },          \
	{ "gpc-context", required_argument, NULL, OPT_NESTED_GPC_CONTEXT },              \
	{ "gpc-cold", no_argument, NULL, OPT_NESTED_GPC_COLD },                          \
	{ "gpc-invalidate-every", required_argument, NULL, OPT_NESTED_GPC_INVALIDATE_EVERY }, \
	{ "ghz", required_argument, NULL, OPT_NESTED_GHZ },                              \
	{ "cost", required_argument, NULL, OPT_NESTED_COST }

struct nested_cli {
	struct vpmc_nested_opts opts;
	const char *seen[OPT_NESTED_END_ - OPT_NESTED_PROFILE]; /* each option's value, given once */
};

/* Defaults (vpmc_nested_opts_default()). */
void nested_cli_init(struct nested_cli *nc);

/* Handle one of the options above for command @cmd: 0 handled, 1 not one of them, EXIT_USAGE
 * (message printed: a bad value, or an option given twice; --cost adds up, but a parameter
 * given twice is refused). */
int nested_cli_option(struct nested_cli *nc, const char *cmd, int opt, const char *arg);

/* The commands (sim/cmd_nested.c, sim/cmd_gen.c). */
extern const struct vpmcsim_cmd cmd_nested, cmd_gen;

#endif /* NESTED_CLI_H */
