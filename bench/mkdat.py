#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""mkdat.py - Write a trace.dat (file version 6, uncompressed) from another one, repeated.

    mkdat.py IN.dat OUT.dat [--repeat N] [--strip] [--events NAME,...] [--pages N]
             [--bare] [--option ID=TEXT]...

IN must be a version 6 file without compression (trace-cmd convert --file-version 6
--compression none IN7.dat IN.dat). The CPU data of OUT is IN's ring-buffer pages written N
times, each copy's page time stamps shifted past the previous copy, so OUT is one longer,
valid recording (events carry time deltas relative to their page). --strip drops kallsyms,
printk formats, the ftrace formats and every event system but "kvm" (small fuzzing seeds);
--events keeps only the formats of the events named (the pages keep their other records, whose
ids then have no format); --pages keeps only the first N pages of each CPU; --bare empties each
format's print fmt (`print fmt: ""`) and the saved cmdlines: most of what libtraceevent and
libtracecmd parse at an open, and nothing the readers use (fuzzing seeds); --option adds an
option whose data is TEXT and a NUL (7=N: OFFSET, N ns added to every time stamp). Neither
Debian's libtracecmd nor trace-cmd offers a writer for this: `trace-cmd record` does not run on
this sandbox (build-recipe.md 5).
Layout: trace-cmd.dat.v6(5).
"""
import argparse
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        b = self.d[self.p:self.p + n]
        if len(b) != n:
            sys.exit("mkdat: input truncated")
        self.p += n
        return b

    def num(self, n):
        return int.from_bytes(self.take(n), "little")

    def string(self):
        e = self.d.index(b"\0", self.p)
        s = self.d[self.p:e]
        self.p = e + 1
        return s

    def block(self, size_bytes):
        return self.take(self.num(size_bytes))


def parse(data):
    r = Reader(data)
    f = {}
    if r.take(10) != b"\x17\x08Dtracing" or r.string() != b"6":
        sys.exit("mkdat: input is not a version 6 trace.dat")
    f["endian"], f["long"] = r.take(1), r.take(1)
    if f["endian"] != b"\0":
        sys.exit("mkdat: big-endian input not supported")
    f["page_size"] = r.num(4)
    assert r.take(12) == b"header_page\0"
    f["header_page"] = r.block(8)
    assert r.take(13) == b"header_event\0"
    f["header_event"] = r.block(8)
    f["ftrace"] = [r.block(8) for _ in range(r.num(4))]
    f["systems"] = []
    for _ in range(r.num(4)):
        name = r.string()
        f["systems"].append((name, [r.block(8) for _ in range(r.num(4))]))
    f["kallsyms"], f["printk"], f["cmdlines"] = r.block(4), r.block(4), r.block(8)
    f["cpus"] = r.num(4)
    f["options"] = []
    tag = r.take(10)
    if tag.startswith(b"options"):
        while True:
            oid = r.num(2)
            if not oid:
                break
            f["options"].append((oid, r.block(4)))
        tag = r.take(10)
    if tag != b"flyrecord\0":
        sys.exit("mkdat: only flyrecord files are supported")
    f["cpu_data"] = []
    for _ in range(f["cpus"]):
        off, size = r.num(8), r.num(8)
        f["cpu_data"].append(data[off:off + size])
    return f


def bare_format(text):
    """An event format with an empty print fmt: the same fields, a valid event."""
    at = text.find(b"\nprint fmt:")
    return text if at < 0 else text[:at] + b'\nprint fmt: ""\n'


def pages(cpu_data, page_size):
    return [cpu_data[i:i + page_size] for i in range(0, len(cpu_data), page_size)]


def write(f, out, repeat, max_pages):
    ps = f["page_size"]
    per_cpu = [pages(d, ps)[:max_pages] for d in f["cpu_data"]]
    stamps = [struct.unpack_from("<Q", p)[0] for ps_ in per_cpu for p in ps_]
    span = (max(stamps) - min(stamps) + 1000000) if stamps else 0
    w = bytearray(b"\x17\x08Dtracing6\0" + f["endian"] + f["long"] + struct.pack("<I", ps))
    w += b"header_page\0" + struct.pack("<Q", len(f["header_page"])) + f["header_page"]
    w += b"header_event\0" + struct.pack("<Q", len(f["header_event"])) + f["header_event"]
    w += struct.pack("<I", len(f["ftrace"]))
    for b in f["ftrace"]:
        w += struct.pack("<Q", len(b)) + b
    w += struct.pack("<I", len(f["systems"]))
    for name, evs in f["systems"]:
        w += name + b"\0" + struct.pack("<I", len(evs))
        for b in evs:
            w += struct.pack("<Q", len(b)) + b
    w += struct.pack("<I", len(f["kallsyms"])) + f["kallsyms"]
    w += struct.pack("<I", len(f["printk"])) + f["printk"]
    w += struct.pack("<Q", len(f["cmdlines"])) + f["cmdlines"]
    w += struct.pack("<I", f["cpus"]) + b"options  \0"
    for oid, b in f["options"]:
        w += struct.pack("<HI", oid, len(b)) + b
    w += struct.pack("<H", 0) + b"flyrecord\0"
    table = len(w)
    w += bytes(16 * f["cpus"])
    offsets = []
    for cpu_pages in per_cpu:
        w += bytes(-len(w) % ps)
        start = len(w)
        for k in range(repeat):
            for p in cpu_pages:
                page = bytearray(p)
                ts = struct.unpack_from("<Q", page)[0]
                struct.pack_into("<Q", page, 0, ts + k * span)
                w += page
        offsets.append((start, len(w) - start))
    for i, (off, size) in enumerate(offsets):
        struct.pack_into("<QQ", w, table + 16 * i, off, size)
    out.write(w)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--strip", action="store_true")
    ap.add_argument("--events", default=None, metavar="NAME,...")
    ap.add_argument("--pages", type=int, default=None)
    ap.add_argument("--bare", action="store_true")
    ap.add_argument("--option", action="append", default=[], metavar="ID=TEXT",
                    help="add option ID with TEXT (NUL-terminated), e.g. 7=1000000000: OFFSET")
    a = ap.parse_args()
    with open(a.input, "rb") as fh:
        f = parse(fh.read())
    if a.strip:
        f["ftrace"], f["kallsyms"], f["printk"] = [], b"", b""
        f["systems"] = [s for s in f["systems"] if s[0] == b"kvm"]
    if a.events:
        keep = set(a.events.encode().split(b","))
        f["systems"] = [(name, [b for b in evs if b.split(b"\n", 1)[0][6:] in keep])
                        for name, evs in f["systems"]]
    if a.bare:
        f["systems"] = [(name, [bare_format(b) for b in evs]) for name, evs in f["systems"]]
        f["cmdlines"] = b""
    for opt in a.option:
        oid, text = opt.split("=", 1)
        f["options"].append((int(oid), text.encode() + b"\0"))
    with open(a.output, "wb") as out:
        write(f, out, a.repeat, a.pages)


if __name__ == "__main__":
    main()
