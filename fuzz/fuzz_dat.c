// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_dat.c - libFuzzer target: trace.dat through libtracecmd and the importer. libtracecmd
 * reads files only, so each input is written to one temporary file (kept for the process). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "import.h"
#include "dat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

static void remove_input(void)
{
	unlink(path);
}

static int input_file(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0) {
		snprintf(path, sizeof(path), "%s/vpmc-fuzz-dat-XXXXXX", P_tmpdir);
		fd = mkstemp(path);
		if (fd < 0)
			return -1;
		atexit(remove_input);
	}
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		return -1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct kvm_import_opts o = {
		.guest_ips = KVM_IMPORT_DEFAULT_GUEST_IPS,
		.guest_branch_permille = KVM_IMPORT_DEFAULT_BRANCH_PERMILLE,
		.host_kernel = VPMC_KERNEL_LATEST,
	};
	struct vpmc__errbuf err;
	struct kvm_import *im;
	struct trace_dat *d;
	struct kvm_record r;
	struct vpmc_event ev;

	if (input_file(data, size) || trace_dat_open(&d, path, true, &err))
		return 0;
	if (kvm_import_new(&im, &o)) {
		trace_dat_close(d);
		return 0;
	}
	while (trace_dat_next(d, &r, &err) == 1 && !kvm_import_push(im, &r))
		while (kvm_import_pop(im, &ev) == 1)
			;
	kvm_import_finish(im);
	while (kvm_import_pop(im, &ev) == 1)
		;
	kvm_import_free(im);
	trace_dat_close(d);
	return 0;
}
