#!/bin/sh
# The TREND column's scale (issue 30 item 17): every row's sparkline is drawn against
# one top, said in the title ("TREND █=100.0"), so a process that barely runs draws low
# beside a busy one instead of as tall; sorted by RES it draws memory (issue 37 item 6).
# Usage: trendscale.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: trendscale.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-trendscale-$$"
CAP="${TMPDIR:-/tmp}/pmutop-trendscale-$$.txt"
. "$(dirname "$0")/lib.sh"

# A busy loop, and a shell that only wakes to start a short sleep now and then.
sh -c 'while :; do :; done' &
BUSY=$!
sh -c 'while :; do sleep 0.05; done' &
LIGHT=$!
cleanup() {
	t kill-server 2>/dev/null
	kill "$BUSY" "$LIGHT" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM

t new-session -d -s e2e -x 120 -y 30 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3 -p $BUSY,$LIGHT; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
RAMP='(▁|▂|▃|▄|▅|▆|▇|█)'
expect "TREND █=[0-9.]+ +COMMAND" "the title says the scale"
expect "^ *$BUSY .*$RAMP{6,} +sh" "the busy row's trend" 100
expect "^ *$LIGHT .*$RAMP{6,} +sh" "the light row's trend" 100
# The light shell counted something (its trend is not all zeros)...
expect "^ *$LIGHT .*[0-9]\\.[0-9] .* sh" "the light row has a CPU%"
# ...and draws low beside the busy one, which reaches the upper half of the scale.
capture
grep -E "^ *$BUSY " "$CAP" | grep -Eq '(▄|▅|▆|▇|█)' || fail "the busy row reaches the upper half"
grep -E "^ *$LIGHT " "$CAP" | grep -Eq '(▃|▄|▅|▆|▇|█)' && fail "the light row draws low"
grep -E "^ *$LIGHT " "$CAP" | grep -Eq '▁' || fail "the light row has its floor glyphs"
# Sorted by RES (M, as htop), the trend draws memory against its own scale, in bytes.
keys M
expect "RES. *TREND █=[0-9.]+[KMG]" "sorted by RES, the title says a memory scale"
expect "^ *$BUSY .*[0-9.]+[KM] +$RAMP{6,} +sh" "sorted by RES, the busy row's trend"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "the trend's shared scale"
