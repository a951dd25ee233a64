// SPDX-License-Identifier: GPL-2.0-only
/* exit_reasons.c - The names of VM-exit codes, as kvm_exit prints them (kvm_print_exit_reason(),
 * arch/x86/kvm/trace.h) and as libtraceevent's kvm plugin prints the SVM ones. */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "exit-reasons.h"
#include "internal.h"

/*
 * SVM_EXIT_REASONS (arch/x86/include/uapi/asm/svm.h) as kvm_exit's print format of 6.18 lists
 * them (stored in traces/local-kvm/small-mixed-real.v6.dat, kernel 6.18.44), with the name
 * libtraceevent's plugin_kvm.c gives the code (NULL: it has none).
 */
static const struct {
	uint32_t code;
	const char *name, *plugin;
} svm_exit_reasons[] = {
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
	{ 0x090, "write_cr0_trap", NULL },	{ 0x094, "write_cr4_trap", NULL },
	{ 0x098, "write_cr8_trap", NULL },	{ 0x0a2, "invpcid", NULL },
	{ 0x0a5, "buslock", NULL },		{ 0x0a6, "idle-halt", NULL },
	{ 0x400, "npf", "EXIT_NPF" },
	{ 0x401, "avic_incomplete_ipi", "EXIT_AVIC_INCOMPLETE_IPI" },
	{ 0x402, "avic_unaccelerated_access", "EXIT_AVIC_UNACCELERATED_ACCESS" },
	{ 0x403, "vmgexit", NULL },
	{ 0x80000001, "vmgexit_mmio_read", NULL },	{ 0x80000002, "vmgexit_mmio_write", NULL },
	{ 0x80000003, "vmgexit_nmi_complete", NULL },	{ 0x80000004, "vmgexit_ap_hlt_loop", NULL },
	{ 0x80000005, "vmgexit_ap_jump_table", NULL },
	{ 0x80000010, "vmgexit_page_state_change", NULL },
	{ 0x80000011, "vmgexit_guest_request", NULL },
	{ 0x80000012, "vmgexit_ext_guest_request", NULL },
	{ 0x80000013, "vmgexit_ap_creation", NULL },
	{ 0x8000fffd, "vmgexit_hypervisor_feature", NULL },
	{ 0xffffffff, "invalid_guest_state", "EXIT_ERR" }, /* SVM_EXIT_ERR (-1) */
};

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

/* The SVM table's index of @code, or its size if it has none. */
static size_t svm_index(uint32_t code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(svm_exit_reasons); i++) {
		if (svm_exit_reasons[i].code == code)
			break;
	}
	return i;
}

const char *x86_svm_exit_name(uint32_t code)
{
	size_t i = svm_index(code);

	return i < ARRAY_SIZE(svm_exit_reasons) ? svm_exit_reasons[i].name : NULL;
}

const char *x86_svm_exit_plugin_name(uint32_t code)
{
	size_t i = svm_index(code);

	return i < ARRAY_SIZE(svm_exit_reasons) ? svm_exit_reasons[i].plugin : NULL;
}

/* Both alphabets' names of the SVM table, sorted by name, then by the table's order. A
 * linear search (two strcmp() per entry) was 90% of nested's classifier and 17% of reading an
 * SVM text trace (HACKING, nested -j). */
static struct svm_name {
	const char *name;
	size_t index;
} svm_by_name[2 * ARRAY_SIZE(svm_exit_reasons)];
static size_t svm_nr_names;
static pthread_once_t svm_by_name_once = PTHREAD_ONCE_INIT;

static int svm_name_cmp(const void *a, const void *b)
{
	const struct svm_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

static void svm_by_name_sort(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(svm_exit_reasons); i++) {
		if (svm_exit_reasons[i].name)
			svm_by_name[svm_nr_names++] = (struct svm_name){ svm_exit_reasons[i].name, i };
		if (svm_exit_reasons[i].plugin)
			svm_by_name[svm_nr_names++] = (struct svm_name){ svm_exit_reasons[i].plugin, i };
	}
	qsort(svm_by_name, svm_nr_names, sizeof(svm_by_name[0]), svm_name_cmp);
}

bool x86_svm_exit_code(const char *name, uint32_t *code)
{
	size_t lo = 0, hi, mid;

	pthread_once(&svm_by_name_once, svm_by_name_sort);
	/* the first entry not below @name: of two equal names, the table's first, as a search
	 * in the table's order finds */
	for (hi = svm_nr_names; lo < hi;) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(svm_by_name[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == svm_nr_names || strcmp(svm_by_name[lo].name, name))
		return false;
	*code = svm_exit_reasons[svm_by_name[lo].index].code;
	return true;
}

const char *x86_vmx_exit_name(uint32_t basic)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vmx_exit_reasons); i++) {
		if (vmx_exit_reasons[i].code == basic)
			return vmx_exit_reasons[i].name;
	}
	return NULL;
}

bool x86_vmx_exit_code(const char *name, size_t len, uint32_t *code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vmx_exit_reasons); i++) {
		if (strlen(vmx_exit_reasons[i].name) == len &&
		    !memcmp(name, vmx_exit_reasons[i].name, len)) {
			*code = vmx_exit_reasons[i].code;
			return true;
		}
	}
	return false;
}

/* The VMX_EXIT_REASONS name @word (@n bytes) spells in another case, unless @word is an SVM
 * name (cpuid, hlt, task_switch: SVM's, as printed), or NULL. */
static const char *vmx_kernel_of_lower(const char *word, size_t n)
{
	uint32_t code;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vmx_exit_reasons); i++) {
		if (strlen(vmx_exit_reasons[i].name) == n &&
		    !strncasecmp(vmx_exit_reasons[i].name, word, n) &&
		    memcmp(vmx_exit_reasons[i].name, word, n))
			return x86_svm_exit_code(word, &code) ? NULL : vmx_exit_reasons[i].name;
	}
	return NULL;
}

bool x86_exit_kernel_name(const char *reason, char *buf, size_t len)
{
	char word[64];
	size_t n = strcspn(reason, " ");
	const char *name = NULL;
	uint32_t code;

	if (!n || n >= sizeof(word))
		return false;
	memcpy(word, reason, n);
	word[n] = '\0';
	/* every name of the kernel's VMX table is upper case, and the plugin's start "EXIT_" */
	if (n > 5 && !memcmp(word, "EXIT_", 5) && x86_svm_exit_code(word, &code))
		name = x86_svm_exit_name(code);
	else if (word[0] >= 'a' && word[0] <= 'z')
		name = vmx_kernel_of_lower(word, n);
	if (!name)
		return false;
	snprintf(buf, len, "%s%s", name, reason + n);
	return true;
}
