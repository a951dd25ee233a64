// SPDX-License-Identifier: GPL-2.0-only
/* dat_checked.c - The trace.dat files the crash probe passed in this process (dat_checked.h). */
#include "config.h"

#include <pthread.h>
#include <string.h>

#include "dat_checked.h"

/* A command reads one trace, or a few; older entries are replaced in turn. */
#define DAT_CHECKED_MAX 8

static struct dat_file_id checked[DAT_CHECKED_MAX];
static unsigned int nr_checked, next_slot;
static pthread_mutex_t checked_lock = PTHREAD_MUTEX_INITIALIZER;

bool dat_file_id(int fd, struct dat_file_id *id)
{
	struct stat st;

	if (fstat(fd, &st))
		return false;
	memset(id, 0, sizeof(*id));
	id->dev = st.st_dev;
	id->ino = st.st_ino;
	id->size = st.st_size;
	id->mtime = st.st_mtim;
	id->ctime = st.st_ctim;
	return true;
}

bool dat_same_file(const struct dat_file_id *a, const struct dat_file_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime.tv_sec == b->mtime.tv_sec && a->mtime.tv_nsec == b->mtime.tv_nsec &&
	       a->ctime.tv_sec == b->ctime.tv_sec && a->ctime.tv_nsec == b->ctime.tv_nsec;
}

bool dat_checked(int fd)
{
	struct dat_file_id id;
	bool found = false;
	unsigned int i;

	if (!dat_file_id(fd, &id))
		return false;
	pthread_mutex_lock(&checked_lock);
	for (i = 0; i < nr_checked && !found; i++)
		found = dat_same_file(&checked[i], &id);
	pthread_mutex_unlock(&checked_lock);
	return found;
}

void dat_checked_add(int fd)
{
	struct dat_file_id id;

	if (!dat_file_id(fd, &id) || dat_checked(fd))
		return;
	pthread_mutex_lock(&checked_lock);
	checked[next_slot] = id;
	next_slot = (next_slot + 1) % DAT_CHECKED_MAX;
	if (nr_checked < DAT_CHECKED_MAX)
		nr_checked++;
	pthread_mutex_unlock(&checked_lock);
}
