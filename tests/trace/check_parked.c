// SPDX-License-Identifier: GPL-2.0-only
/* check_parked.c - A trace.dat opened again, unchanged, is not parsed again (lib/trace/
 * dat_parked.h): the second reader of a file takes the event formats the first one parsed
 * (vpmcsim's vendor probe, then its replay); after the file changed, or another file was read
 * in between (one handle is kept), its formats are parsed again, all of them.
 *
 * This program defines tep_parse_event(): the executable's definition interposes the calls
 * libvpmc.so makes. It counts them and forwards to libtraceevent's. */
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

struct tep_handle;
int tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
		    const char *sys);

static unsigned int nr_parsed;

int tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size, const char *sys)
{
	static int (*next)(struct tep_handle *, const char *, unsigned long, const char *);

	if (!next)
		next = (int (*)(struct tep_handle *, const char *, unsigned long,
				const char *))dlsym(RTLD_NEXT, "tep_parse_event");
	nr_parsed++;
	return next(tep, buf, size, sys);
}

/* Read @path to the end (no probe child). Return: the formats parsed meanwhile. */
static unsigned int parsed_reading(const char *path)
{
	struct vpmc_reader *r;
	struct vpmc_event ev;
	unsigned long n = 0;
	int ret;

	ck_assert_int_eq(vpmc_reader_new(&r, NULL), 0);
	nr_parsed = 0;
	ck_assert_msg(vpmc_reader_open(r, path) == 0, "%s", vpmc_reader_error(r));
	while ((ret = vpmc_reader_next(r, &ev)) == 1)
		n++;
	ck_assert_msg(ret == 0, "%s", vpmc_reader_error(r));
	ck_assert_uint_gt(n, 0);
	vpmc_reader_free(r);
	return nr_parsed;
}

START_TEST(test_parsed_once_per_version)
{
	struct timespec t[2] = { { 1, 0 }, { 1, 0 } };
	char a[] = "/tmp/vpmc-parked-XXXXXX", b[] = "/tmp/vpmc-parked-XXXXXX";
	unsigned int formats;

	copy_trace("local-kvm/small-mixed-real.dat", a);
	copy_trace("local-kvm/pmu-gp-real.dat", b);
	formats = parsed_reading(a);
	ck_assert_uint_gt(formats, 0);
	ck_assert_uint_eq(parsed_reading(a), 0);
	ck_assert_int_eq(utimensat(AT_FDCWD, a, t, 0), 0);
	ck_assert_uint_eq(parsed_reading(a), formats);
	ck_assert_uint_eq(parsed_reading(a), 0);
	ck_assert_uint_gt(parsed_reading(b), 0);
	ck_assert_uint_eq(parsed_reading(a), formats);
	unlink(a);
	unlink(b);
}
END_TEST

static Suite *parked_suite(void)
{
	Suite *s = suite_create("parked");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, test_parsed_once_per_version);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(parked_suite)
