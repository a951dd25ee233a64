/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace_copy.h - Bundled traces for the black-box reader tests (check_isolate.c,
 * check_parked.c): their paths, and copies in new files whose times a test may change.
 */
#ifndef VPMC_TESTS_TRACE_COPY_H
#define VPMC_TESTS_TRACE_COPY_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check_common.h"

/* @file's path in the bundled traces ($VPMC_TRACES, else traces/) */
static inline void trace_path(char *path, size_t len, const char *file)
{
	const char *dir = getenv("VPMC_TRACES");

	snprintf(path, len, "%s/%s", dir ? dir : "traces", file);
}

/* A copy of bundled trace @file in a new file, named from the mkstemp(3) template @tmp. */
static inline void copy_trace(const char *file, char *tmp)
{
	char path[1024], buf[65536];
	FILE *in;
	size_t n;
	int fd;

	trace_path(path, sizeof(path), file);
	in = fopen(path, "rb");
	ck_assert_ptr_nonnull(in);
	fd = mkstemp(tmp);
	ck_assert_int_ge(fd, 0);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		ck_assert_int_eq(write(fd, buf, n), (ssize_t)n);
	fclose(in);
	close(fd);
}

#endif /* VPMC_TESTS_TRACE_COPY_H */
