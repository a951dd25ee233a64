/* SPDX-License-Identifier: GPL-2.0-only */
/* dat_page.h - A ring-buffer page walked as libtraceevent's kbuffer walks it, for the reads
 * past the page that kbuffer makes on a corrupt one.
 *
 * libtracecmd maps the file and hands kbuffer the mapped page: a read past it lands in
 * whatever is mapped next (another page of the file, another mapping, or a page of the file
 * past its end: SIGBUS). dat_direct reads into a buffer with a page of zeros after it instead.
 */
#ifndef VPMC_TRACE_DAT_PAGE_H
#define VPMC_TRACE_DAT_PAGE_H

#include <stdbool.h>
#include <stdint.h>

/* What kbuffer needs to know of the file (kbuffer_alloc(), kbuffer_set_old_format()). */
struct dat_page_format {
	int long_size;   /* 4 or 8: the commit word, and the data's start (12 or 16) */
	bool big_endian;
	bool old_format; /* no header_page text (Linux 2.6.30 and earlier) */
};

/* What trace_dat.c reads of every record before its fields (bounded by its size): common_type
 * and common_pid, in its first 8 bytes (the kernel's struct trace_entry). */
#define DAT_PAGE_COMMON_READ 8

/* dat_page_check(): the page's events loop with no record in them */
extern const char DAT_PAGE_ENDLESS[];

/**
 * dat_page_check() - Whether kbuffer reads only inside a ring-buffer page.
 * @page: the page's first @avail bytes
 * @avail: bytes of the page that can be read (a page cut by the end of the file: fewer)
 * @f: the file's format
 * @seen: scratch of @avail / 8 + 1 bytes (the events walked)
 * @at: on failure, the offset in the page of the first byte kbuffer would read past @avail
 *
 * Follows kbuffer_load_subbuffer() (the commit word, the missed-events count stored after the
 * data) and kbuffer_next_event() (each event's header words) through the page's events, as far
 * as the commit goes, until an event is seen again (an event's length took kbuffer back: the
 * reader stops at the record seen again, trace_dat.c's records_loop()). Event data is not
 * checked past the common fields trace_dat.c reads first: it bounds a record by its page.
 *
 * Return: NULL, or what is read past the page ("the commit word", "the missed-events count",
 * "an event header", "a record's common fields"), or DAT_PAGE_ENDLESS: a loop of events with
 * no record in it, which kbuffer's __next_event() walks forever (@at: an event in it).
 */
const char *dat_page_check(const uint8_t *page, uint64_t avail, const struct dat_page_format *f,
			   uint8_t *seen, uint64_t *at);

/*
 * A page's records as kbuffer reads them (kbuffer_load_subbuffer(), kbuffer_read_event(),
 * kbuffer_next_event(), kbuffer_curr_*()), with dat_page_check()'s walk of each event: the
 * same offsets, time stamps and missed events. Debian builds libtraceevent without
 * optimization: its eight calls per record were ~30% of stat's CPU time (HACKING.md).
 * Offsets count from the data's start, as kbuffer's do; each 32 bits, as its unsigned int.
 */
struct dat_page_cursor {
	const uint8_t *page;
	uint64_t avail;          /* bytes readable from @page (dat_page_check()'s @avail) */
	struct dat_page_format f;
	uint64_t timestamp;      /* of the current record */
	int64_t lost_events;     /* missed before the page: 0, -1 (not counted), or the count */
	uint32_t start;          /* where the data begins in the page: 12 or 16 */
	uint32_t size;           /* the commit: the data's length */
	uint32_t curr;           /* the current record's first word; >= size: no more */
	uint32_t index;          /* its data */
	uint32_t next;           /* the event after it */
};

/**
 * dat_page_load() - Start reading @page's records: kbuffer_load_subbuffer().
 * @c: filled; the current record is the page's first, if any (@c->curr < @c->size)
 * @page: a page dat_page_check() found no DAT_PAGE_ENDLESS loop in, with the same @avail
 * @avail: bytes of it that can be read (no read goes past them)
 * @f: the file's format
 */
void dat_page_load(struct dat_page_cursor *c, const uint8_t *page, uint64_t avail,
		   const struct dat_page_format *f);

/* dat_page_next() - On to the next record (kbuffer_next_event()); @c->curr >= @c->size when
 * the page has no more. */
void dat_page_next(struct dat_page_cursor *c);

#endif /* VPMC_TRACE_DAT_PAGE_H */
