// SPDX-License-Identifier: GPL-2.0-only
/*
 * regress.c - A libFuzzer target as a plain test (TAP): LLVMFuzzerTestOneInput() on every file
 * of REGRESS_DIR/crashes/REGRESS_TARGET/ (the inputs that once crashed the target) and
 * REGRESS_DIR/corpus/REGRESS_TARGET/ (the minimized corpus), or on the files given as
 * arguments. A crash, a sanitizer report, a violated invariant (abort) or an input that runs
 * for more than REGRESS_TIMEOUT seconds (default 60: a hang, SIGALRM) fails the test.
 */
#include "config.h"

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct inputs {
	char **path;
	size_t nr, cap;
};

static void add(struct inputs *in, const char *dir, const char *name)
{
	size_t len = strlen(dir) + strlen(name) + 2;

	if (in->nr == in->cap) {
		in->cap = in->cap ? 2 * in->cap : 64;
		in->path = realloc(in->path, in->cap * sizeof(*in->path));
		if (!in->path)
			abort();
	}
	in->path[in->nr] = malloc(len);
	if (!in->path[in->nr])
		abort();
	snprintf(in->path[in->nr++], len, "%s%s%s", dir, *dir ? "/" : "", name);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of @dir (none if it does not exist), sorted. */
static void add_dir(struct inputs *in, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t first = in->nr;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			add(in, dir, e->d_name);
	closedir(d);
	qsort(in->path + first, in->nr - first, sizeof(*in->path), by_name);
}

static int run(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return -1;
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 65536;
			data = realloc(data, cap);
			if (!data)
				abort();
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	/* libFuzzer passes a copy of exactly the input's bytes */
	LLVMFuzzerTestOneInput(data, len);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	struct inputs in = { NULL, 0, 0 };
	char dir[4096];
	const char *timeout = getenv("REGRESS_TIMEOUT");
	unsigned int secs = timeout ? (unsigned int)atoi(timeout) : 60;
	size_t i;
	int fail = 0;

	if (argc > 1) {
		for (i = 1; i < (size_t)argc; i++)
			add(&in, "", argv[i]);
	} else {
		snprintf(dir, sizeof(dir), "%s/crashes/%s", REGRESS_DIR, REGRESS_TARGET);
		add_dir(&in, dir);
		snprintf(dir, sizeof(dir), "%s/corpus/%s", REGRESS_DIR, REGRESS_TARGET);
		add_dir(&in, dir);
	}
	if (!in.nr) {
		printf("1..0 # SKIP no inputs for %s\n", REGRESS_TARGET);
		return 0;
	}
	printf("1..%zu\n", in.nr);
	for (i = 0; i < in.nr; i++) {
		/* announced first: if the input crashes, the log names it */
		fprintf(stderr, "# %s\n", in.path[i]);
		alarm(secs);
		if (run(in.path[i])) {
			printf("not ok %zu - %s: cannot read\n", i + 1, in.path[i]);
			fail = 1;
		} else {
			printf("ok %zu - %s\n", i + 1, in.path[i]);
		}
		fflush(stdout);
		free(in.path[i]);
	}
	free(in.path);
	return fail;
}
