#!/usr/bin/env bash
# Two pmutop binaries side by side in one run, in pairs, for a change that must not
# make pmutop slower or bigger (issue 27 item 6): CPU per tick at 1,000 and 5,000 idle
# tasks (perf and bpf backends), peak RSS, and the allocations of a steady tick.
#
#   bench/abtest.sh --before BINARY --after BINARY [--reps N] [--sizes "1000 5000"]
#
# Each pair runs before and after at the same time over the same idle tasks, so that a
# shared machine's load falls on both alike, and reads each one's CPU (its threads'
# schedstat) between its 5th and 55th tick: start-up and exit are left out. The order in
# which the two start alternates. The median of the pairs' after/before ratios is the
# verdict. Run it as root (every task counted).
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
before="" after="" reps=5 sizes="1000 5000" n1=5 n2=50 interval=0.1
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
if [ ! -x "$before" ] || [ ! -x "$after" ]; then
	echo "bench/abtest.sh: give --before and --after binaries" >&2
	exit 2
fi

tmp=$(mktemp -d /tmp/pmutop-abtest.XXXXXX)
idle_pid="" pb="" pa=""
cleanup() {
	[ -n "$pb" ] && kill -TERM "$pb" 2>/dev/null
	[ -n "$pa" ] && kill -TERM "$pa" 2>/dev/null
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
cc -O2 -Wall -Wextra -o "$tmp/idle" "$here/idle.c" || exit 1
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

cpu_ns() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
nticks() { grep -c '^pmutop - ' "$1" 2>/dev/null; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' /proc/"$1"/status 2>/dev/null; }
# until_ticks N: wait until both runs have written N blocks (or one ended).
until_ticks() {
	local end=$((SECONDS + 300))
	while [ "$(nticks "$tmp/b.out")" -lt "$1" ] || [ "$(nticks "$tmp/a.out")" -lt "$1" ]; do
		kill -0 "$pb" 2>/dev/null && kill -0 "$pa" 2>/dev/null && [ $SECONDS -lt $end ] || return 1
		sleep 0.02
	done
}
# pair BACKEND FIRST: before and after at once over the same ticks of the machine (FIRST
# starts first); "BEFORE_CPU_PER_TICK AFTER_CPU_PER_TICK BEFORE_RSS AFTER_RSS" in s and
# KiB. Each one's CPU is read from its threads' schedstat at its tick n1 and n1 + n2, so
# start-up and exit are not in it.
pair() {
	local be=$1 first=$2 c0b c0a t0b t0a c1b c1a t1b t1a
	if [ "$first" = before ]; then
		"$before" -b --backend "$be" -d "$interval" >"$tmp/b.out" 2>/dev/null & pb=$!
		"$after" -b --backend "$be" -d "$interval" >"$tmp/a.out" 2>/dev/null & pa=$!
	else
		"$after" -b --backend "$be" -d "$interval" >"$tmp/a.out" 2>/dev/null & pa=$!
		"$before" -b --backend "$be" -d "$interval" >"$tmp/b.out" 2>/dev/null & pb=$!
	fi
	if until_ticks "$n1"; then
		c0b=$(cpu_ns $pb) t0b=$(nticks "$tmp/b.out") c0a=$(cpu_ns $pa) t0a=$(nticks "$tmp/a.out")
		until_ticks $((n1 + n2))
		c1b=$(cpu_ns $pb) t1b=$(nticks "$tmp/b.out") c1a=$(cpu_ns $pa) t1a=$(nticks "$tmp/a.out")
		echo "$(calc "($c1b - $c0b) / 1e9 / ($t1b - $t0b)" 6) $(calc "($c1a - $c0a) / 1e9 / ($t1a - $t0a)" 6)" \
			"$(hwm_kb $pb) $(hwm_kb $pa)"
	else
		echo "nan nan 0 0"
	fi
	kill -TERM "$pb" "$pa" 2>/dev/null
	wait "$pb" "$pa" 2>/dev/null
	pb="" pa=""
	rm -f "$tmp/b.out" "$tmp/a.out"
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

echo "| tasks | backend | before ms/tick | after ms/tick | after/before (median of $reps pairs run at once) | pairs | peak RSS before / after (KiB), median (of the pairs' ratios) |"
echo "|---|---|---|---|---|---|---|"
for size in $sizes; do
	idle_start "$size"
	for be in perf bpf; do
		b_t=() a_t=() ratio=() pairs="" b_rss=() a_rss=() rss_ratio=()
		for r in $(seq "$reps"); do
			pair $be "$([ $((r % 2)) = 1 ] && echo before || echo after)" >"$tmp/pair"
			read -r bt at brss arss <"$tmp/pair"
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
