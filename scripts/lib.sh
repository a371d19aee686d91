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
VARIANT=${VARIANT:-debug}
case $VARIANT in
	debug) VSUFFIX= ;;
	release) VSUFFIX=-release ;;
	*) echo "VARIANT must be 'debug' or 'release', not '$VARIANT'" >&2; exit 2 ;;
esac
OBJ=${KOBJ:-$BUILD/obj-$FLAVOR$VSUFFIX}
MODROOT=${KMODROOT:-$BUILD/modroot-$FLAVOR$VSUFFIX}
INITRAMFS=${KINITRAMFS:-$BUILD/initramfs-$FLAVOR$VSUFFIX.cpio.gz}
STAMPS=$BUILD/stamps
# Top-level dirs of the project repo that mirror kernel-tree paths.
OVERLAY_DIRS=(arch include kernel lib samples Documentation mm init tools)
NPROC=$(nproc)
# The debug, kunit.py and matrix configs together outgrow ccache's default
# 5 GB; an evicted debug build would make the next `make test` cold.
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-40G}

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
