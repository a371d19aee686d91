# shellcheck shell=sh
# KTAP helpers for the guest's test scripts (tests.d/*.sh): source it
# with ". /ktap.sh" after setting n=0.  busybox sh.

# check NAME COMMAND...: run COMMAND; print "ok N NAME", or its output as
# KTAP comments and "not ok N NAME" and return 1.  N counts up in $n.
check() {
	name=$1; shift
	n=$((n + 1))
	if "$@" >/tmp/check.out 2>&1; then
		echo "ok $n $name"
	else
		sed 's/^/# /' /tmp/check.out
		echo "not ok $n $name"
		return 1
	fi
}

# skip_all WHY: print "ok N NAME # SKIP WHY" for every check of the
# calling script, by the names its "check NAME ..." lines give, so that
# a skipped run lists the same cases as a run that tests.
skip_all() {
	for name in $(sed -n 's/^[[:space:]]*u\{0,1\}check \([A-Za-z0-9_]*\) .*/\1/p' "$0"); do
		n=$((n + 1))
		echo "ok $n $name # SKIP $1"
	done
}
