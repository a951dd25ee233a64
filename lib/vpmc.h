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
};

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
	VPMC_POLICY_REFERENCE,      /* ideal architectural counter: every event counted at once */
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

struct vpmc_obs {
	enum vpmc_obs_kind kind;
	uint64_t time_ns;  /* trace time of the event that caused it, ns */
	uint32_t vcpu;
	int counter;       /* KVM global index (GP 0..31, fixed 32..), or -1 */
	/* READ, WRITE */
	bool rdpmc;        /* READ: RDPMC (index = ECX) rather than RDMSR (index = MSR) */
	uint32_t index;
	uint64_t value;    /* READ: what the guest reads; WRITE: what it wrote */
	bool gp;           /* READ, WRITE: the access raised #GP (value is then 0) */
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
};

struct vpmc_observer {
	void (*fn)(void *data, const struct vpmc_obs *obs);
	void *data;
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
 * The calls vpmc_vcpu_event() dispatches to. Times are trace ns; cpl is 0..3 or VPMC_CPL_KEEP.
 */

/* VM-entry (vcpu_enter_guest): KVM_REQ_PMU -> kvm_pmu_handle_event(), then KVM_REQ_PMI ->
 * kvm_pmu_deliver_pmi(). */
void vpmc_vcpu_entry(struct vpmc_vcpu *v, uint64_t time_ns);

/* The guest ran @insn instructions, @br of them branches, natively since this vCPU's previous
 * event (spread evenly up to @time_ns); the active perf events count them, and an overflow
 * inside the segment forces an exit and entry at that instruction (trace-format.md). */
void vpmc_vcpu_guest(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn, uint64_t br,
		     uint8_t cpl);

/* KVM retired one instruction for the guest (kvm_skip_emulated_instruction() or the emulator):
 * kvm_pmu_instruction_retired(), and kvm_pmu_branch_retired() if @branch. */
void vpmc_vcpu_retire(struct vpmc_vcpu *v, uint64_t time_ns, bool branch, uint8_t cpl);

/* Guest WRMSR / RDMSR (kvm_pmu_set_msr() / kvm_pmu_get_msr() for PMU MSRs, LVTPC via 0x834).
 * Return: 0, or VPMC_GP. *@value is 0 after a #GP. A non-PMU MSR is accepted and reads 0. */
int vpmc_vcpu_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value);
int vpmc_vcpu_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value);

/* Guest RDPMC (kvm_pmu_rdpmc()). Return: 0, or VPMC_GP. */
int vpmc_vcpu_rdpmc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t ecx, uint64_t *value);

/* The guest's CPL changes (read by cpl_is_matched() and by perf's user/kernel exclusion). */
void vpmc_vcpu_set_cpl(struct vpmc_vcpu *v, uint64_t time_ns, uint8_t cpl);

/* The guest writes its local APIC LVTPC (bit 16 = mask). */
void vpmc_vcpu_write_lvtpc(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t value);

/* The vCPU thread is scheduled out / in (kvm_pmu_sched_in() -> lazy release via need_cleanup). */
void vpmc_vcpu_sched_out(struct vpmc_vcpu *v, uint64_t time_ns);
void vpmc_vcpu_sched_in(struct vpmc_vcpu *v, uint64_t time_ns);

/* Inspection (no side effects, nothing observed). */

/* pmc_read_counter() of the counter at KVM global index @idx; 0 if it does not exist. */
uint64_t vpmc_vcpu_counter(const struct vpmc_vcpu *v, unsigned int idx);
/* GLOBAL_STATUS. */
uint64_t vpmc_vcpu_global_status(const struct vpmc_vcpu *v);
/* The configuration after KVM's caps. */
const struct vpmc_pmu_config *vpmc_vcpu_config(const struct vpmc_vcpu *v);

/* Host-side work done so far, for the cost model. */
struct vpmc_vcpu_stats {
	uint64_t entries;        /* VM-entries */
	uint64_t drains;         /* entries that ran kvm_pmu_handle_event() */
	uint64_t reprograms;     /* reprogram_counter() calls */
	uint64_t perf_resumes;   /* perf events reused (pause + period + enable) */
	uint64_t perf_creates;   /* perf events created */
	uint64_t perf_releases;  /* perf events released */
	uint64_t perf_pauses;    /* pmc_pause_counter() calls that paused a live event */
	uint64_t triggers;       /* kvm_pmu_trigger_event() calls that found candidates */
	uint64_t increments;     /* kvm_pmu_incr_counter() calls */
	uint64_t overflows;      /* GLOBAL_STATUS bits set */
	uint64_t pmis_delivered; /* kvm_pmu_deliver_pmi() that reached the guest */
	uint64_t pmis_dropped;   /* kvm_pmu_deliver_pmi() dropped by a masked LVTPC */
};
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
	bool lenient;          /* malformed lines become counted skips instead of errors */
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

/* Open @path ("-" = standard input, text formats only). Return: 0, VPMC_ERR_IO, VPMC_ERR_PARSE
 * (header), VPMC_ERR_NOSUPPORT (trace.dat without libtracecmd); vpmc_reader_error() says why. */
int vpmc_reader_open(struct vpmc_reader *r, const char *path);

/* Open an in-memory buffer (copied) named @name in messages; not for trace.dat. */
int vpmc_reader_open_mem(struct vpmc_reader *r, const char *name, const void *data, size_t len);

/* Next event. Return: 1 (event in *ev), 0 (end of trace), or a negative error with
 * vpmc_reader_error() set to "FILE:LINE[:COL]: what was expected". */
int vpmc_reader_next(struct vpmc_reader *r, struct vpmc_event *ev);

/* The last error's message, "" if none. */
const char *vpmc_reader_error(const struct vpmc_reader *r);

/* Format actually read (after auto-detection); PMU configuration in effect (after open). */
enum vpmc_format vpmc_reader_format(const struct vpmc_reader *r);
const struct vpmc_pmu_config *vpmc_reader_pmu(const struct vpmc_reader *r);

struct vpmc_reader_stats {
	uint64_t lines;             /* input lines (text formats) */
	uint64_t records;           /* tracepoint records or .vtr event lines read */
	uint64_t events;            /* native events returned */
	uint64_t skipped_lines;     /* malformed lines skipped (lenient) */
	uint64_t unknown_records;   /* records of events the importer does not use */
	uint64_t lost_events;       /* events the tracer reported lost (LOST EVENTS markers) */
	uint64_t lost_markers;      /* number of such markers */
	uint64_t synthesized_entries; /* entries added because the trace has no kvm_entry */
	bool truncated_tail;        /* the last line was cut (warning, not error) */
	uint64_t comment_lines;     /* lines that are no events: comments, headers ("cpus=2"),
				     * directives, blank and "..." elision lines */
};
void vpmc_reader_stats(const struct vpmc_reader *r, struct vpmc_reader_stats *st);

/* Unknown (unused) event names with their counts, in first-seen order. */
size_t vpmc_reader_nr_unknown(const struct vpmc_reader *r);
int vpmc_reader_unknown(const struct vpmc_reader *r, size_t i, const char **name,
			uint64_t *count);

/* The first few warnings ("FILE:LINE: ..."), e.g. skipped lines in lenient mode. */
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

#ifdef __cplusplus
}
#endif

#endif /* VPMC_H */
