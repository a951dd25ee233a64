/* import.h - kvm tracepoint records -> native events (trace-format.md, "Importing").
 *
 * The rules of the converter: exits handled by skipping the instruction retire one instruction
 * before the next entry (vendor exit-reason table, kvm-vpmu-semantics.md 3.2); kvm_emulate_insn
 * retires one instruction, with a branch when its bytes decode to one (x86_insn.c, 3.3); a
 * faulting MSR access or emulated instruction retires nothing; vCPU identity is the record's vcpu
 * field, else its thread; traces without kvm_entry get an entry at each return to the guest;
 * guest-mode time becomes "guest insn=N" at opts->guest_ips. State is per vCPU: memory does not
 * grow with trace length.
 */
#ifndef VPMC_IMPORT_H
#define VPMC_IMPORT_H

#include "kvm_record.h"
#include "vpmc.h"

struct kvm_import;

/* Defaults of vpmc_reader_opts_default(), justified in vpmcsim(1) (convert, --guest-ips). */
#define KVM_IMPORT_DEFAULT_GUEST_IPS 1000000000ULL
#define KVM_IMPORT_DEFAULT_BRANCH_PERMILLE 200

struct kvm_import_opts {
	uint64_t guest_ips;                 /* guest instructions per second of guest time; 0 off */
	unsigned int guest_branch_permille; /* branches per 1000 synthesized instructions */
	unsigned int host_kernel;           /* VPMC_KERNEL(): ENTER/LEAVE are branches before 6.18 */
};

struct kvm_import_stats {
	uint64_t synthesized_entries; /* entries added because the trace has no kvm_entry */
	uint64_t ignored_records;     /* known records that produce no event (kvm_fpu, ...) */
};

/* A new importer. Return: 0 or VPMC_ERR_NOMEM. */
int kvm_import_new(struct kvm_import **out, const struct kvm_import_opts *opts);
void kvm_import_free(struct kvm_import *im);

/* Feed one record (in trace order). Return: 0, or VPMC_ERR_LIMIT (too many vCPUs or threads)
 * with kvm_import_error() set. */
int kvm_import_push(struct kvm_import *im, const struct kvm_record *rec);

/* End of input: flush what is pending. Return: 0. */
int kvm_import_finish(struct kvm_import *im);

/* Take the next produced event. Return: 1 (*ev set) or 0 (none queued). */
int kvm_import_pop(struct kvm_import *im, struct vpmc_event *ev);

const char *kvm_import_error(const struct kvm_import *im);
void kvm_import_get_stats(const struct kvm_import *im, struct kvm_import_stats *st);

#endif /* VPMC_IMPORT_H */
