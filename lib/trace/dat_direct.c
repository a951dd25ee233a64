// SPDX-License-Identifier: GPL-2.0-only
/* trace_dat_direct.c - A trace.dat read with libtraceevent alone (see trace_dat_direct.h): event
 * formats as libtracecmd's read_header_files() and read_event_files() parse them, pages as its
 * tracecmd_peek_data() and get_next_page() read them, compressed chunks (v7) inflated as its
 * tracecmd_uncompress_chunk() inflates them, with libzstd or zlib.
 *
 * Each CPU reads its data a batch at a time into its own buffer (BATCH_PAGES pages, or one
 * compressed chunk inflated): memory is fixed per CPU whatever the trace's length, and a
 * record's data stays valid until that CPU's next read.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dat_direct.h"
#include "dat_inflate.h"

#define BATCH_PAGES 16
#define META_MAX (64U << 20)  /* a metadata run, inflated (the kernel's formats: ~1 MiB) */
#define CHUNK_BUF_MAX (64U << 20) /* a chunk inflated, at most (trace-cmd writes 10 pages) */
#define SYSTEM_NAME_MAX 256

/*
 * Options libtracecmd's handle_options() reads without touching a record's time stamp:
 * CPUSTAT 2, BUFFER 3 (the CPU data; other instances), TRACECLOCK 4 (printing), UNAME 5,
 * HOOK 6, CPUCOUNT 8, VERSION 9, PROCMAPS 10, TRACEID 11, and v7's section offsets
 * HEADER_INFO 16 to CMDLINES 21. Not: DATE 1, OFFSET 7 (timestamp_calc() adds them),
 * TIME_SHIFT 12, GUEST 13 (a guest's shifts), TSC2NSEC 14, BUFFER_TEXT 22 (a latency trace),
 * and anything newer. DONE 0 ends each list.
 */
#define HARMLESS_OPTIONS (1ULL << 0 | 1ULL << 2 | 1ULL << 3 | 1ULL << 4 | 1ULL << 5 | \
			  1ULL << 6 | 1ULL << 8 | 1ULL << 9 | 1ULL << 10 | 1ULL << 11 | \
			  1ULL << 16 | 1ULL << 17 | 1ULL << 18 | 1ULL << 19 | 1ULL << 20 | \
			  1ULL << 21)

struct pages_cpu {
	int id;             /* the CPU number its records carry */
	struct dat_page_cursor cur; /* the page loaded: its records as kbuffer reads them */
	uint8_t *buf;       /* pages from offset buf_off on, buf_len bytes (then zeros to a page) */
	uint64_t buf_off, buf_len, buf_cap;
	uint64_t buf_size;  /* allocated: compressed data grows it to a page past what it holds */
	uint64_t page;      /* offset of the page cur reads (loaded), or reads next */
	uint64_t end;       /* offset where the CPU's data ends */
	bool loaded;
	int last_event;     /* offset in the page of the event read last; -1 before the first */
	/* compressed data: offsets above count the data inflated, from 0 */
	uint64_t chunk_at;  /* file offset of the next chunk's header */
	uint32_t chunk, chunks; /* chunks read, of all */
	uint8_t *zbuf;      /* a chunk as the file has it */
	size_t zcap;
};

struct dat_direct {
	int fd;
	bool big_endian;
	int long_size;      /* of a page header's commit word */
	enum dat_algo algo; /* of the CPU data; DAT_ALGO_NONE: pages as they are */
	uint64_t page_size;
	int nr_cpus;
	struct pages_cpu *cpu;
	struct dat_direct_loss bad; /* what dat_direct_read() last failed on */
	struct dat_page_format fmt; /* the pages' (kbuffer's) */
	uint8_t *seen;              /* dat_page_check()'s scratch */
};

static bool meta_usable(const struct dat_layout *l, const struct dat_meta *m)
{
	return m->found && m->size <= META_MAX && (!m->compressed || dat_algo_of(l->compression) <
								 DAT_ALGO_OTHER);
}

bool dat_direct_usable(const struct dat_layout *l)
{
	int i;

	if ((l->version != 6 && l->version != 7) || l->nr_cpus <= 0 || !l->page_size ||
	    l->options_unknown || (l->options & ~HARMLESS_OPTIONS) ||
	    !meta_usable(l, &l->header_info) || !meta_usable(l, &l->ftrace_formats) ||
	    !meta_usable(l, &l->event_formats))
		return false;
	if (l->compressed && (dat_algo_of(l->compression) == DAT_ALGO_NONE ||
			      dat_algo_of(l->compression) == DAT_ALGO_OTHER))
		return false;
	for (i = 1; i < l->nr_cpus; i++) {
		if (l->cpu[i].id <= l->cpu[i - 1].id) /* libtracecmd would reorder them */
			return false;
	}
	return true;
}

/* A metadata run in memory, inflated if compressed (a 0 byte after it). NULL: it cannot be
 * read or inflated, or no memory. */
static uint8_t *load_meta(const struct dat_layout *l, const struct dat_meta *m, size_t *len)
{
	uint8_t *raw = malloc(m->size + 1), *out;

	if (!raw || !dat_layout_pread(l, m->off, raw, m->size)) {
		free(raw);
		return NULL;
	}
	raw[m->size] = 0;
	*len = m->size;
	if (!m->compressed)
		return raw;
	out = dat_inflate_section(dat_algo_of(l->compression), raw, m->size, l->big_endian,
				  META_MAX, len);
	free(raw);
	return out;
}

/* A cursor over a metadata run in memory, in the file's byte order. */
struct meta_cursor {
	const uint8_t *p, *end;
	bool big_endian, bad;
};

static uint64_t meta_num(struct meta_cursor *c, int bytes)
{
	uint64_t v;

	if (c->bad || c->end - c->p < bytes) {
		c->bad = true;
		return 0;
	}
	v = dat_layout_get_num(c->p, bytes, c->big_endian);
	c->p += bytes;
	return v;
}

/* The next @size bytes (NULL past the end). */
static const char *meta_take(struct meta_cursor *c, uint64_t size)
{
	const uint8_t *at = c->p;

	if (c->bad || (uint64_t)(c->end - c->p) < size) {
		c->bad = true;
		return NULL;
	}
	c->p += size;
	return (const char *)at;
}

/* A NUL-terminated string of at most SYSTEM_NAME_MAX - 1 bytes. */
static const char *meta_string(struct meta_cursor *c)
{
	const uint8_t *nul = c->bad ? NULL : memchr(c->p, 0, c->end - c->p);

	if (!nul || nul - c->p >= SYSTEM_NAME_MAX) {
		c->bad = true;
		return NULL;
	}
	return meta_take(c, nul - c->p + 1);
}

/* Blocks of "size (8 bytes) + text", @count of them: each an event format of @system. */
static void parse_formats(struct meta_cursor *c, struct tep_handle *tep, uint64_t count,
			  const char *system)
{
	uint64_t size;
	const char *text;

	while (count-- && !c->bad) {
		size = meta_num(c, 8);
		text = meta_take(c, size);
		if (text) /* as libtracecmd: a format that does not parse is no error */
			tep_parse_event(tep, text, size, system);
	}
}

/* header_page's text (header_event's is not used), as read_header_files(). */
static void parse_header_info(struct meta_cursor *c, struct tep_handle *tep, int long_size)
{
	const char *tag = meta_take(c, 12);
	uint64_t size;
	const char *text;

	if (tag && memcmp(tag, "header_page", 12))
		c->bad = true;
	size = meta_num(c, 8);
	text = meta_take(c, size);
	if (text)
		tep_parse_header_page(tep, (char *)text, size, long_size);
}

static void parse_event_formats(struct meta_cursor *c, struct tep_handle *tep)
{
	uint64_t systems = meta_num(c, 4);
	const char *name;

	while (systems-- && !c->bad) {
		name = meta_string(c);
		parse_formats(c, tep, meta_num(c, 4), name);
	}
}

enum meta_kind { META_HEADER_INFO, META_FTRACE_FORMATS, META_EVENT_FORMATS };

/* Parse one metadata run. Return: false if it cannot be read, inflated or walked. */
static bool parse_meta(const struct dat_layout *l, const struct dat_meta *m, struct tep_handle *tep,
		       enum meta_kind what)
{
	struct meta_cursor c = { .big_endian = l->big_endian };
	size_t len;
	uint8_t *buf = load_meta(l, m, &len);

	if (!buf)
		return false;
	c.p = buf;
	c.end = buf + len;
	if (what == META_HEADER_INFO)
		parse_header_info(&c, tep, l->long_size);
	else if (what == META_FTRACE_FORMATS)
		parse_formats(&c, tep, meta_num(&c, 4), "ftrace");
	else
		parse_event_formats(&c, tep);
	free(buf);
	return !c.bad;
}

int dat_direct_tep(const struct dat_layout *l, const char *path, struct tep_handle **out,
		   struct vpmc__errbuf *err)
{
	struct tep_handle *tep = tep_alloc();
	bool ok;

	if (!tep)
		return VPMC_ERR_NOMEM;
	tep_set_file_bigendian(tep, l->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									  : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, l->long_size);
	tep_set_page_size(tep, (int)l->page_size);
	tep_set_cpus(tep, l->nr_cpus);
	ok = parse_meta(l, &l->header_info, tep, META_HEADER_INFO) &&
	     parse_meta(l, &l->ftrace_formats, tep, META_FTRACE_FORMATS) &&
	     parse_meta(l, &l->event_formats, tep, META_EVENT_FORMATS);
	if (ok && tep_get_header_timestamp_size(tep) != 8) {
		tep_free(tep);
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: header_page has no 8-byte time stamp "
				       "(libtracecmd's update_page_info() refuses it)", path);
	}
	if (!ok) {
		tep_free(tep);
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: its event formats cannot be read (a "
				       "block past its section, a section that does not inflate, or a "
				       "system name over %d bytes)", path, SYSTEM_NAME_MAX - 1);
	}
	*out = tep;
	return 0;
}

/* The commit word's size kbuffer takes: init_cpu_data()'s, 8 bytes if header_page says so,
 * else 4 (read_header_files(): a kernel long if header_page is not read). */
static int commit_size(struct tep_handle *tep, const struct dat_layout *l)
{
	int size = tep_get_header_page_size(tep);

	return (size ? size : l->long_size) == 8 ? 8 : 4;
}

int dat_direct_page_format(const struct dat_layout *l, struct dat_page_format *f)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return VPMC_ERR_NOMEM;
	tep_set_long_size(tep, l->long_size);
	parse_meta(l, &l->header_info, tep, META_HEADER_INFO);
	f->long_size = commit_size(tep, l);
	f->big_endian = l->big_endian;
	f->old_format = tep_is_old_format(tep);
	tep_free(tep);
	return 0;
}

void dat_direct_close(struct dat_direct *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nr_cpus; i++) {
		free(p->cpu[i].buf);
		free(p->cpu[i].zbuf);
	}
	free(p->cpu);
	free(p->seen);
	free(p);
}

/* CPU @i's reader: where its data is, a buffer. */
static int open_cpu(struct dat_direct *p, const struct dat_layout *l, int i)
{
	struct pages_cpu *c = &p->cpu[i];
	/* compressed: a page's start from the chunk before, then a chunk inflated (a chunk's header
	 * may claim more than it inflates to: calloc()'s pages are only resident once written) */
	uint64_t chunk = l->max_chunk < CHUNK_BUF_MAX ? l->max_chunk : CHUNK_BUF_MAX;
	uint64_t cap = l->compressed ? chunk + l->page_size : BATCH_PAGES * l->page_size;
	uint8_t count[4];

	c->id = l->cpu[i].id;
	/* a page more: the last page of a batch cut short is read as zeros after it; compressed,
	 * two pages to begin with (read_chunk() grows it) */
	c->buf_size = l->compressed ? 2 * p->page_size : cap + p->page_size;
	c->buf = calloc(1, c->buf_size);
	c->buf_cap = cap;
	if (!c->buf)
		return VPMC_ERR_NOMEM;
	if (!l->compressed) {
		c->page = l->cpu[i].file_off;
		c->end = l->cpu[i].file_off + l->cpu[i].file_size;
	} else if (l->cpu[i].file_size) { /* a chunk count, then the chunks */
		if (!dat_layout_pread(l, l->cpu[i].file_off, count, sizeof(count)))
			return VPMC_ERR_IO;
		c->chunks = (uint32_t)dat_layout_get_num(count, 4, l->big_endian);
		c->chunk_at = l->cpu[i].file_off + 4;
		c->end = UINT64_MAX; /* the data ends with its last chunk */
	}
	return 0;
}

int dat_direct_open(struct dat_direct **out, const struct dat_layout *l, struct tep_handle *tep)
{
	struct dat_direct *p = calloc(1, sizeof(*p));
	int i, ret;

	if (!p)
		return VPMC_ERR_NOMEM;
	p->fd = l->fd;
	p->big_endian = l->big_endian;
	p->long_size = commit_size(tep, l);
	p->fmt = (struct dat_page_format){ p->long_size, l->big_endian, tep_is_old_format(tep) };
	p->seen = malloc(2 * l->page_size / 8 + 1);
	p->algo = l->compressed ? dat_algo_of(l->compression) : DAT_ALGO_NONE;
	p->page_size = l->page_size;
	p->cpu = calloc(l->nr_cpus, sizeof(*p->cpu));
	if (!p->cpu || !p->seen) {
		free(p->cpu);
		free(p->seen);
		free(p);
		return VPMC_ERR_NOMEM;
	}
	p->nr_cpus = l->nr_cpus;
	for (i = 0; i < p->nr_cpus; i++) {
		ret = open_cpu(p, l, i);
		if (ret) {
			dat_direct_close(p);
			return ret;
		}
	}
	*out = p;
	return 0;
}

/* Zeros from @len to the end of its page: a batch or chunk cut short reads no stale data. */
static void pad_page(struct dat_direct *p, struct pages_cpu *c, uint64_t len)
{
	memset(c->buf + len, 0, p->page_size - (len + p->page_size - 1) % p->page_size - 1);
}

/* The next BATCH_PAGES pages of uncompressed data, from c->page on. */
static int read_batch(struct dat_direct *p, struct pages_cpu *c)
{
	uint64_t len = c->end - c->page;

	if (len > BATCH_PAGES * p->page_size)
		len = BATCH_PAGES * p->page_size;
	if (pread(p->fd, c->buf, len, (off_t)c->page) != (ssize_t)len)
		return VPMC_ERR_IO;
	pad_page(p, c, len);
	c->buf_off = c->page;
	c->buf_len = len;
	return 0;
}

/* At least @size bytes of buffer, the new ones zeros (as calloc()'s: a page past the data is
 * read as they are). */
static int grow_buf(struct pages_cpu *c, uint64_t size)
{
	uint8_t *b;

	if (size <= c->buf_size)
		return 0;
	b = realloc(c->buf, size);
	if (!b)
		return VPMC_ERR_NOMEM;
	memset(b + c->buf_size, 0, size - c->buf_size);
	c->buf = b;
	c->buf_size = size;
	return 0;
}

/* The next compressed chunk (compressed size (4), size (4), data), inflated after the
 * buf_len bytes in the buffer. */
static int read_chunk(struct dat_direct *p, struct pages_cpu *c, int cpu)
{
	uint8_t head[8];
	uint64_t csize, size;
	int64_t got;
	void *z;

	p->bad = (struct dat_direct_loss){ cpu, c->chunk + 1, c->chunks, c->chunk_at,
					    c->buf_off + c->buf_len, 0, false, false };
	if (pread(p->fd, head, sizeof(head), (off_t)c->chunk_at) != sizeof(head))
		return VPMC_ERR_IO;
	csize = dat_layout_get_num(head, 4, p->big_endian);
	size = dat_layout_get_num(head + 4, 4, p->big_endian);
	if (csize > c->zcap) {
		z = realloc(c->zbuf, csize);
		if (!z)
			return VPMC_ERR_NOMEM;
		c->zbuf = z;
		c->zcap = csize;
	}
	if (pread(p->fd, c->zbuf, csize, (off_t)(c->chunk_at + 8)) != (ssize_t)csize)
		return VPMC_ERR_IO;
	/* at most what the header says, and what the buffer holds: CHUNK_BUF_MAX, or the largest
	 * header when less (a chunk inflating to more is corrupt) */
	if (size > c->buf_cap - c->buf_len)
		size = c->buf_cap - c->buf_len;
	size = dat_inflate_bound(p->algo, c->zbuf, csize, size);
	if (grow_buf(c, c->buf_len + size + p->page_size))
		return VPMC_ERR_NOMEM;
	got = dat_inflate(p->algo, c->zbuf, csize, c->buf + c->buf_len, size);
	if (got < 0)
		return DAT_DIRECT_CORRUPT;
	c->buf_len += (uint64_t)got;
	c->chunk_at += 8 + csize;
	c->chunk++;
	return 0;
}

/*
 * Compressed data is one stream, the chunks inflated one after the other (trace-cmd.dat.v7(5);
 * Debian's libtracecmd 1.3.1 maps pages per chunk instead and misreads a page split between
 * two): make the page at c->page whole in the buffer, keeping its bytes already there and
 * inflating chunks after them. Return: 0, 1 (the data ends), or an error.
 */
static int fill_compressed(struct dat_direct *p, struct pages_cpu *c, int cpu)
{
	uint64_t have = c->buf_off + c->buf_len > c->page ? c->buf_off + c->buf_len - c->page : 0;
	int ret;

	if (have)
		memmove(c->buf, c->buf + (c->page - c->buf_off), have);
	c->buf_off = c->page;
	c->buf_len = have;
	while (c->buf_len < p->page_size && c->chunk < c->chunks) {
		ret = read_chunk(p, c, cpu);
		if (ret)
			return ret;
	}
	if (!c->buf_len)
		return 1;
	pad_page(p, c, c->buf_len);
	return 0;
}

/* Load the page at c->page into cur, reading the next batch or chunk when the buffer ends. */
static int load_page(struct dat_direct *p, struct pages_cpu *c, int cpu)
{
	uint64_t size, at;
	uint8_t *page;
	int ret;

	if (p->algo == DAT_ALGO_NONE && (c->page < c->buf_off || c->page - c->buf_off >= c->buf_len))
		ret = read_batch(p, c);
	else if (p->algo != DAT_ALGO_NONE && c->page + p->page_size > c->buf_off + c->buf_len)
		ret = fill_compressed(p, c, cpu);
	else
		ret = 0;
	if (ret)
		return ret;
	/* update_page_info(): "bad page read" (kbuffer_subbuffer_size() over a page) ends the CPU's
	 * records. Checked before kbuffer_load_subbuffer(): with the missed-events count stored
	 * (commit bit 30) it reads that count past the data, wherever the size says. */
	page = c->buf + (c->page - c->buf_off);
	size = dat_layout_get_num(page + 8, p->long_size, p->big_endian) & DAT_COMMIT_MASK;
	if (size > p->page_size) {
		p->bad = (struct dat_direct_loss){ cpu, c->chunk, c->chunks, c->chunk_at, c->page,
						    (int)size, false, false };
		return DAT_DIRECT_CORRUPT;
	}
	/* kbuffer reads past the page into the next, or the zeros after the buffer's last: only
	 * a loop of its without end is refused (a loop through a record ends at the record) */
	if (dat_page_check(page, 2 * p->page_size, &p->fmt, p->seen, &at) == DAT_PAGE_ENDLESS) {
		p->bad = (struct dat_direct_loss){ cpu, c->chunk, c->chunks, c->chunk_at, c->page,
						    0, false, true };
		return DAT_DIRECT_CORRUPT;
	}
	dat_page_load(&c->cur, page, 2 * p->page_size, &p->fmt);
	c->loaded = true;
	c->last_event = -1;
	return 0;
}

int dat_direct_read(struct dat_direct *p, int cpu, struct tep_record *r)
{
	struct pages_cpu *c = &p->cpu[cpu];
	const struct dat_page_cursor *k = &c->cur;
	const uint8_t *page_end, *data;
	int ret;

	for (;;) {
		if (c->loaded) {
			if (k->curr < k->size) /* kbuffer_read_event() */
				break;
			c->loaded = false;
			c->page += p->page_size;
		}
		if (c->page >= c->end)
			return 0;
		ret = load_page(p, c, cpu);
		if (ret) {
			c->end = c->page; /* nothing more from this CPU */
			return ret > 0 ? 0 : ret;
		}
	}
	/* An event whose length (negative, corrupt) takes kbuffer back, not past it: its page's
	 * events would come again and again. The CPU's records end there, as at a page whose
	 * data runs past it (libtracecmd reads them forever). */
	if ((int)(k->start + k->curr) <= c->last_event) {
		p->bad = (struct dat_direct_loss){ cpu, c->chunk, c->chunks, c->chunk_at, c->page, 0,
						    true, false };
		c->loaded = false;
		c->end = c->page;
		return DAT_DIRECT_CORRUPT;
	}
	c->last_event = (int)(k->start + k->curr);
	data = k->page + k->start + k->index;
	memset(r, 0, sizeof(*r));
	r->ts = k->timestamp;
	r->size = (int)(k->next - k->index); /* kbuffer_event_size() */
	/* an event whose length runs past its page (a corrupt length): only its bytes in the
	 * page are its data (a field past them makes it a short record) */
	page_end = k->page + p->page_size;
	if (r->size < 0 || r->size > page_end - data)
		r->size = (int)(page_end - data);
	r->record_size = (int)(k->next - k->curr); /* kbuffer_curr_size() */
	r->cpu = c->id;
	r->data = (void *)data;
	r->offset = c->page + k->start + k->curr;
	/* kbuffer_missed_events(): an int, for the page's first event only */
	r->missed_events = k->curr ? 0 : (int)k->lost_events;
	dat_page_next(&c->cur);
	return 1;
}

const struct dat_direct_loss *dat_direct_loss(const struct dat_direct *p)
{
	return &p->bad;
}
