#!/bin/sh
# H and c take effect at once, paused too (issue 37, item 5): with the screen paused
# (Z, a long interval besides), H shows the helper's thread rows and c its command
# line, without waiting for a tick that a pause never brings.
# Usage: toggles.sh PMUTOP THREADS_HELPER [TMUX]
set -u
PMUTOP=${1:?usage: toggles.sh PMUTOP THREADS_HELPER [TMUX]}
HELPER=${2:?usage: toggles.sh PMUTOP THREADS_HELPER [TMUX]}
TMUX_BIN=${3:-tmux}
SOCK="pmutop-toggles-$$"
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
OUT="$TMP/pid"
. "$(dirname "$0")/lib.sh"

# The helper under a short name of this run's, in TMP: its command line must fit the
# COMMAND column whatever the path of the build (CI clones at a long one), and the
# filter must match it alone.
NAME="pmtgl$$"
cp "$HELPER" "$TMP/$NAME" || exit 1
"$TMP/$NAME" argmark$$ >"$OUT" &
HPID=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$HPID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
n=0
while [ ! -s "$OUT" ] && [ "$n" -lt 300 ]; do sleep 0.1; n=$((n + 1)); done
TIDS=$(ls "/proc/$HPID/task" 2>/dev/null | grep -v "^$HPID\$")
[ "$(echo "$TIDS" | wc -w)" -eq 3 ] || { echo "FAIL: helper has no 3 threads"; exit 1; }

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'PID +USER' 100 || { fail "no first frame within 10 s"; exit 1; }
wait_ticks 2 || fail "the screen does not tick"
# The helper alone (a filter by its name, as the kernel keeps it: 15 bytes).
keys '\'
keys -l "$NAME"
keys Enter
expect "^ *$HPID " "the helper listed"
keys Z
expect "PAUSED" "Z: paused"
keys H
for tid in $TIDS; do
	expect "^ *$tid " "H while paused: thread $tid shown at once"
done
keys c
expect "$NAME argm" "c while paused: the command line shown at once"
finish "toggles"
