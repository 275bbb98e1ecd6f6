# SPDX-License-Identifier: MIT
# pmuscope agent scraped by a real Prometheus (tests/lib/prom.sh), side by side with
# node_exporter's perf collector, on 127.0.0.1:
#  1. the targets are up, both /metrics pass `promtool check metrics`;
#  2. cgroup mode: pms-rates runs in a cgroup v2 of its own at known rates of context switches and
#     page faults; Prometheus's rate() of pmuscope_cgroup_context_switches_total and
#     pmuscope_cgroup_page_faults_total for that cgroup is within 5% of what the process did (the
#     kernel's getrusage of it, over its run: its pacing makes the rate steady over any window);
#  3. per CPU against node_exporter: two pms-rates pinned one to each CPU keep both busy with
#     switches and faults; rate() of the agent's and node_exporter's context-switch and
#     page-fault counters agree within 2% on each CPU, evaluated by the same Prometheus at the
#     same instant over the same window.
# Rates measured, never assumed: the checks hold on a loaded machine. Skipped with the reason
# when prometheus or node_exporter is not installed.

ap_demo=$BUILD_DIR/demo/pms-rates
ap_tmp=
ap_cg=
ap_pids=

ap_cleanup() {
	for p in $ap_pids; do kill "$p" 2>/dev/null; done
	for p in $ap_pids; do wait "$p" 2>/dev/null; done
	ap_pids=
	prom_stop
	node_exporter_stop
	[ -n "$ap_cg" ] && rmdir "$ap_cg" 2>/dev/null
	ap_cg=
	[ -n "$ap_tmp" ] && rm -rf "$ap_tmp"
	ap_tmp=
}

# ap_within NAME GOT WANT PCT: pass when |GOT - WANT| <= PCT% of WANT
ap_within() {
	if awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d * 100 <= p * w) }'; then
		pass "$1: $(printf '%.1f' "$2") vs $(printf '%.1f' "$3") ($(awk -v g="$2" -v w="$3" 'BEGIN { printf "%+.2f", (g - w) * 100 / w }')%, within $4%)"
	else
		fail "$1" "$2 vs $3: more than $4% apart"
	fi
}

ap_main() {
	if ! command -v prometheus >/dev/null 2>&1; then
		skip "agent-prometheus" "prometheus is not installed (Debian package prometheus)"
		return
	fi
	if ! command -v prometheus-node-exporter >/dev/null 2>&1 && ! command -v node_exporter >/dev/null 2>&1; then
		skip "agent-prometheus" "node_exporter is not installed (Debian package prometheus-node-exporter)"
		return
	fi
	if [ ! -x "$ap_demo" ]; then
		fail "agent-prometheus" "$ap_demo not built"
		return
	fi
	# cgroup v2: pure, or systemd's hybrid layout (v2 at /sys/fs/cgroup/unified)
	ap_root=
	for r in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ "$(stat -f -c %T "$r" 2>/dev/null)" = cgroup2fs ] && { ap_root=$r; break; }
	done
	if [ -z "$ap_root" ]; then
		skip "agent-cgroup" "no cgroup v2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified"
		return
	fi
	ap_tmp=$(mktemp -d)
	ap_name=pms-agent-test-$$
	ap_cg=$ap_root/$ap_name
	mkdir "$ap_cg" || { fail "agent-cgroup" "cannot create $ap_cg"; return; }

	ap_port=$(prom_free_port)
	"$PMUSCOPE" agent --listen 127.0.0.1:$ap_port --no-profile -e context-switches,page-faults -G "$ap_name" \
		>"$ap_tmp/agent.log" 2>&1 &
	ap_agent=$!
	ap_pids="$ap_pids $ap_agent"
	for _ in $(seq 1 100); do
		curl -s -o /dev/null "http://127.0.0.1:$ap_port/-/healthy" && break
		sleep 0.2
	done
	node_exporter_start auto >/dev/null || { fail "agent-prometheus" "node_exporter did not start"; return; }
	prom_start "$ap_tmp/prom" "agent=127.0.0.1:$ap_port" "node=127.0.0.1:$NODE_EXPORTER_PORT" >"$ap_tmp/prom.out" 2>&1 ||
		{ fail "agent-prometheus" "prometheus did not start: $(tail -3 "$ap_tmp/prom.out")"; return; }
	if prom_targets_up 15 >"$ap_tmp/up.out"; then
		pass "agent-prometheus-up: Prometheus scrapes the agent and node_exporter every second"
	else
		fail "agent-prometheus-up" "$(cat "$ap_tmp/up.out")"
		return
	fi
	for t in "agent http://127.0.0.1:$ap_port/metrics" "node_exporter $NODE_EXPORTER_URL/metrics"; do
		set -- $t
		if prom_check_metrics "$2" >"$ap_tmp/lint.out" 2>&1; then
			pass "agent-promtool-$1: promtool check metrics accepts its /metrics"
		else
			fail "agent-promtool-$1" "$(head -3 "$ap_tmp/lint.out")"
		fi
	done

	# the cgroup's process: known rates, steady over any window of a second or more
	sh -c "echo \$\$ >$ap_cg/cgroup.procs && exec \"$ap_demo\" --switches 3000 --faults 20000 --seconds 18 --cpu any" \
		>"$ap_tmp/cg.out" 2>&1 &
	ap_cgw=$!
	# and one process pinned to each CPU for the per-CPU comparison
	for c in $(seq 0 $(($(nproc) - 1))); do
		"$ap_demo" --switches 2000 --faults 10000 --seconds 18 --cpu "$c" >"$ap_tmp/cpu$c.out" 2>&1 &
		ap_pids="$ap_pids $!"
	done
	sleep 15
	ap_t=$(date +%s)
	# the window: [t - 12 s, t], inside every workload's run (they start at t - 15 s)
	ap_cs=$(prom_value "sum(rate(pmuscope_cgroup_context_switches_total{cgroup=\"$ap_name\"}[12s]))" "$ap_t")
	ap_pf=$(prom_value "sum(rate(pmuscope_cgroup_page_faults_total{cgroup=\"$ap_name\"}[12s]))" "$ap_t")
	prom_query "rate(pmuscope_context_switches_total[12s])" "$ap_t" >"$ap_tmp/a_cs"
	prom_query "rate(node_perf_context_switches_total[12s])" "$ap_t" >"$ap_tmp/n_cs"
	prom_query "rate(pmuscope_page_faults_total[12s])" "$ap_t" >"$ap_tmp/a_pf"
	prom_query "rate(node_perf_page_faults_total[12s])" "$ap_t" >"$ap_tmp/n_pf"
	wait $ap_cgw
	# truth: the kernel's counts of the process over its run (start-up's few faults included)
	set -- $(awk '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1) }
		END { printf "%s %s %s", v["rusage_switches"], v["rusage_minflt"], v["seconds"] }' "$ap_tmp/cg.out")
	if [ $# != 3 ] || [ -z "$ap_cs" ]; then
		fail "agent-cgroup" "no rates: demo '$(cat "$ap_tmp/cg.out")', agent rate '$ap_cs'; $(tail -3 "$ap_tmp/agent.log")"
		return
	fi
	ap_within "agent-cgroup-switches: rate() of the cgroup's context switches vs pms-rates' own (getrusage)" \
		"$ap_cs" "$(awk -v k="$1" -v t="$3" 'BEGIN { print k / t }')" 5
	ap_within "agent-cgroup-faults: rate() of the cgroup's page faults vs pms-rates' own (getrusage)" \
		"$ap_pf" "$(awk -v m="$2" -v t="$3" 'BEGIN { print m / t }')" 5

	for ev in cs pf; do
		for c in $(seq 0 $(($(nproc) - 1))); do
			ap_a=$(grep "\"cpu\":\"$c\"" "$ap_tmp/a_$ev" | awk '{ print $NF }')
			ap_n=$(grep "\"cpu\":\"$c\"" "$ap_tmp/n_$ev" | awk '{ print $NF }')
			if [ -z "$ap_a" ] || [ -z "$ap_n" ]; then
				fail "agent-vs-node-exporter-$ev-cpu$c" "no series: agent '$ap_a', node_exporter '$ap_n'"
				continue
			fi
			ap_within "agent-vs-node-exporter-$ev-cpu$c: rate() per CPU, agent vs node_exporter" "$ap_a" "$ap_n" 2
		done
	done
}

if "$PMUSCOPE" agent -h >/dev/null 2>&1; then
	. "$TOP/tests/lib/prom.sh"
	ap_main
	ap_cleanup
else
	fail "agent-prometheus" "pmuscope has no agent command"
fi
