// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_text.c - libFuzzer target: kvm tracepoint text through the parser and the importer. */
#include "config.h"

#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_mem(VPMC_FORMAT_TEXT, data, size);
	return 0;
}
