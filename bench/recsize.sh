#!/usr/bin/env bash
# The size of a recording (pmutop -w): PROCS processes (default 1,000) of which 50 wake
# every 100 ms, and CHURN new processes a second (default 50) that work as those do for
# 1 s and exit (900 idle, 50 active, 50 young at any time), 1 s ticks, the default event
# set; pmutop -w FILE -b -q for SECONDS (default 120). The machine's own new processes
# (other work beside the bench) count as churn too: "new tasks a second" says how many.
# Reports bytes per tick, per stored (active) row and per day, read from SQLite's dbstat
# (new tasks are in their tick's chunk). Bytes are the pages' used bytes (record,
# cell pointer and page headers): a short run's last, part-filled page of each table
# would otherwise count as a tick's, while a day's appends fill their pages.
#
#   bench/recsize.sh [--pmutop BINARY] [--procs PROCS] [--churn CHURN] [--keep FILE]
#                    [--user USER] [SECONDS]
# (--keep: the recording is copied to FILE, to look into. --user: the processes run as
# USER, and pmutop records USER's alone (-u USER): the bench's load without the
# machine's other work.)
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
pmutop="$root/build-test/pmutop"
churn=50 procs=1000 keep= user=
while [ $# -gt 1 ]; do
	case $1 in
	--pmutop) pmutop=$2 ;;
	--procs) procs=$2 ;;
	--churn) churn=$2 ;;
	--keep) keep=$2 ;;
	--user) user=$2 ;;
	*) break ;;
	esac
	shift 2
done
secs=${1:-120}
tmp=$(mktemp -d /tmp/pmutop-recsize.XXXXXX)
trap 'kill $tick_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/ticker" "$here/ticker.c"
idle=$((procs - 50 - churn))
as=() only=()
if [ -n "$user" ]; then
	chmod 755 "$tmp"
	as=(runuser -u "$user" --)
	only=(-u "$user")
fi
"${as[@]}" "$tmp/ticker" $((idle > 0 ? idle : 0)) 50 $((secs + 10)) "$churn" &
tick_pid=$!
sleep 3
# The recorder's CPU time (user and system) under GNU time, a tick's share printed
# below: what recording costs beside counting.
/usr/bin/time -o "$tmp/cpu" -f '%U %S' \
	"$pmutop" -w "$tmp/rec.pmutop" -b -q -d 1 -n "$secs" "${only[@]}" &
rec_pid=$!
sleep $((secs + 5))
kill -INT $rec_pid 2>/dev/null || true
wait $rec_pid || true
[ -z "$keep" ] || cp "$tmp/rec.pmutop" "$keep"
read -r cpu_user cpu_sys < "$tmp/cpu" || true
echo "recorder CPU a tick      $(echo "$cpu_user $cpu_sys $secs" |
	awk '{printf "%.2f ms (user %.2f s, system %.2f s)", ($1 + $2) * 1000 / $3, $1, $2}')"
# Stored rows are packed into each tick's chunk: pmutop itself counts them.
nev=$(sqlite3 "$tmp/rec.pmutop" "SELECT count(*) FROM events WHERE evset = (SELECT max(id) FROM evsets)")
sql() { "$pmutop" -r "$tmp/rec.pmutop" --sql "$1" 2>/dev/null | tail -n 1; }
stored=$(sql "SELECT count(*) / $nev FROM readings")
# The bench's own new processes (named job<N>), apart from the machine's; new processes
# that ran (those that did not have no reading) after the first tick.
jobrows=$(sql "SELECT count(*) / $nev FROM readings WHERE command GLOB 'job[0-9]*'")
jobs=$(sql "SELECT count(DISTINCT pid) FROM readings WHERE command GLOB 'job[0-9]*'")
later=$(sql "SELECT count(*) FROM (SELECT pid, command FROM readings WHERE kind = 'process'
  GROUP BY pid, command HAVING min(seq) > (SELECT min(seq) FROM ticks))")
# Format 3 (docs/RECORDING.md): a tick's chunk holds its new tasks and its rows; the
# first tick of a block (600 ticks or 1 MiB of chunks) defines every task alive, as the
# run's first tick does. A day: the ticks after the first, and a block's first tick as
# often as blocks start.
sqlite3 "$tmp/rec.pmutop" <<SQL
.mode list
CREATE TEMP TABLE n AS SELECT (SELECT count(*) FROM ticks) AS ticks,
  (SELECT sum(pgsize - unused) FROM dbstat WHERE name LIKE 'ticks%' OR name LIKE 'cells%'
     OR name LIKE 'sqlite_autoindex_cells%') AS tick_bytes,
  (SELECT sum(length(rows)) FROM ticks) AS packed,
  (SELECT length(rows) FROM ticks ORDER BY seq LIMIT 1) AS keyframe,
  (SELECT count(DISTINCT key) FROM ticks) AS blocks,
  $stored AS stored, $jobrows AS jobrows, $jobs AS jobs, $later AS later;
CREATE TEMP TABLE d AS SELECT (packed - keyframe) * 1.0 / (ticks - 1)
  + (tick_bytes - packed) * 1.0 / ticks AS steady FROM n;
CREATE TEMP TABLE k AS SELECT max(86400.0 / 600, 86400.0 * (SELECT steady FROM d) / 1048576)
  AS blocks_a_day FROM n;
SELECT 'ticks                    ' || ticks || ' (' || blocks || ' blocks)' FROM n;
SELECT 'stored (active) rows     ' || stored || ' (' || printf('%.1f', 1.0 * stored / ticks) || ' a tick)' FROM n;
SELECT 'new processes that ran   ' || later || ' after the first tick: ' || printf('%.1f', 1.0 * later / (ticks - 1)) || ' a second' FROM n;
SELECT 'compressed bytes a row   ' || printf('%.1f', 1.0 * (packed - keyframe) / (stored - stored * 1.0 / ticks)) || ' (chunks after the first tick, their new tasks included, a stored row)' FROM n;
SELECT 'bytes a tick             ' || printf('%.0f', steady) || ' (after the first: chunk, record and index)' FROM d;
SELECT 'first tick (keyframe)    ' || keyframe || ' bytes, ' || printf('%.0f', blocks_a_day) || ' a day' FROM n, k;
SELECT 'bytes, file              ' || sum(pgsize) || ' (' || sum(pgsize - unused) || ' used)' FROM dbstat;
SELECT 'the bench''s new processes ' || jobs || ' (' || printf('%.1f', 1.0 * jobs / (ticks - 1)) || ' a second), ' || printf('%.1f', 1.0 * jobrows / max(jobs, 1)) || ' stored rows each' FROM n;
SELECT 'by table, used bytes a tick:' FROM n;
SELECT '  ' || printf('%-22s', name) || printf('%8.0f', sum(pgsize - unused) * 1.0 / (SELECT ticks FROM n))
  FROM dbstat GROUP BY name HAVING sum(pgsize - unused) > 0 ORDER BY sum(pgsize - unused) DESC;
SELECT 'MB a day (1 s)           ' || printf('%.1f', (86400.0 * steady + blocks_a_day * keyframe) / 1e6) FROM d, k, n;
SQL
