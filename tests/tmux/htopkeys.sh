#!/bin/sh
# htop's keys on processes (issue 30, item 14): Space tags rows (a * after the PID) and
# moves down, U untags; F8 lowers the tagged processes' priority (nice + 1) and F7 raises
# it, as /proc says after; k signals the tagged ones; Z pauses now; P, M, T sort by CPU%,
# RES and TIME+ (a hidden column shows); F follows a process while the rows re-sort and
# stops when it exits or the selection moves. Without CAP_SYS_NICE, F7 says why not.
# Usage: htopkeys.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: htopkeys.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-htopkeys-$$"
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
NAME="pmht$$" # a name no other process has
cp "$(command -v sleep)" "$TMP/$NAME" || exit 1
"$TMP/$NAME" 301 &
P1=$!
"$TMP/$NAME" 302 &
P2=$!
"$TMP/$NAME" 303 &
P3=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$P1" "$P2" "$P3" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

nice_of() { cut -d')' -f2 "/proc/$1/stat" 2>/dev/null | awk '{ print $17 }'; }
# Wait until process $1's nice is $2 (a deadline, never a speed).
nice_is() {
	w=0
	while [ "$(nice_of "$1")" != "$2" ] && [ "$w" -lt 300 ]; do
		sleep 0.1
		w=$((w + 1))
	done
	[ "$(nice_of "$1")" = "$2" ]
}

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'PID +USER' 100 || { fail "no first frame within 10 s"; exit 1; }

# The three, alone on the screen, by pid (the order holds still: < sorts by the column
# before, ... until PID).
keys '\'
keys -l "$NAME"
keys Enter
expect "^ *$P1 .* $NAME *\$" "the first sleeper listed"
expect "^ *$P3 .* $NAME *\$" "the third sleeper listed"

# Space on two rows: tagged, marked, and counted; the selection moved down each time.
keys Home Space Space
expect "Tagged: 2 \\(U: none\\)" "Space Space: two tagged"
capture
marks=$(grep -Ec "^ *[0-9]+\\*.*$NAME" "$CAP")
[ "$marks" -eq 2 ] || fail "Space Space: $marks rows marked *, not 2"

# F8: both tagged ones one nicer, the third untouched; F7: back (raising takes root).
before=$(nice_of "$P1")
keys F8
expect "nice \\+1 for 2 of 2 tagged" "F8: one line for the tagged ones"
tagged=""
for p in "$P1" "$P2" "$P3"; do
	grep -Eq "^ *$p\\*" "$CAP" && tagged="$tagged $p"
done
untagged=$(for p in "$P1" "$P2" "$P3"; do grep -Eq "^ *$p\\*" "$CAP" || echo "$p"; done)
for p in $tagged; do
	nice_is "$p" $((before + 1)) || fail "F8: $p's nice is $(nice_of "$p"), not $((before + 1))"
done
[ "$(nice_of "$untagged")" = "$before" ] || fail "F8: the untagged $untagged was reniced"
keys F7
if [ "$(id -u)" -eq 0 ]; then
	for p in $tagged; do
		nice_is "$p" "$before" || fail "F7: $p's nice is $(nice_of "$p"), not $before again"
	done
else
	expect "cannot renice [0-9]+: Permission denied \\(a higher priority takes root" \
		"F7 as a user: why not, in one line"
fi

# U: no tags, no marks.
keys U
expect_gone "Tagged:" "U: nothing tagged"
capture
! grep -Eq "^ *[0-9]+\\*" "$CAP" || fail "U: a row is still marked"

# k on one tagged process: the menu says so, SIGTERM ends that one only.
keys End Space
expect "Tagged: 1 " "Space on the last row: one tagged"
capture
victim=$(grep -Eo "^ *[0-9]+\\*" "$CAP" | tr -cd '0-9')
keys k
expect "Send to 1 tagged" "k: the menu is for the tagged process"
keys Enter
expect "sent SIGTERM to $victim" "k: SIGTERM sent to the tagged one"
w=0
while kill -0 "$victim" 2>/dev/null && [ "$w" -lt 300 ]; do sleep 0.1; w=$((w + 1)); done
! kill -0 "$victim" 2>/dev/null || fail "k: the tagged $victim still runs"
alive=0
for p in "$P1" "$P2" "$P3"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ "$alive" -eq 2 ] || fail "k: $alive sleepers left, not 2"
expect_gone "Tagged:" "the tagged process ended: its tag went with it"

# Z pauses (Space no longer does).
keys Z
expect 'PAUSED' "Z: paused"
keys Z
expect_gone 'PAUSED' "Z again: running"

# P, M, T: CPU%, RES, TIME+ (hidden until then: it shows, and sorts).
keys T
expect "TIME\\+▼" "T: sorted by TIME+, shown"
keys M
expect "RES▼" "M: sorted by RES"
keys P
expect "CPU%▼" "P: sorted by CPU%"

# F: follow a sleeper through the whole list, sorted by CPU% (it sinks to the bottom).
keys Escape
expect_gone "Filter: $NAME" "Esc: every process again"
FP=
for p in "$P1:301" "$P2:302" "$P3:303"; do kill -0 "${p%:*}" 2>/dev/null && FP=$p && break; done
FARG=${FP#*:}
FP=${FP%:*}
# Alone on the screen by its command line (c), selected, then followed.
keys c '\'
keys -l "$NAME $FARG"
keys Enter
expect "^ *$FP .*$NAME $FARG" "the sleeper to follow, alone"
keys Home F
expect "Following $FP \\(F: stop\\)" "F: the tab bar says whom"
keys Escape c
expect_gone "Filter: $NAME" "Esc: the filter gone, the rows re-sorted"
wait_ticks 2 || fail "F: no ticks"
keys Enter
expect "^PID $FP " "F: the selection stayed on $FP through the re-sort"
keys Escape
expect "Following $FP" "F: still following after the detail view"
kill "$FP"
expect "$FP is no longer listed: follow ended" "F: ends when the process exits"
expect_gone "Following $FP" "F: the tab bar no longer says it"
# A move ends it too. The selection on the sleeper left (not on a row of a process that
# has just exited, which F does not follow).
keys '\'
keys -l "$NAME"
keys Enter
expect "^ *[0-9]+ .* $NAME" "the sleeper left, alone"
keys Home F
expect "Following [0-9]+ " "F again: following"
keys Down
expect_gone "Following [0-9]+ " "Down: the follow ended"

keys q
expect '^EXIT=0$' "q quits with status 0"

# F7 refused: root without CAP_SYS_NICE may not raise a priority. One line says why,
# and the nice value stays.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	t kill-server 2>/dev/null
	SOCK="pmutop-htopkeys-$$-2"
	t new-session -d -s e2e -x 140 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent setpriv --bounding-set -sys_nice --inh-caps -sys_nice '$PMUTOP' -d 0.5 --pane Software; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'PID +USER' 100 || fail "without CAP_SYS_NICE: no first frame within 10 s"
	LP=
	for p in "$P1" "$P2" "$P3"; do kill -0 "$p" 2>/dev/null && LP=$p; done
	was=$(nice_of "$LP")
	keys '\'
	keys -l "$NAME"
	keys Enter
	expect "^ *$LP .* $NAME" "without CAP_SYS_NICE: the sleeper listed"
	keys End F7
	expect "cannot renice [0-9]+: Permission denied \\(a higher priority takes root or CAP_SYS_NICE\\)" \
		"F7 without CAP_SYS_NICE: why not, in one line"
	[ "$(nice_of "$LP")" = "$was" ] || fail "F7 refused: $LP's nice moved from $was"
	keys q
	expect '^EXIT=0$' "without CAP_SYS_NICE: q quits with status 0"
fi
finish htopkeys
