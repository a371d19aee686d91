#!/bin/sh
# KTAP: user-space probes (register_kprobe_user()), driven through the
# kprobes_user_test module on /bin/kpu-target (tests/user/).  Every run
# checks that the probed program computes what it computes unprobed.
D=/sys/kernel/debug/kprobes_user_test
T=/bin/kpu-target
PLAN=18
n=0
. /ktap.sh

echo "KTAP version 1"
echo "1..$PLAN"
if ! grep -q '^CONFIG_UPROBES=y' /etc/kernel.config || ! modprobe kprobes_user_test 2>/dev/null && [ ! -d $D ]; then
	skip_all "no kprobes_user_test (no UPROBES, or a kernel without user-space probes)"
	exit 0
fi

stat_of() { grep "^$1 " $D/stats | cut -d' ' -f2; }
# ctl CMD...: run one command; prints the error it returned (0 for none)
ctl() { echo "$*" >$D/ctl 2>/dev/null; stat_of ret; }
off() { $T offsets | grep "^$1 " | cut -d' ' -f2; }
expect() {  # expect WHAT GOT WANT
	[ "$2" = "$3" ] && return 0
	echo "$1: got '$2', want '$3'"
	return 1
}
expect_stats() {  # expect_stats KEY=VALUE...
	local kv bad=0
	for kv in "$@"; do
		expect "${kv%%=*}" "$(stat_of "${kv%%=*}")" "${kv#*=}" || bad=1
	done
	[ $bad = 0 ] || { cat $D/stats; return 1; }
}

# start NAME MODE N [PROGRAM]: start kpu-target (or its copy PROGRAM) in
# the background; when it says it is ready, its pid is in $NAME_pid and
# its output goes to /tmp/NAME.out.  A program that is not ready in 30 s
# fails the check, with what it printed and where it waits.
STARTED=
start() {
	local i=0 pid
	: >"/tmp/$1.out"
	${4:-$T} "$2" "$3" >>"/tmp/$1.out" 2>&1 &
	pid=$!
	eval "$1_pid=$pid"
	STARTED="$STARTED $pid"
	while ! grep -q '^ready' "/tmp/$1.out" && [ $i -lt 600 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	grep -q '^ready' "/tmp/$1.out" && return 0
	echo "$1 (pid $pid) not ready after 30 s; it printed:"
	cat "/tmp/$1.out"
	grep '^State' "/proc/$pid/status"
	echo "wchan: $(cat "/proc/$pid/wchan" 2>/dev/null)"
	cat "/proc/$pid/stack" 2>/dev/null
	return 1
}
# tidy: after a failed check, leave nothing behind for the next one: no
# program of ours running, the handlers back to their defaults, no
# probe registered.
tidy() {
	local pid
	for pid in $STARTED; do
		kill -9 "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
	done
	ctl sleep 0 >/dev/null
	ctl misuse 0 >/dev/null
	ctl unreg >/dev/null
}
# ucheck NAME FUNCTION: check, then tidy if it failed.
ucheck() {
	STARTED=
	check "$@" || tidy
}
# finish NAME: let it run and wait for it; its exit status is in $rc
finish() {
	eval "kill -USR1 \$$1_pid; wait \$$1_pid"
	rc=$?
}
out_of() { grep "^$2 " "/tmp/$1.out" | cut -d' ' -f2; }
wait_hits() {  # wait_hits N: until the pre handler ran N times (10 s at most)
	local i=0
	while [ "$(stat_of pre)" -lt "$1" ] && [ $i -lt 200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ "$(stat_of pre)" -ge "$1" ]
}

ADD=$(off kpu_add)
SIZE=$(stat -c %s $T)
case $(uname -m) in
	x86_64|i?86) VARIABLE_LENGTH_INSNS=true ;;
	*) VARIABLE_LENGTH_INSNS=false ;;
esac

# Bad requests: a clear errno, nothing registered.  A process maps the
# file, so registration reads its headers at once.
bad_registers() {
	start z add 1 &&
	expect "a directory" "$(ctl reg /bin 0)" -22 &&
	expect "past the end" "$(ctl reg $T "$SIZE")" -22 &&
	expect "inside kpu_add's first instruction" "$(ctl reg $T $((ADD + 1)))" -84 &&
	expect "data (kpu_data)" "$(ctl reg $T "$(off kpu_data)")" -8 &&
	expect "a file that is not there" "$(ctl reg /nonexistent 0)" -2 &&
	expect "arm unregistered" "$(ctl arm $$)" -22 &&
	expect "disarm unregistered" "$(ctl disarm $$)" -22 &&
	finish z && expect "z exit" $rc 0
}
ucheck user_bad_requests bad_registers

# Nothing maps the file: registration cannot read it through a struct
# file, and the first arm makes the checks instead: of the program
# headers (data), and on x86 of the instruction boundary.  Where
# instructions are aligned, a misaligned offset is refused at once.
checks_at_first_arm() {
	expect "reg data (kpu_data)" "$(ctl reg $T "$(off kpu_data)")" 0 &&
	start c add 1 &&
	expect "arm: data" "$(ctl arm "$c_pid")" -8 &&
	expect "arm again: still refused" "$(ctl arm "$c_pid")" -8 &&
	expect "unreg data" "$(ctl unreg)" 0 &&
	finish c && expect "c exit" $rc 0 &&
	if $VARIABLE_LENGTH_INSNS; then
		expect "reg inside kpu_add's first instruction" "$(ctl reg $T $((ADD + 1)))" 0 &&
		start c add 1 &&
		expect "arm: inside an instruction" "$(ctl arm "$c_pid")" -84 &&
		expect "arm again: still refused" "$(ctl arm "$c_pid")" -84 &&
		expect unreg "$(ctl unreg)" 0 &&
		finish c && expect "c exit" $rc 0
	else
		expect "reg inside kpu_add's first instruction" "$(ctl reg $T $((ADD + 1)))" -84
	fi
}
ucheck user_checks_at_first_arm checks_at_first_arm

# kpu_add in two processes of one file, armed in the first only; the
# handlers sleep.  Right registers before and after the ADD (LEA on x86), exact counts.
two_processes() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	expect "reg again" "$(ctl reg $T "$ADD")" -16 &&
	ctl sleep 30 >/dev/null &&
	start a add 100 && start b add 100 &&
	expect arm "$(ctl arm "$a_pid")" 0 &&
	expect "arm again" "$(ctl arm "$a_pid")" -17 &&
	expect "arm a process without the file" "$(ctl arm $$)" -2 &&
	finish a && expect "a exit" $rc 0 && finish b && expect "b exit" $rc 0 &&
	ctl sleep 0 >/dev/null &&
	expect "a sum" "$(out_of a sum)" 104950 &&
	expect "b sum" "$(out_of b sum)" 104950 &&
	expect_stats pre=100 post=100 fault=0 missed=0 tgid_other=0 \
		sum_di=4950 sum_si=100000 sum_ax=104950 &&
	expect "post ip - pre ip" $(($(stat_of post_ip) - $(stat_of pre_ip))) 4
}
ucheck user_armed_in_one_process_only two_processes
# The first process is gone (reaped): no pid to disarm.
gone_process() {
	echo "pid of the first process: '$a_pid'"
	expect "disarm a reaped process" "$(ctl disarm "$a_pid")" -3
}
ucheck user_disarm_gone_process gone_process
unregister() { expect unreg "$(ctl unreg)" 0; }
ucheck user_unregister unregister

# Between a compare and its branch: the branch goes the same way.
compare_branch() {
	expect reg "$(ctl reg $T "$(off kpu_max_jcc)")" 0 &&
	start m max 100 && expect arm "$(ctl arm "$m_pid")" 0 &&
	finish m && expect exit $rc 0 &&
	expect "sum of max(i, 50)" "$(out_of m sum)" 6225 &&
	expect_stats pre=100 post=100 fault=0
}
ucheck user_between_compare_and_branch compare_branch
ucheck user_unregister_2 unregister

# Arming is per address space: a child forked after arming is not armed.
fork_child() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	start f fork 50 && expect arm "$(ctl arm "$f_pid")" 0 &&
	finish f && expect exit $rc 0 &&
	expect "child sum" "$(out_of f child)" 51225 &&
	expect "parent sum" "$(out_of f sum)" 51225 &&
	expect_stats pre=50 post=50 tgid_other=0
}
ucheck user_fork_child_not_armed fork_child
ucheck user_unregister_3 unregister

# A probed load that faults: the fault handler sees the page fault (x86:
# trap 14; arm64: a syndrome of class 0x24, data abort from EL0), the
# program still dies of SIGSEGV as it would unprobed.
page_fault_trap() {
	case $(uname -m) in
	aarch64) [ $(($1 >> 26 & 0x3f)) -eq $((0x24)) ] ;;
	*) [ "$1" = 14 ] ;;
	esac || { echo "trapnr $1 is no page fault on $(uname -m)"; return 1; }
}
faulting_load() {
	expect reg "$(ctl reg $T "$(off kpu_load_insn)")" 0 &&
	start l load 0 && expect arm "$(ctl arm "$l_pid")" 0 &&
	finish l && expect "exit (SIGSEGV)" $rc 139 &&
	expect "first load" "$(out_of l loaded)" 7 &&
	expect_stats pre=2 post=1 fault=1 &&
	page_fault_trap "$(stat_of trapnr)"
}
ucheck user_fault_in_step faulting_load
ucheck user_unregister_4 unregister

# Disarm, and unregister, while the program runs through the probe.
N=1000000
SUM=500999500000
disarm_running() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	start r add $N && expect arm "$(ctl arm "$r_pid")" 0 &&
	eval "kill -USR1 $r_pid" && wait_hits 10 &&
	expect disarm "$(ctl disarm "$r_pid")" 0 &&
	hits=$(stat_of pre) && sleep 0.5 &&
	expect "hits after disarm" "$(stat_of pre)" "$hits" &&
	wait "$r_pid" && expect sum "$(out_of r sum)" $SUM &&
	expect unreg "$(ctl unreg)" 0
}
ucheck user_disarm_while_running disarm_running
unregister_running() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	start u add $N && expect arm "$(ctl arm "$u_pid")" 0 &&
	eval "kill -USR1 $u_pid" && wait_hits 10 &&
	expect unreg "$(ctl unreg)" 0 &&
	wait "$u_pid" && expect sum "$(out_of u sum)" $SUM &&
	[ "$(stat_of pre)" -lt $N ]
}
ucheck user_unregister_while_running unregister_running

# A fatal signal while the task is in the probe (its pre handler sleeps,
# the out-of-line step comes next) ends the step early: that is no
# trap, and the fault handler is not called.  The handler sleeps 3 s: a
# guest on a busy host takes more than one to see the hit and kill.
fatal_signal_in_step() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	ctl sleep 3000000 >/dev/null &&
	start k add 100 && expect arm "$(ctl arm "$k_pid")" 0 &&
	kill -USR1 "$k_pid" && wait_hits 1 && kill -9 "$k_pid"
	wait "$k_pid"
	rc=$?
	ctl sleep 0 >/dev/null
	expect "exit (SIGKILL)" $rc 137 &&
	expect_stats pre=1 fault=0 &&
	expect unreg "$(ctl unreg)" 0
}
ucheck user_fatal_signal_is_no_fault fatal_signal_in_step

# The API from the probe's own handler would wait for that handler:
# refused (-EDEADLK, one warning), the probe stays registered.
api_from_handler() {
	expect reg "$(ctl reg $T "$ADD")" 0 &&
	ctl misuse 1 >/dev/null &&
	# From the arm on: the first hit may come before arm's answer.
	echo "=== EXPECT-SPLAT BEGIN kernel/kprobes/user.c ===" >/dev/console &&
	start h add 10 && expect arm "$(ctl arm "$h_pid")" 0 &&
	finish h
	echo "=== EXPECT-SPLAT END ===" >/dev/console
	expect "h exit" $rc 0 &&
	expect "h sum" "$(out_of h sum)" 10045 &&
	expect_stats pre=10 post=10 inner_ret=-35 &&
	expect "reg again: still registered" "$(ctl reg $T "$ADD")" -16 &&
	expect unreg "$(ctl unreg)" 0
}
ucheck user_api_from_handler_refused api_from_handler

# A file on FUSE, whose ->read_folio needs the struct file of an open:
# the checks read through a mapping's file, at the first arm when
# nothing maps the file at registration, at once when something does.
fuse_file() {
	local F=/mnt/fuse/kpu-target i=0
	grep -q '^CONFIG_FUSE_FS=y' /etc/kernel.config || { echo "no FUSE"; return 0; }
	mkdir -p /mnt/fuse &&
	{ kpu-fuse /mnt/fuse $T >/tmp/fuse.out 2>&1 & } &&
	while [ ! -f $F ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	[ -f $F ] || { cat /tmp/fuse.out; return 1; }
	expect "reg data, nothing maps it" "$(ctl reg $F "$(off kpu_data)")" 0 &&
	start fa add 100 $F &&
	expect "arm: data" "$(ctl arm "$fa_pid")" -8 &&
	expect unreg "$(ctl unreg)" 0 &&
	expect "reg, mapped" "$(ctl reg $F "$ADD")" 0 &&
	expect arm "$(ctl arm "$fa_pid")" 0 &&
	finish fa && expect "fa exit" $rc 0 &&
	expect "fa sum" "$(out_of fa sum)" 104950 &&
	expect_stats pre=100 post=100 fault=0 &&
	expect unreg "$(ctl unreg)" 0
	rc=$?
	umount /mnt/fuse
	return $rc
}
ucheck user_probe_on_fuse fuse_file

# The probe can be registered again after all that, and the module goes.
reregister() { expect reg "$(ctl reg $T "$ADD")" 0 && unregister; }
ucheck user_reregister reregister
check user_module_unloads sh -c "! grep -q '^kprobes_user_test ' /proc/modules || rmmod kprobes_user_test"
