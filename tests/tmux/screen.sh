#!/bin/sh
# pmutop's screen end to end: start the real binary in a 120x40 tmux session, wait for
# the first frame, press keys, check what the pane shows after each, quit, and check
# the exit status and that the terminal was restored.
# Usage: screen.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: screen.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-e2e-$$"
CAP="${TMPDIR:-/tmp}/pmutop-e2e-$$.txt"
. "$(dirname "$0")/lib.sh"

cleanup() { t kill-server 2>/dev/null; rm -f "$CAP"; }
trap cleanup EXIT INT TERM

# A shell runs pmutop and then says how it ended, so both show in the pane. TERM inside
# tmux is tmux's own (screen or tmux-256color): the real thing users get. Events of its
# own give it an Events pane: two panes at least, with a PMU or without.
t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 '$PMUTOP' -e task-clock,page-faults; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}

# First frame: the header, the tab bar and the column titles.
if ! wait_for 'pmutop +on ' 100; then
	fail "first frame: no header within 10 s"
	exit 1
fi
expect 'PID +USER' "first frame: column titles"
expect 'F1Help.*F10Quit' "first frame: key bar"
[ "$(t display -p -t e2e '#{alternate_on}')" = 1 ] || fail "not on the alternate screen"

# Panes: Tab moves to the next, the last one's number picks it; the active tab is
# bracketed.
capture
first=$(grep -Eo '\[[0-9] [A-Za-z-]+\]' "$CAP" | head -n 1)
[ -n "$first" ] || fail "no active tab shown"
last=$(grep -B1 -E 'PID +USER' "$CAP" | head -n 1 | grep -Eo '[0-9] [A-Za-z-]+' | tail -n 1 |
	cut -c1)
[ "${last:-0}" -ge 2 ] || fail "fewer than two panes (the last is '${last:-none}')"
keys Tab
expect_gone "$(printf '%s' "$first" | sed 's/[][]/\\&/g')" "Tab: still on $first"
expect '\[[0-9] [A-Za-z-]+\]' "Tab: an active tab"
keys "${last:-2}"
expect "\\[${last:-2} [A-Za-z-]+\\]" "'${last:-2}': the last pane active"
keys 1
expect '\[1 [A-Za-z-]+\]' "'1': first pane active"

# Sort: the sort column's title carries the arrow; '>' moves it, 'R' flips it.
capture
before=$(grep -E 'PID +USER' "$CAP" | grep -Eo '[A-Za-z/%]+(▼|▲)' | head -n 1)
[ -n "$before" ] || fail "no sort arrow on the column titles"
keys '>'
expect_gone "$before" "'>': sort column did not move from $before"
keys R
expect '▲' "'R': ascending arrow"
keys R
expect '▼' "'R' again: descending arrow"

# Pause: Z, as htop (Space tags rows): the header says so, and again resumes.
keys Z
expect 'PAUSED' "Z: PAUSED"
expect 'ZResume' "Z: key bar offers resume"
keys Z
expect_gone 'PAUSED' "Z again: still PAUSED"

# Filter: '\', as htop, text, Enter; only matching rows stay, and the filter is shown.
keys '\'
expect 'Filter:' "'\\': filter prompt"
keys -l pmutop
keys Enter
expect 'Filter: pmutop' "filter shown after Enter"
# The rows come with the first interval, which may not have ended yet.
expect '^ *[0-9]+ .*pmutop' "filter 'pmutop': pmutop's own row"
other=$(grep -E '^ *[0-9]+ ' "$CAP" | grep -vc 'pmutop')
[ "$other" -eq 0 ] || fail "filter 'pmutop': $other rows that do not match"
keys Escape
expect_gone 'Filter: pmutop' "Esc: filter not cleared"

# Interval: a bad value is a message, not a crash; a good one is taken.
keys d C-u
keys -l abc
keys Enter
expect 'Not an interval' "'d abc': message"
keys d C-u
keys -l 0.5
keys Enter
expect 'interval 0.5s' "'d 0.5': new interval in the header"

# Resize: the screen lays itself out again for 80x24 and back (SIGWINCH via main.c).
t resize-window -t e2e -x 80 -y 24
expect_line 24 'F1Help.*F10Quit' "80x24: key bar on the last line"
[ "$(wc -l <"$CAP")" -eq 24 ] || fail "80x24: pane is not 24 lines"
expect 'PID +USER' "80x24: column titles"
t resize-window -t e2e -x 120 -y 40
expect_line 40 'F10Quit' "120x40: key bar on the last line"

# G: a row per cgroup (the root holds every process here), sortable; G again: processes.
capture
sorted=$(grep -E 'PID.USER' "$CAP" | grep -Eo '[A-Za-z/%-]+(▼|▲)' | head -n 1)
[ -n "$sorted" ] || fail "no sort arrow before G"
keys G
expect '^ +cg .* /$' "G: the root cgroup's row"
expect_not '^ *[0-9]+ .*pmutop' "G: no process rows"
keys '>'
expect '^ +cg ' "G: sorting by another column keeps cgroup rows"
keys G
expect '^ +[1-9][0-9]* root ' "G again: process rows"
keys '<'
expect "$(printf '%s' "$sorted" | sed 's/[%/]/\\&/g')" "'<': back to the sort column before G's '>'"

# Help: marks explained; Esc and q go back.
keys h
expect 'cannot be counted here' "'h': help"
expect 'never scheduled on a counter' "'h': n/c explained"
keys Escape
expect 'PID +USER' "Esc: back from help"
keys '?'
expect 'Marks in the cells' "'?': help"
keys q
expect 'PID +USER' "q in help: back, not quit"

# Quit: exit 0 and the terminal restored (normal screen, the shell's line visible).
keys q
wait_for '^EXIT=' 50 || fail "q: pmutop did not exit"
grep -q '^EXIT=0$' "$CAP" || fail "exit status not 0"
[ "$(t display -p -t e2e '#{alternate_on}')" = 0 ] || fail "alternate screen still on"
! grep -q 'F10Quit' "$CAP" || fail "screen left behind after exit"

finish "screen end to end"
