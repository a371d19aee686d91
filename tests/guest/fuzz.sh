#!/bin/sh
# Random probes placed the way users place them: through kprobe_events.
#
#   sh /fuzz.sh SPECS SECONDS
#
# SPECS has lines "<index> <p|r> <target>" (scripts/fuzz-specs.py chooses
# them on the host, from a printed seed).  Every spec becomes the event
# fuzz/f<index>; its result is printed as "FUZZ-REG <index> <kind> <target>
# <ok|errno name>" at once, and again as "FUZZ-RES ..." at the end, when
# no kernel message cuts the lines any more.  Then all accepted events are
# enabled while:
#   - one workload loop per CPU (pinned) forks, execs, reads /proc and
#     writes files on tmpfs,
#   - a third kind of loop flips /proc/sys/debug/kprobes-optimization and
#     toggles a few random events off and on,
# for SECONDS; then everything is disabled and removed.  It prints
# "FUZZ-SUM accepted=A refused=R hits=H missed=M left=L alive=yes" at the
# end; "left" counts fuzz probes still in kprobe_events or in debugfs
# after removal (0 wanted).  The host (scripts/fuzz.sh, or tests.d/fuzz.sh
# for the short run of make test) judges: splats come from the console.
TR=/sys/kernel/tracing
DBG=/sys/kernel/debug/kprobes
OPT=/proc/sys/debug/kprobes-optimization
STOP=/tmp/fuzz.stop
specs=${1:-/fuzz/specs}
secs=${2:-60}

# busybox sh reports a failed write as "sh: write error: <strerror>".
errno_name() {
	case $1 in
	*'Invalid argument'*) echo EINVAL ;;
	*'No such file or directory'*) echo ENOENT ;;
	*'Invalid or incomplete multibyte'*|*'Illegal byte sequence'*) echo EILSEQ ;;
	*'not supported'*) echo EOPNOTSUPP ;;
	*'Cannot assign requested address'*|*'Address not available'*) echo EADDRNOTAVAIL ;;
	*'busy'*) echo EBUSY ;;
	*'File exists'*) echo EEXIST ;;
	*'No space left'*) echo ENOSPC ;;
	*'Cannot allocate memory'*|*'Out of memory'*) echo ENOMEM ;;
	*'Numerical result out of range'*|*'Result not representable'*) echo ERANGE ;;
	*'Operation not permitted'*) echo EPERM ;;
	*'No such device'*) echo ENODEV ;;
	*'No such process'*) echo ESRCH ;;
	*) echo "E?($1)" | tr ' ' '_' ;;
	esac
}

workload() {  # workload CPU
	while [ ! -f $STOP ]; do
		ls -la / /proc/self/ >/dev/null 2>&1
		cat /proc/meminfo /proc/self/maps /proc/interrupts >/dev/null 2>&1
		dd if=/dev/zero of=/tmp/fuzz.$1 bs=4k count=8 2>/dev/null
		sort /tmp/fuzz.$1 | md5sum >/dev/null
		rm -f /tmp/fuzz.$1
		(exit 0)
		sleep 0
	done
}

# Random numbers without $RANDOM (not in every busybox).
rand_below() { awk -v n="$1" -v s="$2" 'BEGIN { srand(s); print int(rand() * n) }'; }

flipper() {
	r=1
	while [ ! -f $STOP ]; do
		[ -w $OPT ] && echo 0 >$OPT
		i=0
		while [ $i -lt 4 ]; do
			r=$((r + 1))
			ev=$(sed -n "$(($(rand_below "$accepted" "$r") + 1))p" /tmp/fuzz.ok)
			if [ -n "$ev" ]; then
				echo 0 >$TR/events/fuzz/$ev/enable 2>/dev/null
				echo 1 >$TR/events/fuzz/$ev/enable 2>/dev/null
			fi
			i=$((i + 1))
		done
		sleep 1
		[ -w $OPT ] && echo 1 >$OPT
		sleep 1
	done
}

# One workload loop is this script again: sh fuzz.sh --work CPU.
if [ "$1" = --work ]; then
	workload "$2"
	exit 0
fi

count_probes() { if [ -r $DBG/list ]; then wc -l <$DBG/list; else echo 0; fi; }

: >/tmp/fuzz.res
echo >$TR/kprobe_events 2>/dev/null
probes_before=$(count_probes)
: >/tmp/fuzz.ok
accepted=0
refused=0
while read -r idx kind target; do
	[ -n "$idx" ] || continue
	if err=$( (echo "$kind:fuzz/f$idx $target" >>$TR/kprobe_events) 2>&1); then
		res=ok
		echo "f$idx" >>/tmp/fuzz.ok
		accepted=$((accepted + 1))
	else
		res=$(errno_name "$err")
		refused=$((refused + 1))
	fi
	echo "FUZZ-REG $idx $kind $target $res"
	echo "FUZZ-RES $idx $kind $target $res" >>/tmp/fuzz.res
done <"$specs"
echo "FUZZ-INFO registered: accepted $accepted, refused $refused"

if [ "$accepted" -gt 0 ]; then
	if err=$( (echo 1 >$TR/events/fuzz/enable) 2>&1); then
		echo "FUZZ-INFO enabled"
	else
		echo "FUZZ-INFO enabling all: $(errno_name "$err")"
	fi
fi
[ -r $DBG/list ] && echo "FUZZ-INFO debugfs list: $(grep -c OPTIMIZED $DBG/list) optimized, $(grep -c FTRACE $DBG/list) on ftrace, $(grep -c DISABLED $DBG/list) disabled"

rm -f $STOP
ncpu=$(grep -c ^processor /proc/cpuinfo)
cpu=0
while [ $cpu -lt "$ncpu" ]; do
	taskset -c $cpu sh "$0" --work $cpu &
	cpu=$((cpu + 1))
done
flipper &
sleep "$secs"
touch $STOP
wait
echo "FUZZ-INFO workload and flipper stopped after ${secs}s"

# kprobe_profile: event name (no group), hits, misses.
read -r hits missed <<EOF
$(awk '$1 ~ /^f[0-9]+$/ { h += $2; m += $3 } END { print h + 0, m + 0 }' $TR/kprobe_profile)
EOF
# Which events missed hits (recursion, or no free return instance).
awk '$1 ~ /^f[0-9]+$/ && $3 > 0 { print "FUZZ-MISS " $1 " hits=" $2 " missed=" $3 }' \
	$TR/kprobe_profile >/tmp/fuzz.miss
[ -w $OPT ] && echo 1 >$OPT
echo 0 >$TR/events/fuzz/enable 2>/dev/null
if ! err=$( (echo >$TR/kprobe_events) 2>&1); then
	echo "FUZZ-INFO removing the events: $(errno_name "$err")"
fi
probes_after=$(count_probes)
left=$(grep -c ':fuzz/' $TR/kprobe_events)
left=$((left + probes_after - probes_before))

# Alive: a fork, an exec and /proc still work.
if (ls / && cat /proc/meminfo) >/dev/null 2>&1; then alive=yes; else alive=no; fi
# The results once more, now that the kernel is quiet: while probes were
# registered, its messages could cut a FUZZ-REG line on the console.
cat /tmp/fuzz.res /tmp/fuzz.miss
echo "FUZZ-SUM accepted=$accepted refused=$refused hits=$hits missed=$missed left=$left alive=$alive"
