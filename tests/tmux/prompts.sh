#!/bin/sh
# The screen's prompts as a terminal types into them (issue 30): d offers the interval
# in force and a number typed replaces it; Backspace edits it instead. \ (the filter) matches the
# command line while c shows command lines. With -w the header says REC, how big and
# where. At 40x10 with RES, S and CGROUP chosen, COMMAND is the column that stays.
# Usage: prompts.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: prompts.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-prompts-$$-1"
CAP="${TMPDIR:-/tmp}/pmutop-prompts-$$.txt"
REC="${TMPDIR:-/tmp}/pmutop-prompts-$$.rec"
CFG=$(mktemp -d) || exit 1
. "$(dirname "$0")/lib.sh"
sleep "153.$$" &
SLEEPER=$!
cleanup() {
	for s in 1 2 3; do "$TMUX_BIN" -L "pmutop-prompts-$$-$s" kill-server 2>/dev/null; done
	kill "$SLEEPER" 2>/dev/null
	rm -f "$CAP" "$REC" "$REC-wal" "$REC-shm"
	rm -rf "$CFG"
}
trap cleanup EXIT INT TERM

t new-session -d -s e2e -x 120 -y 30 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 1; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
wait_for 'interval 1s' 100 || { fail "no header within 10 s"; exit 1; }

# 4. d 5 Enter at interval 1 is 5 s, not 15; d 0.5 Enter then is 0.5 s, not 50.5.
keys d
expect "Interval \\(seconds, 0.1-3600\\): 1_" "d offers the interval in force"
keys 5 Enter
expect "interval 5s" "d 5 Enter: 5 s"
keys d 0 . 5 Enter
expect "interval 0.5s" "d 0.5 Enter: 0.5 s"
keys d BSpace 7 Enter
expect "interval 0.7s" "d Backspace 7 Enter: the offered value edited"
keys d Enter
expect_gone "Interval \\(" "d Enter: the prompt closes"
expect "interval 0.7s" "d Enter: the value offered stays"

# 6. The filter on an argument: nothing by name; with c, the command line matches.
keys '\' "153.$$" Enter
expect "no task matches" "\ an argument: no command name has it"
keys c
expect "^ *$SLEEPER .*sleep 153\.$$" "c: the filter matches the command line"
keys c
expect "no task matches" "c again: names only"
keys q
expect 'EXIT=0' "q quits with status 0"
t kill-server 2>/dev/null

# 8. -w: REC, the size on disk, the file.
SOCK="pmutop-prompts-$$-2"
t new-session -d -s e2e -x 160 -y 30 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' -d 0.3 -w '$REC'; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect " REC [0-9.]+[BKMG] $REC " "-w: REC, its size and its file in the header"
wait_ticks 3 || fail "no ticks while recording"
size=$(grep -Eo " REC [0-9.]+[BKMG] " "$CAP" | head -n 1 | tr -d ' ')
disk=$(($(stat -c %s "$REC") + $(stat -c %s "$REC-wal" 2>/dev/null || echo 0)))
[ "$disk" -gt 1024 ] || fail "-w: the recording has data ($disk bytes)"
keys q
expect 'EXIT=0' "q quits with status 0"
echo "recording: header said $size, $disk bytes on disk a moment later"
t kill-server 2>/dev/null

# 9. 40x10, the Software pane with every column chosen: the command names stay.
mkdir -p "$CFG/pmutop"
echo "columns Software PID,USER,CPU%,CSW,FAULTS,RES,S,CGROUP" >"$CFG/pmutop/pmutoprc"
SOCK="pmutop-prompts-$$-3"
t new-session -d -s e2e -x 40 -y 10 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$CFG' '$PMUTOP' -d 0.3 --pane Software -p $SLEEPER; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
expect "^ *PID .*COMMAND" "40x10: the COMMAND title"
expect "^ *$SLEEPER .* sleep *\$" "40x10: the command name in its row"
keys q
expect 'EXIT=0' "q quits with status 0"
finish "prompts"
