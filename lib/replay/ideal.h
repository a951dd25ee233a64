/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ideal.h - A policy's guest samples against the ideal guest's (internal).
 *
 * The ideal guest is the trace's guest on a PMU that counts exactly and raises each PMI where
 * the counter overflows: the reference policy in a lane of its own, whose PMIs (with an overlay)
 * run its own guest's handler. Each PMI it delivers is an ideal sample; each PMI a policy
 * delivers is one of the policy's samples. Samples are placed by their trace position: the
 * guest instructions of the trace's own segments before them (the overlay handler's
 * instructions differ from guest to guest and are not counted), so that two guests that act
 * differently can be set side by side.
 *
 * A policy's sample at position p is matched with the newest ideal sample at or before p that
 * no earlier sample of the policy took; older ideal samples not taken are lost. Lateness: the
 * trace instructions and the nanoseconds between the two. A policy's sample with no ideal sample
 * at or before it (its guest's counter ran ahead of the ideal guest's) is unmatched.
 * Memory is fixed: at most IDEAL_QUEUE ideal samples wait per vCPU (older ones are lost anyway).
 */
#ifndef VPMC_IDEAL_H
#define VPMC_IDEAL_H

#include <stdint.h>

#include "hist.h"

#define IDEAL_QUEUE 32

struct ideal_match {
	uint64_t pos[IDEAL_QUEUE], t[IDEAL_QUEUE]; /* ideal samples not taken, oldest first */
	unsigned int head, n;
	uint64_t ideal;      /* ideal samples (PMIs the ideal guest got) */
	uint64_t matched;    /* the policy's samples matched with one */
	uint64_t unmatched;  /* the policy's samples with no ideal sample at or before them */
	struct vpmc_hist late_ev, late_ns;
	int err;             /* sticky VPMC_ERR_NOMEM from a histogram */
};

void ideal_init(struct ideal_match *im);
void ideal_release(struct ideal_match *im);

/* The ideal guest got a sample at trace position @pos, time @t_ns. */
void ideal_push(struct ideal_match *im, uint64_t pos, uint64_t t_ns);

/* The policy's guest got a sample at trace position @pos, time @t_ns. */
void ideal_sample(struct ideal_match *im, uint64_t pos, uint64_t t_ns);

/* Add @src's results into @dst (totals). Return: 0 or VPMC_ERR_NOMEM. */
int ideal_add(struct ideal_match *dst, const struct ideal_match *src);

/* Make @dst @src (queue, counts, histograms). Return: 0 or NOMEM. */
int ideal_copy(struct ideal_match *dst, const struct ideal_match *src);

#endif /* VPMC_IDEAL_H */
