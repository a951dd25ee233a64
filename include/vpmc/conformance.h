/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/conformance.h - Upstream PMU tests as .vtr scenarios with "!expect" assertions, run under
 * accounting policies (vpmcsim conformance; traces/conformance/README.md). */
#ifndef VPMC_PUBLIC_CONFORMANCE_H
#define VPMC_PUBLIC_CONFORMANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <vpmc/common.h>
#include <vpmc/event.h>
#include <vpmc/model.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vpmc_conformance;

#define VPMC_CONFORMANCE_MAX_POLICIES 16

/* A run with no policy, each scenario's own host and every vendor. Return: 0 or
 * VPMC_ERR_NOMEM. */
int vpmc_conformance_new(struct vpmc_conformance **out);

/* Free @c (NULL is fine). */
void vpmc_conformance_free(struct vpmc_conformance *c);

/* Add @p to the policies every scenario runs under, in order. Return: 0, or VPMC_ERR_INVAL (an
 * invalid policy, one given before, or more than VPMC_CONFORMANCE_MAX_POLICIES). */
int vpmc_conformance_add_policy(struct vpmc_conformance *c, const struct vpmc_policy *p);

/* Model host kernel VPMC_KERNEL() for every scenario instead of its "!host"; 0: its own. */
void vpmc_conformance_set_host(struct vpmc_conformance *c, unsigned int host_kernel);

/* Run only the scenarios of @vendor; -1 (the default): all. */
void vpmc_conformance_set_vendor(struct vpmc_conformance *c, int vendor);

/**
 * vpmc_conformance_run() - Run one scenario under every policy and keep one result each.
 * @c: the run
 * @name: "SUITE/TEST.VARIANT.vtr" with any leading folders (they are dropped): the result's
 *        suite, test and variant; also the file name in messages
 * @data: the scenario's text, or NULL to read the file @name
 * @len: bytes of @data
 *
 * A scenario of another vendor than the one set is skipped. The first "!expect" that fails is
 * the result's failure: "FILE:LINE: MESSAGE: TARGET OP EXPECTED, got VALUE (FUNCTION)".
 *
 * Return: 0, or an error (a malformed scenario or name, an "!expect" with no access before it;
 * vpmc_conformance_error() says where and why).
 */
int vpmc_conformance_run(struct vpmc_conformance *c, const char *name, const void *data,
			 size_t len);

/* The last error's message, "" if none. */
const char *vpmc_conformance_error(const struct vpmc_conformance *c);

/**
 * vpmc_conformance_report() - The results, in the order run, then per policy how many passed
 * and failed: text (a table), csv (suite,test,variant,policy,pass,first_failure) or json
 * ("results": objects with exactly suite, test, variant, policy, pass, first_failure;
 * "summary": objects with policy, passed, failed).
 * @c: the run
 * @fmt: output format
 * @out: set to the text, owned by @c until the next call or free
 *
 * Return: 0 or VPMC_ERR_NOMEM.
 */
int vpmc_conformance_report(struct vpmc_conformance *c, enum vpmc_output fmt, const char **out);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_CONFORMANCE_H */
