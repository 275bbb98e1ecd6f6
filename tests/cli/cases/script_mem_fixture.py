# SPDX-License-Identifier: MIT
# Writes a perf.data file of memory samples for `script`'s mem fields: one
# PERF_TYPE_RAW event named "mem-loads" (HEADER_EVENT_DESC) whose samples
# carry ADDR, DATA_SRC, WEIGHT_STRUCT, PHYS_ADDR and the data/code page sizes.
# usage: python3 script_mem_fixture.py OUT [--all]
#   default: 14 samples for the script_mem CLI case (its .out is perf 6.1's
#            text for them, byte for byte);
#   --all:   every entry of every table of perf's data_src decoding (op, lvl
#            with hit/miss, lvl_num, remote, hops, snoop, snoopx, lock, dtlb,
#            blk) and lines cut at perf's 100-byte buffer, for
#            tests/kernel/test_script.sh, which compares them with perf script.
import struct
import sys

ST = {'IP': 1, 'TID': 2, 'TIME': 4, 'ADDR': 8, 'CPU': 128, 'PERIOD': 256, 'DATA_SRC': 1 << 15,
      'PHYS_ADDR': 1 << 19, 'DATA_PAGE_SIZE': 1 << 22, 'CODE_PAGE_SIZE': 1 << 23, 'WEIGHT_STRUCT': 1 << 24}


def ds(op=0, lvl=0, snoop=0, lock=0, dtlb=0, lvlnum=0, remote=0, snoopx=0, blk=0, hops=0):
    """union perf_mem_data_src"""
    return (op | lvl << 5 | snoop << 19 | lock << 24 | dtlb << 26 | lvlnum << 33 | remote << 37 |
            snoopx << 38 | blk << 40 | hops << 43)


BASE = dict(op=2, lvl=0x2 | 0x8, snoop=2, lock=1, dtlb=0x2 | 0x8, blk=1)


def var(**kw):
    d = dict(BASE)
    d.update(kw)
    return ds(**d)


def small():
    return [
        var(),                                                   # LOAD, L1 hit, None, TLB L1 hit
        var(lvl=0x2 | 0x10, lvlnum=0xc, dtlb=0x2 | 0x8 | 0x10, lock=0),  # LFB/MAB or LFB/MAB hit
        var(op=4, lvl=0x4 | 0x40, snoop=0x10, lock=2),           # STORE, L3 miss, HitM, locked: shorter, padded
        var(lvl=0, lvlnum=8),                                    # L8: no name in 6.1
        var(lvl=0, lvlnum=9, remote=1, hops=2),                  # Remote node, same socket CXL
        var(snoop=0, snoopx=2),                                  # Peer
        var(snoop=2, snoopx=1, blk=6),                           # None or Fwd, BLK Data Addr
        var(op=0, lvl=0, snoop=0, lock=0, dtlb=0, blk=0),        # nothing set: No, N/A...
        0,
        var(op=8, lvl=0x100 | 0x400 | 2, snoop=2 | 0x10, dtlb=0x8 | 0x10 | 0x20 | 2, lock=2, blk=6),  # cut at 99
        var(op=16, lvl=1, snoop=1, dtlb=1, lvlnum=15),
        var(dtlb=0x4 | 0x20 | 0x40),                             # Walker or Fault miss
        var(lvl=0x2 | 0x80, remote=1),                           # Remote Local RAM hit
        var(),
    ]


def every():
    v = []

    def add(**kw):
        v.append(var(**kw))
    for o in [0, 1, 2, 4, 8, 16, 3, 6, 12, 24, 31]:
        add(op=o)
    for b in range(14):
        add(lvl=1 << b)
        add(lvl=(1 << b) | 2)
        add(lvl=(1 << b) | 4)
    add(lvl=0)
    add(lvl=2 | 4 | 8)
    add(lvl=2 | 8 | 0x20 | 0x40)
    add(lvl=1 | 2)
    for n in range(16):
        add(lvlnum=n)
        add(lvlnum=n, lvl=0)
    for h in range(5):   # perf 6.1 reads past its 5-entry hop table for 5..7
        add(hops=h)
        add(hops=h, remote=1, lvlnum=2)
        add(hops=h, remote=1, lvl=0, lvlnum=0)
    add(remote=1)
    add(remote=1, lvl=0)
    add(remote=1, lvl=2)
    for s in range(32):
        add(snoop=s)
    for x in range(4):
        add(snoopx=x)
        add(snoopx=x, snoop=0)
        add(snoopx=x, snoop=0x10)
    for lk in range(4):
        add(lock=lk)
    for t in range(128):
        add(dtlb=t)
    for k in range(8):
        add(blk=k)
    v.append(0)
    v.append(ds(op=1, lvl=1, snoop=1, lock=1, dtlb=1, lvlnum=15, blk=1))
    add(op=8, lvl=0x100 | 0x400 | 2, snoop=2 | 0x10, dtlb=0x8 | 0x10 | 0x20 | 2, lock=2, blk=6)
    add(op=8, lvl=0x100 | 0x200 | 2, snoop=2 | 0x10, dtlb=0x8 | 0x10 | 2, lock=2, blk=2)
    return v


# var1_dw = weight, var2_w = ins_lat, var3_w (later perf: retire_lat, not printed by 6.1)
WEIGHTS = [0, 1, 225, 0xffffffff, (7 << 32) | 5, (0xffff << 32) | 12, (3 << 48) | (9 << 32) | 100,
           0xffffffffffffffff]
# perf's unit_number__scnprintf() divides while the quotient is above 1: 1024 -> 1024B, 1G -> 1024M
PAGES = [0, 4096, 2097152, 1073741824, 1024, 2048, 65536, 512, 1048576, 3 << 30, 1 << 40]


def pstr(s):
    b = s.encode() + b'\0'
    n = (len(b) + 63) & ~63
    return struct.pack('<I', n) + b.ljust(n, b'\0')


def write(out, values):
    st = 0
    for n in ('IP', 'TID', 'TIME', 'ADDR', 'CPU', 'PERIOD', 'WEIGHT_STRUCT', 'DATA_SRC', 'PHYS_ADDR',
              'DATA_PAGE_SIZE', 'CODE_PAGE_SIZE'):
        st |= ST[n]
    attr = bytearray(128)
    # type RAW, size, config, sample_period, sample_type, read_format
    struct.pack_into('<IIQQQQ', attr, 0, 4, 128, 0x1cd, 10007, st, 0)
    recs = bytearray()
    for i, d in enumerate(values):
        body = struct.pack('<Q', 0x401000 + i)                          # IP
        body += struct.pack('<II', 42, 42)                              # TID
        body += struct.pack('<Q', 1000000000 + i * 1000)                # TIME
        body += struct.pack('<Q', 0x7ffd0000 + i * 8)                   # ADDR
        body += struct.pack('<II', i % 4, 0)                            # CPU
        body += struct.pack('<Q', 10007)                                # PERIOD
        body += struct.pack('<Q', WEIGHTS[i % len(WEIGHTS)])            # WEIGHT_STRUCT
        body += struct.pack('<Q', d)                                    # DATA_SRC
        body += struct.pack('<Q', 0x1000 * i + 0x123)                   # PHYS_ADDR
        body += struct.pack('<Q', PAGES[i % len(PAGES)])                # DATA_PAGE_SIZE
        body += struct.pack('<Q', PAGES[(i + 3) % len(PAGES)])          # CODE_PAGE_SIZE
        recs += struct.pack('<IHH', 9, 2, 8 + len(body)) + body         # SAMPLE, user
    attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)
    attrs_off = 104
    data_off = attrs_off + len(attr_entry)
    feat_off = data_off + len(recs)
    desc = struct.pack('<II', 1, 128) + bytes(attr) + struct.pack('<I', 0) + pstr('mem-loads')
    table = struct.pack('<QQ', feat_off + 16, len(desc))
    flags = [1 << 12, 0, 0, 0]                                          # HEADER_EVENT_DESC
    h = (b'PERFILE2' + struct.pack('<QQ', 104, 128 + 16) + struct.pack('<QQ', attrs_off, len(attr_entry)) +
         struct.pack('<QQ', data_off, len(recs)) + struct.pack('<QQ', 0, 0) + struct.pack('<4Q', *flags))
    with open(out, 'wb') as f:
        f.write(h + attr_entry + recs + table + desc)


if __name__ == '__main__':
    write(sys.argv[1], every() if '--all' in sys.argv[2:] else small())
