// SPDX-License-Identifier: GPL-2.0-only
/* check_dat_sections.c - dat_sections_loop(): the walk libtracecmd's read_metadata_strings()
 * makes over a v7 file's sections (trace-input.c), on files built here header by header.
 *
 * A section header is 16 bytes: id (2), flags (2), description (4), size (8). The walk reads
 * one, then moves on by its size from the header's end (lseek(size, SEEK_CUR)); a STRINGS
 * section (id 15) is read instead: uncompressed, size bytes; compressed (flags bit 0), its
 * compressed size (4 bytes), raw size (4) and compressed bytes, or, without a compression, the
 * raw size's bytes after the header. The walk ends where a read or a seek fails. Each test's
 * offsets follow from these rules, in its comment.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_common.h"
#include "dat_sections.h"

#define FILE_MAX 4096

static uint8_t file[FILE_MAX];

static void put(uint64_t at, uint64_t v, int bytes, bool big)
{
	int i;

	for (i = 0; i < bytes; i++)
		file[at + i] = (uint8_t)(v >> (big ? 8 * (bytes - 1 - i) : 8 * i));
}

static void header(uint64_t at, unsigned int id, unsigned int flags, uint64_t size, bool big)
{
	put(at, id, 2, big);
	put(at + 2, flags, 2, big);
	put(at + 4, 0, 4, big);
	put(at + 8, size, 8, big);
}

/* dat_sections_loop() over the first @size bytes of file[], the walk from byte 0. */
static bool walk(uint64_t size, bool big, bool inflates, uint64_t *at, uint64_t *to)
{
	FILE *f = tmpfile();
	struct dat_sections s;
	bool loop;

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(file, 1, size, f), size);
	fflush(f);
	s = (struct dat_sections){ fileno(f), size, big, inflates };
	*at = *to = 0;
	loop = dat_sections_loop(&s, 0, at, to);
	fclose(f);
	return loop;
}

/* The walk over @size bytes loops, back from the header at @at to byte @to. */
static void assert_loop(uint64_t size, bool big, bool inflates, uint64_t at, uint64_t to)
{
	uint64_t got_at, got_to;

	ck_assert(walk(size, big, inflates, &got_at, &got_to));
	ck_assert_uint_eq(got_at, at);
	ck_assert_uint_eq(got_to, to);
}

/* The walk over @size bytes ends. */
static void assert_ends(uint64_t size, bool big, bool inflates)
{
	uint64_t at, to;

	ck_assert(!walk(size, big, inflates, &at, &to));
}

static const uint64_t back_256 = 0xffffffffffffff00ULL; /* -256 as lseek()'s off_t */

/* Sections of 100 and 0 bytes and a STRINGS of 20: headers at 0, 116, 132; the walk ends at
 * byte 168, the file's end (no 16 bytes left to read). */
START_TEST(test_to_the_end)
{
	memset(file, 0, sizeof(file));
	header(0, 16, 1, 100, false);
	header(116, 3, 0, 0, false);
	header(132, 15, 0, 20, false);
	assert_ends(168, false, true);
}
END_TEST

/* The fuzz find's shape: zero headers (id 0, size 0) 16 bytes apart from 0 to 240, and at
 * 256 a size of -256: 256 + 16 - 256 = 16, the second header; 16 .. 256 again for ever. */
START_TEST(test_back_256)
{
	memset(file, 0, sizeof(file));
	header(256, 0, 0, back_256, false);
	assert_loop(512, false, true, 256, 16);
}
END_TEST

/* A size of -16 names the header itself: 40 + 16 - 16 = 40. Big-endian. */
START_TEST(test_self_big_endian)
{
	memset(file, 0, sizeof(file));
	header(0, 16, 0, 24, true);
	header(40, 17, 0, -16ULL, true);
	assert_loop(100, true, true, 40, 40);
	/* the same bytes read little-endian: the size at 0 is 24 << 56, past the end */
	assert_ends(100, false, true);
}
END_TEST

/* Back but out again: 0 -> 200, whose size (-80) goes back to 136, whose size (1 << 40) goes
 * past the end: the walk ends there. */
START_TEST(test_back_then_out)
{
	memset(file, 0, sizeof(file));
	header(0, 3, 0, 184, false);     /* 0 + 16 + 184 = 200 */
	header(136, 0, 0, 1ULL << 40, false);
	header(200, 0, 0, -80ULL, false); /* 200 + 16 - 80 = 136 */
	assert_ends(400, false, true);
	/* and a size of -232, to byte 200 + 16 - 232 = -16: lseek() fails, the walk ends */
	header(200, 0, 0, -232ULL, false);
	assert_ends(400, false, true);
	/* -216: to byte 0, and 0 -> 200 -> 0 for ever */
	header(200, 0, 0, -216ULL, false);
	assert_loop(400, false, true, 200, 0);
}
END_TEST

/*
 * Compressed STRINGS at 0, compressed size 40, raw size 8: with a compression the walk goes on
 * after the compressed bytes, 0 + 16 + 8 + 40 = 64; without one it reads the 8 raw bytes after
 * the header and goes on at 24. The header at 64 (size -80) goes back to 0, the one at 24
 * (size 1 << 40) past the end: a loop with a compression only. The section's own size (500)
 * is not what moves the walk.
 */
START_TEST(test_compressed_strings)
{
	memset(file, 0, sizeof(file));
	header(0, 15, 1, 500, false);
	put(16, 40, 4, false);
	put(20, 8, 4, false);
	header(24, 0, 0, 1ULL << 40, false);
	header(64, 0, 0, -80ULL, false);
	assert_loop(200, false, true, 64, 0);
	assert_ends(200, false, false);
	/* compressed bytes past the end: the read fails, the walk ends */
	put(16, 400, 4, false);
	assert_ends(200, false, true);
}
END_TEST

/* Uncompressed STRINGS of size 2^62: init_metadata_strings() cannot allocate it and reads
 * nothing, so the walk goes on after the header, at 16, whose size -32 goes back to 0. With
 * size 2^40 the allocation is taken to succeed, and the read runs into the end. */
START_TEST(test_strings_not_allocated)
{
	memset(file, 0, sizeof(file));
	header(0, 15, 0, 1ULL << 62, false);
	header(16, 0, 0, -32ULL, false);
	assert_loop(64, false, true, 16, 0);
	header(0, 15, 0, 1ULL << 40, false);
	assert_ends(64, false, true);
}
END_TEST

/* Fewer than 16 bytes at the start: nothing to read. */
START_TEST(test_short)
{
	memset(file, 0, sizeof(file));
	assert_ends(15, false, true);
	assert_ends(0, false, true);
}
END_TEST

static Suite *dat_sections_suite(void)
{
	Suite *s = suite_create("dat_sections");
	TCase *tc = tcase_create("read_metadata_strings");

	tcase_add_test(tc, test_to_the_end);
	tcase_add_test(tc, test_back_256);
	tcase_add_test(tc, test_self_big_endian);
	tcase_add_test(tc, test_back_then_out);
	tcase_add_test(tc, test_compressed_strings);
	tcase_add_test(tc, test_strings_not_allocated);
	tcase_add_test(tc, test_short);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dat_sections_suite)
