#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_stat.sh - vpmcsim stat on small traces written here, every number counted by hand from
# the lines below (issue 17: the hold for a thread's vCPU, exit names, --key, --event, --vcpu,
# percentiles, the CSV total row).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-stat.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT

tap_plan 4

# ---- item 6: an old-layout kvm_exit (no vcpu field) before the thread's first "vcpu N" -------
# exit (10 us) -> entry vcpu 20 (15 us) -> exit (30 us) -> entry vcpu 20 (38 us), one thread:
# two samples of EPT_VIOLATION, 5 us and 8 us, 13 us in all, all on vCPU 20 (none on a vCPU 0).
cat >"$tmp/phantom.txt" <<'T'
 qemu-system-x86-4242  [001]    10.000010: kvm_exit:             reason EPT_VIOLATION rip 0xffffffff81000000 info 184 0
 qemu-system-x86-4242  [001]    10.000015: kvm_entry:            vcpu 20
 qemu-system-x86-4242  [001]    10.000030: kvm_exit:             reason EPT_VIOLATION rip 0xffffffff81000000 info 184 0
 qemu-system-x86-4242  [001]    10.000038: kvm_entry:            vcpu 20
T
check phantom-two-samples 0 "Total Samples:2, Total events handled time:13.00us." \
	$vpmcsim stat "$tmp/phantom.txt"
check phantom-vcpu-20 0 "Total Samples:2," $vpmcsim stat --vcpu 20 "$tmp/phantom.txt"
check phantom-no-vcpu-0 0 "no exit matched --vcpu 0 (the trace's exits are on vCPU 20," \
	$vpmcsim stat --vcpu 0 "$tmp/phantom.txt"
# one vCPU: every event line of the conversion is on vCPU 20
$vpmcsim convert --guest-ips 0 "$tmp/phantom.txt" -o "$tmp/phantom.vtr" 2>/dev/null &&
	[ "$(grep -v '^!' "$tmp/phantom.vtr" | awk '{ print $2 }' | sort -u)" = 20 ]
tap_result $? phantom-one-vcpu

tap_done
