#!/bin/sh
# kpmode=run: the newcomer's demo.  Put the sample kprobe on kernel_clone,
# make some processes, show what the handlers printed and what debugfs
# says, switch all probes off and on again, unload; then one of each
# other probe kind.  Each check it makes is counted; the last line says
# how many failed, and scripts/qemu-run.sh run exits non-zero unless it
# reads "demo: N checks, 0 failed".

step() { echo; echo "### $*"; }
probe_log() { dmesg | grep 'kprobe_example:' | tail -n "$1"; }
# The sample's own counter (it logs only its first verbose_hits hits),
# read without a fork, which would be a hit itself: hits sets $HITS.
hits() { read -r HITS </sys/module/kprobe_example/parameters/hits; }
# summary_count MODULE WORDS: the number before WORDS in the last line
# MODULE logged with them (the count a sample prints when unloaded).
summary_count() {
	dmesg | grep "$1: .*$2" | tail -n 1 |
		sed -n "s/.*[: ]\([0-9][0-9]*\) $2.*/\1/p"
}
# busybox runs "true" without forking: a subshell is a real fork.
forks() { i=0; while [ $i -lt "$1" ]; do (exit 0); i=$((i + 1)); done; }
checks=0
failed=0
expect() {  # expect WHAT GOT OP WANT: say whether it is what it should be
	checks=$((checks + 1))
	if [ -n "$2" ] && [ "$2" "$3" "$4" ] 2>/dev/null; then
		echo "  $1: $2 (as expected)"
	else
		failed=$((failed + 1))
		echo "  $1: '$2' -- UNEXPECTED, wanted $3 $4"
	fi
}
must() {  # must WHAT CMD...: run CMD, count a failure if it fails
	what=$1
	shift
	checks=$((checks + 1))
	"$@" && return 0
	failed=$((failed + 1))
	echo "  $what: '$*' failed -- UNEXPECTED"
	return 1
}

# Only this script writes to the console; kernel messages go to dmesg.
dmesg -n 1

step "modprobe kprobe_example symbol=kernel_clone"
must "load the sample" modprobe kprobe_example symbol=kernel_clone ||
	{ echo "demo: $checks checks, $failed failed"; exit 1; }
probe_log 1

step "three commands, each a fork through kernel_clone"
hits; before=$HITS
forks 2; sh -c 'echo "  (a child shell says hello)"'
probe_log 6
hits; expect "hits in 3 forks" $((HITS - before)) -ge 3

step "cat /sys/kernel/debug/kprobes/list"
cat /sys/kernel/debug/kprobes/list

step "echo 0 > /sys/kernel/debug/kprobes/enabled   (every breakpoint removed)"
echo 0 >/sys/kernel/debug/kprobes/enabled
hits; before=$HITS
forks 2
hits; after=$HITS
expect "hits in 2 forks while disabled" $((after - before)) -eq 0
echo "  enabled = $(cat /sys/kernel/debug/kprobes/enabled)"

step "echo 1 > /sys/kernel/debug/kprobes/enabled   (breakpoints back)"
echo 1 >/sys/kernel/debug/kprobes/enabled
forks 2
hits; expect "hits in 2 forks after re-enabling" $((HITS - after)) -ge 2

step "rmmod kprobe_example"
hits; total=$HITS
rmmod kprobe_example
probe_log 1
# rmmod's own fork may hit once more before the probe goes.
expect "hits reported at unload" "$(summary_count kprobe_example hits)" -ge "$total"
echo "  list now: '$(cat /sys/kernel/debug/kprobes/list)'"

step "modprobe kretprobe_example func=kernel_clone   (a return probe)"
must "load the sample" modprobe kretprobe_example func=kernel_clone
forks 2
dmesg | grep 'kretprobe_example:' | tail -n 3
cat /sys/kernel/debug/kprobes/list
rmmod kretprobe_example 2>/dev/null
dmesg | grep 'kretprobe_example:' | tail -n 1
expect "calls timed" "$(summary_count kretprobe_example 'calls timed')" -ge 2

step "modprobe jprobe_example   (a jprobe: a mirror of kernel_clone)"
must "load the sample" modprobe jprobe_example
forks 1
dmesg | grep 'jprobe_example:' | tail -n 2
must "a j line in the list" grep '  j  ' /sys/kernel/debug/kprobes/list
rmmod jprobe_example
dmesg | grep 'jprobe_example:' | tail -n 1
expect "calls seen" "$(summary_count jprobe_example 'calls seen')" -ge 1

step "modprobe kwatch_example   (a watchpoint: who writes jiffies_64?)"
must "load the sample" modprobe kwatch_example
sleep 1
dmesg | grep 'kwatch_example:' | tail -n 3
must "a w line in the list" grep '  w  ' /sys/kernel/debug/kprobes/list
rmmod kwatch_example
dmesg | grep 'kwatch_example:' | tail -n 1
expect "writes seen in a second" "$(summary_count kwatch_example 'hits seen')" -ge 1

step "modprobe uprobe_user_example   (a user-space probe: kpu_add in one process)"
off=$(kpu-target offsets | grep '^kpu_add ' | cut -d' ' -f2)
kpu-target add 3 >/tmp/kpu.out &
kpu=$!
while ! grep -q ready /tmp/kpu.out; do sleep 0.1; done
must "load the sample" modprobe uprobe_user_example path=/bin/kpu-target offset="$off" pid=$kpu
kill -USR1 $kpu; wait $kpu
dmesg | grep 'uprobe_user_example:' | tail -n 7
expect "kpu-target's sum of kpu_add(i, 1000), i < 3" "$(grep sum /tmp/kpu.out | cut -d' ' -f2)" -eq 3003
rmmod uprobe_user_example
dmesg | grep 'uprobe_user_example:' | tail -n 1
expect "user-space hits" "$(summary_count uprobe_user_example 'hits,')" -eq 3

echo
echo "demo: $checks checks, $failed failed"
