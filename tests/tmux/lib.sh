# Shared by the tmux end-to-end scripts: a private tmux server, capture-pane, waiting
# for a pattern, and counting failures. Set PMUTOP, TMUX_BIN, SOCK and CAP first.
FAILS=0

t() { "$TMUX_BIN" -L "$SOCK" -f /dev/null "$@"; }

capture() { t capture-pane -p -t e2e >"$CAP" 2>/dev/null; }

# Wait (up to $2 tenths of a second, default 50) until the pane shows $1 (a grep -E
# pattern). Returns 1 on time-out.
wait_for() {
	n=0
	while [ "$n" -lt "${2:-50}" ]; do
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

expect() { wait_for "$1" "${3:-50}" || fail "$2: expected /$1/"; }
# The same for a fixed string (no pattern characters): a message quoted whole.
expect_text() {
	n=0
	while [ "$n" -lt "${3:-50}" ]; do
		capture
		grep -Fq -- "$1" "$CAP" && return 0
		sleep 0.1
		n=$((n + 1))
	done
	fail "$2: expected the text '$1'"
}
expect_not() {
	sleep 0.3
	capture
	! grep -Eq -- "$1" "$CAP" || fail "$2: did not expect /$1/"
}
keys() { t send-keys -t e2e "$@"; }

# End: report and exit with the status ctest reads.
finish() {
	if [ "$FAILS" -ne 0 ]; then
		echo "$FAILS check(s) failed"
		exit 1
	fi
	echo "ok: $1"
	exit 0
}
