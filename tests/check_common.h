/* SPDX-License-Identifier: GPL-2.0-only */
/* check_common.h - What every Check program shares: the runner, and small helpers. */
#ifndef CHECK_COMMON_H
#define CHECK_COMMON_H

#include <check.h>
#include <stdlib.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* main() of a test program whose only suite is @make_suite(); TAP via CK_TAP_LOG_FILE_NAME. */
#define CHECK_MAIN(make_suite)                                   \
	int main(void)                                           \
	{                                                        \
		SRunner *sr = srunner_create(make_suite());      \
		int nfailed;                                     \
								 \
		srunner_run_all(sr, CK_NORMAL);                  \
		nfailed = srunner_ntests_failed(sr);             \
		srunner_free(sr);                                \
		return nfailed ? EXIT_FAILURE : EXIT_SUCCESS;    \
	}

#endif /* CHECK_COMMON_H */
