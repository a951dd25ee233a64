/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/summary.h - Mergeable summaries: the "merge_state" of a JSON report, and their union. */
#ifndef VPMC_PUBLIC_SUMMARY_H
#define VPMC_PUBLIC_SUMMARY_H

#include <stddef.h>
#include <vpmc/latency.h>
#include <vpmc/nested.h>
#include <vpmc/replay.h>
#include <vpmc/stat.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * A merge of summaries (vpmcsim(1), MERGE): the "merge_state" objects of JSON reports of one
 * command made with the same policies, overlay, PMU, cost model and assumptions, added up. Their
 * union is exact: counts and sums add, histograms add bucket by bucket, and the results of each
 * vCPU are added in an order that depends on the summaries alone (not on the order of merging).
 */
struct vpmc_summary;

/**
 * vpmc_summary_new() - An empty merge.
 * @out: set on success only
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_summary_new(struct vpmc_summary **out);

/**
 * vpmc_summary_add_file() - Add the summary in JSON report @path.
 * @s: merge
 * @path: a file written by a command's --format json (or by merge's)
 *
 * Return: 0, VPMC_ERR_IO (cannot read), VPMC_ERR_PARSE (not JSON, or no valid "merge_state"),
 * VPMC_ERR_INVAL (made with another command, policies, overlay, PMU, cost model, assumptions
 * or options
 * than the summaries added before: vpmc_summary_error() names the difference and both files),
 * VPMC_ERR_NOMEM.
 */
int vpmc_summary_add_file(struct vpmc_summary *s, const char *path);

/**
 * vpmc_summary_command() - The command whose summaries @s holds.
 * @s: merge with at least one summary
 *
 * Return: "compare", "sweep", "latency", "nested" or "stat", or NULL when empty.
 */
const char *vpmc_summary_command(const struct vpmc_summary *s);

/**
 * vpmc_summary_replay() - A finished replay engine holding the union, for vpmc_replay_report()
 * (whose JSON then carries the union's "merge_state") and the other result getters.
 * @s: merge with at least one summary of compare, sweep or latency
 * @out: set on success only; free with vpmc_replay_free()
 *
 * Return: 0, VPMC_ERR_INVAL (empty) or VPMC_ERR_NOMEM.
 */
int vpmc_summary_replay(struct vpmc_summary *s, struct vpmc_replay **out);

/**
 * vpmc_summary_stat() - The sum of stat's summaries, for vpmc_stat_report() (whose JSON then
 * carries the sum's "merge_state").
 * @s: merge with at least one summary of stat; the sum moves out of it
 * @out: set on success only; free with vpmc_stat_free()
 *
 * Return: 0, or VPMC_ERR_INVAL (none, or taken already).
 */
int vpmc_summary_stat(struct vpmc_summary *s, struct vpmc_stat **out);

/**
 * vpmc_summary_latency() - The union of latency's summaries, for vpmc_latency_report() with
 * @r (whose JSON then carries the union's "merge_state").
 * @s: merge of latency's summaries, after vpmc_summary_replay()
 * @r: the engine vpmc_summary_replay() gave
 * @out: set on success only; free with vpmc_latency_free() before @r
 * @lab: the labels of the summaries (all but .trace, the caller's); valid while @s is
 *
 * Return: 0, VPMC_ERR_INVAL (no summary of latency), VPMC_ERR_PARSE or VPMC_ERR_NOMEM.
 */
int vpmc_summary_latency(struct vpmc_summary *s, struct vpmc_replay *r, struct vpmc_latency **out,
			 struct vpmc_latency_labels *lab);

/**
 * vpmc_summary_nested() - The union of nested's summaries, for vpmc_nested_report() (whose JSON
 * then carries the union's "merge_state").
 * @s: merge with at least one summary of nested; the union moves out of it
 * @out: set on success only; free with vpmc_nested_free()
 *
 * Return: 0, or VPMC_ERR_INVAL (none, or taken already).
 */
int vpmc_summary_nested(struct vpmc_summary *s, struct vpmc_nested **out);

/* The last error's message ("FILE: ..."), or "". */
const char *vpmc_summary_error(const struct vpmc_summary *s);

void vpmc_summary_free(struct vpmc_summary *s);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_SUMMARY_H */
