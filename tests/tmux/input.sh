#!/bin/sh
# One input decoder (issue 37, item 2): what the terminal sends is read whole. Unknown
# sequences (a cursor report, a device attributes answer, SS3 Z, a DCS string) do
# nothing; an SGR click split over two reads (any gap) is one click, never keys; under
# TERM=tmux-256color (no SGR mouse in its description) a click is still a click; a
# key split from its ESC (F9 as ESC, then [20~) is the key, on the row selected. Raw bytes go in with
# send-keys -H. After each, the sort is still CPU% descending, nothing is paused, no
# prompt opened, no column was added: then Z pauses, so keys still work.
# Usage: input.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: input.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
RUN=0
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
t() { "$TMUX_BIN" -S "$TMP/sock$RUN" -f /dev/null "$@"; }
# A process that lives the whole test, found by its name for F9 (the row a click selects
# may be one that has ended by then on a busy machine).
NAME="pmin$$"
cp "$(command -v sleep)" "$TMP/$NAME" || exit 1
"$TMP/$NAME" 600 &
LIVE=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$LIVE" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# Bytes as hex, in one write: send-keys -H.
hex() { keys -H "$@"; }
# Bytes $1 (hex, split on blanks), then $3 $2 seconds later, from one client: the delay is
# kept by the tmux server (run-shell -d), not by a second client that may start late.
hex_split() {
	# shellcheck disable=SC2086 # the bytes are split on purpose
	t send-keys -t e2e -H $1 \; run-shell -d "$2" '' \; send-keys -t e2e -H $3
}

# Nothing changed: CPU% still sorts descending, no RES column, no prompt, no menu, not
# paused, no message of an unknown key.
unchanged() {
	wait_ticks 2 || fail "$1: the screen stopped ticking"
	capture
	grep -Eq "CPU%▼" "$CAP" || fail "$1: the sort changed"
	! grep -Eq " RES |Filter:|Search:|Sort by|PAUSED|unknown key|Send to" "$CAP" ||
		fail "$1: bytes ran as keys"
}

start() {
	t kill-server 2>/dev/null
	RUN=$((RUN + 1))
	t new-session -d -s e2e -x 140 -y 40 \
		"env TERM=$1 LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3 --pane Software; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'PID +USER' 100 || { fail "$1: no first frame within 10 s"; finish input; }
}

for term in xterm-256color tmux-256color; do
	start "$term"
	# ESC [ 12 ; 5 R: a cursor position report (R, then 5 and 2 would be keys).
	hex 1b 5b 31 32 3b 35 52
	unchanged "$term: ESC [12;5R"
	# ESC [ > 0 ; 276 ; 0 c: secondary device attributes.
	hex 1b 5b 3e 30 3b 32 37 36 3b 30 63
	unchanged "$term: ESC [>0;276;0c"
	# ESC O Z: an SS3 key no one knows.
	hex 1b 4f 5a
	unchanged "$term: ESC OZ"
	# ESC P 1 $ r 0 m ESC \: a DCS answer (DECRQSS).
	hex 1b 50 31 24 72 30 6d 1b 5c
	unchanged "$term: DCS"
	# An SGR click on a row, split: ESC [<0;4 then, later, 2;20M (M sorts by RES).
	for gap in 0.002 0.05 0.1; do
		hex_split "1b 5b 3c 30 3b 34" "$gap" "32 3b 32 30 4d"
		unchanged "$term: a click split by $gap s"
	done
	# The same click whole, and its release: a click, not the keys < M m.
	hex 1b 5b 3c 30 3b 34 32 3b 32 30 4d 1b 5b 3c 30 3b 34 32 3b 32 30 6d
	unchanged "$term: a whole click"
	# F9 split after its ESC [: the menu, for the row selected (a process that lives).
	keys /
	expect 'Search:' "$term: / for the living process"
	keys -l "$NAME"
	keys Enter
	expect_gone 'Search:' "$term: Enter closes the search"
	hex_split "1b 5b" 0.1 "32 30 7e"
	expect "Send to $LIVE " "$term: F9 split after ESC ["
	keys Escape
	wait_ticks 1
	# Keys still work.
	keys Z
	expect "PAUSED" "$term: Z after it all"
	keys q
	expect "EXIT=0" "$term: q"
done
finish "input"
