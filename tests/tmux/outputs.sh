#!/bin/sh
# The screen with -w FILE --listen ADDR:PORT: one pmutop shows, records and serves the
# same counters. Its ticks go on the screen, /metrics serves them while it runs, q leaves
# with status 0, and the recording replays the ticks it showed.
# Usage: outputs.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: outputs.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-outputs-$$"
CAP="${TMPDIR:-/tmp}/pmutop-outputs-$$.txt"
REC="${TMPDIR:-/tmp}/pmutop-outputs-$$.pmutop"
LOG="${TMPDIR:-/tmp}/pmutop-outputs-$$.log"
MET="${TMPDIR:-/tmp}/pmutop-outputs-$$.metrics"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	rm -f "$CAP" "$REC" "$REC-wal" "$REC-shm" "$LOG" "$MET"
}
trap cleanup EXIT INT TERM
command -v curl >/dev/null || {
	echo "skip: no curl"
	exit 0
}

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 -w '$REC' --listen 127.0.0.1:0 2>'$LOG'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect 'tick #[0-9]+' "the screen ticks"
wait_ticks 2 || fail "two more ticks on the screen"
port=$(sed -n 's/.*listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$LOG")
[ -n "$port" ] || fail "a 'listening on' line: $(cat "$LOG")"
n=0
served=no
while [ -n "$port" ] && [ "$n" -lt "$(limit 0)" ]; do
	if curl -s "http://127.0.0.1:$port/metrics" >"$MET" &&
		grep -q '^pmutop_command_events_total{' "$MET"; then
		served=yes
		break
	fi
	sleep 0.1
	n=$((n + 1))
done
[ "$served" = yes ] || fail "/metrics serves process counters beside the screen"
capture
shown=$(grep -Eo 'tick #[0-9]+' "$CAP" | head -n 1 | tr -cd '0-9')
keys q
expect 'EXIT=0' "q leaves with status 0"
ticks=$("$PMUTOP" -r "$REC" -b --format csv 2>/dev/null | cut -d, -f1 | grep -E '^[0-9]+$' | sort -n | tail -n 1)
[ -n "$ticks" ] && [ "$ticks" -ge "${shown:-1}" ] ||
	fail "the recording holds the ticks shown ($shown): it replays ${ticks:-none}"
finish "the screen records and serves"
