// SPDX-License-Identifier: GPL-2.0-only
/* event.c - Native trace event types and PMU configuration defaults (trace-format.md). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <vpmc/event.h>

#include "internal.h"

static const char *const event_names[VPMC_EV_NR] = {
	[VPMC_EV_ENTRY] = "entry",	   [VPMC_EV_EXIT] = "exit",
	[VPMC_EV_GUEST] = "guest",	   [VPMC_EV_RETIRE] = "retire",
	[VPMC_EV_WRMSR] = "wrmsr",	   [VPMC_EV_RDMSR] = "rdmsr",
	[VPMC_EV_RDPMC] = "rdpmc",	   [VPMC_EV_CPL] = "cpl",
	[VPMC_EV_LVTPC] = "lvtpc",	   [VPMC_EV_IRQ] = "irq",
	[VPMC_EV_EOI] = "eoi",		   [VPMC_EV_SCHED_OUT] = "sched_out",
	[VPMC_EV_SCHED_IN] = "sched_in",
};

/* The nested events (trace-format.md, "Nested events"), from VPMC_EV_NEXIT on. */
static const char *const nested_names[VPMC_EV_NESTED_END - VPMC_EV_NEXIT] = {
	"nexit", "ninject", "nenter", "nintercepts", "nfail", "ninval",
};

const char *vpmc_event_type_name(enum vpmc_event_type type)
{
	if ((unsigned int)type >= VPMC_EV_NEXIT && (unsigned int)type < VPMC_EV_NESTED_END)
		return nested_names[type - VPMC_EV_NEXIT];
	if ((unsigned int)type >= VPMC_EV_NR)
		return NULL;
	return event_names[type];
}

void vpmc_pmu_config_default(struct vpmc_pmu_config *cfg, enum vpmc_vendor vendor)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->vendor = vendor;
	cfg->version = 2;
	cfg->host_kernel = VPMC_KERNEL_LATEST;
	if (vendor == VPMC_VENDOR_AMD) {
		cfg->nr_gp = 6;
		cfg->gp_width = 48;
		return;
	}
	cfg->nr_gp = 8;
	cfg->nr_fixed = 3;
	cfg->gp_width = 48;
	cfg->fixed_width = 48;
	cfg->fw_writes = true;
}

const char *vpmc__kernel_name(unsigned int kernel, char *buf, size_t len)
{
	if (kernel > VPMC_KERNEL_LATEST)
		snprintf(buf, len, "%u.%u (modeled as %u.%u)", kernel >> 16, kernel & 0xffff,
			 VPMC_KERNEL_LATEST >> 16, VPMC_KERNEL_LATEST & 0xffff);
	else
		snprintf(buf, len, "%u.%u", kernel >> 16, kernel & 0xffff);
	return buf;
}
