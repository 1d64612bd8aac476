#!/usr/bin/env bash
# The size of a recording (pmutop -w): PROCS processes (default 1,000) of which 50 wake
# every 100 ms, and CHURN new processes a second (default 50) that work as those do for
# 1 s and exit (900 idle, 50 active, 50 young at any time), 1 s ticks, the default event
# set; pmutop -w FILE -b -q for SECONDS (default 120). The machine's own new processes
# (other work beside the bench) count as churn too: "new tasks a second" says how many.
# Reports bytes per tick, per stored (active) row and per day, read from SQLite's dbstat
# (tasks made after the first tick included). Bytes are the pages' used bytes (record,
# cell pointer and page headers): a short run's last, part-filled page of each table
# would otherwise count as a tick's, while a day's appends fill their pages.
#
#   bench/recsize.sh [--pmutop BINARY] [--procs PROCS] [--churn CHURN] [SECONDS]
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
pmutop="$root/build-test/pmutop"
churn=50 procs=1000
if [ "${1:-}" = --pmutop ]; then pmutop=$2; shift 2; fi
if [ "${1:-}" = --procs ]; then procs=$2; shift 2; fi
if [ "${1:-}" = --churn ]; then churn=$2; shift 2; fi
secs=${1:-120}
tmp=$(mktemp -d /tmp/pmutop-recsize.XXXXXX)
trap 'kill $tick_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/ticker" "$here/ticker.c"
idle=$((procs - 50 - churn))
"$tmp/ticker" $((idle > 0 ? idle : 0)) 50 $((secs + 10)) "$churn" &
tick_pid=$!
sleep 3
"$pmutop" -w "$tmp/rec.pmutop" -b -q -d 1 -n "$secs" &
rec_pid=$!
sleep $((secs + 5))
kill -INT $rec_pid 2>/dev/null || true
wait $rec_pid || true
# Stored rows are packed into each tick's record: pmutop itself counts them.
nev=$(sqlite3 "$tmp/rec.pmutop" "SELECT count(*) FROM events WHERE evset = (SELECT max(id) FROM evsets)")
stored=$("$pmutop" -r "$tmp/rec.pmutop" --sql "SELECT count(*) / $nev FROM readings" | tail -n 1)
# The bench's own new processes (named job<N>), apart from the machine's.
jobrows=$("$pmutop" -r "$tmp/rec.pmutop" --sql "SELECT count(*) / $nev FROM readings WHERE command GLOB 'job[0-9]*'" | tail -n 1)
# The first tick makes a tasks row for every task on the machine; a day grows by the
# ticks and by the tasks made after it (new processes, execs, memory changed at rest).
sqlite3 "$tmp/rec.pmutop" <<SQL
.mode list
CREATE TEMP TABLE n AS SELECT (SELECT count(*) FROM ticks) AS ticks,
  (SELECT count(*) FROM tasks) AS tasks,
  (SELECT count(*) FROM tasks WHERE first > (SELECT min(seq) FROM ticks)) AS later,
  (SELECT sum(pgsize - unused) FROM dbstat WHERE name LIKE 'ticks%' OR name LIKE 'cells%'
     OR name LIKE 'sqlite_autoindex_cells%') AS tick_bytes,
  (SELECT sum(pgsize - unused) FROM dbstat WHERE name LIKE 'tasks%') AS task_bytes,
  (SELECT sum(length(rows)) FROM ticks) AS packed,
  $stored AS stored, $jobrows AS jobrows,
  (SELECT count(*) FROM tasks WHERE comm GLOB 'job[0-9]*') AS jobs;
SELECT 'ticks                    ' || ticks FROM n;
SELECT 'stored (active) rows     ' || stored || ' (' || printf('%.1f', 1.0 * stored / ticks) || ' a tick)' FROM n;
SELECT 'packed bytes a row       ' || printf('%.1f', 1.0 * packed / stored) FROM n;
SELECT 'page bytes a stored row  ' || printf('%.1f', 1.0 * tick_bytes / stored) || ' (ticks, its index, cells)' FROM n;
SELECT 'tasks                    ' || tasks || ' (' || later || ' after the first tick: ' || printf('%.1f', 1.0 * later / (ticks - 1)) || ' new tasks a second)' FROM n;
SELECT 'bytes a task row         ' || printf('%.0f', 1.0 * task_bytes / tasks) || ' (with its two indexes)' FROM n;
SELECT 'bytes a tick             ' || printf('%.0f', 1.0 * tick_bytes / ticks) || ' + tasks ' || printf('%.0f', 1.0 * task_bytes / tasks * later / (ticks - 1)) FROM n;
SELECT 'bytes, file              ' || sum(pgsize) || ' (' || sum(pgsize - unused) || ' used)' FROM dbstat;
SELECT 'the bench''s new processes ' || jobs || ' (' || printf('%.1f', 1.0 * jobs / (ticks - 1)) || ' a second), ' || printf('%.1f', 1.0 * jobrows / max(jobs, 1)) || ' stored rows each' FROM n;
SELECT 'bytes a new process      ' || printf('%.0f', 1.0 * task_bytes / tasks + 1.0 * jobrows / max(jobs, 1) * tick_bytes / stored) || ' (its task row and indexes, its stored rows)' FROM n;
SELECT 'MB a day of $churn new a second ' || printf('%.1f', 86400.0 * $churn * (1.0 * task_bytes / tasks + 1.0 * jobrows / max(jobs, 1) * tick_bytes / stored) / 1e6) || ' (those alone)' FROM n;
SELECT 'by table, used bytes a tick:' FROM n;
SELECT '  ' || printf('%-22s', name) || printf('%8.0f', sum(pgsize - unused) * 1.0 / (SELECT ticks FROM n))
  FROM dbstat GROUP BY name HAVING sum(pgsize - unused) > 0 ORDER BY sum(pgsize - unused) DESC;
SELECT 'MB a day (1 s)           ' || printf('%.1f', 86400.0 * (1.0 * tick_bytes / ticks + 1.0 * task_bytes / tasks * later / (ticks - 1)) / 1e6) FROM n;
SQL
