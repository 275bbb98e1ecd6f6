#!/bin/sh
# SPDX-License-Identifier: MIT
# pmuscope agent's cost, in the same run as its peers:
#   - own CPU at 19 Hz per CPU over SECS seconds, idle and with two pms-shares keeping both CPUs
#     busy (goal <= 0.5% of one core; the OpenTelemetry eBPF profiler's own ceiling is 1%), beside
#     `perf record -a -g -F 19` writing the same samples to a file (the ratio); resident memory
#     at the end (goal <= 30 MB);
#   - /metrics: wall time and CPU per scrape over N sequential scrapes, against node_exporter's
#     perf collector exposing the same software counters per CPU (goal <= 0.5x both).
# The sampling interrupt and the BPF program run in the sampled task's context, as perf's
# sampling does, so neither number includes them.
# Usage: sh bench/agent.sh [build-dir] [seconds per CPU run (default 30)] [scrapes (default 300)]
set -u
build=${1:-build}
secs=${2:-30}
scrapes=${3:-300}
cd "$(dirname "$0")/.." || exit 1
pms=$(pwd)/$build/pmuscope
demo=$(pwd)/$build/demo/pms-shares
[ -x "$pms" ] || { echo "agent: SKIP: $pms not built"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "agent: SKIP: the agent needs root"; exit 0; }
"$pms" agent -h >/dev/null 2>&1 || { echo "agent: SKIP: agent not in this build"; exit 0; }
tmp=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
tck=$(getconf CLK_TCK)

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# cpu_s PID: user + system CPU seconds of a process (and its threads) so far
cpu_s() { awk -v t="$tck" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$1/stat"; }
rss_mb() { awk '/^VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
pct() { awk -v c="$1" -v s="$2" 'BEGIN { printf "%.3f", c * 100 / s }'; }
wait_up() { for _ in $(seq 1 100); do curl -s -o /dev/null "$1" && return 0; sleep 0.2; done; return 1; }

# ---- own CPU at 19 Hz, idle then busy
p=$(port)
"$pms" agent --listen 127.0.0.1:$p >"$tmp/agent.log" 2>&1 &
ag=$!
pids="$pids $ag"
wait_up "http://127.0.0.1:$p/-/healthy" || { echo "agent: FAIL: did not start: $(tail -3 "$tmp/agent.log")"; exit 1; }
for load in idle busy; do
	if [ $load = busy ]; then
		"$demo" --leaves --seconds $((secs + 5)) >/dev/null & b1=$!
		"$demo" --leaves --seconds $((secs + 5)) >/dev/null & b2=$!
		pids="$pids $b1 $b2"
		sleep 1
	fi
	perf record -q -a -g -F 19 -o "$tmp/perf.data" -- sleep "$secs" >/dev/null 2>&1 &
	pr=$!
	a0=$(cpu_s $ag)
	sleep 0.2
	p0=$(cpu_s $pr 2>/dev/null || echo 0)
	sleep "$secs"
	a1=$(cpu_s $ag)
	p1=$(cpu_s $pr 2>/dev/null || echo "$p0")
	wait $pr 2>/dev/null
	ac=$(awk -v a="$a0" -v b="$a1" 'BEGIN { printf "%.3f", b - a }')
	pc=$(awk -v a="$p0" -v b="$p1" 'BEGIN { printf "%.3f", b - a }')
	echo "agent: own CPU at 19 Hz, $load, ${secs} s: pmuscope agent $ac s = $(pct "$ac" "$secs")% of one core (goal <= 0.5%), perf record -a -g -F 19 $pc s: $(ratio "$ac" "$pc")x"
	[ $load = busy ] && { wait $b1 2>/dev/null; wait $b2 2>/dev/null; }
done
curl -s -o /dev/null "http://127.0.0.1:$p/debug/pprof/profile?seconds=30"
echo "agent: resident memory after $((2 * secs)) s and a 30 s profile: $(rss_mb $ag) MB (goal <= 30)"
kill $ag
wait $ag 2>/dev/null

# ---- /metrics against node_exporter's perf collector, the same software counters
if ! command -v prometheus-node-exporter >/dev/null 2>&1; then
	echo "agent: SKIP scrapes: prometheus-node-exporter not installed"
	exit 0
fi
pa=$(port)
pn=$(port)
"$pms" agent --listen 127.0.0.1:$pa --no-profile -e context-switches,cpu-migrations,page-faults,minor-faults,major-faults >"$tmp/agent2.log" 2>&1 &
ag=$!
prometheus-node-exporter --web.listen-address=127.0.0.1:$pn --collector.disable-defaults --collector.perf >"$tmp/ne.log" 2>&1 &
ne=$!
pids="$pids $ag $ne"
wait_up "http://127.0.0.1:$pa/metrics" && wait_up "http://127.0.0.1:$pn/metrics" ||
	{ echo "agent: FAIL: a server did not start: $(tail -2 "$tmp/agent2.log" "$tmp/ne.log" 2>/dev/null)"; exit 1; }
scrape() { # scrape PID PORT -> "wall_ms_per_scrape cpu_ms_per_scrape bytes"
	c0=$(cpu_s $1)
	# one keep-alive connection, as Prometheus scrapes, gzip accepted as it asks
	python3 - "$2" "$scrapes" >"$tmp/scrape.out" <<'PY'
import http.client, sys, time
port, n = int(sys.argv[1]), int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
t0 = time.monotonic()
size = 0
for _ in range(n):
    c.request("GET", "/metrics", headers={"Accept-Encoding": "gzip"})
    r = c.getresponse()
    size = len(r.read())
print("%.3f %d" % ((time.monotonic() - t0) * 1000 / n, size))
PY
	c1=$(cpu_s $1)
	set -- $(cat "$tmp/scrape.out")
	awk -v w="$1" -v c0="$c0" -v c1="$c1" -v n="$scrapes" -v b="$2" 'BEGIN { printf "%.3f %.3f %d", w, (c1 - c0) * 1000 / n, b }'
}
curl -s "http://127.0.0.1:$pn/metrics" | grep -c '^node_perf_' >"$tmp/ne.series"
set -- $(scrape $ag $pa)
aw=$1 ac=$2 ab=$3
set -- $(scrape $ne $pn)
nw=$1 nc=$2 nb=$3
echo "agent: /metrics over $scrapes scrapes on one keep-alive connection: pmuscope $aw ms, node_exporter --collector.perf ($(cat "$tmp/ne.series") node_perf series) $nw ms: $(ratio "$aw" "$nw")x; server CPU per scrape: pmuscope $ac ms, node_exporter $nc ms: $(ratio "$ac" "$nc")x (goal <= 0.5); body $ab vs $nb bytes"
