/* SPDX-License-Identifier: GPL-2.0-only */
/* kvm_record.h - One kvm:* tracepoint record, read from text or trace.dat, before import.
 *
 * Two producers fill it (trace_text.c from any text layout, trace_dat.c from libtracecmd fields)
 * and one consumer turns a stream of them into native events (import.c). The same recording read
 * either way must give the same records; only what a layout cannot carry may differ (time
 * resolution, fields a layout omits), and the importer must not depend on those.
 */
#ifndef VPMC_KVM_RECORD_H
#define VPMC_KVM_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h" /* enum kvm_insn_mode */
#include "vpmc.h"

enum kvm_rec_kind {
	KVM_REC_OTHER,           /* an event the importer does not use: counted by name */
	KVM_REC_LOST,            /* a tracer "lost events" marker: lost = how many (0 unknown) */
	KVM_REC_ENTRY,           /* kvm_entry */
	KVM_REC_EXIT,            /* kvm_exit: reason, rip */
	KVM_REC_MSR,             /* kvm_msr: write, msr, data, gp */
	KVM_REC_EMULATE_INSN,    /* kvm_emulate_insn: insn/insn_len, mode, failed */
	KVM_REC_INJ_EXCEPTION,   /* kvm_inj_exception: vector (#GP = 13), reinjected */
	KVM_REC_INJ_VIRQ,        /* kvm_inj_virq: vector, reinjected */
	KVM_REC_APIC_ACCEPT_IRQ, /* kvm_apic_accept_irq: vector */
	KVM_REC_EOI,             /* kvm_eoi: vector */
	KVM_REC_APIC,            /* kvm_apic: apic_read/apic_write of register reg (offset) = data */
	KVM_REC_PIO,             /* kvm_pio: write, port, size, count */
	KVM_REC_USERSPACE_EXIT,  /* kvm_userspace_exit: exit_reason (KVM_EXIT_*) */
	KVM_REC_CPUID,           /* kvm_cpuid */
	KVM_REC_FPU,             /* kvm_fpu: load (write = true) or unload */
	KVM_REC_HYPERCALL,       /* kvm_hypercall */
	KVM_REC_NESTED_VMEXIT,   /* kvm_nested_vmexit: reason, rip */
	KVM_REC_NESTED_VMEXIT_INJECT, /* kvm_nested_vmexit_inject: reason */
	KVM_REC_NESTED_VMENTER,  /* kvm_nested_vmenter (and kvm_nested_vmrun) */
	KVM_REC_NESTED_OTHER,    /* other kvm_nested_* (intercepts, intr_vmexit, ...) */
	KVM_REC_MMIO,            /* kvm_mmio: mmio_type, gpa (for vpmcsim stat --event mmio) */
	KVM_REC_NR
};

#define KVM_REC_NAME_MAX 64
#define KVM_INSN_MAX X86_MAX_INSTRUCTION_LENGTH

struct kvm_record {
	enum kvm_rec_kind kind;
	char name[KVM_REC_NAME_MAX]; /* event name without a "kvm:" system prefix */
	uint64_t time_ns;            /* trace time, ns (valid if has_time) */
	bool has_time;
	bool partial;                /* text: libtraceevent printed "CAN'T FIND FIELD" for some
				      * field; the rest was read */
	uint64_t pos;                /* its line (text) or number (trace.dat) in the input, for
				      * messages about it after it waited (trace_import_line()) */
	int64_t tid;                 /* thread (common_pid), -1 if the layout has none */
	int32_t cpu;                 /* host CPU, -1 if unknown */
	int32_t vcpu;                /* vcpu field of ENTRY, EXIT, NESTED_VMEXIT; apicid of
				      * APIC_ACCEPT_IRQ (sent from another thread); else -1 */

	/* EXIT, NESTED_VMEXIT, NESTED_VMEXIT_INJECT */
	char reason[VPMC_REASON_MAX]; /* as printed: "MSR_WRITE", "msr", "EXIT_NPF",
				       * "INVALID_STATE FAILED_VMENTRY" */
	uint64_t rip;                 /* also EMULATE_INSN: the instruction's rip (csbase:RIP) */
	uint8_t isa;                  /* EXIT: the isa field when the layout has one (1 VMX,
				       * 2 SVM), else 0 */

	/* MSR (write, msr, data, gp), APIC (write, reg, data), PIO (write, port, size, count),
	 * FPU (write = load) */
	bool write;
	uint32_t msr;
	uint64_t data;
	bool gp;       /* MSR: " (#GP)": the access faulted */
	uint32_t reg;  /* APIC: register offset, 0x340 = LVTPC */
	uint32_t port, size, count;
	uint32_t mmio_type; /* MMIO: KVM_TRACE_MMIO_READ_UNSATISFIED 0, _READ 1, _WRITE 2 */
	uint64_t gpa;       /* MMIO: the guest physical address */

	/* EMULATE_INSN */
	uint8_t insn[KVM_INSN_MAX];
	uint8_t insn_len;
	enum kvm_insn_mode mode;
	bool failed;   /* "failed" / "FAIL" / failed=1 */

	/* INJ_EXCEPTION, INJ_VIRQ, APIC_ACCEPT_IRQ, EOI */
	uint32_t vector;
	bool reinjected;
	uint32_t dm;   /* APIC_ACCEPT_IRQ: delivery mode as printed, (dm >> 8) & 7: 0 Fixed,
			* 1 LowPrio, 2 SMI, 4 NMI, 5 INIT, 6 SIPI, 7 ExtINT; vcpu = apicid */

	/* USERSPACE_EXIT */
	uint32_t exit_reason;

	/* LOST */
	uint64_t lost;

	/* kvm_nested_*, read for vpmc_reader_opts.nested and .nested_events (text:
	 * nested_import.c; trace.dat: dat.c, from the fields info1 / exit_info1, vmcb, isa,
	 * intercept1..3 or intercept) */
	struct kvm_nested_fields {
		uint64_t info1;        /* NESTED_VMEXIT: info1 / ext_inf1, if has_info1 */
		uint64_t gpa;          /* NESTED_VMENTER: the vmcb: / vmcs: field, if has_gpa */
		uint32_t words[3];     /* kvm_nested_intercepts: VMCB intercept words 3, 4, 5 */
		uint64_t line;         /* the record's line in a text input (0: unknown) */
		uint8_t isa;           /* NESTED_VMENTER: 2 "vmcb:" (or kvm_nested_vmrun), 1 "vmcs:" */
		bool has_info1, has_gpa;
	} nested;
};

/* The kind of a kvm event name ("kvm_exit" -> KVM_REC_EXIT); KVM_REC_OTHER if not used.
 * kvm_nested_vmrun (SVM's name for kvm_nested_vmenter before 5.19) is NESTED_VMENTER, any other
 * kvm_nested_* NESTED_OTHER. */
enum kvm_rec_kind trace_record_kind(const char *name);
/* The same for a name of @len bytes (not NUL-terminated). */
enum kvm_rec_kind trace_record_kind_n(const char *name, size_t len);

/* kvm_emulate_insn's flags field -> mode, as kvm_trace_symbol_emul_flags in
 * arch/x86/kvm/trace.h prints it (0 real, PE|VM vm16, PE prot16, PE|CS_D prot32, PE|CS_L prot64);
 * any other value is KVM_MODE_UNKNOWN. */
enum kvm_insn_mode trace_insn_mode_from_flags(unsigned int flags);

/* The exit reason as kvm_exit prints it (kvm_print_exit_reason() in arch/x86/kvm/trace.h):
 * isa 1 (VMX): VMX_EXIT_REASONS name of the low 16 bits, then " FAILED_VMENTRY" for bit 31 and
 * " 0x.." for other flag bits; isa 2 (SVM): SVM_EXIT_REASONS (lower case); an unknown code is
 * printed "0x%x" as __print_symbolic() does. Always NUL-terminated in @buf (VPMC_REASON_MAX). */
void trace_exit_reason_name(unsigned int isa, uint64_t exit_reason, char *buf, size_t len);

/* Which isa an exit reason as printed belongs to: 1 (VMX) for a VMX_EXIT_REASONS name, 2 (SVM)
 * for an SVM_EXIT_REASONS name no VMX name equals without case (ancient VMX traces print lower
 * case: "hlt" says nothing) or trace-cmd's plugin's "EXIT_..." SVM names; else 0. */
unsigned int trace_exit_reason_isa(const char *reason);

/* The last exit reason given the kernel's spelling, and that spelling: reasons repeat. */
struct trace_exit_names {
	char raw[VPMC_REASON_MAX];
	char name[VPMC_REASON_MAX];
};

/* Replace @reason (VPMC_REASON_MAX bytes, NUL-terminated) by the kernel's spelling of it
 * (x86_exit_kernel_name()), so that one exit has one name whatever the layout (issue 17). */
void trace_exit_kernel_name(struct trace_exit_names *c, char *reason);

/* Whether @reason is an exit-reason name of either vendor's table, in any case. */
bool trace_exit_reason_known(const char *reason);

#endif /* VPMC_KVM_RECORD_H */
