# shellcheck shell=sh
# KTAP helpers for the guest's test scripts (tests.d/*.sh): source it
# with ". /ktap.sh" after setting n=0.  busybox sh.

# check NAME COMMAND...: run COMMAND; print "ok N NAME", or its output as
# KTAP comments and "not ok N NAME".  N counts up in $n.
check() {
	name=$1; shift
	n=$((n + 1))
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok $n $name"
	else
		sed 's/^/# /' /tmp/check.out
		echo "not ok $n $name"
	fi
}
