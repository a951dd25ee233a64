// SPDX-License-Identifier: GPL-2.0-only
/* blockq.c - The ring of event blocks of a parallel replay (see blockq.h). */
#include "config.h"

#include <stdlib.h>

#include "blockq.h"
#include "internal.h"

int blockq_init(struct blockq *q, void **slot, unsigned int nr_slots, unsigned int nr_consumers)
{
	q->pending = calloc(nr_slots, sizeof(*q->pending));
	if (!q->pending)
		return VPMC_ERR_NOMEM;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->filled, NULL);
	pthread_cond_init(&q->released, NULL);
	q->slot = slot;
	q->nr_slots = nr_slots;
	q->nr_consumers = nr_consumers;
	q->published = 0;
	q->done = false;
	return 0;
}

void blockq_destroy(struct blockq *q)
{
	pthread_cond_destroy(&q->released);
	pthread_cond_destroy(&q->filled);
	pthread_mutex_destroy(&q->lock);
	free(q->pending);
}

void *blockq_next_free(struct blockq *q)
{
	unsigned int s;

	pthread_mutex_lock(&q->lock);
	s = (unsigned int)(q->published % q->nr_slots);
	while (q->pending[s])
		pthread_cond_wait(&q->released, &q->lock);
	pthread_mutex_unlock(&q->lock);
	return q->slot[s];
}

void blockq_publish(struct blockq *q)
{
	pthread_mutex_lock(&q->lock);
	q->pending[q->published % q->nr_slots] = q->nr_consumers;
	q->published++;
	pthread_cond_broadcast(&q->filled);
	pthread_mutex_unlock(&q->lock);
}

void blockq_end(struct blockq *q)
{
	pthread_mutex_lock(&q->lock);
	q->done = true;
	pthread_cond_broadcast(&q->filled);
	pthread_mutex_unlock(&q->lock);
}

void *blockq_get(struct blockq *q, uint64_t k)
{
	void *b = NULL;

	pthread_mutex_lock(&q->lock);
	while (q->published <= k && !q->done)
		pthread_cond_wait(&q->filled, &q->lock);
	if (q->published > k)
		b = q->slot[k % q->nr_slots];
	pthread_mutex_unlock(&q->lock);
	return b;
}

void blockq_release(struct blockq *q, uint64_t k)
{
	pthread_mutex_lock(&q->lock);
	if (!--q->pending[k % q->nr_slots])
		pthread_cond_broadcast(&q->released);
	pthread_mutex_unlock(&q->lock);
}
