#!/bin/sh
# a: the CPU affinity dialog, as htop's (issue 37, item 4): the selected process's CPUs,
# marked as it may run now; Space unmarks one, Enter sets the rest on the process and
# each of its threads (as /proc/PID/task/*/status says after); none marked is refused;
# a process gone before Enter gets one line, not another's CPUs. The kill menu lists
# every signal, SIGTERM selected.
# Usage: affinity.sh PMUTOP THREADS_HELPER [TMUX]
set -u
PMUTOP=${1:?usage: affinity.sh PMUTOP THREADS_HELPER [TMUX]}
HELPER=${2:?usage: affinity.sh PMUTOP THREADS_HELPER [TMUX]}
TMUX_BIN=${3:-tmux}
SOCK="pmutop-affinity-$$"
TMP=$(mktemp -d) || exit 1
CAP="$TMP/screen.txt"
. "$(dirname "$0")/lib.sh"
NAME="pmaf$$"
cp "$HELPER" "$TMP/$NAME" || exit 1
cleanup() {
	t kill-server 2>/dev/null
	[ -n "${HP:-}" ] && kill "$HP" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
NCPU=$(getconf _NPROCESSORS_ONLN)
if [ "$NCPU" -lt 2 ]; then
	echo "skip: one CPU, nothing to choose"
	exit 0
fi
"$TMP/$NAME" >"$TMP/pid" &
HP=$!

allowed() { awk '/^Cpus_allowed_list/ { print $2 }' "$1" 2>/dev/null; }
# Every thread of the helper on CPU $1 alone (a deadline, never a speed).
all_on() {
	w=0
	while [ "$w" -lt 300 ]; do
		ok=1
		for f in /proc/"$HP"/task/*/status; do
			[ "$(allowed "$f")" = "$1" ] || ok=0
		done
		[ "$ok" = 1 ] && return 0
		sleep 0.1
		w=$((w + 1))
	done
	return 1
}

t new-session -d -s e2e -x 140 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 1 --pane Software; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'PID +USER' 100 || { fail "no first frame within 10 s"; exit 1; }
keys '\'
sleep 0.3
keys "$NAME" Enter
expect "^ +$HP .*$NAME" "the helper under the filter"

# The kill menu: every signal, SIGTERM selected; Esc sends nothing.
keys k
expect '15 SIGTERM' "k: SIGTERM listed"
expect ' 1 SIGHUP' "k: from 1"
keys End
expect 'SIGRTMAX' "k: to the last real-time signal"
keys Escape
expect_gone 'SIGRTMAX' "Esc closes the menu"

keys a
expect "CPUs of $HP" "a: the dialog for the helper"
expect '\[x\] CPU 0' "CPU 0 marked (it may run anywhere)"
expect '\[x\] CPU 1' "CPU 1 marked"
keys Space
expect '\[ \] CPU 0' "Space unmarks CPU 0"
# Every CPU unmarked: refused, the dialog stays.
i=1
while [ "$i" -lt "$NCPU" ]; do
	keys Down Space
	i=$((i + 1))
done
keys Enter
expect 'mark at least one CPU' "none marked: refused"
keys Space
keys Enter
LAST=$((NCPU - 1))
expect "$HP: its 4 threads now run on 1 CPUs" "Enter: one line says it"
all_on "$LAST" || fail "every thread of $HP on CPU $LAST: $(cat /proc/$HP/task/*/status | grep Cpus_allowed_list | tr '\n' ' ')"

# The dialog again shows what it is now; the process ends before Enter: one line.
keys a
expect "\\[x\\] CPU $LAST" "a again: the CPU it has"
expect '\[ \] CPU 0' "and not CPU 0"
kill "$HP"
wait "$HP" 2>/dev/null
HP=
keys Enter
expect 'is gone: no CPUs set' "gone before Enter: nothing set, one line"
keys q
finish "a sets CPUs on a process and its threads; k lists every signal"
