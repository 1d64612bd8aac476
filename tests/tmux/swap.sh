#!/bin/sh
# The bpf backend refusing an event set on the screen (more than the 24 events its
# program counts): perf takes over, the screen keeps counting with the new events, the
# header says "counted by perf", and one line says why. Watching one sleeping process
# (-p), so that perf's fallback opens few descriptors.
# Usage: swap.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: swap.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-swap-$$"
CAP="${TMPDIR:-/tmp}/pmutop-swap-$$.txt"
. "$(dirname "$0")/lib.sh"

sleep 120 &
SLEEPER=$!
cleanup() { t kill-server 2>/dev/null; kill "$SLEEPER" 2>/dev/null; rm -f "$CAP"; }
trap cleanup EXIT INT TERM

# 32 software events: 8 kinds, user and kernel mode, twice over.
SPEC=""
for ev in task-clock context-switches cpu-migrations page-faults major-faults minor-faults \
	alignment-faults emulation-faults; do
	SPEC="$SPEC,$ev:u,$ev:k"
done
SPEC="${SPEC#,}$SPEC"

t new-session -d -s e2e -x 160 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' --backend bpf -p $SLEEPER -d 0.5; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
if ! wait_for 'pmutop +on |^EXIT=' 100; then
	fail "first frame: no header within 10 s"
	exit 1
fi
capture
if grep -q '^EXIT=' "$CAP"; then
	echo "skip: no bpf backend here ($(grep -m1 'backend bpf' "$CAP"))"
	exit 0
fi
expect 'counted by bpf' "the header names the bpf backend"
keys e
keys :
keys -l "$SPEC"
keys Enter
expect_text 'the bpf backend gave up (it counts 24 events at most): counting per task (perf)' \
	"one line says why" 50
expect 'counted by perf' "the header names perf from then on" 50
expect "^ *$SLEEPER root" "the watched process's row is there, counted by perf" 50
expect 'tick #[3-9]|tick #[1-9][0-9]' "and ticks go on" 50
keys q
wait_for '^EXIT=' 50 || fail "q: pmutop did not exit"
grep -q '^EXIT=0$' "$CAP" || fail "exit status not 0"
finish "bpf gives up an event set on the screen, perf takes over"
