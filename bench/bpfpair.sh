#!/usr/bin/env bash
# The bpf programs' time per context switch of two pmutop binaries, in pairs (issue 40
# item 1): run.sh section 6's measure (kernel.bpf_stats_enabled on, restored after;
# run_time_ns of on_switch + on_arrive over on_switch's run_cnt) while pmutop
# --backend bpf counts every task at 1, 5 and 8 software events (one group) and the
# pinned pipe ping-pong switches. Before and after alternate, event count by event count
# (the order in a pair alternating too), so that a shared machine's load falls on both
# alike.
#
#   bench/bpfpair.sh --before BINARY --after BINARY [--pairs N] [--events "1 5 8"]
#                    [--trips N]
#
# Run it as root. Prints the sum and each program's share (ns per switch) of each run,
# then per event count the medians and the median of the pairs' differences.
set -u -o pipefail

here=$(cd "$(dirname "$0")" && pwd)
before="" after="" pairs=3 events="1 5 8" trips=100000
while [ $# -gt 0 ]; do
	case "$1" in
	--before) before=${2:?}; shift ;;
	--after) after=${2:?}; shift ;;
	--pairs) pairs=${2:?}; shift ;;
	--events) events=${2:?}; shift ;;
	--trips) trips=${2:?}; shift ;;
	-h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "bench/bpfpair.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
	shift
done
if [ ! -x "$before" ] || [ ! -x "$after" ]; then
	echo "bench/bpfpair.sh: give --before and --after binaries" >&2
	exit 2
fi
for t in bpftool python3 taskset; do
	command -v "$t" >/dev/null || { echo "bench/bpfpair.sh: needs $t" >&2; exit 2; }
done

tmp=$(mktemp -d /tmp/pmutop-bpfpair.XXXXXX)
bg="" stats_old=""
cleanup() {
	[ -n "$bg" ] && kill -TERM "$bg" 2>/dev/null && wait "$bg" 2>/dev/null
	[ -n "$stats_old" ] && sysctl -qw kernel.bpf_stats_enabled="$stats_old"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
cc -O2 -o "$tmp/workload" "$here/workload.c" || exit 1
pin=$(($(nproc) - 1))
stats_old=$(sysctl -n kernel.bpf_stats_enabled) || exit 1
sysctl -qw kernel.bpf_stats_enabled=1 || exit 1

e5=task-clock,context-switches,cpu-migrations,page-faults,major-faults
e8=$e5,minor-faults,alignment-faults,emulation-faults
# The ids of the BPF programs pid holds open (its fdinfo), not another pmutop's.
ids() {
	local pid=$1
	[ -n "$pid" ] && cat /proc/"$pid"/fdinfo/* 2>/dev/null | awk '/^prog_id:/ { printf "%s ", $2 }'
}
# one BINARY N WHICH: prints "SUM (sw ON_SWITCH ar ON_ARRIVE)", and appends
# "N WHICH SUM" to $tmp/res
one() {
	local evs id=""
	case $2 in 1) evs=task-clock ;; 5) evs=$e5 ;; 8) evs=$e8 ;; *) echo "bad count $2" >&2; return 1 ;; esac
	: >"$tmp/bg.out"
	"$1" -b --backend bpf -d 0.5 -e "{$evs}" >"$tmp/bg.out" 2>>"$tmp/stderr.log" &
	bg=$!
	for _ in $(seq 500); do [ -s "$tmp/bg.out" ] && break; sleep 0.02; done
	taskset -c "$pin" "$tmp/workload" pingpong "$trips" "$tmp/obs.txt"
	id=$(ids "$bg")
	bpftool prog show -j >"$tmp/prog.json" 2>/dev/null
	kill -TERM "$bg"; wait "$bg"; bg=""
	python3 -c 'import json, sys
ids = set(int(i) for i in sys.argv[2].split())
ps = [p for p in json.load(open(sys.argv[1])) if p["id"] in ids and p.get("name") in ("on_switch", "on_arrive")]
sw = max(1, sum(p.get("run_cnt", 0) for p in ps if p.get("name") == "on_switch"))
d = {p["name"]: p.get("run_time_ns", 0) / sw for p in ps}
print("%4.0f (sw %3.0f ar %3.0f)" % (sum(d.values()), d.get("on_switch", 0), d.get("on_arrive", 0)), end="")
with open(sys.argv[3], "a") as f:
    f.write("%s %s %.1f\n" % (sys.argv[4], sys.argv[5], sum(d.values())))' "$tmp/prog.json" "$id" "$tmp/res" "$2" "$3"
}
echo "ns per switch, both programs (stats on); pin CPU $pin, $trips round trips"
for k in $(seq "$pairs"); do
	for n in $events; do
		# The order in a pair alternates: what runs second is not always the same build.
		if [ $((k % 2)) = 1 ]; then
			printf '%s events: before ' "$n"
			one "$before" "$n" before
			printf '   after '
			one "$after" "$n" after
		else
			printf '%s events: after ' "$n"
			one "$after" "$n" after
			printf '   before '
			one "$before" "$n" before
		fi
		echo "   load $(cut -d' ' -f1 /proc/loadavg)"
	done
done
python3 -c 'import statistics as st, sys
r = {}
for line in open(sys.argv[1]):
    n, w, v = line.split()
    r.setdefault(n, {}).setdefault(w, []).append(float(v))
for n in sys.argv[2].split():
    b, a = r.get(n, {}).get("before", []), r.get(n, {}).get("after", [])
    if b and a:
        d = [y - x for x, y in zip(b, a)]
        print("%s events: median before %.0f, after %.0f, of the pairs (after - before) %+.0f ns (%d pairs, %+.0f..%+.0f)"
              % (n, st.median(b), st.median(a), st.median(d), len(d), min(d), max(d)))' "$tmp/res" "$events"
if [ -s "$tmp/stderr.log" ]; then
	echo "pmutop's stderr (counted):"
	sort "$tmp/stderr.log" | uniq -c | head -5
fi
