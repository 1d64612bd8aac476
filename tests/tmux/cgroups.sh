#!/bin/sh
# Cgroups on the screen: --cgroups starts with a row per cgroup, as a tree (a child
# indented under its parent); - folds a row's subtree ([+]), + unfolds it; Enter on one
# opens its detail view, Enter there shows its processes only (the tab bar says which,
# Esc shows all); -G counts a cgroup
# itself on the screen and G then says there are no process rows; c shows the command
# line of the process in it, and its name again; p on a cgroup row narrows too; t shows
# the process tree, - folds a subtree, + unfolds it; G under perf opens and closes the
# cgroups' own counters. Root with cgroup2 only: the
# test makes its own cgroup under the cgroup2 mount and removes it.
# Usage: cgroups.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: cgroups.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-cgroups-$$"
CAP="${TMPDIR:-/tmp}/pmutop-cgroups-$$.txt"
. "$(dirname "$0")/lib.sh"
ROOT=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
if [ "$(id -u)" != 0 ] || [ -z "$ROOT" ]; then
	echo "skipped: needs root and a cgroup2 mount"
	exit 0
fi
CG="pmutop-tmux-$$"
SLEEP="129.$$"
cleanup() {
	t kill-server 2>/dev/null
	pkill -f "^sleep $SLEEP" 2>/dev/null
	sleep 0.2
	rmdir "$ROOT/$CG/inner.service" "$ROOT/$CG" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM
mkdir -p "$ROOT/$CG/inner.service" || { echo "FAIL: cannot make $ROOT/$CG"; exit 1; }
sh -c "echo \$\$ > '$ROOT/$CG/inner.service/cgroup.procs' && exec sleep $SLEEP" &

start() {
	t kill-server 2>/dev/null
	RUNS=$((${RUNS:-0} + 1))
	SOCK="pmutop-cgroups-$$-$RUNS"
	t new-session -d -s e2e -x 150 -y 40 \
		"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 $*; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'pmutop +on ' 100 || { fail "first frame: no header within 10 s"; exit 1; }
}

start --cgroups
expect "^ +cg .* $CG" "--cgroups: the test's cgroup has a row"
expect "^ +cg .*  $CG\$" "indented under the root"
expect "^ +cg .*    inner.service\$" "its child, indented under it"
keys '\' p m u t o p - t m u x Enter
expect "^ +cg .* $CG" "the filter keeps it"
keys -
expect "^ +cg .*\\[\\+\\] $CG" "-: folded"
keys +
expect "^ +cg .*  $CG\$" "+: unfolded"
keys Enter
expect "$CG" "Enter: the cgroup's detail view"
keys Enter
expect "Cgroup: /$CG \\(Esc: all\\)" "Enter there: its processes, the tab bar says so"
expect "sleep *$" "the sleep in it is shown, by name"
keys c
expect "sleep $SLEEP *$" "c: its command line"
keys c
expect "sleep *$" "c again: its name"
expect_not "^ +[0-9]+ .* pmutop *$" "pmutop itself is not in that cgroup"
keys Escape
expect "^ +[0-9]+ .* pmutop *$" "Esc: every process again"
keys G '\' p m u t o p - t m u x Enter p
expect "Cgroup: /$CG \\(Esc: all\\)" "p on a cgroup row: its processes too"
keys q
expect 'EXIT=0' "q leaves"

# The tree view (t): a shell of nobody's and its two sleeps, indented under it; - folds
# them into its row ([+]), + unfolds.
setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh -c "sleep 138.$$ & sleep 139.$$ & wait" &
TREE=$!
start -u nobody
expect "^ +[0-9]+ .* sh *\$" "the shell"
keys t
expect "^ +[0-9]+ .*├─ sleep *\$" "t: its sleeps under it: the first on ├─"
expect "^ +[0-9]+ .*└─ sleep *\$" "t: the last on └─"
keys '\' s h Enter Home
keys -
expect "\\[\\+\\] sh" "-: folded into its row"
expect_not "─ sleep *\$" "the sleeps are inside it"
keys + Escape
expect "^ +[0-9]+ .*└─ sleep" "+: unfolded"
keys q
expect 'EXIT=0' "q leaves"
pkill -f "^sleep 13[89].$$" 2>/dev/null
wait $TREE 2>/dev/null

# G under perf: the cgroups count themselves from then (their counters open), G again
# closes them and shows processes, G once more opens them again.
start --backend perf
keys G
expect "^ +cg .* $CG" "G under perf: the test's cgroup has a row"
expect "^ +cg .*    inner.service\$" "and its child"
keys G
expect "^ +[0-9]+ .* pmutop *$" "G again: the processes"
keys G
expect "^ +cg .* $CG" "G once more: the cgroups again"
keys q
expect 'EXIT=0' "q leaves"

start -G "$CG"
expect "^ +cg .* $CG" "-G: the cgroup counted itself, on the screen"
keys G
expect "no process rows" "G under -G says why nothing changes"
keys q
expect 'EXIT=0' "q leaves"
finish "cgroups on the screen"
