// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_vtr.c - libFuzzer target: the strict .vtr reader (vpmc_reader_open_mem, VPMC_FORMAT_VTR). */
#include "config.h"

#include "reader.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_read_mem(VPMC_FORMAT_VTR, data, size);
	return 0;
}
