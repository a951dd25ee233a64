/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * alike.h - Lanes that behave alike (issue 15): on an engine of a parallel replay, the lanes of
 * one tolerance kind that differ only in T form a group whose first lane (the leader) computes
 * while the others follow. T is read in one place, policy_defer_reprogram()
 * (lib/kvm/vpmcsim.h), which notes per vCPU the largest pending count it found <= T and the
 * smallest it found > T: a follower's T' in [le, gt) gives every answer the leader got, so from
 * the same state it reaches the same state. Per block of events: before the pass, the leader's
 * state is copied into its first follower (a follower's own state is stale: this makes it the
 * block's checkpoint); after it, the followers whose T' is outside [le, gt) leave, the first of
 * them (restored from the checkpoint) leading the others in a pass over the block again, and so
 * on. Groups only split: at most one pass per behaviour. At the end each follower takes its
 * leader's state, under its own policy. Memory: no more than the lanes already hold.
 *
 * Off without an overlay (the lanes share one reference group, which a second pass would apply
 * twice), with an exit or event hook (latency's per-exit work) or a log: those are per lane.
 */
#ifndef VPMC_REPLAY_ALIKE_H
#define VPMC_REPLAY_ALIKE_H

#include <stdbool.h>
#include <stdint.h>

struct vpmc_replay;

/* Whether a lane whose leader's comparisons found @le (largest <= its T) and @gt (smallest > its
 * T; 0: none) gets the same answers with T = @t. */
static inline bool alike_same(uint64_t le, uint64_t gt, uint64_t t)
{
	return le <= t && (!gt || t < gt);
}

/* Whether some of @r's lanes (begun) may behave alike: alike.h's conditions, and two lanes of
 * one tolerance kind. */
bool alike_possible(const struct vpmc_replay *r);

/* Units of lanes for share.h, after @s (an engine of every lane) ran a block: each lane that
 * leads (or computes alone) with the lanes after it that follow. @first[u]: unit u's first lane;
 * @first[Return]: @s->nr_lanes. Return: the number of units. */
unsigned int alike_units(const struct vpmc_replay *s, unsigned int *first);

/* Form @r's groups (begun, no event yet); none if alike.h's conditions fail. */
void alike_begin(struct vpmc_replay *r);

/* Before a pass over a block (@first: its first; else the lanes that left run again):
 * checkpoints. Return: 0 or VPMC_ERR_NOMEM. */
int alike_pass_begin(struct vpmc_replay *r, bool first);

/* After a pass: the followers that got other answers leave their group.
 * Return: 1 if they need a pass again, 0 if the block is done, or VPMC_ERR_NOMEM. */
int alike_pass_end(struct vpmc_replay *r);

/* After the last event: each follower takes its leader's state. Return: 0 or VPMC_ERR_NOMEM. */
int alike_finish(struct vpmc_replay *r);

#endif /* VPMC_REPLAY_ALIKE_H */
