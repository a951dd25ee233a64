// SPDX-License-Identifier: GPL-2.0-only
/* check_trace_text.c - kvm tracepoint text -> records (lib/trace_text.c).
 *
 * The expected fields of every row are read off the line by hand: the time stamp as ns
 * ("280.971122" = 280971122000), the thread from "comm-pid" or perf's "comm tid", the CPU from
 * "[cpu]", the payload fields as the kernel's TP_printk() (arch/x86/kvm/trace.h) prints them.
 * The per-file counts were taken with grep on the event names (and agree with INDEX.md).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_common.h"
#include "text.h"
#include "internal.h"

/* The common fields of an expected record. */
#define HDR(k, n, t, ht, tid_, cpu_, vcpu_)                                               \
	.kind = (k), .name = (n), .time_ns = (t), .has_time = (ht), .tid = (tid_), .cpu = (cpu_), \
	.vcpu = (vcpu_)
/* A line without prefix: no time, thread or CPU. */
#define BARE(k, n, vcpu_) HDR(k, n, 0, false, -1, -1, vcpu_)

static const struct {
	const char *name;
	const char *line;
	struct kvm_record want;
} layouts[] = {
	/* ---- line prefixes (INDEX.md P1-P16) ---- */
	{ "P1 raw ftrace, 4-char irq flags",
	  "qemu-system-x86-5665  [000] d..1   280.971122: kvm_entry: vcpu 0, rip 0x22da",
	  { HDR(KVM_REC_ENTRY, "kvm_entry", 280971122000ull, true, 5665, 0, 0), .rip = 0x22da } },
	{ "P2 raw ftrace, 5-char flags",
	  " qemu-system-x86-8397    [002] d....  1404.389509: kvm_exit: vcpu 1 reason MSR_READ "
	  "rip 0xffffffff81000130 info1 0x0000000000000000 info2 0x0000000000000000 intr_info "
	  "0x00000000 error_code 0x00000000",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 1404389509000ull, true, 8397, 2, 1),
	    .reason = "MSR_READ", .rip = 0xffffffff81000130ull } },
	{ "P3 raw ftrace, 7-char flags, comm with a space, M3 annotation",
	  "   CPU 0/KVM-16856   [007] .......   380.398695: kvm_msr: msr_read 3a = 0x0        "
	  "<debug_before_write>",
	  { HDR(KVM_REC_MSR, "kvm_msr", 380398695000ull, true, 16856, 7, -1), .msr = 0x3a } },
	{ "P4 raw ftrace without flags (2.6.3x)", "    kvm-5664  [000] 11906.220178: kvm_entry: vcpu 0",
	  { HDR(KVM_REC_ENTRY, "kvm_entry", 11906220178000ull, true, 5664, 0, 0) } },
	{ "P5 trace-cmd report, padded event name",
	  " qemu-system-x86-23579 [005] 22018.775584: kvm_exit:             reason EPT_VIOLATION "
	  "rip 0xfffff802987d6169 info 181 0",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 22018775584000ull, true, 23579, 5, -1),
	    .reason = "EPT_VIOLATION", .rip = 0xfffff802987d6169ull } },
	{ "P6 trace-cmd report, two spaces after [cpu]",
	  "        smm_test-7600  [002]  4497.073918: kvm_exit:             reason EXIT_RSM rip 0x8004 "
	  "info 0 0",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 4497073918000ull, true, 7600, 2, -1), .reason = "EXIT_RSM",
	    .rip = 0x8004 } },
	{ "P7 perf script, comm with a space",
	  "       CPU 0/KVM 1821753 [015] 4831258.258053: kvm:kvm_msr: msr_write 6e0 = 0x10e8aebe830c9e",
	  { HDR(KVM_REC_MSR, "kvm_msr", 4831258258053000ull, true, 1821753, 15, -1), .write = true,
	    .msr = 0x6e0, .data = 0x10e8aebe830c9eull } },
	{ "P8 perf script, right-aligned event column, comm with '/' and '-'",
	  " kworker/5:2-eve 429543 [005] 108229.924107:         kvm:kvm_set_irq: gsi 4 level 1 source 0",
	  { HDR(KVM_REC_OTHER, "kvm_set_irq", 108229924107000ull, true, 429543, 5, -1) } },
	{ "P9 perf script without tid and cpu, X6 (intr)",
	  "preempt_test  20677.199579:      kvm:kvm_exit: reason PREEMPTION_TIMER rip 0x40274d info 0 0 "
	  "intr 0",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 20677199579000ull, true, -1, -1, -1),
	    .reason = "PREEMPTION_TIMER", .rip = 0x40274d } },
	{ "P10 perf-prof: date, <...> tid, flags before [cpu]",
	  "2021-12-12 16:11:10.214139            <...> 206966 .N.. [017] 15504452.408994: "
	  "kvm:kvm_exit: reason EXTERNAL_INTERRUPT rip 0xffffffff8102f3b5 info 0 800000ec",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 15504452408994000ull, true, 206966, 17, -1),
	    .reason = "EXTERNAL_INTERRUPT", .rip = 0xffffffff8102f3b5ull } },
	{ "P11 unknown comm <...>",
	  "           <...>-52213 [006]  3740.739502: kvm_inj_exception:    #GP (0x0)",
	  { HDR(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", 3740739502000ull, true, 52213, 6, -1),
	    .vector = 13 } },
	{ "P12 comm shown as CPU-<tid>",
	  "     CPU-2386625 [094] 6598425.465404: kvm_entry:            vcpu 1, rip 0xffffffffc0771aa2",
	  { HDR(KVM_REC_ENTRY, "kvm_entry", 6598425465404000ull, true, 2386625, 94, 1),
	    .rip = 0xffffffffc0771aa2ull } },
	{ "P13 integer (x86-tsc) time stamp, taken as is",
	  "qemu-system-x86-20667 [010] 15813659115036: kvm_exit: reason EXIT_NPF rip 0xffffffff9d8d4b3e "
	  "info 100000004 fee000b0",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 15813659115036ull, true, 20667, 10, -1),
	    .reason = "EXIT_NPF", .rip = 0xffffffff9d8d4b3eull } },
	{ "P14 time stamp only, X5 SVM native name",
	  " 220.696239: kvm_exit: vcpu 0 reason vintr rip 0x4004ae info1 0x0000000000000000 info2 "
	  "0x0000000000000000 intr_info 0x00000000 error_code 0x00000000",
	  { HDR(KVM_REC_EXIT, "kvm_exit", 220696239000ull, true, -1, -1, 0), .reason = "vintr",
	    .rip = 0x4004ae } },
	{ "P15 comm-pid only", "     kvm_pv_test-53132: kvm_hypercall: nr 0x0 a0 0x0 a1 0x0 a2 0x0 a3 0x0",
	  { HDR(KVM_REC_HYPERCALL, "kvm_hypercall", 0, false, 53132, -1, -1) } },
	{ "P16 bare event line, trace-cmd padding",
	  "  kvm_exit:             reason EXIT_RSM rip 0x7ffbb280 info 0 0",
	  { BARE(KVM_REC_EXIT, "kvm_exit", -1), .reason = "EXIT_RSM", .rip = 0x7ffbb280 } },
	{ "ns time stamp (trace-cmd report -t)",
	  " kvm-guest-harne-17369 [000]   876.825092123: kvm_fpu: load",
	  { HDR(KVM_REC_FPU, "kvm_fpu", 876825092123ull, true, 17369, 0, -1), .write = true } },
	{ "CRLF line end", "kvm_fpu: unload\r", { BARE(KVM_REC_FPU, "kvm_fpu", -1) } },
	{ "debug event <hack>", "          CPU 23/KVM-5046    [001] d....  3410.005613: <hack>: Set DRs",
	  { HDR(KVM_REC_OTHER, "<hack>", 3410005613000ull, true, 5046, 1, -1) } },
	{ "other system in perf keeps its name",
	  "qemu 12 [001] 5.000001: kvmmmu:kvm_mmu_get_page: existing sp gfn 3a22e",
	  { HDR(KVM_REC_OTHER, "kvmmmu:kvm_mmu_get_page", 5000001000ull, true, 12, 1, -1) } },

	/* ---- kvm_exit (X1-X8) ---- */
	{ "X1 lowercase VMX name, no info", "kvm_exit: reason apic_access rip 0xc011518c",
	  { BARE(KVM_REC_EXIT, "kvm_exit", -1), .reason = "apic_access", .rip = 0xc011518c } },
	{ "X2 old layout", "kvm_exit: reason EXTERNAL_INTERRUPT rip 0x22da info 0 800000fd",
	  { BARE(KVM_REC_EXIT, "kvm_exit", -1), .reason = "EXTERNAL_INTERRUPT", .rip = 0x22da } },
	{ "X3 SVM plugin name", "kvm_exit:             reason EXIT_NPF rip 0xffffffffb172ab2b info "
	  "200000006 f88eb2ff8",
	  { BARE(KVM_REC_EXIT, "kvm_exit", -1), .reason = "EXIT_NPF", .rip = 0xffffffffb172ab2bull } },
	{ "X4 vcpu + info", "kvm_exit: vcpu 1 reason npf rip 0xfd11d info 100000014 fd000",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 1), .reason = "npf", .rip = 0xfd11d } },
	{ "X5 reason with a flag word",
	  "kvm_exit: vcpu 12 reason INVALID_STATE FAILED_VMENTRY rip 0x103c00 info1 "
	  "0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 12), .reason = "INVALID_STATE FAILED_VMENTRY",
	    .rip = 0x103c00 } },
	{ "X7 trimmed, intr_info only", "kvm_exit: vcpu 0 reason EXTERNAL_INTERRUPT intr_info 0x800000ec",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 0), .reason = "EXTERNAL_INTERRUPT" } },
	{ "X7 trimmed, reason only", "kvm_exit: vcpu 0 reason HLT",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 0), .reason = "HLT" } },
	{ "X8 plugin fallback UNKNOWN (dec)", "kvm_exit: reason UNKNOWN (90) rip 0x1000 info 0 0",
	  { BARE(KVM_REC_EXIT, "kvm_exit", -1), .reason = "UNKNOWN (90)", .rip = 0x1000 } },
	{ "kvm_exit -R, VMX: exit_reason 31 = MSR_READ",
	  "kvm_exit: exit_reason=31 guest_rip=0xffffffff81000130 isa=1 info1=0x0 info2=0x0 "
	  "intr_info=0x0 error_code=0x0 vcpu_id=1",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 1), .reason = "MSR_READ",
	    .rip = 0xffffffff81000130ull } },
	{ "kvm_exit -R, VMX: 0x80000021 = INVALID_STATE + FAILED_VMENTRY",
	  "kvm_exit: exit_reason=2147483681 guest_rip=0x103c00 isa=1 info1=0x0 info2=0x0 vcpu_id=3",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 3), .reason = "INVALID_STATE FAILED_VMENTRY",
	    .rip = 0x103c00 } },
	{ "kvm_exit -R, SVM: 124 = 0x7c = msr",
	  "kvm_exit: exit_reason=124 guest_rip=0x406a74 isa=2 info1=0x1 info2=0x0 vcpu_id=0",
	  { BARE(KVM_REC_EXIT, "kvm_exit", 0), .reason = "msr", .rip = 0x406a74 } },

	/* ---- kvm_entry (N1-N4) ---- */
	{ "N1", "kvm_entry: vcpu 3", { BARE(KVM_REC_ENTRY, "kvm_entry", 3) } },
	{ "N2", "kvm_entry: vcpu 0, rip 0x406a89",
	  { BARE(KVM_REC_ENTRY, "kvm_entry", 0), .rip = 0x406a89 } },
	{ "N3 no comma (perf)", "kvm:kvm_entry:  vcpu 1 rip 0xffffffff81036706",
	  { BARE(KVM_REC_ENTRY, "kvm_entry", 1), .rip = 0xffffffff81036706ull } },
	{ "N4 [immediate exit]", "kvm_entry: vcpu 0, rip 0x8000[immediate exit]",
	  { BARE(KVM_REC_ENTRY, "kvm_entry", 0), .rip = 0x8000 } },
	{ "kvm_entry -R", "kvm_entry:             vcpu_id=2 rip=0xfff0 immediate_exit=0",
	  { BARE(KVM_REC_ENTRY, "kvm_entry", 2), .rip = 0xfff0 } },

	/* ---- kvm_msr (M1-M3) ---- */
	{ "M1 read", "kvm_msr: msr_read 1b = 0xfee00900",
	  { BARE(KVM_REC_MSR, "kvm_msr", -1), .msr = 0x1b, .data = 0xfee00900 } },
	{ "M2 read (#GP)", "kvm_msr: msr_read 1a6 = 0x0 (#GP)",
	  { BARE(KVM_REC_MSR, "kvm_msr", -1), .msr = 0x1a6, .gp = true } },
	{ "M2 write (#GP)", "kvm_msr:              msr_write 38f = 0x100000001 (#GP)",
	  { BARE(KVM_REC_MSR, "kvm_msr", -1), .write = true, .msr = 0x38f, .data = 0x100000001ull,
	    .gp = true } },
	{ "M1 32-bit MSR index", "kvm_msr: msr_write c0000080 = 0xd01",
	  { BARE(KVM_REC_MSR, "kvm_msr", -1), .write = true, .msr = 0xc0000080u, .data = 0xd01 } },
	{ "kvm_msr -R", "kvm_msr:               write=1 ecx=38d data=0xb exception=1",
	  { BARE(KVM_REC_MSR, "kvm_msr", -1), .write = true, .msr = 0x38d, .data = 0xb,
	    .gp = true } },

	/* ---- kvm_emulate_insn (I1-I3, -R) ---- */
	{ "I1 prot64", "kvm_emulate_insn: 0:ffffffff810551b8:0f 00 d8 (prot64)",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0xffffffff810551b8ull,
	    .insn = { 0x0f, 0x00, 0xd8 }, .insn_len = 3, .mode = KVM_MODE_PROT64 } },
	{ "I1 real", "kvm_emulate_insn: 0:1007:ee (real)",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x1007, .insn = { 0xee },
	    .insn_len = 1, .mode = KVM_MODE_REAL } },
	{ "I1 failed", "kvm_emulate_insn: 0:2009:48 cf (prot64) failed",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x2009,
	    .insn = { 0x48, 0xcf }, .insn_len = 2, .mode = KVM_MODE_PROT64, .failed = true } },
	{ "I1 vm16", "kvm_emulate_insn: f000:fff0:ea 5b e0 00 f0 (vm16)",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0xfff0,
	    .insn = { 0xea, 0x5b, 0xe0, 0x00, 0xf0 }, .insn_len = 5, .mode = KVM_MODE_VM86 } },
	{ "I1 prot16 and prot32", "kvm_emulate_insn: 0:3000:01 d8 (prot16)",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x3000,
	    .insn = { 0x01, 0xd8 }, .insn_len = 2, .mode = KVM_MODE_PROT16 } },
	{ "I2 empty byte list", "kvm_emulate_insn: 0:fd11d: (prot32) failed",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0xfd11d,
	    .mode = KVM_MODE_PROT32, .failed = true } },
	{ "I3 plugin", "kvm_emulate_insn:     0:4015c2: 0f 32",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x4015c2,
	    .insn = { 0x0f, 0x32 }, .insn_len = 2 } },
	{ "I3 plugin FAIL", "kvm_emulate_insn:     0:fffff802987d6169: f3 a5 FAIL",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0xfffff802987d6169ull,
	    .insn = { 0xf3, 0xa5 }, .insn_len = 2, .failed = true } },
	{ "I3 plugin, SMM CS base", "kvm_emulate_insn:     1000000:8004: 0f aa",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x8004,
	    .insn = { 0x0f, 0xaa }, .insn_len = 2 } },
	{ "kvm_emulate_insn -R: only len of the 15 bytes, flags 9 = prot64",
	  "kvm_emulate_insn:      rip=3000 csbase=0 len=2 insn=ARRAY[01, d8, 31, c2, 6b, d8, 03, c1, "
	  "c0, 05, a8, 01, 74, 02, ff] flags=9 failed=0",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x3000,
	    .insn = { 0x01, 0xd8 }, .insn_len = 2, .mode = KVM_MODE_PROT64 } },
	{ "kvm_emulate_insn -R failed, flags 5 = prot32",
	  "kvm_emulate_insn: rip=2009 csbase=0 len=1 insn=ARRAY[cf, 00, 00, 00, 00, 00, 00, 00, 00, "
	  "00, 00, 00, 00, 00, 00] flags=5 failed=1",
	  { BARE(KVM_REC_EMULATE_INSN, "kvm_emulate_insn", -1), .rip = 0x2009, .insn = { 0xcf },
	    .insn_len = 1, .mode = KVM_MODE_PROT32, .failed = true } },

	/* ---- kvm_inj_virq (V1-V3, -R) ---- */
	{ "V1 old irq decimal", "kvm:kvm_inj_virq: irq 52",
	  { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 52 } },
	{ "V2", "kvm_inj_virq: IRQ 0xb0", { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 0xb0 } },
	{ "V2 reinjected", "kvm_inj_virq:         IRQ 0xec [reinjected]",
	  { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 0xec, .reinjected = true } },
	{ "V3 soft interrupt", "kvm_inj_virq: Soft/INTn 0x80 [reinjected]",
	  { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 0x80, .reinjected = true } },
	{ "kvm_inj_virq -R", "kvm_inj_virq: vector=0xec soft=0 reinjected=1",
	  { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 0xec, .reinjected = true } },
	{ "kvm_inj_virq -R, old irq field", "kvm_inj_virq: irq=52",
	  { BARE(KVM_REC_INJ_VIRQ, "kvm_inj_virq", -1), .vector = 52 } },

	/* ---- kvm_apic_accept_irq: target vcpu = apicid, delivery mode ---- */
	{ "accept_irq Fixed", "kvm_apic_accept_irq: apicid 0 vec 176 (Fixed|edge)",
	  { BARE(KVM_REC_APIC_ACCEPT_IRQ, "kvm_apic_accept_irq", 0), .vector = 176 } },
	{ "accept_irq NMI to apicid 1a", "kvm_apic_accept_irq: apicid 1a vec 0 (NMI|edge)",
	  { BARE(KVM_REC_APIC_ACCEPT_IRQ, "kvm_apic_accept_irq", 0x1a), .dm = 4 } },
	{ "accept_irq -R, dm 0x400 = NMI", "kvm_apic_accept_irq: apicid=1 dm=1024 tm=0 vec=2",
	  { BARE(KVM_REC_APIC_ACCEPT_IRQ, "kvm_apic_accept_irq", 1), .vector = 2, .dm = 4 } },

	/* ---- kvm_inj_exception ---- */
	{ "#GP (0x0)", "kvm_inj_exception:    #GP (0x0)",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 13 } },
	{ "#PF (0x3)", "kvm_inj_exception: #PF (0x3)",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 14 } },
	{ "#UD", "kvm_inj_exception: #UD", { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1),
					       .vector = 6 } },
	{ "#DB [reinjected]", "kvm_inj_exception: #DB [reinjected]",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 1,
	    .reinjected = true } },
	{ "#GP (0x0) [reinjected]", "kvm_inj_exception: #GP (0x0) [reinjected]",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 13,
	    .reinjected = true } },
	{ "vector without a name", "kvm_inj_exception: 0x1e",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 30 } },
	{ "[FAILED TO PARSE] fallback",
	  "kvm_inj_exception:    [FAILED TO PARSE] exception=13 has_error=0 error_code=0 reinjected=0",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 13 } },
	{ "kvm_inj_exception -R", "kvm_inj_exception:     exception=14 has_error=1 error_code=3 "
	  "reinjected=1",
	  { BARE(KVM_REC_INJ_EXCEPTION, "kvm_inj_exception", -1), .vector = 14,
	    .reinjected = true } },

	/* ---- kvm_pio (O1-O2, -R) ---- */
	{ "O1 no val", "kvm_pio: pio_read at 0xc13e size 2 count 1",
	  { BARE(KVM_REC_PIO, "kvm_pio", -1), .port = 0xc13e, .size = 2, .count = 1 } },
	{ "O2 trailing space", "kvm_pio: pio_write at 0x3f8 size 1 count 1 val 0x34 ",
	  { BARE(KVM_REC_PIO, "kvm_pio", -1), .write = true, .port = 0x3f8, .size = 1, .count = 1,
	    .data = 0x34 } },
	{ "O2 rep (...)", "kvm_pio: pio_write at 0x3f8 size 1 count 4 val 0x41 (...)",
	  { BARE(KVM_REC_PIO, "kvm_pio", -1), .write = true, .port = 0x3f8, .size = 1, .count = 4,
	    .data = 0x41 } },
	{ "kvm_pio -R", "kvm_pio:               rw=1 port=0xe9 size=1 count=1 val=0x14",
	  { BARE(KVM_REC_PIO, "kvm_pio", -1), .write = true, .port = 0xe9, .size = 1, .count = 1,
	    .data = 0x14 } },

	/* ---- kvm_userspace_exit ---- */
	{ "KVM_EXIT_IO (2)", "kvm_userspace_exit:   reason KVM_EXIT_IO (2)",
	  { BARE(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", -1), .exit_reason = 2 } },
	{ "reason without a name: 0x1d (29)", "kvm_userspace_exit:   reason 0x1d (29)",
	  { BARE(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", -1), .exit_reason = 29 } },
	{ "restart (errno EINTR): reason unknown", "kvm_userspace_exit: reason restart (4)",
	  { BARE(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", -1) } },
	{ "kvm_userspace_exit -R", "kvm_userspace_exit:    reason=30 errno=0",
	  { BARE(KVM_REC_USERSPACE_EXIT, "kvm_userspace_exit", -1), .exit_reason = 30 } },

	/* ---- kvm_apic, kvm_eoi ---- */
	{ "apic_write LVTPC", "kvm_apic: apic_write APIC_LVTPC = 0x10000",
	  { BARE(KVM_REC_APIC, "kvm_apic", -1), .write = true, .reg = 0x340, .data = 0x10000 } },
	{ "apic_write EOI", "kvm_apic: apic_write APIC_EOI = 0x0",
	  { BARE(KVM_REC_APIC, "kvm_apic", -1), .write = true, .reg = 0xb0 } },
	{ "apic_read of a register without a name", "kvm_apic: apic_read 0x3b0 = 0x1",
	  { BARE(KVM_REC_APIC, "kvm_apic", -1), .reg = 0x3b0, .data = 1 } },
	{ "kvm_apic -R", "kvm_apic: rw=1 reg=832 val=0x400",
	  { BARE(KVM_REC_APIC, "kvm_apic", -1), .write = true, .reg = 0x340, .data = 0x400 } },
	{ "kvm_eoi: no vcpu (the vCPU's own thread)", "kvm_eoi: apicid 0 vector 176",
	  { BARE(KVM_REC_EOI, "kvm_eoi", -1), .vector = 176 } },

	/* ---- kvm_cpuid, kvm_fpu, kvm_hypercall ---- */
	{ "kvm_cpuid", "kvm_cpuid: func 0 idx 0 rax 1c rbx 756e6547 rcx 6c65746e rdx 49656e69, cpuid "
	  "entry found", { BARE(KVM_REC_CPUID, "kvm_cpuid", -1) } },
	{ "kvm_cpuid -R", "kvm_cpuid: function=a index=0 rax=0 rbx=0 rcx=0 rdx=0 found=1",
	  { BARE(KVM_REC_CPUID, "kvm_cpuid", -1) } },
	{ "kvm_fpu load", "kvm_fpu:              load", { BARE(KVM_REC_FPU, "kvm_fpu", -1),
						       .write = true } },
	{ "kvm_fpu -R unload", "kvm_fpu: load=0", { BARE(KVM_REC_FPU, "kvm_fpu", -1) } },
	{ "kvm_hypercall", "kvm_hypercall: nr 0x5 a0 0x0 a1 0x0 a2 0x0 a3 0x0",
	  { BARE(KVM_REC_HYPERCALL, "kvm_hypercall", -1) } },

	/* ---- kvm_nested_* (NV, NI, NE, NR, NC) ---- */
	{ "NV1 plugin", "kvm_nested_vmexit:    rip fffff802987d6169 reason EPT_VIOLATION info1 181 "
	  "info2 0 int_info 0 int_info_err 0",
	  { BARE(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", -1), .reason = "EPT_VIOLATION",
	    .rip = 0xfffff802987d6169ull } },
	{ "NV1 plugin SVM", "kvm_nested_vmexit:    rip 400433 reason EXIT_NPF info1 200000006 info2 "
	  "641000 int_info 0 int_info_err 0",
	  { BARE(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", -1), .reason = "EXIT_NPF",
	    .rip = 0x400433 } },
	{ "NV2 native", "kvm_nested_vmexit: vcpu 0 reason hypercall rip 0x40122f info1 "
	  "0x0000000000000000 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000",
	  { BARE(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", 0), .reason = "hypercall",
	    .rip = 0x40122f } },
	{ "NV2 trimmed", "kvm_nested_vmexit: vcpu 23 reason DR_ACCESS info1 0x0000000000000216",
	  { BARE(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", 23), .reason = "DR_ACCESS" } },
	{ "NV4 native before 5.9", "kvm_nested_vmexit: rip: 0x0000000000400433 reason: npf ext_inf1: "
	  "0x0000000200000006 ext_inf2: 0x0000000000641000 ext_int: 0x00000000 ext_int_err: "
	  "0x00000000",
	  { BARE(KVM_REC_NESTED_VMEXIT, "kvm_nested_vmexit", -1), .reason = "npf",
	    .rip = 0x400433 } },
	{ "NI1 native", "kvm_nested_vmexit_inject: reason: TRIPLE_FAULT ext_inf1: 0x0000000000000000 "
	  "ext_inf2: 0x0000000000000000 ext_int: 0x00000000 ext_int_err: 0x00000000",
	  { BARE(KVM_REC_NESTED_VMEXIT_INJECT, "kvm_nested_vmexit_inject", -1),
	    .reason = "TRIPLE_FAULT" } },
	{ "NI2 plugin", "kvm:kvm_nested_vmexit_inject: reason EXTERNAL_INTERRUPT info1 0 info2 0 "
	  "int_info 80000081 int_info_err 0",
	  { BARE(KVM_REC_NESTED_VMEXIT_INJECT, "kvm_nested_vmexit_inject", -1),
	    .reason = "EXTERNAL_INTERRUPT" } },
	{ "NE1", "kvm_nested_vmenter: rip: 0x0000000000008002 vmcs: 0x0000000000007000 nested_rip: "
	  "0x0000000000000000 int_ctl: 0x00000000 event_inj: 0x00000000 nested_ept=n guest cr3: "
	  "0x0000000000002000",
	  { BARE(KVM_REC_NESTED_VMENTER, "kvm_nested_vmenter", -1), .rip = 0x8002 } },
	{ "NE2", "kvm:kvm_nested_vmenter: rip: 0xfffff8489b641308 vmcs: 0xffffffffffffffff nested_rip: "
	  "0xfffff8031964b2b6 int_ctl: 0x00000000 event_inj: 0x80000081 nested_ept=y nested_eptp: "
	  "0x00000001019a701e",
	  { BARE(KVM_REC_NESTED_VMENTER, "kvm_nested_vmenter", -1), .rip = 0xfffff8489b641308ull } },
	{ "NR1 kvm_nested_vmrun", "kvm_nested_vmrun:     rip: 0x000000007ffbb280 vmcb: "
	  "0x0000000008224000 nrip: 0xffffffffffbbe119 int_ctl: 0x01020000 event_inj: 0x00000000 "
	  "npt: on",
	  { BARE(KVM_REC_NESTED_VMENTER, "kvm_nested_vmrun", -1), .rip = 0x7ffbb280 } },
	{ "NC1 kvm_nested_intercepts", "kvm_nested_intercepts: cr_read: 0000 cr_write: 0010 excp: "
	  "40060002 intercepts: fd44bfeb 0000217f 00000000",
	  { BARE(KVM_REC_NESTED_OTHER, "kvm_nested_intercepts", -1) } },

	/* ---- lost-events markers ---- */
	{ "ftrace lost count", "CPU:2 [LOST 140 EVENTS]",
	  { HDR(KVM_REC_LOST, "lost events", 0, false, -1, 2, -1), .lost = 140 } },
	{ "ftrace lost, no count", "CPU:0 [LOST EVENTS]",
	  { HDR(KVM_REC_LOST, "lost events", 0, false, -1, 0, -1) } },
	{ "trace-cmd dropped count", "CPU:7 [204600 EVENTS DROPPED]",
	  { HDR(KVM_REC_LOST, "lost events", 0, false, -1, 7, -1), .lost = 204600 } },
	{ "trace-cmd dropped, no count", "CPU:1 [EVENTS DROPPED]",
	  { HDR(KVM_REC_LOST, "lost events", 0, false, -1, 1, -1) } },
};

/* Every field, so that a parser that sets a field it should not is caught too. */
static void check_record(const char *row, const struct kvm_record *got,
			 const struct kvm_record *want)
{
#define EQ(f, fmt, cast)                                                                  \
	ck_assert_msg(got->f == want->f, "%s: " #f ": got " fmt " want " fmt, row, (cast)got->f, \
		      (cast)want->f)
	EQ(kind, "%d", int);
	ck_assert_msg(!strcmp(got->name, want->name), "%s: name '%s' want '%s'", row, got->name,
		      want->name);
	EQ(time_ns, "%llu", unsigned long long);
	EQ(has_time, "%d", int);
	EQ(tid, "%lld", long long);
	EQ(cpu, "%d", int);
	EQ(vcpu, "%d", int);
	ck_assert_msg(!strcmp(got->reason, want->reason), "%s: reason '%s' want '%s'", row,
		      got->reason, want->reason);
	EQ(rip, "%#llx", unsigned long long);
	EQ(write, "%d", int);
	EQ(msr, "%#x", unsigned int);
	EQ(data, "%#llx", unsigned long long);
	EQ(gp, "%d", int);
	EQ(reg, "%#x", unsigned int);
	EQ(port, "%#x", unsigned int);
	EQ(size, "%u", unsigned int);
	EQ(count, "%u", unsigned int);
	EQ(insn_len, "%u", unsigned int);
	ck_assert_msg(!memcmp(got->insn, want->insn, sizeof(got->insn)), "%s: insn bytes", row);
	EQ(mode, "%d", int);
	EQ(failed, "%d", int);
	EQ(vector, "%u", unsigned int);
	EQ(reinjected, "%d", int);
	EQ(dm, "%u", unsigned int);
	EQ(exit_reason, "%u", unsigned int);
	EQ(lost, "%llu", unsigned long long);
#undef EQ
}

/* A heap copy of exactly @len bytes, so that ASan sees a read past the line. */
static char *exact_copy(const char *s, size_t len)
{
	char *p = malloc(len ? len : 1);

	ck_assert(p);
	memcpy(p, s, len);
	return p;
}

START_TEST(test_layout_table)
{
	size_t len = strlen(layouts[_i].line);
	char *line = exact_copy(layouts[_i].line, len);
	struct text_parser tp;
	struct kvm_record rec;
	struct vpmc__lineerr err;
	int ret, pass;

	/* without and with the prefix cache (twice: the second line hits it) */
	trace_text_init(&tp);
	for (pass = 0; pass < 3; pass++) {
		memset(&rec, 0x5a, sizeof(rec)); /* every field must be written */
		ret = trace_text_parse_line(pass ? &tp : NULL, line, len, &rec, NULL, &err);
		ck_assert_msg(ret == 1, "%s: ret %d: %u: %s", layouts[_i].name, ret, err.col,
			      err.msg);
		check_record(layouts[_i].name, &rec, &layouts[_i].want);
	}
	free(line);
}
END_TEST

static const struct {
	const char *name;
	const char *line;
	enum text_skip want;
} skips[] = {
	{ "empty", "", TEXT_SKIP_BLANK },
	{ "spaces and a tab", "  \t ", TEXT_SKIP_BLANK },
	{ "ftrace header", "# tracer: nop", TEXT_SKIP_HEADER },
	{ "ftrace column header", "#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION",
	  TEXT_SKIP_HEADER },
	{ "trace-cmd cpus=", "cpus=2", TEXT_SKIP_HEADER },
	{ "trace-cmd version", "version = 6", TEXT_SKIP_HEADER },
	{ "trace-cmd empty CPU", "CPU 1 is empty", TEXT_SKIP_HEADER },
	{ "elision ...", "  ...", TEXT_SKIP_ELISION },
	{ "elision ....", "      ....", TEXT_SKIP_ELISION },
};

START_TEST(test_skip_lines)
{
	struct kvm_record rec;
	struct vpmc__lineerr err;
	enum text_skip skip = (enum text_skip)-1;
	int ret;

	ret = trace_text_parse_line(NULL, skips[_i].line, strlen(skips[_i].line), &rec, &skip,
				    &err);
	ck_assert_msg(ret == 0, "%s: ret %d (%s)", skips[_i].name, ret, err.msg);
	ck_assert_msg(skip == skips[_i].want, "%s: skip %d want %d", skips[_i].name, skip,
		      skips[_i].want);
}
END_TEST

/* Malformed lines: the column and message (the reader adds "FILE:LINE:"). */
static const struct {
	const char *name;
	const char *line;
	unsigned int col;
	const char *msg;
} errors[] = {
	{ "P17 record cut after the event name",
	  "qemu-system-x86-5665  [000] ....  83184.290416: kvm_exit", 49,
	  "expected an event name followed by ':', found 'kvm_exit'" },
	{ "^C echoed into the line", "qemu-system-x86^Ctrace-cmd: Received SIGINT", 1,
	  "expected 'TIMESTAMP:' or 'COMM-PID:' before the event name, found "
	  "'qemu-system-x86^Ctrace-cmd:'" },
	{ "M4 symbolic MSR", "  kvm_msr: msr_write CTR1 = 0xffffffffffffffea", 22,
	  "kvm_msr: expected the MSR index in hex after 'msr_write', found 'CTR1'" },
	/* a CAN'T FIND FIELD marker, then nothing the layout can read */
	{ "NV3 libtraceevent CAN'T FIND FIELD, then no reason",
	  "           <...>-315119 [010]  3733.092646: kvm_exit:    <CANT FIND FIELD exit_reason>"
	  "rip 0x400433", 99, "kvm_exit: expected 'reason', found end of line" },
	{ "payload without event name", "  func 7ffffffd idx 830 rax 0 rbx 0 rcx 0 rdx 0, cpuid entry "
	  "not found", 3, "expected an event ('NAME: ...') on this line, found 'func'" },
	{ "pseudo-line", "  rdpmc on host: CTR1, value 0xffffffffffe3", 12,
	  "expected 'TIMESTAMP:' or 'COMM-PID:' before the event name, found 'host:'" },
	{ "emulate_insn mnemonics (udis86 build)", "kvm_emulate_insn: 0:4015c2: rdmsr", 29,
	  "kvm_emulate_insn: expected instruction bytes (two hex digits each; a trace-cmd built with "
	  "a disassembler prints mnemonics: use trace-cmd report -N or -R), found 'rdmsr'" },
	{ "emulate_insn bad mode", "kvm_emulate_insn: 0:1007:ee (prot)", 29,
	  "kvm_emulate_insn: expected the mode: (real), (vm16), (prot16), (prot32) or (prot64), found "
	  "'(prot)'" },
	{ "emulate_insn 16 bytes", "kvm_emulate_insn: 0:1:00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d "
	  "0e 0f", 68, "kvm_emulate_insn: more than 15 instruction bytes, found '0f'" },
	{ "time with 10 decimals", " 1.0000000001: kvm_fpu: load", 2,
	  "time stamp: more than 9 decimals (finer than 1 ns), found '1.0000000001:'" },
	{ "kvm_exit without reason", "kvm_exit: vcpu 0 rip 0x10", 26,
	  "kvm_exit: expected 'reason', found end of line" },
	{ "kvm_entry vcpu not a number", "kvm_entry: vcpu x", 17,
	  "kvm_entry: expected a decimal number, found 'x'" },
	{ "kvm_msr value without =", "kvm_msr: msr_read 1b 0xfee00900", 22,
	  "kvm_msr: expected '=', found '0xfee00900'" },
	{ "hex larger than 64 bits", "kvm_msr: msr_read 1b = 0x1ffffffffffffffff", 24,
	  "kvm_msr: hex number larger than 64 bits, found '0x1ffffffffffffffff'" },
	{ "exception name unknown", "kvm_inj_exception: #XX", 20,
	  "kvm_inj_exception: expected an exception name (#GP, #PF, ...), found '#XX'" },
	{ "-R form missing a field", "kvm_msr: write=1 ecx=174 data=0x14", 35,
	  "kvm_msr: expected field 'exception=', found end of line" },
	{ "pio size not decimal", "kvm_pio: pio_read at 0x60 size x count 1", 32,
	  "kvm_pio: expected a decimal number, found 'x'" },
	{ "userspace_exit without number", "kvm_userspace_exit: reason KVM_EXIT_IO", 39,
	  "kvm_userspace_exit: expected '(' and the reason number, found end of line" },
	{ "event name too long", "kvm_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa: x", 1,
	  "event name longer than 63 characters, found "
	  "'kvm_aaaaaaaaaaaaaaaaaaaaaaaaaaaa...'" },
	/* fuzz find: "rip" as the last word was followed by a read one byte past the line */
	{ "kvm_exit ending in 'rip'", "kvm_exit: vcpu 0 reason HLT rip", 32,
	  "kvm_exit: expected a hex number, found end of line" },
	{ "exit reason too long", "kvm_exit: reason AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 18,
	  "kvm_exit: exit reason longer than 47 characters, found "
	  "'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...'" },
};

/*
 * Issue 17 item 7: libtraceevent's markers for fields its format lacks, then the fields it has
 * (traces/public/20): read as the layout says, the record partial. Without markers: not partial.
 */
START_TEST(test_cant_find_field_is_partial)
{
	static const char nv3[] = "           <...>-315119 [010]  3733.092646: kvm_nested_vmexit:    "
				  "CAN'T FIND FIELD \"rip\"<CANT FIND FIELD exit_code>vcpu 0 "
				  "reason npf rip 0x400433 info1 0x0000000200000006";
	static const char plain[] = " qemu-6660  [007]   398.691440: kvm_exit:  vcpu 1 reason npf "
				    "rip 0x400433";
	struct kvm_record rec;
	struct vpmc__lineerr err;

	ck_assert_int_eq(trace_text_parse_line(NULL, nv3, sizeof(nv3) - 1, &rec, NULL, &err), 1);
	ck_assert_int_eq(rec.kind, KVM_REC_NESTED_VMEXIT);
	ck_assert_int_eq(rec.vcpu, 0);
	ck_assert_str_eq(rec.reason, "npf");
	ck_assert_uint_eq(rec.rip, 0x400433);
	ck_assert(rec.partial);
	ck_assert_int_eq(trace_text_parse_line(NULL, plain, sizeof(plain) - 1, &rec, NULL, &err),
			 1);
	ck_assert_int_eq(rec.vcpu, 1);
	ck_assert(!rec.partial);
}
END_TEST

START_TEST(test_malformed_lines)
{
	size_t len = strlen(errors[_i].line);
	char *line = exact_copy(errors[_i].line, len);
	struct kvm_record rec;
	struct vpmc__lineerr err;
	int ret;

	ret = trace_text_parse_line(NULL, line, len, &rec, NULL, &err);
	free(line);
	ck_assert_msg(ret == VPMC_ERR_PARSE, "%s: ret %d", errors[_i].name, ret);
	ck_assert_msg(err.col == errors[_i].col, "%s: col %u want %u", errors[_i].name, err.col,
		      errors[_i].col);
	ck_assert_msg(!strcmp(err.msg, errors[_i].msg), "%s:\n got  '%s'\n want '%s'",
		      errors[_i].name, err.msg, errors[_i].msg);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Whole files: every line, counted per event name.
 */
struct count {
	const char *name;
	unsigned int n;
};

#define COUNTS_MAX 14

static const struct {
	const char *file;
	unsigned int skipped; /* comment, header and "..." lines */
	unsigned int errors;  /* lines rejected (garbled or hand-edited) */
	struct count counts[COUNTS_MAX];
} public_files[] = {
	{ "01-vmx-dirty-ring-ept-violation-trace-cmd.txt", 1, 0,
	  { { "kvm_entry", 8 }, { "kvm_exit", 7 }, { "kvm_page_fault", 7 },
	    { "kvm_dirty_ring_push", 3 }, { "kvm_fpu", 2 }, { "kvm_dirty_ring_exit", 1 },
	    { "kvm_userspace_exit", 1 }, { "kvm_dirty_ring_reset", 1 } } },
	{ "02-vmx-pckbd-io-extint-raw-irqflags.txt", 0, 0,
	  { { "tracing_mark_write", 10 }, { "kvm_exit", 10 }, { "kvm_entry", 9 },
	    { "kvm_ack_irq", 2 } } },
	{ "03-vmx-realmode-hello-exception-nmi-emulate-pio.txt", 0, 0,
	  { { "kvm_entry", 5 }, { "kvm_exit", 5 }, { "kvm_page_fault", 4 },
	    { "kvm_emulate_insn", 4 }, { "kvm_userspace_exit", 3 },
	    { "kvm_update_master_clock", 2 }, { "kvm_fpu", 2 }, { "kvm_pio", 2 },
	    { "kvm_write_tsc_offset", 1 }, { "kvm_track_tsc", 1 } } },
	{ "05-vmx-ctf-kvm-hlt-userspace-exit.txt", 0, 0,
	  { { "kvm_fpu", 4 }, { "kvm_entry", 2 }, { "kvm_exit", 2 },
	    { "kvm_userspace_exit", 2 } } },
	{ "06-vmx-microkvm-pmu-msr-gp-raw.txt", 0, 0, { { "kvm_msr", 11 } } },
	{ "07-vmx-perf-script-kvm-msr-tscdeadline-x2apic-multivcpu.txt", 0, 0,
	  { { "kvm_msr", 8 } } },
	{ "08-vmx-perf-script-kvm-msr-apicbase-read-4vcpu.txt", 0, 0, { { "kvm_msr", 4 } } },
	{ "10-hyperv-synic-msr-default-bios.txt", 0, 0,
	  { { "kvm_hv_synic_set_msr", 6 }, { "kvm_msr", 4 } } },
	{ "11-hyperv-synic-msr-seabios.txt", 0, 0,
	  { { "kvm_msr", 10 }, { "kvm_hv_synic_set_msr", 9 } } },
	{ "12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt", 0, 0,
	  { { "kvm_mmu_paging_element", 19 }, { "kvm_tdp_mmu_spte_changed", 14 },
	    { "kvm_exit", 13 }, { "kvm_entry", 12 }, { "kvm_mmu_pagetable_walk", 5 },
	    { "kvm_mmu_prepare_zap_page", 4 }, { "kvm_cr", 3 }, { "kvm_msr", 3 },
	    { "kvm_mmu_walker_error", 2 }, { "kvm_cpuid", 1 }, { "kvm_emulate_insn", 1 },
	    { "kvm_inj_exception", 1 } } },
	{ "13-svm-smm-test-rsm-emulate-fail-trace-cmd.txt", 0, 0,
	  { { "kvm_emulate_insn", 2 }, { "kvm_exit", 1 }, { "kvm_smm_transition", 1 },
	    { "kvm_fpu", 1 }, { "kvm_userspace_exit", 1 } } },
	{ "14-svm-smm-test-rsm-triple-fault-bputs-trace-cmd.txt", 0, 0,
	  { { "kvm_exit", 1 }, { "kvm_emulate_insn", 1 }, { "kvm_smm_transition", 1 },
	    { "bputs", 1 }, { "kvm_fpu", 1 }, { "kvm_userspace_exit", 1 } } },
	{ "16-svm-platform-info-gp-df-shutdown-trace-cmd-unknown-comm.txt", 0, 0,
	  { { "kvm_entry", 3 }, { "kvm_exit", 3 }, { "kvm_inj_exception", 2 }, { "kvm_msr", 1 },
	    { "kvm_fpu", 1 }, { "kvm_userspace_exit", 1 } } },
	{ "17-vmx-nested-hyperv-l2-ept-violation-emulate-fail-trace-cmd.txt", 0, 0,
	  { { "kvm_emulate_insn", 2 }, { "kvm_exit", 1 }, { "kvm_nested_vmexit", 1 },
	    { "kvm_page_fault", 1 }, { "kvm_inj_exception", 1 } } },
	{ "18-vmx-nested-bare-event-lines-commit-msg.txt", 0, 0,
	  { { "kvm_emulate_insn", 2 }, { "kvm_nested_vmexit", 1 }, { "kvm_page_fault", 1 },
	    { "kvm_inj_exception", 1 } } },
	/* garbled: both kvm_nested_vmexit lines are libtraceevent's CAN'T FIND FIELD (partial) */
	{ "20-svm-nested-vmexit-cant-find-field-libtraceevent.txt", 0, 0,
	  { { "kvm_nested_vmexit", 2 } } },
	{ "21-svm-nested-vmexit-oldfmt-exit-npf-trace-cmd.txt", 0, 0,
	  { { "kvm_nested_vmexit", 2 } } },
	{ "23-svm-nested-smm-rsm-vmrun-intercepts-bare-lines-rejoined.txt", 0, 0,
	  { { "kvm_exit", 3 }, { "kvm_emulate_insn", 2 }, { "kvm_entry", 2 },
	    { "kvm_smm_transition", 1 }, { "kvm_nested_vmrun", 1 }, { "kvm_nested_intercepts", 1 },
	    { "kvm_nested_vmexit", 1 }, { "kvm_page_fault", 1 }, { "kvm_nested_vmexit_inject", 1 },
	    { "kvm_inj_exception", 1 } } },
	{ "25-svm-no-idle-hlt-hlt-vintr-msr-timestamp-only.txt", 0, 0,
	  { { "kvm_entry", 3 }, { "kvm_exit", 3 }, { "kvm_apic", 2 }, { "kvm_apic_ipi", 1 },
	    { "kvm_apic_accept_irq", 1 }, { "kvm_msr", 1 }, { "kvm_inj_virq", 1 },
	    { "kvm_eoi", 1 } } },
	{ "26-perf-script-irq-injection-pic-ioapic-inj-virq-oldfmt.txt", 1, 0,
	  { { "kvm_set_irq", 4 }, { "kvm_ioapic_set_irq", 4 }, { "kvm_pic_set_irq", 4 },
	    { "kvm_inj_virq", 4 }, { "kvm_apic_accept_irq", 3 } } },
	{ "27-vmx-ept-violation-loop-reinjected-virq-trace-cmd-rejoined.txt", 0, 0,
	  { { "kvm_entry", 6 }, { "kvm_exit", 6 }, { "kvm_page_fault", 6 },
	    { "kvm_inj_virq", 5 } } },
	{ "28-svm-npf-loop-trace-cmd-plugin-exit-npf-rejoined.txt", 0, 0,
	  { { "kvm_page_fault", 6 }, { "kvm_entry", 6 }, { "kvm_exit", 5 } } },
	{ "32-vmx-nested-vmenter-vmexit-inject-raw-fmt-smm-bare-rejoined.txt", 0, 0,
	  { { "kvm_entry", 3 }, { "kvm_smm_transition", 2 }, { "kvm_nested_vmenter", 1 },
	    { "kvm_nested_vmexit_inject", 1 } } },
	{ "34-vmx-nested-dr6-l0-view-trimmed-fields-vmread-vmresume.txt", 0, 0,
	  { { "kvm_exit", 6 }, { "kvm_entry", 5 }, { "<hack>", 2 }, { "kvm_nested_vmexit", 1 },
	    { "kvm_nested_vmexit_inject", 1 } } },
	{ "36-svm-nested-vmexit-raw-newfmt-hypercall-single.txt", 0, 0,
	  { { "kvm_nested_vmexit", 1 } } },
	{ "37-vmx-nested-vmexit-failed-vmentry-flag-suffix-rejoined.txt", 0, 0,
	  { { "kvm_nested_vmexit", 2 } } },
	{ "39-vmx-nested-windows-cg-perf-script-split-irqchip-msr-ioapic-eoi-rejoined.txt", 0, 0,
	  { { "kvm_fpu", 2 }, { "kvm_set_irq", 1 }, { "kvm_msi_set_irq", 1 },
	    { "kvm_apic_accept_irq", 1 }, { "kvm_apicv_accept_irq", 1 },
	    { "kvm_nested_vmexit_inject", 1 }, { "kvm_entry", 1 }, { "kvm_exit", 1 },
	    { "kvm_apic", 1 }, { "kvm_eoi", 1 }, { "kvm_msr", 1 }, { "kvm_userspace_exit", 1 } } },
	{ "41-kvm-hypercall-comm-pid-only-no-cpu-no-ts.txt", 0, 0, { { "kvm_hypercall", 6 } } },
	{ "43-pio-write-uart-set-irq-storm-raw-5flag.txt", 0, 0,
	  { { "kvm_set_irq", 8 }, { "kvm_pio", 2 } } },
	{ "44-pio-write-uart-ier-cleared-set-irq-raw-5flag.txt", 1, 0,
	  { { "kvm_set_irq", 6 }, { "kvm_pio", 2 } } },
	{ "45-windows-hang-irq-injection-pic-ioapic-trace-pipe-rejoined.txt", 0, 0,
	  { { "kvm_set_irq", 4 }, { "kvm_pic_set_irq", 3 }, { "kvm_ioapic_set_irq", 3 },
	    { "kvm_apic_accept_irq", 2 } } },
	/* hand-edited: the two kvm_msr lines have a symbolic MSR (CTR1), one line is prose */
	{ "47-vmx-pmu-pmi-loop-hand-edited-symbolic-msr-NOT-PARSEABLE.txt", 0, 3,
	  { { "kvm_exit", 1 } } },
	{ "48-vmx-ancient-2.6.3x-lowercase-reasons-no-info-trace-pipe.txt", 0, 0,
	  { { "kvm_entry", 3 }, { "kvm_exit", 2 }, { "kvm_mmio", 1 }, { "kvm_apic", 1 },
	    { "kvm_ack_irq", 1 }, { "kvm_pio", 1 } } },
	{ "50-vmx-nested-jailhouse-l1-l2-io-loop-vmport-trace-cmd.txt", 0, 0,
	  { { "kvm_fpu", 4 }, { "kvm_nested_vmexit", 3 }, { "kvm_userspace_exit", 2 },
	    { "kvm_pio", 2 }, { "kvm_mmu_get_page", 2 }, { "kvm_entry", 2 }, { "kvm_exit", 2 } } },
	{ "51-vmx-ept-misconfig-emulate-fail-internal-error-hv-stimer-trace-cmd.txt", 0, 0,
	  { { "kvm_hv_stimer_cleanup", 4 }, { "kvm_emulate_insn", 2 }, { "kvm_exit", 1 },
	    { "kvm_userspace_exit", 1 }, { "kvm_fpu", 1 } } },
	/* the kvm_cpuid payload lost its event name (author edit): rejected */
	{ "54-svm-smm-test-cpuid-msr-gp-bare-elided-missing-event-name.txt", 2, 1,
	  { { "kvm_exit", 2 }, { "kvm_msr", 1 } } },
};

/* The local recordings; counts from NAME.counts.txt (the recorder's own tally). */
#define SMALL_MIXED_REAL                                                                   \
	{ { "kvm_emulate_insn", 1661 }, { "kvm_msr", 200 }, { "kvm_fpu", 162 },              \
	  { "kvm_inj_exception", 100 }, { "kvm_userspace_exit", 81 }, { "kvm_pio", 61 },      \
	  { "kvm_cpuid", 40 }, { "kvm_unmap_hva_range", 3 }, { "kvm_update_master_clock", 2 }, \
	  { "kvm_write_tsc_offset", 1 }, { "kvm_track_tsc", 1 },                              \
	  { "kvm_apicv_inhibit_changed", 1 } }
#define SMALL_MIXED_32_64(insn)                                                            \
	{ { "kvm_emulate_insn", insn }, { "kvm_msr", 200 }, { "kvm_fpu", 164 },              \
	  { "kvm_inj_exception", 100 }, { "kvm_userspace_exit", 82 }, { "kvm_pio", 62 },      \
	  { "kvm_cpuid", 40 }, { "kvm_unmap_hva_range", 7 }, { "kvm_update_master_clock", 3 }, \
	  { "kvm_write_tsc_offset", 2 }, { "kvm_track_tsc", 2 },                              \
	  { "kvm_apicv_inhibit_changed", 1 } }
#define PMU_REAL(insn, fpu, ue, msr, exc, pio)                                             \
	{ { "kvm_emulate_insn", insn }, { "kvm_msr", msr }, { "kvm_fpu", fpu },              \
	  { "kvm_inj_exception", exc },                                                      \
	  { "kvm_userspace_exit", ue }, { "kvm_pio", pio }, { "kvm_cpuid", 100 },              \
	  { "kvm_unmap_hva_range", 3 }, { "kvm_update_master_clock", 2 },                     \
	  { "kvm_write_tsc_offset", 1 }, { "kvm_track_tsc", 1 },                              \
	  { "kvm_apicv_inhibit_changed", 1 } }

static const struct {
	const char *file;
	unsigned int skipped; /* "cpus=2", or the tracefs header */
	struct count counts[COUNTS_MAX];
} local_files[] = {
	{ "small-mixed-real.txt", 1, SMALL_MIXED_REAL },
	{ "small-mixed-real.raw.txt", 1, SMALL_MIXED_REAL },
	{ "small-mixed-real.noplugin.txt", 1, SMALL_MIXED_REAL },
	/* a separate run of the same workload, captured through tracefs: same counts */
	{ "small-mixed-real.tracefs.txt", 12, SMALL_MIXED_REAL },
	{ "small-mixed-pm32.txt", 1, SMALL_MIXED_32_64(1762) },
	{ "small-mixed-pm32.raw.txt", 1, SMALL_MIXED_32_64(1762) },
	{ "small-mixed-lm64.txt", 1, SMALL_MIXED_32_64(1562) },
	{ "small-mixed-lm64.raw.txt", 1, SMALL_MIXED_32_64(1562) },
	{ "small-mixed-lm64.tracefs.txt", 12, SMALL_MIXED_32_64(1562) },
	{ "pmu-gp-real.txt", 1, PMU_REAL(3051, 2, 1, 350, 250, 1) },
	{ "pmu-gp-real.raw.txt", 1, PMU_REAL(3051, 2, 1, 350, 250, 1) },
	{ "pmu-usermsr-real.txt", 1, PMU_REAL(2301, 302, 151, 200, 100, 1) },
	{ "pmu-usermsr-real.raw.txt", 1, PMU_REAL(2301, 302, 151, 200, 100, 1) },
	{ "multi-vcpu-real.txt", 1,
	  { { "kvm_emulate_insn", 36524 }, { "kvm_msr", 4400 }, { "kvm_fpu", 3528 }, { "kvm_inj_exception", 2200 },
	    { "kvm_userspace_exit", 1764 }, { "kvm_pio", 1324 }, { "kvm_cpuid", 880 },
	    { "kvm_unmap_hva_range", 13 }, { "kvm_update_master_clock", 5 },
	    { "kvm_write_tsc_offset", 4 }, { "kvm_track_tsc", 4 },
	    { "kvm_apicv_inhibit_changed", 1 } } },
};

#define NAMES_MAX 64

struct tally {
	char names[NAMES_MAX][KVM_REC_NAME_MAX];
	unsigned int n[NAMES_MAX];
	unsigned int nr, skipped, errors, lines;
};

static FILE *open_trace(const char *dir, const char *file)
{
	const char *traces = getenv("VPMC_TRACES");
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s/%s", traces ? traces : "../../traces", dir, file);
	f = fopen(path, "r");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	return f;
}

/* Parse every line of a file (with the cache, as the reader does), counting per name. */
static void tally_file(const char *dir, const char *file, struct tally *t)
{
	static char line[8192];
	struct text_parser tp;
	FILE *f = open_trace(dir, file);

	memset(t, 0, sizeof(*t));
	trace_text_init(&tp);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		struct kvm_record rec;
		struct vpmc__lineerr err;
		unsigned int i;
		int ret;

		t->lines++;
		if (len && line[len - 1] == '\n')
			len--;
		ret = trace_text_parse_line(&tp, line, len, &rec, NULL, &err);
		if (ret < 0) {
			t->errors++;
			continue;
		}
		if (!ret) {
			t->skipped++;
			continue;
		}
		for (i = 0; i < t->nr && strcmp(t->names[i], rec.name); i++)
			;
		if (i == t->nr) {
			ck_assert_uint_lt(t->nr, NAMES_MAX);
			strcpy(t->names[t->nr++], rec.name);
		}
		t->n[i]++;
	}
	fclose(f);
}

static void check_tally(const char *file, const struct tally *t, const struct count *want)
{
	unsigned int i, j, nr_want = 0;

	for (j = 0; j < COUNTS_MAX && want[j].name; j++) {
		for (i = 0; i < t->nr && strcmp(t->names[i], want[j].name); i++)
			;
		ck_assert_msg(i < t->nr, "%s: no %s", file, want[j].name);
		ck_assert_msg(t->n[i] == want[j].n, "%s: %s: %u want %u", file, want[j].name,
			      t->n[i], want[j].n);
		nr_want++;
	}
	ck_assert_msg(t->nr == nr_want, "%s: %u event names, want %u (first extra: %s)", file,
		      t->nr, nr_want, t->nr > nr_want ? t->names[nr_want] : "-");
}

START_TEST(test_public_file_counts)
{
	struct tally t;

	tally_file("public", public_files[_i].file, &t);
	ck_assert_msg(t.errors == public_files[_i].errors, "%s: %u errors want %u",
		      public_files[_i].file, t.errors, public_files[_i].errors);
	ck_assert_msg(t.skipped == public_files[_i].skipped, "%s: %u skipped want %u",
		      public_files[_i].file, t.skipped, public_files[_i].skipped);
	check_tally(public_files[_i].file, &t, public_files[_i].counts);
}
END_TEST

START_TEST(test_local_file_counts)
{
	struct tally t;

	tally_file("local-kvm", local_files[_i].file, &t);
	ck_assert_msg(t.errors == 0, "%s: %u errors", local_files[_i].file, t.errors);
	ck_assert_msg(t.skipped == local_files[_i].skipped, "%s: %u skipped want %u",
		      local_files[_i].file, t.skipped, local_files[_i].skipped);
	check_tally(local_files[_i].file, &t, local_files[_i].counts);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Renderings of one recording and the cache must not change a record.
 */

/* Parse a file into at most @max records (NULL cache or a fresh one). */
static unsigned int parse_file(const char *dir, const char *file, bool cache,
			       struct kvm_record *recs, unsigned int max)
{
	static char line[8192];
	struct text_parser tp;
	unsigned int n = 0;
	FILE *f = open_trace(dir, file);

	trace_text_init(&tp);
	while (fgets(line, sizeof(line), f)) {
		size_t len = strlen(line);
		struct vpmc__lineerr err;

		if (len && line[len - 1] == '\n')
			len--;
		ck_assert_uint_lt(n, max);
		memset(&recs[n], 0, sizeof(recs[n]));
		if (trace_text_parse_line(cache ? &tp : NULL, line, len, &recs[n], NULL, &err) == 1)
			n++;
	}
	fclose(f);
	return n;
}

static const struct {
	const char *dir, *file;
} all_text_files[] = {
	{ "public", "02-vmx-pckbd-io-extint-raw-irqflags.txt" },
	{ "public", "12-vmx-nested-l1-cr0wp-triple-fault-newfmt-multivcpu.txt" },
	{ "public", "26-perf-script-irq-injection-pic-ioapic-inj-virq-oldfmt.txt" },
	{ "public", "34-vmx-nested-dr6-l0-view-trimmed-fields-vmread-vmresume.txt" },
	{ "public", "39-vmx-nested-windows-cg-perf-script-split-irqchip-msr-ioapic-eoi-rejoined.txt" },
	{ "local-kvm", "multi-vcpu-real.txt" },
	{ "local-kvm", "small-mixed-lm64.tracefs.txt" },
	{ "local-kvm", "small-mixed-pm32.raw.txt" },
};

#define RECS_MAX 60000

START_TEST(test_cache_changes_nothing)
{
	struct kvm_record *a = calloc(RECS_MAX, sizeof(*a)), *b = calloc(RECS_MAX, sizeof(*b));
	unsigned int na, nb, i;

	ck_assert(a && b);
	na = parse_file(all_text_files[_i].dir, all_text_files[_i].file, false, a, RECS_MAX);
	nb = parse_file(all_text_files[_i].dir, all_text_files[_i].file, true, b, RECS_MAX);
	ck_assert_uint_eq(na, nb);
	for (i = 0; i < na; i++) {
		char row[64];

		snprintf(row, sizeof(row), "%s record %u", all_text_files[_i].file, i);
		check_record(row, &b[i], &a[i]);
	}
	free(a);
	free(b);
}
END_TEST

/*
 * small-mixed-real as trace-cmd report, report -N (no plugins) and report -R: the same records,
 * except that the plugin's kvm_emulate_insn has no mode (README: "0:3000: 66 01 d8" vs
 * "0:3000:66 01 d8 (real)" vs "flags=0"), so only that field differs from -R.
 */
START_TEST(test_renderings_agree)
{
	static const char *const files[] = { "small-mixed-real.txt", "small-mixed-real.noplugin.txt",
					     "small-mixed-real.raw.txt" };
	struct kvm_record *r[3];
	unsigned int n[3], i, f, emulated = 0;

	for (f = 0; f < 3; f++) {
		r[f] = calloc(4000, sizeof(*r[f]));
		ck_assert(r[f]);
		n[f] = parse_file("local-kvm", files[f], true, r[f], 4000);
	}
	ck_assert_uint_eq(n[0], 2313); /* counts.txt total */
	ck_assert_uint_eq(n[1], n[0]);
	ck_assert_uint_eq(n[2], n[0]);
	for (i = 0; i < n[0]; i++) {
		char row[64];

		if (r[0][i].kind == KVM_REC_OTHER)
			continue; /* their payloads are printed differently, and unused */
		if (r[0][i].kind == KVM_REC_EMULATE_INSN) {
			ck_assert_int_eq(r[0][i].mode, KVM_MODE_UNKNOWN);
			ck_assert_int_eq(r[2][i].mode, KVM_MODE_REAL);
			r[0][i].mode = KVM_MODE_REAL;
			emulated++;
		}
		snprintf(row, sizeof(row), "plugin vs -R, record %u", i);
		check_record(row, &r[0][i], &r[2][i]);
		snprintf(row, sizeof(row), "-N vs -R, record %u", i);
		check_record(row, &r[1][i], &r[2][i]);
	}
	ck_assert_uint_eq(emulated, 1661);
	for (f = 0; f < 3; f++)
		free(r[f]);
}
END_TEST

/*
 * The cache and the fast path must never change what a line gives: lines of every layout the
 * fast path reads (text_layouts.h, text_raw_kinds[]), mutated byte by byte (a deterministic
 * pseudo-random walk), are parsed after their original warmed the cache and without any cache;
 * return value, record and message agree.
 */
static const char *const fast_lines[] = {
	" kvm-guest-harne-17532 [000]   878.819093: kvm_emulate_insn:     0:3000: 66 01 d8",
	" kvm-guest-harne-17532 [000]   878.819093: kvm_emulate_insn:     0:2009: 48 cf FAIL",
	" kvm-guest-harne-17386   [000] .....   877.504656: kvm_emulate_insn: 0:3000:66 01 d8 (real)",
	" kvm-guest-harne-17492   [000] .....   878.653416: kvm_emulate_insn: 0:2009:48 cf (prot64) "
	"failed",
	" kvm-guest-harne-17369 [000]   876.825154: kvm_msr:              msr_write 174 = 0x14",
	" kvm-guest-harne-17369 [000]   876.827015: kvm_msr:              msr_write 38d = 0xb (#GP)",
	" kvm-guest-harne-17369 [000]   876.825040: kvm_fpu:              load",
	" kvm-guest-harne-17369 [000]   876.825103: kvm_fpu:              unload",
	"qemu-system-x86-5665  [000] d..1   280.971122: kvm_entry: vcpu 0, rip 0x22da",
	"    kvm-5664  [000] 11906.220178: kvm_entry: vcpu 0",
	" kvm-guest-harne-17532 [000]   878.819093: kvm_update_master_clock: masterclock 0",
	" kvm-guest-harne-17369 [000]   876.825149: kvm_cpuid:            func 0 idx 0 rax 1c",
	"       CPU 0/KVM 1821753 [015] 4831258.258053: kvm:kvm_msr: msr_write 6e0 = 0x10e8aebe830c",
	" kvm-guest-harne-17369 [000]   876.825092: kvm_emulate_insn:     rip=3000 csbase=0 len=1 "
	"insn=ARRAY[f4, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00, 00] flags=0 failed=0",
	" kvm-guest-harne-17369 [000]   876.825101: kvm_pio:              pio_write at 0xe9 size 1 "
	"count 1 val 0x14 ",
	" kvm-guest-harne-17369 [000]   876.825134: kvm_pio:              pio_read at 0xe9 size 4 "
	"count 3 val 0x5a (...)",
	" kvm-guest-harne-17369 [000]   876.825104: kvm_userspace_exit:   reason KVM_EXIT_IO (2)",
	" kvm-guest-harne-17369 [000]   876.825104: kvm_userspace_exit:   reason restart (4)",
	" kvm-guest-harne-17369 [000]   876.827017: kvm_inj_exception:    [FAILED TO PARSE] "
	"exception=13 has_error=0 error_code=0 reinjected=0",
	" kvm-guest-harne-17533 [000]   878.821437: kvm_inj_exception:     exception=13 has_error=1 "
	"error_code=0 reinjected=1",
	" kvm-guest-harne-17386   [000] .....   877.504723: kvm_inj_exception: #GP (0x0)",
	/* -R forms of kinds with a field table, and layouts the fast path reads from theirs */
	" kvm-guest-harne-17369 [000]   876.825154: kvm_msr:              write=1 ecx=174 "
	"data=14 exception=0",
	" kvm-guest-harne-17369 [000]   876.825154: kvm_entry:            vcpu_id=1 rip=22da",
	" kvm-guest-harne-17369 [000]   876.825101: kvm_pio:              rw=1 port=e9 size=1 "
	"count=1 val=14",
	" kvm-guest-harne-17369 [000]   876.825101: kvm_apic_accept_irq:  apicid=1 dm=1024 tm=0 "
	"vec=236 coalesced=0",
	" kvm-guest-harne-17369 [000]   876.825101: kvm_eoi:              apicid=0 vector=236",
	" kvm-guest-harne-17369 [000]   876.825101: kvm_pio:              pio_read at 0x70 size 1 "
	"count 1",
	" kvm-guest-harne-17369 [000]   876.825104: kvm_userspace_exit:   reason error (4)",
	"qemu-system-x86-5665  [000] d..1   280.971122: kvm_entry: vcpu 0 rip 0x22da",
};

START_TEST(test_fast_path_changes_nothing)
{
	static const char bytes[] = " :.0123456789abcdefx()#-[]=FAILfailedmsr_\t";
	const char *orig = fast_lines[_i];
	size_t olen = strlen(orig);
	uint32_t rnd = 12345u + (uint32_t)_i;
	unsigned int m;

	for (m = 0; m < 3000; m++) {
		char line[256];
		size_t len = olen, at;
		struct text_parser tp;
		struct kvm_record a, b;
		struct vpmc__lineerr ea, eb;
		int ra, rb, k;

		memcpy(line, orig, olen);
		for (k = 0; k < 1 + (int)(m % 3) && len; k++) {
			rnd = rnd * 1103515245u + 12345u;
			at = (rnd >> 8) % len;
			switch ((rnd >> 4) % 4) {
			case 0: /* replace */
				line[at] = bytes[(rnd >> 16) % (sizeof(bytes) - 1)];
				break;
			case 1: /* delete */
				memmove(line + at, line + at + 1, len - at - 1);
				len--;
				break;
			case 2: /* insert */
				memmove(line + at + 1, line + at, len - at);
				line[at] = bytes[(rnd >> 16) % (sizeof(bytes) - 1)];
				len++;
				break;
			default: /* cut */
				len = at + 1;
			}
		}
		trace_text_init(&tp);
		ck_assert_int_eq(trace_text_parse_line(&tp, orig, olen, &a, NULL, &ea), 1);
		memset(&a, 0x5a, sizeof(a));
		memset(&b, 0x5a, sizeof(b));
		ra = trace_text_parse_line(&tp, line, len, &a, NULL, &ea);
		rb = trace_text_parse_line(NULL, line, len, &b, NULL, &eb);
		ck_assert_msg(ra == rb, "'%.*s': %d with the cache, %d without", (int)len, line, ra,
			      rb);
		if (ra == 1) {
			check_record(line, &a, &b);
		} else if (ra < 0) {
			ck_assert_msg(ea.col == eb.col && !strcmp(ea.msg, eb.msg),
				      "'%.*s': %u %s / %u %s", (int)len, line, ea.col, ea.msg, eb.col,
				      eb.msg);
		}
	}
}
END_TEST

/* fuzz find: a cached prefix followed by an over-precise number without ':' gave the time stamp
 * error, where the general parser says there is no event on the line. */
START_TEST(test_cached_prefix_error_as_without)
{
	static const char warm[] = " kvm-guest-harne-17369 [000]   876.825154: kvm_fpu: load";
	static const char bad[] = " kvm-guest-harne-17369 [000]   876.825161350283";
	struct text_parser tp;
	struct kvm_record rec;
	struct vpmc__lineerr err;

	trace_text_init(&tp);
	ck_assert_int_eq(trace_text_parse_line(&tp, warm, sizeof(warm) - 1, &rec, NULL, &err), 1);
	ck_assert_int_eq(trace_text_parse_line(&tp, bad, sizeof(bad) - 1, &rec, NULL, &err),
			 VPMC_ERR_PARSE);
	ck_assert_uint_eq(err.col, 2);
	ck_assert_str_eq(err.msg, "expected an event ('NAME: ...') on this line, found "
		       "'kvm-guest-harne-17369'");
}
END_TEST

START_TEST(test_layout_of_first_line)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "qemu-system-x86-5665  [000] d..1   280.971122: kvm_entry: vcpu 0", "ftrace" },
		{ " kvm-guest-harne-17369 [000]   876.825092: kvm_fpu: load", "trace-cmd" },
		{ "       CPU 0/KVM 1821753 [015] 4831258.258053: kvm:kvm_msr: msr_read 3b = 0x0",
		  "perf" },
		{ "preempt_test  20677.199579:      kvm:kvm_exit: reason HLT rip 0x1", "perf" },
		{ "  kvm_exit:             reason EXIT_RSM rip 0x7ffbb280 info 0 0", "text" },
		{ " 6204.951631: kvm_eoi: apicid 0 vector 176", "text" },
	};
	struct text_parser tp;
	struct kvm_record rec;
	struct vpmc__lineerr err;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		trace_text_init(&tp);
		ck_assert_int_eq(trace_text_parse_line(&tp, cases[i].line, strlen(cases[i].line),
						       &rec, NULL, &err), 1);
		ck_assert_str_eq(tp.layout, cases[i].want);
	}
}
END_TEST

static Suite *trace_text_suite(void)
{
	Suite *s = suite_create("trace_text");
	TCase *tc = tcase_create("lines");
	TCase *tf = tcase_create("files");

	tcase_add_loop_test(tc, test_layout_table, 0, ARRAY_SIZE(layouts));
	tcase_add_loop_test(tc, test_skip_lines, 0, ARRAY_SIZE(skips));
	tcase_add_loop_test(tc, test_malformed_lines, 0, ARRAY_SIZE(errors));
	tcase_add_test(tc, test_cant_find_field_is_partial);
	tcase_add_test(tc, test_layout_of_first_line);
	tcase_add_test(tc, test_cached_prefix_error_as_without);
	tcase_add_loop_test(tc, test_fast_path_changes_nothing, 0, ARRAY_SIZE(fast_lines));
	suite_add_tcase(s, tc);
	tcase_add_loop_test(tf, test_public_file_counts, 0, ARRAY_SIZE(public_files));
	tcase_add_loop_test(tf, test_local_file_counts, 0, ARRAY_SIZE(local_files));
	tcase_add_loop_test(tf, test_cache_changes_nothing, 0, ARRAY_SIZE(all_text_files));
	tcase_add_test(tf, test_renderings_agree);
	tcase_set_timeout(tf, 120);
	suite_add_tcase(s, tf);
	return s;
}

CHECK_MAIN(trace_text_suite)
