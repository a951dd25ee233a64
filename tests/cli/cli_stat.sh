#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# cli_stat.sh - vpmcsim stat on small traces written here, every number counted by hand from
# the lines below (issue 17: the hold for a thread's vCPU, exit names, --key, --event, --vcpu,
# percentiles, the CSV total row).
. "${top_srcdir:-$(dirname "$0")/../..}/tests/tap.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vpmc-stat.XXXXXX")
trap 'rm -rf "$tmp" "$tap_out" "$tap_out.err"' EXIT

tap_plan 14

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

# ---- item 8: one exit name per exit ---------------------------------------------------------
# The same SVM MSR exit (SVM_EXIT_MSR, 0x07c) as trace-cmd's plugin prints it (EXIT_MSR) and as
# the kernel does (msr): 1 us and 3 us, one row "msr" with 2 samples in JSON.
cat >"$tmp/svm.txt" <<'T'
 qemu-system-x86-4242  [001]    10.000010: kvm_exit:             reason EXIT_MSR rip 0x400433 info1 0x0000000000000001 info2 0x0000000000000000
 qemu-system-x86-4242  [001]    10.000011: kvm_entry:            vcpu 0
 qemu-system-x86-4242  [001]    10.000020: kvm_exit:             vcpu 0 reason msr rip 0x400433 info1 0x0000000000000001 info2 0x0000000000000000 intr_info 0x00000000 error_code 0x00000000
 qemu-system-x86-4242  [001]    10.000023: kvm_entry:            vcpu 0
T
$vpmcsim stat --format json "$tmp/svm.txt" >"$tmp/svm.json" 2>/dev/null
[ "$(jq -c '[.exits[] | [.reason, .samples, .time_ns_min, .time_ns_max]]' "$tmp/svm.json")" = \
	'[["msr",2,1000,3000]]' ]
tap_result $? exit-name-plugin-and-kernel-one-row

# ---- item 10: --event, --key, --vcpu, the CSV total row ----------------------------------------
# vCPU 0: exit 10 us, MMIO write 0xfee000b0 at 12, entry 15 (3 us from the write); exit 30,
# unsatisfied read 31 (neither begin nor end), MMIO read 0xfebf0000 at 36 (6 us from the exit),
# entry 40; exit 50, OUT to 0x3f8 at 51, entry 53 (2 us from kvm_pio); exit 60, IN from 0x3fd
# at 61, entry 70 (9 us).
cat >"$tmp/acc.txt" <<'T'
 qemu-4242  [001]    10.000010: kvm_exit:             vcpu 0 reason EPT_MISCONFIG rip 0xffffffff81000000 info 0 0
 qemu-4242  [001]    10.000012: kvm_mmio:             mmio write len 4 gpa 0xfee000b0 val 0x0
 qemu-4242  [001]    10.000015: kvm_entry:            vcpu 0
 qemu-4242  [001]    10.000030: kvm_exit:             vcpu 0 reason EPT_MISCONFIG rip 0xffffffff81000000 info 0 0
 qemu-4242  [001]    10.000031: kvm_mmio:             mmio unsatisfied-read len 4 gpa 0xfebf0000 val 0x0
 qemu-4242  [001]    10.000036: kvm_mmio:             mmio read len 4 gpa 0xfebf0000 val 0x1
 qemu-4242  [001]    10.000040: kvm_entry:            vcpu 0
 qemu-4242  [001]    10.000050: kvm_exit:             vcpu 0 reason IO_INSTRUCTION rip 0xffffffff81000000 info 0 0
 qemu-4242  [001]    10.000051: kvm_pio:              pio_write at 0x3f8 size 1 count 1 val 0x41
 qemu-4242  [001]    10.000053: kvm_entry:            vcpu 0
 qemu-4242  [001]    10.000060: kvm_exit:             vcpu 0 reason IO_INSTRUCTION rip 0xffffffff81000000 info 0 0
 qemu-4242  [001]    10.000061: kvm_pio:              pio_read at 0x3fd size 1 count 1 val 0x60
 qemu-4242  [001]    10.000070: kvm_entry:            vcpu 0
T
check event-mmio 0 "        0xfebf0000:R          1    50.00%    66.67%      6.00us" \
	$vpmcsim stat --event mmio "$tmp/acc.txt"
check event-mmio-write 0 "        0xfee000b0:W          1    50.00%    33.33%      3.00us" \
	$vpmcsim stat --event mmio "$tmp/acc.txt"
# 2 + 9 us: POUT 18.18 %, PIN 81.82 %; --key min puts 0x3fd:PIN (9 us) first
$vpmcsim stat --event ioport --key min --format csv "$tmp/acc.txt" >"$tmp/io.csv" 2>/dev/null
[ "$(sed 1d "$tmp/io.csv")" = "0x3fd:PIN,1,50.00,81.82,9000,9000,9000.0,0.00,9000,9000
0x3f8:POUT,1,50.00,18.18,2000,2000,2000.0,0.00,2000,2000
Total,2,100.00,100.00,2000,9000,5500.0,63.64,2000,9000" ]
tap_result $? event-ioport-key-min-csv-total
# vmexit: EPT_MISCONFIG 5 + 10 us, IO_INSTRUCTION 3 + 10 us: 28 us in all
check event-vmexit-default 0 "Total Samples:4, Total events handled time:28.00us." \
	$vpmcsim stat "$tmp/acc.txt"
check vcpu-header 0 "Analyze events for all VMs, VCPU 0:" $vpmcsim stat --vcpu 0 "$tmp/acc.txt"
check event-on-vtr 3 "vpmcsim: $tmp/phantom.vtr: --event mmio: a .vtr has no kvm_mmio or kvm_pio records" \
	$vpmcsim stat --event mmio "$tmp/phantom.vtr"
check bad-key 2 "vpmcsim: stat: --key 'samples': expected sample, time, max, min or mean" \
	$vpmcsim stat --key samples "$tmp/acc.txt"
check bad-event 2 "vpmcsim: stat: --event 'pio': expected vmexit, mmio or ioport" \
	$vpmcsim stat --event pio "$tmp/acc.txt"
check key-twice 2 "vpmcsim: stat: --key given twice ('max', 'min')" \
	$vpmcsim stat --key max --key min "$tmp/acc.txt"

tap_done
