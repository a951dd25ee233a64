/* SPDX-License-Identifier: GPL-2.0-only */
/* cli.h - What the commands share: options, opening the trace, the reader's report, numbers. */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vpmc.h"

/* Long options every replay command takes (their values are >= 256). */
enum {
	OPT_FORMAT = 256,
	OPT_INPUT_FORMAT,
	OPT_LENIENT,
	OPT_GUEST_IPS,
	OPT_POLICY,
	OPT_ASSUME,
	OPT_COST,
	OPT_LOG,
	OPT_TOLERANCE,
	OPT_WRAP,
	OPT_PLOT,
	OPT_VCPU,
	OPT_TIME,
	OPT_BRANCH_PERMILLE,
	OPT_HOST_KERNEL,
	OPT_VENDOR,
	OPT_COST_PROFILE,
	OPT_KEY,
	OPT_EVENT,
	OPT_END_ /* not an option: the number of them, after OPT_FORMAT */
};

#define CLI_COMMON_OPTIONS                                                     \
	{ "help", no_argument, NULL, 'h' },                                    \
	{ "format", required_argument, NULL, OPT_FORMAT },                     \
	{ "input-format", required_argument, NULL, OPT_INPUT_FORMAT },         \
	{ "lenient", no_argument, NULL, OPT_LENIENT },                         \
	{ "guest-ips", required_argument, NULL, OPT_GUEST_IPS },                \
	CLI_PMU_OPTIONS

/* The PMU-shape options (convert's; every command that reads a trace takes them). */
#define CLI_PMU_OPTIONS                                                        \
	{ "guest-branch-permille", required_argument, NULL, OPT_BRANCH_PERMILLE }, \
	{ "host-kernel", required_argument, NULL, OPT_HOST_KERNEL },           \
	{ "vendor", required_argument, NULL, OPT_VENDOR }

/* The options of the commands that replay (compare, replay, sweep). */
#define CLI_ENGINE_OPTIONS                                                     \
	{ "assume", required_argument, NULL, OPT_ASSUME },                     \
	{ "cost", required_argument, NULL, OPT_COST },                         \
	{ "cost-profile", required_argument, NULL, OPT_COST_PROFILE }

/* --vendor and --host-kernel as given. */
struct cli_pmu {
	bool vendor_set, kernel_set;
	enum vpmc_vendor vendor;
	unsigned int kernel; /* VPMC_KERNEL() */
};

struct cli {
	const char *cmd;
	void *data;                 /* the command's own option state */
	const char *short_opts;     /* getopt's; NULL: "hj:" with r, else "h" (nested: "hj:") */
	struct vpmc_replay *r;      /* compare, replay, sweep */
	bool one_policy;            /* replay: --policy is given once */
	struct vpmc_cost cost;
	struct vpmc_cost_profile prof; /* --cost-profile (default "default"), then --cost */
	struct vpmc_reader_opts ropts;
	struct cli_pmu pmu;
	struct vpmc_replay_assumptions assumed; /* set by cli_open() */
	enum vpmc_output fmt;
	const char *trace;          /* as given: "-" is standard input */
	const char *name;           /* the trace in messages and reports: cli_trace_name() */
	struct vpmc_reader *reader;
	const char *given[OPT_END_ - OPT_FORMAT]; /* each option's value, for those given once */
	const char *policies[VPMC_REPLAY_MAX_POLICIES]; /* each policy's text, in c->r's order */
	const char *costs[VPMC_COST_MAX_PARAMS]; /* each --cost taken: each sets a parameter the others do not */
	unsigned int nr_costs;
	unsigned int jobs;          /* -j: threads (replay, nested); 0: the online CPUs */
};

/* A decimal number at most @max, the whole of @s, first character a digit; *@out is set on
 * success only. Return: 0, or -1. */
int cli_parse_u64(const char *s, uint64_t max, uint64_t *out);

/* @path as messages and reports name it: "<stdin>" for "-" (as the reader's own messages do). */
const char *cli_trace_name(const char *path);

/* After reading @path (to its end or to an error): records and events read, unused event
 * names with counts, synthesized VM-entries, lost events, skipped lines, time stamps that went
 * back, and the reader's warnings; "vpmcsim: PATH: ..." lines on stderr. Every command that
 * reads a trace prints it, before its error if any. */
void cli_reader_report(const char *path, const struct vpmc_reader *r);

/* The exit code for a reader's error @err (open or read): 2 for a trace that cannot be opened
 * as given, 3 for a format not built in, else 1 (bad input). */
int cli_reader_exit(int err);

/* A PMU-shape option @opt (OPT_BRANCH_PERMILLE, OPT_HOST_KERNEL, OPT_VENDOR) of command @cmd
 * into @p and @o; return 0, 1 (not one of them) or EXIT_USAGE (message printed). */
int cli_pmu_option(const char *cmd, struct cli_pmu *p, struct vpmc_reader_opts *o, int opt,
		   const char *arg);

/* Either of --vendor, --host-kernel replaces the trace's !pmu and !host with @vendor's
 * defaults and the kernel given (else the newest modeled), as convert does. */
void cli_pmu_apply(const struct cli_pmu *p, enum vpmc_vendor vendor, struct vpmc_reader_opts *o);

/* The vendor and host kernel of @trace: @given (--vendor, --host-kernel), else what the trace
 * says (a .vtr's !pmu/!host, an isa field, an exit name only one vendor uses; a regular file is
 * probed by a reader of its own), else the defaults; into @ropts, and how each was decided into
 * @a (vendor_how, host_how). compare, replay, sweep, stat and convert decide alike (issue 12). */
void cli_decide_pmu(const char *trace, const struct cli_pmu *given, struct vpmc_reader_opts *ropts,
		    struct vpmc_replay_assumptions *a);

/* Defaults for command @cmd, output @fmt. */
void cli_init(struct cli *c, const char *cmd, enum vpmc_output fmt);

/* Handle a common option (-j too, for the commands whose short_opts take it); return 0
 * (handled), 1 (not common), or EXIT_USAGE (message printed). */
int cli_option(struct cli *c, int opt, const char *arg);

/* The threads of -j: as given, else the online CPUs (1 if unknown). */
unsigned int cli_jobs(const struct cli *c);

/* Load --cost-profile @arg into c->prof and re-apply the --cost options taken so far; return 0
 * or EXIT_USAGE (message printed). */
int cli_cost_profile(struct cli *c, const char *arg);

/* The header label of c->prof: NULL for "default" without overrides, else "NAME" with what
 * was calibrated; written to @buf. */
const char *cli_cost_label(const struct cli *c, char *buf, size_t len);

/* Handle --policy, --assume, --cost, --cost-profile for c->r (a cost parameter set twice, in one --cost or in
 * two, is refused); return as cli_option(). */
int cli_engine_option(struct cli *c, int opt, const char *arg);

/* Add policy @text to c->r (not one it has: each policy is one row); return 0 or EXIT_USAGE
 * (message printed). */
int cli_add_policy(struct cli *c, const char *text);

/* The index of policy @p in @r (the same kind and argument), or -1. */
int cli_find_policy(const struct vpmc_replay *r, const struct vpmc_policy *p);

/* Returned by cli_parse() after --help. */
#define CLI_HELP (-1)

/* A command's own options: 0 handled, 1 not one of its options, else an exit code. */
typedef int (*cli_own_fn)(struct cli *c, int opt, const char *arg);

/*
 * Parse the options (getopt_long with @opts), then the one TRACE operand. An option that takes
 * one value is refused when given twice (--policy unless c->one_policy, --assume, --cost,
 * --tolerance and --vcpu may be repeated); a flag may be repeated. The common options,
 * and --policy, --assume, --cost when c->r is set, are handled here; the others go to @own
 * (may be NULL). @usage prints the command's help.
 * Return: 0, CLI_HELP (help printed on stdout), or an exit code (message printed).
 */
int cli_parse(struct cli *c, int argc, char **argv, const struct option *opts, cli_own_fn own,
	      void (*usage)(FILE *out), const char *usage_line);

/* Print c->r's report for @view in c->fmt; return 0 or EXIT_INPUT. */
int cli_report(struct cli *c, enum vpmc_replay_view view);

/* cli_report() without the printing: the report's text in *@text (owned by c->r). */
int cli_report_text(struct cli *c, enum vpmc_replay_view view, const char **text);

/* The warnings cli_run() derives from c->r's figures (host reads that differ, counters not
 * modeled, a guest PMI handler cut off), printed and kept for the JSON report. */
void cli_replay_warnings(struct cli *c);

/* Decide the vendor and host kernel (--vendor, --host-kernel, else what the trace says: a first
 * reader looks for it unless the trace is standard input) into c->ropts and c->assumed, then
 * open the trace; return 0, or the exit code with the message printed. */
int cli_open(struct cli *c);

/* Open the trace and replay it through c->r: begin (a bad --assume is a usage error), every
 * event (with progress), finish. Return 0, or the exit code with the message printed. */
int cli_run(struct cli *c);

/* Exit code and message for an error of the engine or the reader while replaying. */
int cli_fail(int err, const char *msg);

/* Reading ended, with error @err (0 if none; message @msg): the reader's report, the engine's
 * @warning (NULL or "" if none), then the error. Return: 0, or the exit code. */
int cli_read_end(struct cli *c, int err, const char *msg, const char *warning);

/* Print a report to stdout; return 0 or EXIT_INPUT. */
int cli_print(const char *text);

void cli_close(struct cli *c);

#endif /* CLI_H */
