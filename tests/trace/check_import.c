// SPDX-License-Identifier: GPL-2.0-only
/* check_import.c - kvm records -> native events (lib/import.c), on hand-made record sequences.
 *
 * Each case is a record sequence and the events KVM's code implies, written as .vtr-like lines
 * "TIME VCPU EVENT [args]" (formatted here, independently of the .vtr writer). The comment of
 * each case says which kernel path decides it (kvm-vpmu-semantics.md section 3).
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "check_common.h"
#include "events.h"
#include "import.h"
#include "internal.h"

/* ---- record builders -------------------------------------------------------------------- */

static struct kvm_record base(enum kvm_rec_kind kind, const char *name, int64_t tid, uint64_t t)
{
	struct kvm_record r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	snprintf(r.name, sizeof(r.name), "%s", name);
	r.time_ns = t;
	r.has_time = true;
	r.tid = tid;
	r.cpu = 0;
	r.vcpu = -1;
	return r;
}

static struct kvm_record entry(int32_t vcpu, int64_t tid, uint64_t t)
{
	struct kvm_record r = base(KVM_REC_ENTRY, "kvm_entry", tid, t);

	r.vcpu = vcpu;
	return r;
}

/* kvm_exit in the plugin layout: no vcpu field, the thread identifies the vCPU. */
static struct kvm_record kexit(int64_t tid, uint64_t t, const char *reason)
{
	struct kvm_record r = base(KVM_REC_EXIT, "kvm_exit", tid, t);

	snprintf(r.reason, sizeof(r.reason), "%s", reason);
	return r;
}

static struct kvm_record msr(int64_t tid, uint64_t t, bool write, uint32_t idx, uint64_t data,
			     bool gp)
{
	struct kvm_record r = base(KVM_REC_MSR, "kvm_msr", tid, t);

	r.write = write;
	r.msr = idx;
	r.data = data;
	r.gp = gp;
	return r;
}

static struct kvm_record emul(int64_t tid, uint64_t t, uint64_t rip, enum kvm_insn_mode mode,
			      bool failed, const char *hex)
{
	struct kvm_record r = base(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", tid, t);
	unsigned int b;
	int n;

	r.rip = rip;
	r.mode = mode;
	r.failed = failed;
	while (r.insn_len < KVM_INSN_MAX && sscanf(hex, "%x%n", &b, &n) == 1) {
		r.insn[r.insn_len++] = (uint8_t)b;
		hex += n;
	}
	return r;
}

static struct kvm_record exc(int64_t tid, uint64_t t, uint32_t vector, bool reinjected)
{
	struct kvm_record r = base(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", tid, t);

	r.vector = vector;
	r.reinjected = reinjected;
	return r;
}

static struct kvm_record simple(enum kvm_rec_kind kind, const char *name, int64_t tid, uint64_t t)
{
	return base(kind, name, tid, t);
}

static struct kvm_record virq(int64_t tid, uint64_t t, uint32_t vector, bool reinjected)
{
	struct kvm_record r = base(KVM_REC_INJ_VIRQ, "kvm_inj_virq", tid, t);

	r.vector = vector;
	r.reinjected = reinjected;
	return r;
}

static struct kvm_record accept(int64_t tid, uint64_t t, int32_t apicid, uint32_t vector,
				uint32_t dm)
{
	struct kvm_record r = base(KVM_REC_APIC_ACCEPT_IRQ, "kvm_apic_accept_irq", tid, t);

	r.vcpu = apicid;
	r.vector = vector;
	r.dm = dm;
	return r;
}

static struct kvm_record apic(int64_t tid, uint64_t t, bool write, uint32_t reg, uint64_t val)
{
	struct kvm_record r = base(KVM_REC_APIC, "kvm_apic", tid, t);

	r.write = write;
	r.reg = reg;
	r.data = val;
	return r;
}

static struct kvm_record eoi(int64_t tid, uint64_t t, uint32_t vector)
{
	struct kvm_record r = base(KVM_REC_EOI, "kvm_eoi", tid, t);

	r.vector = vector;
	return r;
}

#define FPU_LOAD(tid, t) fpu(tid, t, true)
static struct kvm_record fpu(int64_t tid, uint64_t t, bool load)
{
	struct kvm_record r = base(KVM_REC_FPU, "kvm_fpu", tid, t);

	r.write = load;
	return r;
}

static struct kvm_record pio(int64_t tid, uint64_t t, bool write)
{
	struct kvm_record r = base(KVM_REC_PIO, "kvm_pio", tid, t);

	r.write = write;
	r.port = 0xe9;
	r.size = 1;
	r.count = 1;
	return r;
}

#define UEXIT(tid, t) simple(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", tid, t)
#define OTHER(tid, t) simple(KVM_REC_OTHER, "kvm_update_master_clock", tid, t)

/* ---- running the importer --------------------------------------------------------------- */

static const struct trace_import_opts no_guest = { .host_kernel = VPMC_KERNEL(6, 18) };

/* Push @recs, pop after every push and at the end; the events as "line\n" text. */
static void run(const struct trace_import_opts *opts, const struct kvm_record *recs, size_t n,
		char *out, size_t len, struct trace_import_stats *st)
{
	struct trace_import *im;
	struct vpmc_event ev;
	size_t i, used = 0;
	char line[160];

	ck_assert_int_eq(trace_import_new(&im, opts), 0);
	out[0] = '\0';
	for (i = 0; i <= n; i++) {
		if (i < n)
			ck_assert_msg(trace_import_push(im, &recs[i]) == 0, "record %zu: %s", i,
				      trace_import_error(im));
		else
			ck_assert_int_eq(trace_import_finish(im), 0);
		for (;;) {
			struct trace_import_back back;
			int ret = trace_import_pop(im, &ev);

			/* a record that went back stops the held ones behind it: pop again */
			if (trace_import_went_back(im, &back) && !ret)
				continue;
			if (ret != 1)
				break;
			format_event(&ev, 1, line, sizeof(line));
			used += snprintf(out + used, len - used, "%s\n", line);
			ck_assert_uint_lt(used, len);
		}
	}
	if (st)
		trace_import_get_stats(im, st);
	trace_import_free(im);
}

#define RUN(opts, want, ...)                                                                  \
	do {                                                                                  \
		const struct kvm_record recs_[] = { __VA_ARGS__ };                            \
		char got_[4096];                                                              \
		run(opts, recs_, ARRAY_SIZE(recs_), got_, sizeof(got_), &stats);              \
		ck_assert_msg(!strcmp(got_, want), "got:\n%s\nwant:\n%s", got_, want);        \
	} while (0)

static struct trace_import_stats stats;

/* ---- VMX/SVM traces: kvm_entry / kvm_exit ----------------------------------------------- */

/* handle_cpuid() -> kvm_emulate_cpuid() -> kvm_skip_emulated_instruction(): one instruction,
 * retired before the next entry (at the time of the exit's last record). */
START_TEST(test_cpuid_exit_retires_once_before_entry)
{
	RUN(&no_guest,
	    "10 0 entry\n20 0 exit CPUID\n21 0 retire\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "CPUID"),
	    simple(KVM_REC_CPUID, "kvm_cpuid", 100, 21), entry(0, 100, 30));
	ck_assert_uint_eq(stats.synthesized_entries, 0);
}
END_TEST

/* kvm_emulate_wrmsr(): kvm_set_msr() first, then kvm_skip_emulated_instruction() (3.6). */
START_TEST(test_msr_write_then_retire)
{
	RUN(&no_guest,
	    "10 0 entry\n20 0 exit MSR_WRITE\n21 0 wrmsr 0x186 0x5300c0\n21 0 retire\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "MSR_WRITE"), msr(100, 21, true, 0x186, 0x5300c0, 0),
	    entry(0, 100, 30));
}
END_TEST

/* RDMSR: the value read is the real guest's (a check), its retirement follows. */
START_TEST(test_msr_read_has_value)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit MSR_READ\n21 0 rdmsr 0xc1 0x5\n21 0 retire\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "MSR_READ"), msr(100, 21, false, 0xc1, 5, 0),
	    entry(0, 100, 30));
}
END_TEST

/* A faulting access: kvm_msr "(#GP)", kvm_inject_gp(), no skip: no effect, no retire. */
START_TEST(test_msr_gp_no_effect_no_retire)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit MSR_WRITE\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "MSR_WRITE"), msr(100, 21, true, 0x38d, 0xb, 1),
	    exc(100, 22, 13, false), entry(0, 100, 30));
}
END_TEST

/* XSETBV with a bad XCR0: kvm_emulate_xsetbv() injects #GP instead of skipping. */
START_TEST(test_fault_cancels_skip_exit)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit XSETBV\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "XSETBV"), exc(100, 22, 13, false),
	    entry(0, 100, 30));
}
END_TEST

/* Emulation that fails: trace_kvm_emulate_insn_start() then _failed() (same rip) from
 * handle_emulation_failure(), #UD queued; x86_emulate_instruction() never reaches writeback. */
START_TEST(test_emulate_fail_no_retire)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit EPT_VIOLATION\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "EPT_VIOLATION"),
	    emul(100, 21, 0xfffff802987d6169ULL, KVM_MODE_UNKNOWN, false, "f3 a5"),
	    emul(100, 22, 0xfffff802987d6169ULL, KVM_MODE_UNKNOWN, true, "f3 a5"),
	    exc(100, 23, 6, false), entry(0, 100, 30));
}
END_TEST

/* A failed record for another rip (the start was before the trace) cancels nothing. */
START_TEST(test_emulate_fail_other_rip_keeps_pending)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit EPT_VIOLATION\n22 0 retire\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "EPT_VIOLATION"),
	    emul(100, 21, 0x1000, KVM_MODE_PROT64, false, "89 07"),
	    emul(100, 22, 0x2000, KVM_MODE_PROT64, true, "89 07"), entry(0, 100, 30));
}
END_TEST

/* String I/O: handle_io() -> kvm_emulate_instruction(): the emulator retires it (one
 * instruction, REP INSB is not a branch), not kvm_skip_emulated_instruction() as well. */
START_TEST(test_string_io_retires_once_via_emulator)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit IO_INSTRUCTION\n24 0 retire\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "IO_INSTRUCTION"),
	    emul(100, 21, 0x4000, KVM_MODE_PROT64, false, "f3 6c"), pio(100, 22, false),
	    UEXIT(100, 23), FPU_LOAD(100, 24), entry(0, 100, 30));
	ck_assert_uint_eq(stats.synthesized_entries, 0);
}
END_TEST

/* MMIO through the emulator: CALL [rip+0x10] (FF /2) is IsBranch. */
START_TEST(test_emulated_call_is_branch)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit EPT_VIOLATION\n21 0 retire branch\n30 0 entry\n",
	    entry(0, 100, 10), kexit(100, 20, "EPT_VIOLATION"),
	    emul(100, 21, 0x4000, KVM_MODE_PROT64, false, "ff 15 10 00 00 00"),
	    entry(0, 100, 30));
}
END_TEST

/* Exits that retire nothing (3.4) and SVM / plugin / ancient names of skip exits (3.2). */
/*
 * The exit names of every layout, each given the kernel's spelling (issue 17 item 8; what perf
 * kvm stat prints: SVM_EXIT_REASONS, VMX_EXIT_REASONS): the plugin's EXIT_IOIO is SVM_EXIT_IOIO
 * (0x07b), "io"; 2.6.3x's io_instruction is EXIT_REASON_IO_INSTRUCTION (30), IO_INSTRUCTION;
 * flags after the name stay.
 */
START_TEST(test_exit_reason_alphabets)
{
	RUN(&no_guest,
	    "10 0 entry\n20 0 exit EXTERNAL_INTERRUPT\n30 0 entry\n40 0 exit msr\n"
	    "41 0 wrmsr 0x6e0 0x1\n41 0 retire\n50 0 entry\n60 0 exit io\n60 0 retire\n"
	    "70 0 entry\n80 0 exit IO_INSTRUCTION\n80 0 retire\n90 0 entry\n"
	    "100 0 exit INVALID_STATE FAILED_VMENTRY\n110 0 entry\n120 0 exit npf\n130 0 entry\n"
	    "140 0 exit hypercall\n140 0 retire\n150 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "EXTERNAL_INTERRUPT"), entry(0, 1, 30),
	    kexit(1, 40, "msr"), msr(1, 41, true, 0x6e0, 1, 0), entry(0, 1, 50),
	    kexit(1, 60, "EXIT_IOIO"), entry(0, 1, 70), kexit(1, 80, "io_instruction"),
	    entry(0, 1, 90), kexit(1, 100, "INVALID_STATE FAILED_VMENTRY"), entry(0, 1, 110),
	    kexit(1, 120, "npf"), entry(0, 1, 130), kexit(1, 140, "hypercall"), entry(0, 1, 150));
}
END_TEST

/*
 * One name per exit (issue 17 item 8): the same SVM exits in the plugin's and the kernel's
 * spelling give the same events. EXIT_MSR = SVM_EXIT_MSR (0x07c), "msr"; EXIT_EXCP_GP = 0x04d,
 * "GP excp"; EXIT_NPF = 0x400, "npf". Lower-case "hlt" and "cpuid" are SVM names and stay;
 * apic_access (2.6.3x VMX) is APIC_ACCESS (44).
 */
START_TEST(test_exit_names_one_per_exit)
{
	/* msr, hlt, cpuid and APIC_ACCESS skip their instruction: a retire before the next */
	static const char want[] = "10 0 exit msr\n10 0 retire\n20 0 exit GP excp\n30 0 exit npf\n"
				   "40 0 exit hlt\n40 0 retire\n50 0 exit cpuid\n50 0 retire\n"
				   "60 0 exit APIC_ACCESS\n60 0 retire\n";

	RUN(&no_guest, want, kexit(1, 10, "EXIT_MSR"), kexit(1, 20, "EXIT_EXCP_GP"),
	    kexit(1, 30, "EXIT_NPF"), kexit(1, 40, "hlt"), kexit(1, 50, "cpuid"),
	    kexit(1, 60, "apic_access"));
	RUN(&no_guest, want, kexit(1, 10, "msr"), kexit(1, 20, "GP excp"), kexit(1, 30, "npf"),
	    kexit(1, 40, "hlt"), kexit(1, 50, "cpuid"), kexit(1, 60, "APIC_ACCESS"));
}
END_TEST

/* Nested: an L2 exit reflected to L1 (kvm_nested_vmexit_inject) is not skipped by L0. */
START_TEST(test_nested_reflected_exit_no_retire)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit CPUID\n30 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "CPUID"),
	    simple(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", 1, 20),
	    simple(KVM_REC_NESTED_VMEXIT_INJECT, "kvm_nested_vmexit_inject", 1, 21),
	    entry(0, 1, 30));
}
END_TEST

/* nested_vmx_run(): kvm_pmu_branch_retired(), then either the nested entry (the L1 instruction
 * is not retired: nothing to emit, see import.c) or VM-fail, skipped: instruction + branch. */
START_TEST(test_vmlaunch_vmresume)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit VMRESUME\n30 0 entry\n40 0 exit VMLAUNCH\n"
		       "40 0 retire branch\n50 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "VMRESUME"),
	    simple(KVM_REC_NESTED_VMENTER, "kvm_nested_vmenter", 1, 21), entry(0, 1, 30),
	    kexit(1, 40, "VMLAUNCH"), entry(0, 1, 50));
}
END_TEST

/* #BP and #OF are trap-like (exception_type() == EXCPT_TRAP): INT3 still retires, as a branch;
 * a reinjected #GP belongs to an earlier instruction. */
START_TEST(test_trap_and_reinjected_exceptions_keep_retire)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit EXCEPTION_NMI\n22 0 retire branch\n30 0 entry\n"
		       "40 0 exit EPT_VIOLATION\n42 0 retire\n50 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "EXCEPTION_NMI"),
	    emul(1, 21, 0x10, KVM_MODE_PROT64, false, "cc"), exc(1, 22, 3, false),
	    entry(0, 1, 30), kexit(1, 40, "EPT_VIOLATION"),
	    emul(1, 41, 0x20, KVM_MODE_PROT64, false, "89 07"), exc(1, 42, 13, true),
	    entry(0, 1, 50));
}
END_TEST

/* A kvm_userspace_exit in a trace with kvm_entry adds no entry: the real one follows. */
START_TEST(test_hw_trace_no_synthesized_entries)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit HLT\n23 0 retire\n30 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "HLT"), fpu(1, 21, false), UEXIT(1, 22),
	    FPU_LOAD(1, 23), entry(0, 1, 30));
	ck_assert_uint_eq(stats.synthesized_entries, 0);
}
END_TEST

/* ---- guest-mode time -------------------------------------------------------------------- */

/* N = floor(1234567 ns * 2.5e9 / 1e9) = floor(3086417.5) = 3086417;
 * br = floor(3086417 * 150 / 1000) = floor(462962.55) = 462962. */
START_TEST(test_guest_insn_exact)
{
	const struct trace_import_opts o = { .guest_ips = 2500000000ULL, .guest_branch_permille = 150,
					   .host_kernel = VPMC_KERNEL(6, 18) };

	RUN(&o, "1000 0 entry\n1235567 0 guest insn=3086417 br=462962\n1235567 0 exit HLT\n"
		"1235567 0 retire\n1235570 0 entry\n",
	    entry(0, 1, 1000), kexit(1, 1235567, "HLT"), entry(0, 1, 1235570));
}
END_TEST

/* 1000 s at 1e10 instructions/s: 1e13 (the product 1e22 needs more than 64 bits). */
START_TEST(test_guest_insn_no_overflow)
{
	const struct trace_import_opts o = { .guest_ips = 10000000000ULL, .guest_branch_permille = 1000,
					   .host_kernel = VPMC_KERNEL(6, 18) };

	RUN(&o, "0 0 entry\n1000000000000 0 guest insn=10000000000000 br=10000000000000\n"
		"1000000000000 0 exit EXTERNAL_INTERRUPT\n",
	    entry(0, 1, 0), kexit(1, 1000000000000ULL, "EXTERNAL_INTERRUPT"));
}
END_TEST

/* The default rates (import.h): 100 ns at 1e9/s = 100 instructions, 200 permille = 20. */
START_TEST(test_guest_default_rates)
{
	const struct trace_import_opts o = {
		.guest_ips = TRACE_IMPORT_DEFAULT_GUEST_IPS,
		.guest_branch_permille = TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE,
		.host_kernel = VPMC_KERNEL(6, 18),
	};

	RUN(&o, "0 0 entry\n100 0 guest insn=100 br=20\n100 0 exit PAUSE_INSTRUCTION\n"
		"100 0 retire\n",
	    entry(0, 1, 0), kexit(1, 100, "PAUSE_INSTRUCTION"));
}
END_TEST

/* No guest segment for an exit without an entry before it (the trace starts mid-exit). */
START_TEST(test_guest_needs_entry)
{
	const struct trace_import_opts o = { .guest_ips = 1000000000ULL, .guest_branch_permille = 200,
					   .host_kernel = VPMC_KERNEL(6, 18) };

	RUN(&o, "50 0 exit HLT\n50 0 retire\n60 0 entry\n", kexit(1, 50, "HLT"),
	    entry(0, 1, 60));
}
END_TEST

/* ---- PVM traces: every instruction emulated, no kvm_entry ------------------------------- */

/* traces/local-kvm/README.md: OUT = emulate, pio_write, fpu unload, userspace exit, fpu load.
 * An entry before the first instruction and before the first one after each return from
 * userspace; the OUT retires before that entry (its completion precedes vcpu_enter_guest()). */
START_TEST(test_pvm_entries_synthesized)
{
	RUN(&no_guest,
	    "2 0 entry\n2 0 retire\n3 0 retire branch\n8 0 retire\n9 0 entry\n9 0 retire\n",
	    OTHER(7, 1), FPU_LOAD(8, 1), emul(8, 2, 0x3000, KVM_MODE_REAL, false, "66 01 d8"),
	    emul(8, 3, 0x3003, KVM_MODE_REAL, false, "74 03"),
	    emul(8, 4, 0x3008, KVM_MODE_REAL, false, "e6 e9"), pio(8, 5, true), fpu(8, 6, false),
	    UEXIT(8, 7), FPU_LOAD(8, 8), emul(8, 9, 0x300a, KVM_MODE_REAL, false, "f4"));
	ck_assert_uint_eq(stats.synthesized_entries, 2);
}
END_TEST

/* README: WRMSR to 0x38d: emulate, kvm_msr (#GP), kvm_inj_exception #GP; the handler's first
 * instruction follows. RDPMC without a vPMU: emulate 0f 33, #GP. Neither retires. */
START_TEST(test_pvm_gp_sequences)
{
	RUN(&no_guest, "1 0 entry\n2 0 wrmsr 0x186 0\n2 0 retire\n",
	    emul(8, 1, 0x10, KVM_MODE_REAL, false, "0f 30"), msr(8, 2, true, 0x186, 0, 0),
	    emul(8, 3, 0x12, KVM_MODE_REAL, false, "0f 30"), msr(8, 4, true, 0x38d, 0xb, 1),
	    exc(8, 5, 13, false), emul(8, 6, 0x14, KVM_MODE_REAL, false, "0f 33"),
	    exc(8, 7, 13, false));
}
END_TEST

/* lm64 IRETQ: start (48 cf) and failed (48 cf) at the same rip: handle_emulation_failure(),
 * no retirement, although PVM then completes the IRETQ outside the emulator. */
START_TEST(test_pvm_failed_iretq)
{
	RUN(&no_guest, "1 0 entry\n1 0 retire\n",
	    emul(8, 1, 0x2004, KVM_MODE_PROT64, false, "48 83 04 24 02"),
	    emul(8, 2, 0x2009, KVM_MODE_PROT64, false, "48 cf"),
	    emul(8, 2, 0x2009, KVM_MODE_PROT64, true, "48 cf"));
}
END_TEST

/* -u: WRMSR forwarded to userspace (KVM_EXIT_X86_WRMSR), accepted: no kvm_msr, so no wrmsr
 * event (KVM's vPMU never saw it), one retirement on completion. */
START_TEST(test_pvm_user_msr)
{
	RUN(&no_guest, "1 0 entry\n4 0 retire\n5 0 entry\n5 0 retire\n",
	    emul(8, 1, 0x10, KVM_MODE_REAL, false, "0f 30"), fpu(8, 2, false), UEXIT(8, 3),
	    FPU_LOAD(8, 4), emul(8, 5, 0x12, KVM_MODE_REAL, false, "0f 30"));
	ck_assert_uint_eq(stats.synthesized_entries, 2);
}
END_TEST

/* ---- vCPU identity ---------------------------------------------------------------------- */

/* Threads in order of first vCPU-context record; the VM thread's clock events make none. */
START_TEST(test_threads_in_order_of_appearance)
{
	RUN(&no_guest, "5 0 entry\n6 1 entry\n7 0 retire\n7 1 retire\n",
	    OTHER(50, 1), OTHER(50, 2), FPU_LOAD(60, 3), FPU_LOAD(61, 4),
	    emul(60, 5, 0, KVM_MODE_REAL, false, "90"), emul(61, 6, 0, KVM_MODE_REAL, false, "90"),
	    OTHER(50, 7), fpu(60, 7, false), fpu(61, 7, false));
}
END_TEST

/* A thread learns its vCPU from kvm_entry's vcpu field; its kvm_msr then goes there. */
START_TEST(test_thread_learns_vcpu_from_entry)
{
	RUN(&no_guest, "10 3 entry\n20 3 exit MSR_WRITE\n21 3 wrmsr 0x10 0x1\n21 3 retire\n",
	    entry(3, 100, 10), kexit(100, 20, "MSR_WRITE"), msr(100, 21, true, 0x10, 1, 0));
}
END_TEST

/* traces/public/25: kvm_apic_accept_irq (apicid 0) comes first, from no thread; the records
 * of the one vCPU thread (no pid in that layout) are still vCPU 0. A second thread with no vcpu
 * field next to a thread known as vCPU 0 from kvm_entry becomes vCPU 1. */
START_TEST(test_apicid_does_not_take_thread_index)
{
	RUN(&no_guest, "1 0 irq 0xb0\n1 0 wrmsr 0x830 0xb0000440b0\n1 0 entry\n"
		       "5 1 wrmsr 0x10 0x1\n",
	    accept(-1, 1, 0, 0xb0, 0), msr(-1, 1, true, 0x830, 0xb0000440b0ULL, 0),
	    entry(0, -1, 1), msr(77, 5, true, 0x10, 1, 0));
}
END_TEST

/*
 * Issue 17 item 6: an old-layout kvm_exit (no vcpu field) before its thread's first "kvm_entry:
 * vcpu 20" waits for it. exit(t 10) -> entry vcpu 20 (15) -> exit (30) -> entry vcpu 20 (38):
 * all four on vCPU 20, two exit -> entry pairs, no vCPU 0, no thread given a vCPU by order.
 */
START_TEST(test_exit_before_first_vcpu_waits)
{
	RUN(&no_guest, "10 20 exit EPT_VIOLATION\n15 20 entry\n30 20 exit EPT_VIOLATION\n"
		       "38 20 entry\n",
	    kexit(100, 10, "EPT_VIOLATION"), entry(20, 100, 15), kexit(100, 30, "EPT_VIOLATION"),
	    entry(20, 100, 38));
	ck_assert_uint_eq(stats.guessed_threads, 0);
}
END_TEST

/*
 * The wait is bounded: TRACE_IMPORT_HOLD_MAX (64) records of thread 1 without a vcpu field fill
 * it, and thread 1's go, numbered by order of appearance: vCPU 0 (the first free index). Thread
 * 2 (the 65th record) never shows a vCPU either: at the end it is vCPU 1. Two threads given an
 * index by order.
 */
START_TEST(test_hold_is_bounded)
{
	struct kvm_record recs[TRACE_IMPORT_HOLD_MAX + 1];
	char got[8192], want[8192];
	size_t i, n = 0;

	for (i = 0; i < TRACE_IMPORT_HOLD_MAX; i++) {
		recs[i] = eoi(1, 100 + i, 0xec);
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%zu 0 eoi 0xec\n", 100 + i);
	}
	recs[i] = eoi(2, 500, 0x20);
	snprintf(want + n, sizeof(want) - n, "500 1 eoi 0x20\n");
	run(&no_guest, recs, ARRAY_SIZE(recs), got, sizeof(got), &stats);
	ck_assert_str_eq(got, want);
	ck_assert_uint_eq(stats.guessed_threads, 2);
	ck_assert_int_eq(stats.guessed_tid, 1);
	ck_assert_uint_eq(stats.guessed_vcpu, 0);
}
END_TEST

START_TEST(test_vcpu_field_out_of_range)
{
	struct trace_import *im;
	struct kvm_record r = entry(VPMC_MAX_VCPUS, 1, 10);

	ck_assert_int_eq(trace_import_new(&im, &no_guest), 0);
	ck_assert_int_eq(trace_import_push(im, &r), VPMC_ERR_LIMIT);
	ck_assert_str_eq(trace_import_error(im), "vcpu 4096 out of range 0..4095");
	trace_import_free(im);
}
END_TEST

START_TEST(test_too_many_threads)
{
	struct trace_import *im;
	struct vpmc_event ev;
	struct kvm_record r;
	int64_t tid;

	/* each thread shows its vCPU number, so nothing waits (trace_import_push()) */
	ck_assert_int_eq(trace_import_new(&im, &no_guest), 0);
	for (tid = 0; tid < VPMC_MAX_VCPUS; tid++) {
		r = FPU_LOAD(1000 + tid, 1);
		r.vcpu = (int32_t)tid;
		ck_assert_int_eq(trace_import_push(im, &r), 0);
		ck_assert_int_eq(trace_import_pop(im, &ev), 0);
	}
	/* a thread without one waits; at the end, no index is left for it */
	r = FPU_LOAD(99999, 2);
	ck_assert_int_eq(trace_import_push(im, &r), 0);
	ck_assert_int_eq(trace_import_finish(im), 0);
	ck_assert_int_eq(trace_import_pop(im, &ev), VPMC_ERR_LIMIT);
	ck_assert_str_eq(trace_import_error(im), "thread 99999: more than 4096 vCPUs");
	trace_import_free(im);
}
END_TEST

/* ---- interrupts, EOI, LVTPC ------------------------------------------------------------- */

START_TEST(test_interrupts_counted_once)
{
	/* vCPU 0: accept 0xec (from the timer thread 9, apicid 0) then its injection: one irq
	 * at acceptance; a reinjection: none; an NMI (a PMI via LVTPC): none; later ones at
	 * injection. */
	RUN(&no_guest,
	    "10 0 entry\n11 0 irq 0xec\n20 0 exit EXTERNAL_INTERRUPT\n30 0 entry\n"
	    "40 0 exit EXTERNAL_INTERRUPT\n45 0 irq 0xec\n50 0 entry\n60 0 eoi 0xec\n",
	    entry(0, 1, 10), accept(9, 11, 0, 0xec, 0), kexit(1, 20, "EXTERNAL_INTERRUPT"),
	    virq(1, 29, 0xec, false), entry(0, 1, 30), virq(1, 31, 0xec, true),
	    accept(9, 32, 0, 2, 4), kexit(1, 40, "EXTERNAL_INTERRUPT"), accept(9, 41, 0, 0xec, 0),
	    virq(1, 45, 0xec, false), entry(0, 1, 50), eoi(1, 60, 0xec));
}
END_TEST

/* APICv: no kvm_inj_virq ever; each acceptance is an interrupt. */
START_TEST(test_interrupts_apicv)
{
	RUN(&no_guest, "10 1 entry\n11 1 irq 0xec\n12 1 irq 0xec\n",
	    entry(1, 1, 10), accept(9, 11, 1, 0xec, 0), accept(9, 12, 1, 0xec, 1));
}
END_TEST

/* kvm_apic apic_write APIC_LVTPC (0x340) -> lvtpc; other registers and reads -> nothing. */
START_TEST(test_lvtpc)
{
	RUN(&no_guest, "10 0 entry\n20 0 exit APIC_WRITE\n21 0 lvtpc 0x10000\n30 0 entry\n",
	    entry(0, 1, 10), kexit(1, 20, "APIC_WRITE"), apic(1, 21, true, 0x340, 0x10000),
	    apic(1, 22, true, 0x320, 0x400ec), apic(1, 23, false, 0x340, 0x400),
	    entry(0, 1, 30));
}
END_TEST

/* ---- end of input ----------------------------------------------------------------------- */

/* Pending retirements of every vCPU are flushed at the end, in vCPU order. */
START_TEST(test_finish_flushes_each_vcpu)
{
	RUN(&no_guest, "10 0 entry\n11 1 entry\n20 0 exit CPUID\n21 1 exit HLT\n20 0 retire\n"
		       "21 1 retire\n",
	    entry(0, 1, 10), entry(1, 2, 11), kexit(1, 20, "CPUID"), kexit(2, 21, "HLT"));
}
END_TEST

/* Per-vCPU time never goes back: a record that does is clamped, counted and shown. */
START_TEST(test_time_clamped_per_vcpu)
{
	RUN(&no_guest, "10 0 entry\n10 0 exit HLT\n10 0 retire\n",
	    entry(0, 1, 10), kexit(1, 9, "HLT"));
	ck_assert_uint_eq(stats.time_backwards, 1);
}
END_TEST

/*
 * A vCPU known from kvm_apic_accept_irq's apicid while another thread's records wait: its
 * record waits behind them, so that the trace's order stays (traces/public/26: the injections
 * of a thread not yet numbered, then an accept for apicid 0 sent later). Thread 7: inj_virq 52
 * at 10 and 20, then accept 0xec for apicid 0 at 30: at the end thread 7 is vCPU 0 (the first
 * free index), and the three are vCPU 0's in time order, none going back.
 */
START_TEST(test_hold_keeps_order)
{
	RUN(&no_guest, "10 0 irq 0x34\n20 0 irq 0x34\n", virq(7, 10, 0x34, false),
	    virq(7, 20, 0x34, false), accept(9, 30, 0, 0xec, 0));
	ck_assert_uint_eq(stats.time_backwards, 0);
	ck_assert_uint_eq(stats.guessed_threads, 1);
}
END_TEST

/* trace_import_went_back() is about the last push only; other vCPUs' times do not count. */
START_TEST(test_went_back_last_push)
{
	const struct kvm_record recs[] = { entry(0, 1, 10), entry(1, 2, 5), kexit(1, 9, "HLT"),
					   kexit(2, 6, "HLT") };
	struct trace_import_back b = { 0, 0, 0 };
	struct trace_import_stats st;
	struct trace_import *im;
	struct vpmc_event ev;
	bool back[ARRAY_SIZE(recs)];
	size_t i;

	ck_assert_int_eq(trace_import_new(&im, &no_guest), 0);
	for (i = 0; i < ARRAY_SIZE(recs); i++) {
		ck_assert_int_eq(trace_import_push(im, &recs[i]), 0);
		back[i] = trace_import_went_back(im, &b);
		while (trace_import_pop(im, &ev) == 1)
			;
	}
	/* vCPU 1 at 5 after vCPU 0 at 10 is no step back; vCPU 0 at 9 after 10 is */
	ck_assert(!back[0] && !back[1] && !back[3]);
	ck_assert(back[2]);
	trace_import_get_stats(im, &st);
	ck_assert_uint_eq(st.time_backwards, 1);
	ck_assert_int_eq(trace_import_push(im, &recs[2]), 0);
	ck_assert(trace_import_went_back(im, &b));
	ck_assert_uint_eq(b.vcpu, 0);
	ck_assert_uint_eq(b.time_ns, 9);
	ck_assert_uint_eq(b.latest_ns, 10);
	trace_import_free(im);
}
END_TEST

static Suite *import_suite(void)
{
	Suite *s = suite_create("import");
	TCase *vmx = tcase_create("exits");
	TCase *guest = tcase_create("guest");
	TCase *pvm = tcase_create("pvm");
	TCase *id = tcase_create("identity");
	TCase *irq = tcase_create("irq");
	TCase *end = tcase_create("end");

	tcase_add_test(vmx, test_cpuid_exit_retires_once_before_entry);
	tcase_add_test(vmx, test_msr_write_then_retire);
	tcase_add_test(vmx, test_msr_read_has_value);
	tcase_add_test(vmx, test_msr_gp_no_effect_no_retire);
	tcase_add_test(vmx, test_fault_cancels_skip_exit);
	tcase_add_test(vmx, test_emulate_fail_no_retire);
	tcase_add_test(vmx, test_emulate_fail_other_rip_keeps_pending);
	tcase_add_test(vmx, test_string_io_retires_once_via_emulator);
	tcase_add_test(vmx, test_emulated_call_is_branch);
	tcase_add_test(vmx, test_exit_reason_alphabets);
	tcase_add_test(vmx, test_exit_names_one_per_exit);
	tcase_add_test(vmx, test_nested_reflected_exit_no_retire);
	tcase_add_test(vmx, test_vmlaunch_vmresume);
	tcase_add_test(vmx, test_trap_and_reinjected_exceptions_keep_retire);
	tcase_add_test(vmx, test_hw_trace_no_synthesized_entries);
	tcase_add_test(guest, test_guest_insn_exact);
	tcase_add_test(guest, test_guest_insn_no_overflow);
	tcase_add_test(guest, test_guest_default_rates);
	tcase_add_test(guest, test_guest_needs_entry);
	tcase_add_test(pvm, test_pvm_entries_synthesized);
	tcase_add_test(pvm, test_pvm_gp_sequences);
	tcase_add_test(pvm, test_pvm_failed_iretq);
	tcase_add_test(pvm, test_pvm_user_msr);
	tcase_add_test(id, test_threads_in_order_of_appearance);
	tcase_add_test(id, test_thread_learns_vcpu_from_entry);
	tcase_add_test(id, test_apicid_does_not_take_thread_index);
	tcase_add_test(id, test_exit_before_first_vcpu_waits);
	tcase_add_test(id, test_hold_is_bounded);
	tcase_add_test(id, test_hold_keeps_order);
	tcase_add_test(id, test_vcpu_field_out_of_range);
	tcase_add_test(id, test_too_many_threads);
	tcase_add_test(irq, test_interrupts_counted_once);
	tcase_add_test(irq, test_interrupts_apicv);
	tcase_add_test(irq, test_lvtpc);
	tcase_add_test(end, test_finish_flushes_each_vcpu);
	tcase_add_test(end, test_time_clamped_per_vcpu);
	tcase_add_test(end, test_went_back_last_push);
	suite_add_tcase(s, vmx);
	suite_add_tcase(s, guest);
	suite_add_tcase(s, pvm);
	suite_add_tcase(s, id);
	suite_add_tcase(s, irq);
	suite_add_tcase(s, end);
	return s;
}

CHECK_MAIN(import_suite)
