/* SPDX-License-Identifier: GPL-2.0-only */
/* numparse.h - The one parser of unsigned numbers inside lib/ (options, .vtr values, specs). */
#ifndef VPMC_NUMPARSE_H
#define VPMC_NUMPARSE_H

#include <stddef.h>
#include <stdint.h>

/* Spellings a caller accepts besides plain decimal; each caller keeps the ones it had. */
#define VPMC__NUM_HEX   0x1u /* "0x" followed by hex digits (either case) */
#define VPMC__NUM_HEX_X 0x2u /* with VPMC__NUM_HEX: "0X" too */

/**
 * vpmc__parse_u64() - Parse a whole unsigned number: no sign, no space, no trailing text.
 * @s: the text (need not be NUL-terminated)
 * @len: its length, bytes
 * @flags: VPMC__NUM_* spellings accepted besides decimal
 * @lo: smallest value accepted
 * @hi: largest value accepted
 * @v: set on success only
 *
 * Every character is checked before any value is computed, so "99...9z" is not a number
 * rather than one too large.
 *
 * Return: 0; -1 if @s is not such a number; -2 if it is one outside [@lo, @hi] (or beyond 64
 * bits).
 */
int vpmc__parse_u64(const char *s, size_t len, unsigned int flags, uint64_t lo, uint64_t hi,
		    uint64_t *v);

#endif /* VPMC_NUMPARSE_H */
