// SPDX-License-Identifier: GPL-2.0-only
/* import.c - kvm tracepoint records -> native events (trace-format.md, "Importing").
 *
 * One pending retirement per vCPU: the instruction KVM is working on, opened by a kvm_exit
 * whose handler skips the instruction (kvm_skip_emulated_instruction(), the exit-reason table
 * below) or by kvm_emulate_insn (x86_emulate_instruction()), and settled at the vCPU's next
 * instruction boundary (kvm_entry, the next kvm_emulate_insn, a synthesized entry, the end).
 * Records seen in between may cancel it: a faulting MSR access, a fault-like exception, a
 * failed emulation, an exit reflected to L1. Memory is per vCPU and per thread, bounded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "import.h"
#include "internal.h"
#include "insn.h"
#include "nested_import.h"

#define IMPORT_MAX_THREADS (2 * VPMC_MAX_VCPUS) /* vCPU threads remembered (tid -> vcpu) */
#define IMPORT_QUEUE 8 /* events one record can produce: retire, entry, guest, exit */
#define APIC_LVTPC 0x340
#define APIC_DM_FIXED 0
#define APIC_DM_LOWPRIO 1

enum pending {
	PEND_NONE,
	PEND_SKIP,    /* exit handled by kvm_skip_emulated_instruction(): 1 instruction */
	PEND_EMULATE, /* kvm_emulate_insn: 1 instruction, a branch if IsBranch */
	PEND_VMRUN,   /* VMLAUNCH/VMRESUME: see exit_vmrun() */
};

struct import_vcpu {
	uint64_t last_time;  /* latest record of this vCPU, ns (events never go back) */
	uint64_t entry_time; /* latest VM-entry, ns */
	uint64_t pend_rip;   /* PEND_EMULATE: rip of the kvm_emulate_insn */
	enum pending pend;
	bool pend_branch;
	bool in_guest;       /* between kvm_entry and kvm_exit */
	bool need_entry;     /* no-entry traces: the next instruction follows a return to the guest */
	bool virq_seen;      /* kvm_inj_virq seen: interrupts are counted at injection */
	uint32_t accepted[256 / 32]; /* vectors counted at kvm_apic_accept_irq, not yet injected */
};

struct thread_slot {
	int64_t tid;
	int32_t vcpu;
	bool used;
};

struct trace_import {
	struct trace_import_opts opts;
	struct trace_import_stats stats;
	struct import_vcpu **vcpus; /* VPMC_MAX_VCPUS slots, allocated at first use */
	uint32_t vcpu_end;          /* one past the highest slot allocated: the loops over vCPUs
				     * stop there (a short input no longer costs 4096 of each) */
	uint32_t claimed[VPMC_MAX_VCPUS / 32]; /* vCPUs some thread was seen with */
	uint32_t next_auto;         /* lowest index that may be unclaimed */
	struct thread_slot *threads;
	size_t nr_threads, cap_threads;
	struct thread_slot last;    /* the latest thread looked up (consecutive records share it) */
	bool hw_entries;            /* the trace has kvm_entry/kvm_exit: no synthesized entries */
	struct vpmc_event queue[IMPORT_QUEUE];
	unsigned int head, count;
	bool finishing;
	uint32_t finish_cursor;
	uint64_t line;              /* text: the input line of the record last processed, or 0 */
	bool went_back;             /* the last push's time stamp was before its vCPU's latest */
	struct trace_import_back back;
	struct vpmc__errbuf err;
	struct trace_exit_names names; /* exit reasons in the kernel's spelling */
	/* records of threads not yet seen with a vCPU; those released, for pop */
	struct kvm_record *held;    /* TRACE_IMPORT_HOLD_MAX, allocated at first use */
	struct kvm_record *ready;   /* TRACE_IMPORT_HOLD_MAX */
	size_t nr_held, nr_ready, ready_pos;
};

/*
 * Exit reasons whose handler ends in kvm_skip_emulated_instruction() (kvm-vpmu-semantics.md 3.2;
 * kvm_vmx_exit_handlers[] in vmx/vmx.c, svm_exit_handlers[] in svm/svm.c), in the kernel's
 * spelling (trace_exit_kernel_name() gave the reason it), matched on the first word. Handlers that may decode through the emulator instead (string I/O,
 * APIC_ACCESS, EPT_MISCONFIG without a fast-MMIO match, CR/DR access without decode assists)
 * are listed: a kvm_emulate_insn before the next entry then takes the retirement over.
 */
enum exit_kind { EXIT_OTHER, EXIT_SKIP, EXIT_VMRUN };

static const struct {
	const char *name;
	enum exit_kind kind;
} exit_table[] = {
	/* VMX (VMX_EXIT_REASONS, trace-cmd's plugin uses the same names) */
	{ "CPUID", EXIT_SKIP }, { "HLT", EXIT_SKIP }, { "INVD", EXIT_SKIP },
	{ "INVLPG", EXIT_SKIP }, { "RDPMC", EXIT_SKIP }, { "VMCALL", EXIT_SKIP },
	{ "VMCLEAR", EXIT_SKIP }, { "VMPTRLD", EXIT_SKIP }, { "VMPTRST", EXIT_SKIP },
	{ "VMREAD", EXIT_SKIP }, { "VMWRITE", EXIT_SKIP }, { "VMOFF", EXIT_SKIP },
	{ "VMON", EXIT_SKIP }, { "CR_ACCESS", EXIT_SKIP }, { "DR_ACCESS", EXIT_SKIP },
	{ "IO_INSTRUCTION", EXIT_SKIP }, { "MSR_READ", EXIT_SKIP }, { "MSR_WRITE", EXIT_SKIP },
	{ "MWAIT_INSTRUCTION", EXIT_SKIP }, { "MONITOR_INSTRUCTION", EXIT_SKIP },
	{ "PAUSE_INSTRUCTION", EXIT_SKIP }, { "APIC_ACCESS", EXIT_SKIP },
	{ "EPT_MISCONFIG", EXIT_SKIP }, { "INVEPT", EXIT_SKIP }, { "INVVPID", EXIT_SKIP },
	{ "WBINVD", EXIT_SKIP }, { "XSETBV", EXIT_SKIP }, { "INVPCID", EXIT_SKIP },
	{ "VMFUNC", EXIT_SKIP }, { "ENCLS", EXIT_SKIP }, { "XSAVES", EXIT_SKIP },
	{ "XRSTORS", EXIT_SKIP }, { "UMWAIT", EXIT_SKIP }, { "TPAUSE", EXIT_SKIP },
	{ "MSR_READ_IMM", EXIT_SKIP }, { "MSR_WRITE_IMM", EXIT_SKIP },
	{ "VMLAUNCH", EXIT_VMRUN }, { "VMRESUME", EXIT_VMRUN },
	/* SVM, as the kernel prints them (SVM_EXIT_REASONS) */
	{ "read_cr0", EXIT_SKIP }, { "read_cr2", EXIT_SKIP }, { "read_cr3", EXIT_SKIP },
	{ "read_cr4", EXIT_SKIP }, { "read_cr8", EXIT_SKIP }, { "write_cr0", EXIT_SKIP },
	{ "write_cr2", EXIT_SKIP }, { "write_cr3", EXIT_SKIP }, { "write_cr4", EXIT_SKIP },
	{ "write_cr8", EXIT_SKIP }, { "cr0_sel_write", EXIT_SKIP },
	{ "read_dr0", EXIT_SKIP }, { "read_dr1", EXIT_SKIP }, { "read_dr2", EXIT_SKIP },
	{ "read_dr3", EXIT_SKIP }, { "read_dr4", EXIT_SKIP }, { "read_dr5", EXIT_SKIP },
	{ "read_dr6", EXIT_SKIP }, { "read_dr7", EXIT_SKIP }, { "write_dr0", EXIT_SKIP },
	{ "write_dr1", EXIT_SKIP }, { "write_dr2", EXIT_SKIP }, { "write_dr3", EXIT_SKIP },
	{ "write_dr4", EXIT_SKIP }, { "write_dr5", EXIT_SKIP }, { "write_dr6", EXIT_SKIP },
	{ "write_dr7", EXIT_SKIP }, { "pause", EXIT_SKIP }, { "invlpga", EXIT_SKIP },
	{ "io", EXIT_SKIP }, { "msr", EXIT_SKIP }, { "vmrun", EXIT_SKIP },
	{ "hypercall", EXIT_SKIP }, { "vmload", EXIT_SKIP }, { "vmsave", EXIT_SKIP },
	{ "stgi", EXIT_SKIP }, { "clgi", EXIT_SKIP }, { "monitor", EXIT_SKIP },
	{ "mwait", EXIT_SKIP }, { "idle-halt", EXIT_SKIP },
};

static enum exit_kind exit_reason_kind(const char *reason)
{
	size_t n = strcspn(reason, " ");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exit_table); i++) {
		if (strlen(exit_table[i].name) == n && !strncasecmp(exit_table[i].name, reason, n))
			return exit_table[i].kind;
	}
	return EXIT_OTHER;
}

/*
 * Mirrors exception_type() in x86.c as x86_emulate_instruction() uses it: only a trap-like
 * exception (#BP, #OF) lets the instruction retire. #DB is taken as a trap too: after an
 * emulated or skipped instruction it is the single-step trap kvm_vcpu_do_singlestep() queues
 * after the retirement (code breakpoints are checked before decode, so they have no
 * kvm_emulate_insn of their own). #NMI (2) is not an exception.
 */
static bool exception_is_fault(uint32_t vector)
{
	return vector < 32 && vector != 1 && vector != 2 && vector != 3 && vector != 4;
}

int trace_import_new(struct trace_import **out, const struct trace_import_opts *opts)
{
	struct trace_import *im = calloc(1, sizeof(*im));

	if (!im)
		return VPMC_ERR_NOMEM;
	im->vcpus = calloc(VPMC_MAX_VCPUS, sizeof(*im->vcpus));
	if (!im->vcpus) {
		free(im);
		return VPMC_ERR_NOMEM;
	}
	im->opts = *opts;
	*out = im;
	return 0;
}

void trace_import_free(struct trace_import *im)
{
	size_t i;

	if (!im)
		return;
	for (i = 0; i < im->vcpu_end; i++)
		free(im->vcpus[i]);
	free(im->vcpus);
	free(im->threads);
	free(im->held);
	free(im->ready);
	free(im);
}

uint64_t trace_import_line(const struct trace_import *im)
{
	return im->line;
}

const char *trace_import_error(const struct trace_import *im)
{
	return im->err.msg;
}

void trace_import_get_stats(const struct trace_import *im, struct trace_import_stats *st)
{
	*st = im->stats;
}

bool trace_import_went_back(struct trace_import *im, struct trace_import_back *back)
{
	bool went = im->went_back;

	if (went)
		*back = im->back;
	im->went_back = false;
	return went;
}

/* ---- vCPU identity ---------------------------------------------------------------------- */

static size_t thread_hash(int64_t tid, size_t cap)
{
	return (size_t)(((uint64_t)tid * 0x9e3779b97f4a7c15ULL) >> 32) & (cap - 1);
}

static struct thread_slot *thread_find(struct trace_import *im, int64_t tid)
{
	size_t i;

	if (!im->cap_threads)
		return NULL;
	for (i = thread_hash(tid, im->cap_threads);; i = (i + 1) & (im->cap_threads - 1)) {
		if (!im->threads[i].used)
			return NULL;
		if (im->threads[i].tid == tid)
			return &im->threads[i];
	}
}

static int thread_grow(struct trace_import *im)
{
	size_t cap = im->cap_threads ? 2 * im->cap_threads : 64;
	struct thread_slot *t = calloc(cap, sizeof(*t));
	size_t i, j;

	if (!t)
		return VPMC_ERR_NOMEM;
	for (i = 0; i < im->cap_threads; i++) {
		if (!im->threads[i].used)
			continue;
		for (j = thread_hash(im->threads[i].tid, cap); t[j].used; j = (j + 1) & (cap - 1))
			;
		t[j] = im->threads[i];
	}
	free(im->threads);
	im->threads = t;
	im->cap_threads = cap;
	return 0;
}

static int thread_bind(struct trace_import *im, int64_t tid, int32_t vcpu)
{
	struct thread_slot *s = thread_find(im, tid);
	size_t i;
	int ret;

	im->last = (struct thread_slot){ .tid = tid, .vcpu = vcpu, .used = true };
	if (s) {
		s->vcpu = vcpu;
		im->claimed[vcpu / 32] |= 1u << (vcpu % 32);
		return 0;
	}
	if (im->nr_threads >= IMPORT_MAX_THREADS) {
		im->last.used = false;
		return vpmc__set_error(&im->err, VPMC_ERR_LIMIT,
				       "thread %lld: more than %d threads carry vCPU events",
				       (long long)tid, IMPORT_MAX_THREADS);
	}
	if (2 * (im->nr_threads + 1) > im->cap_threads) {
		ret = thread_grow(im);
		if (ret) {
			im->last.used = false;
			return ret;
		}
	}
	for (i = thread_hash(tid, im->cap_threads); im->threads[i].used;
	     i = (i + 1) & (im->cap_threads - 1))
		;
	im->threads[i] = (struct thread_slot){ .tid = tid, .vcpu = vcpu, .used = true };
	im->nr_threads++;
	im->claimed[vcpu / 32] |= 1u << (vcpu % 32);
	return 0;
}

/* @id is in range (vcpu_of() checked it). */
static int vcpu_get(struct trace_import *im, int32_t id, struct import_vcpu **out)
{
	if (!im->vcpus[id]) {
		im->vcpus[id] = calloc(1, sizeof(**im->vcpus));
		if (!im->vcpus[id])
			return VPMC_ERR_NOMEM;
		im->vcpus[id]->need_entry = true;
		if ((uint32_t)id >= im->vcpu_end)
			im->vcpu_end = (uint32_t)id + 1;
	}
	*out = im->vcpus[id];
	return 0;
}

/*
 * The record's vcpu field; else the vCPU its thread was last seen with; else the lowest index
 * no thread has been seen with, in order of first appearance (a thread becomes a vCPU thread
 * with its first vCPU-context record), counted in stats.guessed_threads: only records the hold
 * (import_hold()) let go without a vCPU get there. A vCPU known only from
 * kvm_apic_accept_irq's apicid (sent from elsewhere) does not take an index from the threads.
 */
static int vcpu_of(struct trace_import *im, const struct kvm_record *rec, int32_t *id)
{
	struct thread_slot *s;
	int ret;

	if (rec->vcpu >= 0) {
		if (rec->vcpu >= VPMC_MAX_VCPUS)
			return vpmc__set_error(&im->err, VPMC_ERR_LIMIT,
					       "vcpu %d out of range 0..%d", rec->vcpu,
					       VPMC_MAX_VCPUS - 1);
		*id = rec->vcpu;
		if (rec->kind == KVM_REC_APIC_ACCEPT_IRQ)
			return 0;
		im->stats.vcpu_fields = true;
		return thread_bind(im, rec->tid, *id);
	}
	if (im->last.used && im->last.tid == rec->tid) {
		*id = im->last.vcpu;
		return 0;
	}
	s = thread_find(im, rec->tid);
	if (s) {
		im->last = *s;
		*id = s->vcpu;
		return 0;
	}
	while (im->next_auto < VPMC_MAX_VCPUS &&
	       im->claimed[im->next_auto / 32] & (1u << (im->next_auto % 32)))
		im->next_auto++;
	if (im->next_auto >= VPMC_MAX_VCPUS)
		return vpmc__set_error(&im->err, VPMC_ERR_LIMIT,
				       "thread %lld: more than %d vCPUs", (long long)rec->tid,
				       VPMC_MAX_VCPUS);
	ret = thread_bind(im, rec->tid, im->next_auto);
	if (ret)
		return ret;
	*id = im->next_auto;
	if (!im->stats.guessed_threads++) {
		im->stats.guessed_tid = rec->tid;
		im->stats.guessed_vcpu = (uint32_t)*id;
	}
	return 0;
}

/* Records that only a vCPU thread emits (kvm_apic_accept_irq: by apicid). */
static bool is_vcpu_context(enum kvm_rec_kind kind)
{
	return kind != KVM_REC_OTHER && kind != KVM_REC_LOST && kind < KVM_REC_NR;
}

/* ---- output ----------------------------------------------------------------------------- */

/* emit() sets every field of an event: one more field, one more line there */
_Static_assert(sizeof(struct vpmc_event) == 96, "a field emit() does not clear");

static struct vpmc_event *emit(struct trace_import *im, uint32_t vcpu, enum vpmc_event_type type,
			       uint64_t time_ns)
{
	struct vpmc_event *ev = &im->queue[(im->head + im->count) % IMPORT_QUEUE];

	/* Callers drain after each push; one record makes at most 4 events. */
	if (im->count == IMPORT_QUEUE)
		return NULL;
	im->count++;
	/* field by field: a memset() of the event compiled to rep stos, whose start-up was most of
	 * settle()'s time (perf: 67% of its samples on the instruction after it) */
	ev->time_ns = time_ns;
	ev->vcpu = vcpu;
	ev->type = type;
	ev->cpl = VPMC_CPL_KEEP;
	ev->branch = ev->has_value = false;
	ev->index = 0;
	ev->value = ev->insn = ev->br = 0;
	memset(ev->reason, 0, sizeof(ev->reason));
	return ev;
}

static int queue_full(struct trace_import *im)
{
	return vpmc__set_error(&im->err, VPMC_ERR_LIMIT,
			       "event queue full (trace_import_pop() after every push)");
}

/* The pending instruction retires (3.1): kvm_pmu_instruction_retired(), +branch if IsBranch. */
static int settle(struct trace_import *im, uint32_t id, struct import_vcpu *v)
{
	struct vpmc_event *ev;
	bool branch = v->pend_branch;
	enum pending p = v->pend;

	v->pend = PEND_NONE;
	if (p == PEND_NONE)
		return 0;
	ev = emit(im, id, VPMC_EV_RETIRE, v->last_time);
	if (!ev)
		return queue_full(im);
	ev->branch = branch || p == PEND_VMRUN;
	return 0;
}

/* ---- record handlers -------------------------------------------------------------------- */

static int import_entry(struct trace_import *im, uint32_t id, struct import_vcpu *v, uint64_t t)
{
	int ret = settle(im, id, v);

	if (ret)
		return ret;
	if (!emit(im, id, VPMC_EV_ENTRY, t))
		return queue_full(im);
	v->in_guest = true;
	v->entry_time = t;
	v->need_entry = false;
	return 0;
}

/* guest insn=N br=M for the entry -> exit interval, N = interval * guest_ips (floor). */
static int emit_guest(struct trace_import *im, uint32_t id, struct import_vcpu *v, uint64_t t)
{
	unsigned __int128 n = (unsigned __int128)(t - v->entry_time) * im->opts.guest_ips /
			      1000000000u;
	unsigned __int128 br;
	struct vpmc_event *ev;

	if (n > UINT64_MAX)
		n = UINT64_MAX;
	br = n * im->opts.guest_branch_permille / 1000u;
	ev = emit(im, id, VPMC_EV_GUEST, t);
	if (!ev)
		return queue_full(im);
	ev->insn = (uint64_t)n;
	ev->br = (uint64_t)(br > n ? n : br);
	return 0;
}

/*
 * kvm_exit: the guest segment since the entry, the exit, then what the handler will retire.
 * VMLAUNCH/VMRESUME (nested_vmx_run(), 3.1) retire a branch always and an instruction only on
 * VM-fail; the native format has no "branch without instruction", so a successful entry
 * (kvm_nested_vmenter before the next kvm_entry) emits nothing and a VM-fail "retire branch".
 */
static int import_exit(struct trace_import *im, uint32_t id, struct import_vcpu *v,
		   const struct kvm_record *rec, uint64_t t)
{
	struct vpmc_event *ev;
	int ret = settle(im, id, v);

	if (ret)
		return ret;
	if (v->in_guest && im->opts.guest_ips) {
		ret = emit_guest(im, id, v, t);
		if (ret)
			return ret;
	}
	ev = emit(im, id, VPMC_EV_EXIT, t);
	if (!ev)
		return queue_full(im);
	memcpy(ev->reason, rec->reason, sizeof(ev->reason));
	trace_exit_kernel_name(&im->names, ev->reason);
	v->in_guest = false;
	switch (exit_reason_kind(ev->reason)) {
	case EXIT_SKIP:
		v->pend = PEND_SKIP;
		v->pend_branch = false;
		break;
	case EXIT_VMRUN:
		v->pend = PEND_VMRUN;
		v->pend_branch = true;
		break;
	case EXIT_OTHER:
		break;
	}
	return 0;
}

/*
 * kvm_emulate_insn: trace_kvm_emulate_insn_start() at decode, before the instruction's kvm_msr /
 * kvm_pio / exception; trace_kvm_emulate_insn_failed() (same rip) from handle_emulation_failure(),
 * after which x86_emulate_instruction() retires nothing.
 */
static int import_emulate(struct trace_import *im, uint32_t id, struct import_vcpu *v,
		      const struct kvm_record *rec, uint64_t t)
{
	int ret;

	if (rec->failed) {
		if (v->pend == PEND_EMULATE && v->pend_rip == rec->rip)
			v->pend = PEND_NONE;
		return 0;
	}
	/* A skip-kind exit whose instruction the emulator runs retires through the emulator. */
	if (v->pend == PEND_SKIP)
		v->pend = PEND_NONE;
	ret = settle(im, id, v);
	if (ret)
		return ret;
	/* opts.nested: "vpmcsim nested" closes exits at real kvm_entry records only */
	if (!im->hw_entries && v->need_entry && !im->opts.nested) {
		ret = import_entry(im, id, v, t);
		if (ret)
			return ret;
		v->in_guest = false; /* synthesized: no guest-mode time to count */
		im->stats.synthesized_entries++;
	}
	v->pend = PEND_EMULATE;
	v->pend_rip = rec->rip;
	v->pend_branch = x86_insn_classify(rec->insn, rec->insn_len, rec->mode,
					   im->opts.host_kernel) == X86_INSN_BRANCH;
	return 0;
}

/* kvm_msr: the access is applied before its instruction is skipped (3.6); #GP: neither. */
static int import_msr(struct trace_import *im, uint32_t id, struct import_vcpu *v,
		  const struct kvm_record *rec, uint64_t t)
{
	struct vpmc_event *ev;

	if (rec->gp) {
		v->pend = PEND_NONE;
		return 0;
	}
	ev = emit(im, id, rec->write ? VPMC_EV_WRMSR : VPMC_EV_RDMSR, t);
	if (!ev)
		return queue_full(im);
	ev->index = rec->msr;
	ev->value = rec->data;
	ev->has_value = !rec->write;
	return 0;
}

/*
 * One `irq` per interrupt: at kvm_inj_virq (non-reinjected), or at kvm_apic_accept_irq for a
 * vCPU that has shown no kvm_inj_virq (APICv/posted delivery never traces one). An accepted
 * vector stays marked until its first injection, so the usual accept -> inject pair counts once.
 */
static int import_irq(struct trace_import *im, uint32_t id, struct import_vcpu *v,
		  const struct kvm_record *rec, uint64_t t)
{
	uint32_t vec = rec->vector & 0xff, bit = 1u << (vec % 32);
	struct vpmc_event *ev;

	if (rec->kind == KVM_REC_INJ_VIRQ) {
		if (rec->reinjected)
			return 0;
		v->virq_seen = true;
		if (v->accepted[vec / 32] & bit) {
			v->accepted[vec / 32] &= ~bit;
			return 0;
		}
	} else {
		if (v->virq_seen || (rec->dm != APIC_DM_FIXED && rec->dm != APIC_DM_LOWPRIO))
			return 0;
		v->accepted[vec / 32] |= bit;
	}
	ev = emit(im, id, VPMC_EV_IRQ, t);
	if (!ev)
		return queue_full(im);
	ev->index = vec;
	return 0;
}

static int import_simple(struct trace_import *im, uint32_t id, enum vpmc_event_type type,
			 uint32_t index, uint64_t value, uint64_t t)
{
	struct vpmc_event *ev = emit(im, id, type, t);

	if (!ev)
		return queue_full(im);
	ev->index = index;
	ev->value = value;
	return 0;
}

/* opts.nested_events: the nested event of a kvm_nested_* record (nested_import.c), if it makes one. */
static int import_nested(struct trace_import *im, uint32_t id, const struct kvm_record *rec,
			 uint64_t t)
{
	struct vpmc_event nev, *ev;

	if (!nested_record_event(rec, &nev))
		return 0;
	ev = emit(im, id, nev.type, t);
	if (!ev)
		return queue_full(im);
	nev.time_ns = ev->time_ns;
	nev.vcpu = ev->vcpu;
	*ev = nev;
	return 0;
}

static int dispatch(struct trace_import *im, uint32_t id, struct import_vcpu *v,
		    const struct kvm_record *rec, uint64_t t)
{
	switch (rec->kind) {
	case KVM_REC_ENTRY:
		return import_entry(im, id, v, t);
	case KVM_REC_EXIT:
		return import_exit(im, id, v, rec, t);
	case KVM_REC_EMULATE_INSN:
		return import_emulate(im, id, v, rec, t);
	case KVM_REC_MSR:
		return import_msr(im, id, v, rec, t);
	case KVM_REC_INJ_EXCEPTION:
		if (!rec->reinjected && exception_is_fault(rec->vector))
			v->pend = PEND_NONE;
		break;
	case KVM_REC_INJ_VIRQ:
	case KVM_REC_APIC_ACCEPT_IRQ:
		return import_irq(im, id, v, rec, t);
	case KVM_REC_EOI:
		return import_simple(im, id, VPMC_EV_EOI, rec->vector, 0, t);
	case KVM_REC_APIC:
		if (rec->write && rec->reg == APIC_LVTPC)
			return import_simple(im, id, VPMC_EV_LVTPC, 0, rec->data, t);
		break;
	case KVM_REC_USERSPACE_EXIT:
		v->need_entry = true;
		break;
	case KVM_REC_NESTED_VMEXIT_INJECT:
		/* Reflected to L1 (nested_vmx_vmexit / nested_svm_vmexit): L0 retires nothing. */
		v->pend = PEND_NONE;
		break;
	case KVM_REC_NESTED_VMENTER:
		if (v->pend == PEND_VMRUN)
			v->pend = PEND_NONE;
		break;
	case KVM_REC_MMIO:
		if (im->opts.accesses)
			return import_simple(im, id, VPMC_EV_MMIO, rec->mmio_type, rec->gpa, t);
		break;
	case KVM_REC_PIO:
		if (im->opts.accesses)
			return import_simple(im, id, VPMC_EV_PIO, rec->port, rec->write, t);
		break;
	default:
		break;
	}
	if (im->opts.nested_events && rec->kind >= KVM_REC_NESTED_VMEXIT &&
	    rec->kind <= KVM_REC_NESTED_OTHER)
		return import_nested(im, id, rec, t);
	im->stats.ignored_records++;
	return 0;
}

/* A vCPU-context record: its vCPU, then its events. */
static int import_record(struct trace_import *im, const struct kvm_record *rec)
{
	struct import_vcpu *v = NULL;
	int32_t id = 0;
	uint64_t t;
	int ret;

	im->line = rec->pos;
	ret = vcpu_of(im, rec, &id);
	if (!ret)
		ret = vcpu_get(im, id, &v);
	if (ret)
		return ret;
	if (rec->kind == KVM_REC_ENTRY || rec->kind == KVM_REC_EXIT)
		im->hw_entries = true;
	/* Per-vCPU time never goes back (the model needs it): a record that does is clamped. */
	t = rec->has_time && rec->time_ns > v->last_time ? rec->time_ns : v->last_time;
	if (rec->has_time && rec->time_ns < v->last_time) {
		im->went_back = true;
		im->back = (struct trace_import_back){ (uint32_t)id, rec->time_ns, v->last_time };
		im->stats.time_backwards++;
	}
	ret = dispatch(im, (uint32_t)id, v, rec, t);
	v->last_time = t;
	return ret;
}

/* ---- a record waits for its thread's vCPU ---------------------------------------------- */

/* Whether @rec's vCPU is known: its vcpu field (or apicid), or its thread's. */
static bool hold_resolved(struct trace_import *im, const struct kvm_record *rec)
{
	return rec->vcpu >= 0 || (im->last.used && im->last.tid == rec->tid) ||
	       thread_find(im, rec->tid);
}

/* Move the held records from the oldest on, while their vCPU is known, to the ready list
 * (processed by trace_import_pop()), in order. */
static void hold_drain(struct trace_import *im)
{
	size_t n = 0;

	while (n < im->nr_held && hold_resolved(im, &im->held[n]))
		im->ready[im->nr_ready++] = im->held[n++];
	memmove(im->held, im->held + n, (im->nr_held - n) * sizeof(*im->held));
	im->nr_held -= n;
}

/* The oldest held record's thread will not show its vCPU in time: number it by order of
 * appearance (vcpu_of()), and let the records go. Return: 0 or an error. */
static int hold_force(struct trace_import *im)
{
	int32_t id;
	int ret = vcpu_of(im, &im->held[0], &id);

	if (!ret)
		hold_drain(im);
	return ret;
}

/*
 * A record without a vcpu field from a thread not yet seen with one (an old-layout kvm_exit
 * before the thread's first kvm_entry "vcpu N"; traces/public/50) waits until the thread shows
 * its vCPU (a vcpu field), so that it never goes to a vCPU that does not exist; so do the
 * records after it, so that their order stays the trace's. At most TRACE_IMPORT_HOLD_MAX wait:
 * then, and at the end, the oldest one's thread is numbered by order of appearance.
 * Return: 1 (it waits, or goes behind those that waited), 0 (process it now), or an error.
 */
static int import_hold(struct trace_import *im, const struct kvm_record *rec)
{
	int ret;

	if (!im->nr_held && hold_resolved(im, rec))
		return 0;
	if (!im->held) {
		im->held = calloc(TRACE_IMPORT_HOLD_MAX, sizeof(*im->held));
		im->ready = calloc(TRACE_IMPORT_HOLD_MAX, sizeof(*im->ready));
		if (!im->held || !im->ready)
			return VPMC_ERR_NOMEM;
	}
	/* a vcpu field tells the vCPU of the thread's records that wait (an index out of range
	 * fails when the record is processed) */
	if (rec->vcpu >= 0 && rec->vcpu < VPMC_MAX_VCPUS && rec->kind != KVM_REC_APIC_ACCEPT_IRQ) {
		ret = thread_bind(im, rec->tid, rec->vcpu);
		if (ret)
			return ret;
	}
	im->held[im->nr_held++] = *rec;
	hold_drain(im);
	if (im->nr_held == TRACE_IMPORT_HOLD_MAX) {
		ret = hold_force(im);
		if (ret)
			return ret;
	}
	return 1;
}

int trace_import_push(struct trace_import *im, const struct kvm_record *rec)
{
	int ret;

	im->went_back = false;
	if (im->ready_pos < im->nr_ready) /* trace_import_went_back() was true: pop again */
		return queue_full(im);
	if (!is_vcpu_context(rec->kind) || (rec->kind == KVM_REC_APIC_ACCEPT_IRQ && rec->vcpu < 0))
		return 0;
	ret = import_hold(im, rec);
	if (ret)
		return ret < 0 ? ret : 0;
	return import_record(im, rec);
}

int trace_import_finish(struct trace_import *im)
{
	im->finishing = true;
	return 0;
}

int trace_import_pop(struct trace_import *im, struct vpmc_event *ev)
{
	int ret;

	for (;;) {
		while (!im->count && !im->went_back && im->ready_pos < im->nr_ready) {
			ret = import_record(im, &im->ready[im->ready_pos++]);
			if (ret)
				return ret;
		}
		if (im->ready_pos == im->nr_ready)
			im->nr_ready = im->ready_pos = 0;
		/* at the end, what still waits goes, oldest thread first */
		if (im->count || im->went_back || im->nr_ready || !im->finishing || !im->nr_held)
			break;
		ret = hold_force(im);
		if (ret)
			return ret;
	}
	/* At the end, each vCPU's pending instruction retires, one vCPU per call. */
	if (!im->count && im->finishing)
		im->line = 0; /* no record's: the end of the input */
	while (!im->count && im->finishing && im->finish_cursor < im->vcpu_end) {
		struct import_vcpu *v = im->vcpus[im->finish_cursor];

		if (v && settle(im, im->finish_cursor, v))
			return 0;
		im->finish_cursor++;
	}
	if (!im->count)
		return 0;
	*ev = im->queue[im->head];
	im->head = (im->head + 1) % IMPORT_QUEUE;
	im->count--;
	return 1;
}
