#!/usr/bin/env bash
# make test / make kunit-py, after the build: the boots and kunit.py, one
# summary of all their logs (scripts/ktap-summary.py), and its result page
# docs/results/test-$FLAVOR.md or kunit-py-$FLAVOR(-$ARCH).md
# (scripts/results.py).
#
#   test.sh test      the test boot, the stuffing boot (STUFFING=0: not),
#                     kunit.py (KUNIT_PY=0: not); ARCH=arm64: the test
#                     boot of the arm64 kernel alone (make kunit-py
#                     ARCH=arm64 is the arm64 kunit.py run)
#   test.sh kunit-py  kunit.py alone; ARCH=i386|arm64|riscv for another
#                     architecture than x86_64
#
# A boot that crashes or times out is not an error here: the summary
# counts it as a failed test.  The exit status is the summary's.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

what=${1:-test}
ARCH=${ARCH:-x86_64}
export ARCH
if [ "$what" = test ] && [ "$ARCH" != x86_64 ]; then
	STUFFING=0 KUNIT_PY=0
fi
suffix=$FLAVOR
[ "$ARCH" = x86_64 ] || suffix=$FLAVOR-$ARCH
t0=$(date +%s)
logs=()
case $FLAVOR in ours) who="this series" ;; *) who="the stock 6.12 kprobes" ;; esac
case $what in
	test)
		"$ROOT/scripts/qemu-run.sh" test
		logs+=("build/console-test-$suffix.log")
		if [ "${STUFFING:-1}" = 1 ]; then
			"$ROOT/scripts/qemu-run.sh" stuffing
			logs+=("build/console-stuffing-$FLAVOR.log")
		fi
		if [ "$ARCH" = x86_64 ]; then
			config="tinyconfig + configs/base.config + configs/debug.config (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, PREEMPT); QEMU TCG -smp ${QEMU_SMP:-2}, -cpu ${QEMU_CPU:-max}"
		else
			config="$ARCH: tinyconfig + configs/base.config + configs/$ARCH.config + configs/debug.config (KASAN, lockdep, PROVE_RCU, DEBUG_ATOMIC_SLEEP, PREEMPT); QEMU TCG -smp ${QEMU_SMP:-2}, virt, -cpu ${QEMU_CPU:-max,pauth-impdef=on}"
		fi
		[ "${STUFFING:-1}" = 1 ] && config+="; then -cpu Skylake-Client-v1 retbleed=stuff spectre_v2=retpoline"
		title="make test: $who"
		[ "$ARCH" = x86_64 ] || title+=" on $ARCH"
		;;
	kunit-py)
		config="kunit.py's $ARCH defaults + kernel/kprobes/.kunitconfig, all built in; QEMU TCG -smp 2"
		title="make kunit-py: $who on $ARCH"
		;;
	*) die "usage: test.sh test|kunit-py" ;;
esac
# kunit.py configures and builds its kernel before it runs it: that is
# a build, not counted in the page's time any more than make's.  From an
# empty ccache it is nearly all of the time (i386: 1476 s building, 13 s
# running, on 2 CPUs shared with other builds).
kbuild=0
if [ "$what" = kunit-py ] || [ "${KUNIT_PY:-1}" = 1 ]; then
	"$ROOT/scripts/kunit-py.sh"
	logs+=("build/console-kunit-py-$suffix.log")
	[ "$what" = test ] && config+="; then kunit.py run --kunitconfig=kernel/kprobes (kunit.py's x86_64 defaults)"
	kbuild=$(sed -n 's/.*Elapsed time: [0-9.]*s total, \([0-9.]*\)s configuring, \([0-9.]*\)s building.*/\1 \2/p' \
		"$BUILD/console-kunit-py-$suffix.log" | awk '{ s += $1 + $2 } END { printf "%d", s }')
fi

cd "$ROOT" || exit 2
md=$BUILD/summary-$what-$suffix.md
python3 scripts/ktap-summary.py --markdown "$md" "${logs[@]}"
rc=$?
name=$what-$suffix
python3 scripts/results.py write "$name" --title "$title" --config "$config" \
	--body "$md" --took $(($(date +%s) - t0 - kbuild)) \
	--took-what "boots and kunit.py's runs; the builds before them not counted, kunit.py's $((kbuild / 60))m$((kbuild % 60))s" \
	--command "make $what"
exit $rc
