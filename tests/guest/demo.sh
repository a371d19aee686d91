#!/bin/sh
# kpmode=run demo (placeholder): put the sample kprobe on kernel_clone, make
# some processes, show the hits, toggle the global switch, unload.

step() { echo; echo "### $*"; }

step "modprobe kprobe_example symbol=kernel_clone"
modprobe kprobe_example symbol=kernel_clone || { echo "demo: modprobe failed"; exit 1; }

step "running a few commands (each fork hits the probe)"
for _ in 1 2 3; do /bin/true; done
ls / >/dev/null
sh -c 'echo hello from a child shell'

step "dmesg | tail"
dmesg | tail -n 12

step "cat /sys/kernel/debug/kprobes/list"
cat /sys/kernel/debug/kprobes/list

step "disable all kprobes (echo 0 > /sys/kernel/debug/kprobes/enabled)"
echo 0 >/sys/kernel/debug/kprobes/enabled
before=$(dmesg | grep -c 'kernel_clone')
/bin/true; /bin/true
after=$(dmesg | grep -c 'kernel_clone')
echo "probe messages while disabled: $((after - before))"
cat /sys/kernel/debug/kprobes/list

step "enable again (echo 1 > /sys/kernel/debug/kprobes/enabled)"
echo 1 >/sys/kernel/debug/kprobes/enabled
/bin/true
dmesg | tail -n 4

step "rmmod kprobe_example"
rmmod kprobe_example
dmesg | tail -n 2
cat /sys/kernel/debug/kprobes/list
echo "demo: done"
