#!/bin/sh
# Watching one process from the screen, end to end: p asks for a pid and shows that
# process with a row per thread; Esc returns to all processes; Enter on a selected row
# (its detail view) and Enter there focuses its process too.
# Usage: focus.sh PMUTOP THREADS_HELPER [TMUX]
set -u
PMUTOP=${1:?usage: focus.sh PMUTOP THREADS_HELPER [TMUX]}
HELPER=${2:?usage: focus.sh PMUTOP THREADS_HELPER [TMUX]}
TMUX_BIN=${3:-tmux}
SOCK="pmutop-focus-$$"
CAP="${TMPDIR:-/tmp}/pmutop-focus-$$.txt"
OUT="${TMPDIR:-/tmp}/pmutop-focus-$$.pid"
. "$(dirname "$0")/lib.sh"

# The helper under a name of this run's: the filter below must match it alone, not the
# same helper that another test runs beside this one.
NAME="pmfoc$$"
BIN="${TMPDIR:-/tmp}/$NAME"
cp "$HELPER" "$BIN" || exit 1
"$BIN" >"$OUT" &
HPID=$!
cleanup() { t kill-server 2>/dev/null; kill "$HPID" 2>/dev/null; rm -f "$CAP" "$OUT" "$BIN"; }
trap cleanup EXIT INT TERM
n=0
while [ ! -s "$OUT" ] && [ "$n" -lt "$(limit 0)" ]; do sleep 0.1; n=$((n + 1)); done
TIDS=$(ls "/proc/$HPID/task" 2>/dev/null | grep -v "^$HPID\$")
[ "$(echo "$TIDS" | wc -w)" -eq 3 ] || { echo "FAIL: helper has no 3 threads"; exit 1; }

t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
expect 'Tasks [0-9]' "header"

# p, the pid, Enter: that process and its threads, nothing else.
keys p
expect 'PID' "pid prompt"
keys "$HPID" Enter
expect "Watching PID $HPID" "focus shown in the header line"
for tid in $TIDS; do
	expect "^ *$tid .*└─" "thread $tid listed under its process"
done
capture
others=$(awk '/PID +USER/ { on = 1; next } on && /^ *[0-9]+ / { print $1 }' "$CAP" |
	grep -v -x -e "$HPID" $(for tid in $TIDS; do printf ' -e %s' "$tid"; done) | wc -l)
[ "$others" -eq 0 ] || fail "focus: $others rows of other processes still shown"

# Esc: every process again.
keys Escape
expect_gone "Watching PID" "Esc leaves the focus"
expect '^ *[0-9]+ .*pmutop' "all processes again (pmutop's own row)"

# A thread's id, as -p refuses it: the screen has no thread rows to tell, the app asks
# /proc, and the view stays on every process.
tid=$(echo "$TIDS" | head -n 1)
keys p
expect 'PID' "pid prompt again"
keys "$tid" Enter
expect "$tid is a thread of process $HPID" "a thread's id refused"
expect_not "Watching PID" "no focus on a thread"

# Filter to the helper, select its row, Enter (its detail view), Enter: the same focus.
keys '\' "$NAME" Enter
expect "Filter: $NAME" "filter set"
keys Enter
expect "^PID $HPID " "Enter on the selected row opens its detail view"
keys Enter
expect "Watching PID $HPID" "Enter in the detail view focuses its process"
keys Escape
expect_gone "Watching PID" "Esc again"

keys q
expect 'EXIT=0' "q quits with status 0"
finish "focus on a pid, its threads, and back"
