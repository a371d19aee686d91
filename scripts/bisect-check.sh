#!/usr/bin/env bash
# make bisect-check: the series is bisectable for real.  After every patch
# of `make patches`, build the kernel (debug config: full bzImage +
# modules) and boot it under QEMU to run the tests present at that point:
# the KUnit suites and lib/test_kprobes that the tree has then, not the
# guest scripts (kernel command line kpscripts=0), which test the whole
# series.  A step is green when it builds and no test fails.  The config
# is the one make test uses; options a step does not offer yet (OPTPROBES
# before the optimizer, ...) are left out (CONFIG_CHECK=warn).
#
# BISECT_QUICK=1 only compiles what the series touches (our directories
# and the in-tree users of the kprobes API) at every step, in a
# configured tree: minutes per step instead of an hour.
# BISECT_FROM=n / BISECT_TO=m limit the steps (1-based, inclusive).
#
# Work tree: build/bisect-work (a clone of the series repo that `make
# patches` leaves in build/series-work); objects: build/obj-bisect; the
# table goes to out/bisect-check.md, one row per patch, and to the result
# page docs/results/bisect-check.md (bisect-check-quick.md with
# BISECT_QUICK=1; scripts/results.py).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ "$ARCH" = x86_64 ] || die "x86_64 only (ARCH=$ARCH)"
T_START=$(date +%s)

SERIES_REPO=$BUILD/series-work
WORK=$BUILD/bisect-work
BOBJ=$BUILD/obj-bisect
OUTDIR=$BUILD/bisect
TABLE=$ROOT/out/bisect-check.md
QUICK=${BISECT_QUICK:-0}
# What a quick step compiles: everything the series changes that has
# objects, and the API's users outside it.
QUICK_TARGETS=(kernel/kprobes/ arch/x86/kernel/kprobes/ samples/kprobes/
	kernel/trace/trace_kprobe.o kernel/trace/bpf_trace.o kernel/extable.o
	kernel/fail_function.o kernel/events/uprobes.o lib/test_kprobes.o
	arch/x86/kernel/unwind_orc.o)

bmake() { make -C "$WORK" O="$BOBJ" ARCH=x86_64 "CC=ccache gcc" "$@"; }

# 1. The work tree, at the series `make patches` just committed.
setup_work() {
	if [ ! -d "$WORK/.git" ]; then
		git clone -q --no-checkout "$SERIES_REPO" "$WORK"
		git -C "$WORK" config gc.auto 0
	fi
	git -C "$WORK" fetch -q --force origin \
		+refs/heads/series:refs/heads/bisect-series \
		+refs/tags/pristine:refs/tags/pristine
}

# 2a. Full step: build and install, initramfs, boot, summary.
full_step() {  # full_step N; prints "build|tests" fields
	local n=$1 dir=$OUTDIR/$1 sum
	if ! KSRC=$WORK KOBJ=$BOBJ KMODROOT=$dir/modroot FLAVOR=ours CONFIG_CHECK=warn \
		"$ROOT/scripts/build-kernel.sh" >"$dir/build.out" 2>&1; then
		echo "FAIL|-"
		return
	fi
	if ! KOBJ=$BOBJ KMODROOT=$dir/modroot KINITRAMFS=$dir/initramfs.cpio.gz \
		"$ROOT/scripts/mkinitramfs.sh" >>"$dir/build.out" 2>&1; then
		echo "ok|initramfs failed"
		return
	fi
	KOBJ=$BOBJ KINITRAMFS=$dir/initramfs.cpio.gz KCONSOLE=$dir/console.log \
		KERNEL_APPEND=kpscripts=0 HOSTROOT=0 BOOT_PROBE=0 \
		"$ROOT/scripts/qemu-run.sh" test >>"$dir/build.out" 2>&1 || true
	python3 "$ROOT/scripts/ktap-summary.py" "$dir/console.log" >"$dir/summary.txt" 2>&1 || true
	sum=$(tail -n 1 "$dir/summary.txt")
	if [[ $sum =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
		echo "ok|${BASH_REMATCH[1]}/${BASH_REMATCH[2]}/${BASH_REMATCH[4]:-0}"
	else
		echo "ok|no summary"
	fi
	rm -rf "$dir/modroot" "$dir/initramfs.cpio.gz"
}

# 2b. Quick step: compile the touched directories in a configured tree.
quick_step() {  # quick_step N
	local dir=$OUTDIR/$1
	if [ ! -f "$BOBJ/.config" ]; then
		mkdir -p "$BOBJ"
		KSRC=$WORK KOBJ=$BOBJ FLAVOR=ours BUILD_ONLY=1 CONFIG_CHECK=warn \
			"$ROOT/scripts/build-kernel.sh" >"$dir/build.out" 2>&1 ||
			{ echo "FAIL|-"; return; }
	fi
	if bmake -k -j"$NPROC" "${QUICK_TARGETS[@]}" >"$dir/build.out" 2>&1; then
		echo "ok|not run"
	else
		echo "FAIL|not run"
	fi
}

main() {
	local -a commits
	local i n from to t0 subject res build tests warn failed=0

	[ -d "$SERIES_REPO/.git" ] || die "no series: run make patches first"
	setup_work
	mapfile -t commits < <(git -C "$WORK" rev-list --reverse pristine..bisect-series)
	[ ${#commits[@]} -gt 0 ] || die "the series is empty"
	from=${BISECT_FROM:-1} to=${BISECT_TO:-${#commits[@]}}
	mkdir -p "$OUTDIR" "$(dirname "$TABLE")"
	{
		echo "| # | patch | build | warnings of ours | tests (P/F/S) | time |"
		echo "|---|---|---|---|---|---|"
	} >"$OUTDIR/rows.md"
	for ((i = from; i <= to; i++)); do
		n=$i
		mkdir -p "$OUTDIR/$n"
		git -C "$WORK" checkout -q -f "${commits[i - 1]}"
		subject=$(git -C "$WORK" log -1 --format=%s)
		log "[$n/${#commits[@]}] $subject"
		t0=$(date +%s)
		if [ "$QUICK" = 1 ]; then res=$(quick_step "$n"); else res=$(full_step "$n"); fi
		build=${res%%|*} tests=${res#*|}
		warn=$(grep -E 'warning:' "$OUTDIR/$n/build.out" 2>/dev/null |
			grep -cE '(kernel/kprobes/|arch/x86/kernel/kprobes/|include/linux/kprobes|samples/kprobes/)' || true)
		case $build/$tests in
			ok/"not run"|ok/*/0/*) ;;
			*) failed=$((failed + 1)) ;;
		esac
		[ "$warn" -eq 0 ] || failed=$((failed + 1))
		echo "| $n | ${subject//|/\\|} | $build | $warn | $tests | $(elapsed "$t0") |" >>"$OUTDIR/rows.md"
		log "   build $build, $warn warnings of ours, tests $tests, $(elapsed "$t0")"
	done
	{
		echo "make bisect-check$([ "$QUICK" = 1 ] && echo " (BISECT_QUICK=1: compile only)"), $(date -u +%Y-%m-%d), project ${RESULT_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD)}, steps $from-$to"
		echo
		cat "$OUTDIR/rows.md"
	} >"$TABLE"
	cat "$TABLE"
	if [ "$QUICK" = 1 ]; then
		page=bisect-check-quick what="compile what the series touches (our directories, samples, the API's in-tree users)"
	else
		page=bisect-check what="build the kernel, boot it under QEMU TCG -smp 2, run the KUnit suites and lib/test_kprobes present"
	fi
	python3 "$ROOT/scripts/results.py" write "$page" \
		--title "make bisect-check: after each patch of the series, $what" \
		--config "debug (make test's config; options a step does not have yet left out)" \
		--body "$TABLE" --took $(($(date +%s) - T_START)) \
		--command "BISECT_QUICK=$QUICK scripts/bisect-check.sh" || true
	log "$failed step(s) not green"
	[ "$failed" -eq 0 ]
}

main "$@"
