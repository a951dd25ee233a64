/* SPDX-License-Identifier: GPL-2.0-only */
/* vpmc/stat.h - Exit statistics (vpmcsim stat), in the columns of perf kvm stat report. */
#ifndef VPMC_PUBLIC_STAT_H
#define VPMC_PUBLIC_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <vpmc/reader.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Exit statistics (vpmcsim stat): per exit reason, the time from each VM-exit to the next
 * VM-entry of the same vCPU, in the columns of perf kvm stat report.
 */
struct vpmc_stat;

/**
 * vpmc_stat_new() - Exit statistics counting every vCPU over the whole trace.
 * @out: set on success only
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_new(struct vpmc_stat **out);

/**
 * vpmc_stat_set_source() - Name the trace counted, for the JSON report's merge_state (inputs).
 * @s: statistics
 * @path: the trace's path as given (copied)
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_set_source(struct vpmc_stat *s, const char *path);

/**
 * vpmc_stat_set_vcpus() - Count only the exits of these vCPUs (and of those of earlier calls).
 * @s: statistics
 * @list: comma-separated vCPU indices and ranges, "0,2-3"
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() saying what was expected.
 */
int vpmc_stat_set_vcpus(struct vpmc_stat *s, const char *list);

/**
 * vpmc_stat_set_time() - Count only exits whose time is in [START, STOP].
 * @s: statistics
 * @range: "START,STOP" in seconds of trace time with up to 9 decimals; either may be empty
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() set.
 */
int vpmc_stat_set_time(struct vpmc_stat *s, const char *range);

/**
 * vpmc_stat_set_key() - Sort the rows as perf kvm stat report --key does, largest first.
 * @s: statistics
 * @key: "sample" (the default), "time" or "mean" (the mean time), "max", "min" (the maximum,
 *       minimum time), "percent_time" (the time of all samples); perf's "percent_sample",
 *       "mean_t", "max_t", "min_t" too
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() set.
 */
int vpmc_stat_set_key(struct vpmc_stat *s, const char *key);

/**
 * vpmc_stat_set_event() - What to time, as perf kvm stat report --event (x86 kvm-stat.c):
 * "vmexit" (the default: kvm_exit to kvm_entry, per reason), "mmio" (an MMIO write from
 * kvm_mmio to kvm_entry, an MMIO read from kvm_exit to kvm_mmio, per GPA:W / GPA:R) or "ioport"
 * (kvm_pio to kvm_entry, per PORT:POUT / PORT:PIN).
 * @s: statistics
 * @event: the name
 *
 * mmio and ioport need a reader opened with vpmc_reader_opts.accesses
 * (vpmc_stat_wants_accesses()); a .vtr has no such records (vpmc_stat_run() refuses it).
 *
 * Return: 0, or VPMC_ERR_INVAL with vpmc_stat_error() set.
 */
int vpmc_stat_set_event(struct vpmc_stat *s, const char *event);

/**
 * vpmc_stat_wants_accesses() - Does the --event need VPMC_EV_MMIO / VPMC_EV_PIO events?
 * @s: statistics
 *
 * Return: true for mmio and ioport.
 */
bool vpmc_stat_wants_accesses(const struct vpmc_stat *s);

/**
 * vpmc_stat_event() - Count one event: an EXIT opens a sample, the next ENTRY of the same vCPU
 * closes it (its time minus the exit's, ns); other event types are ignored.
 * @s: statistics
 * @ev: the event
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_event(struct vpmc_stat *s, const struct vpmc_event *ev);

/**
 * vpmc_stat_run() - Count every event of a reader.
 * @s: statistics
 * @r: an open reader
 *
 * Return: 0, or the reader's error (vpmc_stat_error() has its message), VPMC_ERR_NOMEM, or
 * VPMC_ERR_NOSUPPORT (--event mmio or ioport on a .vtr).
 */
int vpmc_stat_run(struct vpmc_stat *s, struct vpmc_reader *r);

/**
 * vpmc_stat_report() - The statistics, rows sorted by the key (vpmc_stat_set_key(): samples by
 * default), largest first, then by name; percentiles exact (nearest rank) up to 1000 samples
 * of a row, within 1 % above; CSV ends with a "Total" row of every sample.
 * @s: statistics
 * @fmt: output format
 * @out: set to the text, owned by @s until the next call or vpmc_stat_free()
 *
 * Return: 0, or VPMC_ERR_NOMEM.
 */
int vpmc_stat_report(struct vpmc_stat *s, enum vpmc_output fmt, const char **out);

/**
 * vpmc_stat_warning() - What is worth a warning once every event is counted: no exit matched
 * the vpmc_stat_set_vcpus() / vpmc_stat_set_time() selection (with the vCPUs and the time range
 * of the trace's exits), or there was no VM-exit at all. An empty table is then no surprise.
 * @s: statistics
 *
 * Return: the message, "" if none; owned by @s until the next call or vpmc_stat_free().
 */
const char *vpmc_stat_warning(struct vpmc_stat *s);

/**
 * vpmc_stat_error() - The last error's message.
 * @s: statistics
 *
 * Return: the message, "" if none; owned by @s.
 */
const char *vpmc_stat_error(const struct vpmc_stat *s);

/**
 * vpmc_stat_free() - Free exit statistics.
 * @s: statistics, or NULL
 */
void vpmc_stat_free(struct vpmc_stat *s);

#ifdef __cplusplus
}
#endif

#endif /* VPMC_PUBLIC_STAT_H */
