#!/bin/sh
# Rows of another host (--connect) on the screen: k, F7 and a are refused in one line
# naming the host, before any dialog (no signal menu, no CPU list), and the rows stay;
# d (the interval) is still taken; G shows the host's cgroup rows, counted as cgroups;
# Z pauses the screen.
# Usage: connectkeys.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: connectkeys.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-connectkeys-$$"
CAP="${TMPDIR:-/tmp}/pmutop-connectkeys-$$.txt"
LOG="${TMPDIR:-/tmp}/pmutop-connectkeys-$$.log"
. "$(dirname "$0")/lib.sh"
host_pid=
cleanup() {
	t kill-server 2>/dev/null
	[ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null
	rm -f "$CAP" "$LOG"
}
trap cleanup EXIT INT TERM

# The other host: an exporter alone.
start_exporter "$LOG"
session "env LC_ALL=C.UTF-8 XDG_CONFIG_HOME=/nonexistent '$PMUTOP' --connect http://127.0.0.1:$PORT; echo EXIT=\$?; sleep 60"
expect "^ +[0-9]+ +[a-z]+ " "the host's rows" 600
keys k
expect "rows of .* \\(--connect\\): kill, renice and affinity act on this machine's processes only" \
	"k: refused in one line"
expect_not "Send to" "k: no signal menu"
keys F7
expect "rows of .* \\(--connect\\): kill" "F7: refused in one line"
keys a
expect "rows of .* \\(--connect\\): kill" "a: refused in one line"
expect_not "CPUs of" "a: no CPU dialog"
expect "^ +[0-9]+ +[a-z]+ " "the rows stay"
# G: the host's cgroup rows at once, counted as cgroups, and not refused; and back
keys G
expect "^cgroups [1-9][0-9]* " "G: the header counts the cgroup rows"
expect "^ +cg +.* /\$" "G: the host's root cgroup row"
expect_not "not for a" "G: not refused"
keys G
expect "^Tasks [1-9]" "G again: the host's tasks"
# Z: the screen pauses (the host counts on), not refused
keys Z
expect "^ PAUSED " "Z: paused"
expect_not "not for a" "Z: not refused"
keys Z
expect "^Tasks [1-9]" "Z again: resumed"
keys q
expect 'EXIT=0' "q leaves"
finish "--connect's rows: k, F7 and a refused before their dialogs"
