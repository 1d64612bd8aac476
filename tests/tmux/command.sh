#!/bin/sh
# A watched command on the screen ends with pmutop, never orphaned: q asks once while it
# runs, q again stops it (SIGTERM) and pmutop exits with its status; Ctrl-C reaches the
# command too, as under perf stat, and pmutop waits for it and exits with its status.
# The command has a terminal of its own: what it prints stays off the table, o shows it,
# and a command reading stdin never takes the screen's keys.
# Usage: command.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: command.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-command-$$"
CAP="${TMPDIR:-/tmp}/pmutop-command-$$.txt"
. "$(dirname "$0")/lib.sh"
# Sleeps no other process runs: their count is found by pgrep.
S1="126.$$"
S2="127.$$"
S3="125.$$"
cleanup() {
	t kill-server 2>/dev/null
	pkill -f "^sleep $S1" 2>/dev/null
	pkill -f "^sleep $S2" 2>/dev/null
	pkill -f "^sleep $S3" 2>/dev/null
	[ -n "${SPID:-}" ] && kill "$SPID" 2>/dev/null
	rm -f "$CAP" "${KBIN:-}" "${GO:-}" "${DONE:-}" "${OUTF:-}"
}
trap cleanup EXIT INT TERM

RUNS=0
start() { # COMMAND...: pmutop watching it, in a session of a server of its own
	t kill-server 2>/dev/null
	RUNS=$((RUNS + 1))
	SOCK="pmutop-command-$$-$RUNS" # a server still going away refuses a new session
	t new-session -d -s e2e -x 120 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 ${OPTS:-} -- $*; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
}

# Whether a process matching $1 runs, waiting up to 10 s: the first frame can come before
# the command has started it (sh -c 'sleep' in CI's busy pass).
running() {
	n=0
	until pgrep -f "$1" >/dev/null || [ "$n" -ge 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	pgrep -f "$1" >/dev/null
}

start sleep "$S1"
running "^sleep $S1" || fail "the command runs"
keys q
expect 'still running: q again stops it' "the first q asks"
pgrep -f "^sleep $S1" >/dev/null || fail "the first q leaves the command running"
expect_not 'EXIT=' "the first q does not quit"
keys q
expect 'EXIT=143' "the second q stops the command and exits with its status (SIGTERM)" 80
sleep 0.2
! pgrep -f "^sleep $S1" >/dev/null || fail "q left the command running"

# Told to print only once the table is up, so that the text would land on it.
GO="${TMPDIR:-/tmp}/pmutop-command-go-$$"
DONE="${TMPDIR:-/tmp}/pmutop-command-done-$$"
HELLO="hello-from-cmd-$$"
OUTF="${TMPDIR:-/tmp}/pmutop-command-out-$$"
rm -f "$GO" "$DONE" "$OUTF"
OPTS="--command-output $OUTF"
start sh -c "'while [ ! -e $GO ]; do sleep 0.1; done; echo $HELLO; : > $DONE; cat; echo cat-ended'"
expect 'PID USER' "output: the table is up"
: >"$GO"
n=0
while [ ! -e "$DONE" ] && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
[ -e "$DONE" ] || fail "output: the command printed within 10 s"
expect_not "$HELLO" "output: the command's line is not drawn over the table"
expect 'PID USER' "output: the table stays whole"
keys o
expect "$HELLO" "o shows the command's output"
expect "any key returns" "o says how to return"
keys x
expect 'PID USER' "a key returns from the output to the table"
expect_not "$HELLO" "output: gone with the table back"
keys q
expect 'still running: q again stops it' "q while the command reads stdin asks"
keys q
expect 'EXIT=143' "q q stops a command reading stdin (SIGTERM to its process group)" 80
OPTS=
grep -q "^$HELLO" "$OUTF" || fail "--command-output: the file holds the command's line"

# A command that never stops writing leaves the screen its ticks and keys.
start yes
expect 'PID USER' "yes: the table is up"
expect_not '^y$' "yes: its lines are not on the screen"
keys q
expect 'still running: q again stops it' "yes: q is read while the command floods its terminal"
keys q
expect 'EXIT=143' "yes: q q stops it" 80

# Leaving the screen, the command's last lines stay in sight (they were never drawn).
BYE="bye-from-cmd-$$"
start sh -c "'echo $BYE; cat'"
expect 'PID USER' "last lines: the table is up"
expect_not "$BYE" "last lines: not on the table"
keys q q
expect 'EXIT=143' "last lines: q q" 80
expect "^$BYE" "after the screen, the command's last lines are in sight"

start cat
keys C-c
expect 'EXIT=130' "Ctrl-C ends a command reading stdin, and pmutop with its status" 80

# Ctrl-Z stops the command with pmutop (as on a shared terminal), SIGCONT resumes both.
start sleep "$S3"
SP=$(pgrep -f "^sleep $S3")
keys C-z
n=0
until [ "$(cut -d' ' -f3 "/proc/$SP/stat" 2>/dev/null)" = T ] || [ "$n" -ge 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ "$(cut -d' ' -f3 "/proc/$SP/stat" 2>/dev/null)" = T ] || fail "Ctrl-Z: the command is stopped"
TP=$(pgrep -f "^[^ ]*pmutop -d 0.5 -- sleep $S3")
[ -n "$TP" ] && kill -CONT "$TP"
n=0
while [ "$(cut -d' ' -f3 "/proc/$SP/stat" 2>/dev/null)" = T ] && [ "$n" -lt 100 ]; do
	sleep 0.1
	n=$((n + 1))
done
[ "$(cut -d' ' -f3 "/proc/$SP/stat" 2>/dev/null)" != T ] || fail "SIGCONT: the command runs again"
expect 'PID USER' "SIGCONT: the screen is back"
keys q q
expect 'EXIT=143' "q q after a stop and continue" 80

start sh -c "'sleep $S2'"
running "^sleep $S2" || fail "the second command runs"
keys C-c
expect 'EXIT=130' "Ctrl-C: the command got SIGINT, pmutop exits with its status" 80
sleep 0.2
! pgrep -f "^sleep $S2" >/dev/null || fail "Ctrl-C left the command running"
# k: a signal menu for the selected process, SIGTERM first; Enter sends it.
KBIN="${TMPDIR:-/tmp}/pmk$$" # a name no other process has, for the filter
cp "$(command -v sleep)" "$KBIN"
"$KBIN" 128 &
SPID=$!
t kill-server 2>/dev/null
RUNS=$((RUNS + 1))
SOCK="pmutop-command-$$-$RUNS"
t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5; echo EXIT=\$?; sleep 60" ||
	fail "cannot start tmux"
wait_for 'pmutop +on ' 100 || fail "k: first frame"
keys '\' "pmk$$" Enter
expect "^ *$SPID .*pmk$$" "k: the sleeper's row, filtered"
keys k
expect "Send to $SPID" "k: the signal menu names the process"
expect '15 SIGTERM' "k: SIGTERM listed"
keys Enter
expect "sent SIGTERM to $SPID" "k: Enter sends SIGTERM and says so"
n=0
lim=$(limit 0)
while kill -0 "$SPID" 2>/dev/null && [ "$n" -lt "$lim" ]; do sleep 0.1; n=$((n + 1)); done
! kill -0 "$SPID" 2>/dev/null || fail "k: the sleeper still runs"
wait "$SPID" 2>/dev/null
# Gone between the menu and the pick: nothing is sent (its pid could be another's).
OLDPID=$SPID
"$KBIN" 129 &
SPID=$!
keys Escape '\' "pmk$$" Enter
expect "^ *$SPID .*pmk$$" "k: a second sleeper's row"
# The first sleeper's last row (exited) gone: the second is the only one.
expect_gone "^ *$OLDPID " "k: the first sleeper's exited row"
keys Home k
expect "Send to $SPID" "k: the menu for the second"
kill "$SPID"
wait "$SPID" 2>/dev/null
keys Enter
expect "process $SPID is gone: no signal sent" "k: a process gone since the menu opened"
rm -f "$KBIN"
keys q
finish "q and Ctrl-C with a watched command, its own terminal and o, k"
