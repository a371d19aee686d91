#!/bin/sh
# KTAP: a task killed by an oops in a probe handler leaves its hit open;
# later unregistrations must still return, and later hits on that CPU
# must still run their handlers (kprobes_oops_test.ko does both and says
# how it went).  Last of the scripts: the oops turns lockdep off for the
# rest of the boot.  Stock 6.12 returns from every unregistration too, but
# misses the hits on the oopsed CPU.
n=0
. /ktap.sh

loaded_and_returned() {
	modprobe kprobes_oops_test || return 1
	line=$(dmesg | grep 'kprobes_oops_test: handler fired' | tail -n 1)
	echo "$line"
	case $line in
	*"fired 1, 100 of 100 unregistrations returned"*) ;;
	*) return 1 ;;
	esac
	rmmod kprobes_oops_test
}

other_probe_hit_every_round() {
	dmesg | grep 'kprobes_oops_test: handler fired' | tail -n 1 |
		grep -q 'other probe hit 100 times'
}

echo "KTAP version 1"
if [ -z "$(find /lib/modules -name "kprobes_oops_test.ko*" 2>/dev/null)" ]; then
	echo "1..2"
	skip_all "kprobes_oops_test.ko is not built"
	exit 0
fi
echo "1..2"
echo "=== EXPECT-SPLAT BEGIN kprobes_oops_test ==="
check oops_in_handler_unregister_returns loaded_and_returned
echo "=== EXPECT-SPLAT END ==="
check oops_in_handler_later_hits_run other_probe_hit_every_round
