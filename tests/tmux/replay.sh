#!/bin/sh
# A recording on the screen: pmutop -r FILE shows REPLAY with the recorded time and the
# tick's place; t steps forward, T back, b jumps to a time typed (past the last tick it
# says so and stays); the header's time moves with the ticks; e says the events are the
# recorded ones; q leaves. A damaged tick is stepped over, with a line saying so; a
# recorded time out of range reads ?, whole. The key bar is the replay's (t, T, b; no
# Kill, no Delay, nor in help), d and k say why not without a dialog, and t and T step
# inside a detail view too. A recording whose recorder was killed says where it ends, on
# the message line at open; a closed one says nothing of the kind. A file cut short says
# so there at open, and exits 2.
# Usage: replay.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: replay.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-replay-$$"
CAP="${TMPDIR:-/tmp}/pmutop-replay-$$.txt"
REC="${TMPDIR:-/tmp}/pmutop-replay-$$.pmutop"
KREC="${TMPDIR:-/tmp}/pmutop-replay-$$-killed.pmutop"
CREC="${TMPDIR:-/tmp}/pmutop-replay-$$-cut.pmutop"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	[ -z "${kp:-}" ] || kill -9 "$kp" 2>/dev/null
	rm -f "$CAP" "$REC" "$REC-wal" "$REC-shm" "$KREC" "$KREC-wal" "$KREC-shm" "$CREC" "$CREC-wal" "$CREC-shm"
}
trap cleanup EXIT INT TERM

# Two runs into one file, two blocks (ticks 1-3 and 4-5): a damaged tick 3 (below)
# takes only the rest of its own block with it.
{ "$PMUTOP" -b -q -n 3 -d 1 -w "$REC" && "$PMUTOP" -b -q -n 2 -d 1 -w "$REC"; } 2>/dev/null ||
	{ echo "FAIL: cannot record"; exit 1; }
t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$REC'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect 'REPLAY [0-9-]+ [0-9:]+ \(1/5\)' "the first tick, its recorded time"
first=$(grep -Eo 'REPLAY [0-9-]+ [0-9:]+' "$CAP")
expect_not 'not closed by its recorder' "a closed recording: nothing said of its end"
keys t t t
expect 'REPLAY [0-9-]+ [0-9:]+ \(4/5\)' "t three times: the fourth tick"
fourth=$(grep -Eo 'REPLAY [0-9-]+ [0-9:]+' "$CAP")
[ "$first" != "$fourth" ] || fail "the header's time moved with the ticks ($first)"
keys T T
expect 'REPLAY [0-9-]+ [0-9:]+ \(2/5\)' "T twice: the second tick"
keys t
expect 'REPLAY [0-9-]+ [0-9:]+ \(3/5\)' "t once: the third tick"
keys T T T T
expect 'REPLAY [0-9-]+ [0-9:]+ \(1/5\)' "T stops at the first tick"
expect 'the first recorded tick' "and says so"
keys b
expect 'Jump to' "b asks for a time"
keys + 2 . 5 Enter
expect 'REPLAY [0-9-]+ [0-9:]+ \(4/5\)' "b +2.5: the first tick 2.5 s after the start"
keys b
keys n o o n Enter
expect 'not a time' "b with no time says so"
keys b
keys + 1 h Enter
expect 'is after the last recorded tick' "b after the recording says so"
expect 'REPLAY [0-9-]+ [0-9:]+ \(4/5\)' "and stays on the tick it showed"
keys e
keys : c y c l e s Enter
expect 'recorded events only' "events cannot be added to a replay"
keys Escape Escape
expect "tStep TBack bJump" "the key bar: the replay's keys"
expect_not "F9Kill|dDelay|F7Nice" "the key bar: no Kill, no Delay, no Nice"
keys d
expect "a replay keeps the recorded intervals" "d: why not, no prompt"
expect_not "Interval \\(" "d: no interval prompt"
keys k
expect "a recording: kill, renice and affinity act on this machine's processes only" "k: why not, no menu"
expect_not "SIGTERM" "k: no signal menu"
keys Escape
expect_gone "a recording: kill" "the line goes with a key"
keys F7
expect "a recording: kill, renice and affinity" "F7: why not, in one line"
keys h
expect "this help" "h: the help"
expect_not "send a signal to the selected process" "help: no k in a replay"
keys Escape
keys Home Enter
expect "EscBack" "Enter: a detail view"
expect "tStep TBack" "the detail view's key bar: t and T"
keys T
expect_not "unknown key here" "T in the detail view is known"
keys Escape
expect 'REPLAY [0-9-]+ [0-9:]+ \(3/5\)' "T in the detail view: one tick back"
keys Enter t Escape
expect 'REPLAY [0-9-]+ [0-9:]+ \(4/5\)' "t in the detail view: one tick forward"
keys K
expect 'a recording: its kernel mode is the recorded one' "K (kernel mode) is the source's: a recording refuses it in one line"
keys q
expect 'EXIT=0' "q leaves with status 0"
t kill-server 2>/dev/null

# A recorder killed: the replay says at open that the file was not closed and the
# tick it ends at (the last committed, as --sql counts them).
"$PMUTOP" -b -q -d 0.2 -e task-clock -w "$KREC" 2>/dev/null &
kp=$!
n=0
until [ "$("$PMUTOP" -r "$KREC" --sql 'SELECT count(*) >= 3 FROM ticks' 2>/dev/null |
	tail -n 1)" = 1 ]; do
	n=$((n + 1))
	[ "$n" -lt 300 ] || break
	sleep 0.1
done
kill -9 "$kp"
wait "$kp" 2>/dev/null
kp=
last=$("$PMUTOP" -r "$KREC" --sql 'SELECT max(seq) FROM ticks' 2>/dev/null | tail -n 1)
[ -n "$last" ] && [ "$last" -ge 3 ] || fail "the killed recorder left no 3 ticks ($last)"
t new-session -d -s e2e -x 220 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$KREC'; echo EXIT=\$?; sleep 60"
expect_text "the recording was not closed by its recorder (killed, or the machine stopped): it ends at tick $last, " \
	"a killed recorder's file: where it ends, at open"
keys t
expect_gone 'not closed by its recorder' "a key takes the line away"
keys q
expect 'EXIT=0' "every tick checks: q leaves with status 0"
t kill-server 2>/dev/null

# A file cut short (its last page gone, as a copy that stopped): the line that says what
# is replayed, on the message line at open; q then leaves with status 2.
"$PMUTOP" -b -q -n 30 -d 0.1 -e task-clock -w "$CREC" 2>/dev/null ||
	fail "cannot record $CREC"
size=$(wc -c <"$CREC")
truncate -s $((size - 16384)) "$CREC" || fail "cannot cut $CREC"
t new-session -d -s e2e -x 220 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$CREC'; echo EXIT=\$?; sleep 60"
expect_text "damaged recording: cut short, " "a file cut short: said at open"
expect 'REPLAY [0-9-]+ [0-9:]+' "and what can be read is shown"
keys q
expect '^EXIT=2$' "something was lost: q leaves with status 2"
t kill-server 2>/dev/null

# A damaged tick (its packed rows, the last of its block): t goes past it to the next
# one, and says so.
if command -v sqlite3 >/dev/null; then
	sqlite3 "$REC" "UPDATE ticks SET rows = x'05ff' WHERE seq = 3" ||
		fail "cannot damage the recording"
	t new-session -d -s e2e -x 140 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$REC'; echo EXIT=\$?; sleep 60"
	expect 'REPLAY [0-9-]+ [0-9:]+ \(1/5\)' "the damaged recording: the first tick"
	keys t t
	expect 'REPLAY [0-9-]+ [0-9:]+ \(4/5\)' "t past the damaged tick 3: the fourth"
	expect 'tick 3 skipped' "and says so"
	keys q
	expect 'EXIT=0' "q leaves with status 0"
	t kill-server 2>/dev/null

	# Times out of range (a hand-edited file, its checksums not made again): damage,
	# said in one line with exit 2, never a replay of the edited times (the header's
	# "?" for a time out of range: test_replayclock).
	sqlite3 "$REC" "UPDATE ticks SET wall = 1e16" || fail "cannot edit the recording"
	t new-session -d -s e2e -x 140 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$REC'; echo EXIT=\$?; sleep 60"
	expect 'damaged recording' "hand-edited times: damage"
	expect '^EXIT=2$' "hand-edited times: exit 2"
	expect_not 'REPLAY' "hand-edited times: not replayed"
fi
finish "replay on the screen"
