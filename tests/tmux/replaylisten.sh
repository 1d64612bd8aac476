#!/bin/sh
# A recording fed to the exporter: pmutop -r FILE --listen PORT serves on /metrics the
# recorded values of the ticks played or stepped forward, summed as live: at the first
# tick, each event's pmutop_command_events_total over every command is that tick's sum
# in the recording's CSV (pmutop -r FILE --format csv); after t, the sum of the first two;
# a step back (T) shows the first tick again on the screen and adds nothing.
# Usage: replaylisten.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: replaylisten.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-replaylisten-$$"
CAP="${TMPDIR:-/tmp}/pmutop-replaylisten-$$.txt"
REC="${TMPDIR:-/tmp}/pmutop-replaylisten-$$.pmutop"
CSV="${TMPDIR:-/tmp}/pmutop-replaylisten-$$.csv"
LOG="${TMPDIR:-/tmp}/pmutop-replaylisten-$$.log"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	rm -f "$CAP" "$REC" "$REC-wal" "$REC-shm" "$CSV" "$LOG"
}
trap cleanup EXIT INT TERM
command -v curl >/dev/null || { echo "SKIP: no curl"; exit 0; }

"$PMUTOP" -b -q -n 3 -d 1 -w "$REC" 2>/dev/null || { echo "FAIL: cannot record"; exit 1; }
"$PMUTOP" -r "$REC" --format csv >"$CSV" 2>/dev/null || { echo "FAIL: cannot replay"; exit 1; }

# The recording's sum of EVENT over the process rows of ticks 1 to N.
recorded() {
	awk -F, -v ev="$1" -v n="$2" 'NR > 1 && $4 == "process" && $9 == ev && $1 <= n \
		{ s += $10 } END { printf "%.0f\n", s }' "$CSV"
}
# /metrics' sum of pmutop_command_events_total for EVENT over every command, or "" when
# it does not answer.
served() {
	curl -s --max-time 10 "http://127.0.0.1:$PORT/metrics" >"$CAP.m" || { echo; return; }
	awk -v ev="$1" '/^pmutop_command_events_total\{/ && index($0, "event=\"" ev "\"") \
		{ s += $NF; n++ } END { if (n) printf "%.0f\n", s }' "$CAP.m"
	rm -f "$CAP.m"
}
# Wait (up to 60 s) until /metrics' sum for EVENT is WANT; fail with what it was.
expect_served() {
	i=0 got=
	while [ $i -lt 120 ]; do
		got=$(served "$1")
		[ "$got" = "$2" ] && return 0
		sleep 0.5
		i=$((i + 1))
	done
	fail "$3: /metrics sums $1 to '$got', the recording to $2"
}

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -r '$REC' --listen 127.0.0.1:0 2>'$LOG'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
# The port the kernel gave it (a fixed one may be another test's), from its log.
PORT=
i=0
while [ -z "$PORT" ] && [ $i -lt 600 ]; do
	PORT=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9][0-9]*\).*/\1/p' "$LOG" 2>/dev/null | head -n 1)
	[ -n "$PORT" ] || sleep 0.1
	i=$((i + 1))
done
[ -n "$PORT" ] || { echo "FAIL: the replay did not listen:"; cat "$LOG"; exit 1; }
expect 'REPLAY [0-9-]+ [0-9:]+ \(1/3\)' "the first tick"
one=$(recorded context-switches 1)
[ "$one" -gt 0 ] || fail "the recording counted some context switches ($one)"
for ev in context-switches page-faults cpu-migrations; do
	expect_served $ev "$(recorded $ev 1)" "the first tick served"
done
keys t
expect 'REPLAY [0-9-]+ [0-9:]+ \(2/3\)' "t: the second tick"
two=$(recorded context-switches 2)
[ "$two" -gt "$(recorded context-switches 1)" ] || fail "the second tick counted more ($two)"
expect_served context-switches "$two" "t: the first two ticks summed"
keys T
expect 'REPLAY [0-9-]+ [0-9:]+ \(1/3\)' "T: the first tick again"
sleep 1
[ "$(served context-switches)" = "$two" ] || fail "T added nothing: $(served context-switches)"
keys q
expect 'EXIT=0' "q leaves"
"$PMUTOP" -r "$REC" -b --listen 127.0.0.1:0 >/dev/null 2>"$CAP.e" && fail "-r -b --listen runs"
grep -q 'drop -b' "$CAP.e" || fail "-r -b --listen says why: $(cat "$CAP.e")"
rm -f "$CAP.e"
finish "a recording served on /metrics as it is played"
