// SPDX-License-Identifier: GPL-2.0-only
/* numparse.c - The one parser of unsigned numbers inside lib/. */
#include "config.h"

#include <stdbool.h>

#include "numparse.h"

/* Value of hex digit @c, or -1. */
static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Whether @s (@len bytes) starts with a hex prefix that @flags accept. */
static bool has_hex_prefix(const char *s, size_t len, unsigned int flags)
{
	if (!(flags & VPMC__NUM_HEX) || len < 2 || s[0] != '0')
		return false;
	return s[1] == 'x' || (s[1] == 'X' && (flags & VPMC__NUM_HEX_X));
}

int vpmc__parse_u64(const char *s, size_t len, unsigned int flags, uint64_t lo, uint64_t hi,
		    uint64_t *v)
{
	bool hex = has_hex_prefix(s, len, flags);
	unsigned int base = hex ? 16 : 10;
	size_t i, first = hex ? 2 : 0;
	uint64_t n = 0;

	if (len <= first)
		return -1;
	for (i = first; i < len; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned int)d >= base)
			return -1;
	}
	for (i = first; i < len; i++) {
		unsigned int d = (unsigned int)hex_digit(s[i]);

		if (n > (UINT64_MAX - d) / base)
			return -2;
		n = n * base + d;
	}
	if (n < lo || n > hi)
		return -2;
	*v = n;
	return 0;
}
