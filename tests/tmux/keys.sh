#!/bin/sh
# Every key of every mode: each key ui/bindings.c binds (listed by keys_helper from the
# same table dispatch reads) pressed in each mode it belongs to: the live screen, -p PID,
# -- COMMAND (running and ended), G's cgroup rows, a row's detail view, each view of the
# events setup, the derived-column dialog, a pick list, the help, a replay and a
# replay's detail view. After each key, Esc back to the mode (or the toggle
# pressed again). pmutop must still run after every key and quit cleanly at the end; in
# CI's asan stage this binary has the sanitizers, whose reports fail the stage.
# Waits are long (15 s): the sanitized binary on a busy machine is slow, and a wait
# ends as soon as the screen shows what it waits for.
# Usage: keys.sh PMUTOP KEYS_HELPER [TMUX]
set -u
PMUTOP=${1:?usage: keys.sh PMUTOP KEYS_HELPER [TMUX]}
HELPER=${2:?usage: keys.sh PMUTOP KEYS_HELPER [TMUX]}
TMUX_BIN=${3:-tmux}
RUN=0
SOCK="pmutop-keys-$$-$RUN"
TMP="${TMPDIR:-/tmp}/pmutop-keys-$$"
CAP="$TMP/screen.txt"
REC="$TMP/rec.pmutop"
. "$(dirname "$0")/lib.sh"
mkdir -p "$TMP" || exit 1
# The servers' sockets in TMP, which goes at the end (tmux leaves them behind).
t() { "$TMUX_BIN" -S "$TMP/$SOCK" -f /dev/null "$@"; }

SLEEPER=
cleanup() {
	t kill-server 2>/dev/null
	[ -n "$SLEEPER" ] && kill "$SLEEPER" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# A server per run (one just killed may still be going away), a setup file of its own.
start() { # LABEL ARGS...
	label=$1
	shift
	t kill-server 2>/dev/null
	RUN=$((RUN + 1))
	SOCK="pmutop-keys-$$-$RUN"
	mkdir -p "$TMP/cfg$RUN/pmutop"
	[ -f "$TMP/pmutoprc" ] && cp "$TMP/pmutoprc" "$TMP/cfg$RUN/pmutop/pmutoprc"
	t new-session -d -s e2e -x 140 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$TMP/cfg$RUN' '$PMUTOP' $*; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'F1Help' 150 || fail "$label: no first frame within 15 s"
	# A row to select (Enter on none opens nothing).
	wait_for '^ *[0-9]+ +[a-z]' 150 || fail "$label: no process rows within 15 s"
}

back() { # ENTRY...: Esc out of whatever the key opened, into the mode again
	keys Escape
	keys Escape
	keys Escape
	[ $# -gt 0 ] && keys "$@"
}

# Every key of helper mode $2's table in the run labelled $1, in the mode whose key bar
# shows $3; ENTRY (the rest) comes back to the mode after a key that leaves it.
sweep() {
	label=$1
	table=$2
	bar=$3
	shift 3
	[ $# -gt 0 ] && keys "$@"
	expect "$bar" "$label: in the mode ($table)" 150
	n=0
	"$HELPER" "$table" | awk '!seen[$1]++' >"$TMP/keys" || {
		fail "$label: no keys listed for $table"
		return
	}
	while read -r name class; do
		[ "$class" = skip ] && continue
		keys "$name"
		case $class in
		again) keys "$name" ;;
		back) back "$@" ;;
		esac
		n=$((n + 1))
		capture
		if grep -q 'EXIT=' "$CAP"; then
			fail "$label: pmutop ended at or soon after key $name ($table)"
			return
		fi
	done <"$TMP/keys"
	[ "$n" -ge 5 ] || fail "$label: only $n keys of $table pressed"
	# Still answering keys: the help and back.
	back
	keys h
	expect 'Marks in the cells' "$label: help after the $n keys of $table" 150
	back
}

quit() { # LABEL STATUS [KEYS...]
	label=$1
	status=$2
	shift 2
	back
	keys q "$@"
	expect "^EXIT=$status\$" "$label: quits with status $status" 150
}

# K alone, drawn before the next tick: under bpf the source opens again, and the rows
# on the screen pointed into what it freed (the sweep's K K may not draw between).
kernel_mode() { # LABEL
	keys K
	expect 'user only' "$1: K counts user mode only" 150
	expect_not 'EXIT=' "$1: K ended pmutop"
	keys K
	expect 'user\+kernel' "$1: K again counts kernel mode too" 150
}

start live -d 0.5
kernel_mode live
sweep live main F2Events
quit live 0

start "live detail" -d 0.5
sweep "live detail" detail EscBack Enter
quit "live detail" 0

setup_view() { # NUMBER TABLE BAR: one view of the events setup (e, then its number)
	start "events setup $2" -d 0.5
	sweep "events setup $2" "$2" "$3" e "$1"
	quit "events setup $2" 0
}
setup_view 1 pmus EnterEvents
setup_view 2 events EnterAdd
setup_view 3 mine xRemove
setup_view 4 columns Show/Hide

start help -d 0.5
sweep help help qBack h
quit help 0

start "sort menu" -d 0.5
sweep "sort menu" menu EnterSelect F6
quit "sort menu" 0

# The derived-column dialog wants two events of the user's in one group.
start "derived-column dialog" -d 0.5 -e "'{page-faults,minor-faults}'"
sweep "derived-column dialog" dialog Lt/RtChoose e m
quit "derived-column dialog" 0

start "G" -d 0.5
keys G
expect '^ +cg ' "G: cgroup rows" 150
kernel_mode G
sweep G main F2Events
quit G 0

sleep 300 &
SLEEPER=$!
start "-p" -d 0.5 -p "$SLEEPER"
sweep "-p" main F2Events
quit "-p" 0
kill "$SLEEPER" 2>/dev/null
wait "$SLEEPER" 2>/dev/null
SLEEPER=

start "-- COMMAND" -d 0.5 -- sleep 300
sweep "-- COMMAND" main F2Events
quit "-- COMMAND" 143 q

# A command that has ended: its totals on the screen, final; K cannot count them again.
start "ended command" -d 0.5 -- sleep 0.3
expect 'FINAL' "ended command: its totals" 150
keys K
expect_text 'its totals stay as counted' "ended command: K refused" 150
back # a key clears the message off the key bar
sweep "ended command" main F2Events
expect 'FINAL' "ended command: still its totals after the keys" 150
quit "ended command" 0

# A replay, with a setup file: W saves the view and keeps what counts as the file has it.
"$PMUTOP" -b -q -n 4 -d 0.3 -w "$REC" 2>/dev/null || {
	echo "FAIL: cannot record"
	exit 1
}
printf 'interval 2.5\nevents page-faults\n' >"$TMP/pmutoprc"
start replay -r "$REC"
keys W
expect_text "setup saved to $TMP/cfg$RUN/pmutop/pmutoprc" "replay: W saves" 150
grep -q '^events page-faults$' "$TMP/cfg$RUN/pmutop/pmutoprc" ||
	fail "replay: W dropped the file's events"
grep -q '^interval 2.5$' "$TMP/cfg$RUN/pmutop/pmutoprc" ||
	fail "replay: W changed the file's interval"
back # a key clears the message off the key bar
sweep replay main F2Events
quit replay 0

start "replay detail" -r "$REC"
sweep "replay detail" detail EscBack Enter
quit "replay detail" 0

finish "every key of every mode"
