/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/gen.h - Generated workloads written as .vtr: the timer storm (timer-storm.md §4). */
#ifndef VPMC_PUBLIC_GEN_H
#define VPMC_PUBLIC_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One generator parameter: name, default (as text), unit, tag and source (for --help, the man
 * page and the "!gen" line). */
struct vpmc_gen_param {
	const char *name, *def, *unit, *tag, *source;
};

#define VPMC_TIMERSTORM_MAX_PARAMS 48

/* The parameters of one run: the values (numbers; enumerations as 0/1, host_kernel as
 * VPMC_KERNEL()), the seed, and which were given (and how, for the "!gen" line). */
struct vpmc_timerstorm_opts {
	double v[VPMC_TIMERSTORM_MAX_PARAMS];
	uint64_t seed;
	const char *given[VPMC_TIMERSTORM_MAX_PARAMS]; /* the text given, NULL at the default */
	vpmc_progress_fn progress; /* NULL, or called every 2^14 events: ns generated, of all */
	void *progress_data;
};

/**
 * vpmc_timerstorm_params() - The timer-storm generator's parameters, in "!gen" order.
 * @n: set to their number
 *
 * Return: the table.
 */
const struct vpmc_gen_param *vpmc_timerstorm_params(size_t *n);

/**
 * vpmc_timerstorm_opts_default() - Every parameter at its default (seed 1).
 * @o: filled in
 */
void vpmc_timerstorm_opts_default(struct vpmc_timerstorm_opts *o);

/**
 * vpmc_timerstorm_set() - Set one parameter from text (decimal, 0x-hex for integers).
 * @o: parameters
 * @name: its name
 * @value: its text (kept by pointer for the "!gen" line)
 * @err: message on failure (naming the parameter and its range)
 * @errlen: its size
 *
 * Return: 0, or VPMC_ERR_INVAL (unknown name, given twice, bad value).
 */
int vpmc_timerstorm_set(struct vpmc_timerstorm_opts *o, const char *name, const char *value,
			char *err, size_t errlen);

/**
 * vpmc_timerstorm_gen() - Write the timer-storm workload as a canonical .vtr.
 * @o: parameters
 * @out: output stream
 * @err: message on failure
 * @errlen: its size
 *
 * Return: 0, VPMC_ERR_NOMEM, or VPMC_ERR_IO.
 */
int vpmc_timerstorm_gen(const struct vpmc_timerstorm_opts *o, FILE *out, char *err,
			size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_GEN_H */
