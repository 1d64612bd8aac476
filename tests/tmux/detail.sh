#!/bin/sh
# The detail view says who its process is: state, resident memory, start time (the
# clock /proc's start gives), the cgroup, and the command line once c reads it.
# Usage: detail.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: detail.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-detail-perf-$$"
CAP="${TMPDIR:-/tmp}/pmutop-detail-$$.txt"
. "$(dirname "$0")/lib.sh"

ARG="4000.$$" # a command line no other process has
sleep "$ARG" &
SPID=$!
cleanup() {
	for b in perf bpf; do SOCK="pmutop-detail-$b-$$" t kill-server 2>/dev/null; done
	kill "$SPID" 2>/dev/null; rm -f "$CAP"
}
trap cleanup EXIT INT TERM

# When it started, as the clock reads it: boot time plus its start in ticks. btime is
# whole seconds, so the second either side is as right.
btime=$(awk '/^btime/ { print $2 }' /proc/stat)
ticks=$(sed 's/.*) //' "/proc/$SPID/stat" | awk '{ print $20 }')
hz=$(getconf CLK_TCK)
at=$((btime + ticks / hz))
when=""
for s in $((at - 1)) $at $((at + 1)); do
	when="$when${when:+|}$(date -d "@$s" '+%Y-%m-%d %H:%M:%S')"
done
cg=$(sed -n 's/^0:://p' "/proc/$SPID/cgroup")

# Both ways of counting fill the row: the perf engine and the bpf one.
run() {
	t new-session -d -s e2e -x 120 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' --backend $1 -d 0.5; echo EXIT=\$?; sleep 60" || {
		fail "cannot start tmux"
		return
	}
	wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; return; }

	# c: the filter matches command lines, so this sleeper's alone; c again, the name.
	keys c '\' "$ARG" Enter
	expect "Filter: $ARG" "filter set"
	expect "^ *$SPID .*sleep $ARG" "the sleeper's row, by its command line"
	# c again: names alone, which the filter (an argument) matches none of, as htop's
	# filter matches the command as shown. p shows the sleeper alone, by its pid.
	keys c
	expect "no task matches" "c again: the filter matches names only"
	keys Escape
	expect_gone "Filter: $ARG" "Esc clears the filter"
	keys p
	expect 'PID' "the pid prompt"
	keys "$SPID" Enter
	expect "Watching PID $SPID" "p: the sleeper alone"
	expect "^ *$SPID .*sleep\$" "the name again"
	keys Enter
	wait_for "^PID $SPID +sleep" || { fail "Enter opens its detail view"; return; }
	expect "^state S \\(sleeping\\)  RES [0-9.]+[KMG]  started ($when)\$" \
		"its state, memory and start time"
	expect_text "cgroup $cg" "its cgroup"
	expect_text "command line not read (c reads it)" "no command line before c"
	keys Escape
	expect "PID USER" "back to the table"
	keys c
	expect "^ *$SPID .*sleep $ARG" "command lines shown again"
	keys Enter
	expect "^command sleep $ARG\$" "its command line once c reads them"
	keys Escape q
	t kill-server 2>/dev/null
}
for b in perf bpf; do
	SOCK="pmutop-detail-$b-$$"
	run "$b"
done
[ "$FAILS" -eq 0 ] || exit 1
echo "detail: ok"
