#!/bin/sh
# KTAP: a probe set on the kernel command line sits on init text.
# scripts/qemu-run.sh boots make test with
#   kprobe_event=p:kprobes/kp_init,unpack_to_rootfs
# (trace_kprobe registers it at fs_initcall; unpack_to_rootfs is __init and
# unpacks this very initramfs afterwards).  The probe must have hit, and
# once the init text is freed it must be listed [GONE] (its handler can
# never run again, its bytes are no longer ours), and removing the event
# must work.  Runs before the other scripts: they expect no events.
TR=/sys/kernel/tracing
DBG=/sys/kernel/debug/kprobes
n=0
result() {  # result NAME STATUS
	n=$((n + 1))
	if [ "$2" = 0 ]; then echo "ok $n $1"; else echo "not ok $n $1"; fi
}

echo "KTAP version 1"
echo "1..3"
if ! grep -q 'kprobe_event=p:kprobes/kp_init' /proc/cmdline ||
	! grep -q '^CONFIG_KPROBE_EVENTS=y' /etc/kernel.config; then
	for t in init_probe_hit init_probe_gone init_probe_removed; do
		n=$((n + 1)); echo "ok $n $t # SKIP no kprobe_event= on the command line, or no KPROBE_EVENTS"
	done
	exit 0
fi

hits=$(awk '$1 == "kp_init" { print $2 }' $TR/kprobe_profile)
echo "# kprobe_profile: $(grep kp_init $TR/kprobe_profile)"
[ "${hits:-0}" -ge 1 ]
result init_probe_hit $?

line=$(grep 'unpack_to_rootfs' $DBG/list)
echo "# list: $line"
case $line in *'[GONE]'*) rc=0 ;; *) rc=1 ;; esac
case $line in *DISABLED*|*OPTIMIZED*) rc=1 ;; esac
result init_probe_gone $rc

# kprobe_event= probes are enabled at boot: disable, then remove.  Through
# set_event: on x86_64_defconfig the boot-time event got no directory
# under events/ (the event itself works; its file is in the event list).
echo '!kprobes:kp_init' >>$TR/set_event &&
	echo '-:kprobes/kp_init' >>$TR/kprobe_events &&
	! grep -q 'unpack_to_rootfs' $DBG/list && ! grep -q kp_init $TR/kprobe_events
result init_probe_removed $?
