#!/bin/sh
# kpmode=run: the newcomer's demo.  Put the sample kprobe on kernel_clone,
# make some processes, show what the handlers printed and what debugfs
# says, switch all probes off and on again, unload.

step() { echo; echo "### $*"; }
probe_log() { dmesg | grep 'kprobe_example:' | tail -n "$1"; }
hits() { dmesg | grep -c 'kprobe_example: hit'; }
# busybox runs "true" without forking: a subshell is a real fork.
forks() { i=0; while [ $i -lt "$1" ]; do (exit 0); i=$((i + 1)); done; }
expect() {  # expect WHAT GOT OP WANT: say whether it is what it should be
	if [ "$2" "$3" "$4" ]; then echo "  $1: $2 (as expected)"
	else echo "  $1: $2 -- UNEXPECTED, wanted $3 $4"; fi
}

# Only this script writes to the console; kernel messages go to dmesg.
dmesg -n 1

step "modprobe kprobe_example symbol=kernel_clone"
modprobe kprobe_example symbol=kernel_clone || { echo "demo: modprobe failed"; exit 1; }
probe_log 1

step "three commands, each a fork through kernel_clone"
forks 2; sh -c 'echo "  (a child shell says hello)"'
probe_log 6

step "cat /sys/kernel/debug/kprobes/list"
cat /sys/kernel/debug/kprobes/list

step "echo 0 > /sys/kernel/debug/kprobes/enabled   (every breakpoint removed)"
echo 0 >/sys/kernel/debug/kprobes/enabled
before=$(hits)
forks 2
after=$(hits)
expect "hits in 2 forks while disabled" $((after - before)) -eq 0
echo "  enabled = $(cat /sys/kernel/debug/kprobes/enabled)"

step "echo 1 > /sys/kernel/debug/kprobes/enabled   (breakpoints back)"
echo 1 >/sys/kernel/debug/kprobes/enabled
forks 2
expect "hits in 2 forks after re-enabling" $(( $(hits) - after )) -ge 2

step "rmmod kprobe_example"
rmmod kprobe_example
probe_log 1
echo "  list now: '$(cat /sys/kernel/debug/kprobes/list)'"

step "modprobe kretprobe_example func=kernel_clone   (a return probe)"
modprobe kretprobe_example func=kernel_clone || echo "demo: no return probes here"
forks 2
dmesg | grep 'kretprobe_example:' | tail -n 3
cat /sys/kernel/debug/kprobes/list
rmmod kretprobe_example 2>/dev/null
dmesg | grep 'kretprobe_example:' | tail -n 1

step "modprobe jprobe_example   (a jprobe: a mirror of kernel_clone)"
modprobe jprobe_example
forks 1
dmesg | grep 'jprobe_example:' | tail -n 2
grep '  j  ' /sys/kernel/debug/kprobes/list
rmmod jprobe_example
dmesg | grep 'jprobe_example:' | tail -n 1

step "modprobe kwatch_example   (a watchpoint: who writes jiffies_64?)"
modprobe kwatch_example
sleep 1
dmesg | grep 'kwatch_example:' | tail -n 3
grep '  w  ' /sys/kernel/debug/kprobes/list
rmmod kwatch_example
dmesg | grep 'kwatch_example:' | tail -n 1

step "modprobe uprobe_user_example   (a user-space probe: kpu_add in one process)"
off=$(kpu-target offsets | grep '^kpu_add ' | cut -d' ' -f2)
kpu-target add 3 >/tmp/kpu.out &
kpu=$!
while ! grep -q ready /tmp/kpu.out; do sleep 0.1; done
modprobe uprobe_user_example path=/bin/kpu-target offset="$off" pid=$kpu
kill -USR1 $kpu; wait $kpu
dmesg | grep 'uprobe_user_example:' | tail -n 7
expect "kpu-target's sum of kpu_add(i, 1000), i < 3" "$(grep sum /tmp/kpu.out | cut -d' ' -f2)" -eq 3003
expect "user-space hits" "$(dmesg | grep -c 'uprobe_user_example: hit')" -eq 3
rmmod uprobe_user_example
dmesg | grep 'uprobe_user_example:' | tail -n 1

echo
echo "demo: done"
