#!/usr/bin/env bash
# The screen's history (TREND column, detail view) at 1,000 and 5,000 rows: the store
# alone (bench/history.c: CPU per history_feed, bytes, RSS, heap allocations per tick
# with bench/alloccount.c), then the live screen in tmux beside N idle processes: CPU
# per tick (utime+stime over the ticks after start-up) and peak RSS (VmHWM) of pmutop,
# and of a BASE binary built without history when one is given.
#
#   bench/history.sh PMUTOP [BASE_PMUTOP]
#
# Run as root so that pmutop counts every task; about 5 minutes.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
new=${1:?usage: bench/history.sh PMUTOP [BASE_PMUTOP]}
base=${2:-}
tmp=$(mktemp -d /tmp/pmutop-histbench.XXXXXX)
idle_pid=""
sock="pmutop-histbench-$$"
cleanup() {
	tmux -L "$sock" kill-server 2>/dev/null
	if [ -n "$idle_pid" ]; then kill -TERM "$idle_pid" 2>/dev/null; wait "$idle_pid" 2>/dev/null; fi
	rm -rf "$tmp"
}
trap cleanup EXIT INT TERM HUP

m=$root/src/model
cc -O2 -D_GNU_SOURCE -I"$m" -I"$root/events" -o "$tmp/history" "$here/history.c" \
	"$m/history.c" "$m/columns.c" "$m/value.c" "$m/numfmt.c" "$m/cgroup_name.c" "$m/model.c" -lm
cc -O2 -o "$tmp/idle" "$here/idle.c"
cc -O2 -shared -fPIC -o "$tmp/alloccount.so" "$here/alloccount.c" -ldl

echo "## The store alone (bench/history.c, 60 ticks, a row in 50 replaced per tick)"
for n in 1000 5000; do
	"$tmp/history" "$n" 60
	ALLOCCOUNT_OUT="$tmp/allocs" LD_PRELOAD="$tmp/alloccount.so" "$tmp/history" "$n" 20 >/dev/null
	echo "  heap allocations per tick at $n rows: first $(head -1 "$tmp/allocs" | cut -d' ' -f1)," \
		"then at most $(tail -n +2 "$tmp/allocs" | cut -d' ' -f1 | sort -n | tail -1)"
done

ticks=60
interval=0.5
hz=$(getconf CLK_TCK)
# CPU seconds (utime+stime) and VmHWM (kB) of pid.
cpu_of() { awk -v hz="$hz" '{ sub(/^.*\) /, ""); print ($12 + $13) / hz }' "/proc/$1/stat"; }
hwm_of() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }

live() { # binary label
	tmux -L "$sock" kill-server 2>/dev/null
	sleep 0.3
	tmux -L "$sock" -f /dev/null new-session -d -s b -x 160 -y 50 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$1' -d $interval; sleep 600"
	local pid="" n=0
	while [ -z "$pid" ] && [ $n -lt 50 ]; do
		pid=$(pgrep -n -f "^$1 -d $interval" || true); sleep 0.1; n=$((n + 1))
	done
	[ -n "$pid" ] || { echo "  $2: pmutop did not start"; return; }
	sleep 4 # start-up and the first ticks
	local c0 c1
	c0=$(cpu_of "$pid")
	sleep "$(echo "$ticks * $interval" | bc)"
	c1=$(cpu_of "$pid")
	local rows
	rows=$(tmux -L "$sock" capture-pane -p -t b | awk '/^Tasks/ { print $2; exit }')
	printf '  %-8s tasks %6s  CPU per tick %6.2f ms  peak RSS %6.1f MiB\n' "$2" "$rows" \
		"$(echo "($c1 - $c0) * 1000 / $ticks" | bc -l)" "$(echo "$(hwm_of "$pid") / 1024" | bc -l)"
}

echo
echo "## The live screen beside N idle processes (tmux 160x50, -d $interval, $ticks ticks)"
for n in 1000 5000; do
	"$tmp/idle" "$n" "$tmp/ready" &
	idle_pid=$!
	while [ ! -e "$tmp/ready" ]; do sleep 0.1; done
	echo "N = $n"
	live "$new" "history"
	[ -n "$base" ] && live "$base" "base"
	kill -TERM "$idle_pid"; wait "$idle_pid" 2>/dev/null; idle_pid=""; rm -f "$tmp/ready"
done
