# Shared by the tmux end-to-end scripts: a private tmux server, capture-pane, waiting
# for a pattern, and counting failures. Set PMUTOP, TMUX_BIN, SOCK and CAP first.
FAILS=0

t() { "$TMUX_BIN" -L "$SOCK" -f /dev/null "$@"; }

capture() { t capture-pane -p -t e2e >"$CAP" 2>/dev/null; }

# How long a wait may last, in tenths of a second: at least 30 s, whatever a script asks.
# A deadline, never a speed: on a quiet machine every wait ends in a tenth or two, on a
# busy one (every CPU spinning, other tests beside) a frame can take seconds.
limit() {
	if [ "${1:-0}" -gt 300 ]; then echo "$1"; else echo 300; fi
}

# Wait (up to limit $2 tenths of a second) until the pane shows $1 (a grep -E pattern).
# Returns 1 on time-out.
wait_for() {
	n=0
	lim=$(limit "${2:-0}")
	while [ "$n" -lt "$lim" ]; do
		capture
		grep -Eq -- "$1" "$CAP" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

fail() {
	echo "FAIL: $1"
	echo "---- screen ----"
	cat "$CAP"
	echo "----------------"
	FAILS=$((FAILS + 1))
}

expect() { wait_for "$1" "${3:-0}" || fail "$2: expected /$1/"; }
# The same for a fixed string (no pattern characters): a message quoted whole.
expect_text() {
	n=0
	lim=$(limit "${3:-0}")
	while [ "$n" -lt "$lim" ]; do
		capture
		grep -Fq -- "$1" "$CAP" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "$2: expected the text '$1'"
}
# A pattern that should never be on screen: one look, after a moment for a key to act.
# For something a key takes away, use expect_gone: a redraw can take seconds.
expect_not() {
	sleep 0.3
	capture
	! grep -Eq -- "$1" "$CAP" || fail "$2: did not expect /$1/"
}
# Wait (up to limit $3 tenths of a second) until the pane no longer shows $1 (grep -E),
# as after a key that takes it away; fails when it is still there at the deadline.
expect_gone() {
	n=0
	lim=$(limit "${3:-0}")
	while [ "$n" -lt "$lim" ]; do
		capture
		grep -Eq -- "$1" "$CAP" || return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "$2: still /$1/"
}
keys() { t send-keys -t e2e "$@"; }

# The port program $3 wrote in its log $1 ("... 127.0.0.1:PORT" after the text $2), waited
# for while it runs (up to 60 s); empty when it never came.
port_in() {
	p=
	i=0
	while [ -z "$p" ] && [ $i -lt 600 ] && kill -0 "$3" 2>/dev/null; do
		p=$(sed -n "s/.*$2.*127\\.0\\.0\\.1:\\([1-9][0-9]*\\).*/\\1/p" "$1" | head -n 1)
		[ -n "$p" ] || sleep 0.1
		i=$((i + 1))
	done
	echo "$p"
}

# Another host for a remote view: "$PMUTOP" exporting alone (no terminal), ticking every
# half second, on a port the kernel gives it (a fixed one may be another test's), read
# from its log $1. Sets host_pid and PORT; exits failing when it does not listen.
start_exporter() {
	"$PMUTOP" -b -q -d 0.5 --listen 127.0.0.1:0 >/dev/null 2>"$1" </dev/null &
	host_pid=$!
	PORT=$(port_in "$1" "listening on" "$host_pid")
	[ -n "$PORT" ] || { echo "FAIL: the exporter did not listen:"; cat "$1"; exit 1; }
}

# The session e2e (160x40) running the shell command $1; exits failing when tmux cannot.
session() {
	t new-session -d -s e2e -x 160 -y 40 "$1" || {
		echo "FAIL: cannot start tmux"
		exit 1
	}
}

# Wait until line $1 of the pane shows $2 (grep -E), as after a resize.
expect_line() {
	n=0
	lim=$(limit 0)
	while [ "$n" -lt "$lim" ]; do
		capture
		sed -n "$1p" "$CAP" | grep -Eq -- "$2" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "$3: expected /$2/ on line $1"
}

# Wait until the header's tick number has gone $1 past what it shows now: every row on
# screen was then built after what came before. Returns 1 on time-out.
wait_ticks() {
	capture
	from=$(grep -Eo 'tick #[0-9]+' "$CAP" | head -n 1 | tr -cd '0-9')
	[ -n "$from" ] || return 1
	n=0
	lim=$(limit 0)
	while [ "$n" -lt "$lim" ]; do
		capture
		now=$(grep -Eo 'tick #[0-9]+' "$CAP" | head -n 1 | tr -cd '0-9')
		[ -n "$now" ] && [ "$now" -ge $((from + $1)) ] && return 0
		sleep 0.1
		n=$((n + 1))
	done
	return 1
}

# End: report and exit with the status ctest reads.
finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed"
		exit 1
	fi
	echo "ok: $1"
	exit 0
}
