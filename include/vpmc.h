/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc.h - libvpmc: KVM's x86 emulated vPMU model, trace readers and replay. */
#ifndef VPMC_H
#define VPMC_H

/*
 * Ownership, once for the whole API: strings and pointers returned by a vpmc_* function belong to
 * the object they came from and stay valid until the next call on that object or its
 * vpmc_*_free(). Every vpmc_*_free(NULL) is a no-op. The library never prints and never exits:
 * detail of an error is returned through the object (vpmc_reader_error() ...).
 */

/* One header per object (include/vpmc/); this umbrella includes them all, as users always did. */
#include <vpmc/common.h>
#include <vpmc/conformance.h>
#include <vpmc/event.h>
#include <vpmc/gen.h>
#include <vpmc/latency.h>
#include <vpmc/model.h>
#include <vpmc/nested.h>
#include <vpmc/reader.h>
#include <vpmc/replay.h>
#include <vpmc/stat.h>
#include <vpmc/summary.h>

#endif /* VPMC_H */
