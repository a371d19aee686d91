#!/bin/sh
# KTAP: the kernel's own ftrace selftests for kprobes, unmodified from the
# pristine tree (tools/testing/selftests/ftrace, copied to /ftrace by
# scripts/mkinitramfs.sh): every case of test.d/kprobe/ and the kprobe and
# fprobe cases of test.d/dynevent/.  ftracetest prints KTAP itself (-K);
# an UNSUPPORTED or UNTESTED case is "# SKIP", an UNRESOLVED one "not ok".
# The logs of the cases that did not pass follow as "# " diagnostics.
FT=/ftrace
if [ ! -x $FT/ftracetest ] || [ ! -d /sys/kernel/tracing/events ]; then
	echo "KTAP version 1"
	echo "1..0 # SKIP no ftracetest in the initramfs, or no tracefs"
	exit 0
fi
cd $FT || exit 1
LOGS=/tmp/ftracetest-logs
rm -rf $LOGS
./ftracetest -K -l $LOGS test.d/kprobe \
	test.d/dynevent/add_remove_kprobe.tc \
	test.d/dynevent/add_remove_fprobe.tc \
	test.d/dynevent/fprobe_args_vfs.tc \
	test.d/dynevent/fprobe_entry_arg.tc \
	test.d/dynevent/fprobe_syntax_errors.tc 2>&1 |
	grep -E '^(TAP version|KTAP version|1\.\.|ok |not ok |# )'
# ftracetest removes the logs of the cases that passed.
for f in $LOGS/*-log.*; do
	[ -f "$f" ] || continue
	echo "# ---- $(basename "$f")"
	tail -n 40 "$f" | sed 's/^/# /'
done
