// SPDX-License-Identifier: GPL-2.0-only
/* trace_dat.c - trace.dat as a stream of kvm records, read with libtraceevent alone
 * (trace_dat_direct.c) or, for files it does not read as libtracecmd would, with libtracecmd.
 *
 * Records are pulled CPU by CPU (tracecmd_read_data(), or dat_direct_read() where
 * dat_direct_usable(): no kallsyms parsed, no allocation per record, the most of the time
 * libtracecmd takes) and merged by timestamp here (what tracecmd_read_next_data() does, which
 * the public header does not declare). Each record's fields are read directly from its binary
 * layout (offsets looked up once per event), never through the printed text.
 *
 * Corrupt files. libtracecmd 1.3.1 (and libtraceevent 1.7.1 under it) is not safe on them:
 * when init_cpu() fails for a CPU that is not the last (a first page or compressed chunk it
 * cannot read, a header_page whose time stamp is not 8 bytes), tracecmd_open()'s cleanup walks
 * lists it never set up and crashes; a mangled event format can crash tep_parse_event(). Two
 * guards, in this order:
 * - trace_dat_layout.c walks the file's layout first (sizes, offsets, page headers, compressed
 *   chunks) and refuses what libtracecmd would trust wrongly, naming what and where;
 * - probe_open() then, if the caller asks (vpmc_reader_opts.isolate_dat: vpmcsim does, the
 *   library does not fork by default), opens the file once in a forked child as the parent will
 *   (tracecmd_open(), or dat_direct_tep()'s format parsing): a crash there (in text we do not
 *   parse, in compressed sections we do not inflate) is an error here, not a crash.
 *   A file this process checked already, unchanged, is not checked again (dat_checked.h).
 *   Validating everything ourselves instead would mean parsing event formats and inflating
 *   zstd/zlib sections, a second libtraceevent, and still trusting its bugs.
 * For libtracecmd the child costs a second tracecmd_open(), mostly libtraceevent parsing
 * kallsyms (about 0.1 s CPU); for a direct file only the formats are parsed twice (~5 ms).
 * A direct read reports a compressed chunk that does not inflate, or a page over a page, itself
 * (direct_lost()).
 * While reading with libtracecmd, a CPU whose records stop before its data does (it ends a CPU
 * at a page it cannot read without saying so) is reported by cpu_ended() from the layout.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "dat.h"
#include "dat_checked.h"
#include "dat_parked.h"
#include "dat_layout.h"
#include "dat_direct.h"

#define REASON_CACHE 16 /* exit reasons whose printed names are kept (a trace uses a few) */

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
	F_MMIO_TYPE,
	F_GPA,
	F_UEXIT,  /* kvm_userspace_exit reason */
	F_ERRNO,
	F_INFO1,  /* kvm_nested_vmexit info1 / exit_info1 (read for nested events only) */
	F_VMCB12, /* kvm_nested_vmenter / vmrun: the VMCB12 or vmcs12 address */
	F_WORD3,  /* kvm_nested_intercepts: intercept1..3 (VMCB words 3, 4, 5), or the older */
	F_WORD4,  /* u64 intercept (word 3 its low half) */
	F_WORD5,
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
	/* nested-gpc.md §6.9: what the text layouts print of them */
	{ KVM_REC_NESTED_VMEXIT, F_INFO1, true, { "info1", "exit_info1" } },
	{ KVM_REC_NESTED_VMENTER, F_VMCB12, true, { "vmcb" } },
	{ KVM_REC_NESTED_VMENTER, F_ISA, true, { "isa" } },
	{ KVM_REC_NESTED_OTHER, F_WORD3, true, { "intercept1", "intercept" } },
	{ KVM_REC_NESTED_OTHER, F_WORD4, true, { "intercept2" } },
	{ KVM_REC_NESTED_OTHER, F_WORD5, true, { "intercept3" } },
	{ KVM_REC_MMIO, F_MMIO_TYPE, false, { "type" } },
	{ KVM_REC_MMIO, F_GPA, false, { "gpa" } },
};

/* A field the event's format has: where it lies in a record. */
struct dat_slot {
	enum dat_field slot;
	int offset, size;
	bool is_signed;
};

/* What one event id needs, looked up at its first record. */
struct dat_event {
	enum kvm_rec_kind kind;
	char name[KVM_REC_NAME_MAX];
	struct dat_slot present[F_NR]; /* the fields its kind reads that the format has */
	int nr_present;
	int64_t need;        /* bytes a record needs for all of them (INT64_MAX: one unreadable) */
	bool has_reason;
	int insn_offset, insn_size;    /* kvm_emulate_insn: where insn[] lies in a record */
	const char *missing; /* a required field the format lacks: records are rejected */
};

/* An exit reason code and its printed name (trace_exit_reason_name()). */
struct reason_name {
	bool used;
	unsigned int isa;
	uint64_t code;
	char name[VPMC_REASON_MAX];
};

/* Where every record has a common field: libtraceevent's __parse_common() reads it at the
 * offset and size of the first event's (get_common_info()); size 0: call libtraceevent. */
struct common_field {
	int offset, size;
};

/* Per libtracecmd CPU index. */
struct dat_cpu {
	struct tep_record *next;   /* the record to merge next, NULL when exhausted */
	struct tep_record rec;     /* where dat_direct reads it (next points here) */
	bool seen;                 /* a record was read: last_offset and last_ts are set */
	uint64_t last_offset;      /* tep_record.offset of the last record read */
	uint64_t last_ts;
};

struct trace_dat {
	struct tracecmd_input *handle;
	struct tep_handle *tep;
	char *path;
	struct dat_layout layout;
	bool layout_ok;            /* the records lie where the layout says (else: no end check) */
	int nr_cpus;
	struct dat_cpu *cpus;
	int fill_from;             /* CPUs from this index on have not had their first read */
	struct tep_record *held;   /* returned after the KVM_REC_LOST that precedes it */
	int held_cpu;              /* the CPU index of held */
	int refill;                /* CPU index whose next record is still to be read, or -1 */
	uint64_t unread_pages;
	struct dat_event **events; /* indexed by event id (kvm's are ~1000-2000; a trace uses a
				    * few): NULL until its first record */
	int nr_events;
	bool read_direct;          /* dat_direct_usable(): dat_direct reads it, else libtracecmd */
	struct dat_direct *direct;
	bool swap;                 /* the file's byte order is not the host's */
	struct common_field type_field, pid_field; /* common_type, common_pid (find_common()) */
	struct reason_name reasons[REASON_CACHE];
	unsigned int reason_next;  /* the cache entry to replace next */
};

/* Give back a record read by libtracecmd (dat_direct' records live in struct dat_cpu). */
static void release(const struct trace_dat *d, struct tep_record *r)
{
	if (!d->direct)
		tracecmd_free_record(r);
}

void trace_dat_close(struct trace_dat *d)
{
	int i;

	if (!d)
		return;
	if (d->cpus) {
		for (i = 0; i < d->nr_cpus; i++)
			release(d, d->cpus[i].next);
	}
	release(d, d->held);
	dat_direct_close(d->direct);
	if (d->handle)
		tracecmd_close(d->handle); /* frees its tep */
	else if (d->tep)
		dat_parked_put(d->layout.fd, d->tep); /* for the next open of the file */
	dat_layout_free(&d->layout);
	free(d->cpus);
	for (i = 0; i < d->nr_events; i++) {
		if (d->events[i]) /* (free(NULL) under ASan: a stack unwind) */
			free(d->events[i]);
	}
	free(d->events);
	free(d->path);
	free(d);
}

/* libtracecmd only says NULL; tell a missing file from one it cannot parse. */
static int open_failure(const char *path, struct vpmc__errbuf *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
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

/* In the child: open @d's file as the parent will, say 'y' (no crash) or 'n' (libtracecmd
 * refused it) on @fd, exit. A crash says nothing: it dies by the signal, not through a
 * sanitizer's or fuzzer's handler. */
static void __attribute__((noreturn)) probe_child(const struct trace_dat *d, int fd)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct tracecmd_input *h = NULL;
	struct tep_handle *tep = NULL;
	struct vpmc__errbuf err;
	int null = open("/dev/null", O_RDWR);
	char verdict = 'y';
	size_t i;

	if (null >= 0) { /* libtracecmd prints on both */
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
	for (i = 0; i < ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	if (d->read_direct) {
		if (!dat_direct_tep(&d->layout, d->path, &tep, &err))
			tep_free(tep);
	} else {
		h = tracecmd_open(d->path, TRACECMD_FL_LOAD_NO_PLUGINS);
		verdict = h ? 'y' : 'n';
	}
	if (write(fd, &verdict, 1) != 1)
		_exit(1);
	tracecmd_close(h); /* its temporary files, if it inflated data to some */
	_exit(0);
}

static void reap(pid_t pid)
{
	while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}

/* Open @d's file in a child process as open_direct() or open_libtracecmd() will. Return: 0 (it
 * did not crash there, so it will not here; reap *@child after), or the error:
 * VPMC_ERR_PARSE (libtracecmd refused it, or it crashed), VPMC_ERR_IO (no child). */
static int probe_open(const struct trace_dat *d, pid_t *child, struct vpmc__errbuf *err)
{
	char verdict = 0;
	int fds[2];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: cannot check the file: pipe: %s",
				       d->path, strerror(errno));
	pid = fork();
	if (pid == 0)
		probe_child(d, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return vpmc__set_error(err, VPMC_ERR_IO, "%s: cannot check the file: fork: %s",
				       d->path, strerror(errno));
	}
	do
		n = read(fds[0], &verdict, 1);
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	if (n == 1 && verdict == 'y') {
		*child = pid; /* still closing its handle */
		return 0;
	}
	reap(pid);
	if (n == 1 && verdict == 'n')
		return open_failure(d->path, err);
	if (d->read_direct)
		return vpmc__set_error(err, VPMC_ERR_PARSE,
				       "%s: libtraceevent could not parse this trace.dat's event "
				       "formats (crashed on them: corrupt?)", d->path);
	return vpmc__set_error(err, VPMC_ERR_PARSE,
			       "%s: libtracecmd could not open this trace.dat (crashed on it: "
			       "corrupt?)", d->path);
}

/* @name's place as tep_data_type() and tep_data_pid() find it once (get_common_info(): the
 * first event's common field), so that a record's is read without two calls into
 * libtraceevent per record. A size tep_read_number() does not read (not 1, 2, 4 or 8), or no
 * such field, or one past the bytes dat_page_check() holds readable (a format not the kernel's):
 * size 0, and the record's is left to libtraceevent (and its warnings). */
static struct common_field find_common(struct tep_handle *tep, const char *name)
{
	struct tep_event *ev = tep_get_first_event(tep);
	struct tep_format_field *f = ev ? tep_find_common_field(ev, name) : NULL;

	if (!f || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8) ||
	    f->offset < 0 || f->offset + f->size > DAT_PAGE_COMMON_READ)
		return (struct common_field){ 0, 0 };
	return (struct common_field){ f->offset, f->size };
}

/* A file dat_direct reads: its formats parsed by libtraceevent, no libtracecmd. */
static int open_direct(struct trace_dat *d, struct vpmc__errbuf *err)
{
	int ret = 0;

	d->tep = dat_parked_take(d->layout.fd);
	if (!d->tep)
		ret = dat_direct_tep(&d->layout, d->path, &d->tep, err);
	if (ret)
		return ret;
	d->nr_cpus = d->layout.nr_cpus;
	return dat_direct_open(&d->direct, &d->layout, d->tep);
}

static int open_libtracecmd(struct trace_dat *d, struct vpmc__errbuf *err)
{
	int i;

	d->handle = tracecmd_open(d->path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!d->handle)
		return open_failure(d->path, err);
	d->tep = tracecmd_get_tep(d->handle);
	d->nr_cpus = tep_get_cpus(d->tep);
	if (d->nr_cpus < 0)
		d->nr_cpus = 0;
	/* CPUs a v7 BUFFER option numbers with gaps: libtracecmd indexes them by number */
	for (i = 0; i < d->layout.nr_cpus; i++) {
		if (d->layout.cpu[i].id >= d->nr_cpus)
			d->nr_cpus = d->layout.cpu[i].id + 1;
	}
	return 0;
}

/* The layout's CPUs are numbered 0..n-1 in order, as libtracecmd indexes them (its end check
 * needs that). */
static bool cpus_in_order(const struct dat_layout *l)
{
	int i;

	for (i = 0; i < l->nr_cpus; i++) {
		if (l->cpu[i].id != i)
			return false;
	}
	return true;
}

/* libtracecmd's pages, before it reads one (dat_layout_check_pages()). */
static int check_pages(const struct trace_dat *d, struct vpmc__errbuf *err)
{
	struct dat_page_format f;
	int ret = dat_direct_page_format(&d->layout, &f);

	return ret ? ret : dat_layout_check_pages(&d->layout, &f, d->path, err);
}

int trace_dat_open(struct trace_dat **out, const char *path, bool isolate,
		   struct vpmc__errbuf *err)
{
	struct trace_dat *d = calloc(1, sizeof(*d));
	pid_t child = -1;
	int ret;

	if (!d)
		return VPMC_ERR_NOMEM;
	d->layout.fd = -1;
	/* The library never prints: libtracecmd and libtraceevent warn on stderr by default. */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	tep_set_loglevel(TEP_LOG_NONE);
	d->path = strdup(path);
	ret = d->path ? dat_layout_read(&d->layout, path, err) : VPMC_ERR_NOMEM;
	d->read_direct = !ret && dat_direct_usable(&d->layout);
	if (!ret && !d->read_direct)
		ret = check_pages(d, err);
	if (!ret && isolate && !dat_checked(d->layout.fd)) {
		ret = probe_open(d, &child, err);
		if (!ret)
			dat_checked_add(d->layout.fd);
	}
	if (!ret)
		ret = d->read_direct ? open_direct(d, err) : open_libtracecmd(d, err);
	reap(child);
	if (!ret) {
		d->cpus = calloc(d->nr_cpus ? d->nr_cpus : 1, sizeof(*d->cpus));
		ret = d->cpus ? 0 : VPMC_ERR_NOMEM;
	}
	if (ret) {
		trace_dat_close(d);
		return ret;
	}
	d->layout_ok = d->layout.nr_cpus > 0 && cpus_in_order(&d->layout);
	d->refill = -1;
	d->swap = tep_is_file_bigendian(d->tep) != tep_is_local_bigendian(d->tep);
	d->type_field = find_common(d->tep, "common_type");
	d->pid_field = find_common(d->tep, "common_pid");
	*out = d;
	return 0;
}

uint64_t trace_dat_unread_pages(const struct trace_dat *d)
{
	return d->unread_pages;
}

static struct tep_format_field *find_field(struct tep_event *ev, const char *const names[2])
{
	struct tep_format_field *f = NULL;
	int i;

	for (i = 0; i < 2 && names[i] && !f; i++)
		f = tep_find_field(ev, names[i]);
	return f;
}

/* Keep where field @f (NULL: the format lacks it) lies; a field it cannot read stays out and
 * fails every record (offset -1). */
static void add_field(struct dat_event *de, enum dat_field slot,
		      const struct tep_format_field *f)
{
	struct dat_slot *s;

	if (!f)
		return;
	if (slot == F_REASON)
		de->has_reason = true;
	if (slot == F_INSN) { /* an array, copied: only its size */
		de->insn_size = f->offset >= 0 ? f->size : 0;
		de->insn_offset = f->offset;
		return;
	}
	s = &de->present[de->nr_present++];
	s->slot = slot;
	s->size = f->size;
	s->offset = f->offset;
	s->is_signed = f->flags & TEP_FIELD_IS_SIGNED;
	if (f->offset < 0 || (f->size != 1 && f->size != 2 && f->size != 4 && f->size != 8))
		s->offset = -1;
	if (s->offset < 0)
		de->need = INT64_MAX;
	else if ((int64_t)s->offset + s->size > de->need)
		de->need = (int64_t)s->offset + s->size;
}

static struct dat_event *event_info(struct trace_dat *d, struct tep_event *ev)
{
	struct dat_event *de;
	size_t i;

	if (ev->id < 0)
		return NULL;
	if (ev->id >= d->nr_events) {
		int n = ev->id + 1;
		struct dat_event **e = realloc(d->events, n * sizeof(*e));

		if (!e)
			return NULL;
		memset(e + d->nr_events, 0, (n - d->nr_events) * sizeof(*e));
		d->events = e;
		d->nr_events = n;
	}
	de = d->events[ev->id] = calloc(1, sizeof(*de)); /* its first record (fill_record()) */
	if (!de)
		return NULL;
	if (ev->system && strcmp(ev->system, "kvm")) {
		snprintf(de->name, sizeof(de->name), "%s:%s", ev->system, ev->name);
		de->kind = KVM_REC_OTHER;
		return de;
	}
	snprintf(de->name, sizeof(de->name), "%s", ev->name);
	de->kind = trace_record_kind(ev->name);
	for (i = 0; i < ARRAY_SIZE(field_specs); i++) {
		if (field_specs[i].kind != de->kind)
			continue;
		add_field(de, field_specs[i].slot, find_field(ev, field_specs[i].names));
		if (!find_field(ev, field_specs[i].names) && !field_specs[i].optional &&
		    !de->missing)
			de->missing = field_specs[i].names[0];
	}
	return de;
}

/* A @size-byte number (1, 2, 4 or 8) at @p, in the file's byte order (@swap: not the host's). */
static uint64_t read_number(const uint8_t *p, int size, bool swap)
{
	uint16_t v2;
	uint32_t v4;
	uint64_t v8;

	switch (size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v2, p, 2);
		return swap ? __builtin_bswap16(v2) : v2;
	case 4:
		memcpy(&v4, p, 4);
		return swap ? __builtin_bswap32(v4) : v4;
	default:
		memcpy(&v8, p, 8);
		return swap ? __builtin_bswap64(v8) : v8;
	}
}

/* trace_exit_reason_name() of a few codes kept: formatting one per exit costs more than the
 * rest of reading it. */
static const char *reason_name(struct trace_dat *d, unsigned int isa, uint64_t code)
{
	struct reason_name *n;
	unsigned int i;

	for (i = 0; i < REASON_CACHE; i++) {
		n = &d->reasons[i];
		if (n->used && n->code == code && n->isa == isa)
			return n->name;
	}
	n = &d->reasons[d->reason_next++ % REASON_CACHE];
	memset(n, 0, sizeof(*n)); /* records copy all of name[], its NUL padding too */
	n->used = true;
	n->isa = isa;
	n->code = code;
	trace_exit_reason_name(isa, code, n->name, sizeof(n->name));
	return n->name;
}

static int dat_error(struct trace_dat *d, const struct tep_record *r, const char *what,
		     const char *name, struct vpmc__errbuf *err)
{
	return vpmc__set_error(err, TRACE_DAT_BAD_RECORD, "%s: cpu %d ts %llu.%09llu: %s%s%s", d->path,
			       r->cpu, r->ts / 1000000000ULL, r->ts % 1000000000ULL, what,
			       name ? " " : "", name ? name : "");
}

/* The fields an emulated instruction's bytes need, kept until all are read. */
struct insn_fields {
	uint64_t len, flags, failed;
};

/* kvm_emulate_insn: the bytes of the fixed insn[15] array, len of them meaningful. */
static int fill_insn(const struct dat_event *de, const struct tep_record *r,
		     const struct insn_fields *in, struct kvm_record *rec)
{
	size_t n;

	if (de->insn_offset < 0 || de->insn_size <= 0 ||
	    de->insn_offset + de->insn_size > r->size)
		return -1;
	n = in->len < (uint64_t)de->insn_size ? (size_t)in->len : (size_t)de->insn_size;
	if (n > KVM_INSN_MAX)
		n = KVM_INSN_MAX;
	memcpy(rec->insn, (const uint8_t *)r->data + de->insn_offset, n);
	rec->insn_len = (uint8_t)n;
	rec->mode = trace_insn_mode_from_flags((unsigned int)in->flags);
	rec->failed = in->failed != 0;
	return 0;
}

/*
 * Every field of @rec to its default, one by one: a memset() of the whole record was the
 * most of reading one (rep stos). Bytes no field uses (padding) are left alone.
 */
static void clear_record(struct kvm_record *rec)
{
	rec->time_ns = 0;
	rec->has_time = false;
	rec->tid = -1;
	rec->cpu = -1;
	rec->vcpu = -1;
	memset(rec->reason, 0, sizeof(rec->reason));
	rec->rip = 0;
	rec->write = false;
	rec->msr = 0;
	rec->data = 0;
	rec->gp = false;
	rec->reg = 0;
	rec->port = rec->size = rec->count = 0;
	memset(rec->insn, 0, sizeof(rec->insn));
	rec->insn_len = 0;
	rec->mode = 0;
	rec->failed = false;
	rec->vector = 0;
	rec->reinjected = false;
	rec->dm = 0;
	rec->exit_reason = 0;
	rec->lost = 0;
}

/* The fields of @de's format from @r into @rec (the others keep their defaults). Signed fields
 * are sign-extended. Return: 0, or -1 if one lies past the record's end (checked once, for the
 * field that ends last: a bound per field was a fifth of this loop). */
static int fill_fields(struct trace_dat *d, const struct dat_event *de,
		       const struct tep_record *r, struct kvm_record *rec)
{
	uint64_t isa = 1, reason = 0, uexit = 0, err_no = 0, v;
	struct insn_fields in = { 0, 0, 0 };
	struct kvm_nested_fields *nf = &rec->nested;
	const struct dat_slot *s;
	bool has_isa = false;
	int i;

	if (de->kind >= KVM_REC_NESTED_VMEXIT && de->kind <= KVM_REC_NESTED_OTHER)
		memset(nf, 0, sizeof(*nf));

	if (de->need > r->size)
		return -1;
	for (i = 0; i < de->nr_present; i++) {
		s = &de->present[i];
		v = read_number((const uint8_t *)r->data + s->offset, s->size, d->swap);
		if (s->is_signed && s->size < 8 && (v >> (8 * s->size - 1)) & 1)
			v |= ~0ULL << (8 * s->size);
		switch (s->slot) {
		case F_VCPU: rec->vcpu = v > INT32_MAX ? -1 : (int32_t)v; break;
		case F_REASON: reason = v; break;
		case F_ISA: isa = v; has_isa = true; rec->isa = (uint8_t)v; break;
		case F_RIP: rec->rip = v; break;
		case F_WRITE: rec->write = v != 0; break;
		case F_MSR: rec->msr = (uint32_t)v; break;
		case F_DATA: rec->data = v; break;
		case F_GP: rec->gp = v != 0; break;
		case F_LEN: in.len = v; break;
		case F_FLAGS: in.flags = v; break;
		case F_FAILED: in.failed = v; break;
		case F_VECTOR: rec->vector = (uint32_t)v; break;
		case F_REINJ: rec->reinjected = v != 0; break;
		case F_DM: rec->dm = (uint32_t)(v >> 8) & 7; break; /* printed (REC->dm >> 8 & 0x7) */
		case F_REG: rec->reg = (uint32_t)v; break;
		case F_PORT: rec->port = (uint32_t)v; break;
		case F_SIZE: rec->size = (uint32_t)v; break;
		case F_COUNT: rec->count = (uint32_t)v; break;
		case F_MMIO_TYPE: rec->mmio_type = (uint32_t)v; break;
		case F_GPA: rec->gpa = v; break;
		case F_UEXIT: uexit = v; break;
		case F_ERRNO: err_no = v; break;
		case F_INFO1: nf->info1 = v; nf->has_info1 = true; break;
		case F_VMCB12: nf->gpa = v; nf->has_gpa = true; break;
		case F_WORD3: nf->words[0] = (uint32_t)v; break; /* a u64 intercept: its low half */
		case F_WORD4: nf->words[1] = (uint32_t)v; break;
		case F_WORD5: nf->words[2] = (uint32_t)v; break;
		case F_INSN: case F_NR: break; /* insn[] is copied by fill_insn() */
		}
	}
	/* errno < 0: "reason restart/error (N)", the text carries no KVM_EXIT_* code */
	rec->exit_reason = (int64_t)err_no < 0 ? 0 : (uint32_t)uexit;
	if (de->has_reason)
		memcpy(rec->reason, reason_name(d, (unsigned int)isa, reason), sizeof(rec->reason));
	/* kvm_nested_vmenter's isa names its label (vmcs: 1, vmcb: 2); kvm_nested_vmrun is SVM's */
	if (de->kind == KVM_REC_NESTED_VMENTER)
		nf->isa = has_isa ? (uint8_t)isa : VPMC_NESTED_ISA_SVM;
	return de->kind == KVM_REC_EMULATE_INSN ? fill_insn(de, r, &in, rec) : 0;
}

/* A record's common field @f, as tep_read_number() reads it (no bound: as libtraceevent's,
 * within the page, dat_page_check()). */
static inline uint64_t common_number(const struct trace_dat *d, const struct common_field *f,
				     const struct tep_record *r)
{
	return read_number((const uint8_t *)r->data + f->offset, f->size, d->swap);
}

static int fill_record(struct trace_dat *d, struct tep_record *r, struct kvm_record *rec,
		       struct vpmc__errbuf *err)
{
	int type = d->type_field.size ? (int)common_number(d, &d->type_field, r)
				      : tep_data_type(d->tep, r);
	struct dat_event *de = type >= 0 && type < d->nr_events ? d->events[type] : NULL;
	struct tep_event *ev;

	if (!de) { /* the first record of this event id */
		ev = tep_find_event(d->tep, type);
		if (!ev)
			return dat_error(d, r, "record of an event id the file does not describe",
					 NULL, err);
		de = event_info(d, ev);
		if (!de)
			return VPMC_ERR_NOMEM;
	}
	if (de->missing)
		return vpmc__set_error(err, TRACE_DAT_BAD_RECORD,
				       "%s: cpu %d ts %llu.%09llu: %s has no field %s", d->path,
				       r->cpu, r->ts / 1000000000ULL, r->ts % 1000000000ULL,
				       de->name, de->missing);
	clear_record(rec);
	rec->kind = de->kind;
	memcpy(rec->name, de->name, sizeof(rec->name));
	rec->time_ns = r->ts;
	rec->has_time = true;
	rec->tid = d->pid_field.size ? (int)common_number(d, &d->pid_field, r)
				     : tep_data_pid(d->tep, r);
	rec->cpu = r->cpu;
	if (fill_fields(d, de, r, rec))
		return dat_error(d, r, "record shorter than the format of", de->name, err);
	return 1;
}

/* The CPU whose next record is oldest (ties: the lower CPU, as tracecmd_peek_next_data()). */
static int oldest_cpu(const struct trace_dat *d)
{
	int cpu, best = -1;

	for (cpu = 0; cpu < d->nr_cpus; cpu++) {
		if (d->cpus[cpu].next &&
		    (best < 0 || d->cpus[cpu].next->ts < d->cpus[best].next->ts))
			best = cpu;
	}
	return best;
}

/*
 * libtracecmd ends a CPU's records at a page it cannot read (a commit past the page, a chunk
 * that does not inflate) just as at the end of the data: tell the two apart by the page of the
 * last record. Return: 0 (the data ends there), or TRACE_DAT_UNREAD with @err set.
 */
static int cpu_ended(struct trace_dat *d, int cpu, struct vpmc__errbuf *err)
{
	const struct dat_cpu *c = &d->cpus[cpu];
	const struct dat_cpu_data *cd;
	uint64_t ps = d->layout.page_size, page, n;

	if (!d->layout_ok || cpu >= d->layout.nr_cpus)
		return 0;
	cd = &d->layout.cpu[cpu];
	page = c->seen ? c->last_offset & ~(ps - 1) : cd->base; /* init_cpu() read the first */
	n = dat_layout_unread_pages(&d->layout, cpu, page + ps);
	if (!n)
		return 0;
	d->unread_pages += n;
	if (!c->seen)
		return vpmc__set_error(err, TRACE_DAT_UNREAD,
				       "%s: cpu %d: no records, and libtracecmd could not read the "
				       "%llu pages with data after its first page (corrupt "
				       "ring-buffer page or compressed chunk)", d->path, cpu,
				       (unsigned long long)n);
	return vpmc__set_error(err, TRACE_DAT_UNREAD,
			       "%s: cpu %d: records stop at ts %llu.%09llu, on page %llu of %llu of "
			       "the CPU's data; libtracecmd could not read the %llu pages with data "
			       "after it (corrupt ring-buffer page or compressed chunk)", d->path,
			       cpu, (unsigned long long)(c->last_ts / 1000000000ULL),
			       (unsigned long long)(c->last_ts % 1000000000ULL),
			       (unsigned long long)((page - cd->base) / ps + 1),
			       (unsigned long long)((cd->size + ps - 1) / ps), (unsigned long long)n);
}

/* libtracecmd returns CPU @cpu's records in a loop (refill()): the CPU's records stop at its
 * last one, and its pages from that one's on are lost. Return: TRACE_DAT_UNREAD. */
static int records_loop(struct trace_dat *d, int cpu, struct vpmc__errbuf *err)
{
	const struct dat_cpu *c = &d->cpus[cpu];
	uint64_t ps = d->layout.page_size, page = c->last_offset & ~(ps - 1), n = 0;

	if (d->layout_ok && cpu < d->layout.nr_cpus)
		n = dat_layout_unread_pages(&d->layout, cpu, page);
	d->unread_pages += n;
	return vpmc__set_error(err, TRACE_DAT_UNREAD,
			       "%s: cpu %d: records stop at ts %llu.%09llu: libtracecmd reads the "
			       "events of that page in a loop (an event whose length does not move "
			       "past it); %llu page%s with data lost", d->path, cpu,
			       (unsigned long long)(c->last_ts / 1000000000ULL),
			       (unsigned long long)(c->last_ts % 1000000000ULL),
			       (unsigned long long)n, n == 1 ? "" : "s");
}

/* What dat_direct failed on (dat_direct_loss()): "its compressed chunk ..." or "its page
 * ...", with the pages lost in @lost. Pages count from 1 in the CPU's data. */
static void what_was_lost(const struct trace_dat *d, int cpu, uint64_t *lost, uint64_t *first,
			  uint64_t *total, char *what, size_t len)
{
	const struct dat_direct_loss *b = dat_direct_loss(d->direct);
	const struct dat_cpu_data *cd = &d->layout.cpu[cpu];
	uint64_t ps = d->layout.page_size;
	uint64_t start = d->layout.compressed ? 0 : cd->file_off;

	*total = ((d->layout.compressed ? cd->size : cd->file_size) + ps - 1) / ps;
	*first = (b->data_off - start) / ps + 1;
	*lost = *total >= *first ? *total - *first + 1 : 0;
	/* chunk headers that understate their size: at least a page per chunk not read */
	if (!b->page_bytes && !b->loop && !b->endless && *lost < (uint64_t)(b->chunks - b->chunk + 1))
		*lost = b->chunks - b->chunk + 1;
	if (b->endless)
		snprintf(what, len, "its page %llu has events that loop with no record in them "
			 "(libtraceevent would walk them forever)", (unsigned long long)*first);
	else if (b->loop)
		snprintf(what, len, "its page %llu has an event whose length does not move past it "
			 "(its events would be read in a loop)", (unsigned long long)*first);
	else if (b->page_bytes)
		snprintf(what, len, "its page %llu holds %d bytes, more than a page (%llu)",
			 (unsigned long long)*first, b->page_bytes, (unsigned long long)ps);
	else
		snprintf(what, len, "its compressed chunk %u of %u (byte %llu) does not inflate "
			 "(%s)", b->chunk, b->chunks, (unsigned long long)b->at,
			 d->layout.compression);
}

/* A compressed chunk or page of CPU @cpu is corrupt: its pages from there on are lost.
 * Return: TRACE_DAT_UNREAD, with @err set. */
static int direct_lost(struct trace_dat *d, int cpu, struct vpmc__errbuf *err)
{
	const struct dat_cpu *c = &d->cpus[cpu];
	uint64_t lost, first, total, start = d->layout.compressed ? 0 : d->layout.cpu[cpu].file_off;
	char what[160];

	what_was_lost(d, cpu, &lost, &first, &total, what, sizeof(what));
	d->unread_pages += lost;
	if (!c->seen)
		return vpmc__set_error(err, TRACE_DAT_UNREAD,
				       "%s: cpu %d: no records: %s; its data is lost (%llu page%s)",
				       d->path, d->layout.cpu[cpu].id, what, (unsigned long long)lost,
				       lost == 1 ? "" : "s");
	return vpmc__set_error(err, TRACE_DAT_UNREAD,
			       "%s: cpu %d: records stop at ts %llu.%09llu, on page %llu of %llu of "
			       "the CPU's data; %s: %llu page%s from page %llu on lost", d->path,
			       d->layout.cpu[cpu].id,
			       (unsigned long long)(c->last_ts / 1000000000ULL),
			       (unsigned long long)(c->last_ts % 1000000000ULL),
			       (unsigned long long)((c->last_offset - start) / d->layout.page_size + 1),
			       (unsigned long long)total, what, (unsigned long long)lost,
			       lost == 1 ? "" : "s", (unsigned long long)first);
}

/* Read CPU @cpu's next record with dat_direct. Return: 0, TRACE_DAT_UNREAD (direct_lost()),
 * VPMC_ERR_IO or VPMC_ERR_NOMEM. */
static int refill_direct(struct trace_dat *d, int cpu, struct vpmc__errbuf *err)
{
	struct dat_cpu *c = &d->cpus[cpu];
	int ret = dat_direct_read(d->direct, cpu, &c->rec);

	c->next = ret == 1 ? &c->rec : NULL;
	if (ret == 1) {
		c->seen = true;
		c->last_offset = c->rec.offset;
		c->last_ts = c->rec.ts;
		return 0;
	}
	if (ret == DAT_DIRECT_CORRUPT)
		return direct_lost(d, cpu, err);
	if (ret == VPMC_ERR_IO)
		return vpmc__set_error(err, ret, "%s: cpu %d: cannot read its ring-buffer pages: %s",
				       d->path, cpu, strerror(errno));
	return ret;
}

/* A record of libtracecmd's whose length runs past its page (corrupt): only its bytes in the
 * page are its data, as dat_direct_read() gives them (a field past them makes it a short
 * record). Its data follows its header words: kbuffer's index - curr, the difference of the
 * two sizes modulo 2^32 (a corrupt length wraps them). */
static void clip_to_page(const struct trace_dat *d, struct tep_record *r)
{
	uint32_t header = (uint32_t)r->record_size - (uint32_t)r->size;
	uint64_t ps = d->layout.page_size, data = r->offset + header;
	uint64_t end = (r->offset & ~(ps - 1)) + ps;

	if (ps && (r->size < 0 || data + (uint64_t)r->size > end))
		r->size = data < end ? (int)(end - data) : 0;
}

/* Read CPU @cpu's next record. Return: 0, TRACE_DAT_UNREAD (see cpu_ended()), or
 * VPMC_ERR_IO. */
static int refill(struct trace_dat *d, int cpu, struct vpmc__errbuf *err)
{
	struct dat_cpu *c = &d->cpus[cpu];
	const struct dat_cpu_data *cd;
	struct tep_record *r;

	if (d->direct)
		return refill_direct(d, cpu, err);
	r = tracecmd_read_data(d->handle, cpu);
	if (r && c->seen && r->offset <= c->last_offset) {
		/* a record at or before the one read last: a corrupt event length took kbuffer
		 * back, and libtracecmd would return that page's events forever (dat_direct
		 * stops there too) */
		tracecmd_free_record(r);
		c->next = NULL;
		return records_loop(d, cpu, err);
	}
	c->next = r;
	if (!r)
		return cpu_ended(d, cpu, err);
	clip_to_page(d, r);
	c->seen = true;
	c->last_offset = r->offset;
	c->last_ts = r->ts;
	if (d->layout_ok && cpu < d->layout.nr_cpus) {
		cd = &d->layout.cpu[cpu];
		if (r->offset < cd->base || r->offset - cd->base >= cd->size)
			d->layout_ok = false; /* not numbered as we think: no end check */
	}
	return 0;
}

void trace_dat_progress(const struct trace_dat *d, uint64_t *done, uint64_t *total)
{
	const struct dat_cpu_data *cd;
	uint64_t at;
	int i;

	*done = *total = 0;
	if (!d->layout_ok || d->layout.nr_cpus != d->nr_cpus)
		return;
	for (i = 0; i < d->nr_cpus; i++) {
		cd = &d->layout.cpu[i];
		*total += cd->size;
		if (!d->cpus[i].seen)
			continue;
		/* dat_direct numbers compressed data from 0, libtracecmd from cd->base */
		at = d->direct && d->layout.compressed ? d->cpus[i].last_offset
						       : d->cpus[i].last_offset - cd->base;
		*done += at < cd->size ? at : cd->size;
	}
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

	while (d->fill_from < d->nr_cpus) {
		ret = refill(d, d->fill_from++, err);
		if (ret)
			return ret;
	}
	if (d->refill >= 0) {
		cpu = d->refill;
		d->refill = -1;
		ret = refill(d, cpu, err);
		if (ret)
			return ret;
	}
	cpu = d->held_cpu;
	r = d->held;
	d->held = NULL;
	if (!r) {
		cpu = oldest_cpu(d);
		if (cpu < 0)
			return 0;
		r = d->cpus[cpu].next;
		d->cpus[cpu].next = NULL;
		if (r->missed_events) {
			fill_lost(r, rec);
			d->held = r;
			d->held_cpu = cpu;
			return 1;
		}
	}
	ret = fill_record(d, r, rec, err);
	d->refill = cpu;
	release(d, r);
	return ret;
}
