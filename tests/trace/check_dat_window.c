// SPDX-License-Identifier: GPL-2.0-only
/* check_dat_window.c - dat_window_pread() answers as pread(2) does, on a 10000-byte file whose
 * byte i is (7i + 3) mod 256, through a window of DAT_WINDOW_SIZE (4096) bytes.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "dat_window.h"

#define SIZE 10000

static uint8_t byte_at(uint64_t i)
{
	return (uint8_t)(7 * i + 3);
}

static FILE *file(void)
{
	FILE *f = tmpfile();
	uint64_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < SIZE; i++)
		ck_assert_int_eq(fputc(byte_at(i), f), byte_at(i));
	fflush(f);
	return f;
}

/* A read of @n bytes at @pos gives @want bytes, the file's. */
static void assert_read(struct dat_window *w, size_t n, uint64_t pos, ssize_t want)
{
	uint8_t buf[2 * DAT_WINDOW_SIZE];
	ssize_t i, got = dat_window_pread(w, buf, n, pos);

	ck_assert_int_eq(got, want);
	for (i = 0; i < got; i++)
		ck_assert_uint_eq(buf[i], byte_at(pos + (uint64_t)i));
}

START_TEST(test_like_pread)
{
	FILE *f = file();
	struct dat_window w = { .fd = fileno(f) };

	assert_read(&w, 8, 0, 8);
	assert_read(&w, 8, 4090, 8);      /* over the end of the window [0, 4096): read again */
	assert_read(&w, 8, 10, 8);        /* before the window [4090, 8186) */
	assert_read(&w, 100, 9950, 50);   /* the file ends 50 bytes on */
	assert_read(&w, 4, 9999, 1);
	assert_read(&w, 4, SIZE, 0);
	assert_read(&w, 4, 2 * SIZE, 0);
	assert_read(&w, 5000, 100, 5000); /* more than a window */
	assert_read(&w, 0, 0, 0);
	fclose(f);
}
END_TEST

/* Reads inside the window do not go to the file (the one read(2) they save is the point). */
START_TEST(test_served_from_window)
{
	FILE *f = file();
	struct dat_window w = { .fd = fileno(f) };
	uint8_t b = 0;

	assert_read(&w, 4, 0, 4);
	ck_assert_int_eq(pwrite(fileno(f), &b, 1, 4095), 1);
	assert_read(&w, 1, 4095, 1);      /* the byte as the window read it */
	ck_assert_int_eq(dat_window_pread(&w, &b, 1, 4096), 1); /* past it: the file again */
	ck_assert_uint_eq(b, byte_at(4096));
	ck_assert_int_eq(dat_window_pread(&w, &b, 1, 4095), 1); /* before [4096, 8192): read */
	ck_assert_uint_eq(b, 0);
	fclose(f);
}
END_TEST

/* A window over memory reads the same bytes as one over a file of them, with no fd at all. */
START_TEST(test_memory)
{
	static uint8_t mem[SIZE];
	struct dat_window w = { .fd = -1, .mem = mem, .mem_size = SIZE };
	uint64_t i;

	for (i = 0; i < SIZE; i++)
		mem[i] = byte_at(i);
	assert_read(&w, 8, 0, 8);
	assert_read(&w, 8, 4090, 8);
	assert_read(&w, 100, 9950, 50);   /* the memory ends 50 bytes on */
	assert_read(&w, 4, SIZE, 0);
	assert_read(&w, 4, 2 * SIZE, 0);
	assert_read(&w, 5000, 100, 5000); /* more than a window */
}
END_TEST

static Suite *dat_window_suite(void)
{
	Suite *s = suite_create("dat_window");
	TCase *tc = tcase_create("pread");

	tcase_add_test(tc, test_like_pread);
	tcase_add_test(tc, test_served_from_window);
	tcase_add_test(tc, test_memory);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dat_window_suite)
