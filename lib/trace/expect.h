/* SPDX-License-Identifier: GPL-2.0-only */
/* expect.h - The .vtr's "!expect" assertions (trace-format.md, "Expectations"): the line parser
 * vtr.c calls. */
#ifndef VPMC_TRACE_EXPECT_H
#define VPMC_TRACE_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "lineerr.h"
#include "vpmc.h"

/* Whether the line's first token is "!expect". */
bool vtr_expect_is(const char *line, size_t len);

/**
 * vtr_expect_line() - Parse "!expect TARGET [INDEX] [& MASK] OP VALUE "MESSAGE" [# comment]".
 * @line: the whole line (a '#' inside the message is not a comment); need not end in NUL
 * @len: its length
 * @ev: set to a VPMC_EV_EXPECT event (vpmc/event.h says what each field holds)
 * @err: column and message on failure
 *
 * Return: 1, or VPMC_ERR_PARSE.
 */
int vtr_expect_line(const char *line, size_t len, struct vpmc_event *ev,
		    struct vpmc__lineerr *err);

#endif /* VPMC_TRACE_EXPECT_H */
