// SPDX-License-Identifier: GPL-2.0-only
/* warnings.c - Warnings the caller found about a replay (the reader's, the overlay's, the
 * figures'), kept so that a JSON report lists every warning its run printed (vpmcsim(1), JSON). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "replay-local.h"

/* Keep @msg; @input: it is about the input (carried over by a merge of summaries). */
static int replay_keep_warning(struct vpmc_replay *r, const char *msg, bool input)
{
	char *copy;

	if (!r || !msg)
		return VPMC_ERR_INVAL;
	if (r->nr_warnings == REPLAY_MAX_WARNINGS)
		return 0; /* the first ones say it */
	copy = strdup(msg);
	if (!copy)
		return VPMC_ERR_NOMEM;
	r->warning_input[r->nr_warnings] = input;
	r->warnings[r->nr_warnings++] = copy;
	return 0;
}

int vpmc_replay_add_warning(struct vpmc_replay *r, const char *msg)
{
	return replay_keep_warning(r, msg, false);
}

int vpmc_replay_add_input_warning(struct vpmc_replay *r, const char *msg)
{
	return replay_keep_warning(r, msg, true);
}

bool replay_warning_is_input(const struct vpmc_replay *r, size_t i)
{
	return i < r->nr_warnings && r->warning_input[i];
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
