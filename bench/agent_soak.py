#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Soak of `pmuscope agent`: SECONDS at HZ while `make -j2` rebuilds a scratch copy of this tree
over and over (thousands of short-lived processes), scraping /metrics every 2 s and a 10 s
profile every 10 s, as Prometheus and Parca would.

Prints the resident-memory curve (every 10 s) and at the end, one `key value` line each:
  rss_warm_mb, rss_end_mb, rss_growth_mb   resident memory after warm-up (a third of the run) and
                                           at the end
  scrapes, scrape_failures                 requests made, and those not answered 200 in time
  taken, profiled, dropped, unaccounted    the agent's own sample accounting at the end:
                                           taken - profiled - dropped (ring, maps) = samples
                                           still in the kernel's map or read after the last cut
  processes_evicted, windows_evicted       its bounded tables at work
  builds                                   make runs completed
Exit 0 when the run completed (the checks are the caller's).

Usage: agent_soak.py PMUSCOPE SRC_TREE SECONDS [HZ]
"""
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def get(port, path, timeout):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", path)
        r = c.getresponse()
        return r.status, r.read()
    finally:
        c.close()


def metric(text, name, labels=""):
    m = re.search(r"^%s%s (\S+)$" % (re.escape(name), re.escape(labels)), text, re.M)
    return float(m.group(1)) if m else 0.0


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    pms, src, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
    hz = sys.argv[4] if len(sys.argv) > 4 else "99"
    tmp = tempfile.mkdtemp(prefix="pms-soak-")
    port = free_port()
    log = open(os.path.join(tmp, "agent.log"), "w")
    agent = subprocess.Popen([pms, "agent", "--listen", "127.0.0.1:%d" % port, "-F", hz, "--history", "30"],
                             stdout=log, stderr=subprocess.STDOUT)
    tree = os.path.join(tmp, "tree")
    os.makedirs(tree)
    # the committed tree, without build directories or fuzz corpora
    subprocess.run("git -C '%s' archive HEAD | tar -x -C '%s'" % (src, tree), shell=True, check=True)
    builder = None
    builds = 0
    scrapes = failures = 0
    curve = []
    try:
        for _ in range(100):
            try:
                if get(port, "/-/healthy", 1)[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.2)
        t0 = time.monotonic()
        next_metrics = next_profile = next_rss = t0
        while time.monotonic() - t0 < seconds:
            if builder is None or builder.poll() is not None:
                if builder is not None:
                    builds += 1
                subprocess.run(["make", "-s", "clean"], cwd=tree, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                builder = subprocess.Popen(["make", "-s", "-j2", "all"], cwd=tree, stdout=subprocess.DEVNULL,
                                           stderr=subprocess.DEVNULL)
            now = time.monotonic()
            if now >= next_rss:
                curve.append((now - t0, rss_mb(agent.pid)))
                detail = ""
                try:
                    text = get(port, "/metrics", 5)[1].decode()
                    detail = "  heap in use %.1f MB, free %.1f MB; nodes %d, processes %d; symbolizer images %d, " \
                        "build-ids %d, files %d" % (
                            metric(text, "pmuscope_agent_heap_bytes", '{state="in_use"}') / 1048576,
                            metric(text, "pmuscope_agent_heap_bytes", '{state="free"}') / 1048576,
                            metric(text, "pmuscope_agent_profile_nodes"), metric(text, "pmuscope_agent_processes"),
                            metric(text, "pmuscope_agent_symbolizer_entries", '{kind="images"}'),
                            metric(text, "pmuscope_agent_symbolizer_entries", '{kind="build_ids"}'),
                            metric(text, "pmuscope_agent_symbolizer_entries", '{kind="files"}'))
                except OSError:
                    pass
                print("rss %.0f s %.1f MB%s" % (curve[-1][0], curve[-1][1], detail), flush=True)
                next_rss += 10
            for due, path, timeout in ((next_metrics, "/metrics", 5), (next_profile, "/debug/pprof/profile?seconds=10", 10)):
                if now >= due:
                    scrapes += 1
                    try:
                        status, _ = get(port, path, timeout)
                        if status != 200:
                            failures += 1
                    except OSError:
                        failures += 1
            if now >= next_metrics:
                next_metrics += 2
            if now >= next_profile:
                next_profile += 10
            time.sleep(0.2)
        status, body = get(port, "/metrics", 5)
        text = body.decode()
        taken = metric(text, "pmuscope_agent_samples_total")
        profiled = metric(text, "pmuscope_agent_samples_profiled_total")
        dropped = metric(text, "pmuscope_agent_samples_dropped_total", '{reason="ring_full"}') + \
            metric(text, "pmuscope_agent_samples_dropped_total", '{reason="maps_full"}')
        warm = [r for t, r in curve if t >= seconds / 3]
        print("rss_warm_mb %.1f" % (warm[0] if warm else curve[-1][1]))
        print("rss_end_mb %.1f" % rss_mb(agent.pid))
        print("rss_growth_mb %.1f" % (rss_mb(agent.pid) - (warm[0] if warm else curve[-1][1])))
        print("scrapes %d" % scrapes)
        print("scrape_failures %d" % failures)
        print("taken %d" % taken)
        print("profiled %d" % profiled)
        print("dropped %d" % dropped)
        print("unaccounted %d" % (taken - profiled - dropped))
        print("processes_evicted %d" % metric(text, "pmuscope_agent_processes_evicted_total"))
        print("windows_evicted %d" % metric(text, "pmuscope_agent_profile_windows_evicted_total"))
        print("builds %d" % builds)
    finally:
        if builder is not None and builder.poll() is None:
            builder.send_signal(signal.SIGTERM)
            builder.wait()
        agent.send_signal(signal.SIGTERM)
        agent.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
