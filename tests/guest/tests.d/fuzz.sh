#!/bin/sh
# KTAP: the short seed of `make fuzz` inside make test.  /fuzz/specs-short
# holds 2x40 random kprobe_events specs that scripts/mkinitramfs.sh drew
# from this kernel's System.map (scripts/fuzz-specs.py, fixed seed; the
# seed is printed below), and a kprobe and a kretprobe on kernel_clone,
# which the workload's forks run whatever the draw.  /fuzz.sh registers them, enables them for 20 s
# of load on every vCPU with the optimization sysctl flipping, and removes
# them.  A splat anywhere fails the run through the console scan of
# scripts/ktap-summary.py; the comparison with the stock kernel's errnos
# is make fuzz's (both kernels are needed).
SPECS=/fuzz/specs-short
SECS=20
KNOWN_ERRNOS=" EINVAL ENOENT EILSEQ EOPNOTSUPP EADDRNOTAVAIL EBUSY "
n=0
. /ktap.sh

echo "KTAP version 1"
echo "1..5"
if [ ! -s $SPECS ] || [ ! -w /sys/kernel/tracing/kprobe_events ]; then
	why="no $SPECS in this initramfs"
	[ -s $SPECS ] && why="no kprobe_events (CONFIG_KPROBE_EVENTS)"
	skip_all "$why"
	exit 0
fi
echo "# seed $(cat /fuzz/seed-short 2>/dev/null), $(wc -l <$SPECS) specs, ${SECS}s"
sh /fuzz.sh $SPECS $SECS >/tmp/fuzz.out 2>&1
sed -n '/^FUZZ-INFO\|^FUZZ-SUM/s/^/# /p' /tmp/fuzz.out

sum=$(grep '^FUZZ-SUM' /tmp/fuzz.out)
val() { echo "$sum" | tr ' ' '\n' | sed -n "s/^$1=//p"; }

# Something is accepted, and every refusal carries a known errno.
known_refusals() {
	bad=$(grep '^FUZZ-REG' /tmp/fuzz.out | awk '{ print $5 }' | sort -u |
		while read -r e; do
			[ "$e" = ok ] && continue
			case $KNOWN_ERRNOS in *" $e "*) ;; *) echo "$e" ;; esac
		done)
	[ "$(val accepted)" -gt 0 ] || { echo "no spec accepted"; return 1; }
	[ -z "$bad" ] || { echo "refusals with an unexpected errno: $bad"; return 1; }
}

check every_spec_has_a_result [ "$(grep -c '^FUZZ-REG' /tmp/fuzz.out)" -eq "$(wc -l <$SPECS)" ]
check some_accepted_refusals_known_errnos known_refusals
check accepted_probes_hit [ "$(val hits)" -gt 0 ]
check nothing_left_after_removal [ "$(val left)" = 0 ]
check alive_after_load [ "$(val alive)" = yes ]
