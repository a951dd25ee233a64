// SPDX-License-Identifier: GPL-2.0-only
/* dat_page.c - A ring-buffer page walked as libtraceevent 1.7's kbuffer-parse.c walks it
 * (translate_data(), old_update_pointers()), bounds checked. */
#include "config.h"

#include <string.h>

#include "dat_layout.h"
#include "dat_page.h"

/* kbuffer's missed-events flags in the commit word */
#define MISSING_EVENTS (1ULL << 31)
#define MISSING_STORED (1ULL << 30)

/* type_len values above the data lengths (the kernel's RINGBUF_TYPE_*) */
enum { TYPE_DATA_LEN = 0, TYPE_PADDING = 29, TYPE_TIME_EXTEND, TYPE_TIME_STAMP };
const char DAT_PAGE_ENDLESS[] = "a loop of events with no record";

/* the old format's 2-bit types */
enum { OLD_PADDING, OLD_TIME_EXTEND, OLD_TIME_STAMP, OLD_DATA };

struct walk {
	const uint8_t *page;
	uint64_t avail, start; /* start: where the data begins in the page */
	const struct dat_page_format *f;
	uint64_t fault;        /* the first byte past @avail a read needs; 0: none yet */
	uint32_t data_at;      /* the data offset of the last event's data, if a record */
};


/* The 4-byte word at data offset @off, or 0 with w->fault set if it is not in the page. */
static uint32_t word(struct walk *w, uint64_t off)
{
	uint64_t at = w->start + off;
	uint32_t v;

	if (at + 4 > w->avail) {
		if (!w->fault) /* the first read past the page */
			w->fault = at > w->avail ? at : w->avail;
		return 0;
	}
	memcpy(&v, w->page + at, 4); /* dat_layout_get_num()'s, without its loop: once an event */
	return w->f->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v
									     : __builtin_bswap32(v);
}

/* One event at data offset @curr, as translate_data(): the offset of the next (32 bits, as
 * kbuffer's unsigned int); @data: whether it is a record (not padding or a time stamp). A
 * record's data follows its header words (@w->data_at). */
static uint32_t next_new(struct walk *w, uint32_t curr, bool *data)
{
	uint32_t v = word(w, curr), type_len;
	int32_t length;

	type_len = w->f->big_endian ? v >> 27 : v & 31;
	*data = type_len < TYPE_PADDING;
	w->data_at = curr + (type_len == TYPE_DATA_LEN ? 8 : 4);
	switch (type_len) {
	case TYPE_PADDING:
		return curr + 4 + word(w, curr + 4);
	case TYPE_TIME_EXTEND:
	case TYPE_TIME_STAMP:
		word(w, curr + 4);
		return curr + 8;
	case TYPE_DATA_LEN:
		length = (int32_t)(word(w, curr + 4) - 4);
		return curr + 8 + (uint32_t)((length + 3) & ~3);
	default:
		return curr + 4 + type_len * 4;
	}
}

/* The same as old_update_pointers(): a padding ends the page (@size), a time stamp too. */
static uint32_t next_old(struct walk *w, uint32_t curr, uint32_t size, bool *data)
{
	uint32_t v = word(w, curr), type, len;

	type = w->f->big_endian ? (v >> 29) & 3 : v & 3;
	len = w->f->big_endian ? (v >> 27) & 7 : (v >> 2) & 7;
	*data = type == OLD_DATA;
	w->data_at = curr + (len ? 4 : 8);
	switch (type) {
	case OLD_PADDING:
	case OLD_TIME_STAMP:
		return size;
	case OLD_TIME_EXTEND:
		word(w, curr + 4);
		return curr + 8;
	default:
		if (len)
			return curr + 4 + len * 4;
		return curr + 8 + word(w, curr + 4) - 4;
	}
}

static uint32_t next_event(struct walk *w, uint32_t curr, uint32_t size, bool *data)
{
	return w->f->old_format ? next_old(w, curr, size, data) : next_new(w, curr, data);
}

/* Whether the events from @from back to it (a cycle) hold a record. */
static bool cycle_has_record(struct walk *w, uint32_t from, uint32_t size)
{
	uint32_t curr = from;
	bool data, any = false;

	do {
		curr = next_event(w, curr, size, &data);
		any |= data;
	} while (curr != from);
	return any;
}

/* One event's reads within the page: NULL, or what falls past it (@at where). */
static const char *step(struct walk *w, uint32_t curr, uint32_t size, uint32_t *next,
			uint64_t *at)
{
	bool data;

	*next = next_event(w, curr, size, &data);
	if (w->fault) {
		*at = w->fault;
		return "an event header";
	}
	if (data && w->start + w->data_at + DAT_PAGE_COMMON_READ > w->avail) {
		*at = w->avail;
		return "a record's common fields";
	}
	return NULL;
}

/* From @curr, where an event's length took kbuffer back: every event up to the first one seen
 * again. Through a record, the reader stops at it (trace_dat.c's records_loop()); through
 * none, __next_event() never returns. */
static const char *walk_back(struct walk *w, uint32_t curr, uint32_t size, uint8_t *seen,
			     uint64_t *at)
{
	const char *what;
	uint32_t next;

	memset(seen, 0, w->avail / 8 + 1);
	for (; curr < size; curr = next) {
		what = step(w, curr, size, &next, at);
		if (what)
			return what;
		if (seen[curr / 8] & (1u << (curr % 8)))
			break;
		seen[curr / 8] |= (uint8_t)(1u << (curr % 8));
	}
	if (curr < size && !cycle_has_record(w, curr, size)) {
		*at = w->start + curr;
		return DAT_PAGE_ENDLESS;
	}
	return NULL;
}

const char *dat_page_check(const uint8_t *page, uint64_t avail, const struct dat_page_format *f,
			   uint8_t *seen, uint64_t *at)
{
	struct walk w = { page, avail, f->long_size == 8 ? 16 : 12, f, 0, 0 };
	const char *what;
	uint64_t flags;
	uint32_t size, curr, next;

	if (8 + (uint64_t)f->long_size > avail) {
		*at = avail;
		return "the commit word";
	}
	flags = dat_layout_get_num(page + 8, f->long_size, f->big_endian);
	size = (uint32_t)(flags & DAT_COMMIT_MASK);
	if ((flags & MISSING_EVENTS) && (flags & MISSING_STORED) &&
	    w.start + size + f->long_size > avail) {
		*at = w.start + size > avail ? w.start + size : avail;
		return "the missed-events count";
	}
	/* kbuffer goes from event to event while the next starts before the commit */
	for (curr = 0; curr < size; curr = next) {
		what = step(&w, curr, size, &next, at);
		if (what)
			return what;
		if (next <= curr)
			return walk_back(&w, next, size, seen, at);
	}
	return NULL;
}
