#!/usr/bin/env bash
# The size of a recording (pmutop -w): 1,000 processes of which 50 wake every 100 ms,
# 1 s ticks, the default event set; pmutop -w FILE -b -q for SECONDS (default 120).
# Reports bytes per tick, per stored (active) row and per day, read from SQLite's dbstat.
#
#   bench/recsize.sh [--pmutop BINARY] [SECONDS]
set -eu -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
pmutop="$root/build-test/pmutop"
if [ "${1:-}" = --pmutop ]; then pmutop=$2; shift 2; fi
secs=${1:-120}
tmp=$(mktemp -d /tmp/pmutop-recsize.XXXXXX)
trap 'kill $tick_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
cc -O2 -o "$tmp/ticker" "$here/ticker.c"
"$tmp/ticker" 950 50 $((secs + 10)) &
tick_pid=$!
sleep 3
"$pmutop" -w "$tmp/rec.pmutop" -b -q -d 1 -n "$secs" &
rec_pid=$!
sleep $((secs + 5))
kill -INT $rec_pid 2>/dev/null || true
wait $rec_pid || true
sqlite3 "$tmp/rec.pmutop" <<'SQL'
.mode list
SELECT 'ticks               ' || count(*) FROM ticks;
SELECT 'tasks               ' || count(*) FROM tasks;
SELECT 'stored rows         ' || count(*) FROM samples;
SELECT 'stored rows a tick  ' || printf('%.1f', 1.0 * count(*) / (SELECT count(*) FROM ticks)) FROM samples;
SELECT 'bytes, samples      ' || sum(pgsize) FROM dbstat WHERE name LIKE 'samples%' OR name LIKE 'sqlite_autoindex_samples%';
SELECT 'bytes, ticks        ' || sum(pgsize) FROM dbstat WHERE name LIKE 'ticks%';
SELECT 'bytes, tasks        ' || sum(pgsize) FROM dbstat WHERE name LIKE 'tasks%';
SELECT 'bytes, all          ' || sum(pgsize) FROM dbstat;
SELECT 'bytes a stored row  ' || printf('%.1f', 1.0 * (SELECT sum(pgsize) FROM dbstat WHERE name LIKE 'samples%') / (SELECT count(*) FROM samples));
SELECT 'bytes a tick        ' || printf('%.0f', 1.0 * (SELECT sum(pgsize) FROM dbstat WHERE name NOT LIKE 'tasks%') / (SELECT count(*) FROM ticks));
SELECT 'MB a day (1 s)      ' || printf('%.1f', 86400.0 * (SELECT sum(pgsize) FROM dbstat WHERE name NOT LIKE 'tasks%') / (SELECT count(*) FROM ticks) / 1e6);
SQL
