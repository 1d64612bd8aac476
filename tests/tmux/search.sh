#!/bin/sh
# Search as htop has it (issue 30, item 13): / jumps to the next row whose command matches,
# as you type, and hides none; n and F3 go to the next match, N and Shift-F3 back; the
# filter moved to \ and still hides. Both match the command line while c shows it.
# Ctrl-F scrolls the COMMAND column sideways to a long command line's end, Ctrl-A back.
# The selected row is read from its detail view (Enter: "PID N  name").
# Usage: search.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: search.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-search-$$"
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
# Names no other process has: two of one, one long command line.
NAME="pmsq$$"
LONG="pmsl$$"
cp "$(command -v sleep)" "$TMP/$NAME" && cp "$(command -v sleep)" "$TMP/$LONG" || exit 1
"$TMP/$NAME" 301 &
A1=$!
"$TMP/$NAME" 302 &
A2=$!
sleep "171.$$" &
B=$!
ZEROS=000000000000000000000000000000000000000000000000000000000000000000000000000000000000
TAIL="4242$$"
"$TMP/$LONG" 303 "0.$ZEROS$ZEROS$TAIL" &
L=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$A1" "$A2" "$B" "$L" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'PID +USER' 100 || { fail "no first frame within 10 s"; exit 1; }
# The sleepers may sit below the screen's last row: the search must find them there.
wait_ticks 2 || fail "no two ticks within 30 s"

# SEL: the PID of the row the detail view shows (Enter), and back (Esc). Not in a
# subshell: a failure must count.
selected() {
	SEL=0
	keys Enter
	if ! wait_for '^PID [0-9]+ ' 0; then
		fail "$1: Enter opened no detail view"
		return
	fi
	SEL=$(sed -n 's/^PID \([0-9][0-9]*\) .*/\1/p' "$CAP" | head -n 1)
	keys Escape
	wait_for 'PID +USER' 0 || fail "$1: Esc: back to the table"
}

# /: typing jumps, nothing is hidden.
keys /
expect 'Search:' "/: the search prompt"
keys -l "$NAME"
expect "Search: $NAME" "the text typed"
capture
rows=$(grep -Ec '^ *[0-9]+ ' "$CAP")
others=$(grep -E '^ *[0-9]+ ' "$CAP" | grep -vc "$NAME")
[ "$others" -ge 3 ] || fail "/ hides rows as a filter would: $rows rows, $others others"
keys Enter
expect_gone 'Search:' "Enter: the prompt closes"
selected "the search's row"
first=$SEL
[ "$first" = "$A1" ] || [ "$first" = "$A2" ] || fail "/ $NAME selected $first, not $A1 or $A2"
if [ "$first" = "$A1" ]; then second=$A2; else second=$A1; fi

# n and F3: the other match; N and Shift-F3: back.
keys n
selected "n"
got=$SEL
[ "$got" = "$second" ] || fail "n: selected $got, not the other match $second"
keys N
selected "N"
got=$SEL
[ "$got" = "$first" ] || fail "N: selected $got, not the previous match $first"
keys F3
selected "F3"
got=$SEL
[ "$got" = "$second" ] || fail "F3: selected $got, not the next match $second"
keys S-F3
selected "Shift-F3"
got=$SEL
[ "$got" = "$first" ] || fail "Shift-F3: selected $got, not the previous match $first"

# The command line: no name holds the argument; with c shown, it matches.
keys /
keys -l "171.$$"
expect "Search \\(no match\\): 171" "an argument: no command name has it"
keys Escape
keys c
# Read from the next interval on (the row itself may sit below the last line).
wait_ticks 2 || fail "c: no two ticks within 30 s"
keys /
keys -l "171.$$"
keys Enter
selected "c and / on an argument"
got=$SEL
[ "$got" = "$B" ] || fail "c: / on an argument selected $got, not $B"
keys c

# The filter is \ now: it hides what does not match.
keys '\'
keys -l "$NAME"
keys Enter
expect "Filter: $NAME" "\\: the filter"
capture
others=$(grep -E '^ *[0-9]+ ' "$CAP" | grep -vc "$NAME")
[ "$others" -eq 0 ] || fail "\\ $NAME: $others rows that do not match"
keys Escape
expect_gone "Filter: $NAME" "Esc clears the filter"

# Ctrl-F: the long command line's end comes into sight, the PID stays; Ctrl-A: back.
keys c '\'
keys -l "$LONG"
keys Enter
expect "^ *$L .*$LONG 303 0\\.0000" "the long command line, its start"
capture
! grep -q "$TAIL" "$CAP" || fail "the long line's end is in sight before scrolling"
steps=0
while [ "$steps" -lt 40 ]; do
	keys C-f
	steps=$((steps + 1))
	# Each step drawn before the next: never past the end on a slow frame.
	wait_for "COMMAND \\[\\+$((steps * 8))\\]" 0 ||
		fail "Ctrl-F $steps times: the title's offset"
	grep -q "$TAIL" "$CAP" && break
done
expect "^ *$L .*0*$TAIL" "Ctrl-F: the end of the line, on the process's row"
expect "COMMAND \\[\\+[0-9]+\\]" "Ctrl-F: the title says it is scrolled"
keys C-a
expect "^ *$L .*$LONG 303 0\\.0000" "Ctrl-A: the start again"
expect_not "COMMAND \\[\\+" "Ctrl-A: not scrolled"

keys q
expect '^EXIT=0$' "q quits with status 0"
finish search
