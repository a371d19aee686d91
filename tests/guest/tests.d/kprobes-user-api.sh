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
echo "1..6"
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
