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
	bool big_endian, old_format; /* the file's (a copy: kept in registers) */
	uint64_t fault;        /* the first byte past @avail a read needs; 0: none yet */
};

/* One event as translate_data() / old_update_pointers() make it: kbuf->index and ->next, the
 * time delta it adds (or the stamp it sets), whether it is a record. */
struct event {
	uint32_t index, next;
	uint64_t delta;
	bool absolute;         /* a TIME_STAMP: delta is the new time stamp, its 5 MSB not set */
	bool data;
};

/* Absolute time stamps do not carry the 5 MSB: kbuffer keeps the current stamp's (TS_MSB) */
#define TS_MSB (0xf8ULL << 56)
#define TS_SHIFT 27

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
	return w->big_endian == (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ? v
									     : __builtin_bswap32(v);
}

/* The time field of an event's first word (ts4host()). */
static uint32_t word_delta(const struct walk *w, uint32_t v)
{
	return w->big_endian ? v & ((1u << TS_SHIFT) - 1) : v >> 5;
}

/* One event at data offset @curr, as translate_data() and update_pointers(): offsets are 32
 * bits (kbuffer's unsigned int), a length is added modulo 2^32. */
static inline __attribute__((always_inline)) void
next_new(struct walk *w, uint32_t curr, struct event *e)
{
	uint32_t v = word(w, curr), type_len;

	type_len = w->big_endian ? v >> 27 : v & 31;
	e->delta = word_delta(w, v);
	e->absolute = type_len == TYPE_TIME_STAMP;
	e->data = type_len < TYPE_PADDING;
	e->index = curr + (type_len == TYPE_DATA_LEN || type_len == TYPE_TIME_EXTEND ||
			   type_len == TYPE_TIME_STAMP ? 8 : 4);
	switch (type_len) {
	case TYPE_PADDING:
		e->next = e->index + word(w, curr + 4);
		break;
	case TYPE_TIME_EXTEND:
	case TYPE_TIME_STAMP:
		e->delta += (uint64_t)word(w, curr + 4) << TS_SHIFT;
		e->next = e->index;
		break;
	case TYPE_DATA_LEN: /* the length word counts itself; rounded up to 4 bytes */
		e->next = e->index + ((word(w, curr + 4) - 4 + 3) & ~3u);
		break;
	default:
		e->next = e->index + type_len * 4;
	}
}

/* The same as old_update_pointers(): a padding ends the page (@size), a time stamp too; a time
 * extend's delta is kept in 32 bits (its unsigned int delta). */
static inline __attribute__((always_inline)) void
next_old(struct walk *w, uint32_t curr, uint32_t size, struct event *e)
{
	uint32_t v = word(w, curr), type, len;

	type = w->big_endian ? (v >> 29) & 3 : v & 3;
	len = w->big_endian ? (v >> 27) & 7 : (v >> 2) & 7;
	e->delta = word_delta(w, v);
	e->absolute = false;
	e->data = type == OLD_DATA;
	e->index = curr + (type == OLD_TIME_EXTEND || (type == OLD_DATA && !len) ? 8 : 4);
	switch (type) {
	case OLD_PADDING:
	case OLD_TIME_STAMP:
		e->delta = 0;
		e->next = size;
		break;
	case OLD_TIME_EXTEND:
		e->delta = (uint32_t)(((uint64_t)word(w, curr + 4) << TS_SHIFT) + e->delta);
		e->next = e->index;
		break;
	default:
		e->next = e->index + (len ? len * 4 : word(w, curr + 4) - 4);
	}
}

/* Inlined: into the check's walk and the cursor, so that @e stays in registers (the cursor
 * runs it once a record). */
static inline __attribute__((always_inline)) uint32_t
next_event(struct walk *w, uint32_t curr, uint32_t size, struct event *e)
{
	if (w->old_format)
		next_old(w, curr, size, e);
	else
		next_new(w, curr, e);
	return e->next;
}

/* Whether the events from @from back to it (a cycle) hold a record. */
static bool cycle_has_record(struct walk *w, uint32_t from, uint32_t size)
{
	uint32_t curr = from;
	struct event e;
	bool any = false;

	do {
		curr = next_event(w, curr, size, &e);
		any |= e.data;
	} while (curr != from);
	return any;
}

/* One event's reads within the page: NULL, or what falls past it (@at where). */
static inline __attribute__((always_inline)) const char *
step(struct walk *w, uint32_t curr, uint32_t size, uint32_t *next, uint64_t *at)
{
	struct event e;

	*next = next_event(w, curr, size, &e);
	if (w->fault) {
		*at = w->fault;
		return "an event header";
	}
	if (e.data && w->start + e.index + DAT_PAGE_COMMON_READ > w->avail) {
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
	struct walk w = { page, avail, f->long_size == 8 ? 16 : 12, f->big_endian, f->old_format,
			  0 };
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

/* kbuffer's next_event(): on to the next record, past time stamps and padding (in locals,
 * stored once). */
void dat_page_next(struct dat_page_cursor *c)
{
	struct walk w = { c->page, c->avail, c->start, c->f.big_endian, c->f.old_format, 0 };
	uint32_t curr, index = c->index, next = c->next;
	uint64_t ts = c->timestamp;
	struct event e;

	do {
		curr = next;
		if (next >= c->size)
			break;
		next_event(&w, curr, c->size, &e);
		ts = e.absolute ? e.delta | (ts & TS_MSB) : ts + e.delta;
		index = e.index;
		next = e.next;
	} while (!e.data);
	c->curr = curr;
	c->index = index;
	c->next = next;
	c->timestamp = ts;
}

void dat_page_load(struct dat_page_cursor *c, const uint8_t *page, uint64_t avail,
		   const struct dat_page_format *f)
{
	uint64_t flags = dat_layout_get_num(page + 8, f->long_size, f->big_endian);
	uint64_t lost_at;

	c->page = page;
	c->avail = avail;
	c->f = *f;
	c->timestamp = dat_layout_get_num(page, 8, f->big_endian);
	c->start = f->long_size == 8 ? 16 : 12;
	c->size = (uint32_t)(flags & DAT_COMMIT_MASK);
	lost_at = (uint64_t)c->start + c->size;
	if (!(flags & MISSING_EVENTS))
		c->lost_events = 0;
	else if (!(flags & MISSING_STORED))
		c->lost_events = -1;
	else if (lost_at + f->long_size <= avail) /* dat_page_check() found it in the page */
		c->lost_events = (int64_t)dat_layout_get_num(page + lost_at, f->long_size,
							     f->big_endian);
	else
		c->lost_events = 0;
	c->curr = c->index = c->next = 0;
	dat_page_next(c);
}
