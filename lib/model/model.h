/* vcpu.h - Internal hooks into a modeled vCPU (tests: migration, races, failure injection). */
#ifndef VPMC_VCPU_H
#define VPMC_VCPU_H

#include <stdint.h>

#include "pmu.h"

struct vpmc_pmu *vpmc__vcpu_pmu(struct vpmc_vcpu *v);
const uint64_t *vpmc__vcpu_trigger_count(const struct vpmc_vcpu *v);
int vpmc__vcpu_host_wrmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t value);
int vpmc__vcpu_host_rdmsr(struct vpmc_vcpu *v, uint64_t time_ns, uint32_t msr, uint64_t *value);
#ifdef VPMC_TESTING
void vpmc__vcpu_deliver_skid(struct vpmc_vcpu *v, uint64_t time_ns);
#endif

#endif /* VPMC_VCPU_H */
