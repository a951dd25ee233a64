/* reader_report.c - What a reader saw besides events, on stderr, and its errors' exit codes;
 * the same for every command that reads a trace. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>

#include "vpmc.h"
#include "vpmcsim.h"

void vpmcsim_reader_report(const char *path, const struct vpmc_reader *r)
{
	struct vpmc_reader_stats st;
	const char *name;
	uint64_t count;
	size_t i, n;

	vpmc_reader_stats(r, &st);
	fprintf(stderr, "vpmcsim: %s: %" PRIu64 " records, %" PRIu64 " events\n", path, st.records,
		st.events);
	n = vpmc_reader_nr_unknown(r);
	if (n) {
		fprintf(stderr, "vpmcsim: %s: events not used:", path);
		for (i = 0; i < n; i++) {
			if (!vpmc_reader_unknown(r, i, &name, &count))
				fprintf(stderr, "%s %s %" PRIu64, i ? "," : "", name, count);
		}
		fputc('\n', stderr);
	}
	if (st.synthesized_entries)
		fprintf(stderr,
			"vpmcsim: %s: %" PRIu64 " VM-entries synthesized (the trace has no kvm_entry)\n",
			path, st.synthesized_entries);
	if (st.lost_markers)
		fprintf(stderr, "vpmcsim: %s: events lost: %" PRIu64 " (%" PRIu64 " markers%s)\n",
			path, st.lost_events, st.lost_markers,
			st.lost_events ? "" : ", counts unknown");
	if (st.skipped_lines)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " malformed %s%s skipped (--lenient)%s\n",
			path, st.skipped_lines,
			vpmc_reader_format(r) == VPMC_FORMAT_DAT ? "record" : "line",
			st.skipped_lines == 1 ? "" : "s",
			st.skipped_lines > 10 ? "; the first 10 follow" : "");
	if (st.unread_pages)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " ring-buffer page%s unread (corrupt)\n",
			path, st.unread_pages, st.unread_pages == 1 ? "" : "s");
	if (st.time_backwards)
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " time stamp%s went back on %s vCPU, taken "
			"as the vCPU's previous time%s\n", path, st.time_backwards,
			st.time_backwards == 1 ? "" : "s", st.time_backwards == 1 ? "its" : "their",
			st.time_backwards > 5 ? "; the first 5 follow" : "");
	/* the details: the first skipped lines and time stamps, a cut last line, unread pages */
	for (i = 0; i < vpmc_reader_nr_warnings(r); i++)
		fprintf(stderr, "vpmcsim: warning: %s\n", vpmc_reader_warning(r, i));
}

int vpmcsim_reader_exit(int err)
{
	switch (err) {
	case VPMC_ERR_NOSUPPORT:
		return EXIT_NOSUPPORT;
	case VPMC_ERR_IO: /* missing, unreadable, a directory */
		return EXIT_USAGE;
	default:          /* empty, no records, a bad line or header, a corrupt trace.dat, a
			   * trace.dat on standard input */
		return EXIT_INPUT;
	}
}
