#!/usr/bin/env bash
# The pinned ping-pong of bench/workload.c under perf stat -a (the floor: per-CPU counters,
# nothing run at a switch), under empty BPF programs at pmutop's switch-path attach points,
# and under pmutop --backend bpf counting every task, the modes of each repetition in
# rotating order; each mode's time over perf stat -a's in the same repetition, the median
# and the spread (issue 40 item 2, docs/PERFORMANCE.md).
#
#   bench/pingfloor.sh [--pmutop BINARY] [--reps N] [--trips N] [MODE...]
#
# MODE: alone, perfa, empty_sw (an empty program at tp_btf/sched_switch), empty_both
# (and at tp_btf/sched_exit_tp), bpf (pmutop -b -d 1 with the 5 software events), bpf1
# (task-clock alone), bpf3 (task-clock, context-switches, cpu-migrations), bpf4 (and
# page-faults), bpf_fast (the 5 events at -d 0.1). Default: all but the last. Root; needs
# perf, clang, libbpf and pmutop's Release build in build-bench/ (bench/run.sh makes it).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
pmutop="$root/build-bench/pmutop" reps=7 trips=200000
while [ $# -gt 0 ]; do
	case "$1" in
	--pmutop) pmutop=${2:?}; shift ;;
	--reps) reps=${2:?}; shift ;;
	--trips) trips=${2:?}; shift ;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	-*) echo "bench/pingfloor.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
	*) break ;;
	esac
	shift
done
modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(alone perfa empty_sw empty_both bpf1 bpf3 bpf4 bpf)
[ -x "$pmutop" ] || { echo "bench/pingfloor.sh: no pmutop at $pmutop (run bench/run.sh once, or --pmutop)" >&2; exit 2; }
vmlinux="$root/build-bench/events/bpf/vmlinux.h"
ev=task-clock,context-switches,cpu-migrations,page-faults,major-faults
pin=$(($(nproc) - 1))

tmp=$(mktemp -d /tmp/pmutop-pingfloor.XXXXXX)
bg=""
cleanup() {
	if [ -n "$bg" ]; then kill -TERM "$bg" 2>/dev/null; wait "$bg" 2>/dev/null; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP

cc -O2 -Wall -o "$tmp/workload" "$here/workload.c" || exit 1
if [[ " ${modes[*]} " == *" empty_"* ]]; then
	[ -s "$vmlinux" ] || { echo "bench/pingfloor.sh: no $vmlinux (pmutop's build makes it)" >&2; exit 2; }
	clang -g -O2 -target bpf -I"$(dirname "$vmlinux")" -c "$here/emptyprog.bpf.c" -o "$tmp/empty.o" &&
		cc -O2 -Wall -o "$tmp/emptyload" "$here/emptyload.c" -lbpf || exit 1
fi

# Start a background command and wait until it wrote its first line to bg.out.
background() {
	rm -f "$tmp/bg.out"
	"$@" >"$tmp/bg.out" 2>>"$tmp/bg.err" &
	bg=$!
	for _ in $(seq 250); do
		[ -s "$tmp/bg.out" ] && return 0
		kill -0 "$bg" 2>/dev/null || return 1
		sleep 0.02
	done
	return 1
}

one() { # MODE: the workload's own time, seconds
	local m=$1 cmd=(taskset -c "$pin" "$tmp/workload" pingpong "$trips" "$tmp/res") ok=0
	rm -f "$tmp/res"
	case $m in
	alone) "${cmd[@]}" ;;
	perfa) perf stat -a -e "$ev" -o /dev/null -- "${cmd[@]}" ;;
	empty_sw) background timeout 120 "$tmp/emptyload" "$tmp/empty.o" empty_switch && ok=1 ;;
	empty_both) background timeout 120 "$tmp/emptyload" "$tmp/empty.o" empty_switch empty_arrive && ok=1 ;;
	bpf) background timeout 120 "$pmutop" -b --backend bpf -d 1 -e "{$ev}" && ok=1 ;;
	bpf_fast) background timeout 120 "$pmutop" -b --backend bpf -d 0.1 -e "{$ev}" && ok=1 ;;
	bpf1) background timeout 120 "$pmutop" -b --backend bpf -d 1 -e task-clock && ok=1 ;;
	bpf3) background timeout 120 "$pmutop" -b --backend bpf -d 1 \
		-e '{task-clock,context-switches,cpu-migrations}' && ok=1 ;;
	bpf4) background timeout 120 "$pmutop" -b --backend bpf -d 1 \
		-e '{task-clock,context-switches,cpu-migrations,page-faults}' && ok=1 ;;
	*) echo "bench/pingfloor.sh: unknown mode '$m'" >&2; exit 2 ;;
	esac
	if [ -n "$bg" ]; then
		[ $ok = 1 ] && "${cmd[@]}"
		kill -TERM "$bg" 2>/dev/null; wait "$bg" 2>/dev/null; bg=""
	fi
	sed -n 's/^elapsed_s=//p' "$tmp/res" 2>/dev/null | grep . || echo nan
}

declare -A T
n=${#modes[@]}
[[ " ${modes[*]} " == *" perfa "* ]] || { modes+=(perfa); n=$((n + 1)); }
for r in $(seq "$reps"); do
	for j in $(seq 0 $((n - 1))); do
		m=${modes[$(((j + r) % n))]}
		T[$m,$r]=$(one "$m")
	done
done
printf '| mode | seconds | over perf stat -a (median, spread) | ns a switch over perf stat -a |\n|---|---|---|---:|\n'
for m in "${modes[@]}"; do
	ratios=$(for r in $(seq "$reps"); do echo "${T[$m,$r]} ${T[perfa,$r]}"; done |
		awk '{ printf "%.4f\n", $1 / $2 }' | sort -g)
	secs=$(for r in $(seq "$reps"); do echo "${T[$m,$r]}"; done | sort -g | sed -n '1p;$p' | paste -sd- -)
	awk -v m="$m" -v s="$secs" -v trips="$trips" -v pf="$(for r in $(seq "$reps"); do echo "${T[perfa,$r]}"; done | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')" '
		{ a[NR] = $1 }
		END { med = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
		      printf "| %s | %s | %.3f (%.3f-%.3f) | %.0f |\n", m, s, med, a[1], a[NR],
			     (med - 1) * pf * 1e9 / (2 * trips) }' <<<"$ratios"
done
