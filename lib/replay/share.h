/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * share.h - Which lanes each engine of a parallel replay runs (issue 15): lane 0 (the ideal guest)
 * and the policies' lanes, in that order, in units (a lane, or lanes that behaved alike on the
 * first block, alike_units(), of which one computes), cut into contiguous shares of equal numbers
 * of units, so the first engine runs lane 0 and the first policies. Lane 0 costs about what a
 * policy's lane costs (compare on the bench's 1-vCPU and 4-vCPU traces, CLOCK_THREAD_CPUTIME_ID per
 * engine at -j 2: lane 0's engine 1.05-1.1x a policy's fifth of the other with an overlay, 1.7x
 * without, where it runs the reference group too), so equal shares make engines of about equal
 * cost. An engine runs on one thread at a time: with lane 0 alone on one, the other was the run's
 * longest chain of work, which no thread could share.
 */
#ifndef VPMC_REPLAY_SHARE_H
#define VPMC_REPLAY_SHARE_H

#include <stdint.h>

/*
 * A share holds at most this many units, on one thread too: each computing lane touches about 17
 * cache lines per event (its model's, its reference's, the lane's and its metrics'), and with more,
 * an event evicted the next one's lines from a 48 KB L1 (cachegrind of a 32-tolerance sweep with an
 * overlay: 3.4 L1 misses per model and event on one engine; 0.2 in shares of 11 policies, each over
 * a whole block, for 2.3% more instructions).
 */
#define SHARE_LANES_MAX 16

/* The engines for @nr_units units of lanes (lane 0, each policy's lane, or lanes that behave
 * alike: alike_units()) on @threads threads (0: one): one per thread, at most one per unit, at
 * least one per SHARE_LANES_MAX units. Return: the number of engines, 1 if one engine on one
 * thread runs them all. */
unsigned int share_engines(unsigned int nr_units, unsigned int threads);

/* Engine @i of @nr_engines (share_engines()) runs units [*@from, *@to) of @nr_units, the
 * first engine lane 0's. */
void share_units(unsigned int nr_units, unsigned int nr_engines, unsigned int i,
		 unsigned int *from, unsigned int *to);

/* The reading thread's share of the engines' work, in ns per block read: what evens the
 * threads' time when reading a block takes @read_ns and the engines' work on it @engines_ns,
 * over @threads threads (the reading one included). Return: 0 if reading alone is that much. */
uint64_t share_help(uint64_t read_ns, uint64_t engines_ns, unsigned int threads);

#endif /* VPMC_REPLAY_SHARE_H */
