/* SPDX-License-Identifier: GPL-2.0-only */
/* vtr_token.h - The white-space tokens of a .vtr directive's arguments (nested_vtr.c,
 * expect_vtr.c). */
#ifndef VPMC_TRACE_VTR_TOKEN_H
#define VPMC_TRACE_VTR_TOKEN_H

#include <stdbool.h>
#include <stddef.h>

static inline bool vtr_blank(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* The next token of [*@p, @end): its start, its length in *@n (0 at the end); *@p moves past. */
static inline const char *vtr_token(const char **p, const char *end, size_t *n)
{
	const char *t;

	while (*p < end && vtr_blank(**p))
		(*p)++;
	t = *p;
	while (*p < end && !vtr_blank(**p))
		(*p)++;
	*n = (size_t)(*p - t);
	return t;
}

#endif /* VPMC_TRACE_VTR_TOKEN_H */
