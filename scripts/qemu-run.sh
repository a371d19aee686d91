#!/usr/bin/env bash
# Boot the FLAVOR kernel + initramfs under QEMU (TCG) in MODE
# test|stuffing|run|shell|fuzz (fuzz: scripts/fuzz.sh gives it the
# initramfs).
#
# stuffing: the KUnit suites again (no guest scripts), with the return
# thunk of call-depth tracking in force: an Intel CPU model that has the
# retbleed bug (QEMU_CPU, Skylake-Client-v1 by default) and
# retbleed=stuff spectre_v2=retpoline.  Under it every RET changes the
# arithmetic flags, which a probe must not let reach the probed code.
# The guest checks that the kernel really chose stuffing.
#
# The whole console goes to build/console-MODE-FLAVOR.log.  run and shell
# stream it; test shows only the guest's markers (VERBOSE=1: everything).
# A hard timeout (TIMEOUT seconds; test: 2400, 5400 on arm64, run: 900,
# fuzz: 3600, shell: none) kills
# QEMU; that, or any non-zero QEMU exit, makes this script fail.
# HOSTROOT=1 (default): test and shell also get the host's / read-only
# over virtio-9p (for tests.d/tools.sh, below).
#
# Always single-threaded TCG: multi-threaded TCG does not keep the other
# vCPU coherent with cross-CPU code patching (text_poke_bp), which is exactly
# what kprobes does.  -smp 2 still gives real SMP interleavings
# (QEMU_SMP=n: more vCPUs, taking turns on one host thread).
#
# ARCH=arm64 boots the arm64 kernel on QEMU's virt machine instead
# (scripts/lib.sh, guest_arch); it has no stuffing mode and no host /.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MODE=${1:-}
case $MODE in
	# An arm64 guest runs the same scripts at about half the speed.
	test) : "${TIMEOUT:=$([ "$ARCH" = x86_64 ] && echo 2400 || echo 5400)}" ;;
	stuffing) : "${TIMEOUT:=1500}" "${QEMU_CPU:=Skylake-Client-v1}" ;;
	run) : "${TIMEOUT:=900}" ;;
	shell) : "${TIMEOUT:=0}" ;;
	fuzz) : "${TIMEOUT:=3600}" ;;
	*) die "usage: qemu-run.sh test|stuffing|run|shell|fuzz" ;;
esac

guest_arch
[ "$MODE" != stuffing ] || [ "$ARCH" = x86_64 ] || die "stuffing is an x86 mode"
KERNEL=$OBJ/$KIMAGE
LOG=${KCONSOLE:-$BUILD/console-$MODE-$FLAVOR$ASUFFIX.log}
[ -f "$KERNEL" ] || die "no kernel: $KERNEL (make kernel FLAVOR=$FLAVOR)"
[ -f "$INITRAMFS" ] || die "no initramfs: $INITRAMFS (make initramfs FLAVOR=$FLAVOR)"

# panic=-1: reboot at once on panic, which -no-reboot turns into a QEMU exit.
# No oops=panic: an oops must leave the rest of the log for the summary.
# The demo shows only what it prints (and errors): its kernel messages
# are in dmesg, which it quotes.  Tests and the shell see every message.
# make test also sets a probe on init text from the command line, for
# tests/guest/tests.d/boot-probes.sh.  BOOT_PROBE=0 leaves it out: make
# bisect-check runs no guest scripts, and before the ftrace-site patch
# the probe cannot be placed (unpack_to_rootfs starts with an ftrace
# call: -EINVAL, as in the stock kernel without KPROBES_ON_FTRACE).
EXTRA=
GUEST_MODE=$MODE
case $MODE in
	run) LOGLEVEL=loglevel=3 ;;
	test) LOGLEVEL=ignore_loglevel EXTRA=kprobe_event=p:kprobes/kp_init,unpack_to_rootfs ;;
	stuffing)
		LOGLEVEL=ignore_loglevel GUEST_MODE=test
		EXTRA="retbleed=stuff spectre_v2=retpoline kpscripts=0 kptag=stuffing kpstuffing=1"
		;;
	*) LOGLEVEL=ignore_loglevel ;;
esac
[ "${BOOT_PROBE:-1}" = 1 ] || [ "$MODE" = stuffing ] || EXTRA=
APPEND="console=$CONSOLE $LOGLEVEL panic=-1 kpmode=$GUEST_MODE $EXTRA ${KERNEL_APPEND:-}"

QEMU=("$QEMU_SYS"
	-accel tcg,thread=single
	-smp "${QEMU_SMP:-2}" -m 2G
	"${QEMU_MACHINE[@]}"
	-display none -no-reboot -nic none
	-kernel "$KERNEL" -initrd "$INITRAMFS"
	-append "$APPEND")

# test and shell: the host's / read-only over virtio-9p (mount tag
# hostroot), so that tests/guest/tests.d/tools.sh can run the host's own
# perf and bpftrace in a chroot: no root file system to build.  HOSTROOT=0
# leaves it out (those cases then SKIP, as on a kernel without 9p).
# multidevs=remap: / spans several host file systems, whose inode numbers
# would otherwise collide in the guest.
[ "$ARCH" = x86_64 ] || HOSTROOT=0
if [ "${HOSTROOT:-1}" = 1 ] && { [ "$MODE" = test ] || [ "$MODE" = shell ]; }; then
	QEMU+=(-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap")
fi

run_with_timeout() {
	if [ "$TIMEOUT" -gt 0 ]; then
		# --foreground for shell: QEMU must stay in the terminal's group.
		timeout $([ "$MODE" = shell ] && echo --foreground) -k 10 "$TIMEOUT" "$@"
	else
		"$@"
	fi
}

# Serial console into the log file; another process shows it as it grows.
boot_logged() {
	local filter=$1 qpid rc=0
	: >"$LOG"
	run_with_timeout "${QEMU[@]}" -monitor none -serial "file:$LOG" </dev/null &
	qpid=$!
	# tail follows the file until QEMU (or the timeout wrapper) is gone.
	tail -n +1 -F --pid="$qpid" "$LOG" 2>/dev/null | { grep --line-buffered -a -E "$filter" || true; } &
	wait "$qpid" || rc=$?
	wait || true
	return $rc
}

main() {
	local t0 rc=0 filter='.'
	t0=$(date +%s)
	log "booting ${KERNEL#"$ROOT"/} kpmode=$MODE (TCG, -smp ${QEMU_SMP:-2}, timeout ${TIMEOUT}s); console: ${LOG#"$ROOT"/}"
	case $MODE in
		shell)
			# Interactive: serial + monitor muxed on stdio, as -nographic
			# does (Ctrl-A x quits QEMU), but also logged.
			run_with_timeout "${QEMU[@]}" \
				-chardev "stdio,id=con,mux=on,signal=off,logfile=$LOG" \
				-serial chardev:con -mon chardev=con,mode=readline || rc=$?
			;;
		test|stuffing)
			[ "${VERBOSE:-0}" = 1 ] ||
				filter='^=== |SKIP-MODULE|MODULE-LOAD-FAILED|Kernel panic|end Kernel panic'
			boot_logged "$filter" || rc=$?
			;;
		run)
			boot_logged "$filter" || rc=$?
			;;
		fuzz)
			boot_logged '^=== |^FUZZ-(INFO|SUM)|Kernel panic' || rc=$?
			;;
	esac
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "=== QEMU TIMEOUT after ${TIMEOUT}s ===" | tee -a "$LOG" >&2
	elif [ $rc -ne 0 ]; then
		log "QEMU exited with status $rc"
	fi
	log "QEMU done in $(elapsed "$t0")"
	# The demo's last line counts its own checks; anything else (a
	# failed check, a crash before the end) makes make run fail.
	if [ "$MODE" = run ] && [ $rc -eq 0 ] &&
		! grep -aqE '^demo: [0-9]+ checks, 0 failed' "$LOG"; then
		log "the demo did not end with all its checks passed (console: ${LOG#"$ROOT"/})"
		rc=1
	fi
	return $rc
}

main "$@"
