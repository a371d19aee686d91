#!/usr/bin/env bash
# make fuzz: random probes through kprobe_events, on our kernel and on the
# stock one, with the same specs, and one table of the outcome.
#
# For each seed of FUZZ_SEEDS, scripts/fuzz-specs.py picks FUZZ_N function
# entries and FUZZ_N function+offset specs (offset 1..96) from the System.map
# of every kernel in FUZZ_FLAVORS (the functions they share).  Each kernel
# boots (debug config: KASAN, lockdep, PROVE_RCU; TCG, -smp QEMU_SMP) with
# the specs appended to its test initramfs as /fuzz/specs and runs
# tests/guest/fuzz.sh: register every spec, enable them all for FUZZ_SECS
# while a workload runs on every vCPU and a loop flips
# debug.kprobes-optimization and toggles events, then remove them.
# scripts/fuzz-report.py compares the kernels and writes out/fuzz.md.
#
# Pass: on each kernel, no splat, the guest alive to the end, no fuzz probe
# left after removal; and our accepted/refused sets and errnos equal to the
# stock kernel's but for the documented differences (docs/testing.md).
#
# Defaults: FUZZ_SEEDS="0x5eed1 0x5eed2 0x5eed3" FUZZ_N=1000 FUZZ_SECS=60
# FUZZ_FLAVORS="ours incumbent".  The kernels come from make initramfs.
# ARCH=arm64: the arm64 kernels of make test ARCH=arm64, with the report
# in out/fuzz-arm64.md and the result page fuzz-arm64.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

FUZZ_SEEDS=${FUZZ_SEEDS:-"0x5eed1 0x5eed2 0x5eed3"}
FUZZ_N=${FUZZ_N:-1000}
FUZZ_SECS=${FUZZ_SECS:-60}
FUZZ_FLAVORS=${FUZZ_FLAVORS:-"ours incumbent"}
FDIR=$BUILD/fuzz
OUT=$ROOT/out/fuzz$ASUFFIX.md

obj_of() { echo "$BUILD/obj-$1$ASUFFIX"; }
initramfs_of() { echo "$BUILD/initramfs-$1$ASUFFIX.cpio.gz"; }

# build/fuzz/<seed>-<flavor>.cpio.gz = the flavor's test initramfs + /fuzz/.
fuzz_initramfs() {  # fuzz_initramfs FLAVOR SPECS OUT
	local st=${3%.cpio.gz}.list
	{
		echo "dir /fuzz 755 0 0"
		echo "file /fuzz/specs $2 644 0 0"
	} >"$st"
	{
		cat "$(initramfs_of "$1")"
		"$BUILD/tools/gen_init_cpio" "$st" | gzip -6 -n
	} >"$3.tmp"
	mv "$3.tmp" "$3"
}

main() {
	local f seed maps=() logs=() t0 rc=0
	t0=$(date +%s)
	mkdir -p "$FDIR" "$(dirname "$OUT")"
	for f in $FUZZ_FLAVORS; do
		[ -f "$(obj_of "$f")/System.map" ] || die "no $f kernel (make initramfs FLAVOR=$f)"
		[ -f "$(initramfs_of "$f")" ] || die "no $f initramfs (make initramfs FLAVOR=$f)"
		maps+=("$(obj_of "$f")/System.map")
	done
	[ -x "$BUILD/tools/gen_init_cpio" ] || die "no gen_init_cpio (scripts/mkinitramfs.sh builds it)"
	log "seeds: $FUZZ_SEEDS; N=$FUZZ_N entries + $FUZZ_N function+offset; ${FUZZ_SECS}s of load; kernels: $FUZZ_FLAVORS"
	for seed in $FUZZ_SEEDS; do
		python3 "$ROOT/scripts/fuzz-specs.py" "$seed" "$FUZZ_N" "${maps[@]}" >"$FDIR/specs-$seed.txt"
		for f in $FUZZ_FLAVORS; do
			log "seed $seed on $f"
			fuzz_initramfs "$f" "$FDIR/specs-$seed.txt" "$FDIR/$seed-$f$ASUFFIX.cpio.gz"
			FLAVOR=$f KINITRAMFS=$FDIR/$seed-$f$ASUFFIX.cpio.gz \
				KCONSOLE=$FDIR/console-$seed-$f$ASUFFIX.log \
				KERNEL_APPEND="fuzz_secs=$FUZZ_SECS ${KERNEL_APPEND:-}" \
				"$ROOT/scripts/qemu-run.sh" fuzz || true
			logs+=("$seed:$f:$FDIR/console-$seed-$f$ASUFFIX.log:$(obj_of "$f")")
		done
	done
	python3 "$ROOT/scripts/fuzz-report.py" --out "$OUT" \
		--title "\`make fuzz\` (FUZZ_SEEDS=\"$FUZZ_SEEDS\" FUZZ_N=$FUZZ_N FUZZ_SECS=$FUZZ_SECS), $(date -u '+%Y-%m-%d'), commit ${RESULT_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD)}, $(kernel_version_of "$PRISTINE"), $ARCH, debug config, -smp ${QEMU_SMP:-2}, $(elapsed "$t0")" \
		"${logs[@]}" || rc=$?
	python3 "$ROOT/scripts/results.py" write "fuzz$ASUFFIX" \
		--title "make fuzz: random probes through kprobe_events, this series and the stock kernel$([ "$ARCH" = x86_64 ] || echo " on $ARCH")" \
		--config "$ARCH, debug (make test's kernels), QEMU TCG -smp ${QEMU_SMP:-2}; FUZZ_SEEDS=\"$FUZZ_SEEDS\" FUZZ_N=$FUZZ_N FUZZ_SECS=$FUZZ_SECS" \
		--body "$OUT" --took $(($(date +%s) - t0)) \
		--command "FUZZ_SEEDS='$FUZZ_SEEDS' FUZZ_N=$FUZZ_N FUZZ_SECS=$FUZZ_SECS scripts/fuzz.sh" || true
	return "$rc"
}

main "$@"
