#!/usr/bin/env bash
# A replay screen's frame at about 1,000 rows: the instructions (callgrind's Ir) a step
# (t) costs, from the tick loaded to the screen drawn. pmutop -r FILE runs under
# callgrind in a tmux window twice, once opened and quit, once with STEPS steps between:
# (Ir with the steps - Ir without) / STEPS. Counted instructions, not time: the same on a
# busy machine. FILE: a recording with about 1,000 processes (bench/recsize.sh --procs
# 1000 --churn 0 --keep FILE 15 makes one).
#
#   bench/replayframe.sh [--pmutop BINARY] [--steps STEPS] FILE
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
pmutop="$root/build-test/pmutop"
steps=10
while [ $# -gt 1 ]; do
	case $1 in
	--pmutop) pmutop=$2 ;;
	--steps) steps=$2 ;;
	*) break ;;
	esac
	shift 2
done
file=$1
tmp=$(mktemp -d /tmp/pmutop-replayframe.XXXXXX)
sock="$tmp/tmux"
trap 'tmux -S "$sock" kill-server 2>/dev/null; rm -rf "$tmp"' EXIT

# The screen shows the first tick (its REPLAY field), or the tick n of the file.
wait_for() {
	local want=$1 i
	for i in $(seq 1 1200); do
		tmux -S "$sock" capture-pane -p -t b 2>/dev/null | grep -Eq "$want" && return 0
		sleep 0.5
	done
	echo "replayframe: timed out waiting for '$want'" >&2
	exit 1
}

# Ir of one run: opened, n steps each waited for, quit.
run() {
	local n=$1 out="$tmp/cg.$1" i first
	tmux -S "$sock" new-session -d -s b -x 200 -y 60 \
		"valgrind --tool=callgrind --callgrind-out-file=$out $pmutop -r $file; sleep 600"
	wait_for 'REPLAY .*\(1/[0-9]+\)'
	for i in $(seq 1 "$n"); do
		tmux -S "$sock" send-keys -t b t
		first=$((i + 1))
		wait_for "REPLAY .*\\($first/[0-9]+\\)"
	done
	tmux -S "$sock" send-keys -t b q
	for i in $(seq 1 600); do
		[ -s "$out" ] && grep -q '^totals:' "$out" && break
		sleep 0.5
	done
	tmux -S "$sock" kill-server
	grep '^totals:' "$out" | awk '{print $2}'
}

rows=$("$pmutop" -r "$file" -b --begin +0 --end +0 2>/dev/null | grep -cE "^ *[0-9]+ " || true)
base=$(run 0)
more=$(run "$steps")
echo "recording: $file ($rows rows a tick)"
echo "Ir opened and quit: $base; with $steps steps: $more"
echo "Ir a frame (a step, loaded and drawn): $(((more - base) / steps))"
