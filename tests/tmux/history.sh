#!/bin/sh
# History that stays (issue 30): G and back keeps every process row's trend and its
# detail chart's span, and the cgroup rows' trends (a gap where they were not shown);
# a new sort column's TREND has its history; the detail view of a process that ends keeps
# its charts and last values, marked ended.
# A process watched in its own cgroup, busy, so that every interval has a glyph. Root
# with cgroup2 only: the test makes its cgroup and removes it.
# Usage: history.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: history.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-history-$$-1"
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
# A process with a name of its own (a link's name is its comm), to find and to end.
DIR=$(mktemp -d) || exit 1
VNAME="pmhv$$"
ln -s "$(command -v sh)" "$DIR/$VNAME"
VICTIM=
cleanup() {
	for s in 1 2; do "$TMUX_BIN" -L "pmutop-history-$$-$s" kill-server 2>/dev/null; done
	kill "$BUSY" $VICTIM 2>/dev/null
	sleep 0.2
	rmdir "$ROOT/$CG" 2>/dev/null
	rm -rf "$CAP" "$DIR"
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
wait_for 'TREND( [^ ]+)? +COMMAND' 100 || { fail "no TREND column within 10 s"; exit 1; }

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
expect "TREND( [^ ]+)? +COMMAND" "Esc: the table"

# 3. A new sort column's TREND has its intervals from before it was chosen (a tick
# later: until the screen's next interval a column not kept would show CPU%'s).
keys '>'
expect "CSW(▼|▲)" "> sorts by CSW"
wait_ticks 2 || fail "no tick after sorting by CSW"
expect_with "CSW(▼|▲)" "^ *$BUSY .*$RAMP{14,} +sh" "sorted by CSW: its trend kept"
keys '>'
expect "MIGR(▼|▲)" "> sorts by MIGR"
wait_ticks 2 || fail "no tick after sorting by MIGR"
expect_with "MIGR(▼|▲)" "^ *$BUSY .*$RAMP{14,} +sh" "sorted by MIGR: its trend kept"
keys q
expect 'EXIT=0' "q quits with status 0"
t kill-server 2>/dev/null

# 2. A process ends while its detail view is open: the charts and last values stay,
# marked ended, ticks later, until Esc.
"$DIR/$VNAME" -c 'while :; do :; done' &
VICTIM=$!
SOCK="pmutop-history-$$-2"
t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'TREND( [^ ]+)? +COMMAND' 100 || { fail "no TREND column within 10 s"; exit 1; }
keys '\' "$VNAME" Enter
expect "^ *$VICTIM .*$RAMP{4,} +$VNAME" "the process to end, with a trend"
keys Enter
expect "^CPU% +last .* over [1-9][0-9]*s" "its detail view's CPU% chart"
kill "$VICTIM"
expect_text "ended: its last values and charts" "the process ended: said so"
sleep 1.5 # some ticks at -d 0.3: what stays has to stay
expect_with "^ended: " "^PID $VICTIM +$VNAME \(exited\)" "ended: who it was"
grep -Eq "^CPU% +last [0-9.]+ +min [0-9.]+ +max [0-9.]+ +over [1-9][0-9]*s" "$CAP" ||
	fail "ended: the CPU% chart's last values stay"
grep -Eq "(⣿|⣶|⣤|⣀)" "$CAP" || fail "ended: the chart stays"
keys Escape
expect "TREND( [^ ]+)? +COMMAND" "Esc: the table"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "history through G and back; the detail view of a process that ended"
