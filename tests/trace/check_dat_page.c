// SPDX-License-Identifier: GPL-2.0-only
/* check_dat_page.c - dat_page_check(): the reads libtraceevent's kbuffer (kbuffer-parse.c) makes
 * on a ring-buffer page, on pages built here event by event.
 *
 * A page of 4096 bytes with 8-byte longs: time stamp (8), commit (8), data from byte 16, so
 * 4080 bytes of data. Each event starts with a 32-bit word: type_len in its low 5 bits (the
 * high 5 on a big-endian file), the time delta above. type_len 1..28: a record of type_len * 4
 * bytes after the word; 0: a record whose length (+ 4) is the next word; 29: padding, its
 * length the next word; 30/31: a time extend or stamp, one word more. The offsets a test
 * expects are worked out in its comment from these rules.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "dat_page.h"

#define PAGE 4096
#define DATA 16 /* where the data begins */

static uint8_t page[PAGE];
static uint8_t seen[PAGE / 8 + 1];
static const struct dat_page_format le8 = { 8, false, false };

static void put32(uint64_t at, uint32_t v, bool big)
{
	int i;

	for (i = 0; i < 4; i++)
		page[at + i] = (uint8_t)(v >> (big ? 8 * (3 - i) : 8 * i));
}

/* A page whose commit word is @commit (flags included), data zero. */
static void new_page(uint64_t commit)
{
	int i;

	memset(page, 0, sizeof(page));
	for (i = 0; i < 8; i++)
		page[8 + i] = (uint8_t)(commit >> (8 * i));
}

/* Event word at data offset @off: @type_len, delta 0, little-endian. */
static void event(uint32_t off, uint32_t type_len)
{
	put32(DATA + off, type_len, false);
}

static void padding(uint32_t off, uint32_t length)
{
	event(off, 29);
	put32(DATA + off + 4, length, false);
}

static const char *check(uint64_t avail, const struct dat_page_format *f, uint64_t *at)
{
	*at = 0;
	return dat_page_check(page, avail, f, seen, at);
}

/* Three records of 12 bytes (type_len 3: 4 + 12 each), commit 48: nothing past the page. */
START_TEST(test_records_inside)
{
	uint64_t at;

	new_page(48);
	event(0, 3);
	event(16, 3);
	event(32, 3);
	ck_assert_ptr_null(check(PAGE, &le8, &at));
}
END_TEST

/* A padding whose length is 4074 (not a multiple of 4: kbuffer takes it as it is) at 0: the
 * next event at 4 + 4074 = 4078, under the commit (4080). Its word is read at byte 16 + 4078 =
 * 4094, two bytes of it past the page: an event header, at 4096 (the first byte past). */
START_TEST(test_header_past_page)
{
	uint64_t at;

	new_page(4080);
	padding(0, 4074);
	ck_assert_str_eq(check(PAGE, &le8, &at), "an event header");
	ck_assert_uint_eq(at, PAGE);
}
END_TEST

/* The same page with a padding of 4076: the next event at 4080 = the commit, the page ends. */
START_TEST(test_padding_to_commit)
{
	uint64_t at;

	new_page(4080);
	padding(0, 4076);
	ck_assert_ptr_null(check(PAGE, &le8, &at));
}
END_TEST

/* A padding to 4072 (4 + 4068), then a record of 4 bytes (type_len 1): its word at bytes
 * 4088..4091, its data at 4092: common_type and common_pid (its first 8 bytes, which trace_dat.c
 * reads of every record) would run to 4100: past the page. */
START_TEST(test_common_fields_past_page)
{
	uint64_t at;

	new_page(4080);
	padding(0, 4068);
	event(4072, 1);
	ck_assert_str_eq(check(PAGE, &le8, &at), "a record's common fields");
	ck_assert_uint_eq(at, PAGE);
}
END_TEST

/* Missed events with their count stored (bits 31 and 30): kbuffer_load_subbuffer() reads the
 * count (a long) right after the data. Commit 4080: at 16 + 4080 = 4096, past the page; commit
 * 4072 (one padding of 4068 fills it): at 4088..4095, inside. */
START_TEST(test_missed_count)
{
	uint64_t at;

	new_page(4080 | 1ULL << 31 | 1ULL << 30);
	padding(0, 4076);
	ck_assert_str_eq(check(PAGE, &le8, &at), "the missed-events count");
	ck_assert_uint_eq(at, PAGE);
	new_page(4072 | 1ULL << 31 | 1ULL << 30);
	padding(0, 4068);
	ck_assert_ptr_null(check(PAGE, &le8, &at));
	/* without bit 30 the count is not stored: nothing is read after the data */
	new_page(4080 | 1ULL << 31);
	padding(0, 4076);
	ck_assert_ptr_null(check(PAGE, &le8, &at));
}
END_TEST

/* A padding of length -4 (0xfffffffc) at 0: the next event at 0 + 4 - 4 = 0, itself, and no
 * record in between: kbuffer's __next_event() loops on it for ever. Reported at byte 16. */
START_TEST(test_endless_padding)
{
	uint64_t at;

	new_page(4080);
	padding(0, 0xfffffffc);
	ck_assert_ptr_eq(check(PAGE, &le8, &at), DAT_PAGE_ENDLESS);
	ck_assert_uint_eq(at, DATA);
}
END_TEST

/* A record at 0 (type_len 2: next at 12), then at 12 a record whose length word is 0xfffffff0
 * (-16): length -16 - 4 = -20, rounded to 4: -20; next = 12 + 8 - 20 = 0. The loop 0 -> 12 -> 0
 * holds records: the reader stops at the record seen again (not a hang), nothing past the page. */
START_TEST(test_loop_through_record)
{
	uint64_t at;

	new_page(4080);
	event(0, 2);
	event(12, 0);
	put32(DATA + 16, 0xfffffff0, false);
	ck_assert_ptr_null(check(PAGE, &le8, &at));
}
END_TEST

/* The endless padding in a big-endian file: type_len is the word's top 5 bits (29 << 27), the
 * length word big-endian too. Read as little-endian, the same bytes would be a record. */
START_TEST(test_endless_big_endian)
{
	const struct dat_page_format be8 = { 8, true, false };
	uint64_t at;

	new_page(0);
	page[8 + 6] = 4080 >> 8; /* commit 4080, big-endian */
	page[8 + 7] = 4080 & 0xff;
	put32(DATA, 29u << 27, true);
	put32(DATA + 4, 0xfffffffc, true);
	ck_assert_ptr_eq(check(PAGE, &be8, &at), DAT_PAGE_ENDLESS);
	ck_assert_uint_eq(at, DATA);
}
END_TEST

/* 4-byte longs: the commit word is 4 bytes, data from byte 12 (4084 bytes). A padding of 4078
 * at 0: the next word at 12 + 4082 = 4094, past the page. With 8-byte longs the same padding
 * (from 16) would end at 4 + 4078 = 4082 > commit: no further read. */
START_TEST(test_long_4)
{
	const struct dat_page_format le4 = { 4, false, false };
	uint64_t at;

	new_page(4084);
	put32(12, 29, false);
	put32(16, 4078, false);
	ck_assert_str_eq(check(PAGE, &le4, &at), "an event header");
	ck_assert_uint_eq(at, PAGE);
}
END_TEST

/* The old format (Linux <= 2.6.30): type in the word's low 2 bits, len in the next 3. A data
 * event (type 3) with len 0 takes its length (+ 4) from the next word: 4072 at 0 -> next at
 * 0 + 8 + 4068 = 4076. There another such event: its word at 16 + 4076 = 4092..4095, its length
 * word at 4096: past the page. */
START_TEST(test_old_format)
{
	const struct dat_page_format old = { 8, false, true };
	uint64_t at;

	new_page(4080);
	put32(DATA, 3, false);
	put32(DATA + 4, 4072, false);
	put32(DATA + 4076, 3, false);
	ck_assert_str_eq(check(PAGE, &old, &at), "an event header");
	ck_assert_uint_eq(at, PAGE);
	/* an old-format padding (type 0) ends the page at once */
	new_page(4080);
	ck_assert_ptr_null(check(PAGE, &old, &at));
}
END_TEST

/* A page cut by the end of the file 20 bytes in: the commit word (8..15) is there, the first
 * event's word (16..19) too, a padding's length word (20..23) is not. */
START_TEST(test_cut_page)
{
	uint64_t at;

	new_page(4080);
	padding(0, 4076);
	ck_assert_str_eq(check(20, &le8, &at), "an event header");
	ck_assert_uint_eq(at, 20);
	ck_assert_str_eq(check(12, &le8, &at), "the commit word");
	ck_assert_uint_eq(at, 12);
}
END_TEST

/* Event word at data offset @off with a time delta: type_len in the low 5 bits, the delta in
 * the 27 above (little-endian). */
static void event_delta(uint32_t off, uint32_t type_len, uint32_t delta)
{
	put32(DATA + off, type_len | delta << 5, false);
}

/* The cursor (dat_page_load(), dat_page_next()) as kbuffer's update_pointers() moves: page
 * stamp T = 2^63 + 2^62 + 1000 (two of the 5 MSB set). A record of 4 bytes at 0, delta 10: T +
 * 10, its data at 4, 4 bytes. A time extend at 8 (delta 5, word 2): + (2 << 27) + 5. A record
 * of 8 bytes at 16, delta 7. A time stamp at 28 (delta 3, word 1): the stamp is (1 << 27) + 3
 * with T's 5 MSB. A padding at 36 of length 4 (delta 1, added too): next at 36 + 4 + 4 = 44. A
 * record at 44 of type_len 0, length word 12 (8 bytes of data, at 52), delta 2. Commit 60. */
START_TEST(test_cursor_time)
{
	const uint64_t t = (1ULL << 63) + (1ULL << 62) + 1000, msb = t & (0xf8ULL << 56);
	const uint64_t extend = (2ULL << 27) + 5, stamp = msb | ((1ULL << 27) + 3);
	struct dat_page_cursor c;
	int i;

	new_page(60);
	for (i = 0; i < 8; i++)
		page[i] = (uint8_t)(t >> (8 * i));
	event_delta(0, 1, 10);
	event_delta(8, 30, 5);
	put32(DATA + 12, 2, false);
	event_delta(16, 2, 7);
	event_delta(28, 31, 3);
	put32(DATA + 32, 1, false);
	event_delta(36, 29, 1);
	put32(DATA + 40, 4, false);
	event_delta(44, 0, 2);
	put32(DATA + 48, 12, false);
	dat_page_load(&c, page, PAGE, &le8);
	ck_assert_uint_eq(c.lost_events, 0);
	ck_assert_uint_eq(c.curr, 0);
	ck_assert_uint_eq(c.index, 4);
	ck_assert_uint_eq(c.next - c.index, 4);
	ck_assert_uint_eq(c.timestamp, t + 10);
	dat_page_next(&c);
	ck_assert_uint_eq(c.curr, 16);
	ck_assert_uint_eq(c.next - c.index, 8);
	ck_assert_uint_eq(c.timestamp, t + 10 + extend + 7);
	dat_page_next(&c);
	ck_assert_uint_eq(c.curr, 44);
	ck_assert_uint_eq(c.index, 52);
	ck_assert_uint_eq(c.next, 60);
	ck_assert_uint_eq(c.timestamp, stamp + 1 + 2);
	dat_page_next(&c);
	ck_assert_uint_ge(c.curr, c.size);
}
END_TEST

/* Missed events (kbuffer_load_subbuffer()): bit 31 alone, not counted (-1); bits 31 and 30, the
 * count stored after the data (commit 8: at 16 + 8 = 24); neither, 0. */
START_TEST(test_cursor_missed)
{
	struct dat_page_cursor c;

	new_page(8 | 1ULL << 31);
	event(0, 1);
	dat_page_load(&c, page, PAGE, &le8);
	ck_assert_int_eq(c.lost_events, -1);
	new_page(8 | 1ULL << 31 | 1ULL << 30);
	event(0, 1);
	page[24] = 77;
	dat_page_load(&c, page, PAGE, &le8);
	ck_assert_int_eq(c.lost_events, 77);
	ck_assert_uint_eq(c.curr, 0);
	new_page(8);
	event(0, 1);
	dat_page_load(&c, page, PAGE, &le8);
	ck_assert_int_eq(c.lost_events, 0);
}
END_TEST

/* The old format's time extend keeps its delta in 32 bits (old_update_pointers(): unsigned
 * int): word 32 << 27 = 2^32 is lost, its delta 9 stays. Old type 1 (extend) at 0 with delta 9,
 * then a data event (type 3, len 1: 4 bytes) at 8 with delta 4. Page stamp 100: 100 + 9 + 4. */
START_TEST(test_cursor_old_extend)
{
	const struct dat_page_format old = { 8, false, true };
	struct dat_page_cursor c;

	new_page(16);
	page[0] = 100;
	put32(DATA, 1 | 9 << 5, false);
	put32(DATA + 4, 32, false);
	put32(DATA + 8, 3 | 1 << 2 | 4 << 5, false);
	dat_page_load(&c, page, PAGE, &old);
	ck_assert_uint_eq(c.curr, 8);
	ck_assert_uint_eq(c.index, 12);
	ck_assert_uint_eq(c.timestamp, 113);
	dat_page_next(&c);
	ck_assert_uint_ge(c.curr, c.size);
}
END_TEST

static Suite *dat_page_suite(void)
{
	Suite *s = suite_create("dat_page");
	TCase *tc = tcase_create("kbuffer");

	tcase_add_test(tc, test_records_inside);
	tcase_add_test(tc, test_header_past_page);
	tcase_add_test(tc, test_padding_to_commit);
	tcase_add_test(tc, test_common_fields_past_page);
	tcase_add_test(tc, test_missed_count);
	tcase_add_test(tc, test_endless_padding);
	tcase_add_test(tc, test_loop_through_record);
	tcase_add_test(tc, test_endless_big_endian);
	tcase_add_test(tc, test_long_4);
	tcase_add_test(tc, test_old_format);
	tcase_add_test(tc, test_cut_page);
	tcase_add_test(tc, test_cursor_time);
	tcase_add_test(tc, test_cursor_missed);
	tcase_add_test(tc, test_cursor_old_extend);
	suite_add_tcase(s, tc);
	return s;
}

CHECK_MAIN(dat_page_suite)
