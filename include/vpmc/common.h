/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/common.h - Errors, version and report formats: what every part of the API shares. */
#ifndef VPMC_PUBLIC_COMMON_H
#define VPMC_PUBLIC_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Errors: one list is the source of the codes and their messages.
 */
#define VPMC_ERRORS(X)                                                   \
	X(INVAL, -1, "invalid argument")                                 \
	X(NOMEM, -2, "out of memory")                                    \
	X(IO, -3, "I/O error")                                           \
	X(PARSE, -4, "parse error")                                      \
	X(NOSUPPORT, -5, "not supported in this build")                  \
	X(LIMIT, -6, "limit exceeded")

enum vpmc_err {
	VPMC_OK = 0,
#define VPMC_ERR_ENUM_(name, code, msg) VPMC_ERR_##name = (code),
	VPMC_ERRORS(VPMC_ERR_ENUM_)
#undef VPMC_ERR_ENUM_
};

/**
 * vpmc_strerror() - Message for an error code.
 * @err: VPMC_OK or a negative enum vpmc_err
 *
 * Return: a static string; "unknown error" for a code not in VPMC_ERRORS.
 */
const char *vpmc_strerror(int err);

/**
 * vpmc_version() - Library version.
 *
 * Return: a static string such as "0.1.0".
 */
const char *vpmc_version(void);

/* A progress callback of long work (a generator): @done of @total, in the work's own units. */
typedef void (*vpmc_progress_fn)(void *data, uint64_t done, uint64_t total);

enum vpmc_output {
	VPMC_OUTPUT_TEXT, /* aligned columns */
	VPMC_OUTPUT_CSV,  /* header line, then one line per row */
	VPMC_OUTPUT_JSON, /* one object; field names carry their unit (lateness_ns_p99) */
};

/**
 * vpmc_output_parse() - "text", "csv" or "json".
 * @out: set on success only
 * @s: the name
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_output_parse(enum vpmc_output *out, const char *s);

/**
 * vpmc_json_string() - Write @s as a JSON string: quoted, with quotes, backslashes and control
 * bytes escaped (RFC 8259, section 7).
 * @f: output stream
 * @s: NUL-terminated
 */
void vpmc_json_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_COMMON_H */
