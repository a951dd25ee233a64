// SPDX-License-Identifier: GPL-2.0-only
/* warnings.c - Warnings the caller found about a replay (the reader's, the overlay's, the
 * figures'), kept so that a JSON report lists every warning its run printed (vpmcsim(1), JSON). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

int vpmc_replay_add_warning(struct vpmc_replay *r, const char *msg)
{
	char *copy;

	if (!r || !msg)
		return VPMC_ERR_INVAL;
	if (r->nr_warnings == REPLAY_MAX_WARNINGS)
		return 0; /* the first ones say it */
	copy = strdup(msg);
	if (!copy)
		return VPMC_ERR_NOMEM;
	r->warnings[r->nr_warnings++] = copy;
	return 0;
}

const char *vpmc_replay_added_warning(const struct vpmc_replay *r, size_t i)
{
	return r && i < r->nr_warnings ? r->warnings[i] : NULL;
}

void replay_warnings_free(struct vpmc_replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_warnings; i++)
		free(r->warnings[i]);
	r->nr_warnings = 0;
}
