#!/usr/bin/env bash
# Two pmutop binaries side by side in one run, interleaved, for a change that must not
# make pmutop slower or bigger (issue 27 item 6): CPU per tick at 1,000 and 5,000 idle
# tasks (perf and bpf backends), peak RSS, and the allocations of a steady tick.
#
#   bench/abtest.sh --before BINARY --after BINARY [--reps N] [--sizes "1000 5000"]
#
# CPU per tick is (cpu(n2 ticks) - cpu(n1 ticks)) / (n2 - n1), start-up and exit cancel
# out. Each repetition runs before and after back to back over the same idle tasks, in
# an order that alternates, and the ratio after/before of that pair is kept: the median
# of the ratios is the verdict, since a shared machine's load moves between pairs far
# more than within one. Run it as root (every task counted).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
before="" after="" reps=5 sizes="1000 5000" n1=5 n2=55 interval=0.1
while [ $# -gt 0 ]; do
	case "$1" in
	--before) before=${2:?}; shift ;;
	--after) after=${2:?}; shift ;;
	--reps) reps=${2:?}; shift ;;
	--sizes) sizes=${2:?}; shift ;;
	-h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench/abtest.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
[ -x "$before" ] && [ -x "$after" ] || { echo "bench/abtest.sh: give --before and --after binaries" >&2; exit 2; }

tmp=$(mktemp -d /tmp/pmutop-abtest.XXXXXX)
idle_pid=""
cleanup() {
	if [ -n "$idle_pid" ]; then
		kill -TERM "$idle_pid" 2>/dev/null
		for _ in $(seq 100); do kill -0 "$idle_pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$idle_pid" 2>/dev/null
		wait "$idle_pid" 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
for h in runstat idle; do
	cc -O2 -Wall -Wextra -o "$tmp/$h" "$here/$h.c" || exit 1
done
cc -O2 -Wall -Wextra -shared -fPIC -o "$tmp/alloccount.so" "$here/alloccount.c" -ldl || exit 1

kv() { awk -v k="$2" '{for (i = 1; i <= NF; i++) { n = index($i, "="); if (substr($i, 1, n - 1) == k) print substr($i, n + 1) }}' "$1"; }
calc() { awk "BEGIN { printf \"%.${2:-3}f\", $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

idle_start() {
	rm -f "$tmp/ready"
	"$tmp/idle" "$1" "$tmp/ready" &
	idle_pid=$!
	while [ ! -e "$tmp/ready" ]; do
		kill -0 "$idle_pid" 2>/dev/null || { echo "cannot start $1 idle tasks" >&2; exit 1; }
		sleep 0.05
	done
	sleep 0.5
}
idle_stop() {
	kill -TERM "$idle_pid" 2>/dev/null
	wait "$idle_pid" 2>/dev/null
	idle_pid=""
	sleep 0.3
}

# pertick BINARY BACKEND: "CPU_PER_TICK MAXRSS_KB" of one n1/n2 pair.
pertick() {
	local n
	for n in $n1 $n2; do
		timeout 300 "$tmp/runstat" -o "$tmp/r$n" -- "$1" -b --backend "$2" -n "$n" \
			-d "$interval" 2>/dev/null
	done
	echo "$(calc "($(kv "$tmp/r$n2" cpu_s) - $(kv "$tmp/r$n1" cpu_s)) / ($n2 - $n1)" 6)" \
		"$(kv "$tmp/r$n2" maxrss_kb)"
}

# steady BINARY BACKEND [ARGS]: allocations in ticks that opened no counter (ticks 3
# on). Every task, where the machine's own births and deaths make some ticks busy, and
# one sleeping process (-p), where no tick should allocate.
steady() {
	local bin=$1 be=$2
	shift 2
	timeout 300 env LD_PRELOAD="$tmp/alloccount.so" ALLOCCOUNT_OUT="$tmp/alloc" \
		"$bin" -b --backend "$be" -n 20 -d "$interval" "$@" >/dev/null 2>&1
	awk 'NR > 2 && $2 == 0 { q++; qa += $1 } END { printf "%d allocs in %d quiet ticks", qa, q }' "$tmp/alloc"
}

echo "| tasks | backend | before ms/tick | after ms/tick | after/before (median of $reps pairs) | pairs | peak RSS before / after (KiB), median (of the pairs' ratios) |"
echo "|---|---|---|---|---|---|---|"
for size in $sizes; do
	idle_start "$size"
	for be in perf bpf; do
		b_t=() a_t=() ratio=() pairs="" b_rss=() a_rss=() rss_ratio=()
		for r in $(seq "$reps"); do
			if [ $((r % 2)) = 1 ]; then
				read -r bt brss < <(pertick "$before" $be)
				read -r at arss < <(pertick "$after" $be)
			else
				read -r at arss < <(pertick "$after" $be)
				read -r bt brss < <(pertick "$before" $be)
			fi
			b_t+=("$bt"); a_t+=("$at")
			ratio+=("$(calc "$at / ($bt > 0 ? $bt : 1e-9)" 3)")
			pairs="$pairs ${ratio[-1]}"
			b_rss+=("${brss:-0}"); a_rss+=("${arss:-0}")
			rss_ratio+=("$(calc "${arss:-0} / (${brss:-0} > 0 ? ${brss:-0} : 1)" 3)")
		done
		echo "| $size | $be | $(calc "$(median "${b_t[@]}") * 1000" 2) | $(calc "$(median "${a_t[@]}") * 1000" 2) | $(median "${ratio[@]}") | ${pairs# } | $(median "${b_rss[@]}") / $(median "${a_rss[@]}") ($(median "${rss_ratio[@]}")) |"
	done
	idle_stop
done
echo
sleep 600 &
sleeper=$!
for be in perf bpf; do
	echo "- steady tick, $be, every task: before $(steady "$before" $be); after $(steady "$after" $be)"
	echo "- steady tick, $be, -p one sleeping process: before $(steady "$before" $be -p $sleeper);" \
		"after $(steady "$after" $be -p $sleeper)"
done
kill "$sleeper" 2>/dev/null
wait "$sleeper" 2>/dev/null
