/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * exitclass.h - The class of a trace VM-exit (timer-storm.md §6.3) and the cost terms only the
 * class decides (the slowpath tax, the mediated PMU switch), priced alike by latency's windows
 * and by the replay's host cost (metrics.c).
 */
#ifndef VPMC_REPLAY_EXITCLASS_H
#define VPMC_REPLAY_EXITCLASS_H

#include <stdbool.h>
#include <stdint.h>
#include <vpmc/replay.h>

enum replay_exit_class { EXIT_MSR_FAST, EXIT_MSR_SLOW, EXIT_INTR, EXIT_VINTR, EXIT_NMI, EXIT_HLT,
			 EXIT_OTHER };

/* One vCPU's trace exit being classified. */
struct replay_exit_state {
	bool amd, fast_6e0;        /* the PMU's vendor; 0x6e0 is a fastpath write */
	bool has_access, fast;     /* the exit so far: an MSR or PMC access, a fastpath write */
	enum replay_exit_class cls; /* by the reason, final at the entry */
	uint32_t insn_mask;        /* GP counters programmed to count instructions, enabled */
};

/* Set up @s for a PMU of @cfg (vendor, host kernel). */
void replay_exit_init(struct replay_exit_state *s, const struct vpmc_pmu_config *cfg);

/* Trace event @ev of the vCPU: an exit starts the class, its accesses refine it, its entry
 * ends it; event-select writes track the counters that count instructions. */
void replay_exit_event(struct replay_exit_state *s, const struct vpmc_event *ev);

/*
 * replay_exit_class_us() - What the class of exit @s adds under a policy of @kind
 * (timer-storm.md §6.3, §6.4): perf-based, slowpath_tax_ns for a fastpath exit whose entry
 * drains; mediated, mediated_switch_cycles for every exit leaving the fastpath loop, and a
 * fastpath exit while a counter counts instructions leaves it (f7a65e58d643) and pays the tax
 * too; reference, nothing.
 *
 * Return: microseconds.
 */
double replay_exit_class_us(const struct vpmc_cost *c, enum vpmc_policy_kind kind,
			    const struct replay_exit_state *s, bool drained);

#endif
