#!/bin/sh
# lane.sh: the emulated-PMU lane (ctest test emulated_pmu). Cross-builds pmutop (with
# its bpf backend, against Debian's arm64 libbpf) and the guest programs for arm64,
# boots Debian's arm64 kernel once under qemu-system-aarch64 (whose PMU really counts
# and multiplexes), runs lane.plan inside and judges the console log with
# check-log.awk. See docs/EMULATED_LANE.md.
#
#   lane.sh --source SRC --work DIR --cache DIR [--probe-only]
#
# --probe-only boots without pmutop and runs only the lane's own probe: it checks the
# host, the kernel and the emulated PMU. Exit 0 pass, 1 fail, 77 skipped
# (PMUTOP_SKIP_EMULATED=1).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
usage() {
	echo "usage: lane.sh --source SRC --work DIR --cache DIR [--probe-only]" >&2
	exit 2
}

src="" work="" cache="" probe_only=0
while [ $# -gt 0 ]; do
	case $1 in
	--source) src=$2; shift 2 ;;
	--work) work=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--probe-only) probe_only=1; shift ;;
	*) usage ;;
	esac
done
if [ -z "$src" ] || [ -z "$work" ] || [ -z "$cache" ]; then
	usage
fi

if [ "${PMUTOP_SKIP_EMULATED:-0}" = 1 ]; then
	echo "emulated-pmu: skipped (PMUTOP_SKIP_EMULATED=1)"
	exit 77
fi

mkdir -p "$work"
work=$(cd "$work" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
toolchain="$here/aarch64-toolchain.cmake"
t_lane=$(date +%s%N)
t_step=$t_lane

ms_since() { echo $((($(date +%s%N) - $1) / 1000000)); }

step_done() {
	echo "emulated-pmu: $1 ($(ms_since "$t_step") ms)"
	t_step=$(date +%s%N)
}

# Everything goes to stdout: ctest shows one stream, in order.
fail() {
	echo "emulated-pmu: FAIL: $*"
	exit 1
}

# Run a quiet command; on failure show the end of its log, which names the error.
quiet() {
	qlog=$1
	shift
	"$@" >"$qlog" 2>&1 || { tail -n 40 "$qlog"; return 1; }
}

sh "$here/host-setup.sh" "$cache" || fail "host setup failed (see above)"
step_done "host ready"

# cross_build NAME SOURCE_DIR TARGET [CONFIGURE_ARGS...]: an arm64 build in $work/NAME.
cross_build() {
	name=$1 dir=$2 target=$3
	shift 3
	quiet "$work/$name-configure.log" cmake -S "$dir" -B "$work/$name" \
		-DCMAKE_TOOLCHAIN_FILE="$toolchain" -DPMUTOP_ARM64_ROOT="$cache/arm64-root" \
		-DCMAKE_BUILD_TYPE=Release "$@" || fail "configuring $name failed"
	quiet "$work/$name-build.log" cmake --build "$work/$name" --target "$target" --parallel "$jobs" ||
		fail "building $name failed"
}

cross_build guest-aarch64 "$here/guest" all
stage="$work/initramfs"
rm -rf "$stage"
mkdir -p "$stage"
cp "$work/guest-aarch64/init" "$work/guest-aarch64/probe" "$work/guest-aarch64/workload" "$stage/"
if [ "$probe_only" = 1 ]; then
	plan="$work/probe-only.plan"
	grep '^probe	' "$here/lane.plan" >"$plan"
else
	plan="$here/lane.plan"
	cross_build pmutop-aarch64 "$src" pmutop \
		-DPMUTOP_STATIC=ON -DPMUTOP_UI=OFF -DPMUTOP_TESTS=OFF -DPMUTOP_WERROR=ON \
		-DPMUTOP_EXPORTER=OFF -DPMUTOP_RECORD=OFF -DPMUTOP_FLEET=OFF -DPMUTOP_BPF=ON
	cp "$work/pmutop-aarch64/pmutop" "$stage/"
fi
cp "$plan" "$stage/lane.plan"
step_done "cross builds done"

# Sorted names and owner 0 make the archive depend only on its contents.
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) |
	gzip -1 >"$work/initrd.gz" || fail "packing the initramfs failed"

# -nic none: the default NIC wants a boot ROM (ipxe-qemu) that the lane does not need.
# QEMU exits 0 even when the guest panics: only the sentinel that /init prints counts.
raw="$work/console.raw"
log="$work/console.log"
rc=0
timeout 300 qemu-system-aarch64 -M virt -cpu cortex-a57 -smp 1 -m 256 -nic none \
	-display none -monitor none -serial stdio -no-reboot -icount shift=1 \
	-kernel "$cache/vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyAMA0 panic=-1 quiet loglevel=4" \
	</dev/null >"$raw" 2>"$work/qemu.err" || rc=$?
tr -d '\r' <"$raw" >"$log"
[ "$rc" = 0 ] || echo "emulated-pmu: qemu exited $rc$( [ "$rc" = 124 ] && echo ' (timed out after 300 s)'): $(cat "$work/qemu.err")"
step_done "guest ran, console log in $log"

if awk -f "$here/check-log.awk" "$plan" "$log" && [ "$rc" = 0 ]; then
	echo "emulated-pmu: passed in $(ms_since "$t_lane") ms"
	exit 0
fi
echo "emulated-pmu: ---- guest console log ($log) ----"
cat "$log"
echo "emulated-pmu: ---- end of guest console log ----"
fail "see the FAILED lines before the guest console log"
