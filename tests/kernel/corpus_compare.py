#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two perf-layout `report --stdio -n` outputs (perf's and ours) row by row.

Usage: corpus_compare.py PERF_TXT PMS_TXT [--tol POINTS] [--dso-level DSO]...

Both reports must be made with the same --sort keys and `-n` (so each row has
an exact sample count; perf's "# Samples: 19K" header is rounded). Columns are
cut at the positions of the dotted header line, so names with spaces parse.
Sections are matched by event name, in order; both must name the same rows
(a row only one side has is a difference, however small), each within the
tolerance. Prints one line: "agree ..." or "differ: <reason>", and exits 0
or 1.

The value columns are told by their titles: "Overhead" (or "Children" and
"Self"), then "Samples"; the rest are keys. A group view ("of events 'anon
group { a, b }'") has one percentage and one -n samples column per member side
by side: each member's percentages are compared within the tolerance and each
member's sample total must be equal.
Branch mode (columns "Source Shared Object", "Source Symbol", "Target Symbol",
"Basic Block Cycles") needs nothing more: its columns are keys like any other.

Four allowances, each stated in the verdict line when used:
- Text is compared as wide as perf's column: perf 6.1 sizes its Command column
  from a thread's last comm, so an earlier, longer comm of the same thread is
  cut ("perf-exec" shows as "perf-ex").
- --dso-level DSO: rows of that object are compared per (comm, object), not per
  symbol (the caller says why: e.g. perf names a [vdso] that has no recorded
  build-id with this machine's vDSO). In branch mode a row whose source object
  is DSO is compared without its source and target symbols, and one whose
  target object is DSO (a "Target Shared Object" column, --sort ...,dso_to)
  without its target symbol.
- perf's "IPC [IPC Coverage]" column (branch mode with a --sort that names a
  symbol) is left out: pmuscope has none (docs/report.md).
- An address outside every map that perf shows in two rows, once per level
  ("[k] 0x..." and "[.] 0x..."), is compared as one row on both sides: perf
  keys such rows by address alone, but its address comparison,
  (int64_t)(right - left), wraps for addresses 2^63 or more apart, so its
  tree can miss the existing row and start a second one. pmuscope keeps one.
"""
import argparse
import re
import sys


def parse(path, widths=None, coarse=()):
    """[(event, {key: (pcts, samples)})] per '# Samples:' section.

    samples is a tuple with one value per group member (one for an event); pcts
    has one per member and percentage column (Overhead, or Children then Self).
    widths: perf's column widths per section (cut our text to them);
    coarse: object names whose rows merge per (comm, object)."""
    sections = []
    cur = None
    cols = None
    titles = []
    prev = ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            title_line, prev = prev, line
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
                titles = [title_line[a:(cols[i + 1][0] if i + 1 < len(cols) else len(title_line))].strip()
                          for i, (a, b) in enumerate(cols)]
                continue
            if line.startswith("#") or not line.strip() or cols is None:
                continue
            if "%" not in line[: cols[0][1] + 2]:
                continue
            fields = []
            for i, (a, b) in enumerate(cols):
                end = cols[i + 1][0] if i + 1 < len(cols) else len(line)
                fields.append(line[a:end].strip() if i + 1 < len(cols) else line[a:].strip())
            nv = 0
            while nv < len(titles) and titles[nv] in ("Children", "Self", "Overhead", "Samples"):
                nv += 1
            if "Samples" not in titles[:nv]:
                continue  # -n is required: perf's header count is rounded
            try:
                pct = tuple(float(x.rstrip("%")) for i in range(nv) if titles[i] != "Samples"
                            for x in fields[i].split())
                n = tuple(int(x) for x in fields[titles.index("Samples")].split())
            except ValueError:
                continue
            if not n or len(pct) % len(n):
                continue
            key = list(fields[nv:])
            ref = widths[len(sections) - 1] if widths and len(sections) <= len(widths) else None
            if ref:
                for i in range(len(key) - 1):
                    w = ref[i + nv] if i + nv < len(ref) else None
                    if w and len(key[i]) > w:
                        key[i] = key[i][:w]
                        cur["cut"] += 1
            names = titles[nv:]
            if "Source Shared Object" in names:
                i = names.index("Source Shared Object")
                if i < len(key) and key[i] in coarse:
                    for t in ("Source Symbol", "Target Symbol"):
                        if t in names and names.index(t) < len(key):
                            key[names.index(t)] = "*"
                # with a Target Shared Object column (--sort ...,dso_to), the target side alike
                if "Target Shared Object" in names:
                    i = names.index("Target Shared Object")
                    t = names.index("Target Symbol") if "Target Symbol" in names else -1
                    if i < len(key) and key[i] in coarse and 0 <= t < len(key):
                        key[t] = "*"
            elif len(key) >= 3 and key[-2] in coarse:
                key[-1] = "*"
            # perf's "IPC [IPC Coverage]" column (branch mode, --sort naming a symbol): not a key,
            # and pmuscope has no such column (docs/report.md)
            if any(t.startswith("IPC") for t in names):
                cur["ipc"] = True
            key = tuple(v for i, v in enumerate(key) if not (i < len(names) and names[i].startswith("IPC")))
            old = cur["rows"].get(key)
            if old:
                pct = tuple(a + b for a, b in zip(pct, old[0]))
                n = tuple(a + b for a, b in zip(n, old[1]))
            cur["rows"][key] = (pct, n)
    return sections


UNMAPPED = re.compile(r"\[(.)\] (0x[0-9a-f]+|[0-9a-f]{16})$")


def unmapped_key(k):
    """(comm.., dso, address) of a [unknown] row's key, level left out, or None."""
    if len(k) >= 2 and k[-2] == "[unknown]":
        m = UNMAPPED.match(k[-1])
        if m:
            return k[:-1] + ("[*] " + m.group(2),)
    return None


def merge_rows(rows, targets):
    """rows with the keys whose level-free key is in targets merged under that key."""
    out = {}
    for k, (pct, n) in rows.items():
        u = unmapped_key(k)
        k = u if u in targets else k
        old = out.get(k)
        if old:
            pct = tuple(a + b for a, b in zip(pct, old[0]))
            n = tuple(a + b for a, b in zip(n, old[1]))
        out[k] = (pct, n)
    return out


def merge_level_splits(sa, sb):
    """Merge perf's per-level rows of one unmapped address (see the header); how many."""
    seen = {}
    for k in sa["rows"]:
        u = unmapped_key(k)
        if u:
            seen[u] = seen.get(u, 0) + 1
    split = {u for u, c in seen.items() if c > 1}
    if split:
        sa["rows"] = merge_rows(sa["rows"], split)
        sb["rows"] = merge_rows(sb["rows"], split)
    return len(split)


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
    splits = 0
    for sa, sb in zip(a, b):
        splits += merge_level_splits(sa, sb)
        wa = {(len(v[0]), len(v[1])) for v in sa["rows"].values()}
        wb = {(len(v[0]), len(v[1])) for v in sb["rows"].values()}
        if len(wa | wb) > 1:
            print("differ: event '%s': %s columns vs %s" % (sa["event"], sorted(wa), sorted(wb)))
            return 1
        npct, m = (wa | wb or {(1, 1)}).pop()
        zero = ((0.0,) * npct, (0,) * m)
        na = [sum(v[1][i] for v in sa["rows"].values()) for i in range(m)]
        nb = [sum(v[1][i] for v in sb["rows"].values()) for i in range(m)]
        total += sum(na)
        if na != nb:
            if m == 1:
                print("differ: event '%s': %d samples vs %d" % (sa["event"], na[0], nb[0]))
            else:
                print("differ: event '%s': samples per member %s vs %s" % (sa["event"], na, nb))
            return 1
        # every row named alike: a name only one side has is a difference, whatever its share
        only = sorted(set(sa["rows"]) ^ set(sb["rows"]))
        if only:
            print("differ: event '%s': %d rows named on one side only: %s"
                  % (sa["event"], len(only), "; ".join("%s (%s)" % ("|".join(k), "perf" if k in sa["rows"] else "ours")
                                                       for k in only[:3])))
            return 1
        bad = []
        for k in set(sa["rows"]) | set(sb["rows"]):
            for i in range(npct):
                pa = sa["rows"].get(k, zero)[0][i]
                pb = sb["rows"].get(k, zero)[0][i]
                d = abs(pa - pb)
                worst = max(worst, d)
                if d > tol:
                    bad.append((d, k + (("column %d" % i),) if npct > 1 else k, pa, pb))
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
    if any(sec.get("ipc") for sec in a):
        notes.append("perf's IPC column left out")
    if splits:
        notes.append("%d unmapped addresses perf split into one row per level compared as one" % splits)
    print("agree: %d events, %d samples, worst row %.2f points%s"
          % (len(a), total, worst, " (" + "; ".join(notes) + ")" if notes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
