/* vpmc.h - libvpmc: KVM's x86 emulated vPMU model, trace readers and replay. */
#ifndef VPMC_H
#define VPMC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Ownership, once for the whole API: strings and pointers returned by a vpmc_* function belong to
 * the object they came from and stay valid until the next call on that object or its
 * vpmc_*_free(). Every vpmc_*_free(NULL) is a no-op. The library never prints and never exits:
 * detail of an error is returned through the object (vpmc_reader_error() ...).
 */

/* ---------------------------------------------------------------------------------------------
 * Errors: one list is the source of the codes and their messages.
 */
#define VPMC_ERRORS(X)                                                   \
	X(INVAL, -1, "invalid argument")                                 \
	X(NOMEM, -2, "out of memory")                                    \
	X(IO, -3, "I/O error")                                           \
	X(PARSE, -4, "parse error")                                      \
	X(NOSUPPORT, -5, "not supported in this build")                  \
	X(LIMIT, -6, "limit exceeded")

enum vpmc_err {
	VPMC_OK = 0,
#define VPMC_ERR_ENUM_(name, code, msg) VPMC_ERR_##name = (code),
	VPMC_ERRORS(VPMC_ERR_ENUM_)
#undef VPMC_ERR_ENUM_
};

/**
 * vpmc_strerror() - Message for an error code.
 * @err: VPMC_OK or a negative enum vpmc_err
 *
 * Return: a static string; "unknown error" for a code not in VPMC_ERRORS.
 */
const char *vpmc_strerror(int err);

/**
 * vpmc_version() - Library version.
 *
 * Return: a static string such as "0.1.0".
 */
const char *vpmc_version(void);

/* ---------------------------------------------------------------------------------------------
 * PMU configuration: what the guest's CPUID enumerates (the .vtr "!pmu" and "!host" directives).
 */
enum vpmc_vendor {
	VPMC_VENDOR_INTEL,
	VPMC_VENDOR_AMD,
};

/* Host kernel version as one comparable number: VPMC_KERNEL(6, 18). */
#define VPMC_KERNEL(major, minor) (((unsigned int)(major) << 16) | (unsigned int)(minor))
/* The newest behaviour the model implements (B-7.0 in kvm-vpmu-semantics.md). */
#define VPMC_KERNEL_LATEST VPMC_KERNEL(7, 0)

struct vpmc_pmu_config {
	enum vpmc_vendor vendor;
	unsigned int version;     /* architectural PMU version; 0 = no vPMU */
	unsigned int nr_gp;       /* general-purpose counters */
	unsigned int nr_fixed;    /* Intel fixed counters (0 on AMD and on v1) */
	unsigned int gp_width;    /* GP counter width, bits */
	unsigned int fixed_width; /* fixed counter width, bits */
	bool fw_writes;           /* Intel PERF_CAPABILITIES.FW_WRITE: 0x4c1+ aliases exist */
	unsigned int host_kernel; /* VPMC_KERNEL(): selects legacy behaviour of older hosts */
	bool pebs;                /* Intel: PERF_CAPABILITIES.PEBS_FORMAT != 0 (no baseline) and
				   * CPUID DS: PEBS_ENABLE and DS_AREA exist; default false */
	bool tsx;                 /* Intel: guest and host have HLE/RTM: EVNTSEL IN_TX (bit 32),
				   * IN_TXCP (bit 33, GP counter 2 only) are valid; default false */
};

/*
 * Legacy behaviour selected by host_kernel (upstream-fix-scenarios.md gives the "before" values):
 *   < 6.6   no LVTPC auto-mask after a PMI (a16eb25b09c0)
 *   < 6.8   emulated overflow via prev_counter, counter += 1 at each increment (de0f619564f4;
 *           fixed by fd89499a5151); FIXED_CTR_CTRL old value truncated to 8 bits (05519c86d699);
 *           tolerance policies behave as exact there
 *   < 6.9   GLOBAL_CTRL stays 0 at RESET (de120e1d692d); reprogram bits cleared per counter
 *           after its reprogram, not snapshotted first (004a0aa56ede); Intel RDPMC ECX bit 30 =
 *           fixed, bits 31:30 ignored (d652981db08f); AMD guests' LVTPC masked too (49ff3b4aec51)
 *   < 6.18  AMD GLOBAL_STATUS_SET (0xc0000303) #GPs (68e61f6fd656)
 * ENTER/LEAVE as branches before 6.18 is decided by the importer (the model receives "branch").
 */

/**
 * vpmc_pmu_config_default() - The .vtr format's defaults for a vendor.
 * @cfg: filled in
 * @vendor: VPMC_VENDOR_INTEL (v2, 8 GP, 3 fixed, 48-bit, FW_WRITE) or VPMC_VENDOR_AMD
 *          (v2 PerfMonV2, 6 GP, 48-bit)
 *
 * host_kernel is set to VPMC_KERNEL_LATEST.
 */
void vpmc_pmu_config_default(struct vpmc_pmu_config *cfg, enum vpmc_vendor vendor);

/* ---------------------------------------------------------------------------------------------
 * Native trace events (docs: trace-format.md). One struct for every event type; the fields that
 * an event type does not use are zero.
 */
enum vpmc_event_type {
	VPMC_EV_ENTRY,     /* VM-entry: drain KVM_REQ_PMU, then deliver KVM_REQ_PMI */
	VPMC_EV_EXIT,      /* VM-exit; reason */
	VPMC_EV_GUEST,     /* guest ran insn instructions (br branches) natively, counted by perf */
	VPMC_EV_RETIRE,    /* KVM retired one instruction for the guest; branch */
	VPMC_EV_WRMSR,     /* guest WRMSR index <- value (its retirement is a separate RETIRE) */
	VPMC_EV_RDMSR,     /* guest RDMSR index; value = observed on the real host if has_value */
	VPMC_EV_RDPMC,     /* guest RDPMC, index = ECX; value as for RDMSR */
	VPMC_EV_CPL,       /* guest CPL changes to cpl */
	VPMC_EV_LVTPC,     /* guest writes its local APIC LVTPC = value */
	VPMC_EV_IRQ,       /* interrupt vector index injected */
	VPMC_EV_EOI,       /* guest ends interrupt vector index */
	VPMC_EV_SCHED_OUT, /* the vCPU thread leaves its host CPU */
	VPMC_EV_SCHED_IN,  /* the vCPU thread returns to a host CPU */
	VPMC_EV_NR
};

#define VPMC_CPL_KEEP 0xff  /* cpl: keep the vCPU's current CPL */
#define VPMC_MAX_VCPUS 4096 /* vcpu ids are 0 .. VPMC_MAX_VCPUS - 1 */
#define VPMC_REASON_MAX 48  /* exit reason, including the terminating NUL */

struct vpmc_event {
	uint64_t time_ns;          /* trace time, ns; non-decreasing per vCPU */
	uint32_t vcpu;             /* vCPU index */
	enum vpmc_event_type type;
	uint8_t cpl;               /* GUEST, RETIRE, CPL: 0..3, or VPMC_CPL_KEEP */
	bool branch;               /* RETIRE: the instruction is also a branch */
	bool has_value;            /* RDMSR, RDPMC: value holds what the real guest read */
	uint32_t index;            /* WRMSR/RDMSR: MSR; RDPMC: ECX; IRQ/EOI: vector */
	uint64_t value;            /* WRMSR: data; RDMSR/RDPMC: observed; LVTPC: register */
	uint64_t insn;             /* GUEST: instructions */
	uint64_t br;               /* GUEST: branches (of those instructions) */
	char reason[VPMC_REASON_MAX]; /* EXIT: reason as KVM's tracepoint prints it */
};

/**
 * vpmc_event_type_name() - The .vtr keyword of an event type ("entry", "wrmsr", ...).
 * @type: event type
 *
 * Return: a static string, or NULL for a value outside enum vpmc_event_type.
 */
const char *vpmc_event_type_name(enum vpmc_event_type type);

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
	VPMC_POLICY_NR
};

struct vpmc_policy {
	enum vpmc_policy_kind kind;
	uint64_t arg; /* DISABLED: PERF_COUNT_HW_* mask; TOLERANCE*: threshold T, events */
};

#define VPMC_POLICY_NAME_MAX 48 /* enough for "tolerance-wrap=18446744073709551615" */

/**
 * vpmc_policy_parse() - Parse "exact", "disabled=MASK", "tolerance=N", "tolerance-wrap=N",
 * "mediated" or "reference".
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
 *           #GP), gp
 * WRITE     counter (as READ), index (MSR), value (as written, also when it raised #GP), gp
 * Any kind raised inside vpmc_vcpu_guest() (or a part run by vpmc_vcpu_guest_until_pmi())
 * also carries seg_insn / seg_br, counted from the segment's start.
 * OVERFLOW  counter, emulated, value = the GLOBAL_STATUS bit(s) set (BIT(counter), or bit 62
 *           BUFFER_OVF for a PEBS counter's hardware overflow)
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
 * Return: 0, VPMC_ERR_INVAL (bad @cfg or @policy), or VPMC_ERR_NOMEM.
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
 * Instruction i (1..@insn) completes at t_prev + i * (@time_ns - t_prev) / @insn (integer ns,
 * rounded down; t_prev = this vCPU's previous event time), and the @br branches are spread
 * evenly over them (instruction i is the b-th branch when floor(i*br/insn) reaches b).
 * Perf-backed policies: only active perf events whose user/kernel exclusion admits @cpl count;
 * instruction events (event 0xc0, fixed counter 0) count instructions, branch events (Intel
 * 0xc4, AMD 0xc2; unit mask 0) count branches; every other event (cycles, reference cycles,
 * other unit masks) counts nothing. When an event's armed count runs out (at least 2 events,
 * x86 perf's clamp) the overflow handler runs at that instruction's time, and the host PMI
 * forces an implicit VM-exit and vpmc_vcpu_entry() there; the rest of the segment follows.
 * Mediated: the counters count directly as their loaded selectors say; a wrap sets the status
 * bit and, with INT / the fixed PMI bit, exits the same way to deliver the PMI. Reference: as
 * the architecture, with the PMI delivered at the wrapping instruction's time.
 * The guest only runs after a VM-entry: a segment does not drain pending requests itself, so
 * a trace (or a generator) must put vpmc_vcpu_entry() between an exit's events and the next
 * segment, as KVM traces do; otherwise the perf-backed policies count with the perf state of
 * the last drain while the reference counts with the new MSR values.
 */
void vpmc_vcpu_guest(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		     uint8_t cpl);

/* Where a guest segment run in parts by vpmc_vcpu_guest_until_pmi() stands. */
struct vpmc_guest_progress {
	uint64_t t_start; /* the segment's start: the vCPU's previous event at the first call, ns */
	uint64_t insn;    /* instructions of the segment retired so far */
	uint64_t br;      /* branches among them */
	uint64_t time_ns; /* time of instruction insn (t_start while insn is 0), ns */
	bool pmi;         /* the last call stopped right after a PMI reached the guest */
	bool started;     /* the first call was made */
};

/* A segment not started yet: what the first vpmc_vcpu_guest_until_pmi() call takes. */
#define VPMC_GUEST_PROGRESS_INIT { 0, 0, 0, 0, false, false }

/**
 * vpmc_vcpu_guest_until_pmi() - Run a guest segment in parts: as vpmc_vcpu_guest(), but stop
 * right after an instruction at which a PMI reached the guest, so that the caller can run the
 * guest's PMI handler there (it is an NMI: the guest takes it at once) and then the rest.
 * @v: vCPU
 * @time_ns: trace time at the end of the whole segment, ns (the same at every call)
 * @insn: instructions of the whole segment (the same at every call)
 * @br: branches among them; clamped to @insn (the same at every call)
 * @cpl: the CPL the segment runs at; set again at each call (VPMC_CPL_KEEP: the current one)
 * @upto: stop after instruction @upto at the latest (@insn or more: the whole rest)
 * @p: progress; VPMC_GUEST_PROGRESS_INIT before the first call, then as the last call left it
 *
 * Counting, overflows, implicit exits and observations are exactly those of vpmc_vcpu_guest():
 * run without a stop, the parts do what one vpmc_vcpu_guest() call does. Instruction i (1..@insn)
 * still completes at t_start + i * (@time_ns - t_start) / @insn with t_start the time of this
 * vCPU's previous event at the first call (p->t_start); observations carry seg_insn / seg_br
 * counted from the segment's start. A call runs instructions p->insn + 1 .. up to the first of:
 * an instruction at which a PMI was delivered (an implicit VM-entry's kvm_pmu_deliver_pmi() for
 * a host PMI; the reference's PMI at the wrapping instruction; a PMI dropped by a masked LVTPC
 * does not stop it), @upto, @insn; it then sets p->insn, p->br, p->time_ns (that instruction's
 * time) and p->pmi, and leaves the vCPU at p->time_ns. Events applied between two calls (the
 * handler's exits, MSR accesses, retirements) must have times >= p->time_ns and <= @time_ns;
 * they take place before instruction p->insn + 1. After the last part the vCPU is at @time_ns.
 *
 * Return: true while instructions of the segment remain (call again), false when the whole
 * segment has run (p->pmi may still say that a PMI came at its last instruction).
 */
bool vpmc_vcpu_guest_until_pmi(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
			       uint8_t cpl, uint64_t upto, struct vpmc_guest_progress *p);

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

/* ---------------------------------------------------------------------------------------------
 * Trace readers: one pull interface over .vtr, kvm tracepoint text and trace.dat.
 */
enum vpmc_format {
	VPMC_FORMAT_AUTO, /* by content: trace.dat magic, "!vpmcsim-trace", else text */
	VPMC_FORMAT_VTR,  /* native .vtr */
	VPMC_FORMAT_TEXT, /* kvm tracepoint text: trace-cmd report, raw ftrace, perf script */
	VPMC_FORMAT_DAT,  /* trace.dat through libtracecmd */
};

struct vpmc_reader_opts {
	enum vpmc_format format;
	bool lenient;          /* malformed lines (and trace.dat pages libtracecmd cannot read)
				* become counted skips with a warning instead of errors */
	uint64_t guest_ips;    /* guest instructions per second of guest-mode time; 0 = none */
	unsigned int guest_branch_permille; /* branches per 1000 synthesized guest instructions */
	bool has_pmu;          /* pmu overrides what the trace says (or the defaults) */
	struct vpmc_pmu_config pmu;
};

/* Defaults: AUTO, strict, guest_ips and permille as documented in vpmcsim(1), no override. */
void vpmc_reader_opts_default(struct vpmc_reader_opts *o);

struct vpmc_reader;

/* A reader with @opts (copied); NULL = defaults. Return: 0 or VPMC_ERR_NOMEM. */
int vpmc_reader_new(struct vpmc_reader **out, const struct vpmc_reader_opts *opts);

/* Open @path ("-" = standard input, text formats only). A .vtr is read up to its first event,
 * so that vpmc_reader_pmu() and vpmc_reader_source() give its directives (!pmu, !host,
 * !source) right after open; an error in those lines is returned by the first
 * vpmc_reader_next(). Return: 0, VPMC_ERR_IO, VPMC_ERR_PARSE (header; a corrupt trace.dat; a
 * trace.dat on standard input), VPMC_ERR_NOSUPPORT (trace.dat without libtracecmd);
 * vpmc_reader_error() says why. */
int vpmc_reader_open(struct vpmc_reader *r, const char *path);

/* Open an in-memory buffer (copied) named @name in messages; not for trace.dat. */
int vpmc_reader_open_mem(struct vpmc_reader *r, const char *name, const void *data, size_t len);

/* Next event. Return: 1 (event in *ev), 0 (end of trace), or a negative error with
 * vpmc_reader_error() set to "FILE:LINE[:COL]: what was expected". An input that ends without
 * a single record is VPMC_ERR_PARSE ("FILE: no trace records ..."). A line longer than 4096
 * bytes is an error as soon as that is known; in lenient mode it is skipped, up to 1 MiB. */
int vpmc_reader_next(struct vpmc_reader *r, struct vpmc_event *ev);

/* The last error's message, "" if none. */
const char *vpmc_reader_error(const struct vpmc_reader *r);

/* Where the last event came from, into @buf: "FILE:LINE" (text, .vtr: the line of the record
 * that completed it), "FILE: record N" (trace.dat). */
void vpmc_reader_where(const struct vpmc_reader *r, char *buf, size_t len);

/* Format actually read (after auto-detection); PMU configuration in effect (after open). */
enum vpmc_format vpmc_reader_format(const struct vpmc_reader *r);
const struct vpmc_pmu_config *vpmc_reader_pmu(const struct vpmc_reader *r);

struct vpmc_reader_stats {
	uint64_t lines;             /* input lines (text formats) */
	uint64_t records;           /* tracepoint records or .vtr event lines read */
	uint64_t events;            /* native events returned */
	uint64_t skipped_lines;     /* malformed lines (trace.dat: records) skipped (lenient) */
	uint64_t unknown_records;   /* records of events the importer does not use */
	uint64_t lost_events;       /* events the tracer reported lost (LOST EVENTS markers) */
	uint64_t lost_markers;      /* number of such markers */
	uint64_t synthesized_entries; /* entries added because the trace has no kvm_entry */
	bool truncated_tail;        /* the last line was cut (warning, not error) */
	uint64_t comment_lines;     /* lines that are no events: comments, headers ("cpus=2"),
				     * directives, blank and "..." elision lines */
	uint64_t unread_pages;      /* trace.dat: ring-buffer pages with data that libtracecmd
				     * could not read (corrupt; lenient: skipped with a warning) */
	uint64_t time_backwards;    /* kvm records whose time stamp was before their vCPU's
				     * previous one (taken as that one; more than 1 s back is an
				     * error unless lenient) */
};
void vpmc_reader_stats(const struct vpmc_reader *r, struct vpmc_reader_stats *st);

/* Unknown (unused) event names with their counts, in first-seen order. */
size_t vpmc_reader_nr_unknown(const struct vpmc_reader *r);
int vpmc_reader_unknown(const struct vpmc_reader *r, size_t i, const char **name,
			uint64_t *count);

/* The first few warnings ("FILE:LINE: ..."), in the order they happened: the first 10 lines
 * skipped in lenient mode, the first 5 time stamps that went back, a cut last line. */
size_t vpmc_reader_nr_warnings(const struct vpmc_reader *r);
const char *vpmc_reader_warning(const struct vpmc_reader *r, size_t i);

/**
 * vpmc_reader_source() - Where the events come from, for a converter's "!source" line.
 * @r: an open reader
 * @kind: set to a .vtr's "!source kind=" (NULL if it has none), or the input's layout:
 *        "trace.dat", "ftrace" (irq-flags column), "trace-cmd" (report), "perf" (perf script),
 *        "text" (any other text)
 * @file: set to a .vtr's "!source file=" (NULL if none), else the path given to open ("-")
 *
 * Return: 0, or VPMC_ERR_INVAL if @r is not open.
 */
int vpmc_reader_source(const struct vpmc_reader *r, const char **kind, const char **file);

/* Close and free. */
void vpmc_reader_free(struct vpmc_reader *r);

/* ---------------------------------------------------------------------------------------------
 * Writing .vtr (trace-format.md): the canonical form, one line per event, which the reader
 * reads back to the same events (and a canonical file is written back byte for byte).
 */

/**
 * vpmc_vtr_write_header() - Write "!vpmcsim-trace 1", "!pmu" with every key of the vendor,
 * "!host kernel=MAJOR.MINOR" and, if @source_kind is not NULL, "!source kind=K [file=F]".
 * @out: output stream
 * @pmu: the configuration (host_kernel gives !host)
 * @source_kind: or NULL; white space, '#' and control bytes are written as '_'
 * @source_file: or NULL; the same
 *
 * Return: 0, VPMC_ERR_INVAL (NULL @out or @pmu), or VPMC_ERR_IO (the stream has an error).
 */
int vpmc_vtr_write_header(FILE *out, const struct vpmc_pmu_config *pmu, const char *source_kind,
			  const char *source_file);

/**
 * vpmc_vtr_write_event() - Write one event line: "TIME VCPU EVENT ARGS" with MSR indices,
 * values, ECX and vectors in 0x-hex, counts in decimal, optional arguments only when set
 * ("br=" when non-zero, "cpl=" unless VPMC_CPL_KEEP, rdmsr/rdpmc VALUE when has_value).
 * @out: output stream
 * @ev: the event
 *
 * Return: 0, VPMC_ERR_INVAL (an event the format cannot hold: type, vcpu >= 4096, CPL, an exit
 * reason that is empty, too long or not printable, br > insn, vector > 255, LVTPC > 32 bits),
 * or VPMC_ERR_IO.
 */
int vpmc_vtr_write_event(FILE *out, const struct vpmc_event *ev);

/* ---------------------------------------------------------------------------------------------
 * Replay (issue 5): host cost model, replay engine and metrics, exit statistics.
 */

/* Host cost model: what the perf-backed vPMU work at a VM-entry costs the host. */
struct vpmc_cost {
	double resume_us;      /* one perf event reused by reprogram_counter() (pause, period, enable) */
	double create_us;      /* one perf event released and re-created by reprogram_counter() */
	double trigger_cycles; /* one kvm_pmu_trigger_event() that found candidate counters */
	double cpu_ghz;        /* host clock, converts trigger_cycles to time */
};

/**
 * vpmc_cost_default() - The default cost parameters (sources in vpmcsim(1), COST MODEL).
 * @c: filled in
 */
void vpmc_cost_default(struct vpmc_cost *c);

/**
 * vpmc_cost_parse() - Override cost parameters: "resume_us=1.5,cpu_ghz=3".
 * @c: parameters to change; changed only on success
 * @spec: comma-separated NAME=VALUE, NAME one of resume_us, create_us (0 to 1e6 us),
 *        trigger_cycles (0 to 1e8), cpu_ghz (0.01 to 100), with trigger_cycles / cpu_ghz
 *        (ns per trigger, taking @c's values for NAMEs not in @spec) at most 1e6: bounds that
 *        keep every exit's cost a finite number; each NAME at most once
 * @why: if not NULL, set on failure to a static string naming what was expected (for a bad
 *       VALUE: the parameter and its range; for a NAME given twice: "NAME given twice"; for
 *       a trigger above 1e6 ns: both parameters and the bound)
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_cost_parse(struct vpmc_cost *c, const char *spec, const char **why);

/**
 * vpmc_cost_us() - Modeled host time of some vPMU work, in microseconds.
 * @c: parameters
 * @resumes: perf events resumed by reprogram_counter() (pmc_resume_counter() succeeded)
 * @creates: perf events created by reprogram_counter() (pmc_reprogram_counter())
 * @triggers: kvm_pmu_trigger_event() calls that found candidates
 *
 * Return: resumes * resume_us + creates * create_us + triggers * trigger_cycles / cpu_ghz / 1000.
 */
double vpmc_cost_us(const struct vpmc_cost *c, uint64_t resumes, uint64_t creates,
		    uint64_t triggers);

/* Report formats. */
enum vpmc_output {
	VPMC_OUTPUT_TEXT, /* aligned columns */
	VPMC_OUTPUT_CSV,  /* header line, then one line per row */
	VPMC_OUTPUT_JSON, /* one object; field names carry their unit (lateness_ns_p99) */
};

/**
 * vpmc_output_parse() - "text", "csv" or "json".
 * @out: set on success only
 * @s: the name
 *
 * Return: 0, or VPMC_ERR_INVAL.
 */
int vpmc_output_parse(enum vpmc_output *out, const char *s);

/*
 * Exit statistics (vpmcsim stat): per exit reason, the time from each VM-exit to the next
 * VM-entry of the same vCPU, in the columns of perf kvm stat report.
 */
struct vpmc_stat;

/**
 * vpmc_stat_new() - Exit statistics counting every vCPU over the whole trace.
 * @out: set on success only
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_new(struct vpmc_stat **out);

/**
 * vpmc_stat_set_vcpus() - Count only the exits of these vCPUs (and of those of earlier calls).
 * @s: statistics
 * @list: comma-separated vCPU indices and ranges, "0,2-3"
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() saying what was expected.
 */
int vpmc_stat_set_vcpus(struct vpmc_stat *s, const char *list);

/**
 * vpmc_stat_set_time() - Count only exits whose time is in [START, STOP].
 * @s: statistics
 * @range: "START,STOP" in seconds of trace time with up to 9 decimals; either may be empty
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() set.
 */
int vpmc_stat_set_time(struct vpmc_stat *s, const char *range);

/**
 * vpmc_stat_event() - Count one event: an EXIT opens a sample, the next ENTRY of the same vCPU
 * closes it (its time minus the exit's, ns); other event types are ignored.
 * @s: statistics
 * @ev: the event
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_event(struct vpmc_stat *s, const struct vpmc_event *ev);

/**
 * vpmc_stat_run() - Count every event of a reader.
 * @s: statistics
 * @r: an open reader
 *
 * Return: 0, or the reader's error (vpmc_stat_error() has its message), or VPMC_ERR_NOMEM.
 */
int vpmc_stat_run(struct vpmc_stat *s, struct vpmc_reader *r);

/**
 * vpmc_stat_report() - The statistics, rows sorted by samples (most first), then by name.
 * @s: statistics
 * @fmt: output format
 * @out: set to the text, owned by @s until the next call or vpmc_stat_free()
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_report(struct vpmc_stat *s, enum vpmc_output fmt, const char **out);

/**
 * vpmc_stat_warning() - What is worth a warning once every event is counted: no exit matched
 * the vpmc_stat_set_vcpus() / vpmc_stat_set_time() selection (with the vCPUs and the time range
 * of the trace's exits), or there was no VM-exit at all. An empty table is then no surprise.
 * @s: statistics
 *
 * Return: the message, "" if none; owned by @s until the next call or vpmc_stat_free().
 */
const char *vpmc_stat_warning(struct vpmc_stat *s);

/**
 * vpmc_stat_error() - The last error's message.
 * @s: statistics
 *
 * Return: the message, "" if none; owned by @s.
 */
const char *vpmc_stat_error(const struct vpmc_stat *s);

/**
 * vpmc_stat_free() - Free exit statistics.
 * @s: statistics, or NULL
 */
void vpmc_stat_free(struct vpmc_stat *s);

/*
 * Replay: one pass over a trace, every event applied to one model per selected policy and
 * vCPU and to the reference model; metrics of each policy against the reference (vpmcsim(1),
 * METRICS). Memory is per vCPU and does not grow with the length of the trace.
 */
struct vpmc_replay;

#define VPMC_REPLAY_MAX_POLICIES 64

/* A guest read whose trace event recorded what the real guest read there (rdmsr / rdpmc VALUE,
 * kvm_msr msr_read): ground truth from the recording host, checked against the model. */
struct vpmc_host_read {
	uint64_t time_ns;
	uint32_t vcpu;
	bool rdpmc;     /* RDPMC (index = ECX), else RDMSR (index = MSR) */
	uint32_t index;
	bool gp;        /* the model's guest took #GP there */
	uint64_t value; /* what the model's guest read (0 after #GP) */
	uint64_t host;  /* what the real guest read */
};

/* What one policy did, summed over vCPUs and counters as asked (vpmc_replay_metrics()).
 * Times in ns, host cost in us; lateness and per-exit figures are valid only when their count
 * (overflows_matched, exits) is non-zero. */
struct vpmc_metrics {
	/* guest reads of a counter (RDPMC, RDMSR): policy value - reference value, in events */
	uint64_t reads, reads_with_error, error_events_max_abs;
	double error_events_mean_abs, error_events_mean;
	uint64_t status_reads, status_reads_differ; /* GLOBAL_STATUS reads */
	/* reads of PMU registers whose trace event carries the value the real guest read, and
	 * those where the policy's guest read something else (or took #GP); for exact, how well
	 * the trace fits the modeled PMU (the recording host ran upstream KVM) */
	uint64_t host_reads, host_differ;
	struct vpmc_host_read host_first_differ; /* the earliest such read; host_differ != 0 */
	/* PMIs */
	uint64_t ref_overflows;     /* reference overflows that raised a reference PMI */
	uint64_t overflows_matched, overflows_missed;
	uint64_t pmis_delivered, pmis_dropped, pmis_spurious;
	uint64_t lateness_events_p50, lateness_events_p99, lateness_events_max;
	uint64_t lateness_ns_p50, lateness_ns_p99, lateness_ns_max;
	/* host cost */
	uint64_t exits, exits_implicit, exits_with_drain;
	uint64_t drains, reprograms, perf_resumes, perf_creates, triggers;
	double host_us_total, host_us_per_exit_mean, host_us_per_exit_max;
	double host_us_per_exit_p50, host_us_per_exit_p99;
};

/**
 * vpmc_replay_new() - A replay engine with no policy, the default cost model, no overlay.
 * @out: set on success only
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_replay_new(struct vpmc_replay **out);

/**
 * vpmc_replay_add_policy() - Replay one more policy (one row of the report), before
 * vpmc_replay_begin().
 * @r: engine
 * @p: the policy (copied); "reference" is allowed (it then matches the reference exactly)
 *
 * Return: 0, VPMC_ERR_INVAL (bad policy, or already begun), VPMC_ERR_LIMIT (more than
 * VPMC_REPLAY_MAX_POLICIES).
 */
int vpmc_replay_add_policy(struct vpmc_replay *r, const struct vpmc_policy *p);

/**
 * vpmc_replay_assume() - Lay an assumed guest profiler's counter over the trace (--assume).
 * @r: engine, before vpmc_replay_begin()
 * @spec: "gpN=EVENT[,period=P]" or "fixedN[,period=P]" (vpmcsim(1), OVERLAY)
 *
 * Return: 0, or VPMC_ERR_INVAL / VPMC_ERR_LIMIT with vpmc_replay_error() saying why.
 */
int vpmc_replay_assume(struct vpmc_replay *r, const char *spec);

/**
 * vpmc_replay_set_cost() - Price exits with these parameters.
 * @r: engine
 * @c: parameters (copied)
 */
void vpmc_replay_set_cost(struct vpmc_replay *r, const struct vpmc_cost *c);

/**
 * vpmc_replay_set_log() - Write the replay log (trace-format.md, "The replay log").
 * @r: engine, before vpmc_replay_begin()
 * @fn: gets one JSON object per line (no newline) for every read (with the reference's value),
 *      write, overflow, PMI, drain and reprogram, and each match, miss and spurious PMI
 * @data: passed to @fn
 */
void vpmc_replay_set_log(struct vpmc_replay *r, void (*fn)(void *data, const char *line),
			 void *data);

/**
 * vpmc_replay_set_progress() - Report progress.
 * @r: engine
 * @fn: called with the number of trace events applied so far, every 2^20 events
 * @data: passed to @fn
 */
void vpmc_replay_set_progress(struct vpmc_replay *r, void (*fn)(void *data, uint64_t events),
			      void *data);

/**
 * vpmc_replay_begin() - Start a replay for a PMU.
 * @r: engine with at least one policy
 * @cfg: the guest's PMU (e.g. vpmc_reader_pmu())
 *
 * Return: 0, or VPMC_ERR_INVAL (no policy; --assume counters the PMU does not have) with
 * vpmc_replay_error() set.
 */
int vpmc_replay_begin(struct vpmc_replay *r, const struct vpmc_pmu_config *cfg);

/**
 * vpmc_replay_event() - Apply one trace event to the reference and every policy's model of its
 * vCPU (the first event of a vCPU creates them, and with an overlay programs its counters).
 * @r: engine after vpmc_replay_begin()
 * @ev: the event; times non-decreasing per vCPU
 *
 * Return: 0, VPMC_ERR_INVAL (bad vCPU, type or CPL; not begun), VPMC_ERR_NOMEM, VPMC_ERR_LIMIT;
 * vpmc_replay_error() says why.
 */
int vpmc_replay_event(struct vpmc_replay *r, const struct vpmc_event *ev);

/**
 * vpmc_replay_finish() - End of the trace: pending reference overflows become missed, an exit
 * still open is priced.
 * @r: engine
 *
 * Return: 0, VPMC_ERR_INVAL (not begun, or finished), VPMC_ERR_NOMEM.
 */
int vpmc_replay_finish(struct vpmc_replay *r);

/**
 * vpmc_replay_run() - begin (unless done), every event of @rd, finish.
 * @r: engine
 * @rd: an open reader
 *
 * Return: 0, the reader's error (message in vpmc_replay_error()), or an engine error (its
 * message prefixed with the event's place in the trace, vpmc_reader_where()).
 */
int vpmc_replay_run(struct vpmc_replay *r, struct vpmc_reader *rd);

/**
 * vpmc_replay_warning() - What vpmc_replay_run() found worth a warning: the first WRMSR of the
 * trace itself that undoes an --assume counter's programming (its counter or event select MSR,
 * its FIXED_CTR_CTRL field, or its GLOBAL_CTRL bit cleared), with the MSR's name, where it is
 * in the trace (vpmc_reader_where()) and the --assume it overwrites.
 * @r: engine
 *
 * Return: the message, "" if none; owned by @r.
 */
const char *vpmc_replay_warning(const struct vpmc_replay *r);

/**
 * vpmc_replay_nr_policies() - How many policies the engine replays.
 * @r: engine
 *
 * Return: the number added with vpmc_replay_add_policy().
 */
size_t vpmc_replay_nr_policies(const struct vpmc_replay *r);

/**
 * vpmc_replay_policy() - Policy @i, in the order added.
 * @r: engine
 * @i: index
 *
 * Return: the policy (owned by @r), or NULL if @i is out of range.
 */
const struct vpmc_policy *vpmc_replay_policy(const struct vpmc_replay *r, size_t i);

/**
 * vpmc_replay_handler_capped() - With an overlay: how often policy @i's guest PMI handler was
 * cut off because PMIs kept arriving while it ran. The handler runs again for a PMI delivered
 * during it, at most 8 times in a row; a PMI delivered in the 8th run gets no handler; for an
 * Intel guest, whose handler's last WRMSR unmasks LVTPC, LVTPC then stays masked (KVM masked it
 * when it delivered the PMI, kvm_apic_local_deliver()): that vCPU's guest gets no more PMIs. It happens when the period (events) is not larger than what the handler's own
 * exits count once it re-enables the counters (Linux would throttle the event instead,
 * __perf_event_account_interrupt(), which the overlay does not model).
 * @r: engine after vpmc_replay_run() or vpmc_replay_finish()
 * @i: policy index, in the order added
 * @first_ns: if not NULL and the count is not 0, the first cut's trace time, ns
 * @first_vcpu: if not NULL and the count is not 0, the first cut's vCPU
 *
 * Return: the number of cut-off handler runs (0 also for an @i out of range).
 */
uint64_t vpmc_replay_handler_capped(const struct vpmc_replay *r, size_t i, uint64_t *first_ns,
				    uint32_t *first_vcpu);

/**
 * vpmc_replay_metrics() - Results of policy @i.
 * @r: engine after vpmc_replay_finish()
 * @i: policy index, in the order added
 * @vcpu: a vCPU index, or -1 for all
 * @counter: a KVM global counter index, or -1 for all; for one counter only the read, overflow
 *           and lateness fields are filled (PMIs and exits belong to the vCPU)
 * @m: filled in
 *
 * Return: 0, VPMC_ERR_INVAL (no such policy), VPMC_ERR_NOMEM.
 */
int vpmc_replay_metrics(const struct vpmc_replay *r, size_t i, int vcpu, int counter,
			struct vpmc_metrics *m);

enum vpmc_replay_view {
	VPMC_VIEW_COMPARE, /* one row per policy */
	VPMC_VIEW_DETAIL,  /* per policy, per vCPU and per counter */
	VPMC_VIEW_SWEEP,   /* one row per policy with its tolerance, for plotting */
};

/**
 * vpmc_replay_report() - The results as text, CSV or JSON.
 * @r: engine after vpmc_replay_finish()
 * @view: which table
 * @fmt: output format
 * @out: set to the text, owned by @r until the next call or vpmc_replay_free()
 *
 * Return: 0, VPMC_ERR_NOMEM, or VPMC_ERR_LIMIT (JSON only: a figure that is not a finite
 * number, which JSON cannot hold; only cost parameters beyond vpmc_cost_parse()'s bounds give
 * one); vpmc_replay_error() says which.
 */
int vpmc_replay_report(struct vpmc_replay *r, enum vpmc_replay_view view, enum vpmc_output fmt,
		       const char **out);

/**
 * vpmc_replay_plot() - A gnuplot script that draws the sweep (x: tolerance T > 0, log scale,
 * from T/10 to 10T when there is one T; y: modeled host us per exit, and p99 PMI lateness when
 * some T matched a PMI) into an SVG file, or a PNG file when @path ends in ".png"; the data is
 * inline. The title names the trace
 * and the overlay, and says what is missing (no lateness curve, T = 0 left out); a T whose PMIs
 * were all missed is labeled so.
 * @r: engine after vpmc_replay_finish()
 * @path: output file name written into the script
 * @out: set to the script, owned by @r until the next call or vpmc_replay_free()
 *
 * Return: 0, VPMC_ERR_INVAL (no policy with T > 0, or no exit and no matched PMI at all: nothing
 * to draw) or VPMC_ERR_NOMEM; vpmc_replay_error() says which.
 */
int vpmc_replay_plot(struct vpmc_replay *r, const char *path, const char **out);

/**
 * vpmc_replay_set_source() - Describe the trace in the report header.
 * @r: engine
 * @path: the trace's path as given (copied), or NULL
 * @st: the reader's counts (copied), or NULL; vpmc_replay_run() fills them itself
 */
void vpmc_replay_set_source(struct vpmc_replay *r, const char *path,
			    const struct vpmc_reader_stats *st);

/**
 * vpmc_replay_error() - The last error's message.
 * @r: engine
 *
 * Return: the message, "" if none; owned by @r.
 */
const char *vpmc_replay_error(const struct vpmc_replay *r);

/**
 * vpmc_replay_free() - Free the engine, its models and results.
 * @r: engine, or NULL
 */
void vpmc_replay_free(struct vpmc_replay *r);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_H */
