// SPDX-License-Identifier: GPL-2.0-only
/* ideal.c - A policy's guest samples against the ideal guest's (see ideal.h). */
#include "config.h"

#include <string.h>

#include "ideal.h"

void ideal_init(struct ideal_match *im)
{
	memset(im, 0, sizeof(*im));
	hist_init(&im->late_ev);
	hist_init(&im->late_ns);
}

void ideal_release(struct ideal_match *im)
{
	hist_release(&im->late_ev);
	hist_release(&im->late_ns);
}

void ideal_push(struct ideal_match *im, uint64_t pos, uint64_t t_ns)
{
	unsigned int tail;

	im->ideal++;
	if (im->n == IDEAL_QUEUE) { /* the oldest is lost: a newer one waits before it */
		im->head = (im->head + 1) % IDEAL_QUEUE;
		im->n--;
	}
	tail = (im->head + im->n) % IDEAL_QUEUE;
	im->pos[tail] = pos;
	im->t[tail] = t_ns;
	im->n++;
}

static void ideal_hist_add(struct ideal_match *im, struct vpmc_hist *h, uint64_t v)
{
	int err = hist_add(h, v);

	if (err && !im->err)
		im->err = err;
}

void ideal_sample(struct ideal_match *im, uint64_t pos, uint64_t t_ns)
{
	unsigned int next = (im->head + 1) % IDEAL_QUEUE;

	if (!im->n || im->pos[im->head] > pos) {
		im->unmatched++;
		return;
	}
	/* the ideal samples before the newest one at or before @pos were lost */
	while (im->n > 1 && im->pos[next] <= pos) {
		im->head = next;
		im->n--;
		next = (im->head + 1) % IDEAL_QUEUE;
	}
	ideal_hist_add(im, &im->late_ev, pos - im->pos[im->head]);
	ideal_hist_add(im, &im->late_ns, t_ns > im->t[im->head] ? t_ns - im->t[im->head] : 0);
	im->matched++;
	im->head = next;
	im->n--;
}

int ideal_add(struct ideal_match *dst, const struct ideal_match *src)
{
	int err;

	dst->ideal += src->ideal;
	dst->matched += src->matched;
	dst->unmatched += src->unmatched;
	err = hist_merge(&dst->late_ev, &src->late_ev);
	return err ? err : hist_merge(&dst->late_ns, &src->late_ns);
}

int ideal_copy(struct ideal_match *dst, const struct ideal_match *src)
{
	struct vpmc_hist ev = dst->late_ev, ns = dst->late_ns;
	int err;

	*dst = *src;
	dst->late_ev = ev;
	dst->late_ns = ns;
	err = hist_copy(&dst->late_ev, &src->late_ev);
	return err ? err : hist_copy(&dst->late_ns, &src->late_ns);
}
