# Common helpers for the build/test scripts.  Source it, don't run it.
# shellcheck shell=bash

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build
PRISTINE=$BUILD/linux-src          # never modified; checker tools read it
FLAVOR=${FLAVOR:-ours}
case $FLAVOR in
	ours|incumbent) ;;
	*) echo "FLAVOR must be 'ours' or 'incumbent', not '$FLAVOR'" >&2; exit 2 ;;
esac

# The tree the kernel is built from: ours = pristine + removals + glue
# patches + overlay (a git repo); incumbent = the pristine tree itself.
# KSRC/KOBJ/KMODROOT override them (make-patches' BUILD_EACH builds the
# series work tree that way).
if [ "$FLAVOR" = ours ]; then SRC=$BUILD/linux; else SRC=$PRISTINE; fi
SRC=${KSRC:-$SRC}
# VARIANT=release: the same kernel without configs/debug.config, built
# apart (make bench uses it: the cost users would see, not KASAN's).
# VARIANT=kunit: the kernel kunit.py configures for x86_64 (olddefconfig
# from nothing but configs/kunit.config), for make bench BENCH_CONFIG=kunit.
VARIANT=${VARIANT:-debug}
case $VARIANT in
	debug) VSUFFIX= ;;
	release | kunit) VSUFFIX=-$VARIANT ;;
	*) echo "VARIANT must be 'debug', 'release' or 'kunit', not '$VARIANT'" >&2; exit 2 ;;
esac
# ARCH: the guest's architecture.  x86_64 (the default) keeps the plain
# names; another one builds and boots apart, in obj-$FLAVOR-$ARCH etc.
# (make test/run/shell/fuzz know arm64; make kunit-py knows more, on
# its own).
ARCH=${ARCH:-x86_64}
ASUFFIX=
[ "$ARCH" = x86_64 ] || ASUFFIX=-$ARCH
OBJ=${KOBJ:-$BUILD/obj-$FLAVOR$VSUFFIX$ASUFFIX}
MODROOT=${KMODROOT:-$BUILD/modroot-$FLAVOR$VSUFFIX$ASUFFIX}
INITRAMFS=${KINITRAMFS:-$BUILD/initramfs-$FLAVOR$VSUFFIX$ASUFFIX.cpio.gz}
STAMPS=$BUILD/stamps
# Top-level dirs of the project repo that mirror kernel-tree paths.
OVERLAY_DIRS=(arch include kernel lib samples Documentation mm init tools)
NPROC=$(nproc)
# The debug, kunit.py and matrix configs together outgrow ccache's default
# 5 GB; an evicted debug build would make the next `make test` cold.
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-40G}

# guest_arch: for the guest scripts, what an architecture needs.
#   KMAKEVARS  kbuild's ARCH=, CROSS_COMPILE= and CC=
#   KIMAGE     the boot image, relative to the build directory, and
#   KIMAGE_TARGET  the kbuild target that makes it
#   UCC        the C compiler for the guest's static programs
#   QEMU_SYS   the QEMU system emulator, QEMU_MACHINE its machine options
#   CONSOLE    the kernel's serial console
#   FRAGMENT   the config fragment after base.config (empty: none)
guest_arch() {
	case $ARCH in
	x86_64)
		KMAKEVARS=(ARCH=x86_64 "CC=ccache gcc")
		KIMAGE=arch/x86/boot/bzImage KIMAGE_TARGET=bzImage UCC=gcc
		QEMU_SYS=qemu-system-x86_64 QEMU_MACHINE=(-cpu "${QEMU_CPU:-max}")
		CONSOLE=ttyS0 FRAGMENT=
		;;
	arm64)
		KMAKEVARS=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
			"CC=ccache aarch64-linux-gnu-gcc")
		KIMAGE=arch/arm64/boot/Image KIMAGE_TARGET=Image
		UCC=aarch64-linux-gnu-gcc QEMU_SYS=qemu-system-aarch64
		# GICv3 and a CPU with pointer authentication, as current
		# arm64 servers have: the kernel then signs its return
		# addresses, which the return trampoline must respect.
		QEMU_MACHINE=(-machine virt,gic-version=3 -cpu "${QEMU_CPU:-max,pauth-impdef=on}")
		CONSOLE=ttyAMA0 FRAGMENT=$ROOT/configs/arm64.config
		;;
	*) die "ARCH=$ARCH: make test, run, shell and fuzz know x86_64 and arm64" ;;
	esac
}

log()  { printf '[%s] %s\n' "$(basename "$0" .sh)" "$*" >&2; }
die()  { printf '[%s] ERROR: %s\n' "$(basename "$0" .sh)" "$*" >&2; exit 1; }

# "Linux 6.12.117" from a tree's Makefile.
kernel_version_of() {
	awk -F' = ' '/^VERSION =/{v=$2} /^PATCHLEVEL =/{p=$2} /^SUBLEVEL =/{s=$2}
		/^EXTRAVERSION =/{e=$2; printf "Linux %s.%s.%s%s\n", v, p, s, e; exit}' "$1/Makefile"
}

# Overlay files of the project, relative to ROOT, sorted (no build dirs).
overlay_files() {
	local d
	for d in "${OVERLAY_DIRS[@]}"; do
		[ -d "$ROOT/$d" ] || continue
		(cd "$ROOT" && find "$d" -type f ! -name '*~' ! -name '.*.swp')
	done | LC_ALL=C sort
}

# sha256 of stdin, just the hex.
hash_stdin() { sha256sum | cut -d' ' -f1; }

# Print elapsed seconds since $1 (a `date +%s` value) as "Nm SSs".
elapsed() { local s=$(( $(date +%s) - $1 )); printf '%dm%02ds' $((s / 60)) $((s % 60)); }
export PATH="$PATH:/usr/sbin:/sbin"
# The kernel's make must not inherit the top-level make's flags (-n, -s,
# jobserver fds, FLAVOR=... as a make variable).
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
