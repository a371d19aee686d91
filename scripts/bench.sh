#!/usr/bin/env bash
# make bench: side-by-side kprobes benchmark, our rewrite vs the stock kernel.
#
# For each flavor: make sure the kernel is built (make kernel), build the
# test initramfs (scripts/mkinitramfs.sh), build tests/bench/ as an external
# module against that kernel (in build/bench-$FLAVOR) and append it, as a
# second cpio archive, to a copy of the initramfs
# (build/initramfs-bench-$FLAVOR.cpio.gz; the kernel unpacks concatenated
# archives in order).  Then boot each kernel with kpmode=bench, alternating
# ours/incumbent, BENCH_RUNS rounds (default 3), with the QEMU command line
# of scripts/qemu-run.sh, and print the table of scripts/bench-table.py
# (also written to out/bench.md).
#
#   BENCH_RUNS=1        one round (quick check)
#   BENCH_TIMEOUT=3600  seconds per boot before QEMU is killed (the stock
#                       kernel needs ~30 min for the 10000-probe runs)
#   BENCH_MODARGS=...   module parameters: reps=3 target_ms=250
#                       counts=2000,10000 (attach-cost probe counts)
#                       skip=GROUP,... / only=GROUP,... with the groups
#                       hit (hit cost), sleepers (kretprobe at the default
#                       maxactive on a sleeping function, sleepers=N kthreads
#                       inside at once (64 by default): returns seen and
#                       nmissed, counts), nest (a hard-irq timer's probe hit
#                       while another probe's handler spins on its CPU,
#                       nest_ms=4000 per variant: calls, handler runs and
#                       nmissed, counts) and
#                       attach; e.g. BENCH_MODARGS=only=sleepers runs that
#                       case alone (a few seconds per boot)
#                       funcs=1000,50000: also register/unregister that
#                       many traceable functions of vmlinux by name, one
#                       batch each (the guest lists them; a kernel over
#                       funcs_budget_s=120 at the pace of the count before
#                       is not run)
#   BENCH_SKIP_BUILD=1  reuse the kernels, modules and test initramfs built
#                       by a previous run (the bench initramfs is written
#                       again: it carries this run's BENCH_MODARGS)
#   BENCH_PREPARE_ONLY=1  build kernels, module and initramfs, boot nothing
#                       (scripts/hit-trace.sh uses it)
#   BENCH_FLAVORS=...   subset/order of "ours incumbent" (for debugging)
#   BENCH_CONFIG=debug  measure the test kernels (KASAN, lockdep, ...)
#                       instead of the default "release" ones: the same
#                       config without configs/debug.config, built apart
#                       in build/obj-$FLAVOR-release
#   BENCH_CONFIG=kunit  the kernels kunit.py would build (configs/kunit.config
#                       over Kconfig's defaults: PREEMPT_DYNAMIC, call-depth
#                       tracking, ...), in build/obj-$FLAVOR-kunit
#   KERNEL_APPEND=...   more kernel parameters for both kernels; with
#   BENCH_TAG=NAME      the result page is bench-$BENCH_CONFIG-NAME.md
#                       (e.g. BENCH_TAG=nospec KERNEL_APPEND=spectre_v2=off:
#                       indirect calls without retpolines), so that the
#                       page of the plain run stays what it is
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ "$ARCH" = x86_64 ] || die "x86_64 only (ARCH=$ARCH)"

RUNS=${BENCH_RUNS:-3}
TIMEOUT=${BENCH_TIMEOUT:-3600}
read -r -a FLAVORS <<<"${BENCH_FLAVORS:-ours incumbent}"
export VARIANT=${BENCH_CONFIG:-release}
PAGE=bench-$VARIANT${BENCH_TAG:+-$BENCH_TAG}
[ -z "${KERNEL_APPEND:-}" ] || [ -n "${BENCH_TAG:-}" ] ||
	die "KERNEL_APPEND changes what is measured: name the run with BENCH_TAG"
case $VARIANT in debug) VSUFFIX= ;; *) VSUFFIX=-$VARIANT ;; esac
MAKEVARS=(ARCH=x86_64 "CC=ccache gcc" KBUILD_BUILD_USER=kprobes KBUILD_BUILD_HOST=qemu LOCALVERSION=)
LOGDIR=$BUILD/bench-logs

# The module, built against FLAVOR's kernel, in build/bench-$FLAVOR.
build_module() {
	local f=$1 src obj dir=$BUILD/bench-$1$VSUFFIX blog=$BUILD/build-bench-$1$VSUFFIX.log
	if [ "$f" = ours ]; then src=$BUILD/linux; else src=$PRISTINE; fi
	obj=$BUILD/obj-$f$VSUFFIX
	mkdir -p "$dir"
	rsync -c "$ROOT"/tests/bench/* "$dir"/
	log "building tests/bench against the $f kernel"
	if ! make -C "$src" O="$obj" "${MAKEVARS[@]}" -s -j2 M="$dir" modules >"$blog" 2>&1; then
		tail -n 30 "$blog" >&2
		die "tests/bench does not build against the $f kernel"
	fi
	grep -E 'warning:' "$blog" >&2 || true
}

# build/initramfs-bench-$f.cpio.gz = the test initramfs + /bench/.
build_initramfs() {
	local f=$1 st=$BUILD/initramfs-bench-$1$VSUFFIX.d out=$BUILD/initramfs-bench-$1$VSUFFIX.cpio.gz
	rm -rf "$st"
	mkdir -p "$st"
	cp "$BUILD/bench-$f$VSUFFIX/kprobes_bench.ko" "$st/kprobes_bench.ko"
	strip --strip-debug "$st/kprobes_bench.ko"
	printf '%s\n' "${BENCH_MODARGS:-}" >"$st/args"
	{
		echo "dir /bench 755 0 0"
		echo "file /bench/kprobes_bench.ko $st/kprobes_bench.ko 644 0 0"
		echo "file /bench/args $st/args 644 0 0"
	} >"$st.list"
	[ -x "$BUILD/tools/gen_init_cpio" ] || die "no gen_init_cpio (scripts/mkinitramfs.sh builds it)"
	{
		cat "$BUILD/initramfs-$f$VSUFFIX.cpio.gz"
		"$BUILD/tools/gen_init_cpio" "$st.list" | gzip -6 -n
	} >"$out.tmp"
	mv "$out.tmp" "$out"
}

prepare() {
	local f
	for f in "${FLAVORS[@]}"; do
		log "== $f: kernel"
		make -C "$ROOT" --no-print-directory kernel FLAVOR="$f"
		FLAVOR=$f "$ROOT/scripts/mkinitramfs.sh"
		build_module "$f"
		build_initramfs "$f"
	done
}

# Same machine as scripts/qemu-run.sh (TCG single-threaded, -smp 2, 2G).
boot() {
	local f=$1 run=$2 logf=$LOGDIR/console-$1-$2.log rc=0 t0
	t0=$(date +%s)
	log "run $run/$RUNS: booting $f kpmode=bench (timeout ${TIMEOUT}s); console: ${logf#"$ROOT"/}"
	: >"$logf"
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
		-accel tcg,thread=single \
		-smp 2 -m 2G \
		-cpu "${QEMU_CPU:-max}" \
		-display none -no-reboot -nic none \
		-kernel "$BUILD/obj-$f$VSUFFIX/arch/x86/boot/bzImage" \
		-initrd "$BUILD/initramfs-bench-$f$VSUFFIX.cpio.gz" \
		-append "console=ttyS0 ignore_loglevel panic=-1 kpmode=bench kpreboot=1 ${KERNEL_APPEND:-}" \
		-monitor none -serial "file:$logf" </dev/null || rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "=== QEMU TIMEOUT after ${TIMEOUT}s ===" | tee -a "$logf" >&2
	elif [ $rc -ne 0 ]; then
		log "QEMU exited with status $rc"
	fi
	grep -q '=== BENCH DONE ===' "$logf" || log "WARNING: no '=== BENCH DONE ===' in ${logf#"$ROOT"/}"
	log "$f run $run: $(grep -ac 'BENCH [a-z]' "$logf" || true) BENCH lines in $(elapsed "$t0")"
}

config_words() {
	local w
	case $VARIANT in
	kunit) w="Kconfig defaults + configs/kunit.config (as kunit.py configures x86_64)" ;;
	debug) w="tinyconfig + configs/base.config + configs/debug.config" ;;
	*) w="tinyconfig + configs/base.config" ;;
	esac
	echo "$w${KERNEL_APPEND:+; both kernels booted with $KERNEL_APPEND}"
}

main() {
	local t0 run f
	t0=$(date +%s)
	if [ "${BENCH_SKIP_BUILD:-0}" = 1 ]; then
		for f in "${FLAVORS[@]}"; do
			build_initramfs "$f"
		done
	else
		prepare
	fi
	[ "${BENCH_PREPARE_ONLY:-0}" = 1 ] && return
	rm -rf "$LOGDIR"
	mkdir -p "$LOGDIR" "$ROOT/out"
	for run in $(seq 1 "$RUNS"); do
		for f in "${FLAVORS[@]}"; do
			boot "$f" "$run"
		done
	done
	python3 "$ROOT/scripts/bench-table.py" \
		--version "$(kernel_version_of "$PRISTINE")" --runs "$RUNS" \
		--config "$VARIANT" \
		--out "$ROOT/out/bench.md" \
		--ours $(ls "$LOGDIR"/console-ours-*.log 2>/dev/null) \
		--incumbent $(ls "$LOGDIR"/console-incumbent-*.log 2>/dev/null)
	python3 "$ROOT/scripts/results.py" write "$PAGE" \
		--title "make bench: ours against the stock 6.12 kprobes, $VARIANT config" \
		--config "$VARIANT: $(config_words); QEMU TCG -smp 2, one boot per kernel and round, $RUNS rounds, alternating" \
		--body "$ROOT/out/bench.md" --took $(($(date +%s) - t0)) \
		--command "BENCH_RUNS=$RUNS BENCH_CONFIG=$VARIANT${BENCH_TAG:+ BENCH_TAG=$BENCH_TAG}${KERNEL_APPEND:+ KERNEL_APPEND='$KERNEL_APPEND'}${BENCH_MODARGS:+ BENCH_MODARGS='$BENCH_MODARGS'} scripts/bench.sh" || true
	log "done in $(elapsed "$t0"); table in out/bench.md and docs/results/$PAGE.md, consoles in ${LOGDIR#"$ROOT"/}"
}

main "$@"
