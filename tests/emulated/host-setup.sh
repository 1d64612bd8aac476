#!/bin/sh
# host-setup.sh CACHE_DIR: make this x86_64 Debian host able to run the emulated-PMU
# lane. Installs the cross tools and QEMU when missing, and fills CACHE_DIR with Debian's
# arm64 kernel, libpfm4 and libbpf with what a static link of it needs (libelf, zlib).
# Idempotent: a second run only checks, in well under a second. Exits non-zero with one
# clear line when it cannot (not root, no archive).
set -eu

cache=${1:?usage: host-setup.sh CACHE_DIR}

# The arm64 -dev packages: headers, static archives and pkg-config files. libbpf.pc's
# Requires.private names libelf and zlib (elfutils 0.188's libelf.pc: zlib alone).
dev_pkgs="libpfm4-dev:arm64 libbpf-dev:arm64 libelf-dev:arm64 zlib1g-dev:arm64"
libdir=usr/lib/aarch64-linux-gnu
# What a filled cache holds: a cache filled before a package was added is filled again.
cached_files="vmlinuz packages"
for a in libpfm.a libbpf.a libelf.a libz.a; do cached_files="$cached_files arm64-root/$libdir/$a"; done

die() {
	echo "emulated-pmu: host setup: $*" >&2
	exit 1
}

# Each missing tool names the package that provides it.
missing_packages() {
	command -v qemu-system-aarch64 >/dev/null || echo qemu-system-arm
	command -v aarch64-linux-gnu-gcc >/dev/null || echo gcc-aarch64-linux-gnu
	[ -f /usr/aarch64-linux-gnu/lib/libc.a ] || echo libc6-dev-arm64-cross
	command -v cpio >/dev/null || echo cpio
	# The bpf backend's program and skeleton (its libbpf headers are the arm64 package's,
	# found through pkg-config).
	command -v clang >/dev/null || echo clang
	command -v bpftool >/dev/null || [ -x /usr/sbin/bpftool ] || echo bpftool
	command -v pkg-config >/dev/null || echo pkgconf
}

install_tools() {
	pkgs=$(missing_packages | xargs)
	[ -n "$pkgs" ] || return 0
	[ "$(id -u)" = 0 ] ||
		die "missing $pkgs and not root: run 'apt-get install $pkgs' as root, or set PMUTOP_SKIP_EMULATED=1"
	echo "emulated-pmu: installing $pkgs"
	export DEBIAN_FRONTEND=noninteractive
	log=$(mktemp)
	# shellcheck disable=SC2086 # a list of package names
	if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends $pkgs; } >"$log" 2>&1; then
		tail -n 20 "$log"
		rm -f "$log"
		die "apt-get install $pkgs failed (offline?)"
	fi
	rm -f "$log"
	[ -z "$(missing_packages)" ] || die "still missing after install: $(missing_packages | xargs)"
}

# The kernel package linux-image-arm64 points at today: Debian replaces old kernel ABIs
# on its mirror, so a pinned version would stop downloading one day.
arm64_kernel_package() {
	apt-cache depends linux-image-arm64:arm64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

ensure_arm64_lists() {
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		[ "$(id -u)" = 0 ] ||
			die "arm64 is not a dpkg architecture here and not root: run 'dpkg --add-architecture arm64 && apt-get update' as root"
		dpkg --add-architecture arm64
	fi
	[ -n "$(arm64_kernel_package)" ] && return 0
	[ "$(id -u)" = 0 ] || die "no arm64 package lists and not root: run 'apt-get update' as root"
	apt-get update -qq >/dev/null || die "apt-get update failed (offline?)"
	[ -n "$(arm64_kernel_package)" ] || die "linux-image-arm64:arm64 not found in the archive"
}

# apt-get download PACKAGES... into $tmp/debs, its messages into $tmp/download.log.
# The sandbox user _apt cannot write into a root-owned build tree.
download() {
	(cd "$tmp/debs" && apt-get download -q -o APT::Sandbox::User=root "$@") >"$tmp/download.log" 2>&1
}

# The first apt error lines of a log, on one line (never fails: set -e).
apt_errors() {
	{ grep '^[EW]:' "$1" || true; } | head -n 3 | tr '\n' ' ' | sed 's/ *$//'
}

# Download into a scratch directory and publish with one rename, so that an interrupted
# run never leaves a half-filled cache that the next run would trust. Any failure (die,
# an interrupt) removes the scratch directory.
fill_cache() {
	ensure_arm64_lists
	kpkg=$(arm64_kernel_package)
	tmp="$cache.tmp"
	trap 'rm -rf "$tmp"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	trap 'exit 129' HUP
	rm -rf "$tmp"
	mkdir -p "$tmp/debs" "$tmp/arm64-root"
	echo "emulated-pmu: downloading $kpkg and $dev_pkgs"
	# shellcheck disable=SC2086 # a list of package names
	if ! download "$kpkg" $dev_pkgs; then
		# Stale package lists ask for a kernel version the archive dropped (debian-security
		# keeps only the newest): refresh them, resolve the kernel again, retry once.
		first=$(apt_errors "$tmp/download.log")
		echo "emulated-pmu: apt-get download $kpkg failed ($first); refreshing the package lists and retrying once"
		[ "$(id -u)" = 0 ] ||
			die "apt-get download $kpkg $dev_pkgs failed ($first) and not root: run 'apt-get update' as root and retry"
		apt-get update -qq >"$tmp/update.log" 2>&1 ||
			die "no network or no archive: apt-get download failed ($first) and apt-get update failed too ($(apt_errors "$tmp/update.log"))"
		old=$kpkg
		kpkg=$(arm64_kernel_package)
		[ -n "$kpkg" ] || die "linux-image-arm64:arm64 not found in the refreshed package lists"
		rm -rf "$tmp/debs"
		mkdir -p "$tmp/debs"
		echo "emulated-pmu: downloading $kpkg and $dev_pkgs (lists refreshed; was $old)"
		# shellcheck disable=SC2086 # a list of package names
		download "$kpkg" $dev_pkgs ||
			die "apt-get download $kpkg $dev_pkgs failed with fresh package lists ($(apt_errors "$tmp/download.log")); the archive answered apt-get update, so the packages themselves are missing or the download broke off"
		echo "emulated-pmu: the package lists were stale: $old could not be downloaded, $kpkg could"
	fi

	# Only /boot/vmlinuz-* of the 60 MB kernel package: its modules are not needed
	# (the virt machine's serial console and the PMU driver are built in).
	dpkg-deb --fsys-tarfile "$tmp"/debs/linux-image-*.deb |
		tar -xf - -C "$tmp" --wildcards './boot/vmlinuz-*' || die "no vmlinuz in $kpkg"
	mv "$tmp"/boot/vmlinuz-* "$tmp/vmlinuz"
	rmdir "$tmp/boot"

	# Headers, static archives and pkg-config files of the -dev packages, nothing else:
	# their .so symlinks point into runtime packages that are not unpacked, and without
	# them find_library() and the linker can only pick the static archives.
	for deb in "$tmp"/debs/*-dev_*.deb; do
		dpkg-deb -x "$deb" "$tmp/unpack" || die "cannot unpack $(basename "$deb")"
	done
	mkdir -p "$tmp/arm64-root/$libdir/pkgconfig"
	mv "$tmp/unpack/usr/include" "$tmp/arm64-root/usr/"
	mv "$tmp/unpack/$libdir"/*.a "$tmp/arm64-root/$libdir/"
	mv "$tmp/unpack/$libdir"/pkgconfig/*.pc "$tmp/arm64-root/$libdir/pkgconfig/"
	rm -rf "$tmp/unpack"
	for f in libpfm.a:libpfm4-dev libbpf.a:libbpf-dev libelf.a:libelf-dev libz.a:zlib1g-dev; do
		[ -f "$tmp/arm64-root/$libdir/${f%%:*}" ] || die "no ${f%%:*} in ${f#*:}:arm64"
	done

	(cd "$tmp/debs" && ls) >"$tmp/packages"
	rm -rf "$tmp/debs" "$tmp/download.log" "$tmp/update.log" "$cache"
	mv "$tmp" "$cache"
}

cache_complete() {
	for f in $cached_files; do
		[ -f "$cache/$f" ] || return 1
	done
}

install_tools
# CO-RE: the BPF program is compiled against this host's kernel types and relocated at
# load time against the guest's BTF.
[ -r /sys/kernel/btf/vmlinux ] ||
	die "this kernel has no BTF (/sys/kernel/btf/vmlinux), which the bpf backend's program is built against: run the lane on a kernel with CONFIG_DEBUG_INFO_BTF=y, or set PMUTOP_SKIP_EMULATED=1"
if cache_complete; then
	echo "emulated-pmu: cache $cache has $(xargs <"$cache/packages")"
else
	fill_cache
	echo "emulated-pmu: cached $(xargs <"$cache/packages")"
fi
