#!/bin/sh
# A fleet's rows (--prometheus) on the screen: k, F7 and a are refused in one line naming
# the Prometheus, before any dialog; G turns the rows into one per (instance, cgroup)
# from the exporters' cgroup series, and back, at once (paused too), the header counting
# them. Debian's prometheus scrapes one exporter.
# Usage: fleetkeys.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: fleetkeys.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-fleetkeys-$$"
CAP="${TMPDIR:-/tmp}/pmutop-fleetkeys-$$.txt"
DIR=$(mktemp -d "${TMPDIR:-/tmp}/pmutop-fleetkeys-XXXXXX") || exit 1
. "$(dirname "$0")/lib.sh"
host_pid=
prom_pid=
cleanup() {
	t kill-server 2>/dev/null
	[ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null
	[ -n "$prom_pid" ] && kill "$prom_pid" 2>/dev/null
	[ -n "$prom_pid" ] && wait "$prom_pid" 2>/dev/null
	rm -rf "$CAP" "$DIR"
}
trap cleanup EXIT INT TERM
[ -x /usr/bin/prometheus ] || { echo "FAIL: prometheus not installed (apt-get install prometheus)"; exit 1; }

# The host: an exporter alone, on a port the kernel gives it; Prometheus likewise.
start_exporter "$DIR/host.log"
printf 'global: {scrape_interval: 1s}\nscrape_configs:\n  - job_name: pmutop\n    static_configs:\n      - targets: [127.0.0.1:%s]\n' \
	"$PORT" >"$DIR/prometheus.yml"
/usr/bin/prometheus --config.file="$DIR/prometheus.yml" --storage.tsdb.path="$DIR/data" \
	--web.listen-address=127.0.0.1:0 >/dev/null 2>"$DIR/prom.log" </dev/null &
prom_pid=$!
PPORT=$(port_in "$DIR/prom.log" "Listening on" "$prom_pid")
[ -n "$PPORT" ] || { echo "FAIL: prometheus did not listen:"; cat "$DIR/prom.log"; exit 1; }
# --prometheus wants the exporter's series there: started again (60 times at most) until
# Prometheus has them
session "n=0; until env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' --prometheus http://127.0.0.1:$PPORT -d 1; s=\$?; [ \$s -eq 0 ] || [ \$n -ge 60 ]; do n=\$((n + 1)); sleep 1; done; echo EXIT=\$s; sleep 60"
ROW="^ +n/a +127\\.0\\.0\\.1:$PORT +pmutop "
expect "$ROW" "the host's command rows" 900
keys k
expect "rows of http://127\\.0\\.0\\.1:$PPORT \\(--prometheus\\): kill, renice and affinity act on this machine's processes only" \
	"k: refused in one line"
expect_not "Send to" "k: no signal menu"
keys F7
expect "\\(--prometheus\\): kill" "F7: refused in one line"
keys a
expect "\\(--prometheus\\): kill" "a: refused in one line"
expect_not "CPUs of" "a: no CPU dialog"
keys G
expect "^ +cg +127\\.0\\.0\\.1:$PORT +pmutop .* /\$" "G: the host's root cgroup row" 600
expect_not "$ROW" "G: no command rows"
keys G
expect "$ROW" "G again: the command rows" 600
# Paused, no tick comes but the one G asks for: its screen has the other kind of rows
# and their count, and no screen on the way has the old kind under the new count.
keys Z
expect " PAUSED " "Z: paused"
expect_not "not for a" "Z: not refused"
expect "^ PAUSED +commands [1-9][0-9]* " "paused: the header counts the command rows"
keys G
CG="^ +cg +127\\.0\\.0\\.1:$PORT +pmutop .* /\$"
# A screen is judged once settled: two captures 0.1 s apart the same (tmux can capture a
# frame half written, its top rows new and the rest still the last frame's: seen in CI's
# sanitizer pass). Paused, the only frame to come is the one G asked for.
rows_of() { # $1: the count's word; $2, $3: the kind of rows awaited, the kind never shown
	n=0
	while [ "$n" -lt 300 ]; do
		capture
		cp "$CAP" "$DIR/before"
		sleep 0.1
		n=$((n + 1))
		capture
		cmp -s "$CAP" "$DIR/before" || continue
		if grep -Eq "^ PAUSED +$1 " "$CAP" && grep -Eq -- "$3" "$CAP"; then
			fail "$1 counted over the other kind's rows"
			return
		fi
		grep -Eq "^ PAUSED +$1 [1-9][0-9]* " "$CAP" && grep -Eq -- "$2" "$CAP" && return
	done
	fail "paused, G: expected '$1 N' and its rows at once"
}
rows_of cgroups "$CG" "$ROW"
expect_not "Tasks" "G: no Tasks count over cgroup rows"
keys G
rows_of commands "$ROW" "$CG"
keys Z
expect_gone " PAUSED " "Z: resumed"
keys q
expect 'EXIT=0' "q leaves"
finish "--prometheus's rows: k, F7 and a refused; G's (instance, cgroup) rows"
