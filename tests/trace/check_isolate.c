// SPDX-License-Identifier: GPL-2.0-only
/* check_isolate.c - The library does not fork unless asked (architecture.md §4.10): a program
 * linking libvpmc that opens a trace.dat makes no fork() call by default, and the crash probe's
 * fork() with vpmc_reader_opts.isolate_dat.
 *
 * This program defines fork(): the executable's definition interposes the calls libvpmc.so makes
 * (and Check's own, before each test body). It counts them and forwards to the next definition
 * (libc's, or a sanitizer's). */
#include "config.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_common.h"
#include "trace_copy.h"
#include "vpmc.h"

static volatile unsigned int nr_forks;

pid_t fork(void)
{
	static pid_t (*next_fork)(void);

	if (!next_fork)
		next_fork = (pid_t (*)(void))dlsym(RTLD_NEXT, "fork");
	nr_forks++;
	return next_fork();
}

/* Read @path to the end with isolate_dat @isolate. Return: fork() calls meanwhile. */
static unsigned int forks_reading_path(const char *path, bool isolate)
{
	struct vpmc_reader_opts o;
	struct vpmc_reader *r;
	struct vpmc_event ev;
	unsigned long n = 0;
	int ret;

	vpmc_reader_opts_default(&o);
	o.isolate_dat = isolate;
	ck_assert_int_eq(vpmc_reader_new(&r, &o), 0);
	nr_forks = 0;
	ck_assert_msg(vpmc_reader_open(r, path) == 0, "%s", vpmc_reader_error(r));
	while ((ret = vpmc_reader_next(r, &ev)) == 1)
		n++;
	ck_assert_msg(ret == 0, "%s", vpmc_reader_error(r));
	ck_assert_uint_gt(n, 0);
	vpmc_reader_free(r);
	return nr_forks;
}

static unsigned int forks_reading(const char *file, bool isolate)
{
	char path[1024];

	trace_path(path, sizeof(path), file);
	return forks_reading_path(path, isolate);
}

START_TEST(test_default_is_no_isolation)
{
	struct vpmc_reader_opts o;

	vpmc_reader_opts_default(&o);
	ck_assert(!o.isolate_dat);
}
END_TEST

START_TEST(test_text_never_forks)
{
	ck_assert_uint_eq(forks_reading("local-kvm/small-mixed-real.txt", false), 0);
	ck_assert_uint_eq(forks_reading("local-kvm/small-mixed-real.txt", true), 0);
}
END_TEST

#ifdef HAVE_LIBTRACECMD
/* small-mixed-real.dat is intact: its layout checks pass, so with isolate_dat it is opened in
 * the probe child first (one fork), and without it not. */
START_TEST(test_dat_forks_only_when_asked)
{
	ck_assert_uint_eq(forks_reading("local-kvm/small-mixed-real.dat", false), 0);
	ck_assert_uint_ge(forks_reading("local-kvm/small-mixed-real.dat", true), 1);
}
END_TEST

/* The probe's verdict holds for the file as it was: a second reader of the same file, unchanged,
 * opens it without a probe child (vpmcsim's vendor probe, then its replay); after the file
 * changed (here only its modification time) it is probed again. */
START_TEST(test_dat_probed_once_per_version)
{
	struct timespec t[2] = { { 1, 0 }, { 1, 0 } };
	char tmp[] = "/tmp/vpmc-isolate-XXXXXX";

	copy_trace("local-kvm/small-mixed-real.dat", tmp);
	ck_assert_uint_ge(forks_reading_path(tmp, true), 1);
	ck_assert_uint_eq(forks_reading_path(tmp, true), 0);
	ck_assert_int_eq(utimensat(AT_FDCWD, tmp, t, 0), 0);
	ck_assert_uint_ge(forks_reading_path(tmp, true), 1);
	ck_assert_uint_eq(forks_reading_path(tmp, true), 0);
	unlink(tmp);
}
END_TEST
#endif

static Suite *isolate_suite(void)
{
	Suite *s = suite_create("isolate");
	TCase *tc = tcase_create("fork");

	tcase_add_test(tc, test_default_is_no_isolation);
	tcase_add_test(tc, test_text_never_forks);
#ifdef HAVE_LIBTRACECMD
	tcase_add_test(tc, test_dat_forks_only_when_asked);
	tcase_add_test(tc, test_dat_probed_once_per_version);
#endif
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(isolate_suite)
