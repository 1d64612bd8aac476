#!/bin/sh
# What the screen offers is what this machine has (issue 30, item 10): no IPC, Cache or
# Branch tab when no event of theirs can count; an event several panes count is listed
# once in help; a user process that ended is not shown in brackets like a kernel thread;
# the events browser offers no tracepoint it cannot open; -c FILE need not exist for W
# to save to it.
# Usage: honest.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: honest.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-honest-$$"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/pmutop-honest.XXXXXX")
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"

cleanup() {
	t kill-server 2>/dev/null
	[ -n "${LOOP:-}" ] && kill "$LOOP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# A user program with a name of its own (15 characters at most: its comm) that runs
# for a moment, again and again: its rows end, and some are first seen ended.
ZNAME="pmuh$$"
ZNAME=$(printf '%.15s' "$ZNAME")
cp "$(command -v sleep)" "$TMP/$ZNAME" || exit 1

RC="$TMP/new/pmutoprc"
mkdir -p "$TMP/new"
t new-session -d -s e2e -x 160 -y 300 \
	"env LC_ALL=C.UTF-8 '$PMUTOP' -d 0.3 -c '$RC'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
if ! wait_for 'tick #[0-9]+' 100; then
	fail "-c with a file not there yet: no screen"
	finish "honest"
fi

# The panes: without a PMU (the header says so) the hardware panes are not offered.
capture
if grep -q 'PMU none' "$CAP"; then
	tabs=$(grep -B1 -E 'PID.USER' "$CAP" | head -n 1)
	echo "$tabs" | grep -Eq '(^|[][ ])[0-9] (IPC|Cache|Branch)([] ]|$)' &&
		fail "no PMU, yet a hardware pane is offered: '$tabs'"
	echo "$tabs" | grep -Eq '1 Software' || fail "no PMU: Software is not the first pane"
fi

# Help: each event once (instructions is in the IPC, Cache and Branch groups).
keys h
expect 'Marks in the cells' "h: help"
sleep 0.5
capture
n=$(grep -Ec '^  instructions ' "$CAP")
[ "$n" -le 1 ] || fail "help lists instructions $n times"
keys q
expect 'PID +USER' "q: back from help"

# Command lines on; a user program that ended is its name, never [name].
keys c
"$TMP/$ZNAME" 0.2 &
(while :; do "$TMP/$ZNAME" 0.15; done) &
LOOP=$!
seen=0
n=0
# 6 s of looks for brackets, and on (up to limit) until it has been seen once.
while [ "$n" -lt 60 ] || { [ "$seen" -eq 0 ] && [ "$n" -lt "$(limit 0)" ]; }; do
	capture
	grep -q "\[$ZNAME\]" "$CAP" && fail "an ended user process in brackets"
	grep -q "$ZNAME" "$CAP" && seen=$((seen + 1))
	sleep 0.1
	n=$((n + 1))
done
kill "$LOOP" 2>/dev/null
LOOP=
[ "$seen" -gt 0 ] || fail "$ZNAME never on screen"

# W saves to the -c file that did not exist.
keys W
expect_text "setup saved to $RC" "'W': message with the path" 30
[ -f "$RC" ] || fail "'W': -c $RC not written"
keys q
expect '^EXIT=0$' "q ends pmutop"

# The browser's tracepoints are --list's: each has an id, as perf_event_open needs.
TRACEFS=$(awk '{ for (i = 7; i < NF; i++) if ($i == "-") break }
	$(i + 1) == "tracefs" { print $5; exit }' /proc/self/mountinfo)
if [ -n "$TRACEFS" ]; then
	"$PMUTOP" --list tracepoint 2>/dev/null | awk '{ print $1 }' | grep -E '^[A-Za-z0-9_.-]+:[A-Za-z0-9_.-]+$' >"$TMP/tp.txt"
	[ -s "$TMP/tp.txt" ] || fail "--list tracepoint lists none"
	while IFS=: read -r sys ev; do
		[ -r "$TRACEFS/events/$sys/$ev/id" ] || fail "offered $sys:$ev, which has no id"
	done <"$TMP/tp.txt"
fi

finish "the screen offers what the machine has"
