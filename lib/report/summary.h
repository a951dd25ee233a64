/* SPDX-License-Identifier: GPL-2.0-only */
/* summary.h - The "merge_state" of a replay's JSON report (summary.c; internal). */
#ifndef VPMC_REPORT_SUMMARY_H
#define VPMC_REPORT_SUMMARY_H

#include <jansson.h>
#include <vpmc/replay.h>

/* The merge_state of @rp's report for @command ("compare", "sweep"): the union's when @rp was
 * loaded from summaries (vpmc_summary_replay()), else @rp's own. An allocation failure is
 * recorded in *@err. Return: the object (new reference), or NULL. */
json_t *summary_replay_state(const struct vpmc_replay *rp, const char *command, int *err);

#endif /* VPMC_REPORT_SUMMARY_H */
