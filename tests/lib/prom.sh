# SPDX-License-Identifier: MIT
# Shell harness for tests that need a real Prometheus server (and node_exporter) on
# 127.0.0.1: start them on free ports, query them through the HTTP API, stop them.
# POSIX sh (dash); needs curl and jq. Sourced: `. tests/lib/prom.sh`. Every function and
# global is prom_/_prom_/PROM_ (node_exporter_/NODE_EXPORTER_ for node_exporter's), so it can
# be sourced beside tests/kernel/*.sh in one shell. Errors go to stderr, results to stdout;
# functions return 0 on success, 1 otherwise. Call the start functions directly, never in
# $(...) (the server would be a child of the subshell and its pid useless).
#
#   prom_free_port
#       prints a TCP port free on 127.0.0.1 (python3 binds port 0; without python3, a random
#       port in 20000-59999 not in /proc/net/tcp{,6}).
#
#   prom_start DIR TARGET...
#       writes DIR/prometheus.yml (global scrape_interval and evaluation_interval
#       $PROM_SCRAPE_INTERVAL, default 1s; scrape_timeout the same), starts
#         prometheus --config.file=DIR/prometheus.yml --storage.tsdb.path=DIR/data
#                    --web.listen-address=127.0.0.1:PORT --log.level=warn
#       in the background (log DIR/prometheus.log), waits until /-/ready answers (at most
#       $PROM_START_TIMEOUT s, default 30) and sets PROM_URL (http://127.0.0.1:PORT), PROM_PID,
#       PROM_PORT, PROM_DIR. The config is checked first with `promtool check config` when
#       promtool is there. A port taken meanwhile is retried on another (3 tries). On failure
#       prints the reason and the tail of the log, and leaves nothing running.
#       TARGET is one scrape job, comma-separated:
#         JOB=HOST:PORT[,scheme=https][,path=/metrics][,ca=FILE][,cert=FILE,key=FILE]
#                      [,server_name=NAME][,insecure=1][,user=U][,pass=P|,pass_file=FILE]
#                      [,interval=1s][,timeout=1s][,param=NAME=VALUE]
#         e.g. node=127.0.0.1:9100   agent=127.0.0.1:9464,scheme=https,ca=/t/ca.pem,user=u,pass=p
#       (ca/cert/key/server_name/insecure make a tls_config; user with pass or pass_file a
#       basic_auth; values may not contain a comma).
#
#   prom_query EXPR [TIME]
#       instant query (POST /api/v1/query, at unix TIME, default now). Prints one line per
#       element: a vector as `LABELS-JSON VALUE` (labels compact, sorted, e.g.
#       `{"__name__":"up","instance":"127.0.0.1:9100","job":"node"} 1`; `{}` after sum()),
#       a scalar or string as `VALUE`, a matrix as `LABELS-JSON VALUE@TIME VALUE@TIME...`.
#       Nothing printed for an empty result (still returns 0). Returns 1 with the API's
#       error on stderr if the query fails.
#
#   prom_value EXPR [TIME]
#       the value of the first element only (for sum(...) and other one-element results);
#       returns 1 (nothing printed) if the result is empty.
#
#   prom_wait_series SELECTOR MIN_SAMPLES TIMEOUT
#       waits at most TIMEOUT seconds until every series SELECTOR matches has at least
#       MIN_SAMPLES samples stored (min(count_over_time(SELECTOR[1h])) >= MIN_SAMPLES), so
#       that rate() over them means something. SELECTOR is a metric name with optional
#       {matchers}. With MIN_SAMPLES 0 or 1 any expression works: it waits until it returns
#       a value. Returns 1 on timeout with the last count on stderr.
#
#   prom_targets_up [TIMEOUT]
#       every active target in /api/v1/targets has health "up" (waiting up to TIMEOUT s,
#       default 0, for the first scrapes). Otherwise prints `JOB INSTANCE HEALTH LASTERROR`
#       for each target that is not up (stdout) and returns 1.
#
#   prom_check_metrics URL
#       fetches URL (a /metrics page; curl options in $PROM_CURL_OPTS, e.g. --cacert) and runs
#       `promtool check metrics` on it: prints promtool's findings, returns its status.
#
#   prom_stop
#       SIGTERM to PROM_PID, waits (10 s, then SIGKILL), clears PROM_PID. Safe to call twice.
#
#   node_exporter_start PORT|auto [ARG...]
#       starts `prometheus-node-exporter` ($NODE_EXPORTER, or node_exporter from PATH)
#       --web.listen-address=127.0.0.1:PORT --collector.disable-defaults --collector.perf ARG...
#       (ARG: more collectors or flags, e.g. --collector.perf.cpus=0-1), logging to
#       $NODE_EXPORTER_LOG (default a temporary file, removed by node_exporter_stop); waits
#       until /metrics answers (15 s) and sets NODE_EXPORTER_PID, NODE_EXPORTER_PORT and
#       NODE_EXPORTER_URL (http://127.0.0.1:PORT). On failure prints the log's tail.
#
#   node_exporter_stop
#       stops it like prom_stop. Safe to call twice.

PROM_PID=${PROM_PID:-}
NODE_EXPORTER_PID=${NODE_EXPORTER_PID:-}

# _prom_get URL: the body of a GET, 5 s at most, no proxy
_prom_get() {
	curl -sS -f --noproxy '*' -m 5 "$1"
}

prom_free_port() {
	if command -v python3 >/dev/null 2>&1; then
		python3 -c 'import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])' && return 0
	fi
	# ports in use, hex in column 2 of /proc/net/tcp{,6}
	_prom_used=$(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null | awk 'NR > 1 { split($2, a, ":"); print a[2] }')
	_prom_try=0
	while [ $_prom_try -lt 100 ]; do
		_prom_port=$(awk -v s="$$$_prom_try" 'BEGIN { srand(s + 0); print 20000 + int(rand() * 40000) }')
		_prom_hex=$(printf '%04X' "$_prom_port")
		if ! printf '%s\n' "$_prom_used" | grep -qx "$_prom_hex"; then
			echo "$_prom_port"
			return 0
		fi
		_prom_try=$((_prom_try + 1))
	done
	echo "prom_free_port: no free port found" >&2
	return 1
}

# _prom_yq VALUE: VALUE as a single-quoted YAML scalar
_prom_yq() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"
}

# _prom_job TARGET: one scrape_configs entry in YAML
_prom_job() {
	_prom_job_name=${1%%=*}
	_prom_rest=${1#*=}
	if [ "$_prom_job_name" = "$1" ] || [ -z "$_prom_job_name" ] || [ -z "$_prom_rest" ]; then
		echo "prom_start: bad target '$1' (want JOB=HOST:PORT[,key=value...])" >&2
		return 1
	fi
	_prom_addr=${_prom_rest%%,*}
	_prom_opts=
	[ "$_prom_addr" != "$_prom_rest" ] && _prom_opts=${_prom_rest#*,}
	_prom_scheme='' _prom_path='' _prom_ca='' _prom_cert='' _prom_key='' _prom_sn='' _prom_insecure=''
	_prom_user='' _prom_pass='' _prom_pass_file='' _prom_interval='' _prom_timeout='' _prom_params=''
	_prom_ifs=$IFS
	IFS=,
	for _prom_kv in $_prom_opts; do
		_prom_v=${_prom_kv#*=}
		case $_prom_kv in
		scheme=*) _prom_scheme=$_prom_v ;;
		path=*) _prom_path=$_prom_v ;;
		ca=*) _prom_ca=$_prom_v ;;
		cert=*) _prom_cert=$_prom_v ;;
		key=*) _prom_key=$_prom_v ;;
		server_name=*) _prom_sn=$_prom_v ;;
		insecure=*) _prom_insecure=$_prom_v ;;
		user=*) _prom_user=$_prom_v ;;
		pass=*) _prom_pass=$_prom_v ;;
		pass_file=*) _prom_pass_file=$_prom_v ;;
		interval=*) _prom_interval=$_prom_v ;;
		timeout=*) _prom_timeout=$_prom_v ;;
		param=*) _prom_params="$_prom_params $_prom_v" ;;
		*)
			IFS=$_prom_ifs
			echo "prom_start: unknown option '$_prom_kv' in target '$1'" >&2
			return 1
			;;
		esac
	done
	IFS=$_prom_ifs
	echo "  - job_name: $(_prom_yq "$_prom_job_name")"
	[ -n "$_prom_interval" ] && echo "    scrape_interval: $_prom_interval"
	[ -n "$_prom_timeout" ] && echo "    scrape_timeout: $_prom_timeout"
	[ -n "$_prom_scheme" ] && echo "    scheme: $(_prom_yq "$_prom_scheme")"
	[ -n "$_prom_path" ] && echo "    metrics_path: $(_prom_yq "$_prom_path")"
	if [ -n "$_prom_params" ]; then
		echo "    params:"
		for _prom_p in $_prom_params; do
			echo "      $(_prom_yq "${_prom_p%%=*}"): [$(_prom_yq "${_prom_p#*=}")]"
		done
	fi
	if [ -n "$_prom_ca$_prom_cert$_prom_key$_prom_sn$_prom_insecure" ]; then
		echo "    tls_config:"
		[ -n "$_prom_ca" ] && echo "      ca_file: $(_prom_yq "$_prom_ca")"
		[ -n "$_prom_cert" ] && echo "      cert_file: $(_prom_yq "$_prom_cert")"
		[ -n "$_prom_key" ] && echo "      key_file: $(_prom_yq "$_prom_key")"
		[ -n "$_prom_sn" ] && echo "      server_name: $(_prom_yq "$_prom_sn")"
		case $_prom_insecure in 1 | true | yes) echo "      insecure_skip_verify: true" ;; esac
	fi
	if [ -n "$_prom_user" ]; then
		echo "    basic_auth:"
		echo "      username: $(_prom_yq "$_prom_user")"
		[ -n "$_prom_pass" ] && echo "      password: $(_prom_yq "$_prom_pass")"
		[ -n "$_prom_pass_file" ] && echo "      password_file: $(_prom_yq "$_prom_pass_file")"
	fi
	echo "    static_configs:"
	echo "      - targets: [$(_prom_yq "$_prom_addr")]"
	return 0
}

prom_start() {
	if [ $# -lt 2 ]; then
		echo "usage: prom_start DIR JOB=HOST:PORT[,opt=value...]..." >&2
		return 1
	fi
	if ! command -v prometheus >/dev/null 2>&1; then
		echo "prom_start: prometheus is not installed" >&2
		return 1
	fi
	PROM_DIR=$1
	shift
	mkdir -p "$PROM_DIR/data" || return 1
	_prom_si=${PROM_SCRAPE_INTERVAL:-1s}
	{
		echo "global:"
		echo "  scrape_interval: $_prom_si"
		echo "  scrape_timeout: $_prom_si"
		echo "  evaluation_interval: $_prom_si"
		echo "scrape_configs:"
	} >"$PROM_DIR/prometheus.yml"
	for _prom_t in "$@"; do
		_prom_job "$_prom_t" >>"$PROM_DIR/prometheus.yml" || return 1
	done
	if command -v promtool >/dev/null 2>&1 &&
		! _prom_out=$(promtool check config "$PROM_DIR/prometheus.yml" 2>&1); then
		echo "prom_start: promtool rejects $PROM_DIR/prometheus.yml: $_prom_out" >&2
		return 1
	fi
	_prom_tries=0
	while :; do
		_prom_tries=$((_prom_tries + 1))
		PROM_PORT=$(prom_free_port) || return 1
		PROM_URL=http://127.0.0.1:$PROM_PORT
		prometheus --config.file="$PROM_DIR/prometheus.yml" --storage.tsdb.path="$PROM_DIR/data" \
			--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$PROM_DIR/prometheus.log" 2>&1 &
		PROM_PID=$!
		_prom_deadline=$(($(date +%s) + ${PROM_START_TIMEOUT:-30}))
		while ! _prom_get "$PROM_URL/-/ready" >/dev/null 2>&1; do
			if ! kill -0 "$PROM_PID" 2>/dev/null; then
				wait "$PROM_PID" 2>/dev/null
				_prom_rc=$?
				PROM_PID=
				if [ $_prom_tries -lt 3 ] && grep -q "address already in use" "$PROM_DIR/prometheus.log"; then
					continue 2
				fi
				echo "prom_start: prometheus exited ($_prom_rc) before it was ready; its log:" >&2
				tail -n 15 "$PROM_DIR/prometheus.log" >&2
				return 1
			fi
			if [ "$(date +%s)" -ge $_prom_deadline ]; then
				echo "prom_start: prometheus not ready at $PROM_URL/-/ready after ${PROM_START_TIMEOUT:-30} s; its log:" >&2
				tail -n 15 "$PROM_DIR/prometheus.log" >&2
				prom_stop
				return 1
			fi
			sleep 0.2
		done
		return 0
	done
}

# _prom_stop_pid PID: SIGTERM, 10 s, SIGKILL, reaped
_prom_stop_pid() {
	kill "$1" 2>/dev/null || {
		wait "$1" 2>/dev/null
		return 0
	}
	_prom_n=0
	while kill -0 "$1" 2>/dev/null && [ $_prom_n -lt 100 ]; do
		# a zombie child still answers kill -0: reap it if it is ours
		if [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]; then
			break
		fi
		sleep 0.1
		_prom_n=$((_prom_n + 1))
	done
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	return 0
}

prom_stop() {
	[ -n "$PROM_PID" ] && _prom_stop_pid "$PROM_PID"
	PROM_PID=
	return 0
}

# _prom_api PATH FORM...: POST to the API, the JSON on stdout if status is success
_prom_api() {
	_prom_path=$1
	shift
	_prom_json=$(curl -sS --noproxy '*' -m 10 "$@" "$PROM_URL$_prom_path" 2>&1)
	if [ "$(printf '%s' "$_prom_json" | jq -r '.status' 2>/dev/null)" != success ]; then
		echo "prom: $_prom_path failed: $(printf '%s' "$_prom_json" | jq -r '"\(.errorType): \(.error)"' 2>/dev/null ||
			printf '%s' "$_prom_json" | head -c 300)" >&2
		return 1
	fi
	printf '%s\n' "$_prom_json"
}

prom_query() {
	if [ -z "${PROM_URL:-}" ]; then
		echo "prom_query: no PROM_URL (prom_start first)" >&2
		return 1
	fi
	if [ -n "${2:-}" ]; then
		_prom_res=$(_prom_api /api/v1/query --data-urlencode "query=$1" --data-urlencode "time=$2") || return 1
	else
		_prom_res=$(_prom_api /api/v1/query --data-urlencode "query=$1") || return 1
	fi
	printf '%s\n' "$_prom_res" | jq -r '.data as $d
		| if $d.resultType == "vector" then $d.result[] | "\(.metric | tojson) \(.value[1])"
		  elif $d.resultType == "matrix" then $d.result[]
			| "\(.metric | tojson) \([.values[] | "\(.[1])@\(.[0])"] | join(" "))"
		  else "\($d.result[1])" end'
}

prom_value() {
	_prom_out=$(prom_query "$@") || return 1
	_prom_line=$(printf '%s\n' "$_prom_out" | head -n 1)
	[ -n "$_prom_line" ] || return 1
	printf '%s\n' "${_prom_line##* }"
}

prom_wait_series() {
	_prom_min=$2
	_prom_deadline=$(($(date +%s) + $3))
	if [ "$_prom_min" -le 1 ]; then
		_prom_q=$1
	else
		_prom_q="min(count_over_time($1[1h]))"
	fi
	while :; do
		_prom_n=$(prom_value "$_prom_q" 2>/dev/null)
		if [ -n "$_prom_n" ]; then
			if [ "$_prom_min" -le 1 ] || awk -v n="$_prom_n" -v m="$_prom_min" 'BEGIN { exit !(n + 0 >= m + 0) }'; then
				return 0
			fi
		fi
		if [ "$(date +%s)" -ge $_prom_deadline ]; then
			echo "prom_wait_series: '$1' has ${_prom_n:-no} samples after $3 s (want $_prom_min)" >&2
			return 1
		fi
		sleep 0.25
	done
}

prom_targets_up() {
	_prom_deadline=$(($(date +%s) + ${1:-0}))
	while :; do
		if _prom_tj=$(_prom_api /api/v1/targets -G --data-urlencode state=active 2>&1); then
			_prom_bad=$(printf '%s\n' "$_prom_tj" | jq -r '.data.activeTargets
				| if length == 0 then "- - none no active targets" else
				  .[] | select(.health != "up") | "\(.labels.job) \(.labels.instance) \(.health) \(.lastError)" end')
		else
			_prom_bad="- - error $_prom_tj"
		fi
		[ -z "$_prom_bad" ] && return 0
		if [ "$(date +%s)" -ge $_prom_deadline ]; then
			printf '%s\n' "$_prom_bad"
			return 1
		fi
		sleep 0.25
	done
}

prom_check_metrics() {
	if ! command -v promtool >/dev/null 2>&1; then
		echo "prom_check_metrics: promtool is not installed" >&2
		return 1
	fi
	# shellcheck disable=SC2086
	_prom_body=$(curl -sS -f --noproxy '*' -m 10 ${PROM_CURL_OPTS:-} "$1") || {
		echo "prom_check_metrics: cannot fetch $1" >&2
		return 1
	}
	printf '%s\n' "$_prom_body" | promtool check metrics 2>&1
}

node_exporter_start() {
	_prom_ne=${NODE_EXPORTER:-}
	if [ -z "$_prom_ne" ]; then
		for _prom_c in prometheus-node-exporter node_exporter; do
			if command -v $_prom_c >/dev/null 2>&1; then
				_prom_ne=$_prom_c
				break
			fi
		done
	fi
	if [ -z "$_prom_ne" ]; then
		echo "node_exporter_start: neither prometheus-node-exporter nor node_exporter is installed" >&2
		return 1
	fi
	NODE_EXPORTER_PORT=${1:-auto}
	[ $# -gt 0 ] && shift
	if [ "$NODE_EXPORTER_PORT" = auto ]; then
		NODE_EXPORTER_PORT=$(prom_free_port) || return 1
	fi
	NODE_EXPORTER_URL=http://127.0.0.1:$NODE_EXPORTER_PORT
	if [ -n "${NODE_EXPORTER_LOG:-}" ]; then
		_prom_ne_log=$NODE_EXPORTER_LOG
		_prom_ne_tmplog=
	else
		_prom_ne_log=$(mktemp) || return 1
		_prom_ne_tmplog=$_prom_ne_log
	fi
	"$_prom_ne" --web.listen-address="127.0.0.1:$NODE_EXPORTER_PORT" --collector.disable-defaults \
		--collector.perf "$@" >"$_prom_ne_log" 2>&1 &
	NODE_EXPORTER_PID=$!
	_prom_deadline=$(($(date +%s) + 15))
	while ! _prom_get "$NODE_EXPORTER_URL/metrics" >/dev/null 2>&1; do
		if ! kill -0 "$NODE_EXPORTER_PID" 2>/dev/null || [ "$(date +%s)" -ge $_prom_deadline ]; then
			echo "node_exporter_start: $_prom_ne on 127.0.0.1:$NODE_EXPORTER_PORT did not answer /metrics; its log:" >&2
			tail -n 15 "$_prom_ne_log" >&2
			node_exporter_stop
			return 1
		fi
		sleep 0.2
	done
	return 0
}

node_exporter_stop() {
	[ -n "$NODE_EXPORTER_PID" ] && _prom_stop_pid "$NODE_EXPORTER_PID"
	NODE_EXPORTER_PID=
	[ -n "${_prom_ne_tmplog:-}" ] && rm -f "$_prom_ne_tmplog"
	_prom_ne_tmplog=
	return 0
}
