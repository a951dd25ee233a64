/* SPDX-License-Identifier: GPL-2.0-only */
/* summary.h - The "merge_state" of a replay's JSON report (summary.c; internal). */
#ifndef VPMC_REPORT_SUMMARY_H
#define VPMC_REPORT_SUMMARY_H

#include <jansson.h>
#include <vpmc/latency.h>
#include <vpmc/replay.h>

#include "hist_json.h"

/* The merge_state of @rp's report for @command ("compare", "sweep"): the union's when @rp was
 * loaded from summaries (vpmc_summary_replay()), else @rp's own. An allocation failure is
 * recorded in *@err. Return: the object (new reference), or NULL. */
json_t *summary_replay_state(const struct vpmc_replay *rp, const char *command, int *err);

/* @v as C99 hexadecimal text ("%a": exact), and back from @key of @o. Return: the string
 * (NULL: out of memory); 0, or -1 (missing or not such text). */
json_t *summary_hex_double(double v);
int summary_get_dbl(json_t *o, const char *key, double *v);

/* The merge_state of latency's JSON report (latency_summary.c): the union's when @r was loaded
 * from summaries, else that of @r (the replay) with @l's windows and the identity of @lab. */
json_t *summary_latency_state(const struct vpmc_latency *l, const struct vpmc_replay *r,
			      const struct vpmc_latency_labels *lab, int *err);

/* Unit @u of a latency merge_state ({"vcpu", "policies": [...]}) checked (@l NULL) or added to
 * @l. Return: 0, -1 (malformed), or VPMC_ERR_NOMEM. */
int latency_summary_unit(json_t *u, size_t nr_pol, struct vpmc_latency *l);

/* The latency options of identity @id ("latency") into @o. Return: 0, or -1. */
int latency_summary_opts(json_t *id, struct vpmc_latency_opts *o);

#endif /* VPMC_REPORT_SUMMARY_H */
