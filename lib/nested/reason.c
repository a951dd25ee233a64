// SPDX-License-Identifier: GPL-2.0-only
/* reason.c - Exit reasons as the nested model reads them: SVM's two alphabets (the kernel's
 * SVM_EXIT_REASONS in lower case, libtraceevent's kvm plugin EXIT_*) mapped onto exit codes,
 * VMX names compared on their first word (nested-gpc.md §6.4). */
#include "config.h"

#include <string.h>
#include <strings.h>

#include "nested-local.h"

/* arch/x86/include/uapi/asm/svm.h: SVM_EXIT_REASONS (native) and the plugin's SVM_EXIT_REASONS
 * (plugin_kvm.c), by exit code. */
static const struct {
	uint32_t code;
	const char *native, *plugin;
} svm_reasons[] = {
	{ 0x000, "read_cr0", "EXIT_READ_CR0" },	{ 0x002, "read_cr2", NULL },
	{ 0x003, "read_cr3", "EXIT_READ_CR3" },	{ 0x004, "read_cr4", "EXIT_READ_CR4" },
	{ 0x008, "read_cr8", "EXIT_READ_CR8" },	{ 0x010, "write_cr0", "EXIT_WRITE_CR0" },
	{ 0x012, "write_cr2", NULL },		{ 0x013, "write_cr3", "EXIT_WRITE_CR3" },
	{ 0x014, "write_cr4", "EXIT_WRITE_CR4" }, { 0x018, "write_cr8", "EXIT_WRITE_CR8" },
	{ 0x020, "read_dr0", "EXIT_READ_DR0" },	{ 0x021, "read_dr1", "EXIT_READ_DR1" },
	{ 0x022, "read_dr2", "EXIT_READ_DR2" },	{ 0x023, "read_dr3", "EXIT_READ_DR3" },
	{ 0x024, "read_dr4", "EXIT_READ_DR4" },	{ 0x025, "read_dr5", "EXIT_READ_DR5" },
	{ 0x026, "read_dr6", "EXIT_READ_DR6" },	{ 0x027, "read_dr7", "EXIT_READ_DR7" },
	{ 0x030, "write_dr0", "EXIT_WRITE_DR0" }, { 0x031, "write_dr1", "EXIT_WRITE_DR1" },
	{ 0x032, "write_dr2", "EXIT_WRITE_DR2" }, { 0x033, "write_dr3", "EXIT_WRITE_DR3" },
	{ 0x034, "write_dr4", "EXIT_WRITE_DR4" }, { 0x035, "write_dr5", "EXIT_WRITE_DR5" },
	{ 0x036, "write_dr6", "EXIT_WRITE_DR6" }, { 0x037, "write_dr7", "EXIT_WRITE_DR7" },
	{ 0x040, "DE excp", "EXIT_EXCP_DE" },	{ 0x041, "DB excp", "EXIT_EXCP_DB" },
	{ 0x043, "BP excp", "EXIT_EXCP_BP" },	{ 0x044, "OF excp", "EXIT_EXCP_OF" },
	{ 0x045, "BR excp", "EXIT_EXCP_BR" },	{ 0x046, "UD excp", "EXIT_EXCP_UD" },
	{ 0x047, "NM excp", "EXIT_EXCP_NM" },	{ 0x048, "DF excp", "EXIT_EXCP_DF" },
	{ 0x04a, "TS excp", "EXIT_EXCP_TS" },	{ 0x04b, "NP excp", "EXIT_EXCP_NP" },
	{ 0x04c, "SS excp", "EXIT_EXCP_SS" },	{ 0x04d, "GP excp", "EXIT_EXCP_GP" },
	{ 0x04e, "PF excp", "EXIT_EXCP_PF" },	{ 0x050, "MF excp", "EXIT_EXCP_MF" },
	{ 0x051, "AC excp", "EXIT_EXCP_AC" },	{ 0x052, "MC excp", "EXIT_EXCP_MC" },
	{ 0x053, "XF excp", "EXIT_EXCP_XF" },	{ 0x060, "interrupt", "EXIT_INTR" },
	{ 0x061, "nmi", "EXIT_NMI" },		{ 0x062, "smi", "EXIT_SMI" },
	{ 0x063, "init", "EXIT_INIT" },		{ 0x064, "vintr", "EXIT_VINTR" },
	{ 0x065, "cr0_sel_write", "EXIT_CR0_SEL_WRITE" }, { 0x066, "read_idtr", "EXIT_IDTR_READ" },
	{ 0x067, "read_gdtr", "EXIT_GDTR_READ" }, { 0x068, "read_ldtr", "EXIT_LDTR_READ" },
	{ 0x069, "read_rt", "EXIT_TR_READ" },	{ 0x06a, "write_idtr", "EXIT_IDTR_WRITE" },
	{ 0x06b, "write_gdtr", "EXIT_GDTR_WRITE" }, { 0x06c, "write_ldtr", "EXIT_LDTR_WRITE" },
	{ 0x06d, "write_rt", "EXIT_TR_WRITE" },	{ 0x06e, "rdtsc", "EXIT_RDTSC" },
	{ 0x06f, "rdpmc", "EXIT_RDPMC" },	{ 0x070, "pushf", "EXIT_PUSHF" },
	{ 0x071, "popf", "EXIT_POPF" },		{ 0x072, "cpuid", "EXIT_CPUID" },
	{ 0x073, "rsm", "EXIT_RSM" },		{ 0x074, "iret", "EXIT_IRET" },
	{ 0x075, "swint", "EXIT_SWINT" },	{ 0x076, "invd", "EXIT_INVD" },
	{ 0x077, "pause", "EXIT_PAUSE" },	{ 0x078, "hlt", "EXIT_HLT" },
	{ 0x079, "invlpg", "EXIT_INVLPG" },	{ 0x07a, "invlpga", "EXIT_INVLPGA" },
	{ 0x07b, "io", "EXIT_IOIO" },		{ 0x07c, "msr", "EXIT_MSR" },
	{ 0x07d, "task_switch", "EXIT_TASK_SWITCH" }, { 0x07e, "ferr_freeze", "EXIT_FERR_FREEZE" },
	{ 0x07f, "shutdown", "EXIT_SHUTDOWN" },	{ 0x080, "vmrun", "EXIT_VMRUN" },
	{ 0x081, "hypercall", "EXIT_VMMCALL" },	{ 0x082, "vmload", "EXIT_VMLOAD" },
	{ 0x083, "vmsave", "EXIT_VMSAVE" },	{ 0x084, "stgi", "EXIT_STGI" },
	{ 0x085, "clgi", "EXIT_CLGI" },		{ 0x086, "skinit", "EXIT_SKINIT" },
	{ 0x087, "rdtscp", "EXIT_RDTSCP" },	{ 0x088, "icebp", "EXIT_ICEBP" },
	{ 0x089, "wbinvd", "EXIT_WBINVD" },	{ 0x08a, "monitor", "EXIT_MONITOR" },
	{ 0x08b, "mwait", "EXIT_MWAIT" },	{ 0x08c, NULL, "EXIT_MWAIT_COND" },
	{ 0x08d, "xsetbv", "EXIT_XSETBV" },	{ 0x08f, "write_efer_trap", NULL },
	{ 0x090, "write_cr0_trap", NULL },	{ 0x0a2, "invpcid", NULL },
	{ 0x0a5, "idle-halt", NULL },		{ 0x400, "npf", "EXIT_NPF" },
	{ 0x401, "avic_incomplete_ipi", "EXIT_AVIC_INCOMPLETE_IPI" },
	{ 0x402, "avic_unaccelerated_access", "EXIT_AVIC_UNACCELERATED_ACCESS" },
	{ 0x403, "vmgexit", NULL },		{ 0xffffffff, "invalid_guest_state", "EXIT_ERR" },
};

#define SVM_EXIT_INTR 0x060
#define SVM_EXIT_NMI 0x061
#define SVM_EXIT_CPUID 0x072
#define SVM_EXIT_RSM 0x073
#define SVM_EXIT_IOIO 0x07b
#define SVM_EXIT_MSR 0x07c
#define SVM_EXIT_VMRUN 0x080
#define SVM_EXIT_VMLOAD 0x082
#define SVM_EXIT_VMSAVE 0x083
#define SVM_EXIT_NPF 0x400

/* VMX names by their role; the rest are NR_OTHER (VMX_EXIT_REASONS, uapi/asm/vmx.h). */
static const struct {
	const char *name;
	enum nested_rclass cls;
	bool write;
} vmx_reasons[] = {
	{ "CPUID", NR_CPUID, false },	      { "MSR_READ", NR_MSR, false },
	{ "MSR_WRITE", NR_MSR, true },	      { "MSR_READ_IMM", NR_MSR, false },
	{ "MSR_WRITE_IMM", NR_MSR, true },    { "IO_INSTRUCTION", NR_IO, false },
	{ "VMLAUNCH", NR_ENTRY, false },      { "VMRESUME", NR_ENTRY, false },
	/* nested_vmx_l0_wants_exit(): L0 keeps these; an inject after one is synthesized */
	{ "EXTERNAL_INTERRUPT", NR_L0_OWNED, false }, { "EPT_VIOLATION", NR_L0_OWNED, false },
	{ "EPT_MISCONFIG", NR_L0_OWNED, false },      { "PREEMPTION_TIMER", NR_L0_OWNED, false },
	{ "PML_FULL", NR_L0_OWNED, false },	      { "BUS_LOCK", NR_L0_OWNED, false },
};

/* The length of @s's first word. */
static size_t first_word(const char *s)
{
	return strcspn(s, " ");
}

/* A VMX name: upper case, digits and '_' (the ancient lower-case names are not told apart). */
static bool vmx_spelling(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	}
	return n > 0;
}

void nested_reason(const char *reason, struct nested_reason *r)
{
	size_t i, n = first_word(reason);

	memset(r, 0, sizeof(*r));
	for (i = 0; i < ARRAY_SIZE(svm_reasons); i++) {
		if ((svm_reasons[i].native && !strcmp(reason, svm_reasons[i].native)) ||
		    (svm_reasons[i].plugin && !strcmp(reason, svm_reasons[i].plugin))) {
			r->isa = VPMC_NESTED_ISA_SVM;
			r->code = svm_reasons[i].code;
			break;
		}
	}
	if (r->isa == VPMC_NESTED_ISA_SVM) {
		switch (r->code) {
		case SVM_EXIT_CPUID:
			r->cls = NR_CPUID;
			break;
		case SVM_EXIT_MSR:
			r->cls = NR_MSR;
			break;
		case SVM_EXIT_IOIO:
			r->cls = NR_IO;
			break;
		case SVM_EXIT_VMRUN:
			r->cls = NR_ENTRY;
			break;
		case SVM_EXIT_RSM:
			r->cls = NR_RSM;
			break;
		case SVM_EXIT_VMLOAD:
		case SVM_EXIT_VMSAVE:
			r->cls = NR_VMLOAD_SAVE;
			break;
		/* nested_svm_exit_special(): INTR, NMI and NPF stay in L0 */
		case SVM_EXIT_INTR:
		case SVM_EXIT_NMI:
		case SVM_EXIT_NPF:
			r->cls = NR_L0_OWNED;
			break;
		}
		return;
	}
	if (!vmx_spelling(reason, n))
		return;
	r->isa = VPMC_NESTED_ISA_VMX;
	for (i = 0; i < ARRAY_SIZE(vmx_reasons); i++) {
		if (strlen(vmx_reasons[i].name) == n && !strncmp(reason, vmx_reasons[i].name, n)) {
			r->cls = vmx_reasons[i].cls;
			r->write = vmx_reasons[i].write;
		}
	}
}

bool nested_reason_same(const char *a, const char *b)
{
	struct nested_reason ra, rb;
	size_t na = first_word(a), nb = first_word(b);

	nested_reason(a, &ra);
	nested_reason(b, &rb);
	if (ra.isa == VPMC_NESTED_ISA_SVM && rb.isa == VPMC_NESTED_ISA_SVM)
		return ra.code == rb.code;
	return na == nb && !strncasecmp(a, b, na);
}
