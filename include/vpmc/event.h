/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/event.h - PMU configuration and native trace events (docs/trace-format.md). */
#ifndef VPMC_PUBLIC_EVENT_H
#define VPMC_PUBLIC_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <vpmc/common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------------------------------------
 * PMU configuration: what the guest's CPUID enumerates (the .vtr "!pmu" and "!host" directives).
 */
enum vpmc_vendor {
	VPMC_VENDOR_INTEL,
	VPMC_VENDOR_AMD,
};

/* Host kernel version as one comparable number: VPMC_KERNEL(6, 18). */
#define VPMC_KERNEL(major, minor) (((unsigned int)(major) << 16) | (unsigned int)(minor))
/* The newest behaviour the model implements: arch/x86/kvm/pmu.c of Linux 7.0 (283a5aa57b22). */
#define VPMC_KERNEL_LATEST VPMC_KERNEL(7, 0)
/*
 * The oldest host the model represents: 6.2, where emulated instructions are counted with a
 * deferred reprogram (68fb4757e867, de0f619564f4). Older hosts (an immediate reprogram per
 * increment from 9cd803d496e7, no software counting at all before it) are refused.
 */
#define VPMC_KERNEL_OLDEST VPMC_KERNEL(6, 2)

/*
 * Counter indices as KVM numbers them, in vpmc_obs.counter and every counter bitmap: GP
 * counters from 0, fixed counters from VPMC_FIXED_BASE (the bit layout of Intel's
 * PERF_GLOBAL_CTRL). A vCPU has at most VPMC_MAX_GP GP and VPMC_MAX_FIXED fixed counters.
 */
#define VPMC_FIXED_BASE 32
#define VPMC_MAX_GP 8
#define VPMC_MAX_FIXED 3

struct vpmc_pmu_config {
	enum vpmc_vendor vendor;
	unsigned int version;     /* architectural PMU version; 0 = no vPMU */
	unsigned int nr_gp;       /* general-purpose counters */
	unsigned int nr_fixed;    /* Intel fixed counters (0 on AMD and on v1) */
	unsigned int gp_width;    /* GP counter width, bits */
	unsigned int fixed_width; /* fixed counter width, bits */
	bool fw_writes;           /* Intel PERF_CAPABILITIES.FW_WRITE: 0x4c1+ aliases exist */
	unsigned int host_kernel; /* VPMC_KERNEL(): selects legacy behaviour of older hosts;
				   * VPMC_KERNEL_OLDEST at least */
	bool pebs;                /* Intel: PERF_CAPABILITIES.PEBS_FORMAT != 0 (no baseline) and
				   * CPUID DS: PEBS_ENABLE and DS_AREA exist; default false */
	bool tsx;                 /* Intel: guest and host have HLE/RTM: EVNTSEL IN_TX (bit 32),
				   * IN_TXCP (bit 33, GP counter 2 only) are valid; default false */
};

/*
 * Legacy behaviour selected by host_kernel (vpmc(3), PMU CONFIGURATION AND EVENTS; the commits
 * are upstream's):
 *   < 6.6   no LVTPC auto-mask after a PMI (a16eb25b09c0); counter writes not truncated to the
 *           counter's width, so the next emulated increment reports an overflow (b29a2acd36dd)
 *   < 6.8   emulated overflow via prev_counter, counter += 1 at each increment (de0f619564f4;
 *           fixed by fd89499a5151); FIXED_CTR_CTRL old value truncated to 8 bits (05519c86d699);
 *           tolerance policies behave as exact there
 *   < 6.9   GLOBAL_CTRL stays 0 at RESET (de120e1d692d); reprogram bits cleared per counter
 *           after its reprogram, not snapshotted first (004a0aa56ede); RDPMC ECX bit 31 ("fast")
 *           reads the low 32 bits, Intel and AMD (d652981db08f); Intel ECX bit 30 = fixed
 *           (5728a4a0ea79, 7a0fc734c20d); AMD drops ECX bits 31:30, 0x40000000 reads counter 0
 *           (ecb490770ad4); AMD guests' LVTPC masked too (49ff3b4aec51)
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
	VPMC_EV_NR,
	/*
	 * Nested virtualization (trace-format.md, "Nested events"; vpmc/nested.h). Only a reader
	 * opened with vpmc_reader_opts.nested returns them; they lie above VPMC_EV_NR, so the vPMU
	 * model and the replay, which refuse types >= VPMC_EV_NR, never take them.
	 */
	VPMC_EV_NEXIT = 64,  /* kvm_nested_vmexit: the vCPU's exit came from L2; reason; value =
			      * info1 (SVM EXITINFO1, VMX exit qualification) if has_value */
	VPMC_EV_NINJECT,     /* kvm_nested_vmexit_inject: emulated VM-exit to L1; reason */
	VPMC_EV_NENTER,      /* kvm_nested_vmenter / kvm_nested_vmrun: emulated VM-entry into L2;
			      * value = VMCB12 / vmcs12 GPA if has_value; index = the ISA its
			      * label names (enum vpmc_nested_isa: 2 "vmcb:", 1 "vmcs:", 0 none) */
	VPMC_EV_NINTERCEPTS, /* kvm_nested_intercepts (SVM): index = VMCB intercept word 3,
			      * value = word 4 << 32 | word 5 */
	VPMC_EV_NFAIL,       /* kvm_nested_vmenter_failed */
	VPMC_EV_NINVAL,      /* synthetic: an MMU-notifier invalidation of this vCPU's caches */
	/* (every nested event from kvm tracepoint text: insn = the record's input line) */
	VPMC_EV_NESTED_END,  /* not a type: one past the last nested one */
	/*
	 * The accesses perf kvm stat report --event mmio / ioport times (vpmc/stat.h). Only a
	 * reader opened with vpmc_reader_opts.accesses returns them (from kvm tracepoints).
	 */
	VPMC_EV_MMIO = 96,   /* kvm_mmio: index = type (KVM_TRACE_MMIO_READ_UNSATISFIED 0, _READ 1,
			      * _WRITE 2), value = the guest physical address */
	VPMC_EV_PIO,         /* kvm_pio: index = port, value = 1 for OUT (a write), 0 for IN */
	VPMC_EV_ACCESS_END,  /* not a type: one past the last access one */
	/*
	 * A .vtr "!expect" assertion (trace-format.md, "Expectations"), returned only by a reader
	 * opened with vpmc_reader_opts.expect (vpmcsim conformance). It is about the most recent
	 * access of its target before it, of any vCPU: index = the MSR (rdmsr, wrmsr) or ECX
	 * (rdpmc); insn = enum vpmc_expect_target; br = the mask applied to the value read
	 * (all ones without "&"); cpl = enum vpmc_expect_op; value = the expected value; reason
	 * = the assertion's message; vcpu = the deciding KVM function's number
	 * (vpmc_expect_decider()); time_ns 0.
	 */
	VPMC_EV_EXPECT = 112,
};

enum vpmc_expect_target {
	VPMC_EXPECT_RDMSR, /* the value the most recent RDMSR of index read, or its #GP */
	VPMC_EXPECT_RDPMC, /* the same for RDPMC of ECX = index */
	VPMC_EXPECT_WRMSR, /* whether the most recent WRMSR of index raised #GP */
	VPMC_EXPECT_PMIS,  /* PMIs delivered to the guest so far, all vCPUs */
	VPMC_EXPECT_TARGET_NR
};

enum vpmc_expect_op {
	VPMC_EXPECT_EQ, VPMC_EXPECT_NE, VPMC_EXPECT_LT, VPMC_EXPECT_LE, VPMC_EXPECT_GT,
	VPMC_EXPECT_GE,
	VPMC_EXPECT_IS_GP,  /* "== GP": the access raised #GP */
	VPMC_EXPECT_NOT_GP, /* "!= GP": it did not */
	VPMC_EXPECT_OP_NR
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

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_EVENT_H */
