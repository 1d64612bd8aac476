#!/bin/sh
# Choosing events while pmutop runs, end to end: open the events setup (e), see the
# PMUs, search for page-faults, add it (Enter), and see the Events pane with a
# page-faults column whose cells hold numbers from the next tick; a mistyped event is a
# message while counting goes on; W saves the setup; removing the event (x) takes the
# Events pane away again.
# Usage: events.sh PMUTOP [TMUX]
set -u
PMUTOP=${1:?usage: events.sh PMUTOP [TMUX]}
TMUX_BIN=${2:-tmux}
SOCK="pmutop-ev-$$"
CAP="${TMPDIR:-/tmp}/pmutop-ev-$$.txt"
CFG=$(mktemp -d "${TMPDIR:-/tmp}/pmutop-ev-cfg.XXXXXX")
. "$(dirname "$0")/lib.sh"

cleanup() { t kill-server 2>/dev/null; rm -f "$CAP"; rm -rf "$CFG"; }
trap cleanup EXIT INT TERM

# The page-faults column's cells: the text under its title in every row of a live task
# (one that ended before its counters opened is n/a, rightly). The title may be cut to
# the column's width ("page-faul+"), so its first 9 letters find it.
column_cells() {
	awk 'BEGIN { col = 0 }
	     col == 0 && /PID +USER/ { col = index($0, "page-faul"); next }
	     col > 0 && /^ *[0-9]+ / && !/\(exited\)/ { print substr($0, col, 10) }' "$CAP"
}

# A private setup file: W must not write the user's own.
t new-session -d -s e2e -x 120 -y 40 \
	"env LC_ALL=C.UTF-8 XDG_CONFIG_HOME='$CFG' '$PMUTOP' -d 0.5; echo EXIT=\$?; sleep 60" || {
	echo "FAIL: cannot start tmux"
	exit 1
}
if ! wait_for 'pmutop +on ' 100; then
	fail "first frame: no header within 10 s"
	exit 1
fi
expect 'F2Events' "key bar offers the events setup"
expect_not '\[[0-9] Events\]' "an Events pane before any event was chosen"

# The PMU browser: present PMUs, with their type.
keys e
expect 'Events setup' "'e': events setup"
expect 'PMU +TYPE +CPUS +PRESENT' "'e': PMU browser titles"
expect '^software +1 +all +yes' "'e': the software PMU, type 1, present"
# The tracepoint PMU lists tracefs's events, or says why it has none (issue 37 item 11).
capture
tp=$(grep -E '^tracepoint ' "$CAP" | head -n 1)
if [ -n "$tp" ]; then
	n=$(echo "$tp" | awk '{ print $6 }')
	[ "$n" != 0 ] || echo "$tp" | grep -q 'tracefs' ||
		fail "'e': the tracepoint PMU with no events says why ($tp)"
fi

# Search every PMU's events, keep the search, add the first hit.
keys /
expect 'Search:' "'/': search line"
keys -l page-faults
expect 'software +page-faults' "search: page-faults listed under software"
expect_gone 'context-switches' "search: events that do not match"
keys Enter
keys Enter
expect '\[[0-9] Events\]' "after adding: the Events pane is active" 60
expect 'PID +USER.*page-faul' "after adding: a page-faults column" 30

# From the next tick its cells hold numbers (every task has a count, 0 or more).
n=0
while [ "$n" -lt "$(limit 0)" ]; do
	capture
	if column_cells | grep -Eq '[0-9]'; then
		break
	fi
	sleep 0.1
	n=$((n + 1))
done
column_cells | grep -Eq '[0-9]' || fail "page-faults cells hold no number"
column_cells | grep -q 'n/a' && fail "page-faults cells read n/a"

# A mistyped event: one message, and the column keeps counting.
keys e :
expect 'perf -e syntax' "':': spec line"
keys C-u
keys -l 'page-faults,cyles'
keys Enter
expect "unknown event 'cyles': did you mean cycles" "typo: message" 30
# The spec line stays open with the text as typed, to mend; Esc leaves it, and the
# events in force stay.
expect 'perf -e syntax.*page-faults,cyles' "typo: the spec line keeps the text"
keys Escape Escape
expect 'PID +USER.*page-faul' "typo: the events in force stay"

# What -e refuses, the spec line refuses with -e's message (it took these three): the
# very line pmutop -b -e writes on stderr, but for its "pmutop: -e: " prefix. The
# messages are longer than 120 columns: the window is widened while they show.
t resize-window -t e2e -x 200 -y 40
sleep 0.5
for bad in 'page-faults,,cs' '{page-faults,cs}x' 'page-faults cs,task-clock'; do
	said=$("$PMUTOP" -b -n 1 -e "$bad" 2>&1 >/dev/null)
	case "$said" in
	"pmutop: -e: cannot parse '$bad' at "*) ;;
	*) fail "'$bad': pmutop -b -e said: $said" ;;
	esac
	keys e :
	expect 'perf -e syntax' "'$bad': spec line"
	keys C-u
	keys -l "$bad"
	keys Enter
	expect_text "${said#pmutop: -e: }" "'$bad': -e's message" 30
	keys Escape Escape
done
t resize-window -t e2e -x 120 -y 40
sleep 0.5
expect 'PID +USER.*page-faul' "after the refused specs: the events in force stay"

# W: the setup file is written where XDG_CONFIG_HOME says, and the message says so.
keys W
expect "pmutoprc" "'W': message with the path" 30
[ -f "$CFG/pmutop/pmutoprc" ] || fail "'W': no setup file in $CFG/pmutop"
grep -q 'page-faults' "$CFG/pmutop/pmutoprc" 2>/dev/null ||
	fail "'W': the setup file does not list page-faults"

# Remove it in "Your events": the Events pane goes.
keys e 3
expect '\[3 Your events\]' "'3': your events"
expect 'page-faults +(counting|\(from)' "your events: page-faults listed"
keys End x
keys Escape
expect_gone '\[[0-9] Events\]' "after removing: still an Events pane"

keys q
wait_for '^EXIT=' 50 || fail "q: pmutop did not exit"
grep -q '^EXIT=0$' "$CAP" || fail "exit status not 0"
finish "events setup end to end"
