#!/bin/sh
# The meters as htop lays them out: CPU bars split into user, system and steal, under them Mem and Swp bars with used/total,
# the load average and the uptime, read from /proc by the source.
# Usage: meters.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: meters.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-meters-$$"
CAP="${TMPDIR:-/tmp}/pmutop-meters-$$.txt"
. "$(dirname "$0")/lib.sh"
# Something that spends its time in the kernel: a CPU bar's system part ('#').
dd if=/dev/zero of=/dev/null bs=64 2>/dev/null &
DD=$!
cleanup() { t kill-server 2>/dev/null; kill "$DD" 2>/dev/null; rm -f "$CAP"; }
trap cleanup EXIT INT TERM

# KiB as the screen writes bytes (numfmt_mem): three significant digits, powers of 1024.
mem() {
	awk -v kb="$1" 'BEGIN {
		v = kb * 1024; u = 1; split("B K M G T P E", n, " ")
		while (v >= 1023.5 && u < 7) { v /= 1024; u++ }
		d = (u == 1 || v >= 99.95) ? 0 : (v < 9.995 ? 2 : 1)
		printf "%.*f%s", d, v, n[u] }'
}
kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
MEMT=$(mem "$(kb MemTotal)")
SWPT=$(mem "$(kb SwapTotal)")

t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
expect "^Mem\\[\\|* *[0-9.]+[BKMG]/$MEMT\\]  Load average: [0-9]+\\.[0-9]{2} [0-9]+\\.[0-9]{2} [0-9]+\\.[0-9]{2}\$" \
	"Mem bar with its total, the load beside it"
expect "^Swp\\[\\|* *[0-9.]+[BKMG]/$SWPT\\]  Uptime: " "Swp bar with its total, the uptime beside it"

# CPU bars in parts, as htop's: user '|', then system '#' (steal '*' after them).
expect "^ *[0-9]+\\[\\|*#+\\**[ 0-9.]*%" "a CPU bar with a system part while dd runs"

# The uptime on screen is /proc/uptime's, give or take the frame's age.
capture
up=$(sed -n 's/^Swp.*Uptime: \([0-9]* days*, \)*\([0-9:]*\)$/\2/p' "$CAP")
days=$(sed -n 's/^Swp.*Uptime: \([0-9]*\) day.*/\1/p' "$CAP")
shown=$(echo "$up" | awk -F: -v d="${days:-0}" '{ print d * 86400 + $1 * 3600 + $2 * 60 + $3 }')
real=$(awk '{ printf "%d", $1 }' /proc/uptime)
diff=$((real - shown))
[ -n "$up" ] && [ "$diff" -ge 0 ] && [ "$diff" -le 30 ] ||
	fail "uptime shown ($up, $days days) is not /proc/uptime's ($real s)"

# m cycles what the CPU bars show, then hides every meter, as htop's setup can; and back.
keys m m m
expect_gone "^Mem\\[" "m three times: no meters"
expect_gone "^ *[0-9]+\\[" "m three times: no CPU bars"
keys m
expect "^Mem\\[" "m again: the meters are back"

keys q
[ "$FAILS" -eq 0 ] || exit 1
echo "meters: ok"
