#!/bin/sh
# KTAP: real tracing tools on the kernel under test.  The host's own perf
# (Debian's linux-perf) and bpftrace run in a chroot of the host's /, which
# scripts/qemu-run.sh shares read-only over virtio-9p (mount tag hostroot):
# no root file system to build, and these are the tools users have.  Every
# case asserts on what a tool reports (counts, arguments, return values,
# call chains), nothing about how kprobes is implemented: the stock 6.12
# kernel passes it too.  Without the share (HOSTROOT=0, a kernel without
# 9p) or without a tool on the host, its cases SKIP.
#
# TCG is slow and bpftrace starts LLVM every time, so the whole script keeps
# to a time budget: tools_budget=SECONDS on the kernel command line
# (KERNEL_APPEND=), 420 by default.  Cases that would start after it SKIP;
# every tool run is killed when it overruns the budget by 30 s.
#
# Alone, in `make shell`: sh /tests.d/tools.sh
HOST=/host
DBG=/sys/kernel/debug/kprobes
TR=/sys/kernel/tracing
# What the tools see: the host's paths, nothing of the guest's environment.
HOSTENV="HOME=/tmp PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C"
# The workload of the perf cases, run by the host's sh (dash) in the
# chroot: a subshell in a loop is a real fork(), 10 calls of kernel_clone.
FORKS='for i in 1 2 3 4 5 6 7 8 9 10; do (exit 0); done'
# A pid is never above this (PID_MAX_LIMIT on 64-bit).
PID_MAX=4194304

n=0
check() {  # check NAME COMMAND...
	local t0
	t0=$(date +%s)
	name=$1; shift
	n=$((n + 1))
	: >/tmp/tools.notes
	if "$@" >/tmp/check.out 2>&1; then
		defuse </tmp/tools.notes
		echo "# $name: $(($(date +%s) - t0)) s"
		echo "ok $n $name"
	else
		defuse </tmp/check.out
		defuse </tmp/tools.notes
		echo "# $name: $(($(date +%s) - t0)) s"
		echo "not ok $n $name"
	fi
}

note() {  # note TEXT: a diagnostic line printed even when the case passes
	echo "$*" >>/tmp/tools.notes
}

# Diagnostics go to the console, which scripts/ktap-summary.py scans for
# kernel splats: what the tools print ("WARNING: ...") must not look like
# one.  The kernel's own messages do not pass through here.
defuse() {
	sed -E -e 's/^/# /' \
		-e 's/(WARNING|BUG|INFO):/\1 :/g' \
		-e 's/Call Trace:/Call Trace :/g' \
		-e 's/KASAN/K-ASAN/g; s/UBSAN/U-BSAN/g; s/Oops/O-ops/g' \
		-e 's/Kernel panic/Kernel-panic/g' \
		-e 's/general protection fault/general-protection fault/g' \
		-e 's/possible (circular|recursive) locking/possible \1-locking/g' \
		-e 's/inconsistent lock state/inconsistent lock-state/g' \
		-e 's/suspicious RCU usage/suspicious RCU-usage/g' \
		-e 's/sleeping function called/sleeping-function called/g' \
		-e 's/stack-protector/stack protector/g'
}

cmdline_arg() {
	for a in $(cat /proc/cmdline); do
		case $a in "$1"=*) echo "${a#*=}"; return ;; esac
	done
}

START=$(date +%s)
BUDGET=$(cmdline_arg tools_budget)
case $BUDGET in ''|*[!0-9]*) BUDGET=420 ;; esac
left() { echo $((START + BUDGET - $(date +%s))); }
cap() {  # cap SECS: SECS, or less when the budget runs out (30 at least)
	local l
	l=$(left)
	[ "$l" -lt 30 ] && l=30
	[ "$1" -lt "$l" ] && l=$1
	echo "$l"
}

tcase() {  # tcase WHY NAME COMMAND...: check, or SKIP when WHY is not empty
	local why="$1"
	shift
	[ -z "$why" ] && [ "$(left)" -le 0 ] && why="time budget of ${BUDGET} s used up (tools_budget=)"
	if [ -n "$why" ]; then
		n=$((n + 1))
		echo "ok $n $1 # SKIP $why"
		return
	fi
	check "$@"
}

in_host() {  # in_host SECS CMD...: CMD in the host's /, killed after SECS
	local t
	t=$(cap "$1")
	shift
	# shellcheck disable=SC2086 # HOSTENV: one word per variable
	timeout -k 10 "$t" chroot $HOST env -i $HOSTENV "$@"
}

# --- the host's / at /host, with the guest's kernel file systems in it ---
HOST_WHY=
PERF_WHY=
BT_WHY=
host_mounts() {  # every mount point under /host, deepest first
	awk -v h="$HOST" '$2 == h || index($2, h "/") == 1 { print $2 }' /proc/mounts |
		sort -r
}
teardown_host() {
	local m
	for m in $(host_mounts); do
		umount "$m" 2>/dev/null || umount -l "$m"
	done
}
setup_host() {
	local d
	mkdir -p $HOST
	# A second run (make shell) starts from scratch.
	teardown_host
	if ! grep -qw 9p /proc/filesystems; then
		HOST_WHY="no 9p file system in this kernel (CONFIG_9P_FS)"
		return 1
	fi
	# cache=loose: the tools' binaries and libraries are read once.
	if ! mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose,msize=512000 \
			hostroot $HOST 2>/tmp/tools.out &&
		! mount -t 9p -o trans=virtio,version=9p2000.L,ro hostroot $HOST 2>>/tmp/tools.out; then
		defuse </tmp/tools.out
		HOST_WHY="cannot mount the host's / (9p tag hostroot; HOSTROOT=0?)"
		return 1
	fi
	# Not recursive: debugfs and tracefs on top of /sys one by one.
	for d in proc sys dev sys/kernel/debug sys/kernel/tracing; do
		grep -q " /$d " /proc/mounts || continue
		if ! mount -o bind /$d $HOST/$d; then
			HOST_WHY="cannot bind /$d into $HOST"
			return 1
		fi
	done
	if ! mount -t tmpfs tmpfs $HOST/tmp; then
		HOST_WHY="cannot mount a tmpfs on $HOST/tmp"
		return 1
	fi
	# A tool that does not start (libraries, the loader) is not a kprobes
	# failure: SKIP, with what it said.
	if [ ! -x $HOST/usr/bin/perf ]; then
		PERF_WHY="no perf on the host (apt-get install linux-perf)"
	elif in_host 120 perf version >/tmp/tools.out 2>&1; then
		defuse </tmp/tools.out
	else
		defuse </tmp/tools.out
		PERF_WHY="the host's perf does not run in the guest"
	fi
	if [ ! -x $HOST/usr/bin/bpftrace ]; then
		BT_WHY="no bpftrace on the host (apt-get install bpftrace)"
	elif in_host 120 bpftrace --version >/tmp/tools.out 2>&1; then
		defuse </tmp/tools.out
	else
		defuse </tmp/tools.out
		BT_WHY="the host's bpftrace does not run in the guest"
	fi
	return 0
}

# --- kprobes as debugfs lists them: "ADDR  TYPE  SYMBOL+0xOFF  [FLAGS]" ---
HAVE_DBG=0
[ -r $DBG/list ] && HAVE_DBG=1
listed() {  # listed FUNC: how many kprobes of any type on FUNC
	grep -c "  $1+0x" $DBG/list 2>/dev/null
}
armed_counts() {  # armed_counts TYPE:FUNC...: enabled TYPE probes on each FUNC
	local w
	for w in "$@"; do
		printf '%s ' "$(grep "  ${w%%:*}  ${w#*:}+0x" $DBG/list 2>/dev/null | grep -vc DISABLED)"
	done
}

# --- perf ---
perf_() { in_host 150 perf "$@"; }

has_event() {  # has_event NAME: the perf probe event probe:NAME is defined
	grep -Eq "^[pr][0-9]*:probe/$1 " $TR/kprobe_events
}

# The perf cases share probe:kernel_clone from the first one to
# perf_probe_delete.  One that finds it missing (an earlier case failed)
# adds it itself, so that one failure does not hide the next.
need_event() {  # need_event NAME PROBEDEF...
	local ev="$1"
	shift
	has_event "$ev" && return 0
	echo "probe:$ev is missing: adding it"
	perf_ probe -a "$@" || return 1
	has_event "$ev" || { echo "perf probe did not define probe/$ev"; return 1; }
}

# Leftovers of an earlier run (make shell) would make perf probe -a fail.
drop_probe_events() {
	local ev
	[ -w $TR/kprobe_events ] || return 0
	for ev in $(grep -Eo '^[pr][0-9]*:probe/[^ ]+' $TR/kprobe_events | sed 's/^[^:]*:/-:/'); do
		echo "$ev" >>$TR/kprobe_events
	done
}

# Without debuginfo perf probe finds the function in /proc/kallsyms (and
# checks the debugfs blacklist); the event appears in tracefs, perf lists
# it, and the kprobe behind it in debugfs.
perf_probe_add_list() {
	local rc=0 before
	before=$(listed kernel_clone)
	perf_ probe -a kernel_clone || return 1
	has_event kernel_clone ||
		{ echo "no probe/kernel_clone in kprobe_events:"; cat $TR/kprobe_events; rc=1; }
	perf_ probe -l >/tmp/tools.out 2>&1
	grep -Eq '^[[:space:]]*probe:kernel_clone[[:space:]]+\(on kernel_clone' /tmp/tools.out ||
		{ echo "perf probe -l does not list probe:kernel_clone:"; cat /tmp/tools.out; rc=1; }
	if [ $HAVE_DBG = 1 ] && [ "$(listed kernel_clone)" -le "$before" ]; then
		echo "no new kernel_clone kprobe in $DBG/list:"; cat $DBG/list; rc=1
	fi
	return $rc
}

COUNT=
stat_count() {  # stat_count EVENT: perf stat -a probe:EVENT over $FORKS into COUNT
	COUNT=
	perf_ stat -x, -o /tmp/stat.csv -a -e "probe:$1" -- sh -c "$FORKS" || return 1
	# -x,: "count,unit,event,..." per event
	COUNT=$(awk -F, -v e="probe:$1" '$3 == e { print $1 }' $HOST/tmp/stat.csv)
	case $COUNT in
		''|*[!0-9]*) echo "no count of probe:$1 from perf stat:"; cat $HOST/tmp/stat.csv; return 1 ;;
	esac
	note "probe:$1 counted $COUNT over 10 forks"
}

perf_stat_counts() {
	need_event kernel_clone kernel_clone || return 1
	stat_count kernel_clone || return 1
	[ "$COUNT" -ge 10 ] || { echo "probe:kernel_clone counted $COUNT for 10 forks"; return 1; }
}

# Every sample of the probe has a kernel call chain from kernel_clone down
# to the system call that called it (perf callchains from the kprobe's
# registers, through the unwinder).  perf script: a sample line, then one
# "<TAB>ADDR SYMBOL+0xOFF (DSO)" line per frame, then an empty line.
perf_record_callchain() {
	local res ns good
	need_event kernel_clone kernel_clone || return 1
	perf_ record -N -e probe:kernel_clone -g -o /tmp/perf.data -- sh -c "$FORKS" || return 1
	perf_ script -i /tmp/perf.data --kallsyms /proc/kallsyms >/tmp/tools.out 2>/tmp/tools.err ||
		{ cat /tmp/tools.err /tmp/tools.out; return 1; }
	res=$(awk '
		/probe:kernel_clone:/ && !/^\t/ { ns++; insample = 1; kc = 0; ok = 0; next }
		/^[ \t]*$/ { if (insample && ok) good++; insample = 0; next }
		insample && /^\t/ {
			sym = $2; sub(/\+0x[0-9a-f]+$/, "", sym)
			if (sym == "kernel_clone") kc = 1
			else if (kc && sym == "do_syscall_64") ok = 1
		}
		END { if (insample && ok) good++; print ns + 0, good + 0 }' /tmp/tools.out)
	ns=${res% *}
	good=${res#* }
	note "$ns samples, $good with kernel_clone <- ... <- do_syscall_64"
	if [ "$ns" -lt 10 ] || [ "$good" -ne "$ns" ]; then
		echo "$ns samples of probe:kernel_clone for 10 forks, $good of them with" \
			"a call chain kernel_clone <- ... <- do_syscall_64:"
		head -n 60 /tmp/tools.out
		return 1
	fi
}

# A return probe; $retval (a fetch argument kprobe events know) if perf
# takes it without debuginfo, or a bare return probe.
perf_probe_return() {
	if ! has_event kernel_clone__return; then
		# shellcheck disable=SC2016 # $retval is for perf, not the shell
		perf_ probe -a 'kernel_clone%return $retval' ||
			{ echo "(refused with \$retval: again without)"; perf_ probe -a 'kernel_clone%return'; } ||
			return 1
	fi
	has_event kernel_clone__return ||
		{ echo "no probe/kernel_clone__return in kprobe_events:"; cat $TR/kprobe_events; return 1; }
	if [ $HAVE_DBG = 1 ] && ! grep -q '  r  kernel_clone+0x' $DBG/list; then
		echo "no return probe on kernel_clone in $DBG/list:"; cat $DBG/list; return 1
	fi
	stat_count kernel_clone__return || return 1
	[ "$COUNT" -ge 10 ] || { echo "probe:kernel_clone__return counted $COUNT for 10 forks"; return 1; }
}

# perf probe -d takes every probe of the group away: from tracefs, from
# perf's list, and the kprobes themselves from debugfs.
perf_probe_delete() {
	local rc=0
	need_event kernel_clone kernel_clone || return 1
	perf_ probe -d 'probe:*' || return 1
	if grep -E '^[pr][0-9]*:probe/' $TR/kprobe_events; then
		echo "^ left in kprobe_events"; rc=1
	fi
	perf_ probe -l >/tmp/tools.out 2>&1
	if grep 'probe:' /tmp/tools.out; then
		echo "^ still listed by perf probe -l"; rc=1
	fi
	if [ $HAVE_DBG = 1 ] && [ "$(listed kernel_clone)" -ne "$KC0" ]; then
		echo "kernel_clone kprobes left in $DBG/list (there were $KC0 before):"
		grep '  kernel_clone+0x' $DBG/list; rc=1
	fi
	return $rc
}

# --- bpftrace ---
alive() {  # alive PID: running (a zombie is not)
	[ -r "/proc/$1/status" ] && ! grep -q "^State:[[:space:]]*[ZX]" "/proc/$1/status"
}

forks() {  # forks N: N fork()s from this shell; the children's pids in /tmp/tools.pids
	local i=0
	: >/tmp/tools.pids
	while [ $i -lt "$1" ]; do
		(exit 0) &
		echo $! >>/tmp/tools.pids
		wait $!
		i=$((i + 1))
	done
}

more_armed() {  # more_armed "COUNTS" "COUNTS": each count of the second is higher
	echo "$1|$2" | awk -F'|' '{
		n = split($1, a, " "); split($2, b, " ")
		for (i = 1; i <= n; i++) if (b[i] <= a[i]) exit 1
	}'
}

# bt_run PROGRAM TYPE:FUNC...: start bpftrace with PROGRAM, wait until each
# TYPE:FUNC ("k:f" a kprobe on f, "r:f" a return probe) is one more enabled
# probe in debugfs, fork 10 times (forks), stop bpftrace with SIGINT: it
# prints its maps on the way out, into /tmp/tools.bt.  Then its probes must
# be gone.  bpftrace is started directly, not through in_host: $! must be
# bpftrace itself (busybox timeout execs its command) for the kill.
bt_run() {
	local prog="$1" base="" i=0 att=0 limit pid
	shift
	[ $HAVE_DBG = 1 ] && base=$(armed_counts "$@")
	# shellcheck disable=SC2086 # HOSTENV: one word per variable
	timeout -k 10 "$(cap 300)" chroot $HOST env -i $HOSTENV \
		bpftrace -e "$prog" >/tmp/tools.bt 2>&1 &
	pid=$!
	limit=$(cap 240)
	while :; do
		if ! alive $pid; then
			wait $pid
			echo "bpftrace ended before its probes were armed:"; cat /tmp/tools.bt
			return 1
		fi
		if [ $HAVE_DBG = 1 ] && more_armed "$base" "$(armed_counts "$@")"; then
			break
		fi
		# It says "Attaching N probes..." before it attaches.  Should
		# debugfs never show them (no debugfs, or a kind of probe it does
		# not list), go on a while after that.
		if grep -q '^Attaching' /tmp/tools.bt; then
			att=$((att + 1))
			if [ $att -ge 30 ] || { [ $HAVE_DBG = 0 ] && [ $att -ge 10 ]; }; then
				[ $HAVE_DBG = 1 ] &&
					note "probes not armed in debugfs $att s after bpftrace said Attaching: going on"
				break
			fi
		fi
		i=$((i + 1))
		if [ $i -ge "$limit" ]; then
			echo "bpftrace's probes not armed after $limit s:"
			kill -KILL $pid; wait $pid; cat /tmp/tools.bt
			[ $HAVE_DBG = 1 ] && cat $DBG/list
			return 1
		fi
		sleep 1
	done
	note "bpftrace armed after $i s"
	# The kprobe is enabled when its perf event opens; the BPF program is
	# attached just after.
	sleep 1
	forks 10
	kill -INT $pid
	wait $pid
	[ $HAVE_DBG = 1 ] || return 0
	i=0
	while [ "$(armed_counts "$@")" != "$base" ]; do
		i=$((i + 1))
		if [ $i -ge 10 ]; then
			echo "bpftrace's probes still there after it ended:"; cat $DBG/list
			return 1
		fi
		sleep 1
	done
}

bt_value() {  # bt_value MAP: the value of bpftrace's scalar map @MAP
	sed -n "s/^@$1: //p" /tmp/tools.bt | tail -n 1
}

int_ge() {  # int_ge A B: A is an integer >= B
	case $1 in ''|*[!0-9]*) return 1 ;; esac
	[ "$1" -ge "$2" ]
}

# kernel_clone(struct kernel_clone_args *args): arg0 is the structure, and
# its first member (u64 flags) of a fork() from glibc has
# CLONE_CHILD_CLEARTID (0x200000), which kernel threads never have.
bpftrace_kprobe_args() {
	local calls cleartid
	bt_run 'kprobe:kernel_clone {
		@calls = count();
		@cleartid = sum((*(uint64 *)arg0 & 0x200000) != 0 ? 1 : 0);
	}' k:kernel_clone || return 1
	calls=$(bt_value calls)
	cleartid=$(bt_value cleartid)
	note "@calls $calls, @cleartid $cleartid for 10 forks"
	if ! int_ge "$calls" 10 || ! int_ge "$cleartid" 10; then
		echo "10 forks: @calls '$calls', @cleartid (CLONE_CHILD_CLEARTID in args->flags) '$cleartid'"
		cat /tmp/tools.bt
		return 1
	fi
}

# retval is what kernel_clone returned to the forking shell: every child's
# pid is among them, and no return value is 0, negative or beyond PID_MAX.
bpftrace_kretprobe_retval() {
	local bad p missing=""
	bt_run "kretprobe:kernel_clone {
		@ret[retval] = count();
		@bad = sum((retval == 0 || retval > $PID_MAX) ? 1 : 0);
	}" r:kernel_clone || return 1
	bad=$(bt_value bad)
	for p in $(cat /tmp/tools.pids); do
		grep -q "^@ret\[$p]: " /tmp/tools.bt || missing="$missing $p"
	done
	note "retvals: $(grep -c '^@ret\[' /tmp/tools.bt) pids, @bad $bad"
	if [ -n "$missing" ] || [ "$bad" != 0 ]; then
		echo "children not among the return values:${missing:- none}; returns not a pid: '$bad'"
		cat /tmp/tools.bt
		return 1
	fi
}

# A stack trace taken inside a kretprobed function: copy_process runs while
# kernel_clone's return address is the return trampoline.  The unwinder must
# give the real caller: from kernel_clone down to do_syscall_64 for the
# shell's forks, and no frame anywhere named *trampoline*.  bpftrace prints
# "@stk[", one "SYMBOL+OFF" line per frame, "]: COUNT".
bpftrace_kstack_under_kretprobe() {
	local ret res ns good tramp
	bt_run 'kretprobe:kernel_clone { @ret = count(); }
		kprobe:copy_process { @stk[kstack] = count(); }' r:kernel_clone k:copy_process ||
		return 1
	ret=$(bt_value ret)
	res=$(awk '
		/^@stk\[/ { st = 1; kc = 0; ok = 0; bad = 0; next }
		st && /^\]/ { st = 0; ns++; good += ok; tramp += bad; next }
		st {
			sym = $1; sub(/\+[0-9]+$/, "", sym)
			if (sym ~ /trampoline/) bad = 1
			if (sym == "kernel_clone") kc = 1
			else if (kc && sym == "do_syscall_64") ok = 1
		}
		END { print ns + 0, good + 0, tramp + 0 }' /tmp/tools.bt)
	ns=${res%% *}
	res=${res#* }
	good=${res% *}
	tramp=${res#* }
	note "@ret $ret; $ns stacks, $good through kernel_clone to do_syscall_64, $tramp with a trampoline"
	if ! int_ge "$ret" 10 || [ "$good" -lt 1 ] || [ "$tramp" -ne 0 ]; then
		echo "10 forks: @ret '$ret'; $ns stacks, $good of them" \
			"copy_process <- kernel_clone <- ... <- do_syscall_64, $tramp with a trampoline frame:"
		cat /tmp/tools.bt
		return 1
	fi
}

echo "KTAP version 1"
echo "1..8"
setup_host || PERF_WHY=$HOST_WHY BT_WHY=$HOST_WHY
drop_probe_events
KC0=$(listed kernel_clone)
tcase "$PERF_WHY" perf_probe_add_list perf_probe_add_list
tcase "$PERF_WHY" perf_stat_counts perf_stat_counts
tcase "$PERF_WHY" perf_record_callchain perf_record_callchain
tcase "$PERF_WHY" perf_probe_return perf_probe_return
tcase "$PERF_WHY" perf_probe_delete perf_probe_delete
tcase "$BT_WHY" bpftrace_kprobe_args bpftrace_kprobe_args
tcase "$BT_WHY" bpftrace_kretprobe_retval bpftrace_kretprobe_retval
tcase "$BT_WHY" bpftrace_kstack_under_kretprobe bpftrace_kstack_under_kretprobe
# Whatever a failed or skipped case left behind.
drop_probe_events
teardown_host
echo "# tools: $(($(date +%s) - START)) s in all"
