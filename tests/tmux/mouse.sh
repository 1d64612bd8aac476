#!/bin/sh
# Nothing the terminal sends may stop the loop: a click whose press and release come in
# separate reads (as a person clicks), and half a mouse report with nothing after it,
# must leave the screen ticking and Ctrl-C and q working. Both report formats: SGR
# (xterm-256color) and X10 (screen).
# Usage: mouse.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: mouse.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
RUN=0
SOCK="pmutop-mouse-$$-$RUN"
TMP="${TMPDIR:-/tmp}/pmutop-mouse-$$"
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP" || exit 1
# The servers' sockets in TMP, which goes at the end (tmux leaves them behind).
t() { "$TMUX_BIN" -S "$TMP/$SOCK" -f /dev/null "$@"; }

cleanup() {
	t kill-server 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

tick() { capture && grep -Eo 'tick #[0-9]+' "$CAP" | head -n 1 | tr -dc 0-9; }

# The header's tick counter moves past $1 within 20 s, or fail with $2.
ticks_after() {
	n=0
	while [ "$n" -lt 200 ]; do
		now=$(tick)
		[ -n "$now" ] && [ "$now" -gt "$1" ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "$2: the tick stayed at #$1"
}

# A server per run: one just killed may still be going away.
start() {
	t kill-server 2>/dev/null
	RUN=$((RUN + 1))
	SOCK="pmutop-mouse-$$-$RUN"
	t new-session -d -s e2e -x 120 -y 40 \
		"env TERM=$1 LC_ALL=C.UTF-8 '$PMUTOP' -d 0.2 ${2:-}; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	if ! wait_for 'tick #[0-9]+' 100; then
		fail "$1: no header within 10 s"
		finish "mouse"
	fi
}

# Sends $2 (bytes, printf format) in one write, then checks that the screen still ticks:
# two ticks, since the first may have been drawn before the bytes were read (then a key
# sent next can come within the 500 ms half a report waits for its rest, and be its
# byte: CI's sanitizer pass at load 12 lost X10's q so).
send_ticks() {
	before=$(tick)
	keys -l "$(printf "$2")"
	ticks_after "$before" "$1"
	[ -n "$now" ] && ticks_after "$now" "$1"
}

# SGR: the press, a pause, the release on its own, then half a report.
start xterm-256color
send_ticks "SGR press" '\033[<0;10;5M'
send_ticks "SGR release after the press" '\033[<0;10;5m'
send_ticks "SGR right button, press then release" '\033[<2;10;5M'
send_ticks "SGR right button release" '\033[<2;10;5m'
send_ticks "SGR half a report" '\033[<0;10'
keys C-c
expect '^EXIT=0$' "SGR: Ctrl-C after half a report did not end pmutop"

start xterm-256color
send_ticks "SGR release alone" '\033[<0;10;5m'
# Clicks still work, press and release in one write or in two: on the USER title, the
# sort moves there; the wheel scrolls without stopping the loop. The first frame may
# still be half written: wait for the titles.
wait_for 'PID +USER'
y=$(grep -En 'PID +USER' "$CAP" | head -n 1 | cut -d: -f1)
x=$(grep -E -m 1 'PID +USER' "$CAP" | awk '{ print index($0, "USER") + 1 }')
if [ -n "$y" ] && [ "$x" -gt 1 ]; then
	send_ticks "SGR click on USER" "\033[<0;$x;${y}M\033[<0;$x;${y}m"
	expect 'USER(▲|▼)' "SGR: a click on the USER title sorts by it"
	keys '<'
	expect_gone 'USER(▲|▼)' "'<': the sort left USER"
	send_ticks "SGR press on USER" "\033[<0;$x;${y}M"
	expect 'USER(▲|▼)' "SGR: a press on the USER title sorts by it"
	send_ticks "SGR release on USER" "\033[<0;$x;${y}m"
else
	fail "no column titles to click (y=$y x=$x)"
fi
send_ticks "SGR wheel down" '\033[<65;10;10M'
keys q
expect '^EXIT=0$' "SGR: q after a release did not end pmutop"

# htop's clicks: a pane's tab shows it, a key bar label presses its key (in help too),
# the wheel moves the selection three rows.
start xterm-256color "-e task-clock,page-faults --sort PID"
wait_for '^\[1 [A-Za-z]+\] +2 Events'
y=$(grep -En '^\[1 [A-Za-z]+\] +2 Events' "$CAP" | head -n 1 | cut -d: -f1)
x=$(grep -E -m 1 '^\[1 [A-Za-z]+\] +2 Events' "$CAP" | awk '{ print index($0, "2 Events") + 2 }')
if [ -n "$y" ] && [ "$x" -gt 2 ]; then
	send_ticks "SGR click on the Events tab" "\033[<0;$x;${y}M\033[<0;$x;${y}m"
	expect '\[2 Events\]' "SGR: a click on the Events tab shows that pane"
else
	fail "no Events tab to click (y=$y x=$x)"
fi
bar() {
	capture
	yb=$(grep -En "$1" "$CAP" | tail -n 1 | cut -d: -f1)
	xb=$(grep -E "$1" "$CAP" | tail -n 1 | awk -v k="$1" '{ print index($0, k) + 1 }')
}
bar 'F1Help'
if [ -n "$yb" ] && [ "$xb" -gt 1 ]; then
	keys -l "$(printf "\033[<0;$xb;${yb}M\033[<0;$xb;${yb}m")"
	expect 'Marks in the cells' "SGR: a click on F1Help opens help"
	bar 'EscBack'
	if [ -n "$yb" ] && [ "$xb" -gt 1 ]; then
		keys -l "$(printf "\033[<0;$xb;${yb}M\033[<0;$xb;${yb}m")"
		expect 'PID.USER' "SGR: a click on help's Esc label leaves help"
	else
		fail "help's key bar has no EscBack"
	fi
else
	fail "no F1Help on the key bar"
fi
# The wheel: the selection (reverse video) goes from the first row to the fourth (rows
# by PID: the first ones, the oldest, stay where they are).
keys Home
sleep 0.5
# The selected row: the table row painted on the selection's colour (cyan, 46).
sel_line() {
	e=$(printf '\033')
	t capture-pane -e -p -t e2e | grep -n "${e}\\[46m  *${e}\\[30m  *[0-9]" | head -n 1 |
		cut -d: -f1
}
# Two looks 0.1 s apart that agree: one capture can be a half-drawn frame, with no row
# on the selection's colour.
first=
n=0
while [ "$n" -lt 300 ]; do
	a=$(sel_line)
	sleep 0.1
	b=$(sel_line)
	[ -n "$a" ] && [ "$a" = "$b" ] && first=$a && break
	n=$((n + 1))
done
[ -n "$first" ] || fail "Home: no selected row that stays put within 30 s"
keys -l "$(printf '\033[<65;20;15M')"
n=0
moved=
while [ "$n" -lt 300 ]; do
	now=$(sel_line)
	[ -n "$first" ] && [ -n "$now" ] && [ "$now" -eq $((first + 3)) ] && moved=1 && break
	sleep 0.1
	n=$((n + 1))
done
[ -n "$moved" ] || fail "SGR wheel down: the selection went from line $first to ${now:-none}"
bar 'F10Quit'
keys -l "$(printf "\033[<0;$xb;${yb}M\033[<0;$xb;${yb}m")"
expect '^EXIT=0$' "SGR: a click on F10Quit ends pmutop"

# X10: three bytes after ESC [ M, the first 32 + button (3: release).
start screen
send_ticks "X10 press" '\033[M *%%'
send_ticks "X10 release after the press" '\033[M#*%%'
send_ticks "X10 half a report" '\033[M '
keys q
expect '^EXIT=0$' "X10: q after half a report did not end pmutop"

finish "mouse input never stops the loop"
