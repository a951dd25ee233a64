/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * replay-local.h - The replay engine's state (engine files only: replay.c, results.c, run.c).
 *
 * A lane is one policy: per vCPU its model, its metrics and, with an overlay, its guest
 * profiler's state. A group holds the reference model of some lanes: one group shared by all
 * lanes when the guest's actions come only from the trace, one group per lane with an overlay
 * (the guest's PMI handler runs on that policy's PMIs, so each policy's guest acts differently
 * and each needs its own reference to be compared with). With an overlay the lane also drives
 * its reference through guest segments, part by part, so that both models see the handler at
 * the same instruction.
 */
#ifndef VPMC_REPLAY_LOCAL_H
#define VPMC_REPLAY_LOCAL_H

#include "ideal.h"
#include "metrics.h"
#include "model.h"
#include "overlay.h"
#include "replay.h"

struct replay_group;
struct replay_lane;
struct vpmc_replay;

/* The reference model of one vCPU in a group, and its observations of the current event. */
struct group_vcpu {
	struct vpmc_vcpu *ref;
	struct vpmc_obs *q;          /* observations of the event being applied */
	unsigned int nq, cap;
	uint64_t watched;            /* counters whose value before the event is in c_before */
	uint64_t c_before[METRICS_NR_SLOTS];
	struct replay_group *g;
	struct vpmc_replay *r;
	bool exit_open;              /* group 0: a trace VM-exit waits for its entry, since exit_t */
	uint64_t exit_t;
};

struct replay_group {
	struct group_vcpu **vcpus;   /* by vCPU index, NULL until its first event */
	struct replay_lane **lanes;
	unsigned int nr_lanes;
};

/* One policy on one vCPU. A field that outlives an event is copied by alike.c's
 * lane_vcpu_copy(). */
struct lane_vcpu {
	/* per event first (then the metrics' per-event fields): see struct metrics_vcpu */
	struct vpmc_vcpu *pol;
	struct group_vcpu *gv;
	const struct vpmc_event *ev; /* the event being applied */
	const uint64_t *pol_triggers; /* the policy model's kvm_pmu_trigger_event() count */
	uint64_t triggers_seen;      /* ... given to the metrics so far */
	unsigned int qi;             /* reference observations of it already fed to the metrics */
	uint32_t vcpu;
	struct vpmc_replay *r;
	struct replay_lane *lane;
	uint8_t cpl;                 /* the guest's CPL as the events set it */
	bool pmi_delivered;          /* a PMI reached the guest during the event */
	bool in_handler;
	/* the trace position (ideal.h): guest instructions of the trace's segments applied so
	 * far, and where the segment being applied began */
	uint64_t pos, seg_base;
	struct metrics_vcpu m;
	/* with an overlay, a guest segment runs in parts (lane_guest()): the one being run, and
	 * where the reference stands in it */
	const struct vpmc_event *seg;
	struct vpmc__guest_progress ref_seg;
	uint64_t read_value;         /* what the guest's last READ returned */
	struct overlay_guest og;
	struct ideal_match ideal;    /* this lane's samples against the ideal guest's */
};

struct replay_lane {
	struct vpmc_policy policy;
	char name[VPMC_POLICY_NAME_MAX];
	struct replay_group *g;
	struct lane_vcpu **vcpus;    /* by vCPU index */
	uint64_t handler_runs, handler_capped;
	uint64_t capped_first_ns;    /* the first handler_capped: when, and on which vCPU */
	uint32_t capped_first_vcpu;
};

/* A sample of the ideal guest (lane 0) on a parallel replay: from the engine that runs lane 0
 * to the shards that run the policies' lanes (parallel.c). */
struct replay_ideal {
	uint32_t at;                 /* the event's place in its block of events */
	uint32_t vcpu;
	uint64_t pos, t_ns;          /* as ideal_push() takes them */
};

/* Lane 0 is the ideal guest (ideal.h): the reference policy, first at every event so that its
 * samples are known when the policies' lanes take the event; policy i is lane i + 1. */
#define REPLAY_IDEAL 0

/* vpmc_replay_add_warning(): more than any run prints (the reader keeps its first few of a kind) */
#define REPLAY_MAX_WARNINGS 64

struct vpmc_replay {
	char *warnings[REPLAY_MAX_WARNINGS]; /* vpmc_replay_add_warning() (warnings.c) */
	bool warning_input[REPLAY_MAX_WARNINGS]; /* ... by vpmc_replay_add_input_warning() */
	size_t nr_warnings;
	struct replay_lane lanes[VPMC_REPLAY_MAX_POLICIES + 1];
	unsigned int nr_lanes;
	struct replay_group *groups[VPMC_REPLAY_MAX_POLICIES + 1];
	unsigned int nr_groups;
	uint32_t nr_vcpus;           /* vCPU arrays' size: highest index seen + 1 */
	uint32_t cap_vcpus;
	uint64_t vcpu_present[VPMC_MAX_VCPUS / 64]; /* a bit per vCPU with models */
	/* vpmc_replay_event()'s view of the same states, by vCPU: lane i's on vCPU v at
	 * vlanes[v * nr_lanes + i], group i's at vgroups[v * nr_groups + i]; one vCPU's are
	 * contiguous (a lane's and a group's own vcpus[] cost a cache line each per event) */
	struct lane_vcpu **vlanes;
	struct group_vcpu **vgroups;
	struct vpmc_pmu_config cfg;  /* as KVM capped it */
	bool begun, finished;
	struct overlay ov;
	struct vpmc_cost cost;
	char cost_label[160];        /* vpmc_replay_set_cost_label(); "" for the default */
	enum vpmc_cost_tag cost_tag[VPMC_COST_MAX_PARAMS]; /* vpmc_replay_set_cost_profile() */
	bool cost_tagged;            /* cost_tag[] set */
	/* Without cost_tagged, vpmc_replay_cost_tag() compares with the default profile: parsed
	 * at its first call and kept (a parse per call was most of a report's time). */
	int default_state;           /* 0: not parsed yet, 1: parsed, -1: it failed */
	struct vpmc_cost default_cost;
	enum vpmc_cost_tag default_tag[VPMC_COST_MAX_PARAMS];
	void (*exit_fn)(void *data, unsigned int policy, const struct vpmc_exit_work *w,
			double us, double x_us);
	void (*event_fn)(void *data, const struct vpmc_event *ev, bool after);
	void *exit_data;
	uint64_t events, t_first, t_last;
	/* the trace's own exit handling: VM-exit to the vCPU's next VM-entry (as stat measures) */
	uint64_t exit_ns_sum, exits_measured;
	struct vpmc_replay_assumptions assumed;
	int err;                     /* sticky error from an observer callback or the log */
	bool segment_parts_limit;    /* the VPMC_ERR_LIMIT was SEGMENT_PARTS_MAX, not the queue */
	struct replay_log_sink log;  /* log.obs NULL: no log */
	void (*progress)(void *data, uint64_t events);
	void *progress_data;
	char *source;
	bool has_source_stats;
	struct vpmc_reader_stats source_stats;
	struct vpmc__errbuf errbuf;
	char *text;
	char warning[VPMC_ERRMSG_MAX]; /* vpmc_replay_warning(): the first --assume conflict */
	const struct vpmc_reader *rd;  /* vpmc_replay_run()'s reader while it runs, else NULL */
	/* parallel replay (parallel.c): at most this many threads (0, 1: one); the engines that
	 * ran the lanes, kept for the lanes' models and references that moved into this one */
	unsigned int threads;
	struct vpmc_replay **shards;
	unsigned int nr_shards;
	const struct replay_shard_hooks *shard_hooks; /* exit_fn's owner can run on shards */
	void *shard_data;
	/* lane 0 runs on one engine, which gives its samples to ideal_fn (it may have no
	 * policy); the shards with the policies (ideal_ext) run no lane 0 and take its samples
	 * of the event from ideal_in[0 .. ideal_n) before their lanes do */
	int (*ideal_fn)(void *data, const struct replay_ideal *sample);
	void *ideal_data;
	bool ideal_ext;
	const struct replay_ideal *ideal_in;
	unsigned int ideal_n;
	/* lanes that behave alike (alike.h): lane i follows lane lead[i]'s work (i: its own);
	 * idle lanes sit out a pass over a block (followers; lane 0 when the block runs again,
	 * rerun); the vCPUs with models at the block's start */
	bool alike, rerun;
	uint8_t lead[VPMC_REPLAY_MAX_POLICIES + 1];
	bool idle[VPMC_REPLAY_MAX_POLICIES + 1];
	uint64_t ck_present[VPMC_MAX_VCPUS / 64];
	uint32_t ck_nr_vcpus;
	/* an engine loaded from summaries: their union (replay_set_summary()) */
	void *summary;
	void (*summary_free)(void *summary);
};

/*
 * How the owner of the exit hook (latency.c) runs on a parallel replay: each shard gets hooks of
 * its own over its policies, whose results then move into the owner's. Without these the
 * hook keeps the replay on one thread.
 */
struct replay_shard_hooks {
	/* Set @shard's exit hook (its policies are added; not begun); *@out: its state. 0 or
	 * an error. */
	int (*attach)(void *data, struct vpmc_replay *shard, void **out);
	/* After the run: move @shard_data's results for its policies, the engine's from
	 * @first_policy on, into @data's; @first: the first shard (per-vCPU state from it). */
	int (*adopt)(void *data, void *shard_data, unsigned int first_policy, bool first);
	void (*release)(void *shard_data);
};

/* Let @r run on shards with @hooks (after vpmc_replay_set_exit_hook()). */
void replay_set_shard_hooks(struct vpmc_replay *r, const struct replay_shard_hooks *hooks,
			    void *data);

/* Parts of vpmc_replay_event() that a parallel replay does once, on the reading thread: the
 * --assume conflict warning, the span of times, the count of events (and progress). */
void replay_watch_conflict(struct vpmc_replay *r, const struct vpmc_event *ev);
void replay_span_add(struct vpmc_replay *r, const struct vpmc_event *ev);
void replay_count(struct vpmc_replay *r);

/* vpmc_replay_run() on threads, when r->threads and the engine allow it (parallel.c).
 * Return: 1 if it cannot (the caller runs on one thread), else as vpmc_replay_run(). */
int replay_run_parallel(struct vpmc_replay *r, struct vpmc_reader *rd);

/* The lowest vCPU index >= @v that has models, or r->nr_vcpus: walks the vCPUs in order
 * without a look at every index up to the highest (4096 with vCPU 4095). */
uint32_t replay_next_vcpu(const struct vpmc_replay *r, uint32_t v);

/* Prefix the engine's error @err with @where (a place in the trace); Return: @err. */
int replay_error_at(struct vpmc_replay *r, const char *where, int err);

/* Free what vpmc_replay_add_warning() kept (warnings.c). */
void replay_warnings_free(struct vpmc_replay *r);

#endif /* VPMC_REPLAY_LOCAL_H */
