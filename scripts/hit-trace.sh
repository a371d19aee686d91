#!/usr/bin/env bash
# make hit-trace: where the instructions of one probe hit go, ours vs stock.
#
# The benchmark says how long a hit takes; this says why.  For each mode
# and flavor it boots the release kernel that make bench measures, on one
# CPU with QEMU's gdb stub and without KASLR, loads tests/bench/ with
# spin=MODE (one probe, its target called in a loop), and lets gdb
# single-step from one entry of the target to the next: one whole call,
# the hit included.  scripts/hit-trace.py then names the function of each
# instruction and counts instructions and memory accesses (what TCG
# charges most for) per function, side by side.  A second boot per mode
# and flavor, without gdb, logs the blocks TCG translates on the pages
# the call went through, so that hit-trace.py can count the host
# instructions QEMU runs for the call.
#
#   TRACE_MODES="b k f o"  modes of tests/bench/ (see kpb_spin(); ko too)
#   TRACE_STEPS=2000       instructions gdb records per boot (> one call;
#                          the debug kernels need ~20000)
#   TRACE_CONFIG=release   or debug, kunit: the kernels of that make bench
#                          config (the result page is hit-trace-CONFIG.md
#                          for those two)
#
# Traces, TCG logs and tables go to build/hit-trace-release/ (-kunit/,
# or build/hit-trace/ for the debug kernels).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ "$ARCH" = x86_64 ] || die "x86_64 only (ARCH=$ARCH)"

MODES=${TRACE_MODES:-b k f o}
STEPS=${TRACE_STEPS:-2000}
export BENCH_CONFIG=${TRACE_CONFIG:-release}
case $BENCH_CONFIG in
	release) SFX=-release PAGE=hit-trace
		CONFDESC="release: tinyconfig + configs/base.config" ;;
	kunit) SFX=-kunit PAGE=hit-trace-kunit
		CONFDESC="kunit: kunit.py's x86_64 defaults + configs/kunit.config" ;;
	debug) SFX='' PAGE=hit-trace-debug
		CONFDESC="debug: tinyconfig + configs/base.config + configs/debug.config" ;;
	*) die "TRACE_CONFIG must be release, debug or kunit" ;;
esac
DIR=$BUILD/hit-trace$SFX

command -v gdb >/dev/null || die "gdb is needed (scripts/deps.sh installs it)"

# Boot $1's kernel with the initramfs $2 on one CPU, console to $3, more
# QEMU options after those; wait until the module has started spinning.
# Sets qpid; stop_boot ends it.
start_boot() {
	local f=$1 initrd=$2 con=$3
	shift 3
	: >"$con"
	qemu-system-x86_64 -accel tcg,thread=single -smp 1 -m 2G -cpu "${QEMU_CPU:-max}" \
		-display none -no-reboot -nic none "$@" \
		-kernel "$BUILD/obj-$f$SFX/arch/x86/boot/bzImage" -initrd "$initrd" \
		-append "console=ttyS0 ignore_loglevel panic=-1 kpmode=bench nokaslr" \
		-monitor none -serial "file:$con" </dev/null &
	qpid=$!
	for _ in $(seq 300); do
		grep -aq 'BENCH-SPIN\|BENCH-ERROR' "$con" && break
		sleep 1
	done
}

stop_boot() {
	kill "$qpid" 2>/dev/null || true
	wait "$qpid" 2>/dev/null || true
}

# One boot: record $STEPS program counters into $DIR/$f-$m.pcs.
trace_one() {
	local f=$1 m=$2 st=$DIR/$1-$2 port con fn qpid
	rm -rf "$st" "$DIR/$f-$m.pcs".*.bin && mkdir -p "$st"
	cp "$BUILD/bench-$f$SFX/kprobes_bench.ko" "$st/"
	strip --strip-debug "$st/kprobes_bench.ko"
	echo "spin=$m" >"$st/args"
	printf '%s\n' "dir /bench 755 0 0" \
		"file /bench/kprobes_bench.ko $st/kprobes_bench.ko 644 0 0" \
		"file /bench/args $st/args 644 0 0" >"$st.list"
	{ cat "$BUILD/initramfs-$f$SFX.cpio.gz"; "$BUILD/tools/gen_init_cpio" "$st.list" | gzip -6 -n; } >"$st.cpio.gz"

	port=$((20000 + RANDOM % 20000))
	con=$st.console.log
	start_boot "$f" "$st.cpio.gz" "$con" -gdb "tcp:127.0.0.1:$port"
	fn=$(sed -n 's/.*BENCH-SPIN [a-z]* fn=\([0-9a-f]*\).*/\1/p' "$con" | head -n 1)
	if [ -z "$fn" ]; then
		stop_boot
		die "$f $m: no BENCH-SPIN line (see ${con#"$ROOT"/})"
	fi
	TRACE_OUT=$DIR/$f-$m.pcs TRACE_FN=$fn TRACE_STEPS=$STEPS \
		timeout 1200 gdb -q -batch -nx "$BUILD/obj-$f$SFX/vmlinux" \
		-ex "target remote 127.0.0.1:$port" -x "$ROOT/scripts/hit-trace-gdb.py" \
		>"$st.gdb.log" 2>&1 || log "$f $m: gdb said $(tail -n 1 "$st.gdb.log")"
	stop_boot
	tcg_one "$f" "$m"
}

# A second boot, without gdb (which makes TCG translate one instruction
# per block): TCG's log of the blocks it translates on the pages the
# call went through, guest code and the host code generated for it, for
# hit-trace.py to count the host instructions of one call.
tcg_one() {
	local f=$1 m=$2 st=$DIR/$1-$2 pages qpid
	# Pages of the call's instructions (16 hex digits; the last three the offset).
	pages=$(cut -c1-13 "$DIR/$f-$m.pcs" | sort -u | sed 's/.*/0x&000+0x1000/' | paste -sd,)
	rm -f "$st.tcg.log"
	start_boot "$f" "$st.cpio.gz" "$st.tcg-console.log" \
		-d in_asm,out_asm -dfilter "$pages" -D "$st.tcg.log"
	sleep 2		# the loop has run its blocks
	stop_boot
}

main() {
	local m f t0
	t0=$(date +%s)
	BENCH_PREPARE_ONLY=1 "$ROOT/scripts/bench.sh"
	mkdir -p "$DIR"
	for m in $MODES; do
		for f in ours incumbent; do
			log "tracing mode $m on $f"
			trace_one "$f" "$m"
		done
		python3 "$ROOT/scripts/hit-trace.py" --build "$BUILD" --suffix="$SFX" --mode "$m" | tee "$DIR/$m.txt"
	done
	# The tables, one per mode, as the result page docs/results/hit-trace.md.
	{
		echo "Instructions and memory accesses per function of one call of the"
		echo "probed function, hit included, single-stepped under QEMU's gdb stub"
		echo "($BENCH_CONFIG kernels, one CPU, no KASLR); \"(module code)\" is the"
		echo "benchmark module's and every buffer outside vmlinux: detours,"
		echo "trampolines, slots.  How to read it: docs/benchmark.md."
		for m in $MODES; do
			echo
			echo '```'
			cat "$DIR/$m.txt"
			echo '```'
		done
	} >"$DIR/page.md"
	python3 "$ROOT/scripts/results.py" write "$PAGE" \
		--title "make hit-trace: where the instructions of one hit go, ours and stock" \
		--config "$CONFDESC; QEMU TCG -smp 1, nokaslr, gdb single-step" \
		--body "$DIR/page.md" --took "$(($(date +%s) - t0))" \
		--command "TRACE_MODES='$MODES'${TRACE_CONFIG:+ TRACE_CONFIG=$TRACE_CONFIG} TRACE_STEPS=$STEPS scripts/hit-trace.sh" || true
}

main "$@"
