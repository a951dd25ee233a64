#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mkdat_nested.py - Write a trace.dat holding the records of a raw-ftrace kvm text.

    mkdat_nested.py FORMATS.dat TEXT OUT.dat

TEXT is `vpmcsim gen nested-pingpong --trace-format ftrace` output (kvm_exit, kvm_entry,
kvm_nested_vmexit, kvm_nested_vmexit_inject, kvm_nested_vmenter, kvm_nested_intercepts, one
vCPU per CPU). Each line becomes the binary record that its event's format in FORMATS.dat
describes (a version 6 file read with bench/mkdat.py, e.g.
traces/local-kvm/small-mixed-real.p2.v6.dat, recorded on 6.18), its fields set from the
printed values, written into ring-buffer pages of the line's CPU (trace-cmd.dat.v6(5);
ring_buffer_event: a 32-bit header of type_len (5 bits) and time delta (27 bits), then the
data). OUT keeps FORMATS.dat's headers and its kvm formats only, so that the trace.dat reader
sees the kernel's own layouts. No recorder runs on this sandbox (traces/local-kvm/README.md).
"""
import importlib.util
import os
import re
import struct
import sys

spec = importlib.util.spec_from_file_location(
    "mkdat", os.path.join(os.path.dirname(__file__), "..", "..", "bench", "mkdat.py"))
mkdat = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mkdat)

# arch/x86/include/uapi/asm/svm.h and vmx.h: the codes of the reasons the generator prints
SVM = {"vmrun": 0x80, "cpuid": 0x72, "msr": 0x7c, "io": 0x7b, "hypercall": 0x81,
       "interrupt": 0x60}
VMX = {"VMRESUME": 24, "CPUID": 10, "MSR_READ": 31, "MSR_WRITE": 32, "IO_INSTRUCTION": 30,
       "VMCALL": 18, "EXTERNAL_INTERRUPT": 1}
KVM_ISA_VMX, KVM_ISA_SVM = 1, 2


def formats(f):
    """event name -> (id, {field: (offset, size)}, record size)"""
    out = {}
    for name, evs in f["systems"]:
        if name != b"kvm":
            continue
        for text in evs:
            t = text.decode()
            ev = re.search(r"^name: (\S+)", t, re.M).group(1)
            eid = int(re.search(r"^ID: (\d+)", t, re.M).group(1))
            fields = {m.group(1): (int(m.group(2)), int(m.group(3))) for m in re.finditer(
                r"field:[^;]*?(\w+)(?:\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);", t)}
            end = max(o + s for o, s in fields.values())
            out[ev] = (eid, fields, (end + 7) & ~7)
    return out


def reason(name):
    if name in VMX:
        return VMX[name], KVM_ISA_VMX
    return SVM[name], KVM_ISA_SVM


def values(event, p):
    """the fields of one printed payload"""
    h = lambda s: int(s, 16)
    if event in ("kvm_exit", "kvm_nested_vmexit"):
        m = re.match(r"vcpu (\d+) reason (\S+) rip 0x(\w+) info1 0x(\w+) info2 0x(\w+) "
                     r"intr_info 0x(\w+) error_code 0x(\w+)", p)
        code, isa = reason(m.group(2))
        return {"vcpu_id": int(m.group(1)), "exit_reason": code, "isa": isa,
                "guest_rip": h(m.group(3)), "info1": h(m.group(4)), "info2": h(m.group(5)),
                "intr_info": h(m.group(6)), "error_code": h(m.group(7))}
    if event == "kvm_entry":
        m = re.match(r"vcpu (\d+), rip 0x(\w+)", p)
        return {"vcpu_id": int(m.group(1)), "rip": h(m.group(2))}
    if event == "kvm_nested_vmenter":
        m = re.match(r"rip: 0x(\w+) (vmcb|vmcs): 0x(\w+) nested_rip: 0x(\w+) int_ctl: 0x(\w+) "
                     r"event_inj: 0x(\w+) nested_\w+=(y|n) \w+: 0x(\w+)", p)
        return {"rip": h(m.group(1)), "vmcb": h(m.group(3)), "nested_rip": h(m.group(4)),
                "int_ctl": h(m.group(5)), "event_inj": h(m.group(6)),
                "tdp_enabled": m.group(7) == "y", "guest_pgd": h(m.group(8)),
                "isa": KVM_ISA_VMX if m.group(2) == "vmcs" else KVM_ISA_SVM}
    if event == "kvm_nested_intercepts":
        m = re.match(r"cr_read: (\w+) cr_write: (\w+) excp: (\w+) intercepts: (\w+) (\w+) (\w+)",
                     p)
        return {"cr_read": h(m.group(1)), "cr_write": h(m.group(2)),
                "exceptions": h(m.group(3)), "intercept1": h(m.group(4)),
                "intercept2": h(m.group(5)), "intercept3": h(m.group(6))}
    if event == "kvm_nested_vmexit_inject":
        m = re.match(r"reason: (\S+) ext_inf1: 0x(\w+) ext_inf2: 0x(\w+) ext_int: 0x(\w+) "
                     r"ext_int_err: 0x(\w+)", p)
        code, isa = reason(m.group(1))
        return {"exit_code": code, "isa": isa, "exit_info1": h(m.group(2)),
                "exit_info2": h(m.group(3)), "exit_int_info": h(m.group(4)),
                "exit_int_info_err": h(m.group(5))}
    sys.exit(f"mkdat_nested: no encoding for {event}")


def record(fmt, event, pid, vals):
    eid, fields, size = fmt[event]
    data = bytearray(size)
    vals = dict(vals, common_type=eid, common_pid=pid)
    for name, v in vals.items():
        off, n = fields[name]
        data[off:off + n] = int(v).to_bytes(n, "little", signed=name == "common_pid")
    return bytes(data)


LINE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+\S+\s+(\d+)\.(\d{9}): (\w+): (.*)$")


def pages(events, page_size):
    """ring-buffer pages of one CPU's (time, data) records: page header (time stamp, commit of
    8 bytes), then per record a header whose time delta is from the previous one"""
    out, page, base, last = [], bytearray(), None, 0
    for t, data in events:
        assert len(data) % 4 == 0 and len(data) <= 28 * 4
        if base is not None and (16 + len(page) + 4 + len(data) > page_size or
                                 t - last >= 1 << 27):
            out.append(struct.pack("<QQ", base, len(page)) + page +
                       bytes(page_size - 16 - len(page)))
            page, base = bytearray(), None
        if base is None:
            base = last = t
        page += struct.pack("<I", (t - last) << 5 | len(data) // 4) + data
        last = t
    if base is not None:
        out.append(struct.pack("<QQ", base, len(page)) + page + bytes(page_size - 16 - len(page)))
    return b"".join(out)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    with open(sys.argv[1], "rb") as fh:
        f = mkdat.parse(fh.read())
    fmt = formats(f)
    per_cpu = [[] for _ in range(f["cpus"])]
    with open(sys.argv[2]) as fh:
        for line in fh:
            m = LINE.match(line)
            if not m:
                sys.exit(f"mkdat_nested: not a raw ftrace line: {line!r}")
            t = int(m.group(4)) * 1000000000 + int(m.group(5))
            per_cpu[int(m.group(3))].append(
                (t, record(fmt, m.group(6), int(m.group(2)), values(m.group(6), m.group(7)))))
    f["ftrace"], f["kallsyms"], f["printk"] = [], b"", b""
    f["systems"] = [s for s in f["systems"] if s[0] == b"kvm"]
    f["cpu_data"] = [pages(evs, f["page_size"]) for evs in per_cpu]
    with open(sys.argv[3], "wb") as out:
        mkdat.write(f, out, 1, None)


if __name__ == "__main__":
    main()
