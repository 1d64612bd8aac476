#!/bin/sh
# The process tree (t) on its lines, as htop draws it: ├─ for a child with a sibling
# below, └─ for the last, │ down past a subtree; |- `- and | without UTF-8. - folds a
# subtree: its row's TREND and its detail view are the subtree's sum. A shell of the
# nobody user with a subshell (and its sleep), a sleep and a busy loop.
# Usage: tree.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: tree.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-tree-$$"
CAP="${TMPDIR:-/tmp}/pmutop-tree-$$.txt"
. "$(dirname "$0")/lib.sh"
if [ "$(id -u)" != 0 ]; then
	echo "skipped: needs root (a tree of the nobody user)"
	exit 0
fi
cleanup() {
	for s in utf8 c; do "$TMUX_BIN" -L "pmutop-tree-$$-$s" kill-server 2>/dev/null; done
	pkill -f "^sleep 14[67].$$" 2>/dev/null
	pkill -f "busy 148.$$" 2>/dev/null
	rm -f "$CAP"
}
trap cleanup EXIT INT TERM
setpriv --reuid=65534 --regid=65534 --clear-groups \
	sh -c "sh -c 'sleep 146.$$ & wait' & sleep 0.2; sleep 147.$$ & sleep 0.2;
		sh -c 'while :; do :; done # busy 148.$$' & wait" &
sleep 0.5

start() {
	SOCK="pmutop-tree-$$-$2"
	t new-session -d -s e2e -x 120 -y 40 \
		"env $1 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5 -u nobody; echo EXIT=\$?; sleep 60" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
	wait_for 'COMMAND' 100 || { fail "no table within 10 s"; exit 1; }
}

start "LC_ALL=C.UTF-8" utf8
keys t
expect "^ +[0-9]+ .* sh *\$" "t: the shell, a root"
expect "^ +[0-9]+ .* ├─ sh *\$" "its subshell on ├─ (a sibling below)"
expect "^ +[0-9]+ .* │ └─ sleep *\$" "the subshell's sleep: │ past it, └─ its last"
expect "^ +[0-9]+ .* └─ sleep *\$" "the shell's sleep on └─ (its last)"
# Folded, the shell's row is its subtree's: the busy loop's CPU% in its TREND (the
# shell alone has none), and in its detail view.
keys Home -
expect "\[\+\] sh *\$" "-: the shell folded"
wait_ticks 4 || fail "no ticks after folding"
expect "^ +[0-9]+ .*(▃|▄|▅|▆|▇|█){3,} +\[\+\] sh *\$" "the folded row's TREND: its subtree's CPU%"
keys Enter
expect "with its descendants, summed" "Enter: the subtree's detail view"
expect "^CPU% +last [1-9][0-9]*\.[0-9]" "its CPU% chart: the busy loop's"
keys Escape
keys q
expect 'EXIT=0' "q quits with status 0"
t kill-server 2>/dev/null

start "LANG=C LC_ALL=C" c
keys t
expect "^ +[0-9]+ .* \\|- sh *\$" "LANG=C: |-"
expect "^ +[0-9]+ .* \\| \`- sleep *\$" "LANG=C: | and \`-"
expect "^ +[0-9]+ .* \`- sleep *\$" "LANG=C: \`-"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "the tree's lines"
