/* trace_dat.h - trace.dat (trace-cmd's binary format) as a stream of kvm records, via libtracecmd.
 *
 * Built from trace_dat.c when libtracecmd is available, from trace_dat_none.c otherwise (every
 * call then fails with VPMC_ERR_NOSUPPORT), chosen by the automake conditional.
 */
#ifndef VPMC_TRACE_DAT_H
#define VPMC_TRACE_DAT_H

#include "kvm_record.h"
#include "vpmc-internal.h"

struct trace_dat;

/**
 * trace_dat_open() - Open a trace.dat file, without host plugins (TRACECMD_FL_LOAD_NO_PLUGINS).
 * @out: set on success only
 * @path: the file
 * @err: on failure, "PATH: why"
 *
 * Return: 0; VPMC_ERR_IO (cannot open or read @path), VPMC_ERR_PARSE (libtracecmd rejects it),
 * VPMC_ERR_NOMEM, or VPMC_ERR_NOSUPPORT (built without libtracecmd).
 */
int trace_dat_open(struct trace_dat **out, const char *path, struct vpmc__errbuf *err);

/**
 * trace_dat_next() - The next record of all CPUs, in timestamp order (ties: lower CPU first).
 * @d: from trace_dat_open()
 * @rec: filled from the tracepoint's fields, as trace_text.c fills it from the text; a
 *       KVM_REC_LOST record (lost = the count, 0 if unknown) comes before a record after
 *       which the ring buffer reported dropped events
 * @err: on failure, "PATH: cpu N ts T: what"
 *
 * Return: 1 (@rec filled), 0 (end of the trace), or VPMC_ERR_PARSE.
 */
int trace_dat_next(struct trace_dat *d, struct kvm_record *rec, struct vpmc__errbuf *err);

/* Close; NULL is a no-op. */
void trace_dat_close(struct trace_dat *d);

#endif /* VPMC_TRACE_DAT_H */
