#!/bin/sh
# KTAP: the user-visible kprobes interfaces work (debugfs files, kprobe and
# kretprobe trace events through tracefs).  Same expectations as stock 6.12,
# except that return probes are only tested when the kernel has them.
DBG=/sys/kernel/debug/kprobes
TR=/sys/kernel/tracing
n=0
check() {  # check NAME COMMAND...
	name=$1; shift
	n=$((n + 1))
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok $n $name"
	else
		sed 's/^/# /' /tmp/check.out
		echo "not ok $n $name"
	fi
}

probe_hits() {  # probe_hits DEF EVENT: define, enable, fork, expect a hit
	echo "$1" >>$TR/kprobe_events || return 1
	echo >$TR/trace
	echo 1 >"$TR/events/kprobes/$2/enable" || return 1
	/bin/true; /bin/true
	echo 0 >"$TR/events/kprobes/$2/enable"
	grep -q " $2:" $TR/trace || { echo "no $2 hit in trace"; return 1; }
	echo "-:$2" >>$TR/kprobe_events
}

echo "KTAP version 1"
echo "1..12"
check debugfs_list_readable cat $DBG/list
check debugfs_enabled_is_1 grep -qx 1 $DBG/enabled
check debugfs_blacklist_format sh -c "head -n 1 $DBG/blacklist | grep -Eq '^0x[0-9a-f]+-0x[0-9a-f]+[[:space:]]+[^[:space:]]+'"
check kprobe_event_hits probe_hits 'p:kprobes/kp_clone kernel_clone' kp_clone
if grep -q '^CONFIG_KRETPROBES=y' /etc/kernel.config; then
	check kretprobe_event_hits probe_hits 'r:kprobes/krp_clone kernel_clone ret=$retval' krp_clone
else
	n=$((n + 1))
	echo "ok $n kretprobe_event_hits # SKIP CONFIG_KRETPROBES is off"
fi
check kprobe_events_empty_after sh -c "! grep -q . $TR/kprobe_events"

# A trace event that is defined but not enabled is a registered, disabled
# kprobe: debugfs lists it as [DISABLED].
disabled_tag() {
	echo 'p:kprobes/kp_idle kernel_clone' >>$TR/kprobe_events || return 1
	grep 'kernel_clone' $DBG/list | grep -q 'DISABLED' || { cat $DBG/list; return 1; }
	echo '-:kp_idle' >>$TR/kprobe_events
}
check debugfs_list_disabled_tag disabled_tag

# An out-of-line copy lives in a slot page, which kallsyms lists.
slot_page() {
	local rc=0
	modprobe kprobe_example symbol=kernel_clone verbose_hits=0 || return 1
	/bin/true
	grep -q ' kprobe_insn_page' /proc/kallsyms || { echo "no slot page"; rc=1; }
	rmmod kprobe_example
	return $rc
}
check kallsyms_slot_page slot_page

# "enabled": 0 removes every breakpoint, 1 puts them back.
global_switch() {
	local rc=0
	echo 'p:kprobes/kp_sw kernel_clone' >>$TR/kprobe_events || return 1
	echo 1 >$TR/events/kprobes/kp_sw/enable
	echo 0 >$DBG/enabled
	grep -qx 0 $DBG/enabled || { echo "enabled did not read 0"; rc=1; }
	echo >$TR/trace
	/bin/true; /bin/true
	if grep -q ' kp_sw:' $TR/trace; then echo "hit while disarmed"; rc=1; fi
	echo 1 >$DBG/enabled
	/bin/true
	grep -q ' kp_sw:' $TR/trace || { echo "no hit after re-arming"; rc=1; }
	echo 0 >$TR/events/kprobes/kp_sw/enable
	echo '-:kp_sw' >>$TR/kprobe_events
	return $rc
}
check debugfs_enabled_switch global_switch

# The return-probe sample times kernel_clone and reports its returns.
kretprobe_sample() {
	modprobe kretprobe_example func=kernel_clone || return 1
	/bin/true
	rmmod kretprobe_example
	dmesg | grep -q 'kretprobe_example: call 1: kernel_clone returned' ||
		{ dmesg | grep kretprobe_example; return 1; }
}
if grep -q '^CONFIG_KRETPROBES=y' /etc/kernel.config; then
	check kretprobe_sample_times_calls kretprobe_sample
else
	n=$((n + 1))
	echo "ok $n kretprobe_sample_times_calls # SKIP CONFIG_KRETPROBES is off"
fi

# The jprobe sample watches kernel_clone's arguments; debugfs says 'j',
# and a kretprobe event on the same function still works beside it.
jprobe_sample() {
	local rc=0
	modprobe jprobe_example || return 1
	grep -q '  j  kernel_clone+0x' $DBG/list ||
		{ echo "no j line in list"; cat $DBG/list; rc=1; }
	/bin/true
	rmmod jprobe_example
	dmesg | grep -q 'jprobe_example: call 1: .* clones, flags' ||
		{ dmesg | grep jprobe_example; rc=1; }
	dmesg | grep -q 'jprobe_example: .* calls seen, 0 missed' ||
		{ dmesg | grep jprobe_example; rc=1; }
	return $rc
}
check jprobe_sample_sees_arguments jprobe_sample

# Jump optimization: an enabled probe without post handler becomes
# [OPTIMIZED] shortly after it is armed; the sysctl takes every jump out
# (at once) and puts them back.  Hits go on throughout.
wait_tag() {  # wait_tag PATTERN: up to 10 s for a list line with it
	local i=0
	while [ $i -lt 50 ]; do
		grep 'kernel_clone' $DBG/list | grep -q "$1" && return 0
		sleep 0.2; i=$((i + 1))
	done
	echo "no kernel_clone line with $1:"; cat $DBG/list
	return 1
}
optimization_switch() {
	local rc=0 sysctl=/proc/sys/debug/kprobes-optimization
	grep -qx 1 $sysctl || { echo "$sysctl does not read 1"; return 1; }
	echo 'p:kprobes/kp_opt kernel_clone' >>$TR/kprobe_events || return 1
	echo 1 >$TR/events/kprobes/kp_opt/enable
	wait_tag OPTIMIZED || rc=1
	echo 0 >$sysctl
	grep -qx 0 $sysctl || { echo "$sysctl did not read 0"; rc=1; }
	if grep 'kernel_clone' $DBG/list | grep -q OPTIMIZED; then
		echo "still optimized after writing 0"; rc=1
	fi
	echo >$TR/trace
	/bin/true
	grep -q ' kp_opt:' $TR/trace || { echo "no hit unoptimized"; rc=1; }
	echo 1 >$sysctl
	wait_tag OPTIMIZED || rc=1
	echo >$TR/trace
	/bin/true
	grep -q ' kp_opt:' $TR/trace || { echo "no hit optimized"; rc=1; }
	echo 0 >$TR/events/kprobes/kp_opt/enable
	echo '-:kp_opt' >>$TR/kprobe_events
	return $rc
}
if grep -q '^CONFIG_OPTPROBES=y' /etc/kernel.config; then
	check optimization_sysctl_and_tag optimization_switch
else
	n=$((n + 1))
	echo "ok $n optimization_sysctl_and_tag # SKIP CONFIG_OPTPROBES is off"
fi
