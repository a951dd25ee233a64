// SPDX-License-Identifier: GPL-2.0-only
/* json_str.c - A C string as a JSON string, for the writers that print JSON themselves (the
 * nested report and log, calibrate) rather than through jansson. */
#include "config.h"

#include <stdio.h>

#include "vpmc/common.h"

void vpmc_json_string(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			putc(*s, f);
	}
	putc('"', f);
}
