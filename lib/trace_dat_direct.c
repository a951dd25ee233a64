/* trace_dat_direct.c - A v6 trace.dat read with libtraceevent alone (see trace_dat_direct.h):
 * event formats as libtracecmd's read_header_files() and read_event_files() parse them, pages
 * as its tracecmd_peek_data() and get_next_page() read them.
 *
 * Each CPU reads its data BATCH_PAGES pages at a time into its own buffer: memory is fixed per
 * CPU whatever the trace's length, and a record's data stays valid until that CPU's next read.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <kbuffer.h>

#include "trace_dat_direct.h"

#define BATCH_PAGES 16
#define FORMAT_MAX (16U << 20) /* an event format's text, bytes (the kernel's are ~2 KiB) */
#define SYSTEM_NAME_MAX 256

/* Options libtracecmd's handle_options() reads without touching a record's timestamp:
 * CPUSTAT 2, BUFFER 3 (other instances), TRACECLOCK 4 (printing), UNAME 5, HOOK 6, CPUCOUNT 8,
 * VERSION 9, PROCMAPS 10, TRACEID 11. Not: DATE 1, OFFSET 7, TIME_SHIFT 12, GUEST 13,
 * TSC2NSEC 14, and anything newer. */
#define HARMLESS_OPTIONS ((1ULL << 2) | (1ULL << 3) | (1ULL << 4) | (1ULL << 5) | (1ULL << 6) | \
			  (1ULL << 8) | (1ULL << 9) | (1ULL << 10) | (1ULL << 11))

struct pages_cpu {
	struct kbuffer *kbuf;
	uint8_t *buf;       /* BATCH_PAGES pages read from the file at buf_off, buf_len bytes */
	uint64_t buf_off, buf_len;
	uint64_t page;      /* file offset of the page kbuf holds (loaded), or reads next */
	uint64_t end;       /* file offset where the CPU's data ends */
	bool loaded;
};

struct dat_direct {
	int fd;
	uint64_t page_size;
	int nr_cpus;
	struct pages_cpu *cpu;
};

bool dat_direct_usable(const struct dat_layout *l)
{
	return l->version == 6 && !l->compressed && l->nr_cpus > 0 && l->page_size &&
	       !(l->options & ~HARMLESS_OPTIONS);
}

/* A cursor over the file's header, in its byte order. */
struct header_cursor {
	const struct dat_layout *l;
	uint64_t pos;
	bool bad;
};

static uint64_t header_num(struct header_cursor *c, int bytes)
{
	uint8_t b[8];
	uint64_t v = 0;
	int i;

	if (c->bad || !dat_layout_pread(c->l, c->pos, b, bytes)) {
		c->bad = true;
		return 0;
	}
	c->pos += bytes;
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)b[c->l->big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

/* The next block, "size (8 bytes) + text": parse its text as an event format of @system. */
static void parse_format(struct header_cursor *c, struct tep_handle *tep, const char *system)
{
	uint64_t size = header_num(c, 8);
	char *text;

	if (c->bad || size > FORMAT_MAX || !(text = malloc(size ? size : 1))) {
		c->bad = true;
		return;
	}
	if (dat_layout_pread(c->l, c->pos, text, size))
		tep_parse_event(tep, text, size, system); /* as libtracecmd: a failure is no error */
	else
		c->bad = true;
	c->pos += size;
	free(text);
}

static void read_system_name(struct header_cursor *c, char name[SYSTEM_NAME_MAX])
{
	size_t n = 0;

	while (!c->bad && n < SYSTEM_NAME_MAX) {
		if (!dat_layout_pread(c->l, c->pos + n, name + n, 1))
			c->bad = true;
		else if (!name[n++])
			break;
	}
	if (n == SYSTEM_NAME_MAX)
		c->bad = true;
	c->pos += n;
}

int dat_direct_tep(const struct dat_layout *l, const char *path, struct tep_handle **out,
		   struct vpmc__errbuf *err)
{
	struct header_cursor c = { .l = l, .pos = l->header_page_off };
	struct tep_handle *tep = tep_alloc();
	char name[SYSTEM_NAME_MAX], *text;
	uint64_t n, systems;

	if (!tep)
		return VPMC_ERR_NOMEM;
	tep_set_file_bigendian(tep, l->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ? TEP_BIG_ENDIAN
									  : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, l->long_size);
	tep_set_page_size(tep, (int)l->page_size);
	tep_set_cpus(tep, l->nr_cpus);
	text = l->header_page_size <= FORMAT_MAX ? malloc(l->header_page_size + 1) : NULL;
	if (!text || !dat_layout_pread(l, l->header_page_off, text, l->header_page_size))
		c.bad = true;
	else
		tep_parse_header_page(tep, text, l->header_page_size, l->long_size);
	free(text);
	c.pos = l->ftrace_formats_off;
	for (n = header_num(&c, 4); n-- && !c.bad;)
		parse_format(&c, tep, "ftrace");
	c.pos = l->event_formats_off;
	for (systems = header_num(&c, 4); systems-- && !c.bad;) {
		read_system_name(&c, name);
		for (n = header_num(&c, 4); n-- && !c.bad;)
			parse_format(&c, tep, name);
	}
	if (!c.bad && tep_get_header_timestamp_size(tep) != 8) {
		tep_free(tep);
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: header_page has no 8-byte time stamp "
				       "(libtracecmd's update_page_info() refuses it)", path);
	}
	if (c.bad) {
		tep_free(tep);
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: corrupt trace.dat: cannot read its event formats (a "
				       "format over %u bytes, or a system name over %d)", path,
				       FORMAT_MAX, SYSTEM_NAME_MAX - 1);
	}
	*out = tep;
	return 0;
}

void dat_direct_close(struct dat_direct *p)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < p->nr_cpus; i++) {
		if (p->cpu[i].kbuf)
			kbuffer_free(p->cpu[i].kbuf);
		free(p->cpu[i].buf);
	}
	free(p->cpu);
	free(p);
}

int dat_direct_open(struct dat_direct **out, const struct dat_layout *l, struct tep_handle *tep)
{
	struct dat_direct *p = calloc(1, sizeof(*p));
	/* init_cpu_data(): the header page's commit is a kernel long (read_header_files()) */
	int long_size = tep_get_header_page_size(tep) ? tep_get_header_page_size(tep)
						       : l->long_size;
	struct pages_cpu *c;
	int i;

	if (!p)
		return VPMC_ERR_NOMEM;
	p->fd = l->fd;
	p->page_size = l->page_size;
	p->cpu = calloc(l->nr_cpus, sizeof(*p->cpu));
	if (!p->cpu) {
		free(p);
		return VPMC_ERR_NOMEM;
	}
	p->nr_cpus = l->nr_cpus;
	for (i = 0; i < p->nr_cpus; i++) {
		c = &p->cpu[i];
		c->page = l->cpu[i].file_off;
		c->end = l->cpu[i].file_off + l->cpu[i].file_size;
		c->kbuf = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
					tep_is_file_bigendian(tep) ? KBUFFER_ENDIAN_BIG
								   : KBUFFER_ENDIAN_LITTLE);
		/* a page more: a last page cut short by the file is read as zeros after it */
		c->buf = calloc(BATCH_PAGES + 1, p->page_size);
		if (!c->kbuf || !c->buf) {
			dat_direct_close(p);
			return VPMC_ERR_NOMEM;
		}
		if (tep_is_old_format(tep))
			kbuffer_set_old_format(c->kbuf);
	}
	*out = p;
	return 0;
}

/* Load the page at c->page into kbuf, reading the next batch when the buffer lacks it. */
static int load_page(struct dat_direct *p, struct pages_cpu *c)
{
	uint64_t len;
	ssize_t n;

	if (c->page < c->buf_off || c->page - c->buf_off >= c->buf_len) {
		len = c->end - c->page;
		if (len > BATCH_PAGES * p->page_size)
			len = BATCH_PAGES * p->page_size;
		n = pread(p->fd, c->buf, len, (off_t)c->page);
		if (n != (ssize_t)len)
			return VPMC_ERR_IO;
		memset(c->buf + len, 0, p->page_size - (len - 1) % p->page_size - 1);
		c->buf_off = c->page;
		c->buf_len = len;
	}
	kbuffer_load_subbuffer(c->kbuf, c->buf + (c->page - c->buf_off));
	c->loaded = true;
	return 0;
}

int dat_direct_read(struct dat_direct *p, int cpu, struct tep_record *r)
{
	struct pages_cpu *c = &p->cpu[cpu];
	unsigned long long ts;
	void *data;
	int ret;

	for (;;) {
		if (c->loaded) {
			data = kbuffer_read_event(c->kbuf, &ts);
			if (data)
				break;
			c->loaded = false;
			c->page += p->page_size;
		}
		if (c->page >= c->end)
			return 0;
		ret = load_page(p, c);
		if (ret)
			return ret;
	}
	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->size = kbuffer_event_size(c->kbuf);
	r->record_size = kbuffer_curr_size(c->kbuf);
	r->cpu = cpu;
	r->data = data;
	r->offset = c->page + kbuffer_curr_offset(c->kbuf);
	r->missed_events = kbuffer_missed_events(c->kbuf);
	kbuffer_next_event(c->kbuf, NULL);
	return 1;
}
