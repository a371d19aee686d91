#!/usr/bin/env bash
# Install everything the build, the QEMU boot and `make patches` need.
# Idempotent: when every package is already installed (dpkg -s) it returns
# at once without touching apt.  Needs root (or sudo) only when installing.
set -euo pipefail

PKGS=(
	build-essential perl bc bison flex libelf-dev libssl-dev dwarves
	cpio kmod rsync python3 xz-utils gzip git ccache
	qemu-system-x86 busybox-static
	gdb	# make hit-trace
	# tests/guest/tests.d/tools.sh: the guest runs these host tools from
	# the host's / over virtio-9p (scripts/qemu-run.sh).
	linux-perf bpftrace
)
# make matrix only (DEPS_MATRIX=1): Debian's kernel configs, clang/lld,
# sparse, the cross compilers of the <arch>-defconfig lines.
if [ "${DEPS_MATRIX:-0}" = 1 ]; then
	PKGS+=(linux-config-6.12 clang-14 lld-14 llvm-14 gcc-aarch64-linux-gnu sparse
		gcc-riscv64-linux-gnu gcc-arm-linux-gnueabihf gcc-powerpc64le-linux-gnu
		gcc-s390x-linux-gnu gcc-mips-linux-gnu gcc-sparc64-linux-gnu
		gcc-sh4-linux-gnu gcc-arc-linux-gnu gcc-hppa-linux-gnu)
fi
# make compile-check (DEPS_COMPILE=1): the cross compilers it uses.
if [ "${DEPS_COMPILE:-0}" = 1 ]; then
	PKGS+=(gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu gcc-powerpc64le-linux-gnu
		gcc-s390x-linux-gnu)
fi
# make kunit-py ARCH=...: the cross compiler and QEMU of that architecture.
case ${ARCH:-x86_64} in
# make test ARCH=arm64 also links the guest's programs statically
# against the cross libc.
arm64) PKGS+=(gcc-aarch64-linux-gnu qemu-system-arm libc6-dev-arm64-cross) ;;
riscv) PKGS+=(gcc-riscv64-linux-gnu qemu-system-misc qemu-system-data) ;;
# powerpc: one compiler for ppc64 big- and little-endian (-mbig-endian).
powerpc | ppc64le) PKGS+=(gcc-powerpc64le-linux-gnu qemu-system-ppc qemu-system-data) ;;
s390) PKGS+=(gcc-s390x-linux-gnu qemu-system-s390x qemu-system-data) ;;
esac
# The base kernel is pinned: bookworm-security moves linux-source-6.12 to
# newer stable releases, and the glue patches are made against this one.
# KERNEL_SOURCE_VERSION= (empty) takes whatever the archive has.
KSRC_PKG=linux-source-6.12
KSRC_VERSION=${KERNEL_SOURCE_VERSION-6.12.117-1~deb12u1}

# The arm64 guest's busybox: Debian's busybox-static for arm64, unpacked
# into build/tools (installing it would replace the host's own).
BUSYBOX_ARM64=$(cd "$(dirname "$0")/.." && pwd)/build/tools/busybox-arm64
fetch_busybox_arm64() {
	[ "${ARCH:-x86_64}" = arm64 ] || return 0
	[ -x "$BUSYBOX_ARM64/bin/busybox" ] && return 0
	echo "[deps] fetching busybox-static:arm64" >&2
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		$SUDO dpkg --add-architecture arm64
		$SUDO apt-get -qq update >/dev/null
	fi
	local tmp
	tmp=$(mktemp -d)
	chmod 777 "$tmp"	# apt's download user writes there
	if ! (cd "$tmp" && apt-get -qq download busybox-static:arm64 >/dev/null 2>&1); then
		$SUDO apt-get -qq update >/dev/null
		(cd "$tmp" && apt-get -qq download busybox-static:arm64 >/dev/null)
	fi
	rm -rf "$BUSYBOX_ARM64"
	mkdir -p "$BUSYBOX_ARM64"	# a fresh clone has no build/ yet
	dpkg-deb -x "$tmp"/busybox-static_*_arm64.deb "$BUSYBOX_ARM64"
	rm -rf "$tmp"
}
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

missing=()
for p in "${PKGS[@]}"; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
have=$(dpkg-query -W -f='${Status} ${Version}' "$KSRC_PKG" 2>/dev/null || true)
case $have in
	"install ok installed ${KSRC_VERSION}"*) ;;
	"install ok installed "*) [ -z "$KSRC_VERSION" ] || missing+=("$KSRC_PKG=$KSRC_VERSION") ;;
	*) missing+=("$KSRC_PKG${KSRC_VERSION:+=$KSRC_VERSION}") ;;
esac
if [ ${#missing[@]} -eq 0 ]; then
	fetch_busybox_arm64
	exit 0
fi

echo "[deps] installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt_install() {
	$SUDO apt-get -qq install -y --no-install-recommends --allow-downgrades "$@" >/dev/null
}
# A fresh machine has no package lists yet.
$SUDO apt-get -qq update >/dev/null
if ! apt_install "${missing[@]}"; then
	# The pinned kernel source may have left the archive: take the current
	# one rather than nothing (prepare-tree prints the base version used).
	echo "[deps] WARNING: $KSRC_PKG=$KSRC_VERSION not installable; using the archive's version" >&2
	apt_install "${missing[@]/%=*/}"
fi
fetch_busybox_arm64
echo "[deps] done" >&2
