#!/bin/sh
# Chosen metrics on the screen (issue 37 item 11): a column of tiny values is written in
# one format (e-notation for all its values below 1, not 0.00000098 beside 6.1e-9); a
# long metric name is its title whole; the notice gives no hint to use -M when -M was
# given.
# Usage: metrics.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: metrics.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-metrics-$$"
CAP="${TMPDIR:-/tmp}/pmutop-metrics-$$.txt"
JSON="$(dirname "$0")/../fixtures/metrics/json/tiny-test.json"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	kill "$BUSY" 2>/dev/null
	rm -f "$CAP"
}
# A busy loop: its TINY_CPU near 1e-5 fits the column as 0.0000100, an idle task's
# thousands of times smaller does not.
sh -c 'while :; do :; done' &
BUSY=$!
trap cleanup EXIT INT TERM

t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 --metrics '$JSON' -M Tiny; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect '2 Metrics' "the Metrics pane's tab"
keys 2
expect 'TINY_CPU' "the Metrics pane"
expect 'AUD_CS_PER_FAULT_RATIO' "a long metric name: its title whole"
expect_not 'chooses metrics' "-M given: no hint to use it"
# Wait for the busy loop's row, then read the TINY_CPU cells.
expect "^ *$BUSY .*[0-9]e-" "the busy loop's row"
cells=$(awk 'BEGIN { col = 0 }
	col == 0 && /PID +USER/ { col = index($0, "TINY_CPU"); next }
	col > 0 && /^ *[0-9]+ / { print substr($0, col - 2, 11) }' "$CAP")
echo "$cells" | grep -q 'e-' || fail "TINY_CPU: a value in e-notation ($cells)"
echo "$cells" | grep -Eq '0\.0*[1-9]' && fail "TINY_CPU: one format, no 0.000... beside e-notation"
expect 'TREND [^ ]+=[0-9.]+e-' "the trend's scale in e-notation too"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "chosen metrics' columns"
