/* trace_dat.c - trace.dat as a stream of kvm records, read with libtracecmd.
 *
 * Records are pulled CPU by CPU with tracecmd_read_data() and merged by timestamp here (what
 * tracecmd_read_next_data() does, which the public header does not declare). Each record's
 * fields are read directly from its binary layout (tep_read_number_field() at offsets looked up
 * once per event), never through the printed text.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "trace_dat.h"

enum dat_field {
	F_VCPU,   /* vcpu_id; apicid of kvm_apic_accept_irq */
	F_REASON, /* exit_reason / exit_code */
	F_ISA,    /* KVM_ISA_VMX 1, KVM_ISA_SVM 2 */
	F_RIP,
	F_WRITE,  /* write / rw / load */
	F_MSR,
	F_DATA,
	F_GP,     /* kvm_msr exception */
	F_LEN,
	F_INSN,
	F_FLAGS,
	F_FAILED,
	F_VECTOR,
	F_REINJ,
	F_DM,
	F_REG,
	F_PORT,
	F_SIZE,
	F_COUNT,
	F_UEXIT,  /* kvm_userspace_exit reason */
	F_ERRNO,
	F_NR
};

/* Which fields a kind reads, under the names of the kernel's trace.h (older names second). */
static const struct {
	enum kvm_rec_kind kind;
	enum dat_field slot;
	bool optional;  /* absent in older layouts: left at its default */
	const char *names[2];
} field_specs[] = {
	{ KVM_REC_ENTRY, F_VCPU, true, { "vcpu_id" } },
	{ KVM_REC_EXIT, F_VCPU, true, { "vcpu_id" } },
	{ KVM_REC_EXIT, F_REASON, false, { "exit_reason" } },
	{ KVM_REC_EXIT, F_ISA, true, { "isa" } },
	{ KVM_REC_EXIT, F_RIP, false, { "guest_rip" } },
	{ KVM_REC_NESTED_VMEXIT, F_VCPU, true, { "vcpu_id" } },
	{ KVM_REC_NESTED_VMEXIT, F_REASON, false, { "exit_reason", "exit_code" } },
	{ KVM_REC_NESTED_VMEXIT, F_ISA, true, { "isa" } },
	{ KVM_REC_NESTED_VMEXIT, F_RIP, false, { "guest_rip", "rip" } },
	{ KVM_REC_NESTED_VMEXIT_INJECT, F_REASON, false, { "exit_code" } },
	{ KVM_REC_NESTED_VMEXIT_INJECT, F_ISA, true, { "isa" } },
	{ KVM_REC_MSR, F_WRITE, false, { "write" } },
	{ KVM_REC_MSR, F_MSR, false, { "ecx" } },
	{ KVM_REC_MSR, F_DATA, false, { "data" } },
	{ KVM_REC_MSR, F_GP, true, { "exception" } },
	{ KVM_REC_EMULATE_INSN, F_RIP, false, { "rip" } },
	{ KVM_REC_EMULATE_INSN, F_LEN, false, { "len" } },
	{ KVM_REC_EMULATE_INSN, F_INSN, false, { "insn" } },
	{ KVM_REC_EMULATE_INSN, F_FLAGS, false, { "flags" } },
	{ KVM_REC_EMULATE_INSN, F_FAILED, false, { "failed" } },
	{ KVM_REC_INJ_EXCEPTION, F_VECTOR, false, { "exception" } },
	{ KVM_REC_INJ_EXCEPTION, F_REINJ, true, { "reinjected" } },
	{ KVM_REC_INJ_VIRQ, F_VECTOR, false, { "vector", "irq" } },
	{ KVM_REC_INJ_VIRQ, F_REINJ, true, { "reinjected" } },
	{ KVM_REC_APIC_ACCEPT_IRQ, F_VCPU, false, { "apicid" } },
	{ KVM_REC_APIC_ACCEPT_IRQ, F_DM, true, { "dm" } },
	{ KVM_REC_APIC_ACCEPT_IRQ, F_VECTOR, false, { "vec" } },
	{ KVM_REC_EOI, F_VECTOR, false, { "vector" } },
	{ KVM_REC_APIC, F_WRITE, false, { "rw" } },
	{ KVM_REC_APIC, F_REG, false, { "reg" } },
	{ KVM_REC_APIC, F_DATA, false, { "val" } },
	{ KVM_REC_PIO, F_WRITE, false, { "rw" } },
	{ KVM_REC_PIO, F_PORT, false, { "port" } },
	{ KVM_REC_PIO, F_SIZE, false, { "size" } },
	{ KVM_REC_PIO, F_COUNT, false, { "count" } },
	{ KVM_REC_USERSPACE_EXIT, F_UEXIT, false, { "reason" } },
	{ KVM_REC_USERSPACE_EXIT, F_ERRNO, true, { "errno" } },
	{ KVM_REC_FPU, F_WRITE, false, { "load" } },
};

/* What one event id needs, looked up at its first record. */
struct dat_event {
	bool ready;
	enum kvm_rec_kind kind;
	char name[KVM_REC_NAME_MAX];
	struct tep_format_field *field[F_NR];
	const char *missing; /* a required field the format lacks: records are rejected */
};

struct trace_dat {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	char *path;
	int nr_cpus;
	struct tep_record **next;  /* per CPU: the record to merge next, NULL when exhausted */
	struct tep_record *held;   /* returned after the KVM_REC_LOST that precedes it */
	int held_cpu;              /* the CPU index of held */
	int refill;                /* CPU index whose next record is still to be read, or -1 */
	struct dat_event *events;  /* indexed by event id */
	int nr_events;
};

void trace_dat_close(struct trace_dat *d)
{
	int i;

	if (!d)
		return;
	if (d->next) {
		for (i = 0; i < d->nr_cpus; i++)
			tracecmd_free_record(d->next[i]);
	}
	tracecmd_free_record(d->held);
	if (d->handle)
		tracecmd_close(d->handle);
	free(d->next);
	free(d->events);
	free(d->path);
	free(d);
}

/* libtracecmd only says NULL; tell a missing file from one it cannot parse. */
static int open_failure(const char *path, struct vpmc__errbuf *err)
{
	int fd = open(path, O_RDONLY);
	char magic[3];
	ssize_t n;

	if (fd < 0)
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: %s", path, strerror(errno));
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 0)
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: %s", path, strerror(errno));
	if (n < (ssize_t)sizeof(magic) || memcmp(magic, "\x17\x08\x44", 3))
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: not a trace.dat file (no \\x17\\x08D magic)", path);
	return vpmc__set_error(err, VPMC_ERR_PARSE,
			       "%s: libtracecmd cannot read this trace.dat (truncated or corrupt)",
			       path);
}

/*
 * libtracecmd 1.3.1 crashes on a version 6 file whose CPU data runs past the end of the file
 * (a recording cut short): read_cpu_data() fails after allocating cpu_data, and the
 * tracecmd_close() in tracecmd_open_fd()'s error path then closes fd 0 and follows a NULL
 * list. It also trusts header block sizes (malloc(size) of whatever the file says). So walk
 * the v6 header (trace-cmd.dat.v6(5)) first: every block inside the file, and the
 * "flyrecord" CPU data too.
 */
struct v6_cursor {
	int fd;
	off_t pos, size;
	bool big_endian, bad;
	uint64_t over_size; /* a block that runs past the end of the file: its size, ... */
	off_t over_at;      /* ... and where it starts */
};

/* Step over @size bytes; a block past the end of the file stops the walk. */
static void v6_advance(struct v6_cursor *c, uint64_t size)
{
	if (c->bad)
		return;
	if (size > (uint64_t)(c->size - c->pos)) {
		c->over_size = size;
		c->over_at = c->pos;
		c->bad = true;
		return;
	}
	c->pos += (off_t)size;
}

static uint64_t v6_num(struct v6_cursor *c, int bytes)
{
	uint8_t b[8];
	uint64_t v = 0;
	int i;

	if (c->bad || c->pos + bytes > c->size || pread(c->fd, b, bytes, c->pos) != bytes) {
		c->bad = true;
		return 0;
	}
	c->pos += bytes;
	for (i = 0; i < bytes; i++)
		v |= (uint64_t)b[c->big_endian ? bytes - 1 - i : i] << (8 * i);
	return v;
}

static bool v6_expect(struct v6_cursor *c, const char *tag, size_t len)
{
	char buf[16];

	if (c->bad || len > sizeof(buf) || c->pos + (off_t)len > c->size ||
	    pread(c->fd, buf, len, c->pos) != (ssize_t)len || memcmp(buf, tag, len)) {
		c->bad = true;
		return false;
	}
	c->pos += len;
	return true;
}

static void v6_skip_string(struct v6_cursor *c)
{
	char buf[64];
	ssize_t n, i;

	while (!c->bad) {
		n = pread(c->fd, buf, sizeof(buf), c->pos);
		if (n <= 0) {
			c->bad = true;
			return;
		}
		for (i = 0; i < n && buf[i]; i++)
			;
		c->pos += i < n ? i + 1 : n;
		if (i < n)
			return;
	}
}

/* Skip @count blocks of "size (@size_bytes) + data". */
static void v6_skip_blocks(struct v6_cursor *c, uint64_t count, int size_bytes)
{
	while (count-- && !c->bad)
		v6_advance(c, v6_num(c, size_bytes));
}

/*
 * Every ring-buffer page's commit (data size) fits the page: libtracecmd rejects a bigger one
 * ("bad page read") in init_cpu() and crashes in the cleanup, or, past the first page, ends
 * that CPU's records early without an error.
 */
static int v6_check_pages(struct v6_cursor *c, uint64_t off, uint64_t size, uint64_t page_size,
			  int long_size, const char *path, struct vpmc__errbuf *err)
{
	off_t table_pos = c->pos;
	uint64_t p, commit;

	if (!page_size)
		return 0;
	for (p = off; p < off + size && !c->bad; p += page_size) {
		c->pos = (off_t)p + 8; /* after the page's time stamp */
		commit = v6_num(c, long_size) & ((1ULL << 27) - 1); /* kbuffer COMMIT_MASK */
		if (!c->bad && commit > page_size)
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: corrupt trace.dat: the ring-buffer page at byte "
					       "%llu holds %llu bytes, more than a page (%llu)", path,
					       (unsigned long long)p, (unsigned long long)commit,
					       (unsigned long long)page_size);
	}
	c->bad = false;
	c->pos = table_pos;
	return 0;
}

/* 0, or VPMC_ERR_PARSE if the file is a v6 trace.dat that libtracecmd must not see. */
static int v6_check(const char *path, struct vpmc__errbuf *err)
{
	struct v6_cursor c = { .pos = 10 };
	uint64_t systems, cpus, id, off, size, page_size;
	int long_size, ret;
	struct stat st;
	char ver[2];

	c.fd = open(path, O_RDONLY);
	if (c.fd < 0)
		return 0;
	if (fstat(c.fd, &st) || pread(c.fd, ver, 2, 10) != 2 || memcmp(ver, "6", 2))
		goto out;
	c.size = st.st_size;
	c.pos = 12;
	c.big_endian = v6_num(&c, 1);
	long_size = (int)v6_num(&c, 1);
	page_size = v6_num(&c, 4);
	if (long_size != 4 && long_size != 8)
		goto out;
	if (!v6_expect(&c, "header_page", 12))
		goto out;
	v6_skip_blocks(&c, 1, 8);
	if (!v6_expect(&c, "header_event", 13))
		goto out;
	v6_skip_blocks(&c, 1, 8);
	v6_skip_blocks(&c, v6_num(&c, 4), 8);          /* ftrace event formats */
	for (systems = v6_num(&c, 4); systems-- && !c.bad;) {
		v6_skip_string(&c);
		v6_skip_blocks(&c, v6_num(&c, 4), 8);  /* event formats of a system */
	}
	v6_skip_blocks(&c, 1, 4);                      /* kallsyms */
	v6_skip_blocks(&c, 1, 4);                      /* printk formats */
	v6_skip_blocks(&c, 1, 8);                      /* saved cmdlines */
	cpus = v6_num(&c, 4);
	if (!c.bad && v6_expect(&c, "options  ", 10)) {
		while (!c.bad && (id = v6_num(&c, 2))) {
			size = v6_num(&c, 4);
			if (id == 8 && size == 4) /* TRACECMD_OPTION_CPUCOUNT */
				cpus = v6_num(&c, 4);
			else
				v6_advance(&c, size);
		}
	} else if (!c.over_size) {
		c.bad = false; /* no options: "flyrecord" comes right away */
	}
	if (c.over_size) {
		close(c.fd);
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: truncated or corrupt trace.dat: a block of %llu bytes at "
				       "byte %llu runs past the end of the file (%llu bytes)", path,
				       (unsigned long long)c.over_size, (unsigned long long)c.over_at,
				       (unsigned long long)c.size);
	}
	if (!v6_expect(&c, "flyrecord", 10))
		goto out;
	while (cpus-- && !c.bad) {
		off = v6_num(&c, 8);
		size = v6_num(&c, 8);
		if (!c.bad && size && (off > (uint64_t)c.size || size > (uint64_t)c.size - off)) {
			close(c.fd);
			return vpmc__set_error(err, VPMC_ERR_PARSE,
					       "%s: truncated trace.dat: CPU data ends at byte %llu, "
					       "the file has %llu", path,
					       (unsigned long long)(off + size),
					       (unsigned long long)c.size);
		}
		ret = c.bad ? 0 : v6_check_pages(&c, off, size, page_size, long_size, path, err);
		if (ret) {
			close(c.fd);
			return ret;
		}
	}
out:
	close(c.fd);
	return 0;
}

int trace_dat_open(struct trace_dat **out, const char *path, struct vpmc__errbuf *err)
{
	struct trace_dat *d = calloc(1, sizeof(*d));
	int cpu, ret;

	if (!d)
		return VPMC_ERR_NOMEM;
	/* The library never prints: libtracecmd and libtraceevent warn on stderr by default. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	d->path = strdup(path);
	if (!d->path)
		goto nomem;
	ret = v6_check(path, err);
	if (ret) {
		trace_dat_close(d);
		return ret;
	}
	d->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->handle) {
		trace_dat_close(d);
		return open_failure(path, err);
	}
	d->tep = tracecmd_get_tep(d->handle);
	d->nr_cpus = tep_get_cpus(d->tep);
	if (d->nr_cpus < 0)
		d->nr_cpus = 0;
	d->next = calloc(d->nr_cpus ? d->nr_cpus : 1, sizeof(*d->next));
	if (!d->next)
		goto nomem;
	for (cpu = 0; cpu < d->nr_cpus; cpu++)
		d->next[cpu] = tracecmd_read_data(d->handle, cpu);
	d->refill = -1;
	*out = d;
	return 0;
nomem:
	trace_dat_close(d);
	return VPMC_ERR_NOMEM;
}

static struct tep_format_field *find_field(struct tep_event *ev, const char *const names[2])
{
	struct tep_format_field *f = NULL;
	int i;

	for (i = 0; i < 2 && names[i] && !f; i++)
		f = tep_find_field(ev, names[i]);
	return f;
}

static struct dat_event *event_info(struct trace_dat *d, struct tep_event *ev)
{
	struct dat_event *de;
	size_t i;

	if (ev->id < 0)
		return NULL;
	if (ev->id >= d->nr_events) {
		int n = ev->id + 1;
		struct dat_event *e = realloc(d->events, n * sizeof(*e));

		if (!e)
			return NULL;
		memset(e + d->nr_events, 0, (n - d->nr_events) * sizeof(*e));
		d->events = e;
		d->nr_events = n;
	}
	de = &d->events[ev->id];
	if (de->ready)
		return de;
	de->ready = true;
	if (ev->system && strcmp(ev->system, "kvm")) {
		snprintf(de->name, sizeof(de->name), "%s:%s", ev->system, ev->name);
		de->kind = KVM_REC_OTHER;
		return de;
	}
	snprintf(de->name, sizeof(de->name), "%s", ev->name);
	de->kind = kvm_record_kind(ev->name);
	for (i = 0; i < ARRAY_SIZE(field_specs); i++) {
		if (field_specs[i].kind != de->kind)
			continue;
		de->field[field_specs[i].slot] = find_field(ev, field_specs[i].names);
		if (!de->field[field_specs[i].slot] && !field_specs[i].optional && !de->missing)
			de->missing = field_specs[i].names[0];
	}
	return de;
}

static bool field_fits(const struct tep_format_field *f, const struct tep_record *r)
{
	return f->offset >= 0 && f->size > 0 && f->offset + f->size <= r->size;
}

/* The field as an unsigned value (signed fields sign-extended); @dflt if the layout lacks it. */
static int get(const struct dat_event *de, enum dat_field slot, const struct tep_record *r,
	       uint64_t dflt, uint64_t *val)
{
	struct tep_format_field *f = de->field[slot];
	unsigned long long v;

	if (!f) {
		*val = dflt;
		return 0;
	}
	if (!field_fits(f, r) || tep_read_number_field(f, r->data, &v))
		return -1;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8 && (v >> (8 * f->size - 1)) & 1)
		v |= ~0ULL << (8 * f->size);
	*val = v;
	return 0;
}

static int dat_error(struct trace_dat *d, const struct tep_record *r, const char *what,
		     const char *name, struct vpmc__errbuf *err)
{
	return vpmc__set_error(err, VPMC_ERR_PARSE, "%s: cpu %d ts %llu.%09llu: %s%s%s", d->path,
			       r->cpu, r->ts / 1000000000ULL, r->ts % 1000000000ULL, what,
			       name ? " " : "", name ? name : "");
}

/* kvm_emulate_insn: the bytes of the fixed insn[15] array, len of them meaningful. */
static int fill_insn(const struct dat_event *de, const struct tep_record *r,
		     struct kvm_record *rec)
{
	struct tep_format_field *f = de->field[F_INSN];
	uint64_t len, flags, failed;
	size_t n;

	if (get(de, F_LEN, r, 0, &len) || get(de, F_FLAGS, r, 0, &flags) ||
	    get(de, F_FAILED, r, 0, &failed) || get(de, F_RIP, r, 0, &rec->rip) ||
	    !field_fits(f, r))
		return -1;
	n = len < (uint64_t)f->size ? (size_t)len : (size_t)f->size;
	if (n > KVM_INSN_MAX)
		n = KVM_INSN_MAX;
	memcpy(rec->insn, (const uint8_t *)r->data + f->offset, n);
	rec->insn_len = (uint8_t)n;
	rec->mode = kvm_insn_mode_from_flags((unsigned int)flags);
	rec->failed = failed != 0;
	return 0;
}

static int fill_fields(const struct dat_event *de, const struct tep_record *r,
		       struct kvm_record *rec)
{
	uint64_t vcpu, reason, isa, write, gp, vec, reinj, dm, uexit, err_no, v;

	if (get(de, F_VCPU, r, UINT64_MAX, &vcpu) || get(de, F_REASON, r, 0, &reason) ||
	    get(de, F_ISA, r, 1, &isa) || get(de, F_WRITE, r, 0, &write) ||
	    get(de, F_GP, r, 0, &gp) || get(de, F_VECTOR, r, 0, &vec) ||
	    get(de, F_REINJ, r, 0, &reinj) || get(de, F_DM, r, 0, &dm) ||
	    get(de, F_UEXIT, r, 0, &uexit) || get(de, F_ERRNO, r, 0, &err_no) ||
	    get(de, F_DATA, r, 0, &rec->data))
		return -1;
	rec->vcpu = vcpu > INT32_MAX ? -1 : (int32_t)vcpu;
	rec->write = write != 0;
	rec->gp = gp != 0;
	rec->vector = (uint32_t)vec;
	rec->reinjected = reinj != 0;
	rec->dm = (uint32_t)(dm >> 8) & 7; /* printed as (REC->dm >> 8 & 0x7) */
	/* errno < 0: "reason restart/error (N)", the text carries no KVM_EXIT_* code */
	rec->exit_reason = (int64_t)err_no < 0 ? 0 : (uint32_t)uexit;
	if (de->field[F_REASON])
		kvm_exit_reason_name((unsigned int)isa, reason, rec->reason, sizeof(rec->reason));
	if (de->kind != KVM_REC_EMULATE_INSN && get(de, F_RIP, r, 0, &rec->rip))
		return -1;
	if (get(de, F_MSR, r, 0, &v))
		return -1;
	rec->msr = (uint32_t)v;
	if (get(de, F_REG, r, 0, &v))
		return -1;
	rec->reg = (uint32_t)v;
	if (get(de, F_PORT, r, 0, &v))
		return -1;
	rec->port = (uint32_t)v;
	if (get(de, F_SIZE, r, 0, &v))
		return -1;
	rec->size = (uint32_t)v;
	if (get(de, F_COUNT, r, 0, &v))
		return -1;
	rec->count = (uint32_t)v;
	return de->kind == KVM_REC_EMULATE_INSN ? fill_insn(de, r, rec) : 0;
}

static int fill_record(struct trace_dat *d, struct tep_record *r, struct kvm_record *rec,
		       struct vpmc__errbuf *err)
{
	struct tep_event *ev = tep_find_event_by_record(d->tep, r);
	struct dat_event *de;

	if (!ev)
		return dat_error(d, r, "record of an event id the file does not describe", NULL,
				 err);
	de = event_info(d, ev);
	if (!de)
		return VPMC_ERR_NOMEM;
	if (de->missing)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: cpu %d ts %llu.%09llu: %s has no field %s", d->path,
				       r->cpu, r->ts / 1000000000ULL, r->ts % 1000000000ULL,
				       de->name, de->missing);
	memset(rec, 0, sizeof(*rec));
	rec->kind = de->kind;
	memcpy(rec->name, de->name, sizeof(rec->name));
	rec->time_ns = r->ts;
	rec->has_time = true;
	rec->tid = tep_data_pid(d->tep, r);
	rec->cpu = r->cpu;
	rec->vcpu = -1;
	if (fill_fields(de, r, rec))
		return dat_error(d, r, "record shorter than the format of", de->name, err);
	return 1;
}

/* The CPU whose next record is oldest (ties: the lower CPU, as tracecmd_peek_next_data()). */
static int oldest_cpu(const struct trace_dat *d)
{
	int cpu, best = -1;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		if (d->next[cpu] && (best < 0 || d->next[cpu]->ts < d->next[best]->ts))
			best = cpu;
	}
	return best;
}

static void fill_lost(const struct tep_record *r, struct kvm_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->kind = KVM_REC_LOST;
	snprintf(rec->name, sizeof(rec->name), "LOST EVENTS");
	rec->time_ns = r->ts;
	rec->has_time = true;
	rec->tid = -1;
	rec->cpu = r->cpu;
	rec->vcpu = -1;
	rec->lost = r->missed_events > 0 ? (uint64_t)r->missed_events : 0;
}

/*
 * A CPU's next record is read only after its previous one is freed: with compressed (v7) data,
 * reading ahead while the old record still pins its chunk made libtracecmd decompress chunks
 * again, three times slower.
 */
int trace_dat_next(struct trace_dat *d, struct kvm_record *rec, struct vpmc__errbuf *err)
{
	struct tep_record *r;
	int cpu, ret;

	if (d->refill >= 0) {
		d->next[d->refill] = tracecmd_read_data(d->handle, d->refill);
		d->refill = -1;
	}
	cpu = d->held_cpu;
	r = d->held;
	d->held = NULL;
	if (!r) {
		cpu = oldest_cpu(d);
		if (cpu < 0)
			return 0;
		r = d->next[cpu];
		d->next[cpu] = NULL;
		if (r->missed_events) {
			fill_lost(r, rec);
			d->held = r;
			d->held_cpu = cpu;
			return 1;
		}
	}
	ret = fill_record(d, r, rec, err);
	d->refill = cpu;
	tracecmd_free_record(r);
	return ret;
}
