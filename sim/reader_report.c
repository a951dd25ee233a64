/* reader_report.c - What a reader saw besides events, on stderr (every command that reads). */
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
		fprintf(stderr, "vpmcsim: %s: %" PRIu64 " malformed lines skipped\n", path,
			st.skipped_lines);
	if (st.truncated_tail)
		fprintf(stderr, "vpmcsim: %s: the last line is cut short (ignored)\n", path);
	for (i = 0; i < vpmc_reader_nr_warnings(r); i++)
		fprintf(stderr, "vpmcsim: warning: %s\n", vpmc_reader_warning(r, i));
}
