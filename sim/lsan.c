// SPDX-License-Identifier: GPL-2.0-only
/*
 * lsan.c - LeakSanitizer's suppressions built into vpmcsim.
 *
 * libtraceevent and libtracecmd leak a few bytes of their own on every trace.dat they open
 * (tests/lsan.supp says which and why). A sanitizer build (--enable-sanitizers) would then exit
 * 1 with a leak report after every good trace.dat unless LSAN_OPTIONS named that file, as
 * make check does: users running such a vpmcsim by hand would take it for our bug. LSan calls
 * these hooks (weak symbols in its runtime) for its default suppressions and options; other
 * builds never call them. The text is tests/lsan.supp's, turned into C strings at build time
 * (sim/lsan_supp.h). LSAN_OPTIONS still adds suppressions and overrides the options.
 */
#include "config.h"

#define LSAN_HOOK __attribute__((used, visibility("default")))

const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);

LSAN_HOOK const char *__lsan_default_suppressions(void)
{
	return
#include "sim/lsan_supp.h"
		;
}

/* as make check: no table of the suppressed leaks after every run */
LSAN_HOOK const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
