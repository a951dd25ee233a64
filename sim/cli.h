/* replay_cli.h - What compare, replay, sweep and stat share: options, opening the trace. */
#ifndef REPLAY_CLI_H
#define REPLAY_CLI_H

#include <getopt.h>
#include <stdbool.h>
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
	OPT_END_ /* not an option: the number of them, after OPT_FORMAT */
};

#define REPLAY_CLI_COMMON_OPTIONS                                              \
	{ "help", no_argument, NULL, 'h' },                                    \
	{ "format", required_argument, NULL, OPT_FORMAT },                     \
	{ "input-format", required_argument, NULL, OPT_INPUT_FORMAT },         \
	{ "lenient", no_argument, NULL, OPT_LENIENT },                         \
	{ "guest-ips", required_argument, NULL, OPT_GUEST_IPS }

/* The options of the commands that replay (compare, replay, sweep). */
#define REPLAY_CLI_ENGINE_OPTIONS                                              \
	{ "assume", required_argument, NULL, OPT_ASSUME },                     \
	{ "cost", required_argument, NULL, OPT_COST }

struct replay_cli {
	const char *cmd;
	void *data;                 /* the command's own option state */
	struct vpmc_replay *r;      /* compare, replay, sweep */
	bool one_policy;            /* replay: --policy is given once */
	struct vpmc_cost cost;
	struct vpmc_reader_opts ropts;
	enum vpmc_output fmt;
	const char *trace;
	struct vpmc_reader *reader;
	const char *given[OPT_END_ - OPT_FORMAT]; /* each option's value, for those given once */
	const char *policies[VPMC_REPLAY_MAX_POLICIES]; /* each policy's text, in c->r's order */
	const char *costs[4];       /* each --cost taken: each sets a parameter the others do not */
	unsigned int nr_costs;
};

/* Defaults for command @cmd, output @fmt. */
void replay_cli_init(struct replay_cli *c, const char *cmd, enum vpmc_output fmt);

/* Handle a common option; return 0 (handled), 1 (not common), or EXIT_USAGE (message
 * printed). */
int replay_cli_option(struct replay_cli *c, int opt, const char *arg);

/* Handle --policy, --assume, --cost for c->r (a cost parameter set twice, in one --cost or in
 * two, is refused); return as replay_cli_option(). */
int replay_cli_engine_option(struct replay_cli *c, int opt, const char *arg);

/* Add policy @text to c->r (not one it has: each policy is one row); return 0 or EXIT_USAGE
 * (message printed). */
int replay_cli_add_policy(struct replay_cli *c, const char *text);

/* The index of policy @p in @r (the same kind and argument), or -1. */
int replay_cli_find_policy(const struct vpmc_replay *r, const struct vpmc_policy *p);

/* Returned by replay_cli_parse() after --help. */
#define REPLAY_CLI_HELP (-1)

/* A command's own options: 0 handled, 1 not one of its options, else an exit code. */
typedef int (*replay_cli_own_fn)(struct replay_cli *c, int opt, const char *arg);

/*
 * Parse the options (getopt_long with @opts), then the one TRACE operand. An option that takes
 * one value is refused when given twice (--policy unless c->one_policy, --assume, --cost,
 * --tolerance and --vcpu may be repeated); a flag may be repeated. The common options,
 * and --policy, --assume, --cost when c->r is set, are handled here; the others go to @own
 * (may be NULL). @usage prints the command's help.
 * Return: 0, REPLAY_CLI_HELP (help printed on stdout), or an exit code (message printed).
 */
int replay_cli_parse(struct replay_cli *c, int argc, char **argv, const struct option *opts,
		     replay_cli_own_fn own, void (*usage)(FILE *out), const char *usage_line);

/* Print c->r's report for @view in c->fmt; return 0 or EXIT_INPUT. */
int replay_cli_report(struct replay_cli *c, enum vpmc_replay_view view);

/* Open the trace; return 0, or the exit code with the message printed. */
int replay_cli_open(struct replay_cli *c);

/* Open the trace and replay it through c->r: begin (a bad --assume is a usage error), every
 * event (with progress), finish. Return 0, or the exit code with the message printed. */
int replay_cli_run(struct replay_cli *c);

/* Exit code and message for an error of the engine or the reader while replaying. */
int replay_cli_fail(int err, const char *msg);

/* Reading ended, with error @err (0 if none; message @msg): the reader's report, the engine's
 * @warning (NULL or "" if none), then the error. Return: 0, or the exit code. */
int replay_cli_read_end(struct replay_cli *c, int err, const char *msg, const char *warning);

/* Print progress on stderr every so often when it is a terminal. */
void replay_cli_progress(void *data, uint64_t events);
void replay_cli_progress_done(void);

/* Print a report to stdout; return 0 or EXIT_INPUT. */
int replay_cli_print(const char *text);

void replay_cli_close(struct replay_cli *c);

#endif /* REPLAY_CLI_H */
