// SPDX-License-Identifier: GPL-2.0-only
/* read_events.c - Read a trace through the public reader and count its events (bench only:
 * the reader's speed without writing anything), then print the process's anonymous and
 * file-backed resident memory (Linux /proc/self/status) before closing the reader.
 * Usage: read_events TRACE */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "vpmc.h"

/* "RssAnon: N kB" and "RssFile: N kB" of this process, on one line. */
static void print_rss(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "RssAnon:", 8) || !strncmp(line, "RssFile:", 8)) {
			line[strcspn(line, "\n")] = '\0';
			printf(" %s", line);
		}
	}
	putchar('\n');
	fclose(f);
}

int main(int argc, char **argv)
{
	struct vpmc_reader *r;
	struct vpmc_event ev;
	uint64_t n = 0;
	int ret;

	if (argc != 2 || vpmc_reader_new(&r, NULL)) {
		fprintf(stderr, "usage: read_events TRACE\n");
		return 2;
	}
	ret = vpmc_reader_open(r, argv[1]);
	if (!ret)
		while ((ret = vpmc_reader_next(r, &ev)) == 1)
			n++;
	if (ret < 0)
		fprintf(stderr, "read_events: %s\n", vpmc_reader_error(r));
	else {
		printf("%" PRIu64 " events,", n);
		print_rss();
	}
	vpmc_reader_free(r);
	return ret < 0;
}
