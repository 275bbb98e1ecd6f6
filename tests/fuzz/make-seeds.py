#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seed inputs for the fuzzers from real perf.data files recorded by others.

  make-seeds.py perfdata OUT FILE...   each FILE cut to a small valid perf.data file
  make-seeds.py sample OUT FILE...     single records with their attr's config block (fuzz_sample)

Whole recordings are too big to fuzz (a 1.8 MB file costs fuzz_session
hundreds of ms per input), and a plain prefix loses what perf writes at the
end of the file (the feature sections). `perfdata` keeps the header, the
attrs and ids as they are, then a budget (--budget, bytes of records) of
the data section: samples evenly spread over the recording (40%), the
MMAP/MMAP2 records of the processes those samples belong to, then the
kernel's (35%), their COMM/FORK/EXIT records and a few of every other
record type (25%), all in file order;
then the feature sections, moved to follow the shortened data (a feature
over 24 KiB is dropped: the BPF and CACHE ones of newer perf). AUXTRACE
payloads are cut to 2 KiB (their size field says so). Pipe-mode files keep
every synthesized header record (attrs, features, event types). A file whose
records stop being parseable keeps up to 4 KiB from the damage on: the damage
is what such a file is about.

`sample` writes fuzz_sample inputs: the 32-byte config block that
tests/fuzz/fuzz_sample.c describes, built from the record's attr, then the
record; a few records of each type per file.

Output files are named after their source and are deterministic.
tests/fuzz/corpus/{fuzz_perfdata,fuzz_session,fuzz_sample}/quipper/ hold
the outputs of
  make-seeds.py perfdata DIR /work/shared/corpus/perfdata/quipper/*
  make-seeds.py sample DIR /work/shared/corpus/perfdata/quipper/*
that added coverage to the target's corpus: `fuzz_X -merge=1 -max_len=65536
COPY_OF_CORPUS DIR` named the inputs it took by SHA-1, and those files were
copied under their names (34 of 53 files for fuzz_perfdata, 51 for
fuzz_session, 15 of 292 records for fuzz_sample); quipper/regress-* are
reproducers the fuzzers made from them (mutated copies of these files: a
pipe carrying EVENT_DESC twice leaked the first). The fuzz-crashes/
directories are the 21 files of /work/shared/corpus/perfdata/fuzz-crashes/
as they are (tiny, and each must keep being refused cleanly). The licence
files perf_data_converter.LICENSE and quipper.LICENSE are copied into
every such directory.
"""
import argparse
import os
import struct
import sys

PIPE_HEADER = 16
FILE_HEADER = 104
SAMPLE = 9
AUXTRACE = 71
TRACING_DATA = 66
# records that describe a process or the kernel: kept for the processes of the kept samples
CONTEXT = {1: 'MMAP', 3: 'COMM', 4: 'EXIT', 7: 'FORK', 10: 'MMAP2', 16: 'NAMESPACES'}
PER_TYPE_CAP = 8
FEATURE_MAX = 24 << 10
AUX_MAX = 2048
DAMAGE_KEEP = 4096

S_IDENTIFIER = 1 << 16
S_IP = 1 << 0
S_TID = 1 << 1


def attr_fields(raw):
    """sample_type, read_format, flags, branch_sample_type, regs_user, regs_intr of a perf_event_attr."""
    raw = raw + bytes(max(0, 128 - len(raw)))
    size = struct.unpack_from('<I', raw, 4)[0] or 64
    raw = raw[:size] + bytes(128)

    def u64(off):
        return struct.unpack_from('<Q', raw, off)[0]
    return {
        'sample_type': u64(24),
        'read_format': u64(32),
        'flags': u64(40),
        'branch_sample_type': u64(72),
        'regs_user': u64(80),
        'regs_intr': u64(96),
    }


class Rec:
    __slots__ = ('off', 'type', 'size', 'extra', 'pid', 'keep')

    def __init__(self, off, rtype, size, extra):
        self.off, self.type, self.size, self.extra = off, rtype, size, extra
        self.pid = None
        self.keep = False


def parse(buf):
    """(mode, attrs [fields], id->attr index, data bounds, records, damage offset or None)"""
    size = struct.unpack_from('<Q', buf, 8)[0] if len(buf) >= 16 else 0
    attrs, ids = [], {}
    if buf[:8] != b'PERFILE2':
        return None
    if size == PIPE_HEADER:
        mode, start, end = 'pipe', PIPE_HEADER, len(buf)
    else:
        if len(buf) < FILE_HEADER:
            return None
        attr_size, a_off, a_sz, d_off, d_sz = struct.unpack_from('<5Q', buf, 16)
        if attr_size < 80 or a_off + a_sz > len(buf):
            return None
        for i in range(a_sz // attr_size):
            o = a_off + i * attr_size
            attrs.append(attr_fields(buf[o:o + attr_size - 16]))
            io, isz = struct.unpack_from('<2Q', buf, o + attr_size - 16)
            for k in range(min(isz, max(0, len(buf) - io)) // 8):
                ids[struct.unpack_from('<Q', buf, io + 8 * k)[0]] = i
        mode, start = 'file', d_off
        end = d_off + d_sz if d_sz else len(buf)
        end = min(end, len(buf))
    recs, pos, damage = [], start, None
    while pos + 8 <= end:
        rtype, _misc, rsize = struct.unpack_from('<IHH', buf, pos)
        if rsize < 8 or pos + rsize > end:
            damage = pos
            break
        extra = 0
        if rtype == AUXTRACE and rsize >= 16:
            extra = struct.unpack_from('<Q', buf, pos + 8)[0]
        elif rtype == TRACING_DATA and mode == 'pipe' and rsize >= 12:
            extra = (struct.unpack_from('<I', buf, pos + 8)[0] + 7) & ~7
        if pos + rsize + extra > end:
            damage = pos
            break
        r = Rec(pos, rtype, rsize, extra)
        if rtype == 64 and mode == 'pipe':  # HEADER_ATTR: attr, then its ids
            asz = struct.unpack_from('<I', buf, pos + 12)[0] or 64
            attrs.append(attr_fields(buf[pos + 8:pos + 8 + asz]))
            for k in range(max(0, rsize - 8 - asz) // 8):
                ids[struct.unpack_from('<Q', buf, pos + 8 + asz + 8 * k)[0]] = len(attrs) - 1
        recs.append(r)
        pos += rsize + extra
    if damage is None and pos < end:
        damage = pos
    return mode, attrs, ids, (start, end), recs, damage


def sample_attr(buf, r, attrs, ids):
    if not attrs:
        return None
    st = attrs[0]['sample_type']
    if st & S_IDENTIFIER and r.size >= 16:
        return attrs[ids.get(struct.unpack_from('<Q', buf, r.off + 8)[0], 0)]
    return attrs[0]


def set_pids(buf, recs, attrs, ids):
    for r in recs:
        if r.type in CONTEXT and r.size >= 16:
            r.pid = struct.unpack_from('<i', buf, r.off + 8)[0]
        elif r.type == SAMPLE:
            a = sample_attr(buf, r, attrs, ids)
            if not a or not a['sample_type'] & S_TID:
                continue
            off = 8 + 8 * bool(a['sample_type'] & S_IDENTIFIER) + 8 * bool(a['sample_type'] & S_IP)
            if off + 4 <= r.size:
                r.pid = struct.unpack_from('<i', buf, r.off + off)[0]


def select(recs, budget, pipe):
    """Marks what to keep: 40% of the budget samples, 35% mappings, 25% everything else."""
    samples = [r for r in recs if r.type == SAMPLE]
    used = 0
    if samples:
        avg = sum(r.size for r in samples) / len(samples)
        want = max(1, min(len(samples), int(budget * 0.4 / max(avg, 1))))
        step = len(samples) / want
        for k in range(want):
            r = samples[int(k * step)]
            if used + r.size > budget * 0.4 and used:
                break
            r.keep = True
            used += r.size
    pids = {r.pid for r in samples if r.keep}
    unknown = any(r.keep and r.pid is None for r in samples)
    # mappings of the sampled processes first, then the kernel's (pid -1 or 0)
    used = 0
    for kernel in (False, True):
        for r in recs:
            if r.type not in (1, 10) or r.keep:
                continue
            mine = unknown or r.pid in pids
            if (r.pid in (-1, 0)) != kernel or not (mine or kernel):
                continue
            if used + r.size <= budget * 0.35:
                r.keep = True
                used += r.size
    used, per_type = 0, {}
    for r in recs:
        if r.type in (SAMPLE, 1, 10):
            continue
        size = r.size + min(r.extra, AUX_MAX)
        if pipe and 64 <= r.type < 128 and r.type != 68:
            r.keep = True  # synthesized header records (attrs, features): the file needs them
        elif r.type in CONTEXT:
            if (unknown or r.pid in pids or r.pid in (-1, 0)) and used + size <= budget * 0.25:
                r.keep = True
                used += size
        else:
            n = per_type.get(r.type, 0)
            if n < PER_TYPE_CAP and used + size <= budget * 0.25:
                per_type[r.type] = n + 1
                r.keep = True
                used += size


def emit_records(buf, recs, out):
    for r in recs:
        if not r.keep:
            continue
        if r.type == AUXTRACE and r.extra > AUX_MAX:
            rec = bytearray(buf[r.off:r.off + r.size])
            struct.pack_into('<Q', rec, 8, AUX_MAX)
            out += rec + buf[r.off + r.size:r.off + r.size + AUX_MAX]
        else:
            out += buf[r.off:r.off + r.size + r.extra]


def shrink(buf, budget):
    p = parse(buf)
    if not p:
        return bytes(buf[:DAMAGE_KEEP])  # not a perf.data file we can walk: a short prefix
    mode, attrs, ids, (start, end), recs, damage = p
    set_pids(buf, recs, attrs, ids)
    select(recs, budget, mode == 'pipe')
    out = bytearray(buf[:start])
    emit_records(buf, recs, out)
    if damage is not None:
        out += buf[damage:min(end, damage + DAMAGE_KEEP)]
    if mode == 'pipe':
        return bytes(out)
    data_size = len(out) - start
    struct.pack_into('<Q', out, 48, data_size)
    # features: the table at the old data end, one section per set bit, ascending
    feat = int.from_bytes(buf[72:104], 'little')
    bits = [i for i in range(256) if feat >> i & 1]
    old_tab = start + struct.unpack_from('<Q', buf, 48)[0]
    secs = []
    for k, bit in enumerate(bits):
        o = old_tab + 16 * k
        if o + 16 > len(buf):
            break
        off, size = struct.unpack_from('<2Q', buf, o)
        if size > FEATURE_MAX or off + size > len(buf):
            continue
        secs.append((bit, off, size))
    new_feat = 0
    for bit, _o, _s in secs:
        new_feat |= 1 << bit
    out[72:104] = new_feat.to_bytes(32, 'little')
    tab = len(out)
    out += bytes(16 * len(secs))
    for k, (bit, off, size) in enumerate(secs):
        struct.pack_into('<2Q', out, tab + 16 * k, len(out), size)
        out += buf[off:off + size]
    return bytes(out)


def config_block(a):
    cfg = bytearray(32)
    struct.pack_into('<Q', cfg, 0, a['sample_type'])
    cfg[8] = a['read_format'] & 0xff
    cfg[9] = (1 if a['branch_sample_type'] & (1 << 17) else 0) | (2 if a['branch_sample_type'] & (1 << 19) else 0)
    cfg[10] = 1 if a['flags'] & (1 << 18) else 0
    cfg[11] = 0 if a['sample_type'] < (1 << 25) else 1  # keep bits newer than PERF_SAMPLE_MAX's
    struct.pack_into('<Q', cfg, 12, a['regs_user'])
    struct.pack_into('<Q', cfg, 20, a['regs_intr'])
    return bytes(cfg)


def records_for_sample(buf, per_type):
    p = parse(buf)
    if not p:
        return []
    _mode, attrs, ids, _bounds, recs, _damage = p
    if not attrs:
        return []
    out, seen = [], {}
    for r in recs:
        if r.type >= 64:
            continue
        # SAMPLE: one per distinct size (layouts differ: callchain depth, branch count)
        key = (r.type, r.size if r.type == SAMPLE else 0)
        if key in seen or sum(1 for k in seen if k[0] == r.type) >= per_type:
            continue
        seen[key] = True
        a = sample_attr(buf, r, attrs, ids) if r.type == SAMPLE else attrs[0]
        out.append((r.type, config_block(a) + buf[r.off:r.off + r.size]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('kind', choices=['perfdata', 'sample'])
    ap.add_argument('out')
    ap.add_argument('files', nargs='+')
    ap.add_argument('--budget', type=int, default=16 << 10, help='bytes of data records per perf.data seed')
    ap.add_argument('--per-type', type=int, default=3, help='records of one type per file (sample)')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for path in args.files:
        with open(path, 'rb') as f:
            buf = f.read()
        name = os.path.basename(path)
        if args.kind == 'perfdata':
            with open(os.path.join(args.out, name), 'wb') as f:
                f.write(shrink(buf, args.budget))
        else:
            for i, (rtype, data) in enumerate(records_for_sample(buf, args.per_type)):
                with open(os.path.join(args.out, '%s.t%d.%d' % (name, rtype, i)), 'wb') as f:
                    f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main())
