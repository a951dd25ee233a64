/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc-internal.h - Helpers shared by the lib/ modules (not installed). */
#ifndef VPMC_INTERNAL_H
#define VPMC_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include <stdint.h>

#include <vpmc/common.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BIT_ULL(n) (1ULL << (n))

/*
 * VISIBLE_FOR_TESTING - A function static in the library but visible to the white-box tests,
 * as the kernel's VISIBLE_IF_KUNIT: its declaration sits in the layer header under
 * #ifdef VPMC_TESTING.
 */
#ifdef VPMC_TESTING
#define VISIBLE_FOR_TESTING
#else
#define VISIBLE_FOR_TESTING static
#endif

#define VPMC_ERRMSG_MAX 512

/* An error message owned by an object: "FILE:LINE[:COL]: what was expected". */
struct vpmc__errbuf {
	char msg[VPMC_ERRMSG_MAX];
};

/* Set @eb to the printf-style message and return @err, so callers can write
 * "return vpmc__set_error(&r->err, VPMC_ERR_PARSE, "%s:%lu: ...", ...);". */
int vpmc__set_error(struct vpmc__errbuf *eb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Clear @eb (the message becomes ""). */
void vpmc__clear_error(struct vpmc__errbuf *eb);

/* @ns as seconds "S.NNNNNNNNN" in @buf (@len bytes), for messages; return @buf. */
const char *vpmc__secs(uint64_t ns, char *buf, size_t len);

/* Host kernel @kernel (VPMC_KERNEL()) as "MAJ.MIN" in @buf (@len bytes), for reports; a kernel
 * newer than VPMC_KERNEL_LATEST, which runs with that one's rules, as "7.2 (modeled as 7.0)".
 * Return: @buf. */
const char *vpmc__kernel_name(unsigned int kernel, char *buf, size_t len);

#endif /* VPMC_INTERNAL_H */
