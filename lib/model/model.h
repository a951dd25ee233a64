/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - The model's interface for the replay engine: guest segments run in parts and the
 * vCPU's trigger counter. struct vpmc_vcpu stays opaque: no lib/kvm header here, since replay
 * must not see struct vpmc_pmu (architecture.md §1). The hooks white-box tests use sit under
 * VPMC_TESTING.
 */
#ifndef VPMC_MODEL_H
#define VPMC_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <vpmc/model.h>

/* Where a guest segment run in parts by vpmc__vcpu_guest_until_pmi() stands. */
struct vpmc__guest_progress {
	uint64_t t_start; /* the segment's start: the vCPU's previous event at the first call, ns */
	uint64_t insn;    /* instructions of the segment retired so far */
	uint64_t br;      /* branches among them */
	uint64_t time_ns; /* time of instruction insn (t_start while insn is 0), ns */
	bool pmi;         /* the last call stopped right after a PMI reached the guest */
	bool started;     /* the first call was made */
};

/* A segment not started yet: what the first vpmc__vcpu_guest_until_pmi() call takes. */
#define VPMC__GUEST_PROGRESS_INIT { 0, 0, 0, 0, false, false }

/**
 * vpmc__vcpu_guest_until_pmi() - Run a guest segment in parts: as vpmc_vcpu_guest(), but stop
 * right after an instruction at which a PMI reached the guest, so that the caller can run the
 * guest's PMI handler there (it is an NMI: the guest takes it at once) and then the rest.
 * @v: vCPU
 * @time_ns: trace time at the end of the whole segment, ns (the same at every call)
 * @insn: instructions of the whole segment (the same at every call)
 * @br: branches among them; clamped to @insn (the same at every call)
 * @cpl: the CPL the segment runs at; set again at each call (VPMC_CPL_KEEP: the current one)
 * @upto: stop after instruction @upto at the latest (@insn or more: the whole rest)
 * @p: progress; VPMC__GUEST_PROGRESS_INIT before the first call, then as the last call left it
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
bool vpmc__vcpu_guest_until_pmi(struct vpmc_vcpu *v, uint64_t time_ns, uint64_t insn,
				uint64_t br, uint8_t cpl, uint64_t upto,
				struct vpmc__guest_progress *p);

/**
 * vpmc__vcpu_trigger_count() - Where the vCPU counts its kvm_pmu_trigger_event() calls past the
 * GLOBAL_CTRL gate (vpmc_vcpu_stats().triggers), for a caller that reads it per event.
 * @v: vCPU
 *
 * Return: the counter, owned by @v, valid until vpmc_vcpu_free().
 */
const uint64_t *vpmc__vcpu_trigger_count(const struct vpmc_vcpu *v);

/**
 * vpmc__vcpu_tolerance_seen() - What a tolerance policy's comparisons with its T found since the
 * last call (then forgotten): *@le raised to the largest pending count found <= T, *@gt lowered
 * to the smallest found > T (0 stands for none, in and out). A vCPU in the same state with
 * another T' of the same kind gives the same answers, and so the same state, iff
 * *@le <= T' < *@gt.
 * @v: vCPU
 */
void vpmc__vcpu_tolerance_seen(struct vpmc_vcpu *v, uint64_t *le, uint64_t *gt);

/**
 * vpmc__vcpu_copy() - Make @dst's state @src's (both of one configuration), @dst keeping its
 * policy and observer: a lane that followed another's work takes it over (lib/replay/alike.c).
 * @dst: vCPU
 * @src: vCPU
 *
 * Return: 0, or VPMC_ERR_NOMEM (@dst then unchanged).
 */
int vpmc__vcpu_copy(struct vpmc_vcpu *dst, const struct vpmc_vcpu *src);

/* White-box tests: the vCPU's struct vpmc_pmu, host-initiated MSR accesses, held-back perf PMIs. */
#ifdef VPMC_TESTING
struct vpmc_pmu;

struct vpmc_pmu *vpmc__vcpu_pmu(struct vpmc_vcpu *v);
int vpmc__vcpu_host_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value);
int vpmc__vcpu_host_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value);
void vpmc__vcpu_deliver_skid(struct vpmc_vcpu *v, uint64_t time_ns);
#endif

#endif /* VPMC_MODEL_H */
