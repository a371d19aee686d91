#!/usr/bin/env bash
# Run the kprobes KUnit suites the kernel's standard way:
#
#   tools/testing/kunit/kunit.py run --arch=$ARCH --kunitconfig=kernel/kprobes
#
# ARCH is x86_64 (the default), i386, arm64, riscv, powerpc, ppc64le
# (kunit.py's powerpc config, little-endian) or s390; the others are cross
# built with Debian's cross compilers (CROSS_COMPILE, guessed from ARCH).
#
# in the FLAVOR's source tree, so everything is built in (=y): our suites,
# the kernel's own lib/test_kprobes.c and the module our module suite
# would load (those cases skip).  FLAVOR=incumbent uses our
# kernel/kprobes/.kunitconfig file on the stock tree, which has none.
#
# kunit.py builds out of tree in build/kunit-py-$FLAVOR (-$ARCH but for
# x86_64) and boots under QEMU with its own minimal config.  The whole
# output (kernel log and KTAP, --raw_output=all) goes to
# build/console-kunit-py-$FLAVOR(-$ARCH).log between the
# markers scripts/ktap-summary.py reads; the exit status is kunit.py's.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ARCH=${ARCH:-x86_64}
case $ARCH in
x86_64 | i386) CROSS_COMPILE=${CROSS_COMPILE-} ;;
arm64) CROSS_COMPILE=${CROSS_COMPILE-aarch64-linux-gnu-} ;;
riscv) CROSS_COMPILE=${CROSS_COMPILE-riscv64-linux-gnu-} ;;
# kunit.py's powerpc config is ppc64 big-endian ELFv2 (pseries, POWER8);
# the little-endian compiler builds it with -mbig-endian.
powerpc) CROSS_COMPILE=${CROSS_COMPILE-powerpc64le-linux-gnu-} ;;
# ppc64le: the same config, little-endian (kunit.py --arch=powerpc).
ppc64le)
	CROSS_COMPILE=${CROSS_COMPILE-powerpc64le-linux-gnu-}
	KUNIT_ARCH=powerpc KCONFIG_ADD=CONFIG_CPU_LITTLE_ENDIAN=y ;;
# s390: kunit.py's s390x config, with the stock s390 kprobes suite.
s390)
	CROSS_COMPILE=${CROSS_COMPILE-s390x-linux-gnu-}
	KCONFIG_ADD=CONFIG_S390_KPROBES_SANITY_TEST=y ;;
*) die "ARCH=$ARCH: kunit-py knows x86_64, i386, arm64, riscv, powerpc, ppc64le and s390" ;;
esac
KUNIT_ARCH=${KUNIT_ARCH:-$ARCH}
SUFFIX=$FLAVOR
[ "$ARCH" = x86_64 ] || SUFFIX=$FLAVOR-$ARCH
KDIR=$BUILD/kunit-py-$SUFFIX
LOG=$BUILD/console-kunit-py-$SUFFIX.log
# Ours: exactly the documented command (the patched tree has the file).
KUNITCONFIG=kernel/kprobes
[ "$FLAVOR" = ours ] || KUNITCONFIG=$ROOT/kernel/kprobes/.kunitconfig

main() {
	local t0 rc=0
	t0=$(date +%s)
	[ -f "$SRC/tools/testing/kunit/kunit.py" ] || die "no kunit.py in $SRC"
	mkdir -p "$KDIR"
	log "kunit.py run --arch=$KUNIT_ARCH${KCONFIG_ADD:+ --kconfig_add=$KCONFIG_ADD} --kunitconfig=kernel/kprobes in ${SRC#"$ROOT"/} (build: ${KDIR#"$ROOT"/}, log: ${LOG#"$ROOT"/})"
	{
		echo "=== KTAP BEGIN kunit.py ==="
		(cd "$SRC" && python3 tools/testing/kunit/kunit.py run \
			--arch="$KUNIT_ARCH" --kunitconfig="$KUNITCONFIG" \
			${KCONFIG_ADD:+--kconfig_add="$KCONFIG_ADD"} \
			${CROSS_COMPILE:+--cross_compile="$CROSS_COMPILE"} \
			--build_dir="$KDIR" --jobs="$NPROC" \
			--make_options "CC=ccache ${CROSS_COMPILE}gcc" \
			--qemu_args="-smp 2 -accel tcg,thread=single" \
			--timeout=1800 --raw_output=all 2>&1) || rc=$?
		echo "=== KTAP END kunit.py ==="
	} >"$LOG"
	# A warning while building (objtool, compiler) is a failed check;
	# QEMU's own (TCG lacks the pseries machine's default mitigation
	# capabilities) are not the build's.
	{
		echo "=== KTAP BEGIN kunit.py-build ==="
		echo "KTAP version 1"
		echo "1..1"
		if grep -E '(warning|error):|: Error:' "$LOG" | grep -v '^\[' |
			grep -v '^qemu-system-[a-z0-9_]*: warning: TCG doesn.t support' >"$KDIR/warnings.txt"; then
			sed 's/^/# /' "$KDIR/warnings.txt"
			echo "not ok 1 no_build_warnings"
		else
			echo "ok 1 no_build_warnings"
		fi
		echo "=== KTAP END kunit.py-build ==="
		[ $rc -ne 0 ] || echo "=== GUEST DONE ==="
	} >>"$LOG"
	grep -E '^ *(ok|not ok) [0-9]+ [a-z]' "$LOG" | grep -vE '^ {8}' | tail -n 40 >&2 || true
	log "kunit.py exit $rc in $(elapsed "$t0")"
	return $rc
}

main "$@"
