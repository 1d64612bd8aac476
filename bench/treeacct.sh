#!/bin/sh
# treeacct.sh: a command's tree counted by perf stat's inherited counters and by the kernel's
# own accounting (rusage of the reaped tree) in the same run, for five trees, quiet and
# beside two spinning processes (issue 40 item 5; bench/treeacct.c). Prints a markdown
# table: per workload and load, the perf count and the kernel's minus perf's (range over
# the runs; task-clock as the kernel's over perf's). Then per task: 200 short children of
# treeacct, each read from /proc as a zombie and from its own perf counters (perf/kernel
# minus perf, and how many tasks were off).
#   bench/treeacct.sh [RUNS]     RUNS per workload and load, 5 by default
# Run as root (or with CAP_PERFMON). About a minute.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
runs=${1:-5}
tmp=$(mktemp -d)
spin=""
cleanup() {
	for p in $spin; do kill "$p" 2>/dev/null || :; done
	for p in $spin; do wait "$p" 2>/dev/null || :; done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM HUP
cc -O2 -Wall -Wextra -o "$tmp/treeacct" "$here/treeacct.c"
cc -O2 -Wall -Wextra -o "$tmp/workload" "$here/workload.c"
ta="$tmp/treeacct"
w="$ta work 256 20"

# name|tasks|execs|command (run by sh -c, in $tmp)
cat >"$tmp/plan" <<EOF
true|1|1|exec $ta -- /bin/true
ping-pong 20,000|2|1|exec $ta -- ./workload pingpong 20000 /dev/null
forks 100|101|1|exec $ta -- ./workload forks 100 /dev/null
sh + 4 children (256 pages, 20 sleeps)|5|5|exec $ta -- sh -c '$w & $w & $w & $w; wait'
sh, ls and wc (a pipe)|3|3|exec $ta -- sh -c 'ls / | wc -l >/dev/null'
EOF

one_load() { # LOAD: every workload RUNS times, in turn
	for _ in $(seq "$runs"); do
		while IFS='|' read -r name tasks execs cmd; do
			out=$(cd "$tmp" && sh -c "$cmd" 2>&1 >/dev/null) || {
				echo "treeacct.sh: $name failed: $out" >&2
				exit 1
			}
			echo "$1|$name|$tasks|$execs|$out"
		done <"$tmp/plan"
	done
}
per_task() { # LOAD: treeacct forks 200, RUNS times: each task's own accounting at its end
	for _ in $(seq "$runs"); do
		printf -- '- %s: ' "$1" >>"$tmp/pertask"
		"$ta" forks 200 2>>"$tmp/pertask"
	done
}
one_load quiet >"$tmp/res"
per_task quiet
sh -c 'while :; do :; done' &
spin="$!"
sh -c 'while :; do :; done' &
spin="$spin $!"
one_load "two spinners" >>"$tmp/res"
per_task "two spinners"

echo "| workload (tasks, execs) | load | runs | switches perf | kernel - perf | page-faults perf | kernel - perf | perf minor+major = page-faults | migrations perf | task-clock perf (ms) | kernel / perf |"
echo "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"
awk -F'|' '
function kv(s, k,   a, n, i) { n = split(s, a, " "); for (i = 1; i <= n; i++) if (index(a[i], k "=") == 1) return substr(a[i], length(k) + 2); return "" }
function rng(lo, hi) { return lo == hi ? lo : lo ".." hi }
function fix(x) { return sprintf("%.3f", x) }
function sg(x) { return x >= 0 ? "+" x : x }
{
	key = $2 "|" $1
	if (!(key in n)) { order[++nk] = key; nm[key] = $2 " (" $3 ", " $4 ")"; ld[key] = $1 }
	n[key]++
	split(kv($5, "switches"), s, "/"); split(kv($5, "faults"), f, "/")
	split(kv($5, "task_clock_us"), c, "/"); split(kv($5, "migrations"), m, "/")
	ds = s[2] - s[1]; df = f[2] - f[1]; rc = c[1] > 0 ? c[2] / c[1] : 0
	if (n[key] == 1) { slo[key] = shi[key] = s[1]; dslo[key] = dshi[key] = ds; flo[key] = fhi[key] = f[1]
		dflo[key] = dfhi[key] = df; mlo[key] = mhi[key] = m[1]; clo[key] = chi[key] = c[1] / 1e3
		rlo[key] = rhi[key] = rc; mm[key] = "yes" }
	if (s[1] < slo[key]) slo[key] = s[1]; if (s[1] > shi[key]) shi[key] = s[1]
	if (ds < dslo[key]) dslo[key] = ds; if (ds > dshi[key]) dshi[key] = ds
	if (f[1] < flo[key]) flo[key] = f[1]; if (f[1] > fhi[key]) fhi[key] = f[1]
	if (df < dflo[key]) dflo[key] = df; if (df > dfhi[key]) dfhi[key] = df
	if (m[1] < mlo[key]) mlo[key] = m[1]; if (m[1] > mhi[key]) mhi[key] = m[1]
	if (c[1] / 1e3 < clo[key]) clo[key] = c[1] / 1e3; if (c[1] / 1e3 > chi[key]) chi[key] = c[1] / 1e3
	if (rc < rlo[key]) rlo[key] = rc; if (rc > rhi[key]) rhi[key] = rc
	if (kv($5, "minmaj") != f[1]) mm[key] = "no"
}
END {
	for (i = 1; i <= nk; i++) { k = order[i]
		printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", nm[k], ld[k], n[k],
			rng(slo[k], shi[k]), rng(sg(dslo[k]), sg(dshi[k])), rng(flo[k], fhi[k]),
			rng(sg(dflo[k]), sg(dfhi[k])), mm[k], rng(mlo[k], mhi[k]),
			rng(sprintf("%.2f", clo[k]), sprintf("%.2f", chi[k])), rng(fix(rlo[k]), fix(rhi[k]))
	}
}' "$tmp/res"
echo
echo "Per task (treeacct forks 200: perf / kernel - perf):"
cat "$tmp/pertask"
