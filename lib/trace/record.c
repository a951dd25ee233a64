// SPDX-License-Identifier: GPL-2.0-only
/* kvm_record.c - Names and codes shared by the kvm tracepoint readers (text and trace.dat). */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "record.h"
#include "internal.h"

static const struct {
	const char *name;
	enum kvm_rec_kind kind;
} kvm_kinds[] = {
	{ "kvm_entry", KVM_REC_ENTRY },
	{ "kvm_exit", KVM_REC_EXIT },
	{ "kvm_msr", KVM_REC_MSR },
	{ "kvm_emulate_insn", KVM_REC_EMULATE_INSN },
	{ "kvm_inj_exception", KVM_REC_INJ_EXCEPTION },
	{ "kvm_inj_virq", KVM_REC_INJ_VIRQ },
	{ "kvm_apic_accept_irq", KVM_REC_APIC_ACCEPT_IRQ },
	{ "kvm_eoi", KVM_REC_EOI },
	{ "kvm_apic", KVM_REC_APIC },
	{ "kvm_pio", KVM_REC_PIO },
	{ "kvm_userspace_exit", KVM_REC_USERSPACE_EXIT },
	{ "kvm_cpuid", KVM_REC_CPUID },
	{ "kvm_fpu", KVM_REC_FPU },
	{ "kvm_hypercall", KVM_REC_HYPERCALL },
	{ "kvm_nested_vmexit", KVM_REC_NESTED_VMEXIT },
	{ "kvm_nested_vmexit_inject", KVM_REC_NESTED_VMEXIT_INJECT },
	{ "kvm_nested_vmenter", KVM_REC_NESTED_VMENTER },
	{ "kvm_nested_vmrun", KVM_REC_NESTED_VMENTER }, /* SVM's name before 5.19 */
};

enum kvm_rec_kind trace_record_kind_n(const char *name, size_t len)
{
	size_t i;

	/* Every kind we use is a "kvm_" event; most lines of a trace are, so test that first. */
	if (len < 7 || memcmp(name, "kvm_", 4))
		return KVM_REC_OTHER;
	for (i = 0; i < ARRAY_SIZE(kvm_kinds); i++) {
		if (strlen(kvm_kinds[i].name) == len && !memcmp(kvm_kinds[i].name, name, len))
			return kvm_kinds[i].kind;
	}
	if (len > 11 && !memcmp(name, "kvm_nested_", 11))
		return KVM_REC_NESTED_OTHER;
	return KVM_REC_OTHER;
}

enum kvm_rec_kind trace_record_kind(const char *name)
{
	return trace_record_kind_n(name, strlen(name));
}

/* arch/x86/kvm/trace.h: KVM_EMUL_INSN_F_CR0_PE (1 << 0), _EFL_VM (1 << 1), _CS_D (1 << 2),
 * _CS_L (1 << 3), combined as in kvm_trace_symbol_emul_flags. */
enum kvm_insn_mode trace_insn_mode_from_flags(unsigned int flags)
{
	switch (flags) {
	case 0:
		return KVM_MODE_REAL;
	case 0x1 | 0x2:
		return KVM_MODE_VM86;
	case 0x1:
		return KVM_MODE_PROT16;
	case 0x1 | 0x4:
		return KVM_MODE_PROT32;
	case 0x1 | 0x8:
		return KVM_MODE_PROT64;
	}
	return KVM_MODE_UNKNOWN;
}

/* VMX_EXIT_REASONS, arch/x86/include/uapi/asm/vmx.h (up to MSR_WRITE_IMM, 6.16). */
static const struct {
	uint16_t code;
	const char *name;
} vmx_exit_reasons[] = {
	{ 0, "EXCEPTION_NMI" },	       { 1, "EXTERNAL_INTERRUPT" },   { 2, "TRIPLE_FAULT" },
	{ 3, "INIT_SIGNAL" },	       { 7, "PENDING_INTERRUPT" },    { 8, "NMI_WINDOW" },
	{ 9, "TASK_SWITCH" },	       { 10, "CPUID" },		      { 12, "HLT" },
	{ 13, "INVD" },		       { 14, "INVLPG" },	      { 15, "RDPMC" },
	{ 16, "RDTSC" },	       { 18, "VMCALL" },	      { 19, "VMCLEAR" },
	{ 20, "VMLAUNCH" },	       { 21, "VMPTRLD" },	      { 22, "VMPTRST" },
	{ 23, "VMREAD" },	       { 24, "VMRESUME" },	      { 25, "VMWRITE" },
	{ 26, "VMOFF" },	       { 27, "VMON" },		      { 28, "CR_ACCESS" },
	{ 29, "DR_ACCESS" },	       { 30, "IO_INSTRUCTION" },      { 31, "MSR_READ" },
	{ 32, "MSR_WRITE" },	       { 33, "INVALID_STATE" },	      { 34, "MSR_LOAD_FAIL" },
	{ 36, "MWAIT_INSTRUCTION" },   { 37, "MONITOR_TRAP_FLAG" },   { 39, "MONITOR_INSTRUCTION" },
	{ 40, "PAUSE_INSTRUCTION" },   { 41, "MCE_DURING_VMENTRY" },  { 43, "TPR_BELOW_THRESHOLD" },
	{ 44, "APIC_ACCESS" },	       { 45, "EOI_INDUCED" },	      { 46, "GDTR_IDTR" },
	{ 47, "LDTR_TR" },	       { 48, "EPT_VIOLATION" },	      { 49, "EPT_MISCONFIG" },
	{ 50, "INVEPT" },	       { 51, "RDTSCP" },	      { 52, "PREEMPTION_TIMER" },
	{ 53, "INVVPID" },	       { 54, "WBINVD" },	      { 55, "XSETBV" },
	{ 56, "APIC_WRITE" },	       { 57, "RDRAND" },	      { 58, "INVPCID" },
	{ 59, "VMFUNC" },	       { 60, "ENCLS" },		      { 61, "RDSEED" },
	{ 62, "PML_FULL" },	       { 63, "XSAVES" },	      { 64, "XRSTORS" },
	{ 67, "UMWAIT" },	       { 68, "TPAUSE" },	      { 70, "ENCLV" },
	{ 71, "SGX_CONFLICT" },	       { 74, "BUS_LOCK" },	      { 75, "NOTIFY" },
	{ 77, "TDCALL" },	       { 84, "MSR_READ_IMM" },	      { 85, "MSR_WRITE_IMM" },
};

/* SVM_EXIT_REASONS, arch/x86/include/uapi/asm/svm.h. */
static const struct {
	uint32_t code;
	const char *name;
} svm_exit_reasons[] = {
	{ 0x000, "read_cr0" },	     { 0x002, "read_cr2" },	  { 0x003, "read_cr3" },
	{ 0x004, "read_cr4" },	     { 0x008, "read_cr8" },	  { 0x010, "write_cr0" },
	{ 0x012, "write_cr2" },	     { 0x013, "write_cr3" },	  { 0x014, "write_cr4" },
	{ 0x018, "write_cr8" },	     { 0x020, "read_dr0" },	  { 0x021, "read_dr1" },
	{ 0x022, "read_dr2" },	     { 0x023, "read_dr3" },	  { 0x024, "read_dr4" },
	{ 0x025, "read_dr5" },	     { 0x026, "read_dr6" },	  { 0x027, "read_dr7" },
	{ 0x030, "write_dr0" },	     { 0x031, "write_dr1" },	  { 0x032, "write_dr2" },
	{ 0x033, "write_dr3" },	     { 0x034, "write_dr4" },	  { 0x035, "write_dr5" },
	{ 0x036, "write_dr6" },	     { 0x037, "write_dr7" },	  { 0x040, "DE excp" },
	{ 0x041, "DB excp" },	     { 0x043, "BP excp" },	  { 0x044, "OF excp" },
	{ 0x045, "BR excp" },	     { 0x046, "UD excp" },	  { 0x047, "NM excp" },
	{ 0x048, "DF excp" },	     { 0x04a, "TS excp" },	  { 0x04b, "NP excp" },
	{ 0x04c, "SS excp" },	     { 0x04d, "GP excp" },	  { 0x04e, "PF excp" },
	{ 0x050, "MF excp" },	     { 0x051, "AC excp" },	  { 0x052, "MC excp" },
	{ 0x053, "XF excp" },	     { 0x060, "interrupt" },	  { 0x061, "nmi" },
	{ 0x062, "smi" },	     { 0x063, "init" },		  { 0x064, "vintr" },
	{ 0x065, "cr0_sel_write" },  { 0x066, "read_idtr" },	  { 0x067, "read_gdtr" },
	{ 0x068, "read_ldtr" },	     { 0x069, "read_rt" },	  { 0x06a, "write_idtr" },
	{ 0x06b, "write_gdtr" },     { 0x06c, "write_ldtr" },	  { 0x06d, "write_rt" },
	{ 0x06e, "rdtsc" },	     { 0x06f, "rdpmc" },	  { 0x070, "pushf" },
	{ 0x071, "popf" },	     { 0x072, "cpuid" },	  { 0x073, "rsm" },
	{ 0x074, "iret" },	     { 0x075, "swint" },	  { 0x076, "invd" },
	{ 0x077, "pause" },	     { 0x078, "hlt" },		  { 0x079, "invlpg" },
	{ 0x07a, "invlpga" },	     { 0x07b, "io" },		  { 0x07c, "msr" },
	{ 0x07d, "task_switch" },    { 0x07e, "ferr_freeze" },	  { 0x07f, "shutdown" },
	{ 0x080, "vmrun" },	     { 0x081, "hypercall" },	  { 0x082, "vmload" },
	{ 0x083, "vmsave" },	     { 0x084, "stgi" },		  { 0x085, "clgi" },
	{ 0x086, "skinit" },	     { 0x087, "rdtscp" },	  { 0x088, "icebp" },
	{ 0x089, "wbinvd" },	     { 0x08a, "monitor" },	  { 0x08b, "mwait" },
	{ 0x08d, "xsetbv" },	     { 0x08f, "write_efer_trap" }, { 0x090, "write_cr0_trap" },
	{ 0x0a2, "invpcid" },	     { 0x400, "npf" },		  { 0x401, "avic_incomplete_ipi" },
	{ 0x402, "avic_unaccelerated_access" }, { 0x403, "vmgexit" },
	{ 0xffffffff, "invalid_guest_state" }, /* SVM_EXIT_ERR (-1) */
};

#define KVM_ISA_VMX 1
#define KVM_ISA_SVM 2

/* The first word of @reason (the name without flags) is @name, compared with or without case. */
static bool reason_is(const char *reason, const char *name, bool nocase)
{
	size_t n = strlen(name);

	if (nocase ? strncasecmp(reason, name, n) : strncmp(reason, name, n))
		return false;
	return !reason[n] || reason[n] == ' ';
}

unsigned int trace_exit_reason_isa(const char *reason)
{
	bool svm = false;
	size_t i;

	if (!strncmp(reason, "EXIT_", 5)) /* libtraceevent plugin_kvm.c's svm_exit_reasons */
		return KVM_ISA_SVM;
	for (i = 0; i < ARRAY_SIZE(vmx_exit_reasons); i++) {
		if (reason_is(reason, vmx_exit_reasons[i].name, false))
			return KVM_ISA_VMX;
		if (reason_is(reason, vmx_exit_reasons[i].name, true))
			return 0; /* lower case: an ancient VMX name, or an SVM one */
	}
	/* "GP excp" has a space: compared whole */
	for (i = 0; !svm && i < ARRAY_SIZE(svm_exit_reasons); i++)
		svm = !strcmp(reason, svm_exit_reasons[i].name) ||
		      (!strchr(svm_exit_reasons[i].name, ' ') &&
		       reason_is(reason, svm_exit_reasons[i].name, false));
	return svm ? KVM_ISA_SVM : 0;
}
#define VMX_EXIT_REASONS_FAILED_VMENTRY 0x80000000u

void trace_exit_reason_name(unsigned int isa, uint64_t exit_reason, char *buf, size_t len)
{
	const char *name = NULL;
	uint32_t basic;
	size_t i;

	if (isa == KVM_ISA_VMX) {
		/* kvm_print_exit_reason(): __print_symbolic(reason & 0xffff, VMX_EXIT_REASONS),
		 * then " " and __print_flags(reason & ~0xffff, " ", VMX_EXIT_REASON_FLAGS). */
		uint64_t flags = exit_reason & ~0xffffull;
		int n;

		basic = exit_reason & 0xffff;
		for (i = 0; i < ARRAY_SIZE(vmx_exit_reasons); i++) {
			if (vmx_exit_reasons[i].code == basic)
				name = vmx_exit_reasons[i].name;
		}
		n = name ? snprintf(buf, len, "%s", name) :
			   snprintf(buf, len, "0x%x", (unsigned int)basic);
		if (!flags || n < 0 || (size_t)n >= len)
			return;
		if (flags & VMX_EXIT_REASONS_FAILED_VMENTRY) {
			flags &= ~(uint64_t)VMX_EXIT_REASONS_FAILED_VMENTRY;
			n += snprintf(buf + n, len - n, " FAILED_VMENTRY%s", flags ? " " : "");
			if ((size_t)n >= len)
				return;
		} else {
			n += snprintf(buf + n, len - n, " ");
		}
		if (flags && (size_t)n < len)
			snprintf(buf + n, len - n, "0x%llx", (unsigned long long)flags);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(svm_exit_reasons); i++) {
		if (svm_exit_reasons[i].code == exit_reason)
			name = svm_exit_reasons[i].name;
	}
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)exit_reason);
}
