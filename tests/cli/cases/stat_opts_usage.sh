# perf stat's everyday options: their usage errors (exit 129) and the hardware ones refused with
# what this machine lacks; nothing is counted in any of them.
for args in "--per-core true" "--per-socket -p 1" "--per-core --per-node -a true" "-A --per-die -a true" \
	"--per-thread --per-core -a true" "-o x --log-fd 2 true" "--log-fd 77 true" "--all-user --all-kernel true" \
	"-n -e task-clock true" "-n -d true" "-n -a" "--interval-clear true" "--interval-clear -I 100 true" \
	"--summary true" "--table true" "--table -r 1 true" "--pre true -a" "--post true -p 1" \
	"--td-level 1 true" "-g -e {task-clock,page-faults},cpu-clock true" "-D x true" "-D -2 true" \
	"-G foo true" "--for-each-cgroup foo -G foo -a true" "-G a,b -e task-clock -a true" "-M ipx true" "-M IPC,nope true" \
	"--percore-show-thread true" "--control fd:3 true" "--filter x true" "--iostat true"; do
	echo "== stat $args"
	# shellcheck disable=SC2086
	"$PMUSCOPE" stat $args >out 2>&1
	rc=$?
	grep -v '^usage:\|^(see' out
	echo "exit=$rc"
done
# hardware options: refused with a reason (what this machine lacks; the kernel tests check it)
for args in "--topdown true" "-T true" "--smi-cost -a true" "--cputype core true"; do
	# shellcheck disable=SC2086
	"$PMUSCOPE" stat $args >out 2>&1
	echo "stat $args: exit=$? $(grep -c '^pmuscope: error: ' out) error"
done
