#!/bin/sh
# A watched command on the screen ends with pmutop, never orphaned: q asks once while it
# runs, q again stops it (SIGTERM) and pmutop exits with its status; Ctrl-C reaches the
# command too, as under perf stat, and pmutop waits for it and exits with its status.
# Usage: command.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: command.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-command-$$"
CAP="${TMPDIR:-/tmp}/pmutop-command-$$.txt"
. "$(dirname "$0")/lib.sh"
# Sleeps no other process runs: their count is found by pgrep.
S1="126.$$"
S2="127.$$"
cleanup() {
	t kill-server 2>/dev/null
	pkill -f "^sleep $S1" 2>/dev/null
	pkill -f "^sleep $S2" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM

RUNS=0
start() { # COMMAND...: pmutop watching it, in a session of a server of its own
	t kill-server 2>/dev/null
	RUNS=$((RUNS + 1))
	SOCK="pmutop-command-$$-$RUNS" # a server still going away refuses a new session
	t new-session -d -s e2e -x 120 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 -- $*; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
}

start sleep "$S1"
pgrep -f "^sleep $S1" >/dev/null || fail "the command runs"
keys q
expect 'still running: q again stops it' "the first q asks"
pgrep -f "^sleep $S1" >/dev/null || fail "the first q leaves the command running"
expect_not 'EXIT=' "the first q does not quit"
keys q
expect 'EXIT=143' "the second q stops the command and exits with its status (SIGTERM)" 80
sleep 0.2
! pgrep -f "^sleep $S1" >/dev/null || fail "q left the command running"

start sh -c "'sleep $S2'"
pgrep -f "^sleep $S2" >/dev/null || fail "the second command runs"
keys C-c
expect 'EXIT=130' "Ctrl-C: the command got SIGINT, pmutop exits with its status" 80
sleep 0.2
! pgrep -f "^sleep $S2" >/dev/null || fail "Ctrl-C left the command running"
finish "q and Ctrl-C with a watched command"
