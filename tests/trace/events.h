/* SPDX-License-Identifier: GPL-2.0-only */
/* check_events.h - Native events as .vtr-like text lines, for comparing event streams in tests
 * (formatted here, independently of the .vtr writer). */
#ifndef CHECK_EVENTS_H
#define CHECK_EVENTS_H

#include <stdio.h>

#include "vpmc.h"

/* "TIME VCPU EVENT [args]"; times divided by @time_div (1 = ns, 1000 = µs, rounded). */
static inline void format_event(const struct vpmc_event *ev, unsigned int time_div, char *buf,
				size_t len)
{
	unsigned long long t = (ev->time_ns + time_div / 2) / time_div;
	int n = snprintf(buf, len, "%llu %u %s", t, ev->vcpu, vpmc_event_type_name(ev->type));

	switch (ev->type) {
	case VPMC_EV_EXIT:
		snprintf(buf + n, len - n, " %s", ev->reason);
		break;
	case VPMC_EV_GUEST:
		snprintf(buf + n, len - n, " insn=%llu br=%llu", (unsigned long long)ev->insn,
			 (unsigned long long)ev->br);
		break;
	case VPMC_EV_RETIRE:
		snprintf(buf + n, len - n, "%s", ev->branch ? " branch" : "");
		break;
	case VPMC_EV_WRMSR:
		snprintf(buf + n, len - n, " %#x %#llx", ev->index, (unsigned long long)ev->value);
		break;
	case VPMC_EV_RDMSR:
		snprintf(buf + n, len - n, " %#x %#llx%s", ev->index,
			 (unsigned long long)ev->value, ev->has_value ? "" : " (no value)");
		break;
	case VPMC_EV_IRQ:
	case VPMC_EV_EOI:
		snprintf(buf + n, len - n, " %#x", ev->index);
		break;
	case VPMC_EV_LVTPC:
		snprintf(buf + n, len - n, " %#llx", (unsigned long long)ev->value);
		break;
	default:
		break;
	}
}

#endif /* CHECK_EVENTS_H */
