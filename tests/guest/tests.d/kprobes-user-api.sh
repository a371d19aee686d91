#!/bin/sh
# KTAP: the user-visible kprobes interfaces work (debugfs files, kprobe and
# kretprobe trace events through tracefs).  Same expectations as stock 6.12,
# except that return probes are only tested when the kernel has them.
DBG=/sys/kernel/debug/kprobes
TR=/sys/kernel/tracing
n=0
. /ktap.sh

# check_if OPTION[=VALUE] NAME COMMAND...: SKIP unless CONFIG_OPTION is
# VALUE (y when not given)
check_if() {
	local opt=$1
	shift
	case $opt in *=*) ;; *) opt=$opt=y ;; esac
	if grep -q "^CONFIG_$opt\$" /etc/kernel.config; then
		check "$@"
	else
		n=$((n + 1))
		echo "ok $n $1 # SKIP needs CONFIG_$opt"
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
echo "1..20"
check debugfs_list_readable cat $DBG/list
check debugfs_enabled_is_1 grep -qx 1 $DBG/enabled
check debugfs_blacklist_format sh -c "head -n 1 $DBG/blacklist | grep -Eq '^0x[0-9a-f]+-0x[0-9a-f]+[[:space:]]+[^[:space:]]+'"
check kprobe_event_hits probe_hits 'p:kprobes/kp_clone kernel_clone' kp_clone
check_if KRETPROBES kretprobe_event_hits probe_hits 'r:kprobes/krp_clone kernel_clone ret=$retval' krp_clone
check kprobe_events_empty_after sh -c "! grep -q . $TR/kprobe_events"

# A trace event that is defined but not enabled is a registered, disabled
# kprobe: debugfs lists it as [DISABLED], in the stock kernel's layout
# (perf and scripts parse it): address, type, symbol+offset, a blank for
# a built-in symbol's module, then the tags run together.
disabled_tag() {
	echo 'p:kprobes/kp_idle kernel_clone' >>$TR/kprobe_events || return 1
	line=$(grep ' kernel_clone+' $DBG/list)
	echo "line: '$line'"
	echo "$line" | grep -q 'DISABLED' || { cat $DBG/list; return 1; }
	echo "$line" | grep -Eq '^[0-9a-f]{16}  k  kernel_clone\+0x[0-9a-f]+    (\[[A-Z]+\])+$' ||
		{ echo "not the stock layout"; return 1; }
	echo '-:kp_idle' >>$TR/kprobe_events
}
check debugfs_list_disabled_tag disabled_tag

# debugfs missed: a list line's columns up to the tags, then the misses
# in total (kprobe_profile's nmissed column) and by cause.
missed_by_cause() {
	echo 'p:kprobes/kp_miss kernel_clone' >>$TR/kprobe_events || return 1
	echo 1 >$TR/events/kprobes/kp_miss/enable
	/bin/true
	echo 0 >$TR/events/kprobes/kp_miss/enable
	line=$(grep ' kernel_clone+' $DBG/missed)
	prof=$(awk '$1 == "kp_miss" { print $3 }' $TR/kprobe_profile)
	echo "missed: '$line', kprobe_profile nmissed: '$prof'"
	echo '-:kp_miss' >>$TR/kprobe_events
	echo "$line" | grep -Eq '^[0-9a-f]{16}  k  kernel_clone\+0x[0-9a-f]+    [0-9]+ recursion=[0-9]+ depth=[0-9]+ mode=[0-9]+ return=[0-9]+ unregistering=[0-9]+$' ||
		{ echo "not the documented layout"; return 1; }
	set -- $(echo "$line" | sed 's/.*    //; s/[a-z]*=//g')
	[ "$1" = "$prof" ] || { echo "total $1, profile $prof"; return 1; }
	[ "$1" -eq $(($2 + $3 + $4 + $5 + $6)) ] ||
		{ echo "the causes do not add up to $1"; return 1; }
}
check debugfs_missed_by_cause missed_by_cause

# The KUnit suites, which ran before this script, put the optimization
# switch back as they found it (on, the boot default).
check_if OPTPROBES kunit_left_optimization_on grep -qx 1 /proc/sys/debug/kprobes-optimization

# probe_after_entry EVENT [SKIP]: define EVENT on the first instruction of
# kernel_clone after its entry (+0 may be an ftrace call) and after SKIP
# more accepted offsets; prints the offset.
probe_after_entry() {
	local off=5 skip=${2:-0}
	while [ $off -lt 48 ]; do
		off=$((off + 1))
		echo "p:kprobes/$1 kernel_clone+$off" \
			>>$TR/kprobe_events 2>/dev/null || continue
		if [ "$skip" -gt 0 ]; then
			echo "-:$1" >>$TR/kprobe_events
			skip=$((skip - 1))
			continue
		fi
		echo $off
		return 0
	done
	return 1
}

# An out-of-line copy lives in a slot page, which kallsyms lists.
slot_page() {
	local rc=0
	probe_after_entry kp_slot >/dev/null || { echo "no probe"; return 1; }
	grep -q ' kprobe_insn_page' /proc/kallsyms || { echo "no slot page"; rc=1; }
	echo '-:kp_slot' >>$TR/kprobe_events
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
check_if KRETPROBES kretprobe_sample_times_calls kretprobe_sample

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

# The watchpoint sample watches writes to jiffies_64: the timer tick
# writes it, so hits come by themselves.  debugfs lists the watch as 'w'
# with its access type and length while it exists, and not after.
kwatch_sample() {
	local rc=0 i=0
	modprobe kwatch_example || return 1
	grep -Eq '^[0-9a-f]{16}  w  (jiffies(_64)?\+0x0    |0x[0-9a-f]+ )\[WRITE\]\[8\]$' $DBG/list ||
		{ echo "no w line in list"; cat $DBG/list; rc=1; }
	while [ $i -lt 25 ] && ! dmesg | grep -q 'kwatch_example: hit 1 '; do
		sleep 0.2; i=$((i + 1))
	done
	rmmod kwatch_example
	dmesg | grep -q 'kwatch_example: hit 1 on CPU [0-9]*: 0x[0-9a-f]* touched at [a-z_]' ||
		{ dmesg | grep kwatch_example; rc=1; }
	dmesg | grep -Eq 'kwatch_example: watch [0-3] removed: [1-9][0-9]* hits seen' ||
		{ dmesg | grep kwatch_example; rc=1; }
	grep -q '  w  ' $DBG/list && { echo "watch left in list"; rc=1; }
	return $rc
}
check kwatch_sample_fires_and_lists kwatch_sample

# Jump optimization: an enabled probe without post handler becomes
# [OPTIMIZED] shortly after it is armed; the sysctl takes every jump out
# (at once) and puts them back.  Hits go on throughout.
wait_tag() {  # wait_tag PATTERN [TRIES]: 0.2 s per try for a list line
	local i=0
	while [ $i -lt "${2:-50}" ]; do
		grep 'kernel_clone' $DBG/list | grep -q "$1" && return 0
		sleep 0.2; i=$((i + 1))
	done
	echo "no kernel_clone line with $1:"; cat $DBG/list
	return 1
}
# kernel_clone+0 may be its ftrace call: find an instruction after the
# entry that can be optimized (among the first few that take a probe).
opt_probe() {
	local tries=0
	while [ $tries -lt 6 ]; do
		probe_after_entry kp_opt $tries >/dev/null || break
		tries=$((tries + 1))
		echo 1 >$TR/events/kprobes/kp_opt/enable
		wait_tag OPTIMIZED 10 >/dev/null && return 0
		echo 0 >$TR/events/kprobes/kp_opt/enable
		echo '-:kp_opt' >>$TR/kprobe_events
	done
	echo "no optimizable probe after kernel_clone's entry"
	return 1
}
optimization_switch() {
	local rc=0 sysctl=/proc/sys/debug/kprobes-optimization
	grep -qx 1 $sysctl || { echo "$sysctl does not read 1"; return 1; }
	opt_probe || return 1
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
check_if OPTPROBES optimization_sysctl_and_tag optimization_switch

# A probe on a function's first instruction goes through ftrace when the
# function tracer is built in: debugfs says [FTRACE], and it hits.
ftrace_probe() {
	local rc=0
	echo 'p:kprobes/kp_ft kernel_clone' >>$TR/kprobe_events || return 1
	echo 1 >$TR/events/kprobes/kp_ft/enable
	grep 'kernel_clone+0x' $DBG/list | grep -q 'FTRACE' ||
		{ echo "no [FTRACE] line"; cat $DBG/list; rc=1; }
	echo >$TR/trace
	/bin/true
	grep -q ' kp_ft:' $TR/trace || { echo "no kp_ft hit"; rc=1; }
	echo 0 >$TR/events/kprobes/kp_ft/enable
	echo '-:kp_ft' >>$TR/kprobe_events
	return $rc
}

# fail_function: a kprobe at a syscall's entry makes it return an error
# (its pre handler returns to the caller with the error); removing the
# function from the list ends it.  The syscall entries of mkdir and
# mkdirat, whichever libc uses, under the architecture's prefix
# (__x64_sys_, __arm64_sys_: arm64 has mkdirat only).
fail_function() {
	local rc=0 F=/sys/kernel/debug/fail_function syms s
	syms=$(grep -oE ' __[a-z0-9]+_sys_mkdir(at)?$' /proc/kallsyms |
		grep -vE '__(do|se)_sys_' | sort -u)
	[ -n "$syms" ] || { echo "no mkdir syscall entry in kallsyms"; return 1; }
	for s in $syms; do
		echo "$s" >>$F/inject || { echo "cannot inject into $s"; return 1; }
		grep -q "$s+0x" $DBG/list ||
			{ echo "fail_function probe on $s not listed"; cat $DBG/list; rc=1; }
	done
	echo 100 >$F/probability
	echo -1 >$F/times
	echo 0 >$F/verbose
	if mkdir /tmp/ff_injected 2>/dev/null; then
		echo "mkdir succeeded while injected"; rc=1
	fi
	echo >$F/inject
	mkdir /tmp/ff_after || { echo "mkdir still fails"; rc=1; }
	rmdir /tmp/ff_after /tmp/ff_injected 2>/dev/null
	return $rc
}

check_if KPROBES_ON_FTRACE ftrace_probe_tag_and_hit ftrace_probe
check fail_function_injects_and_stops fail_function

# list and blacklist show addresses only to openers that kallsyms would
# show them to: with kptr_restrict=2 nobody, root included; zeros instead
# (an address is anything but all zeros, whatever the architecture's
# kernel half looks like).
hidden_addresses() {
	local rc=0 K=/proc/sys/kernel/kptr_restrict old
	old=$(cat $K)
	echo 'p:kprobes/kp_hide kernel_clone' >>$TR/kprobe_events || return 1
	grep -q '^0*[1-9a-f][0-9a-f]*  k  kernel_clone' $DBG/list ||
		{ echo "no address shown with kptr_restrict=$old"; cat $DBG/list; rc=1; }
	echo 2 >$K
	grep -q '^00*  k  kernel_clone' $DBG/list ||
		{ echo "list shows an address with kptr_restrict=2"; cat $DBG/list; rc=1; }
	if grep -v '^0x00*-0x00*	' $DBG/blacklist | grep -q .; then
		echo "blacklist shows addresses with kptr_restrict=2"
		head -n 3 $DBG/blacklist; rc=1
	fi
	echo "$old" >$K
	head -n 1 $DBG/blacklist | grep -q '^0x0*[1-9a-f]' ||
		{ echo "blacklist hides addresses with kptr_restrict=$old"; rc=1; }
	echo '-:kp_hide' >>$TR/kprobe_events
	return $rc
}
check debugfs_addresses_follow_kptr_restrict hidden_addresses

# Livepatch redirects cmdline_proc_show through ftrace (IPMODIFY); a
# pre-handler-only kprobe on the same function must leave that redirect in
# place, whichever of the two comes first.
LP=/sys/kernel/livepatch/livepatch_sample
lp_unload() {  # disable the patch, wait for the transition, unload
	local i=0
	[ -d $LP ] && echo 0 >$LP/enabled
	while [ $i -lt 100 ]; do
		rmmod livepatch_sample 2>/dev/null && return 0
		sleep 0.2; i=$((i + 1))
	done
	echo "livepatch_sample did not unload"; return 1
}
cmdline_patched() {  # cmdline_patched WHEN
	grep -qx 'this has been live patched' /proc/cmdline && return 0
	echo "$1: /proc/cmdline is '$(cat /proc/cmdline)'"
	return 1
}
livepatch_and_kprobe() {
	local rc=0
	echo >$TR/trace
	# 1. The live patch first, then the probe.
	modprobe livepatch_sample || return 1
	cmdline_patched "patch alone" || rc=1
	echo 'p:kprobes/kp_cmd cmdline_proc_show' >>$TR/kprobe_events || rc=1
	echo 1 >$TR/events/kprobes/kp_cmd/enable || rc=1
	cmdline_patched "patch, then probe" || rc=1
	grep -q ' kp_cmd:' $TR/trace || { echo "no kp_cmd hit"; rc=1; }
	echo 0 >$TR/events/kprobes/kp_cmd/enable
	lp_unload || rc=1
	grep -qx 'this has been live patched' /proc/cmdline &&
		{ echo "still patched after unloading"; rc=1; }
	# 2. The probe first, then the live patch.
	echo 1 >$TR/events/kprobes/kp_cmd/enable || rc=1
	modprobe livepatch_sample || rc=1
	cmdline_patched "probe, then patch" || rc=1
	echo 0 >$TR/events/kprobes/kp_cmd/enable
	lp_unload || rc=1
	echo '-:kp_cmd' >>$TR/kprobe_events
	return $rc
}
check_if SAMPLE_LIVEPATCH=m livepatch_redirect_stands_under_kprobe livepatch_and_kprobe

# LKDTM's crash points are kprobes: INT_HW_IRQ_EN probes handle_irq_event
# and, every cpoint_count-th hit, runs the crash type from the pre handler,
# in hard interrupt context.  WARNING keeps the guest alive.  The WARNING
# splats it prints are announced to scripts/ktap-summary.py between
# EXPECT-SPLAT markers (only splats that name lkdtm are excused there).
CP=/sys/kernel/debug/provoke-crash
RTC_ALARM=/sys/class/rtc/rtc0/wakealarm
# An RTC alarm one second from now, if the guest has an RTC: one device
# interrupt through handle_irq_event when it goes off.
rtc_interrupt() {
	[ -w $RTC_ALARM ] || return 0
	echo 0 >$RTC_ALARM
	echo +1 >$RTC_ALARM
}
lkdtm_crash_point() {
	local rc=0 i=0 warns
	modprobe lkdtm cpoint_count=3 || return 1
	dmesg -c >/dev/null
	echo "=== EXPECT-SPLAT BEGIN lkdtm ===" >/dev/console
	echo WARNING >$CP/INT_HW_IRQ_EN || rc=1
	grep -q 'handle_irq_event+0x' $DBG/list ||
		{ echo "crash point not in the kprobes list"; cat $DBG/list; rc=1; }
	# Console output raises serial interrupts on x86: hits come quickly.
	# QEMU's arm64 UART sends without one; the RTC's alarm raises one.
	while [ $i -lt 50 ] && ! dmesg | grep -q 'lkdtm_WARNING'; do
		echo "# waiting for the crash point ($i)" >/dev/console
		rtc_interrupt
		sleep 0.2; i=$((i + 1))
	done
	rmmod lkdtm || rc=1
	sleep 1
	echo "=== EXPECT-SPLAT END ===" >/dev/console
	dmesg | grep -q 'Crash point INT_HW_IRQ_EN of type WARNING hit' ||
		{ echo "crash point never hit"; rc=1; }
	warns=$(dmesg | grep -c 'WARNING:.*lkdtm_WARNING')
	[ "$warns" -ge 1 ] || { echo "no WARNING from the crash point"; rc=1; }
	grep -q 'handle_irq_event' $DBG/list && { echo "probe left after rmmod"; rc=1; }
	return $rc
}
if grep -q '^CONFIG_LKDTM=[ym]' /etc/kernel.config; then
	check lkdtm_crash_point_warning lkdtm_crash_point
else
	n=$((n + 1))
	echo "ok $n lkdtm_crash_point_warning # SKIP CONFIG_LKDTM is off"
fi
