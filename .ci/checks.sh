#!/usr/bin/env bash
# Every test stage of ./dev test (issues 7, 26 and 39), and alone:
#   .ci/checks.sh [STAGE...] [-- CTEST-ARGS...]
# Stages (default: all, in this order, but deb, fuzz and static run beside asan's tests,
# static on beside busy):
# build     the shared build (build-test: gcc, RelWithDebInfo, so -O2 -g, -Werror, tests):
#           unit, busy, valgrind and static use it; run first whenever one of them is asked
# unit      build-test's cmocka unit programs (ctest -LE integration) and the emulated-PMU lane
# asan      the whole project with -fsanitize=address,undefined,float-cast-overflow
#           (build-asan): every unit and integration test once, the integration pass
#           not kept busy on purpose (deb, fuzz and static beside it use what its
#           waiting tests leave); any sanitizer report, in any process, fails
# busy      build-test's integration tests with every CPU kept busy (the static checks
#           while they last, a spinning process each): no test may depend on the machine
#           being quiet or fast (issue 26)
# fuzz      the libFuzzer harnesses of tests/fuzz (clang, build-fuzz): the committed
#           corpora and regressions once, then FUZZ_SECONDS (10) of fuzzing each
# valgrind  memcheck over the real binary of build-test: no error, no definite leak;
#           and over every cmocka program that runs product code in its own process
#           (not ctest label binary): no error
# static    the layers' direction and include circles (.ci/layers.sh), cppcheck and
#           clang-tidy (.clang-tidy) over events/ src/ ui/ (build-test's compile database),
#           and clang-format (.clang-format) over every tracked .c and .h
# deb       cpack -G DEB of a /usr build (build-deb), its Depends Debian's names, lintian
#           (no error, no warning), unpacked into a fresh root: pmutop --version,
#           man --warnings -l on its pages (no warning), a one-tick batch run
# CTEST-ARGS go to the ctest runs of unit, asan and busy (./dev test passes its arguments).
# One line per stage with its duration and the load average at its end; logs in
# build-checks/; exit 1 if any failed. On a fresh Debian 12 machine it installs what it
# needs with apt-get when root, or prints the apt-get line. docs/HARDENING.md says more.
# shellcheck disable=SC2317 # the stage_* functions are called as "stage_$name"
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
ROOT=$PWD
JOBS=$(nproc)
FUZZ_SECONDS=${FUZZ_SECONDS:-10}
LOGS=$ROOT/build-checks
mkdir -p "$LOGS"

PKGS=(build-essential cmake pkg-config libncurses-dev libpfm4-dev libmicrohttpd-dev libsqlite3-dev libyaml-dev libcrypt-dev zlib1g-dev libcurl4-gnutls-dev libjson-c-dev libbpf-dev bpftool libcmocka-dev tmux
	clang libclang-rt-14-dev llvm clang-tidy clang-format cppcheck valgrind dpkg-dev man-db lintian)

ensure_pkgs() {
	local p miss=()
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || miss+=("$p")
	done
	[ ${#miss[@]} -eq 0 ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "checks: missing packages; run: sudo apt-get install -y ${miss[*]}" >&2
		exit 1
	fi
	echo "checks: installing: ${miss[*]}" >&2
	export DEBIAN_FRONTEND=noninteractive
	if ! apt-get update -qq >/dev/null ||
		! apt-get install -y -qq --no-install-recommends "${miss[@]}" >/dev/null; then
		echo "checks: apt-get install failed" >&2
		exit 1
	fi
}

configure() { # DIR ARGS...: a RelWithDebInfo build of the project, quietly
	local dir=$1
	shift
	cmake -S "$ROOT" -B "$ROOT/$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
}

# ctest's jobs for the integration tests: they mostly wait (for pmutop's ticks, a tmux
# pane, a Prometheus scrape), so twice as many as there are CPUs; the few that count
# what the whole machine does are RUN_SERIAL (tests/CMakeLists.txt).
IT_JOBS=$((2 * JOBS))
CTEST_ARGS=()

# ---- build: the one build of unit, busy, valgrind and static ---------------------------
# RelWithDebInfo is -O2 -g: what memcheck needs to name a line, nothing more.
stage_build() {
	configure build-test -DPMUTOP_WERROR=ON -DPMUTOP_TESTS=ON -DPMUTOP_SANITIZE=OFF ||
		return 1
	cmake --build build-test -j"$JOBS"
}

# ---- unit: the plain build's unit programs and the emulated-PMU lane ---------------------
stage_unit() {
	(cd build-test && ctest -LE integration --output-on-failure --timeout 900 -j"$JOBS" \
		"${CTEST_ARGS[@]}")
}

# ---- busy: the integration tests again, with every CPU kept busy (issue 26) -------------
# A spinning process per CPU, ended with this function whatever happens to it. asan's
# pass is the one not kept busy; this one runs the plain build, the binary users run.
# While the driver's static stage runs beside it (BESIDE_FLAG, a file there until static
# ends), the static checks keep the CPUs busy with work of their own: the spinners run at
# nice 19 meanwhile (they take only what the checks leave idle), and at nice 0 from its
# end (as root: only root may lower a nice value; others keep them at 0 throughout).
stage_busy() {
	local pids=() i rc=0 nice=0 watch=
	[ -n "${BESIDE_FLAG:-}" ] && [ -e "$BESIDE_FLAG" ] && [ "$(id -u)" -eq 0 ] && nice=19
	for ((i = 0; i < JOBS; i++)); do
		nice -n "$nice" sh -c 'while :; do :; done' &
		pids+=($!)
	done
	if [ "$nice" -ne 0 ]; then
		(
			while [ -e "$BESIDE_FLAG" ]; do sleep 1; done
			renice -n 0 -p "${pids[@]}" >/dev/null
		) &
		watch=$!
	fi
	# shellcheck disable=SC2064 # the pids are known now
	trap "kill ${pids[*]} $watch 2>/dev/null" EXIT
	echo "the integration tests with ${#pids[@]} spinning processes (nice $nice${watch:+ until the static checks beside end})"
	(cd build-test && ctest -L integration --output-on-failure --timeout 900 -j"$IT_JOBS" \
		"${CTEST_ARGS[@]}") || rc=$?
	[ -n "$watch" ] && pids+=("$watch")
	kill "${pids[@]}" 2>/dev/null || true
	wait "${pids[@]}" 2>/dev/null || true
	trap - EXIT
	return "$rc"
}

# ---- asan: the whole suite under AddressSanitizer, LeakSanitizer and UBSan -------------
stage_asan() {
	configure build-asan -DPMUTOP_SANITIZE=ON -DPMUTOP_TESTS=ON -DPMUTOP_FUZZ=OFF || return 1
	cmake --build build-asan -j"$JOBS" || return 1
	# Built: the driver starts deb, fuzz and static beside the tests, which mostly wait.
	touch "$LOGS/asan.built"
	# Reports go to files, whichever process has them (pmutop run by a test, in tmux, as
	# nobody): a test that ignores a child's stderr cannot hide one.
	local san=$ROOT/build-asan/sanitizer
	rm -rf "$san" && mkdir -p "$san" && chmod 1777 "$san"
	local rc=0
	(cd build-asan &&
		ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:log_path=$san/asan \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$san/ubsan \
		ctest -LE emulated-pmu --output-on-failure --timeout 300 -j"$IT_JOBS" \
			"${CTEST_ARGS[@]}") || rc=1
	if compgen -G "$san/*" >/dev/null; then
		echo "sanitizer reports:"
		for f in "$san"/*; do
			echo "== $f"
			head -n 60 "$f"
		done
		rc=1
	fi
	return "$rc"
}

# ---- fuzz: libFuzzer over every parser of untrusted input ---------------------------------
stage_fuzz() {
	configure build-fuzz -DCMAKE_C_COMPILER=clang -DPMUTOP_FUZZ=ON -DPMUTOP_TESTS=ON \
		-DPMUTOP_UI=OFF -DPMUTOP_SANITIZE=OFF || return 1
	if [ ! -d build-fuzz/tests/fuzz ]; then
		echo "tests/fuzz is not part of the build: tests/CMakeLists.txt must add_subdirectory(fuzz)"
		return 1
	fi
	cmake --build build-fuzz -j"$JOBS" --target fuzz || return 1
	# 1. What is committed: seeds and past crashes, once each, no mutation.
	(cd build-fuzz && ctest -L fuzz --output-on-failure) || return 1
	# 2. Bounded fuzzing, a harness per core. New inputs go to build-fuzz/corpus (kept
	# between local runs), crashes to build-fuzz/artifacts/<harness>/.
	# Each harness's exit status goes to a file: `wait PID` long after a harness ended
	# can find its pid taken again (pid_max 32768 wraps within minutes here) and bash's
	# saved status dropped ("pid N is not a child of this shell").
	local h dir pids=() names=() rc=0
	for dir in tests/fuzz/*/; do
		h=$(basename "$dir")
		[ -x "build-fuzz/tests/fuzz/fuzz_$h" ] || continue
		while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
		mkdir -p "build-fuzz/corpus/$h" "build-fuzz/artifacts/$h"
		local args=(-max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048
			-print_final_stats=1 -artifact_prefix="build-fuzz/artifacts/$h/")
		[ -f "$dir/fuzz_$h.dict" ] && args+=(-dict="$dir/fuzz_$h.dict")
		local inputs=("build-fuzz/corpus/$h" "$dir/corpus")
		[ -d "$dir/regressions" ] && inputs+=("$dir/regressions")
		rm -f "$LOGS/fuzz_$h.rc"
		(
			"build-fuzz/tests/fuzz/fuzz_$h" "${args[@]}" "${inputs[@]}" \
				>"$LOGS/fuzz_$h.log" 2>&1
			echo $? >"$LOGS/fuzz_$h.rc"
		) &
		pids+=($!)
		names+=("$h")
	done
	[ ${#names[@]} -gt 0 ] || {
		echo "no harness built"
		return 1
	}
	wait "${pids[@]}" 2>/dev/null
	for h in "${names[@]}"; do
		if [ "$(cat "$LOGS/fuzz_$h.rc" 2>/dev/null)" = 0 ]; then
			echo "fuzz_$h: $(grep -Eo 'stat::number_of_executed_units: [0-9]+' \
				"$LOGS/fuzz_$h.log" | grep -Eo '[0-9]+') runs, no crash"
		else
			rc=1
			echo "fuzz_$h: FAILED (log $LOGS/fuzz_$h.log)"
			grep -E 'ERROR|SUMMARY|runtime error|Test unit written' "$LOGS/fuzz_$h.log" | head -n 8
			echo "  keep the reproducer: cp build-fuzz/artifacts/$h/<file>" \
				"tests/fuzz/$h/regressions/<what-it-is>"
		fi
	done
	return "$rc"
}

# ---- valgrind: the real binary under memcheck -------------------------------------------
vg_run() { # EXPECTED-EXIT ARGS...
	local want=$1 got
	shift
	echo "-- pmutop $*"
	valgrind -q --suppressions="$ROOT/tests/valgrind/libbpf.supp" --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
		--show-leak-kinds=definite build-test/pmutop "$@" >/dev/null
	got=$?
	[ "$got" -eq "$want" ] && return 0
	if [ "$got" -eq 99 ]; then
		echo "memcheck found errors or definite leaks"
	else
		echo "exit status $got, want $want"
	fi
	return 1
}

# Every cmocka program under memcheck (the test process itself: what it runs, pmutop
# included, runs natively; the five vg_run lines cover the binary), but for those labelled
# binary (tests/CMakeLists.txt): they include no product header, and only exec pmutop, so
# memcheck there would check the test's own code alone. An uninitialised read
# fails here wherever it happens, even where ASan, which does not track them, passes.
# IT_JOBS at a time, the integration programs (the longest, mostly waiting) first: a long
# one started last would run alone at the end.
vg_tests() {
	local names rc=0
	# ctest -N only lists, but it rewrites Testing/Temporary/LastTest.log.tmp: never while
	# another ctest runs in build-test (test_it_compose counts that file's descriptor).
	names=$(cd build-test && for l in integration unit; do
		ctest -N -L "^$l\$" -LE '^binary$' | awk '/Test +#/ {print $3}' | grep '^test_'
	done) || return 1
	[ -n "$names" ] || {
		echo "no cmocka program found"
		return 1
	}
	mkdir -p "$LOGS/valgrind"
	# shellcheck disable=SC2016 # expanded by the inner shell
	# libbpf hands the kernel a bpf_attr it cleared only in part: memcheck's false alarm.
	printf '%s\n' "$names" | VG_SUPP="$ROOT/tests/valgrind/libbpf.supp" PMUTOP_TEST_VALGRIND=1 xargs -P"$IT_JOBS" -I{} sh -c '
		cd build-test/tests || exit 1
		t0=$(date +%s)
		valgrind -q --suppressions="$VG_SUPP" --error-exitcode=99 --trace-children=no --max-threads=4000 \
			--log-file="$0/valgrind/{}.vg" ./{} >"$0/valgrind/{}.out" 2>&1
		st=$?
		t=$(($(date +%s) - t0))
		[ "$st" -eq 0 ] && { echo "-- {}: ok (${t}s)"; exit 0; }
		[ "$st" -eq 99 ] && echo "-- {}: memcheck found errors" || echo "-- {}: exit $st"
		grep -v "WARNING: unhandled eBPF command" "$0/valgrind/{}.vg" | head -n 40
		if grep -q -E "ERROR|FAILED|error:" "$0/valgrind/{}.out"; then
			grep -n -B 3 -A 3 -E "ERROR|FAILED|error:" "$0/valgrind/{}.out" | head -n 60
		else
			tail -n 40 "$0/valgrind/{}.out"
		fi
		exit 1' "$LOGS" || rc=1
	return "$rc"
}

# build-test, the plain build: memcheck needs no build of its own beyond -g.
stage_valgrind() {
	# No setup file of whoever runs this: the default setup.
	local cfg
	cfg=$(mktemp -d) || return 1
	local rc=0
	export XDG_CONFIG_HOME=$cfg
	vg_run 0 -b -n 3 -d 0.2 --format csv || rc=1
	vg_run 0 -b -e page-faults -- /bin/true || rc=1
	vg_run 0 -b -n 2 -d 0.2 -H --per-cpu --format json || rc=1
	vg_run 0 --list || rc=1
	vg_run 2 -b -n 1 -e cylces || rc=1
	vg_tests || rc=1
	unset XDG_CONFIG_HOME
	rm -rf "$cfg"
	return "$rc"
}

# ---- static: cppcheck and clang-tidy on the project's own code ----------------------------
# The compile database of build-test (gcc's flags: clang-tidy is told to pass over the
# warning options clang lacks), only the product's files of it.
stage_static() {
	local db=build-test/compile_commands.json rc=0 files
	[ -f "$db" ] || {
		echo "no $db: the build stage makes it"
		return 1
	}
	echo "-- layers (.ci/layers.sh: includes against the direction, include circles)"
	"$ROOT/.ci/layers.sh" || rc=1
	files=$(grep -Eo '"file": *"[^"]*"' "$db" | sed -E 's/.*"([^"]*)"$/\1/' |
		grep -E "^$ROOT/(events|ui|src/(source/)?[a-z]+)/[^/]*\.c$" | sort -u)
	[ -n "$files" ] || {
		echo "no sources in $db"
		return 1
	}
	echo "-- cppcheck"
	# Left out: variableScope (the rooms declare at the top on purpose), unusedStructMember
	# (structs that spell out kernel record layouts), readdirCalled (readdir_r is the
	# deprecated one), unreachableCode in src/app's run (after raise(SIGSTOP) the process goes on
	# once continued: cppcheck takes raise() for noreturn).
	# cppcheck 2.10's --file-filter finds nothing in a --project: a database of the
	# product's entries only, in build-checks/static/.
	mkdir -p "$LOGS/static"
	echo "$files" >"$LOGS/static/files"
	awk 'NR == FNR { want["\"" $0 "\""] = 1; next }
		/^\{$/ { rec = ""; keep = 0; inrec = 1 }
		inrec { rec = rec $0 "\n" }
		inrec && /^ *"file": / { f = $0; sub(/^ *"file": */, "", f); sub(/,$/, "", f); keep = f in want }
		inrec && /^\},?$/ { if (keep) { sub(/\},?\n$/, "", rec); out[n++] = rec } inrec = 0 }
		END { print "["; for (i = 0; i < n; i++) printf "%s}%s\n", out[i], i < n - 1 ? "," : ""; print "]" }' \
		"$LOGS/static/files" "$db" >"$LOGS/static/compile_commands.json"
	cppcheck --project="$LOGS/static/compile_commands.json" --enable=warning,style,performance,portability \
		--library=posix --std=c11 --quiet --inline-suppr -j"$JOBS" \
		--suppress=variableScope --suppress=unusedStructMember --suppress=readdirCalled \
		--suppress='unreachableCode:*src/app/run.c' --suppress='unreachableCode:*src/app/screen.c' \
		--suppress='unreachableCode:*src/app/replayrun.c' \
		--template='{file}:{line}: {severity} [{id}] {message}' --error-exitcode=1 || rc=1
	echo "-- clang-tidy ($(echo "$files" | wc -l) files, checks in .clang-tidy)"
	echo "$files" | xargs -P "$JOBS" -n 4 clang-tidy -p build-test --quiet \
		--extra-arg=-Wno-unknown-warning-option 2>/dev/null |
		tee "$LOGS/clang-tidy.out" | grep -E ': (warning|error):' || true
	grep -qE ': (warning|error):' "$LOGS/clang-tidy.out" && rc=1
	echo "-- clang-format (.clang-format, every tracked .c and .h)"
	if ! git -C "$ROOT" ls-files '*.c' '*.h' | (cd "$ROOT" && xargs clang-format --dry-run \
		--Werror) >"$LOGS/clang-format.out" 2>&1; then
		grep -E ': (warning|error):' "$LOGS/clang-format.out" | head -n 20
		echo "format them: git ls-files '*.c' '*.h' | xargs clang-format -i"
		rc=1
	fi
	return "$rc"
}

# ---- deb: the Debian package, installed into a fresh root and run from there -------------
stage_deb() {
	cmake -S "$ROOT" -B "$ROOT/build-deb" -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_INSTALL_PREFIX=/usr -DPMUTOP_TESTS=OFF >/dev/null || return 1
	cmake --build build-deb -j"$JOBS" >/dev/null || return 1
	rm -f build-deb/pmutop_*.deb
	(cd build-deb && cpack -G DEB >/dev/null) || return 1
	local deb root=$ROOT/build-deb/root rc=0 f
	deb=$(ls build-deb/pmutop_*.deb) || return 1
	rm -rf "$root" && mkdir -p "$root"
	dpkg-deb -x "$deb" "$root" || return 1
	echo "-- $deb: $(dpkg-deb -f "$deb" Depends)"
	# Debian's names for what pmutop links (dpkg-shlibdeps), never a file name.
	for f in libc6 libpfm4 libsqlite3-0 libncursesw6 libmicrohttpd libcurl3-gnutls; do
		dpkg-deb -f "$deb" Depends | grep -q "$f" || {
			echo "Depends lacks $f"
			rc=1
		}
	done
	# Debian's own check of the package: any error or warning fails. None is overridden;
	# an override would go into /usr/share/lintian/overrides/pmutop with its reason.
	if ! lintian --fail-on error,warning "$deb" >"$LOGS/deb-lintian.out" 2>&1; then
		echo "lintian $deb:"
		head -n 20 "$LOGS/deb-lintian.out"
		rc=1
	fi
	for f in usr/bin/pmutop usr/share/man/man1/pmutop.1.gz usr/share/man/man5/pmutoprc.5.gz \
		usr/share/doc/pmutop/copyright usr/share/doc/pmutop/changelog.gz \
		usr/lib/systemd/system/pmutop-record.service usr/share/pmutop/grafana-pmutop.json \
		"usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/pmutop/pmutopsql.so"; do
		[ -e "$root/$f" ] || {
			echo "not in the package: /$f"
			rc=1
		}
	done
	grep -q '^ExecStart=/usr/bin/pmutop ' "$root/usr/lib/systemd/system/pmutop-record.service" ||
		{
			echo "the unit does not start /usr/bin/pmutop"
			rc=1
		}
	"$root/usr/bin/pmutop" --version || rc=1
	for f in "$root"/usr/share/man/man*/*; do
		# man renders the page at 80 columns; any groff warning (an undefined macro, a
		# line it cannot adjust) is an error here.
		if ! MANWIDTH=80 man --warnings -l "$f" 2>"$LOGS/deb-man.err" >/dev/null ||
			[ -s "$LOGS/deb-man.err" ]; then
			echo "man -l $f:"
			head -n 5 "$LOGS/deb-man.err"
			rc=1
		fi
	done
	"$root/usr/bin/pmutop" -b -n 1 -d 0.2 -e task-clock --format csv >"$LOGS/deb-batch.out" ||
		rc=1
	grep -q '^1,.*,process,.*,task-clock,' "$LOGS/deb-batch.out" || {
		echo "no tick from the installed pmutop"
		rc=1
	}
	return "$rc"
}

# ---- driver ------------------------------------------------------------------------------
# Each stage runs in a process of its own under a time limit, so that a hang cannot hold
# CI (90 minutes): build, unit, busy, valgrind and static 15 min, asan 20, fuzz and deb 10.
if [ "${1:-}" = --inner ]; then
	name=$2
	shift 2
	CTEST_ARGS=("$@")
	"stage_$name"
	exit $?
fi

limit_of() {
	case $1 in
	asan) echo 1200 ;;
	fuzz | deb) echo 600 ;;
	*) echo 900 ;;
	esac
}

# Runs stage NAME; prints one line, and what failed first if it failed, all at once (a
# stage that runs beside another must not cut into its lines).
run_stage() {
	local name=$1 t0 t1 rc out
	t0=$(date +%s)
	timeout -k 10 "$(limit_of "$name")" "$ROOT/.ci/checks.sh" --inner "$name" \
		"${CTEST_ARGS[@]}" >"$LOGS/$name.log" 2>&1
	rc=$?
	t1=$(date +%s)
	if [ $rc -eq 0 ]; then
		out=$(printf 'checks: %-9s ok      %4ds  (load %s)' "$name" $((t1 - t0)) \
			"$(cut -d' ' -f1 /proc/loadavg)")
	else
		[ $rc -eq 124 ] && echo "timed out after $(limit_of "$name")s" >>"$LOGS/$name.log"
		# What failed first (a stage's log runs to thousands of lines, and CI shows its
		# output's end), then the log's end.
		out=$(
			printf 'checks: %-9s FAILED  %4ds  (load %s; log: %s)\n' "$name" $((t1 - t0)) \
				"$(cut -d' ' -f1 /proc/loadavg)" "${LOGS#"$ROOT"/}/$name.log"
			grep -E -B 2 -A 24 -m 3 '(: memcheck found errors|: exit [0-9]+$|^memcheck found|^exit status|FAILED|\*\*\*|ERROR: |error: |==[0-9]+==ERROR|runtime error|^==[0-9]+== (Invalid|Conditional|Use of|Syscall param|Mismatched|[0-9,]+ bytes in))' \
				"$LOGS/$name.log" | head -n 60 | sed 's/^/    /'
			echo "    ..."
			tail -n 15 "$LOGS/$name.log" | sed 's/^/    /'
		)
	fi
	printf '%s\n' "$out"
	return "$rc"
}

ALL=(build unit asan static deb busy valgrind fuzz)
stages=()
while [ $# -gt 0 ]; do
	case $1 in
	--)
		shift
		CTEST_ARGS=("$@")
		break
		;;
	build | unit | asan | busy | fuzz | valgrind | static | deb) stages+=("$1") ;;
	*)
		echo "usage: .ci/checks.sh [build|unit|asan|busy|fuzz|valgrind|static|deb]... [-- CTEST-ARGS...]" >&2
		exit 2
		;;
	esac
	shift
done
[ ${#stages[@]} -gt 0 ] || stages=("${ALL[@]}")
want() { [[ " ${stages[*]} " == *" $1 "* ]]; }
# unit, busy, valgrind and static run what the build stage built.
for s in unit busy valgrind static; do
	want "$s" && ! want build && stages=(build "${stages[@]}")
done
ensure_pkgs
unset BESIDE_FLAG # the driver's own, below
failed=0
T0=$(date +%s)
# In ALL's order. The build first: without it the stages after it have nothing to run.
# deb and fuzz run beside asan's tests, which mostly wait (asan's stage touches
# asan.built once built), then static beside the rest of them and on beside busy, whose
# spinners it stands in for while it lasts (CPU time the spinners would burn goes to the
# checks); valgrind alone.
if want build && ! run_stage build; then
	echo "checks: the build failed: no other stage runs"
	exit 1
fi
want unit && { run_stage unit || failed=1; }
asan=
if want asan; then
	rm -f "$LOGS/asan.built"
	run_stage asan &
	asan=$!
	while [ ! -e "$LOGS/asan.built" ] && kill -0 "$asan" 2>/dev/null; do sleep 1; done
fi
for s in deb fuzz; do
	want "$s" && { run_stage "$s" || failed=1; }
done
static=
if want static; then
	export BESIDE_FLAG=$LOGS/static.running
	touch "$BESIDE_FLAG"
	(
		run_stage static
		rc=$?
		rm -f "$BESIDE_FLAG"
		exit $rc
	) &
	static=$!
fi
if [ -n "$asan" ]; then
	wait "$asan" || failed=1
fi
want busy && { run_stage busy || failed=1; }
if [ -n "$static" ]; then
	wait "$static" || failed=1
fi
want valgrind && { run_stage valgrind || failed=1; }
printf 'checks: %-9s %-7s %4ds  (load %s)\n' total "$([ $failed -eq 0 ] && echo ok || echo FAILED)" \
	$(($(date +%s) - T0)) "$(cut -d' ' -f1 /proc/loadavg)"
exit $failed
