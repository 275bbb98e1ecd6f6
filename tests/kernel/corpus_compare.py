#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two perf-layout `report --stdio -n` outputs (perf's and ours) row by row.

Usage: corpus_compare.py PERF_TXT PMS_TXT [--tol POINTS] [--dso-level DSO]...

Both reports must be made with the same --sort keys and `-n` (so each row has
an exact sample count; perf's "# Samples: 19K" header is rounded). Columns are
cut at the positions of the dotted header line, so names with spaces parse.
Sections are matched by event name, in order. Prints one line: "agree ..." or
"differ: <reason>", and exits 0 or 1.

Two allowances, both stated in the verdict line when used:
- Text is compared as wide as perf's column: perf 6.1 sizes its Command column
  from a thread's last comm, so an earlier, longer comm of the same thread is
  cut ("perf-exec" shows as "perf-ex").
- --dso-level DSO: rows of that object are compared per (comm, object), not per
  symbol (the caller says why: e.g. perf names a [vdso] that has no recorded
  build-id with this machine's vDSO).
"""
import argparse
import re
import sys


def parse(path, widths=None, coarse=()):
    """[(event, {key: (pct, samples)})] per '# Samples:' section.

    widths: perf's column widths per section (cut our text to them);
    coarse: object names whose rows merge per (comm, object)."""
    sections = []
    cur = None
    cols = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"# Samples: \S+\s+of events? '(.*)'$", line)
            if m:
                cur = {"event": m.group(1), "rows": {}, "widths": None, "cut": 0}
                sections.append(cur)
                cols = None
                continue
            if cur is None:
                continue
            if line.startswith("# ") and set(line[2:].replace(" ", "")) == {"."}:
                cols = [(m.start(), m.end()) for m in re.finditer(r"\.+", line)]
                cur["widths"] = [b - a for a, b in cols]
                continue
            if line.startswith("#") or not line.strip() or cols is None:
                continue
            if "%" not in line[: cols[0][1] + 2]:
                continue
            fields = []
            for i, (a, b) in enumerate(cols):
                end = cols[i + 1][0] if i + 1 < len(cols) else len(line)
                fields.append(line[a:end].strip() if i + 1 < len(cols) else line[a:].strip())
            try:
                pct = float(fields[0].rstrip("%"))
                n = int(fields[1])
            except ValueError:
                continue
            key = list(fields[2:])
            ref = widths[len(sections) - 1] if widths and len(sections) <= len(widths) else None
            if ref:
                for i in range(len(key) - 1):
                    w = ref[i + 2] if i + 2 < len(ref) else None
                    if w and len(key[i]) > w:
                        key[i] = key[i][:w]
                        cur["cut"] += 1
            if len(key) >= 3 and key[-2] in coarse:
                key[-1] = "*"
            key = tuple(key)
            old = cur["rows"].get(key)
            if old:
                pct, n = pct + old[0], n + old[1]
            cur["rows"][key] = (pct, n)
    return sections


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("perf")
    ap.add_argument("pms")
    ap.add_argument("--tol", type=float, default=0.5)
    ap.add_argument("--dso-level", action="append", default=[])
    args = ap.parse_args()
    a = parse(args.perf, coarse=set(args.dso_level))
    b = parse(args.pms, widths=[s["widths"] for s in a], coarse=set(args.dso_level))
    tol = args.tol
    if not a:
        print("differ: no sample sections in perf's report")
        return 1
    if [s["event"] for s in a] != [s["event"] for s in b]:
        print("differ: events %s vs %s" % ([s["event"] for s in a], [s["event"] for s in b]))
        return 1
    worst = 0.0
    total = 0
    for sa, sb in zip(a, b):
        na = sum(v[1] for v in sa["rows"].values())
        nb = sum(v[1] for v in sb["rows"].values())
        total += na
        if na != nb:
            print("differ: event '%s': %d samples vs %d" % (sa["event"], na, nb))
            return 1
        bad = []
        for k in set(sa["rows"]) | set(sb["rows"]):
            pa = sa["rows"].get(k, (0.0, 0))[0]
            pb = sb["rows"].get(k, (0.0, 0))[0]
            d = abs(pa - pb)
            worst = max(worst, d)
            if d > tol:
                bad.append((d, k, pa, pb))
        if bad:
            bad.sort(reverse=True)
            msg = "; ".join("%s %.2f%% vs %.2f%%" % ("|".join(k), pa, pb) for d, k, pa, pb in bad[:3])
            print("differ: event '%s': %d rows off by more than %.1f points: %s"
                  % (sa["event"], len(bad), tol, msg))
            return 1
    notes = []
    cut = sum(s["cut"] for s in b)
    if cut:
        notes.append("%d names cut to perf's column width" % cut)
    if args.dso_level:
        notes.append("%s compared per object" % ", ".join(args.dso_level))
    print("agree: %d events, %d samples, worst row %.2f points%s"
          % (len(a), total, worst, " (" + "; ".join(notes) + ")" if notes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
