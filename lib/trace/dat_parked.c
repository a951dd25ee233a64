// SPDX-License-Identifier: GPL-2.0-only
/* dat_parked.c - The parsed event formats of the trace.dat closed last (dat_parked.h). */
#include "config.h"

#include <pthread.h>

#include <event-parse.h>

#include "dat_checked.h"
#include "dat_parked.h"

static struct tep_handle *parked;
static struct dat_file_id parked_id;
static pthread_mutex_t parked_lock = PTHREAD_MUTEX_INITIALIZER;

struct tep_handle *dat_parked_take(int fd)
{
	struct tep_handle *tep = NULL;
	struct dat_file_id id;

	if (!dat_file_id(fd, &id))
		return NULL;
	pthread_mutex_lock(&parked_lock);
	if (parked && dat_same_file(&parked_id, &id)) {
		tep = parked;
		parked = NULL;
	}
	pthread_mutex_unlock(&parked_lock);
	return tep;
}

void dat_parked_put(int fd, struct tep_handle *tep)
{
	struct tep_handle *old = tep;
	struct dat_file_id id;

	if (dat_file_id(fd, &id)) {
		pthread_mutex_lock(&parked_lock);
		old = parked;
		parked = tep;
		parked_id = id;
		pthread_mutex_unlock(&parked_lock);
	}
	if (old)
		tep_free(old);
}
