// SPDX-License-Identifier: GPL-2.0-only
/* outfile.c - Files vpmcsim writes, whole or absent (outfile.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile.h"

#define OUTFILE_MAX 8 /* outputs open at once (replay --log and its report: 1) */

static const int fatal[] = { SIGINT, SIGTERM, SIGHUP };

/* The temporary files to remove if a signal ends the program. */
static char *volatile pending[OUTFILE_MAX];

static void on_signal(int sig)
{
	int e = errno;
	unsigned int i;

	for (i = 0; i < OUTFILE_MAX; i++) {
		if (pending[i])
			unlink(pending[i]);
	}
	signal(sig, SIG_DFL);
	errno = e;
	raise(sig); /* delivered when the handler returns: the exit status says the signal */
}

/* Block (@how SIG_BLOCK) or unblock the signals above around a change of pending[]. */
static void mask(int how, sigset_t *old)
{
	sigset_t set;
	unsigned int i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		sigaddset(&set, fatal[i]);
	sigprocmask(how, how == SIG_BLOCK ? &set : old, how == SIG_BLOCK ? old : NULL);
}

/* Once: the handlers, except for a signal the caller ignores (nohup). */
static void install(void)
{
	static bool done;
	struct sigaction sa, old;
	unsigned int i;

	if (done)
		return;
	done = true;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		if (!sigaction(fatal[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(fatal[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

static void set_pending(const char *old, char *tmp)
{
	unsigned int i;

	for (i = 0; i < OUTFILE_MAX; i++) {
		if (pending[i] == old) {
			pending[i] = tmp;
			return;
		}
	}
}

/* @o->dest and "DIR/.vpmcsim-XXXXXX-BASE" beside it in @o->tmp (the name ends as the target's:
 * gnuplot picks the format from it); an existing target by its real path, so that a symbolic
 * link stays one. Return: false (no memory). */
static bool tmp_name(struct outfile *o, bool exists)
{
	const char *slash;
	size_t dir;

	o->dest = exists ? realpath(o->path, NULL) : NULL;
	if (!o->dest)
		o->dest = strdup(o->path);
	if (!o->dest)
		return false;
	slash = strrchr(o->dest, '/');
	dir = slash ? (size_t)(slash - o->dest + 1) : 0;
	o->tmp = malloc(strlen(o->dest) + sizeof(".vpmcsim-XXXXXX-"));
	if (o->tmp)
		sprintf(o->tmp, "%.*s.vpmcsim-XXXXXX-%s", (int)dir, o->dest, o->dest + dir);
	return o->tmp;
}

static void free_names(struct outfile *o)
{
	free(o->tmp);
	free(o->dest);
	o->tmp = o->dest = NULL;
}

/* A temporary file for @o->path, with the mode the target has (or would get from fopen()). */
static FILE *open_tmp(struct outfile *o, const struct stat *st)
{
	mode_t um = umask(0);
	const char *base;
	sigset_t old;
	int fd, e;

	umask(um);
	if (!tmp_name(o, st)) {
		free_names(o);
		errno = ENOMEM;
		return NULL;
	}
	base = strrchr(o->dest, '/') ? strrchr(o->dest, '/') + 1 : o->dest;
	install();
	mask(SIG_BLOCK, &old);
	fd = mkstemps(o->tmp, (int)strlen(base) + 1); /* "-BASE" after the X's */
	if (fd >= 0)
		set_pending(NULL, o->tmp);
	mask(SIG_SETMASK, &old);
	if (fd >= 0 && !fchmod(fd, st ? st->st_mode & 07777 : 0666 & ~um))
		o->f = fdopen(fd, "w");
	if (!o->f) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			outfile_close(o, false);
		}
		free_names(o);
		errno = e;
	}
	return o->f;
}

FILE *outfile_open(struct outfile *o, const char *path)
{
	struct stat st;

	bool exists;

	o->f = NULL;
	o->path = path;
	o->tmp = o->dest = NULL;
	if (!strcmp(path, "-"))
		return o->f = stdout;
	exists = !stat(path, &st);
	if (exists && !S_ISREG(st.st_mode))
		return o->f = fopen(path, "w"); /* /dev/null stays a device */
	return open_tmp(o, exists ? &st : NULL);
}

const char *outfile_name(const struct outfile *o)
{
	return o->tmp ? o->tmp : o->path;
}

int outfile_close(struct outfile *o, bool keep)
{
	sigset_t old;
	int err = 0;

	errno = 0;
	if (o->f && (fflush(o->f) || ferror(o->f)))
		err = errno ? errno : -1;
	errno = 0;
	if (o->f && o->f != stdout && fclose(o->f) && !err)
		err = errno ? errno : -1;
	o->f = NULL;
	if (!o->tmp)
		return keep ? err : 0;
	mask(SIG_BLOCK, &old);
	errno = 0;
	if (keep && !err && rename(o->tmp, o->dest))
		err = errno ? errno : -1;
	if (!keep || err)
		unlink(o->tmp);
	set_pending(o->tmp, NULL);
	mask(SIG_SETMASK, &old);
	free_names(o);
	return keep ? err : 0;
}
