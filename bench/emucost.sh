#!/usr/bin/env bash
# What watching costs the watched program (issue 28), measured where time is repeatable:
# inside the emulated-PMU lane's guest (Debian's arm64 kernel under qemu-system-aarch64
# -icount, one CPU), whose clock counts executed instructions, so that a run gives the
# same time each time whatever the host is doing. The host's own pairs (bench/run.sh)
# move by 20-30% from run to run on this VM; these move by well under 1%.
#
#   bench/emucost.sh [--reps N] [--trips N] [--work DIR] [--cache DIR]
#
# Each workload of bench/workload.c (ping-pong, spin, forks) runs alone, under perf stat's
# counters (bench/statform.c opens them as perf stat --, -i, -a and -p do: the guest has
# no perf) and under pmutop (-- CMD, -i -- CMD, -p, every task with the perf backend and
# with the bpf one), the 5 software events in one group; bench/obsguest.c runs each mode.
# Prints markdown: each mode's time, its ratio to the workload alone, and each pair's
# verdict (pmutop at most 3% slower than its perf stat twin). Run as root on Debian/Ubuntu
# x86_64: tests/emulated/host-setup.sh installs what it needs. About 2 minutes at 1 rep.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
lane=$root/tests/emulated
reps=1
trips=20000
work=""
cache=""
while [ $# -gt 0 ]; do
	case "$1" in
	--reps) reps=${2:?} ;;
	--trips) trips=${2:?} ;;
	--work) work=${2:?} ;;
	--cache) cache=${2:?} ;;
	*) echo "bench/emucost.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift 2
done
work=${work:-$root/build-emucost}
cache=${cache:-$work/cache}
mkdir -p "$work" "$cache"
work=$(cd "$work" && pwd)
cache=$(cd "$cache" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)

die() {
	echo "bench/emucost.sh: $*" >&2
	exit 1
}
quiet() { # LOG COMMAND...: the log's end when it fails
	local log=$1
	shift
	"$@" >"$log" 2>&1 || { tail -n 30 "$log" >&2; return 1; }
}

sh "$lane/host-setup.sh" "$cache" >&2 || die "host setup failed"
quiet "$work/pmutop-configure.log" cmake -S "$root" -B "$work/pmutop-aarch64" \
	-DCMAKE_TOOLCHAIN_FILE="$lane/aarch64-toolchain.cmake" -DPMUTOP_ARM64_ROOT="$cache/arm64-root" \
	-DCMAKE_BUILD_TYPE=Release -DPMUTOP_STATIC=ON -DPMUTOP_UI=OFF -DPMUTOP_TESTS=OFF \
	-DPMUTOP_EXPORTER=OFF -DPMUTOP_RECORD=OFF -DPMUTOP_BPF=ON || die "configuring pmutop failed"
quiet "$work/pmutop-build.log" cmake --build "$work/pmutop-aarch64" --target pmutop --parallel "$jobs" ||
	die "building pmutop failed"
quiet "$work/guest-configure.log" cmake -S "$lane/guest" -B "$work/guest-aarch64" \
	-DCMAKE_TOOLCHAIN_FILE="$lane/aarch64-toolchain.cmake" -DPMUTOP_ARM64_ROOT="$cache/arm64-root" \
	-DCMAKE_BUILD_TYPE=Release || die "configuring the guest's init failed"
quiet "$work/guest-build.log" cmake --build "$work/guest-aarch64" --target init ||
	die "building the guest's init failed"

stage=$work/initramfs
rm -rf "$stage"
mkdir -p "$stage"
for p in workload statform obsguest; do
	aarch64-linux-gnu-gcc -O2 -static -Wall -Wextra -Werror -o "$stage/$p" "$here/$p.c" ||
		die "cross-compiling bench/$p.c failed"
done
cp "$work/guest-aarch64/init" "$work/pmutop-aarch64/pmutop" "$stage/"

# The plan: each mode once per repetition, in turn, each workload; the counts make each
# alone run last about 0.5 s of guest time.
modes="alone perf perf_i perf_a perf_p pmutop_cmd pmutop_i pmutop_p pmutop_sys pmutop_bpf"
declare -A count=([pingpong]=$trips [spin]=30000000 [forks]=100)
plan=$stage/lane.plan
: >"$plan"
for r in $(seq "$reps"); do
	for w in pingpong spin forks; do
		for m in $modes; do
			printf '%s\t/obsguest\t%s\t%s\t%s\n' "r$r-$m-$w" "$m" "$w" "${count[$w]}" >>"$plan"
		done
	done
done
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$work/initrd.gz" ||
	die "packing the initramfs failed"

t0=$(date +%s)
timeout 3000 qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 1 -m 512 -nic none \
	-display none -monitor none -serial stdio -no-reboot -icount shift=1 \
	-kernel "$cache/vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyAMA0 panic=-1 quiet loglevel=4" \
	</dev/null 2>"$work/qemu.err" | tr -d '\r' >"$work/console.log"
grep -q PMUTOP-LANE-DONE "$work/console.log" || die "the guest did not finish: see $work/console.log"
secs=$(($(date +%s) - t0))

declare -A t
while IFS='|' read -r tag rest; do
	case $tag in r*-*-*) ;; *) continue ;; esac
	set -- $rest
	[ $# -eq 3 ] || continue
	t[$tag]=${3#elapsed_s=}
done <"$work/console.log"

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {if (NR) print (NR % 2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0 && a == a + 0) printf "%.3f", a / b; else print "-"}'; }

kernel=$(sed -n 's/^info|kernel=//p' "$work/console.log")
echo "### Observer effect in the emulated guest ($kernel, QEMU -icount, $(date -u +%Y-%m-%dT%H:%MZ))"
echo
echo "Guest seconds of bench/workload.c as it times itself; medians of $reps repetition(s); the"
echo "ratio is the time under the tool over the time alone (1.000: no cost). $secs s of host time."
echo
echo "| mode | ping-pong, $trips trips | ratio | spin | ratio | forks, ${count[forks]} | ratio |"
echo "|---|---:|---:|---:|---:|---:|---:|"
declare -A med
for m in $modes; do
	row="| $m"
	for w in pingpong spin forks; do
		vals=()
		for r in $(seq "$reps"); do vals+=("${t[r$r-$m-$w]:-nan}"); done
		med[$m,$w]=$(median "${vals[@]}")
		row="$row | ${med[$m,$w]} | $(ratio "${med[$m,$w]}" "${med[alone,$w]}")"
	done
	echo "$row |"
done
echo
echo "Pairs (pmutop's time over its twin's; the target is at most 1.03):"
echo
echo "| pmutop | against | ping-pong | spin | forks | verdict |"
echo "|---|---|---:|---:|---:|---|"
for pair in pmutop_cmd:perf pmutop_i:perf_i pmutop_p:perf_p pmutop_bpf:perf pmutop_bpf:perf_a pmutop_sys:perf_a; do
	a=${pair%%:*} b=${pair#*:}
	row="| $a | $b" worst=0
	for w in pingpong spin forks; do
		q=$(ratio "${med[$a,$w]}" "${med[$b,$w]}")
		row="$row | $q"
		worst=$(awk -v q="$q" -v w="$worst" 'BEGIN {print (q == q + 0 && q > w) ? q : w}')
	done
	verdict=$(awk -v w="$worst" 'BEGIN {print w <= 1.03 ? "PASS" : "FAIL"}')
	echo "$row | $verdict (worst $worst) |"
done
