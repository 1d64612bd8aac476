#!/bin/sh
# The screen as terminals differ: 80x24 with the real no-PMU notice wrapped whole,
# NO_COLOR, LANG=C (ASCII glyphs), and a hostile process name shown sanitised.
# Usage: ui.sh PMUTOP HOSTILE_HELPER [TMUX]
set -u
PMUTOP=${1:?usage: ui.sh PMUTOP HOSTILE [TMUX]}
HOSTILE=${2:?usage: ui.sh PMUTOP HOSTILE [TMUX]}
TMUX_BIN=${3:-tmux}
SOCK="pmutop-ui-$$"
CAP="${TMPDIR:-/tmp}/pmutop-ui-$$.txt"
. "$(dirname "$0")/lib.sh"

HPID=
cleanup() {
	t kill-server 2>/dev/null
	[ -n "$HPID" ] && kill "$HPID" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM

"$HOSTILE" &
HPID=$!

RUN=0
start() {
	# A fresh server each time: a new one on a just-killed socket may not come up.
	t kill-server 2>/dev/null
	RUN=$((RUN + 1))
	SOCK="pmutop-ui-$$-$RUN"
	t new-session -d -s e2e -x 80 -y 24 "$1; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'PID +USER' 100 || fail "$2: no first frame"
}

# 80x24, UTF-8, colour: no header line is cut; the state fields stay on line 2.
start "env LC_ALL=C.UTF-8 '$PMUTOP'" "80x24"
capture
awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$CAP" || fail "80x24: a line over 80"
if grep -q 'no hardware PMU' "$CAP"; then
	# The notice wraps: its last words are on screen, in the header.
	grep -q 'showing software events' "$CAP" || fail "80x24: the notice is cut"
	grep -q 'PMU none (software events only)' "$CAP" || fail "80x24: bare 'PMU none'"
fi
sed -n 2p "$CAP" | grep -q 'threads off' || fail "80x24: line 2 lost 'threads'"
sed -n 2p "$CAP" | grep -q 'user+kernel' || fail "80x24: line 2 lost 'user+kernel'"

# The hostile name: sanitised ('?' for ESC and BEL), never interpreted. Sorted by
# command it is near the top ('[' sorts after letters, '\033' before them).
expect '\?\[31mevil\?' "80x24: hostile name sanitised" 80
[ "$(t display -p -t e2e '#{pane_title}')" != "evil" ] || fail "the name reached the terminal"

# H with thread rows: a single-threaded process shows once. Counted by its pid: another
# run of this test beside it has a helper of the same name.
keys H
expect 'threads on' "H: threads on"
wait_ticks 2 || fail "H: the tick number did not move"
n=$(grep -cE "^ *$HPID " "$CAP")
[ "$n" -le 1 ] || fail "H: the single-threaded helper shows $n times"

# Help fits 80 columns.
keys h
expect 'Marks in the cells' "help"
for _ in 1 2 3 4 5; do
	capture
	awk 'length($0) > 80 { bad = 1 } END { exit bad }' "$CAP" || fail "help: a line over 80"
	keys NPage
	sleep 0.2
done
keys q

# NO_COLOR: still a screen, the sort arrow and marks as text.
start "env NO_COLOR=1 LC_ALL=C.UTF-8 '$PMUTOP'" "NO_COLOR"
expect 'F1Help' "NO_COLOR: key bar"
expect 'CPU%▼' "NO_COLOR: sort arrow"

# LANG=C: ASCII glyphs only.
start "env -u LC_ALL LANG=C LC_CTYPE=C '$PMUTOP'" "LANG=C"
expect 'CPU%v' "LANG=C: ASCII sort arrow"
keys H
expect 'threads on' "LANG=C: threads on"
wait_ticks 2 || fail "LANG=C: the tick number did not move"
LC_ALL=C grep -q "$(printf '[\200-\377]')" "$CAP" && fail "LANG=C: non-ASCII on screen"
keys F6
expect '\+- Sort by -' "LANG=C: ASCII menu frame"
keys Escape
keys q
finish "ui"
