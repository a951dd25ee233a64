/* SPDX-License-Identifier: GPL-2.0-only */
/* exit-reasons.h - VM-exit codes and the names kvm_exit prints for them: one copy for the trace
 * readers (lib/trace) and the nested model (lib/nested). The tables are in exit_reasons.c. */
#ifndef VPMC_X86_EXIT_REASONS_H
#define VPMC_X86_EXIT_REASONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- arch/x86/include/uapi/asm/svm.h ---------------------------------------------------- */
#define SVM_EXIT_INTR		0x060
#define SVM_EXIT_NMI		0x061
#define SVM_EXIT_CPUID		0x072
#define SVM_EXIT_RSM		0x073
#define SVM_EXIT_IOIO		0x07b
#define SVM_EXIT_MSR		0x07c
#define SVM_EXIT_VMRUN		0x080
#define SVM_EXIT_VMLOAD		0x082
#define SVM_EXIT_VMSAVE		0x083
#define SVM_EXIT_NPF		0x400

/* ---- arch/x86/include/uapi/asm/vmx.h ---------------------------------------------------- */
#define EXIT_REASON_EXTERNAL_INTERRUPT	1
#define EXIT_REASON_CPUID		10
#define EXIT_REASON_VMLAUNCH		20
#define EXIT_REASON_VMRESUME		24
#define EXIT_REASON_IO_INSTRUCTION	30
#define EXIT_REASON_MSR_READ		31
#define EXIT_REASON_MSR_WRITE		32
#define EXIT_REASON_EPT_VIOLATION	48
#define EXIT_REASON_EPT_MISCONFIG	49
#define EXIT_REASON_PREEMPTION_TIMER	52
#define EXIT_REASON_PML_FULL		62
#define EXIT_REASON_BUS_LOCK		74
#define EXIT_REASON_MSR_READ_IMM	84
#define EXIT_REASON_MSR_WRITE_IMM	85

#define VMX_EXIT_REASONS_FAILED_VMENTRY	0x80000000u

/* SVM_EXIT_REASONS' name of exit code @code ("cpuid", "DE excp"), or NULL if it has none. */
const char *x86_svm_exit_name(uint32_t code);

/* libtraceevent's kvm plugin name of exit code @code ("EXIT_CPUID"), or NULL if it has none. */
const char *x86_svm_exit_plugin_name(uint32_t code);

/* The exit code named @name in either alphabet (SVM_EXIT_REASONS, the plugin's EXIT_*).
 * Return: whether one is; *@code set if so. */
bool x86_svm_exit_code(const char *name, uint32_t *code);

/* VMX_EXIT_REASONS' name of basic exit reason @basic ("CPUID"), or NULL if it has none. */
const char *x86_vmx_exit_name(uint32_t basic);

/* The basic exit reason named by the @len bytes at @name. Return: whether one is; *@code set
 * if so. */
bool x86_vmx_exit_code(const char *name, size_t len, uint32_t *code);

#endif /* VPMC_X86_EXIT_REASONS_H */
