# SPDX-License-Identifier: MIT
# pmuscope top's terminal view, driven through tmux as a person would: keys typed with
# send-keys, the screen read back with capture-pane. On pms-shares --leaves:
#  - the screen lists leaf_alpha, leaf_bravo, leaf_delta in that order (their 50/30/20 shares);
#  - / with a regex keeps the matching rows only, an empty one brings the others back;
#  - k hides kernel rows, z zeroes each refresh (header says so), p pauses (header says so);
#  - Enter shows the selected row's callers, c turns them main first, a annotates the selected
#    function (its hottest loop), h shows the keys;
#  - at 40 columns the rows are still there and no line is wider than the window;
#  - TERM=dumb prints batch text with a notice instead;
#  - SIGTERM ends it as q does;
#  - q quits with status 0 and the terminal's modes are as before (stty -a, but for the size:
#    the window was resized).
# Every wait polls the screen (up to 15 s), so a loaded machine only makes it slower.

tt_tmp=$(mktemp -d)
tt_sock="pms-top-test-$$"

tt_tmux() {
	tmux -L "$tt_sock" "$@"
}

tt_screen() {
	tt_tmux capture-pane -p -t top 2>/dev/null
}

# tt_wait REGEX: until the screen matches (0), or 15 s have passed (1).
tt_wait() {
	tt_i=0
	while [ $tt_i -lt 60 ]; do
		if tt_screen | grep -qE -- "$1"; then
			return 0
		fi
		sleep 0.25
		tt_i=$((tt_i + 1))
	done
	return 1
}

# tt_check NAME REGEX [NOT_REGEX]: the screen shows REGEX (and, once it does, not NOT_REGEX).
tt_check() {
	if tt_wait "$2" && { [ -z "${3:-}" ] || ! tt_screen | grep -qE -- "$3"; }; then
		pass "$1"
	else
		fail "$1" "screen: $(tt_screen | head -n 14 | tr '\n' '|')"
	fi
}

tt_run() {
	"$BUILD_DIR/demo/pms-shares" --leaves --seconds 120 >/dev/null &
	tt_w=$!
	tt_tmux new-session -d -s top -x 100 -y 30 \
		"stty -a | sed 's/rows [0-9]*; columns [0-9]*; //' >'$tt_tmp/stty.before'; '$PMUSCOPE' top -d 1 -p $tt_w; echo \$? >'$tt_tmp/rc'; stty -a | sed 's/rows [0-9]*; columns [0-9]*; //' >'$tt_tmp/stty.after'; sleep 60"
	# the hot functions, in order of their shares
	if tt_wait "leaf_delta" && sleep 2 && tt_screen | grep -E '\[\.\] leaf_(alpha|bravo|delta)' | head -n 3 |
		sed 's/.*\] //' | tr '\n' ' ' | grep -q "^leaf_alpha leaf_bravo leaf_delta $"; then
		pass "tui_rows: leaf_alpha, leaf_bravo, leaf_delta in order"
	else
		fail "tui_rows" "screen: $(tt_screen | head -n 12 | tr '\n' '|')"
	fi
	tt_tmux send-keys -t top /
	tt_check "tui_filter_prompt" "symbols matching \(regex"
	tt_tmux send-keys -t top "bra" Enter
	tt_check "tui_filter: /bra keeps leaf_bravo only" "symbols /bra/" "leaf_alpha|leaf_delta"
	tt_tmux send-keys -t top / Enter
	tt_check "tui_filter_cleared" "leaf_alpha"
	tt_tmux send-keys -t top k
	tt_check "tui_k: kernel rows hidden" "kernel functions hidden" '\[k\]'
	tt_tmux send-keys -t top k z
	tt_check "tui_z: each refresh from zero" "^pmuscope top \(zeroed"
	tt_tmux send-keys -t top z p
	tt_check "tui_p: paused" "^pmuscope top \(PAUSED"
	tt_tmux send-keys -t top p
	tt_check "tui_p: resumed" "resumed"
	tt_tmux send-keys -t top Home Enter
	tt_check "tui_enter: callers under the row" "leaf_alpha <- alpha <- run <- main"
	tt_tmux send-keys -t top c
	tt_check "tui_c: caller order" "main -> run -> alpha -> leaf_alpha"
	tt_tmux send-keys -t top Home a
	tt_check "tui_a: the selected function annotated" "Disassembly of pms-shares .*Hottest|Hottest loop: "
	tt_tmux send-keys -t top a
	tt_check "tui_a_back: a again returns to the rows" "^Overhead"
	tt_tmux send-keys -t top h
	tt_check "tui_help" "pmuscope top: keys"
	tt_tmux send-keys -t top x
	tt_check "tui_help_closes" "Overhead"
	tt_tmux resize-window -t top -x 40 -y 20
	if tt_wait "^Overhead" && sleep 1.5 && tt_screen | grep -q "leaf_alpha" && tt_screen | grep -q "leaf_bravo" &&
		[ "$(tt_screen | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')" -le 40 ]; then
		pass "tui_narrow: 40 columns, rows still readable"
	else
		fail "tui_narrow" "screen: $(tt_screen | tr '\n' '|')"
	fi
	tt_tmux send-keys -t top q
	tt_i=0
	while [ ! -s "$tt_tmp/rc" ] && [ $tt_i -lt 40 ]; do
		sleep 0.25
		tt_i=$((tt_i + 1))
	done
	if [ "$(cat "$tt_tmp/rc" 2>/dev/null)" = 0 ] && [ -s "$tt_tmp/stty.before" ] &&
		cmp -s "$tt_tmp/stty.before" "$tt_tmp/stty.after"; then
		pass "tui_quit: q exits 0 and the terminal's modes are as before"
	else
		fail "tui_quit" "exit '$(cat "$tt_tmp/rc" 2>/dev/null)'; stty: $(diff "$tt_tmp/stty.before" "$tt_tmp/stty.after" 2>&1 | head -c 300)"
	fi
	tt_tmux kill-session -t top 2>/dev/null
	# SIGTERM: the same orderly exit as q
	rm -f "$tt_tmp/rc"
	tt_tmux new-session -d -s top -x 100 -y 30 \
		"stty -a >'$tt_tmp/stty.before'; '$PMUSCOPE' top -d 0.5 -p $tt_w; echo \$? >'$tt_tmp/rc'; stty -a >'$tt_tmp/stty.after'; sleep 60"
	if tt_wait "leaf_alpha" && tt_pid=$(pgrep -f "^$PMUSCOPE top -d 0.5 -p $tt_w\$") && kill -TERM $tt_pid; then
		tt_i=0
		while [ ! -s "$tt_tmp/rc" ] && [ $tt_i -lt 40 ]; do
			sleep 0.25
			tt_i=$((tt_i + 1))
		done
	fi
	if [ -s "$tt_tmp/rc" ] && cmp -s "$tt_tmp/stty.before" "$tt_tmp/stty.after"; then
		pass "tui_sigterm: SIGTERM ends top and restores the terminal (exit $(cat "$tt_tmp/rc"))"
	else
		fail "tui_sigterm" "pid '${tt_pid:-}', exit '$(cat "$tt_tmp/rc" 2>/dev/null)'; $(diff "$tt_tmp/stty.before" "$tt_tmp/stty.after" 2>&1 | head -c 300)"
	fi
	tt_tmux kill-session -t top 2>/dev/null
	# TERM=dumb: text refreshes and a notice, on the terminal
	tt_tmux new-session -d -s top -x 100 -y 30 "TERM=dumb '$PMUSCOPE' top -n 2 -d 0.5 -p $tt_w -E 5; sleep 30"
	tt_check "tui_dumb_terminal: batch text with a notice" "TERM is dumb: no terminal view"
	tt_tmux kill-session -t top 2>/dev/null
	kill $tt_w 2>/dev/null
	wait $tt_w 2>/dev/null
}

if ! command -v tmux >/dev/null 2>&1; then
	skip "tui_all" "tmux is not installed (make deps installs it)"
elif ! "$PMUSCOPE" top -h >/dev/null 2>&1 || [ ! -r /sys/kernel/btf/vmlinux ]; then
	skip "tui_all" "top not in this build or no /sys/kernel/btf/vmlinux"
else
	tt_run
fi
tt_tmux kill-server 2>/dev/null
rm -rf "$tt_tmp"
