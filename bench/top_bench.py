#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# The measurements of bench/top.sh: `pmuscope top` and `perf top`, each in its
# terminal view on a pseudo-terminal of 120x30 (as a person runs them), in the
# same run on the same workload:
#   cpu WORKLOAD_BIN FREQ SECONDS: the tool's own CPU (user+sys of every
#       thread, /proc/PID/stat) over SECONDS of system-wide sampling while two
#       CPU-bound processes keep both CPUs busy, and over the same run less
#       its first 5 s (the steady cost, without the start);
#   first WORKLOAD_BIN RUNS: seconds from exec to the first screen that names
#       a function of the workload (leaf_alpha), median of RUNS;
#   rss MAKE_DIR SECONDS: resident memory (VmRSS) at a third, two thirds and
#       the end of SECONDS while `make -j2` rebuilds MAKE_DIR over and over
#       (many short-lived processes).
# Prints "name value" lines that bench/top.sh turns into ratios.
import os
import pty
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import fcntl
import time

PMUSCOPE = os.environ["PMUSCOPE"]
TICK = os.sysconf("SC_CLK_TCK")


def tools(freq):
    return {
        "pmuscope": [PMUSCOPE, "top", "-F", str(freq)],
        "perf": ["perf", "top", "-F", str(freq)],
    }


class Tty:
    """A tool in its terminal view on a pty, its output drained as it comes."""

    def __init__(self, argv):
        self.t0 = time.monotonic()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            os.environ["TERM"] = "xterm"
            os.environ.pop("NO_COLOR", None)
            os.execvp(argv[0], argv)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
        self.out = b""

    def pump(self, secs, pattern=None):
        """Read for secs; with a pattern, return the time it first appeared (or None)."""
        end = time.monotonic() + secs
        while time.monotonic() < end:
            r, _, _ = select.select([self.fd], [], [], 0.02)
            if not r:
                continue
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                return None
            # keep only a tail: the screens repeat
            self.out = (self.out + data)[-65536:]
            if pattern and pattern in self.out:
                return time.monotonic() - self.t0
        return None

    def cpu_s(self):
        with open(f"/proc/{self.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def rss_kb(self):
        with open(f"/proc/{self.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return 0

    def stop(self):
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
            try:
                os.kill(self.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + 2
            while time.monotonic() < deadline:
                self.pump(0.05)
                if os.waitpid(self.pid, os.WNOHANG)[0]:
                    return
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def busy(workload, secs):
    return [subprocess.Popen([workload, "--leaves", "--seconds", str(secs)], stdout=subprocess.DEVNULL)
            for _ in range(2)]


def cpu(workload, freq, secs):
    for name, argv in tools(int(freq)).items():
        procs = busy(workload, float(secs) + 10)
        t = Tty(argv)
        # the first 5 s hold each tool's start (BPF verification, reading /proc): the rest is its steady cost
        t.pump(5)
        start = t.cpu_s()
        t.pump(float(secs) - 5)
        used = t.cpu_s()
        t.stop()
        for p in procs:
            p.kill()
            p.wait()
        print(f"cpu_{name}_{freq} {used:.3f}")
        print(f"steady_{name}_{freq} {used - start:.3f}")
        sys.stdout.flush()


def first(workload, runs):
    for name, argv in tools(999).items():
        times = []
        for _ in range(int(runs)):
            procs = busy(workload, 30)
            time.sleep(0.3)
            t = Tty(argv)
            at = t.pump(20, b"leaf_alpha")
            t.stop()
            for p in procs:
                p.kill()
                p.wait()
            times.append(at if at is not None else 20.0)
        print(f"first_{name} {statistics.median(times):.3f}")
        sys.stdout.flush()


def rss(make_dir, secs):
    secs = float(secs)
    for name, argv in tools(999).items():
        builder = subprocess.Popen(["sh", "-c", f"while :; do make -s -C '{make_dir}' clean >/dev/null 2>&1; "
                                    f"make -s -j2 -C '{make_dir}' all >/dev/null 2>&1; done"],
                                   start_new_session=True)
        t = Tty(argv)
        marks = []
        for _ in range(3):
            t.pump(secs / 3)
            marks.append(t.rss_kb())
        t.stop()
        os.killpg(builder.pid, signal.SIGKILL)
        builder.wait()
        print(f"rss_{name} {' '.join(str(m) for m in marks)}")
        sys.stdout.flush()


if __name__ == "__main__":
    {"cpu": cpu, "first": first, "rss": rss}[sys.argv[1]](*sys.argv[2:])
