/* SPDX-License-Identifier: GPL-2.0-only */
/* progress.h - A progress line on stderr for long work, only when stderr is a terminal. */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "vpmc.h"

/* Whether a progress line is shown at all (stderr is a terminal: checked once); if so, the
 * clock of the rate and the time left starts now, unless it runs already. */
bool progress_begin(void);

/*
 * progress_show() - Update the line (at most every 250 ms, or VPMCSIM_PROGRESS_MS): "NAME:
 * P% done, N events, R events/s, M:SS left", cut to the terminal's width. NAME: @name's last
 * path component; @done of @total (any units; @total 0: unknown, no share and no time left),
 * @count things called @unit done so far.
 */
void progress_show(const char *name, uint64_t done, uint64_t total, uint64_t count,
		   const char *unit);

/* vpmc_reader_set_progress()'s callback: @data is the trace's name. */
void progress_reader(void *data, const struct vpmc_reader *r);

/* Clear the line if one was shown, and start the clock again for the next work. */
void progress_done(void);

#endif /* PROGRESS_H */
