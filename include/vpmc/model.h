/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/model.h - Accounting policies, observations and one modeled vCPU (vpmc_vcpu_*). */
#ifndef VPMC_PUBLIC_MODEL_H
#define VPMC_PUBLIC_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vpmc/event.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * Accounting policies: how KVM accounts instructions and branches it retires for the guest.
 */
enum vpmc_policy_kind {
	VPMC_POLICY_EXACT,          /* upstream: emulated_counter++, reprogram at the next entry */
	VPMC_POLICY_DISABLED,       /* skip the increment for PERF_COUNT_HW_* ids in arg (bit n = id n) */
	VPMC_POLICY_TOLERANCE,      /* request the reprogram only once emulated_counter > arg */
	VPMC_POLICY_TOLERANCE_WRAP, /* as TOLERANCE, and also when the increment wraps the counter */
	VPMC_POLICY_MEDIATED,       /* mediated vPMU: counter += 1 with an immediate overflow check */
	VPMC_POLICY_REFERENCE,      /* ideal architectural counter: every event counted at once,
				     * overflow and PMI at the wrapping event (LVTPC mask rules,
				     * including Intel's auto-mask, still apply); the filter, GLOBAL_CTRL
				     * and CPL gates are KVM's */
	VPMC_POLICY_TOLERANCE_FOLD, /* as TOLERANCE, and a guest write to a control of a counter
				     * with pending events (its event select or FIXED_CTR_CTRL
				     * field, its GLOBAL_CTRL bit, the counter) first folds them
				     * and signals their overflow under the old configuration */
	VPMC_POLICY_NR
};

struct vpmc_policy {
	enum vpmc_policy_kind kind;
	uint64_t arg; /* DISABLED: PERF_COUNT_HW_* mask; TOLERANCE*: threshold T, events */
};

#define VPMC_POLICY_NAME_MAX 48 /* enough for "tolerance-fold=18446744073709551615" */

/**
 * vpmc_policy_parse() - Parse "exact", "disabled=MASK", "tolerance=N", "tolerance-wrap=N",
 * "mediated", "reference" or "tolerance-fold=N".
 * @out: set on success only
 * @s: the text; MASK and N are decimal or 0x-hex u64
 * @why: if not NULL, set on failure to a static string naming what was expected
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_policy_parse(struct vpmc_policy *out, const char *s, const char **why);

/**
 * vpmc_policy_format() - The canonical text of a policy (the form vpmc_policy_parse() reads).
 * @p: policy
 * @buf: output, NUL-terminated
 * @len: size of @buf; VPMC_POLICY_NAME_MAX is always enough
 *
 * DISABLED masks are printed as 0x-hex, tolerances in decimal.
 *
 * Return: 0, or VPMC_ERR_INVAL if @p is not a valid policy or @buf is too small.
 */
int vpmc_policy_format(const struct vpmc_policy *p, char *buf, size_t len);

/* ---------------------------------------------------------------------------------------------
 * Observations: everything guest-visible or host-costly that one modeled vCPU does, reported to
 * an observer callback as it happens, so that metrics and logs are built without touching the
 * model. Fields that a kind does not use are zero (counter is -1 when not about one counter).
 */
enum vpmc_obs_kind {
	VPMC_OBS_READ,      /* guest RDPMC or RDMSR of a PMU MSR: value (or gp) */
	VPMC_OBS_WRITE,     /* guest WRMSR of a PMU MSR: value (or gp) */
	VPMC_OBS_OVERFLOW,  /* a counter's GLOBAL_STATUS bit was set */
	VPMC_OBS_PMI,       /* kvm_pmu_deliver_pmi(): delivered, or dropped by a masked LVTPC */
	VPMC_OBS_DRAIN,     /* kvm_pmu_handle_event() ran at an entry */
	VPMC_OBS_REPROGRAM, /* reprogram_counter() of one counter: perf event resumed or created */
	VPMC_OBS_TRIGGER,   /* kvm_pmu_trigger_event() found candidates for a retired event */
	VPMC_OBS_NR
};

/* REPROGRAM: what reprogram_counter() did with the counter's perf event (vpmc_obs.value). */
enum vpmc_reprogram_outcome {
	VPMC_REPROGRAM_PAUSED,   /* disabled or filtered: paused and folded, left paused */
	VPMC_REPROGRAM_RESUMED,  /* same config: period re-armed, perf event enabled again */
	VPMC_REPROGRAM_CREATED,  /* old perf event (if any) released, a new one created */
	VPMC_REPROGRAM_FAILED,   /* creation refused; retried at a later drain */
	VPMC_REPROGRAM_MEDIATED, /* mediated vPMU / reference: hardware selector refreshed only */
};

/*
 * Per kind, besides time_ns and vcpu:
 * READ      counter (the counter read: GP/fixed/AMD counter MSRs and RDPMC; -1 for event
 *           selects, global MSRs, and any #GP), rdpmc, index (ECX or MSR), value (0 after
 *           #GP), gp, not_modeled
 * WRITE     counter (as READ), index (MSR), value (as written, also when it raised #GP), gp
 * Any kind raised inside vpmc_vcpu_guest() also carries seg_insn / seg_br, counted from the
 * segment's start.
 * OVERFLOW  counter, emulated, value = the GLOBAL_STATUS bit(s) set (BIT(counter), or bit 62
 *           BUFFER_OVF for a PEBS counter's hardware overflow), not_modeled
 * PMI       delivered, global_status
 * DRAIN     nr_reprogrammed (reprogram_counter() calls), nr_resumed, nr_created
 * REPROGRAM counter, created, value = enum vpmc_reprogram_outcome
 * TRIGGER   index = PERF_COUNT_HW_* id (1 instructions, 4 branches), value = bitmap (KVM global
 *           indices) of the counters incremented; reported once the candidates passed the
 *           GLOBAL_CTRL gate, even if the filter or the CPL check then skipped all of them
 */
struct vpmc_obs {
	enum vpmc_obs_kind kind;
	uint64_t time_ns;  /* trace time of the event that caused it, ns */
	uint32_t vcpu;
	int counter;       /* KVM global index (GP 0..31, fixed 32..), or -1 */
	/* READ, WRITE */
	bool rdpmc;        /* READ: RDPMC (index = ECX) rather than RDMSR (index = MSR) */
	uint32_t index;
	uint64_t value;    /* READ: what the guest reads; WRITE: what it wrote */
	bool gp;           /* READ, WRITE: the access raised #GP (a READ's value is then 0) */
	bool not_modeled;  /* READ, OVERFLOW: a GP counter whose event select has CMASK, INV,
			    * EDGE or (Intel) IN_TX/IN_TXCP set: the reference counts plain
			    * events, not what the architecture counts then, so it is not scored */
	/* OVERFLOW */
	bool emulated;     /* detected by the drain (pmc_pause_counter) or at the increment
			    * (mediated, reference); false: the perf overflow callback */
	/* PMI */
	bool delivered;    /* false: LVTPC masked (or APIC disabled): the PMI was dropped */
	uint64_t global_status; /* PMI: GLOBAL_STATUS when it was raised */
	/* DRAIN */
	unsigned int nr_reprogrammed, nr_resumed, nr_created;
	/* REPROGRAM */
	bool created;      /* a new perf event (true) or the old one resumed (false) */
	/* inside a guest segment: the segment's instructions (branches) retired up to and
	 * including the one where this happens; 0 outside segments */
	uint64_t seg_insn, seg_br;
};

struct vpmc_observer {
	void (*fn)(void *data, const struct vpmc_obs *obs);
	void *data;
	/* kinds not to report, a bitmask of 1u << VPMC_OBS_* (0: all). A TRIGGER comes with
	 * almost every retired instruction; an observer that only counts them can read
	 * vpmc_vcpu_stats().triggers instead and spare the model building each one. */
	unsigned int ignore;
};

/* ---------------------------------------------------------------------------------------------
 * One modeled vCPU: a kvm_pmu under one accounting policy, driven one native event at a time.
 */
struct vpmc_vcpu;

#define VPMC_GP 1 /* returned by the MSR/RDPMC calls when the guest would take #GP */

/**
 * vpmc_vcpu_new() - A vCPU after kvm_pmu_refresh() for @cfg (RESET state).
 * @out: set on success only
 * @cfg: PMU enumeration; counts and widths are capped as KVM caps them
 * @policy: accounting policy
 * @id: vCPU index reported in observations
 * @obs: observer, or NULL; copied
 *
 * Return: 0, VPMC_ERR_INVAL (bad @cfg, including a host_kernel older than VPMC_KERNEL_OLDEST,
 * or bad @policy), or VPMC_ERR_NOMEM.
 */
int vpmc_vcpu_new(struct vpmc_vcpu **out, const struct vpmc_pmu_config *cfg,
		  const struct vpmc_policy *policy, uint32_t id, const struct vpmc_observer *obs);

/**
 * vpmc_vcpu_free() - Free a vCPU.
 * @v: vCPU, or NULL
 */
void vpmc_vcpu_free(struct vpmc_vcpu *v);

/**
 * vpmc_vcpu_event() - Apply one native event (dispatches to the calls below).
 * @v: vCPU
 * @ev: event; ev->vcpu is not checked (the caller routes events to vCPUs)
 *
 * A #GP of an MSR access or RDPMC is a guest-visible outcome, not an error: it is reported to
 * the observer.
 *
 * Return: 0, or VPMC_ERR_INVAL for an event type or CPL out of range.
 */
int vpmc_vcpu_event(struct vpmc_vcpu *v, const struct vpmc_event *ev);

/*
 * The calls vpmc_vcpu_event() dispatches to. Times are trace ns, non-decreasing per vCPU (the
 * readers guarantee it; a smaller time is taken as "no time passed"). A cpl is 0..3, or
 * VPMC_CPL_KEEP for "unchanged"; any other value is treated as VPMC_CPL_KEEP. Every call
 * reports what it causes to the observer, stamped with @time_ns unless said otherwise.
 */

/**
 * vpmc_vcpu_entry() - A VM-entry: the request part of vcpu_enter_guest() (x86.c).
 * @v: vCPU
 * @time_ns: trace time of the entry, ns
 *
 * KVM_REQ_PMU first (kvm_pmu_handle_event(): reprogram the flagged counters, detect emulated
 * overflows; DRAIN, REPROGRAM, OVERFLOW), then KVM_REQ_PMI (kvm_pmu_deliver_pmi(): one PMI
 * however many overflows are pending; PMI).
 */
void vpmc_vcpu_entry(struct vpmc_vcpu *v, uint64_t time_ns);

/**
 * vpmc_vcpu_guest() - The guest ran natively since this vCPU's previous event.
 * @v: vCPU
 * @time_ns: trace time at the end of the segment, ns
 * @insn: instructions retired in guest mode (hardware events, counted by perf)
 * @br: branches among them; clamped to @insn
 * @cpl: the CPL the segment ran at (it becomes the vCPU's CPL)
 *
 * Spreads @insn and @br evenly and counts them as the policy does: see vpmc(3), THE VCPU MODEL.
 */
void vpmc_vcpu_guest(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		     uint8_t cpl);

/**
 * vpmc_vcpu_retire() - KVM retired one instruction for the guest: kvm_skip_emulated_instruction()
 * or x86_emulate_instruction() calling kvm_pmu_instruction_retired(), then
 * kvm_pmu_branch_retired() if @branch.
 * @v: vCPU
 * @time_ns: trace time, ns
 * @branch: the instruction is also a branch (the emulator's IsBranch)
 * @cpl: CPL at retirement (it becomes the vCPU's CPL)
 *
 * The policy decides what happens: see enum vpmc_policy_kind (TRIGGER, and OVERFLOW/PMI at once
 * for mediated and reference).
 */
void vpmc_vcpu_retire(struct vpmc_vcpu *v, uint64_t time_ns, bool branch, uint8_t cpl);

/**
 * vpmc_vcpu_wrmsr() - The guest's WRMSR, applied as kvm_set_msr_common() -> kvm_pmu_set_msr()
 * (its retirement is a separate vpmc_vcpu_retire()).
 * @v: vCPU
 * @time_ns: trace time, ns
 * @msr: MSR index; 0x834 (x2APIC LVTPC) writes LVTPC
 * @value: data
 *
 * #GP exactly where KVM raises it (reserved bits, read-only MSRs, MSRs this PMU lacks; but
 * writes to a missing 0xc1-0xc2, 0x186-0x187 or AMD K7 counter are dropped, as x86.c does).
 * A PMU MSR write is observed as WRITE; any other MSR is accepted, ignored, and not observed.
 *
 * Return: 0, or VPMC_GP.
 */
int vpmc_vcpu_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value);

/**
 * vpmc_vcpu_rdmsr() - The guest's RDMSR (kvm_get_msr_common() -> kvm_pmu_get_msr()), read before
 * its own retirement.
 * @v: vCPU
 * @time_ns: trace time, ns
 * @msr: MSR index; 0x834 reads LVTPC
 * @value: the value the guest reads; 0 after #GP and for non-PMU MSRs
 *
 * Observed as READ for PMU MSRs.
 *
 * Return: 0, or VPMC_GP.
 */
int vpmc_vcpu_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value);

/**
 * vpmc_vcpu_rdpmc() - The guest's RDPMC: kvm_pmu_check_rdpmc_early() (AMD) and kvm_pmu_rdpmc().
 * @v: vCPU
 * @time_ns: trace time, ns
 * @ecx: ECX; Intel: bits 31:16 type (0 GP, 0x4000 fixed), 15:0 index; AMD: the index
 * @value: counter value masked to its width; 0 after #GP
 *
 * CR4.PCE is set in the modeled guest, so RDPMC is allowed at any CPL. Observed as READ.
 *
 * Return: 0, or VPMC_GP.
 */
int vpmc_vcpu_rdpmc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t ecx, uint64_t *value);

/**
 * vpmc_vcpu_set_cpl() - The guest's CPL changes (read by cpl_is_matched() and perf's
 * user/kernel exclusion).
 * @v: vCPU
 * @time_ns: trace time, ns
 * @cpl: new CPL
 */
void vpmc_vcpu_set_cpl(struct vpmc_vcpu *v, uint64_t time_ns, uint8_t cpl);

/**
 * vpmc_vcpu_write_lvtpc() - The guest writes its local APIC LVTPC (kvm_lapic_reg_write()).
 * @v: vCPU
 * @time_ns: trace time, ns
 * @value: register; bits 16 (mask), 10:8 (delivery mode) and 7:0 (vector) are kept
 *
 * The APIC starts enabled with LVTPC = NMI, unmasked. Intel guests get LVTPC masked by each
 * delivered PMI (the guest's handler unmasks it).
 */
void vpmc_vcpu_write_lvtpc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t value);

/**
 * vpmc_vcpu_sched_out() - The vCPU thread leaves its host CPU (no PMU effect).
 * @v: vCPU
 * @time_ns: trace time, ns
 */
void vpmc_vcpu_sched_out(struct vpmc_vcpu *v, uint64_t time_ns);

/**
 * vpmc_vcpu_sched_in() - The vCPU thread returns (kvm_arch_sched_in()): if it owns perf events,
 * need_cleanup and KVM_REQ_PMU, so the next drain releases unused ones (kvm_pmu_cleanup()).
 * @v: vCPU
 * @time_ns: trace time, ns
 */
void vpmc_vcpu_sched_in(struct vpmc_vcpu *v, uint64_t time_ns);

/* Inspection (no side effects, nothing observed). */

/**
 * vpmc_vcpu_counter() - pmc_read_counter() of one counter: what the guest would read now.
 * @v: vCPU
 * @idx: KVM global index (GP 0..31, fixed 32..)
 *
 * Return: the value, events; 0 if the counter does not exist.
 */
uint64_t vpmc_vcpu_counter(const struct vpmc_vcpu *v, unsigned int idx);

/**
 * vpmc_vcpu_global_status() - GLOBAL_STATUS (Intel 0x38e / AMD 0xc0000300).
 * @v: vCPU
 *
 * Return: the register, one bit per global index (bit 62: PEBS buffer overflow).
 */
uint64_t vpmc_vcpu_global_status(const struct vpmc_vcpu *v);

/**
 * vpmc_vcpu_config() - The configuration as kvm_pmu_refresh() capped it: at most 8 Intel / 6
 * AMD GP counters and 3 fixed counters (none below v2), widths at most 48 bits (AMD always 48),
 * AMD version 1 or 2 (v1 has 4 counters, or 6 with PerfCtrExtCore when more than 4 are asked).
 * @v: vCPU
 *
 * Return: the configuration, owned by @v.
 */
const struct vpmc_pmu_config *vpmc_vcpu_config(const struct vpmc_vcpu *v);

/* Host-side work done so far, for the cost model. Implicit VM-entries forced by a host PMI
 * inside a guest segment count as entries. */
struct vpmc_vcpu_stats {
	uint64_t entries;        /* VM-entries */
	uint64_t drains;         /* entries that ran kvm_pmu_handle_event() */
	uint64_t reprograms;     /* reprogram_counter() calls */
	uint64_t perf_resumes;   /* perf events reused (pause + period + enable) */
	uint64_t perf_creates;   /* perf events created */
	uint64_t perf_releases;  /* perf events released */
	uint64_t perf_pauses;    /* pmc_pause_counter() calls that paused a live event */
	uint64_t triggers;       /* kvm_pmu_trigger_event() calls past the GLOBAL_CTRL gate */
	uint64_t increments;     /* kvm_pmu_incr_counter() calls */
	uint64_t overflows;      /* GLOBAL_STATUS bits set */
	uint64_t pmis_delivered; /* kvm_pmu_deliver_pmi() that reached the guest */
	uint64_t pmis_dropped;   /* kvm_pmu_deliver_pmi() dropped by a masked LVTPC */
};
/**
 * vpmc_vcpu_stats() - The host-side work counted so far.
 * @v: vCPU
 * @st: filled in
 */
void vpmc_vcpu_stats(const struct vpmc_vcpu *v, struct vpmc_vcpu_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_MODEL_H */
