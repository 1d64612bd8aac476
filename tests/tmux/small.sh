#!/bin/sh
# Small screens (issue 37 item 10): the first frame keeps the meters' place, so the
# table does not move when the first interval comes; at 80 columns the key bar has
# htop's F3, F5 and F9; at 40x10 the notice takes one line and a CPU meter stays; at
# 40 and 30 columns the sort column stays and its arrow keeps a blank before COMMAND.
# Usage: small.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: small.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-small-$$"
CAP="${TMPDIR:-/tmp}/pmutop-small-$$.txt"
GO="${TMPDIR:-/tmp}/pmutop-small-$$.go"
. "$(dirname "$0")/lib.sh"
cleanup() {
	t kill-server 2>/dev/null
	rm -f "$CAP" "$GO"
}
trap cleanup EXIT INT TERM

# The line of the column titles.
title_line() {
	capture
	grep -n 'PID ' "$CAP" | head -n 1 | cut -d: -f1
}

# Z typed before pmutop starts pauses it on its first frame, before any interval (the
# shell says when it waits, and waits for the file GO, made once Z is typed: the key is
# in the terminal's queue when pmutop starts).
rm -f "$GO"
t new-session -d -s e2e -x 80 -y 24 \
	"echo starting; until [ -e '$GO' ]; do sleep 0.1; done; env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.5; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect "starting" "the shell before pmutop"
keys Z
: >"$GO"
expect "waiting for the first interval" "the first frame, paused"
expect "PAUSED" "paused before the first interval"
first=$(title_line)
keys Z
expect "^ +[0-9]+ +[^ ]+ +[0-9]+\\.[0-9]" "the first interval's rows"
expect "^ *(0|all)\\[" "the CPU meters"
then=$(title_line)
[ -n "$first" ] && [ "$first" = "$then" ] ||
	fail "the titles stay on their line when the meters come (first frame $first, then $then)"
NOTICE=0
grep -q '^! ' "$CAP" && NOTICE=1

# 80 columns: the key bar keeps htop's function keys.
expect "F10Quit" "80 columns: the key bar"
for k in F1Help F2Events F3Search F4Filter F5Tree F6Sort F9Kill; do
	grep -q "$k" "$CAP" || fail "80 columns: $k on the key bar"
done

# 40x10: one line of notice, a CPU meter, the sort column and a blank after its arrow.
t resize-window -t e2e -x 40 -y 10
expect_line 6 "PID .*CPU%. COMMAND" "40x10: the titles, CPU% sorted, a blank before COMMAND"
if [ "$NOTICE" = 1 ]; then
	expect_line 3 '^! .*\(h: help\)' "40x10: the notice on one line"
	expect_line 4 '^ *(0|all)\[' "40x10: a CPU meter under it"
fi
capture
rows=$(sed -n '7,9p' "$CAP" | grep -Ec '^ +[0-9]+ ')
[ "$rows" -ge 2 ] || fail "40x10: the table keeps two rows at least ($rows)"

# 30x8: the sort column stays.
t resize-window -t e2e -x 30 -y 8
expect "PID +CPU%. COMMAND" "30x8: the sort column stays"

t resize-window -t e2e -x 80 -y 24
keys q
expect 'EXIT=0' "q quits with status 0"
finish "small screens"
