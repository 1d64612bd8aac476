#!/bin/sh
# Trends and the detail view, end to end: after a few ticks a busy process's row shows a
# sparkline; Enter opens its detail view with a Braille chart, Esc comes back; under
# LANG=C the trend is the ASCII ramp.
# Usage: trend.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: trend.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-trend-$$-utf8"
CAP="${TMPDIR:-/tmp}/pmutop-trend-$$.txt"
. "$(dirname "$0")/lib.sh"

sh -c 'while :; do :; done' &
BUSY=$!
cleanup() {
	for s in utf8 c; do "$TMUX_BIN" -L "pmutop-trend-$$-$s" kill-server 2>/dev/null; done
	kill "$BUSY" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM

RAMP='(▁|▂|▃|▄|▅|▆|▇|█)'
# A server per locale: a new one on the socket of one just killed may find it exiting.
start() {
	SOCK="pmutop-trend-$$-$2"
	t new-session -d -s e2e -x 120 -y 40 \
		"env $1 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3 -p $BUSY; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'TREND( [^ ]+)? +COMMAND' 100 || { fail "$1: no TREND column within 10 s"; exit 1; }
}

start "LC_ALL=C.UTF-8" utf8
expect "^ *$BUSY .*$RAMP{4,} +sh" "a trend after a few ticks"
keys Enter
expect "^PID $BUSY " "Enter opens the detail view"
expect "^CPU% +last [0-9.]+ +min [0-9.]+ +max [0-9.]+ +over [0-9]+s" "its CPU% chart's labels"
expect "(⣿|⣶|⣤|⣀)" "a Braille chart"
expect "EscBack" "the detail view's key bar"
keys Escape
expect "TREND( [^ ]+)? +COMMAND" "Esc returns to the table"
expect_not "EscBack" "the table's key bar again"
keys q
expect 'EXIT=0' "q quits with status 0"

t kill-server 2>/dev/null
start "LANG=C LC_ALL=C" c
expect "^ *$BUSY .*[_.:=+*#-]{4,} +sh" "LANG=C: the ASCII ramp"
expect_not "$RAMP" "LANG=C: no block glyphs"
keys Enter
expect "^ +[0-9.]+ \|.*(#|:)" "LANG=C: an ASCII chart"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "trends, the detail view, and LANG=C"
