#!/bin/sh
# History that stays (issue 30): G and back keeps every process row's trend and its
# detail chart's span, and the cgroup rows' trends (a gap where they were not shown).
# A process watched in its own cgroup, busy, so that every interval has a glyph. Root
# with cgroup2 only: the test makes its cgroup and removes it.
# Usage: history.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: history.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-history-$$"
CAP="${TMPDIR:-/tmp}/pmutop-history-$$.txt"
. "$(dirname "$0")/lib.sh"
ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ "$(id -u)" != 0 ] || [ -z "$ROOT" ]; then
	echo "skipped: needs root and a cgroup2 mount"
	exit 0
fi
CG="pmutop-hist-$$"
mkdir -p "$ROOT/$CG" || { echo "FAIL: cannot make $ROOT/$CG"; exit 1; }
sh -c "echo \$\$ > '$ROOT/$CG/cgroup.procs' && exec sh -c 'while :; do :; done'" &
BUSY=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$BUSY" 2>/dev/null
	sleep 0.2
	rmdir "$ROOT/$CG" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM

RAMP='(▁|▂|▃|▄|▅|▆|▇|█)'
# Wait for /$1/, then the same screen must show /$2/: what the first frame after a key
# shows, before later ticks could make it up again.
expect_with() {
	wait_for "$1" || { fail "$3: no /$1/"; return; }
	grep -Eq -- "$2" "$CAP" || fail "$3: expected /$2/ on the screen with /$1/"
}

t new-session -d -s e2e -x 150 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 -p $BUSY; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'TREND +COMMAND' 100 || { fail "no TREND column within 10 s"; exit 1; }

# 1. G and back: the process's 12 intervals and more are still there at once; the
# cgroup's 8, beside the gap while processes were shown.
expect "^ *$BUSY .*$RAMP{12,} +sh" "a trend of 12 intervals"
keys G
expect "^ +cg .*$RAMP{8,} +$CG\$" "G: the cgroup's trend of 8 intervals"
keys G
expect_with "^ *$BUSY .* sh\$" "^ *$BUSY .*$RAMP{14,} +sh" "G and back: the process's trend kept"
wait_ticks 2 || fail "no tick while processes were shown"
keys G
expect_with "^ +cg .* $CG\$" "^ +cg .*$RAMP{8,}.* $CG\$" "G again: the cgroup's trend kept"
wait_ticks 2 || fail "no tick while cgroups were shown"
keys G
keys Enter
expect_with "^CPU% +last" "^CPU% +last .* over ([7-9]|[1-9][0-9])s" \
	"the detail chart spans the intervals before G"
keys Escape
expect "TREND +COMMAND" "Esc: the table"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "history through G and back"
