# SPDX-License-Identifier: MIT
# pmuscope agent, checked with real clients on 127.0.0.1:
#  1. /metrics: `promtool check metrics` accepts it; counters per CPU with enabled/running time; the
#     unsupported events listed with their reason, never as zeros.
#  2. pprof pull: `go tool pprof` fetches /debug/pprof/profile?seconds=8 over HTTP while pms-shares
#     --leaves runs: leaf_alpha/bravo/delta within 3 points of 50/30/20 (at 999 Hz: thousands of
#     samples in 8 s even on a loaded machine); `-tags` shows comm, pid, executable, build_id,
#     cgroup; ?pid= keeps one process; bad arguments get 400 with Go's X-Go-Pprof header.
#  3. privileges: after start-up /proc/PID/status shows a non-root uid and no effective
#     capability, while counters and profiles keep coming.
#  4. security: TLS with a test CA (plain HTTP refused, a client certificate required and
#     verified), basic auth (401 on a wrong password, bcrypt hashes from htpasswd), a non-loopback
#     address without TLS or auth refused; malformed, oversized and non-GET requests get 4xx and
#     the agent keeps serving; SIGHUP rereads the web config; SIGTERM stops it with exit 0.
#  5. --off-cpu: /debug/pprof/offcpu of pms-sleep names where it waits.

ag_tmp=$(mktemp -d)
ag_pids=""

ag_cleanup() {
	for p in $ag_pids; do kill "$p" 2>/dev/null; done
	for p in $ag_pids; do wait "$p" 2>/dev/null; done
	ag_pids=""
}

ag_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ag_start NAME ARGS...: start the agent (log in $ag_tmp/NAME.log), wait for /-/healthy; sets ag_pid.
# The health check goes through curl with the same TLS/auth options in $ag_curl_opts.
ag_start() {
	ag_name=$1
	shift
	"$PMUSCOPE" agent "$@" >"$ag_tmp/$ag_name.log" 2>&1 &
	ag_pid=$!
	ag_pids="$ag_pids $ag_pid"
	for _ in $(seq 1 100); do
		if grep -q "serving" "$ag_tmp/$ag_name.log" 2>/dev/null; then
			return 0
		fi
		kill -0 $ag_pid 2>/dev/null || return 1
		sleep 0.2
	done
	return 1
}

ag_stop() {
	kill "$ag_pid" 2>/dev/null
	wait "$ag_pid" 2>/dev/null
	ag_rc=$?
}

ag_metrics_checks() {
	ag_p=$(ag_port)
	if ! ag_start m --listen 127.0.0.1:$ag_p -F 99; then
		fail "agent-start" "$(tail -5 "$ag_tmp/m.log")"
		return
	fi
	pass "agent-start: $(grep -m1 serving "$ag_tmp/m.log" | sed 's/^pmuscope agent: info: //')"
	sleep 2
	curl -s -H 'Accept-Encoding: gzip' --compressed -D "$ag_tmp/m.hdr" "http://127.0.0.1:$ag_p/metrics" >"$ag_tmp/m.txt"
	if promtool check metrics <"$ag_tmp/m.txt" >"$ag_tmp/promtool.out" 2>&1; then
		pass "agent-promtool: promtool check metrics accepts /metrics ($(grep -c '^[a-z]' "$ag_tmp/m.txt") samples, $(grep -ci 'content-encoding: gzip' "$ag_tmp/m.hdr") gzip)"
	else
		fail "agent-promtool" "$(head -5 "$ag_tmp/promtool.out")"
	fi
	ag_ncpu=$(grep -c '^processor' /proc/cpuinfo)
	ag_cs=$(grep -c '^pmuscope_context_switches_total{cpu="[0-9]*"} [0-9]' "$ag_tmp/m.txt")
	ag_en=$(grep -c '^pmuscope_perf_event_enabled_seconds_total{event="context-switches",cpu=' "$ag_tmp/m.txt")
	ag_ru=$(grep -c '^pmuscope_perf_event_running_seconds_total{event="context-switches",cpu=' "$ag_tmp/m.txt")
	if [ "$ag_cs" = "$ag_ncpu" ] && [ "$ag_en" = "$ag_ncpu" ] && [ "$ag_ru" = "$ag_ncpu" ]; then
		pass "agent-percpu: context switches, enabled and running time on each of $ag_ncpu CPUs"
	else
		fail "agent-percpu" "counts $ag_cs, enabled $ag_en, running $ag_ru lines for $ag_ncpu CPUs"
	fi
	if ! perf stat -x, -e cycles true 2>&1 | grep -q 'not supported'; then
		skip "agent-unsupported" "this machine has a hardware PMU: nothing is unsupported to check"
	elif grep -q '^pmuscope_perf_event_supported{event="cycles",reason="[^"]\+"} 0$' "$ag_tmp/m.txt" &&
		! grep -q '^pmuscope_cycles_total' "$ag_tmp/m.txt"; then
		pass "agent-unsupported: cycles listed as unsupported with its reason, no zero series"
	else
		fail "agent-unsupported" "$(grep 'cycles' "$ag_tmp/m.txt" | head -3)"
	fi
	# privileges, while the counters keep moving
	ag_status=$(grep -E '^(Uid|CapEff|CapPrm):' /proc/$ag_pid/status | tr '\n' ' ' | tr -s '\t ' ' ')
	sleep 1.2
	ag_a=$(awk '/^pmuscope_context_switches_total/ { s += $2 } END { print s + 0 }' "$ag_tmp/m.txt")
	ag_b=$(curl -s "http://127.0.0.1:$ag_p/metrics" | awk '/^pmuscope_context_switches_total/ { s += $2 } END { print s + 0 }')
	if echo "$ag_status" | grep -q 'Uid: [1-9][0-9]* ' && echo "$ag_status" | grep -q 'CapEff: 0000000000000000' &&
		[ "$ag_b" -gt "$ag_a" ]; then
		pass "agent-privileges: $ag_status; context switches still counted ($ag_a -> $ag_b)"
	else
		fail "agent-privileges" "$ag_status; context switches $ag_a -> $ag_b"
	fi
	grep -q 'dropped privileges: user nobody' "$ag_tmp/m.log" &&
		pass "agent-privileges-log: $(grep -m1 'dropped privileges' "$ag_tmp/m.log" | cut -c1-120)" ||
		fail "agent-privileges-log" "$(cat "$ag_tmp/m.log")"

	# malformed, oversized and other requests: 4xx, and the agent keeps serving
	ag_codes=""
	ag_codes="$ag_codes post=$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x=1 "http://127.0.0.1:$ag_p/metrics")"
	ag_codes="$ag_codes notfound=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ag_p/nothere")"
	ag_codes="$ag_codes header=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)" "http://127.0.0.1:$ag_p/metrics")"
	ag_codes="$ag_codes url=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ag_p/$(head -c 40000 /dev/zero | tr '\0' a)")"
	ag_codes="$ag_codes garbage=$(python3 - "$ag_p" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall(b"\x16\x03\x01 NOT HTTP AT ALL\r\n\r\n")
data = s.recv(100)
print(data.split(b" ")[1].decode() if data.startswith(b"HTTP/") else "closed")
EOF
)"
	ag_codes="$ag_codes seconds=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ag_p/debug/pprof/profile?seconds=abc")"
	ag_codes="$ag_codes after=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ag_p/metrics")"
	if echo "$ag_codes" | grep -q ' post=405 notfound=404 header=4[0-9][0-9] url=4[0-9][0-9] garbage=4[0-9][0-9] seconds=400 after=200$'; then
		pass "agent-bad-requests:$ag_codes"
	else
		fail "agent-bad-requests" "$ag_codes"
	fi
	# stuck scrapers (half a request, then nothing) hold their own connections only: sampling
	# goes on and other scrapes are answered
	python3 - "$ag_p" >"$ag_tmp/stuck.out" 2>&1 <<'EOF' &
import socket, sys, time
conns = []
for _ in range(8):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
    conns.append(s)
time.sleep(6)
EOF
	ag_stuck=$!
	sleep 0.5
	timeout 3 sh -c 'while :; do :; done' &
	ag_s0=$(curl -s -m 5 "http://127.0.0.1:$ag_p/metrics" | awk '/^pmuscope_agent_samples_total / { print $2 }')
	sleep 3
	ag_s1=$(curl -s -m 5 "http://127.0.0.1:$ag_p/metrics" | awk '/^pmuscope_agent_samples_total / { print $2 }')
	wait $ag_stuck
	if [ -n "$ag_s0" ] && [ -n "$ag_s1" ] && [ "$ag_s1" -gt "$ag_s0" ]; then
		pass "agent-stuck-scrapers: 8 half-sent requests open, /metrics still answered, samples $ag_s0 -> $ag_s1"
	else
		fail "agent-stuck-scrapers" "samples '$ag_s0' -> '$ag_s1' with 8 stuck connections"
	fi
	# many scrapes at once are all served
	for i in 1 2 3 4 5 6 7 8; do
		curl -s -o /dev/null -w '%{http_code}\n' "http://127.0.0.1:$ag_p/metrics" >"$ag_tmp/par.$i" &
	done
	wait_ok=0
	for i in 1 2 3 4 5 6 7 8; do
		for _ in $(seq 1 50); do [ -s "$ag_tmp/par.$i" ] && break; sleep 0.1; done
		[ "$(cat "$ag_tmp/par.$i")" = 200 ] && wait_ok=$((wait_ok + 1))
	done
	[ $wait_ok = 8 ] && pass "agent-concurrent: 8 scrapes at once, all 200" || fail "agent-concurrent" "$wait_ok of 8 answered 200"
	grep -q 'pmuscope_agent_scrape_duration_seconds_count{path="/metrics"}' "$ag_tmp/m.txt" ||
		curl -s "http://127.0.0.1:$ag_p/metrics" | grep -q 'pmuscope_agent_scrape_duration_seconds_count{path="/metrics"} [1-9]' &&
		pass "agent-health: scrape durations counted" || fail "agent-health" "no scrape duration series"
	ag_stop
	if [ "$ag_rc" = 0 ] && grep -q 'stopping' "$ag_tmp/m.log"; then
		pass "agent-sigterm: exit 0, '$(grep -m1 stopping "$ag_tmp/m.log" | sed 's/^pmuscope agent: info: //')'"
	else
		fail "agent-sigterm" "exit $ag_rc: $(tail -2 "$ag_tmp/m.log")"
	fi
}

# ag_leaf_shares FILE: "a b d" shares (%) of leaf_alpha/bravo/delta among the three, and their samples.
ag_leaf_shares() {
	HOME=$ag_tmp go tool pprof -top -sample_index=samples -nodecount=1000 "$1" 2>/dev/null | awk '
		$NF == "leaf_alpha" || $NF == "leaf_bravo" || $NF == "leaf_delta" { t[$NF] += $1 }
		END { n = t["leaf_alpha"] + t["leaf_bravo"] + t["leaf_delta"]
			if (!n) { print "0 0 0 0"; exit }
			printf "%.1f %.1f %.1f %d\n", t["leaf_alpha"] * 100 / n, t["leaf_bravo"] * 100 / n, t["leaf_delta"] * 100 / n, n }'
}

ag_pprof_checks() {
	if ! command -v go >/dev/null 2>&1; then
		skip "agent-pprof" "go (go tool pprof) is not installed"
		return
	fi
	ag_p=$(ag_port)
	if ! ag_start p --listen 127.0.0.1:$ag_p -F 999; then
		fail "agent-pprof-start" "$(tail -5 "$ag_tmp/p.log")"
		return
	fi
	"$BUILD_DIR/demo/pms-shares" --leaves --seconds 12 >/dev/null &
	ag_w=$!
	ag_pids="$ag_pids $ag_w"
	sleep 10
	# go tool pprof's own HTTP fetch, as Parca's and Alloy's scrapes ask: ?seconds=8 (at 999 Hz,
	# 4000+ samples even with half a CPU: 3 points are about 4 standard deviations)
	HOME=$ag_tmp go tool pprof -seconds 8 -proto -output "$ag_tmp/p.pb.gz" "http://127.0.0.1:$ag_p/debug/pprof/profile" >"$ag_tmp/fetch.out" 2>&1
	curl -s -o "$ag_tmp/pid.pb.gz" "http://127.0.0.1:$ag_p/debug/pprof/profile?seconds=5&pid=$ag_w"
	wait $ag_w
	if [ ! -s "$ag_tmp/p.pb.gz" ]; then
		fail "agent-pprof" "go tool pprof fetched nothing: $(tail -3 "$ag_tmp/fetch.out")"
		ag_stop
		return
	fi
	set -- $(ag_leaf_shares "$ag_tmp/p.pb.gz")
	if [ "${4:-0}" -ge 1500 ] && awk -v a="$1" -v b="$2" -v d="$3" 'BEGIN { exit !((a - 50)^2 <= 9 && (b - 30)^2 <= 9 && (d - 20)^2 <= 9) }'; then
		pass "agent-pprof: go tool pprof over HTTP, leaf_alpha/bravo/delta $1/$2/$3 (want 50/30/20 +-3) from $4 samples"
	else
		fail "agent-pprof" "leaf_alpha/bravo/delta $1/$2/$3 from ${4:-0} samples, want 50/30/20 +-3"
	fi
	HOME=$ag_tmp go tool pprof -tags "$ag_tmp/p.pb.gz" >"$ag_tmp/tags.txt" 2>&1
	ag_missing=""
	for k in comm pid executable build_id cgroup; do
		grep -q "^ *$k: Total" "$ag_tmp/tags.txt" || ag_missing="$ag_missing $k"
	done
	if [ -z "$ag_missing" ] && grep -q 'pms-shares' "$ag_tmp/tags.txt" && grep -q "$BUILD_DIR/demo/pms-shares\|/pms-shares" "$ag_tmp/tags.txt"; then
		pass "agent-pprof-tags: comm, pid, executable, build_id, cgroup labels (go tool pprof -tags)"
	else
		fail "agent-pprof-tags" "missing:$ag_missing; $(head -20 "$ag_tmp/tags.txt")"
	fi
	ag_pidtags=$(HOME=$ag_tmp go tool pprof -tags -tagfocus= "$ag_tmp/pid.pb.gz" 2>&1 | awk '/^ *pid: Total/ { p = 1; next } p && /^ *$/ { p = 0 } p' | wc -l)
	if [ "$ag_pidtags" = 1 ]; then
		pass "agent-pprof-filter: ?pid=$ag_w keeps one process"
	else
		fail "agent-pprof-filter" "$ag_pidtags pids in the filtered profile"
	fi
	ag_hdr=$(curl -s -D - -o /dev/null "http://127.0.0.1:$ag_p/debug/pprof/profile?seconds=99999" | tr -d '\r')
	if echo "$ag_hdr" | grep -q '^HTTP/1.1 400' && echo "$ag_hdr" | grep -qi '^X-Go-Pprof: 1'; then
		pass "agent-pprof-errors: seconds beyond the history: 400 with X-Go-Pprof"
	else
		fail "agent-pprof-errors" "$ag_hdr"
	fi
	curl -s "http://127.0.0.1:$ag_p/debug/pprof/" | grep -q 'href="profile?seconds=30"' &&
		pass "agent-pprof-index: /debug/pprof/ lists the profiles" || fail "agent-pprof-index" "no index page"
	ag_stop
}

ag_security_checks() {
	ag_d=$ag_tmp/tls
	mkdir -p "$ag_d"
	# a test CA, a server certificate for 127.0.0.1 and a client certificate, all from it
	(
		cd "$ag_d" || exit 1
		openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt \
			-subj /CN=pmuscope-test-ca -days 2 &&
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout srv.key -out srv.csr \
			-subj /CN=127.0.0.1 &&
		printf 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >srv.ext &&
		openssl x509 -req -in srv.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out srv.crt -days 2 -extfile srv.ext &&
		openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout cli.key -out cli.csr \
			-subj /CN=scraper &&
		printf 'extendedKeyUsage=clientAuth\n' >cli.ext &&
		openssl x509 -req -in cli.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out cli.crt -days 2 -extfile cli.ext &&
		chmod 644 ./*.key
	) >"$ag_tmp/openssl.log" 2>&1 || { fail "agent-tls" "openssl: $(tail -3 "$ag_tmp/openssl.log")"; return; }
	ag_hash=$(htpasswd -nbBC 10 scraper s3cret | cut -d: -f2-)
	cat >"$ag_d/web.yml" <<EOF
tls_server_config:
  cert_file: srv.crt
  key_file: srv.key
  client_auth_type: RequireAndVerifyClientCert
  client_ca_file: ca.crt
basic_auth_users:
  scraper: '$ag_hash'
EOF
	ag_p=$(ag_port)
	if ! ag_start tls --listen 127.0.0.1:$ag_p --web-config "$ag_d/web.yml" --no-profile; then
		fail "agent-tls-start" "$(tail -5 "$ag_tmp/tls.log")"
		return
	fi
	ag_u=https://127.0.0.1:$ag_p/metrics
	ag_ok=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" --cert "$ag_d/cli.crt" --key "$ag_d/cli.key" -u scraper:s3cret "$ag_u")
	ag_wrong=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" --cert "$ag_d/cli.crt" --key "$ag_d/cli.key" -u scraper:wrong "$ag_u")
	ag_none=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" --cert "$ag_d/cli.crt" --key "$ag_d/cli.key" "$ag_u")
	ag_nocert=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" -u scraper:s3cret "$ag_u")
	curl -s -o /dev/null "http://127.0.0.1:$ag_p/metrics"
	ag_plain=$?
	if [ "$ag_ok" = 200 ] && [ "$ag_wrong" = 401 ] && [ "$ag_none" = 401 ] && [ "$ag_nocert" != 200 ] && [ "$ag_plain" != 0 ]; then
		pass "agent-tls: test CA + client cert + password 200; wrong password 401; none 401; no client cert $ag_nocert; plain HTTP refused (curl exit $ag_plain)"
	else
		fail "agent-tls" "ok=$ag_ok wrong=$ag_wrong none=$ag_none nocert=$ag_nocert plain-exit=$ag_plain"
	fi
	# SIGHUP: a new password takes over
	ag_hash2=$(htpasswd -nbBC 10 scraper n3w | cut -d: -f2-)
	sed -i "s|scraper: '.*'|scraper: '$ag_hash2'|" "$ag_d/web.yml"
	kill -HUP $ag_pid
	sleep 1
	ag_old=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" --cert "$ag_d/cli.crt" --key "$ag_d/cli.key" -u scraper:s3cret "$ag_u")
	ag_new=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$ag_d/ca.crt" --cert "$ag_d/cli.crt" --key "$ag_d/cli.key" -u scraper:n3w "$ag_u")
	if [ "$ag_old" = 401 ] && [ "$ag_new" = 200 ]; then
		pass "agent-sighup: the web config reread, old password 401, new 200"
	else
		fail "agent-sighup" "old=$ag_old new=$ag_new; $(tail -3 "$ag_tmp/tls.log")"
	fi
	ag_stop

	# a non-loopback address needs TLS or auth (or --insecure)
	ag_p=$(ag_port)
	"$PMUSCOPE" agent --listen 0.0.0.0:$ag_p --no-profile >"$ag_tmp/open.log" 2>&1 &
	ag_o=$!
	ag_pids="$ag_pids $ag_o"
	( sleep 15; kill $ag_o 2>/dev/null ) &
	wait $ag_o
	ag_orc=$?
	if [ $ag_orc = 1 ] && grep -q 'refusing to serve' "$ag_tmp/open.log"; then
		pass "agent-nonloopback: 0.0.0.0 without TLS or auth refused: $(head -c 100 "$ag_tmp/open.log")..."
	else
		fail "agent-nonloopback" "exit $ag_orc: $(head -3 "$ag_tmp/open.log")"
	fi
	if ag_start insecure --listen 0.0.0.0:$ag_p --no-profile --insecure &&
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ag_p/metrics")" = 200 ]; then
		pass "agent-insecure: --insecure serves 0.0.0.0 without TLS or auth"
	else
		fail "agent-insecure" "$(tail -3 "$ag_tmp/insecure.log")"
	fi
	ag_stop
	if "$PMUSCOPE" agent --listen 127.0.0.1:1 --web-config "$ag_tmp/nothere.yml" >"$ag_tmp/nowc.log" 2>&1; then
		fail "agent-webconfig-missing" "started without its web config"
	else
		pass "agent-webconfig-missing: $(head -1 "$ag_tmp/nowc.log")"
	fi
}

# Bounded under churn: thousands of short busy processes against small tables; every sample
# accounted for, the tables at their bounds, their evictions counted, no scrape refused.
ag_bounded_checks() {
	ag_p=$(ag_port)
	if ! ag_start b --listen 127.0.0.1:$ag_p -F 999 --history 5 --max-processes 50 --max-files 8; then
		fail "agent-bounded-start" "$(tail -5 "$ag_tmp/b.log")"
		return
	fi
	ag_fail=0
	for i in $(seq 1 8); do
		# 150 processes that each spin about 10 ms (one or more samples each at 999 Hz)
		for k in $(seq 1 150); do timeout 0.01 sh -c 'while :; do :; done'; done &
		ag_churn=$!
		curl -s -m 5 -o /dev/null "http://127.0.0.1:$ag_p/debug/pprof/profile?seconds=5" || ag_fail=$((ag_fail + 1))
		curl -s -m 5 -o /dev/null "http://127.0.0.1:$ag_p/metrics" || ag_fail=$((ag_fail + 1))
		wait $ag_churn
	done
	sleep 2
	curl -s "http://127.0.0.1:$ag_p/metrics" >"$ag_tmp/b.txt"
	ag_v() { awk -v n="$1" '$1 == n { print $2 }' "$ag_tmp/b.txt"; }
	ag_taken=$(ag_v pmuscope_agent_samples_total)
	ag_prof=$(ag_v pmuscope_agent_samples_profiled_total)
	ag_drop=$(awk '/^pmuscope_agent_samples_dropped_total{reason="(ring|maps)_full"}/ { s += $2 } END { print s + 0 }' "$ag_tmp/b.txt")
	ag_procs=$(ag_v pmuscope_agent_processes)
	ag_pev=$(ag_v pmuscope_agent_processes_evicted_total)
	ag_imgs=$(ag_v 'pmuscope_agent_symbolizer_entries{kind="images"}')
	ag_wins=$(ag_v pmuscope_agent_profile_windows)
	# taken is read just after the counts are: what the sampler took in between is still in flight
	ag_flight=$((ag_taken - ag_prof - ag_drop))
	ag_msg="taken $ag_taken = profiled $ag_prof + dropped $ag_drop + $ag_flight in flight; processes $ag_procs (max 50, $ag_pev evicted); symbolizer images $ag_imgs; windows $ag_wins (history 5 s); $ag_fail scrapes failed"
	if [ "${ag_taken:-0}" -gt 500 ] && [ $ag_flight -ge 0 ] && [ $((ag_flight * 100)) -le $((ag_taken * 2)) ] &&
		[ "$ag_procs" -le 50 ] &&
		[ "${ag_pev:-0}" -gt 0 ] && [ "$ag_imgs" -lt 200 ] && [ "$ag_wins" -le 6 ] && [ $ag_fail = 0 ]; then
		pass "agent-bounded: 1200 short processes: $ag_msg"
	else
		fail "agent-bounded" "$ag_msg"
	fi
	ag_stop
}

ag_offcpu_checks() {
	ag_p=$(ag_port)
	if ! ag_start off --listen 127.0.0.1:$ag_p --off-cpu -F 99; then
		fail "agent-offcpu-start" "$(tail -5 "$ag_tmp/off.log")"
		return
	fi
	# 100 rounds of 60 ms: still blocking when the last 3 s are asked for
	"$BUILD_DIR/demo/pms-sleep" --rounds 100 >/dev/null 2>&1 &
	ag_s=$!
	ag_pids="$ag_pids $ag_s"
	sleep 4
	curl -s -o "$ag_tmp/off.pb.gz" "http://127.0.0.1:$ag_p/debug/pprof/offcpu?seconds=3&pid=$ag_s"
	kill $ag_s 2>/dev/null
	wait $ag_s 2>/dev/null
	if command -v go >/dev/null 2>&1 &&
		HOME=$ag_tmp go tool pprof -top "$ag_tmp/off.pb.gz" >"$ag_tmp/off.top" 2>&1 &&
		grep -q 'do_nanosleep\|hrtimer_nanosleep\|pipe_read\|schedule' "$ag_tmp/off.top"; then
		pass "agent-offcpu: /debug/pprof/offcpu of pms-sleep names where it waits ($(grep -o 'do_nanosleep\|pipe_read' "$ag_tmp/off.top" | sort -u | tr '\n' ' '))"
	else
		fail "agent-offcpu" "$(head -12 "$ag_tmp/off.top" 2>/dev/null)"
	fi
	ag_stop
}

if ! "$PMUSCOPE" agent -h >/dev/null 2>&1; then
	fail "agent" "pmuscope has no agent command"
elif [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip "agent" "no BTF at /sys/kernel/btf/vmlinux: the BPF sampler cannot load"
else
	ag_metrics_checks
	ag_cleanup
	ag_pprof_checks
	ag_cleanup
	ag_security_checks
	ag_cleanup
	ag_offcpu_checks
	ag_cleanup
	ag_bounded_checks
	ag_cleanup
fi
rm -rf "$ag_tmp"
