# SPDX-License-Identifier: MIT
# Writes a perf.data file of kernel samples in code the kernel made at run time, announced by
# PERF_RECORD_KSYMBOL (a BPF program, a BPF trampoline, an out-of-line dispatcher) and one of
# them later unregistered, for tests/kernel/test_ksymbol.sh, which compares perf's script and
# report of it with ours.
# usage: python3 ksymbol_fixture.py OUT
import struct
import sys

IP, TID, TIME, CPU = 1, 2, 4, 128
ST = IP | TID | TIME | CPU
KSYMBOL, SAMPLE = 17, 9
MISC_KERNEL = 1
TYPE_BPF, TYPE_OOL = 1, 2
UNREGISTER = 1

PROG = (0xffffffffc0100000, 0x180, TYPE_BPF, 'bpf_prog_6deef7357e7b4530_sd_fw_ingress')
TRAMP = (0xffffffffc0200000, 0x60, TYPE_BPF, 'bpf_trampoline_6442455213')
OOL = (0xffffffffc0300000, 0x1000, TYPE_OOL, 'bpf_dispatcher_xdp')


def trailer(t):
    return struct.pack('<IIQII', 7, 7, t, 1, 0)


def ksymbol(k, flags, t):
    addr, ln, typ, name = k
    b = name.encode() + b'\0'
    b = b.ljust((len(b) + 7) & ~7, b'\0')
    body = struct.pack('<QIHH', addr, ln, typ, flags) + b + trailer(t)
    return struct.pack('<IHH', KSYMBOL, MISC_KERNEL, 8 + len(body)) + body


def sample(ip, t):
    body = struct.pack('<QIIQII', ip, 7, 7, t, 1, 0)
    return struct.pack('<IHH', SAMPLE, MISC_KERNEL, 8 + len(body)) + body


def main(out):
    recs = bytearray()
    t = 1000000000
    for k in (PROG, TRAMP, OOL):
        recs += ksymbol(k, 0, t)
        t += 1000
    for i in range(30):
        for k in (PROG, TRAMP, OOL):
            recs += sample(k[0] + (i * 7) % k[1], t)
            t += 1000
    recs += ksymbol(PROG, UNREGISTER, t)
    t += 1000
    for i in range(5):
        recs += sample(PROG[0] + 0x10 + i, t)
        t += 1000
    attr = bytearray(128)
    # type SOFTWARE, size, config cpu-clock, sample_freq, sample_type, read_format, flags
    struct.pack_into('<IIQQQQQ', attr, 0, 1, 128, 0, 4000, ST, 0, (1 << 10) | (1 << 18))
    attr_entry = bytes(attr) + struct.pack('<QQ', 0, 0)
    attrs_off = 104
    data_off = attrs_off + len(attr_entry)
    h = (b'PERFILE2' + struct.pack('<QQ', 104, 128 + 16) + struct.pack('<QQ', attrs_off, len(attr_entry)) +
         struct.pack('<QQ', data_off, len(recs)) + struct.pack('<QQ', 0, 0) + struct.pack('<4Q', 0, 0, 0, 0))
    with open(out, 'wb') as f:
        f.write(h + attr_entry + recs)


if __name__ == '__main__':
    main(sys.argv[1])
