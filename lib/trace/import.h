/* SPDX-License-Identifier: GPL-2.0-only */
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

#include "record.h"
#include "vpmc.h"

struct trace_import;

/* Defaults of vpmc_reader_opts_default(), justified in vpmcsim(1) (convert, --guest-ips). */
#define TRACE_IMPORT_DEFAULT_GUEST_IPS 1000000000ULL
#define TRACE_IMPORT_DEFAULT_BRANCH_PERMILLE 200

struct trace_import_opts {
	uint64_t guest_ips;                 /* guest instructions per second of guest time; 0 off */
	unsigned int guest_branch_permille; /* branches per 1000 synthesized instructions */
	unsigned int host_kernel;           /* VPMC_KERNEL(): ENTER/LEAVE are branches before 6.18 */
	bool nested;                        /* vpmc_reader_opts.nested: kvm_nested_* records become
					     * nested events, and a thread's records wait for its
					     * vCPU (see trace_import_push()) */
	bool nested_events;                 /* kvm_nested_* records become nested events (also
					     * without nested) */
};

struct trace_import_stats {
	uint64_t synthesized_entries; /* entries added because the trace has no kvm_entry */
	uint64_t ignored_records;     /* known records that produce no event (kvm_fpu, ...) */
	uint64_t time_backwards;      /* records whose time stamp was before their vCPU's latest */
};

/* A record whose time stamp went back on its vCPU (trace_import_went_back()). */
struct trace_import_back {
	uint32_t vcpu;
	uint64_t time_ns;   /* the record's time stamp */
	uint64_t latest_ns; /* the vCPU's latest time, which the record's events take instead */
};

/**
 * trace_import_new() - A new importer with no vCPUs.
 * @out: set on success only
 * @opts: copied
 *
 * Return: 0 or VPMC_ERR_NOMEM.
 */
int trace_import_new(struct trace_import **out, const struct trace_import_opts *opts);

/* Free; NULL is a no-op. */
void trace_import_free(struct trace_import *im);

/**
 * trace_import_push() - Feed one record, in trace order.
 * @im: importer
 * @rec: the record; KVM_REC_OTHER and KVM_REC_LOST are ignored
 *
 * The events it completes are queued; drain them with trace_import_pop() before the next push
 * (the queue holds what one record can produce, at most 4 events). Records of one vCPU must
 * come in time order; a time stamp that goes back is taken as the vCPU's latest, counted, and
 * shown by trace_import_went_back() (the caller decides whether that is acceptable).
 *
 * With opts->nested, a record without a vcpu field from a thread not yet seen with one is held
 * (up to IMPORT_HOLD_MAX records) until that thread shows its vCPU, so that it never goes to a
 * made-up vCPU (nested-gpc.md §10, item 12); held records are processed by trace_import_pop(),
 * and at trace_import_finish() those never claimed go to the lowest free vCPUs as before.
 *
 * Return: 0; VPMC_ERR_LIMIT (a vcpu field >= VPMC_MAX_VCPUS, more than VPMC_MAX_VCPUS vCPU
 * threads, more than 2 * VPMC_MAX_VCPUS threads, or a queue not drained) with
 * trace_import_error() set; or VPMC_ERR_NOMEM.
 */
int trace_import_push(struct trace_import *im, const struct kvm_record *rec);

/**
 * trace_import_finish() - End of input.
 * @im: importer
 *
 * Each vCPU's pending retirement (an instruction whose settling record never came) is
 * released to trace_import_pop(), vCPU by vCPU.
 *
 * Return: 0.
 */
int trace_import_finish(struct trace_import *im);

/**
 * trace_import_pop() - Take the next produced event.
 * @im: importer
 * @ev: set when 1 is returned
 *
 * Return: 1 (*@ev set) or 0 (nothing queued; after trace_import_finish(): the end); with
 * opts->nested also an error of a held record's processing (as trace_import_push()).
 */
int trace_import_pop(struct trace_import *im, struct vpmc_event *ev);

/**
 * trace_import_went_back() - Did the last trace_import_push() have a time stamp before its vCPU's
 * latest?
 * @im: importer
 * @back: set when true is returned
 *
 * Return: true if it did (its events were given the vCPU's latest time instead).
 */
bool trace_import_went_back(const struct trace_import *im, struct trace_import_back *back);

/* The last error's message ("" if none), owned by @im. */
const char *trace_import_error(const struct trace_import *im);

/* Counters since trace_import_new(). */
void trace_import_get_stats(const struct trace_import *im, struct trace_import_stats *st);

#endif /* VPMC_IMPORT_H */
