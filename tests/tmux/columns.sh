#!/bin/sh
# The column chooser: the events setup's Columns view lists the pane's columns (CGROUP
# hidden); Space shows CGROUP, [ moves it up, the table follows; W writes a columns line
# that a second pmutop (and batch mode) reads back.
# Usage: columns.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: columns.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-columns-$$"
CAP="${TMPDIR:-/tmp}/pmutop-columns-$$.txt"
XDG="${TMPDIR:-/tmp}/pmutop-columns-$$.d"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	rm -rf "$CAP" "$XDG"
}
trap cleanup EXIT INT TERM
mkdir -p "$XDG"
t new-session -d -s e2e -x 150 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$XDG' '$PMUTOP' -d 0.5 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
expect_not 'CGROUP' "CGROUP is hidden at first"
keys e 4
expect '\[ \] CGROUP' "the Columns view lists CGROUP, unchecked"
keys End Space
expect '\[x\] CGROUP' "Space checks it"
keys '['
expect '\[x\] CGROUP.*' "[ moves it"
keys Escape
expect 'FAULTS +CGROUP +MAJFLT' "the table shows CGROUP, moved before MAJFLT"
keys W
expect 'saved' "W saves"
grep -q '^columns Software PID,USER,CPU%,CSW,MIGR,FAULTS,CGROUP,MAJFLT$' "$XDG/pmutop/pmutoprc" ||
	fail "the columns line was written: $(grep columns "$XDG/pmutop/pmutoprc")"
keys q
expect 'EXIT=0' "q leaves"
out=$(XDG_CONFIG_HOME="$XDG" "$PMUTOP" -b -n 1 -d 0.2 --pane Software 2>/dev/null | grep 'PID USER')
echo "$out" | grep -Eq 'FAULTS +CGROUP +MAJFLT' || fail "batch mode reads the line: $out"
finish "the column chooser"
