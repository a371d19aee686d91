#!/bin/sh
# kpmode=run: the newcomer's demo.  Put the sample kprobe on kernel_clone,
# make some processes, show what the handlers printed and what debugfs
# says, switch all probes off and on again, unload.

step() { echo; echo "### $*"; }
probe_log() { dmesg | grep 'kprobe_example:' | tail -n "$1"; }

# Only this script writes to the console; kernel messages go to dmesg.
dmesg -n 1

step "modprobe kprobe_example symbol=kernel_clone"
modprobe kprobe_example symbol=kernel_clone || { echo "demo: modprobe failed"; exit 1; }
probe_log 1

step "three commands, each a fork through kernel_clone"
/bin/true; /bin/true; sh -c 'echo "  (a child shell says hello)"'
probe_log 6

step "cat /sys/kernel/debug/kprobes/list"
cat /sys/kernel/debug/kprobes/list

step "echo 0 > /sys/kernel/debug/kprobes/enabled   (every breakpoint removed)"
echo 0 >/sys/kernel/debug/kprobes/enabled
before=$(dmesg | grep -c 'kprobe_example: hit')
/bin/true; /bin/true
after=$(dmesg | grep -c 'kprobe_example: hit')
echo "  hits while disabled: $((after - before))"
echo "  enabled = $(cat /sys/kernel/debug/kprobes/enabled)"

step "echo 1 > /sys/kernel/debug/kprobes/enabled   (breakpoints back)"
echo 1 >/sys/kernel/debug/kprobes/enabled
/bin/true
echo "  hits after re-enabling: $(( $(dmesg | grep -c 'kprobe_example: hit') - after ))"

step "rmmod kprobe_example"
rmmod kprobe_example
probe_log 1
echo "  list now: '$(cat /sys/kernel/debug/kprobes/list)'"

step "modprobe kretprobe_example func=kernel_clone   (a return probe)"
modprobe kretprobe_example func=kernel_clone || echo "demo: no return probes here"
/bin/true; /bin/true
dmesg | grep 'kretprobe_example:' | tail -n 3
cat /sys/kernel/debug/kprobes/list
rmmod kretprobe_example 2>/dev/null
dmesg | grep 'kretprobe_example:' | tail -n 1

step "modprobe jprobe_example   (a jprobe: a mirror of kernel_clone)"
modprobe jprobe_example
/bin/true
dmesg | grep 'jprobe_example:' | tail -n 2
grep '  j  ' /sys/kernel/debug/kprobes/list
rmmod jprobe_example
dmesg | grep 'jprobe_example:' | tail -n 1

echo
echo "demo: done"
