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
# the arm64 cross compiler, sparse.
if [ "${DEPS_MATRIX:-0}" = 1 ]; then
	PKGS+=(linux-config-6.12 clang-14 lld-14 llvm-14 gcc-aarch64-linux-gnu sparse)
fi
# make kunit-py ARCH=...: the cross compiler and QEMU of that architecture.
case ${ARCH:-x86_64} in
arm64) PKGS+=(gcc-aarch64-linux-gnu qemu-system-arm) ;;
riscv) PKGS+=(gcc-riscv64-linux-gnu qemu-system-misc qemu-system-data) ;;
esac
# The base kernel is pinned: bookworm-security moves linux-source-6.12 to
# newer stable releases, and the glue patches are made against this one.
# KERNEL_SOURCE_VERSION= (empty) takes whatever the archive has.
KSRC_PKG=linux-source-6.12
KSRC_VERSION=${KERNEL_SOURCE_VERSION-6.12.117-1~deb12u1}

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
[ ${#missing[@]} -eq 0 ] && exit 0

echo "[deps] installing: ${missing[*]}" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
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
echo "[deps] done" >&2
