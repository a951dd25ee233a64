// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - A progress line on stderr for long work (issue 15): the share of the input read
 * (or of the duration generated), the rate and the time left, redrawn in place with '\r' at
 * most four times a second and erased at the end. Nothing is printed unless stderr is a
 * terminal, so that no output that goes to a file or a pipe changes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "progress.h"

#define PROGRESS_INTERVAL_MS 250 /* redraws at most 4 times a second */
#define PROGRESS_INTERVAL_MAX_MS 60000

static struct {
	int wanted;          /* 0 not asked yet, 1 yes, -1 no */
	bool started, shown;
	uint64_t t0, last;   /* ns: start of the work, last redraw */
	uint64_t interval;   /* ns */
	size_t width;        /* the terminal's columns, 0 if unknown */
} pg;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* VPMCSIM_PROGRESS_MS (tests redraw at every call with 0), or the default if it is unset or
 * empty; a bad value is said (even with no terminal: it is the user's mistake either way) and
 * the default used (cli_parse_u64() leaves @v alone on error). Return: ns. */
static uint64_t progress_interval(void)
{
	const char *ms = getenv("VPMCSIM_PROGRESS_MS");
	uint64_t v = PROGRESS_INTERVAL_MS;

	if (ms && *ms && cli_parse_u64(ms, PROGRESS_INTERVAL_MAX_MS, &v))
		fprintf(stderr, "vpmcsim: warning: VPMCSIM_PROGRESS_MS '%s': expected milliseconds "
			"from 0 to %d; using %d\n", ms, PROGRESS_INTERVAL_MAX_MS,
			PROGRESS_INTERVAL_MS);
	return v * 1000000ULL;
}

bool progress_begin(void)
{
	struct winsize ws;

	if (!pg.wanted) {
		pg.wanted = isatty(STDERR_FILENO) ? 1 : -1;
		if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws))
			pg.width = ws.ws_col;
		pg.interval = progress_interval();
	}
	if (pg.wanted > 0 && !pg.started) {
		pg.started = true;
		pg.t0 = pg.last = now_ns();
	}
	return pg.wanted > 0;
}

/* @n with a k, M or G suffix, in @buf. */
static const char *human(double n, char *buf, size_t len)
{
	static const char suffix[] = " kMG";
	int i = 0;

	while (n >= 1000.0 && i < 3) {
		n /= 1000.0;
		i++;
	}
	if (i)
		snprintf(buf, len, "%.2f %c ", n, suffix[i]);
	else
		snprintf(buf, len, "%.0f ", n);
	return buf;
}

void progress_show(const char *name, uint64_t done, uint64_t total, uint64_t count,
		   const char *unit)
{
	char c[32], rate[32], left[48] = "", share[24] = "", line[512];
	const char *base;
	double secs, s;
	int n;
	uint64_t t;

	if (!progress_begin())
		return;
	t = now_ns();
	if (t - pg.last < pg.interval || t == pg.t0)
		return;
	pg.last = t;
	secs = (double)(t - pg.t0) / 1e9;
	if (total && done <= total) {
		s = (double)done / (double)total;
		snprintf(share, sizeof(share), "%.1f%% done, ", 100.0 * s);
		if (s > 0.0) {
			uint64_t rest = (uint64_t)(secs * (1.0 - s) / s + 0.5);

			snprintf(left, sizeof(left), ", %llu:%02llu left",
				 (unsigned long long)(rest / 60), (unsigned long long)(rest % 60));
		}
	}
	base = strrchr(name, '/');
	n = snprintf(line, sizeof(line), "vpmcsim: %s: %s%s%s, %s%s/s%s", base ? base + 1 : name,
		     share, human((double)count, c, sizeof(c)), unit,
		     human((double)count / secs, rate, sizeof(rate)), unit, left);
	/* one row: a line that wraps would not be redrawn in place */
	if (n > 0 && pg.width > 1 && (size_t)n >= pg.width)
		line[pg.width - 1] = '\0';
	fprintf(stderr, "\r%s\033[K", line);
	fflush(stderr);
	pg.shown = true;
}

void progress_reader(void *data, const struct vpmc_reader *r)
{
	struct vpmc_reader_stats st;
	uint64_t done, total;

	vpmc_reader_progress(r, &done, &total);
	vpmc_reader_stats(r, &st);
	progress_show(data, done, total, st.events, "events");
}

void progress_done(void)
{
	if (pg.shown)
		fputs("\r\033[K", stderr);
	pg.shown = false;
	pg.started = false;
}
