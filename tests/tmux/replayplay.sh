#!/bin/sh
# Replay's play speed, time range and spikes (issue 30 item 16): the header says the
# tick's recorded time, its place, the speed, and the recording's first and last times;
# x cycles 1x, 10x, 60x; Z plays on by itself to the last tick (the bar: ZPlay, ZStop);
# } lands on the highest tick of the next spike of the sort column (CPU%), { on the one
# before, and says when there is none (an idle command's fraction of a percent is none).
# Usage: replayplay.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: replayplay.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-replayplay-$$"
CAP="${TMPDIR:-/tmp}/pmutop-replayplay-$$.txt"
REC="${TMPDIR:-/tmp}/pmutop-replayplay-$$.pmutop"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	rm -f "$CAP" "$REC" "$REC-wal" "$REC-shm"
}
trap cleanup EXIT INT TERM

# A command idle for 3 s, then two busy loops for 2 s (a spike of CPU%), idle again.
"$PMUTOP" -b -q -d 0.3 -w "$REC" -- sh -c \
	'sleep 3; for i in 1 2; do timeout 2 sh -c "while :; do :; done" & done; wait; sleep 1' \
	2>/dev/null ||
	{ echo "FAIL: cannot record"; exit 1; }
t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$REC'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
T='[0-9]{2}:[0-9]{2}:[0-9]{2}'
D='[0-9]{4}-[0-9]{2}-[0-9]{2}'
expect "REPLAY $D $T \\(1/[0-9]+\\) 1x +recorded $D $T to ($D )?$T" \
	"the first tick, the speed, the recording's range"
N=$(grep -Eo '\(1/[0-9]+\)' "$CAP" | head -n 1 | tr -cd '0-9' | cut -c2-)
at=$(grep -Eo "REPLAY $D $T" "$CAP" | head -n 1 | cut -d' ' -f2-)
from=$(grep -Eo "recorded $D $T" "$CAP" | head -n 1 | cut -d' ' -f2-)
[ -n "$at" ] && [ "$at" = "$from" ] || fail "the range starts at the first tick ($at, $from)"
to=$(grep -Eo "recorded $D $T to ($D )?$T" "$CAP" | head -n 1 | awk '{ print $NF }')

# At 80x24 the header keeps the time, place, speed and range, shorter (no dates).
t resize-window -t e2e -x 80 -y 24
expect_line 2 "REPLAY $T \\(1/$N\\) 1x +recorded $T-$T" "80x24: the short header"
t resize-window -t e2e -x 140 -y 40
expect "REPLAY $D $T \\(1/$N\\) 1x +recorded $D" "140x40: the whole header again"

# Speed: x cycles it, the header says it.
keys x
expect "REPLAY $D $T \\(1/$N\\) 10x" "x: 10x"
keys x
expect "REPLAY $D $T \\(1/$N\\) 60x" "x again: 60x"
keys x
expect "REPLAY $D $T \\(1/$N\\) 1x" "x a third time: 1x again"
expect "xSpeed }Spike" "the key bar has x and }"
# Z plays a replay and stops it: the bar says which (issue 37 item 7), never "Pause".
expect "ZPlay " "stopped: the bar offers Z to play"
expect_not "ZPause" "a replay's bar has no Pause"
keys Z
expect "ZStop " "playing: the bar offers Z to stop"
keys Z
expect "ZPlay " "stopped again: Z plays"
keys b - 1 h Enter
expect "REPLAY $D $T \\(1/$N\\) 1x" "b -1h: back to the first tick"

# The top row's CPU% (the table is sorted by it, highest first).
top() {
	capture
	awk '/PID +USER/ { getline; print $3; exit }' "$CAP"
}
tick() {
	capture
	grep -Eo "\\([0-9]+/$N\\)" "$CAP" | head -n 1 | tr -d '()' | cut -d/ -f1
}

# } from the first tick: the spike's highest tick, in the busy part.
keys '}'
expect "a spike of CPU%, [0-9.]+ at its highest" "}: a spike found"
x1=$(grep -Eo "a spike of CPU%, [0-9.]+" "$CAP" | head -n 1 | awk '{ print $NF }')
k1=$(tick)
v1=$(top)
[ -n "$k1" ] && [ "$k1" -gt 1 ] || fail "}: moved past the first tick ($k1)"
awk -v v="$v1" 'BEGIN { exit !(v + 0 >= 1) }' || fail "}: the top row is busy ($v1)"
keys T
expect "\\($((k1 - 1))/$N\\)" "T: the tick before the spike's highest"
v0=$(top)
awk -v a="$v0" -v b="$v1" 'BEGIN { exit !(a + 0 <= b + 0) }' ||
	fail "the tick before is not higher ($v0 > $v1)"
keys t t
expect "\\($((k1 + 1))/$N\\)" "t t: the tick after it"
v2=$(top)
awk -v a="$v2" -v b="$v1" 'BEGIN { exit !(a + 0 <= b + 0) }' ||
	fail "the tick after is not higher ($v2 > $v1)"
keys T
expect "\\($k1/$N\\)" "T: the spike's highest again"
keys '{'
expect "no spike of CPU% before this tick" "{: none before the first spike"
expect "\\($k1/$N\\)" "and it stays"
# Past the spike: the idle end holds none (CPU% must rise 1 point above the median:
# the last sleep's fraction of a percent is no spike).
keys '}'
expect "no spike of CPU% after this tick" "} again: none after it"
expect "\\($k1/$N\\)" "and it stays"

# The cgroup view: the spike of its rows' CPU% (the command's cgroup and those above
# it, each the sum of its processes: both loops), higher than one process's; G again
# for processes.
keys G
expect "^ +cg +[0-9.]+" "G: cgroup rows"
keys b - 1 h Enter
expect "REPLAY $D $T \\(1/$N\\)" "b -1h: the first tick"
keys '}'
expect "a spike of CPU%, [0-9.]+ at its highest" "G, }: a spike of the cgroup rows"
x2=$(grep -Eo "a spike of CPU%, [0-9.]+" "$CAP" | head -n 1 | awk '{ print $NF }')
awk -v a="$x2" -v b="$x1" 'BEGIN { exit !(a + 0 > b + 0) }' ||
	fail "G: the cgroup rows' spike is their sum, above one process's ($x2, $x1)"
kg=$(tick)
vg=$(awk '/PID +USER/ { getline; print $2; exit }' "$CAP")
[ -n "$kg" ] && [ "$kg" -gt 1 ] || fail "G, }: moved past the first tick ($kg)"
awk -v v="$vg" 'BEGIN { exit !(v + 0 >= 1) }' || fail "G, }: the top cgroup row is busy ($vg)"
keys G
expect_gone "^ +cg +[0-9.]+" "G again: process rows"

# Play: from the first tick at 60x it goes on by itself to the last one, the header
# saying PLAY while it plays and the last tick's time the range's end.
keys b - 1 h Enter
expect "REPLAY $D $T \\(1/$N\\) 1x" "b -1h: the first tick"
keys x x Z
expect "(PLAY $D $T \\([0-9]+/$N\\) 60x)|(REPLAY $D $T \\($N/$N\\) 60x)" "Z: it plays at 60x"
expect "REPLAY $D $T \\($N/$N\\) 60x" "it played to the last tick by itself"
last=$(grep -Eo "REPLAY $D $T" "$CAP" | head -n 1 | awk '{ print $NF }')
[ "$last" = "$to" ] || fail "the range ends at the last tick's time ($last, $to)"
# { from the last tick: back to the spike's highest tick.
keys '{'
expect "a spike of CPU%, [0-9.]+ at its highest" "{ from the end: the spike"
expect "REPLAY $D $T \\($k1/$N\\)" "{ from the end: its highest tick"
keys q
expect 'EXIT=0' "q leaves with status 0"
finish "replay speed, range and spikes"
