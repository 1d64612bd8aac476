#!/bin/sh
# The selection holds (issue 37, item 1): a process chosen with / stays chosen through
# every view change (G G, t t, H H, c c, K K, F6 and another sort, a filter that hides
# it and is cleared, Z Z), and F9 then offers to signal that same process, naming its
# pid and command.
# Usage: select.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: select.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-select-$$"
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
NAME="pmse$$" # a name no other process has
cp "$(command -v sleep)" "$TMP/$NAME" || exit 1
"$TMP/$NAME" 301 &
P=$!
# Exec'd (its name its own) before pmutop first reads it.
w=0
while [ "$(cat "/proc/$P/comm" 2>/dev/null)" != "$NAME" ] && [ "$w" -lt 300 ]; do
	sleep 0.1
	w=$((w + 1))
done
cleanup() {
	t kill-server 2>/dev/null
	kill "$P" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'PID +USER' 100 || { fail "no first frame within 10 s"; exit 1; }

# Chosen by a search, which hides nothing, once the rows are counted; F9 names it.
wait_ticks 2 || fail "the screen does not tick"
keys /
keys -l "$NAME"
expect_text "Search: $NAME" "/: the search typed"
expect "^ *$P .* $NAME *\$" "/: the sleeper found"
keys Enter
wait_ticks 1
keys F9
expect_text "Send to $P $NAME" "F9 after the search: the sleeper"
keys Escape

# One view change after another, each given a tick to redraw under it.
check() {
	wait_ticks 2 || fail "$1: the screen stopped ticking"
	keys F9
	expect_text "Send to $P $NAME" "$1, then F9: the same process"
	keys Escape
	expect_gone "Send to" "Esc: the signal menu"
}
keys G
expect "^ +cg " "G: cgroup rows"
keys G
check "G G"
keys t
wait_ticks 1
keys t
check "t t"
keys H
wait_ticks 1
keys H
check "H H"
keys c
wait_ticks 1
keys c
check "c c"
keys K
wait_ticks 1
keys K
check "K K"
keys F6
expect "Sort by" "F6: the sort menu"
keys End Enter
check "F6, another sort"
keys '\'
keys -l "zz-no-such-$$"
wait_ticks 1
keys Escape
check "a filter that hid it, cleared"
keys Z
wait_ticks 1 || true
keys Z
check "Z Z"
finish "select"
