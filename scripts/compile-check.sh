#!/usr/bin/env bash
# make compile-check: compile the kprobes code of ported architectures that
# make test does not build, in the configs they are built with: so that a
# change of the generic code that breaks one of them fails at once, in
# minutes, not in a matrix line of an hour.
#
# For each of CC_ARCHES (default "i386 riscv arm64 ppc64 ppc64le ppc32 s390"):
# the architecture's defconfig plus configs/matrix/<i386|cross|arm64>.config
# (kprobes, their users and the KUnit suites) with modules on, then `make prepare` and W=1
# builds of kernel/kprobes/ and the architecture's kprobes directory only.
# kunit.py on arm64 (CI) builds everything in, without modules; this
# builds the module paths too.  Each architecture is one line:
#
#   compile-check <arch>: ok, N objects, 0 warnings in our files
#   compile-check <arch>: FAILED (...)
#
# and the last line is "N passed, M failed".  Objects go to
# build/compile-check/<arch>/.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

CC_ARCHES=${CC_ARCHES:-"i386 riscv arm64 ppc64 ppc64le ppc32 s390"}
CDIR=$BUILD/compile-check
SRC=$BUILD/linux
FRAG=$ROOT/configs/matrix
# Warnings in these paths count; the rest of the kernel is not ours.
OURS_RE='(kernel/kprobes/|arch/[a-z0-9]+/kernel/(kprobes|probes)/|include/linux/kprobes(_arch)?\.h|arch/[a-z0-9]+/include/asm/kprobes\.h)'

# make's variables, defconfig, fragment and kprobes directory of an arch.
arch_setup() {
	case $1 in
	i386)
		VARS=(ARCH=i386 "CC=ccache gcc")
		DEFCONFIG=i386_defconfig FRAGMENT=$FRAG/i386.config
		ARCHDIR=arch/x86/kernel/kprobes/ ;;
	riscv)
		VARS=(ARCH=riscv CROSS_COMPILE=riscv64-linux-gnu-
		      "CC=ccache riscv64-linux-gnu-gcc")
		DEFCONFIG=defconfig FRAGMENT=$FRAG/cross.config
		ARCHDIR=arch/riscv/kernel/kprobes/ ;;
	arm64)
		VARS=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-
		      "CC=ccache aarch64-linux-gnu-gcc")
		DEFCONFIG=defconfig FRAGMENT=$FRAG/arm64.config
		ARCHDIR=arch/arm64/kernel/kprobes/ ;;
	# ppc64 big-endian ELFv2, ppc64le and 32-bit Book3S: one compiler.
	ppc64 | ppc64le | ppc32)
		VARS=(ARCH=powerpc CROSS_COMPILE=powerpc64le-linux-gnu-
		      "CC=ccache powerpc64le-linux-gnu-gcc")
		case $1 in
		ppc64) DEFCONFIG=ppc64_defconfig ;;
		ppc64le) DEFCONFIG=ppc64le_defconfig ;;
		ppc32) DEFCONFIG=pmac32_defconfig ;;
		esac
		FRAGMENT=$FRAG/cross.config
		# The BPF JITs take BREAKPOINT_INSTRUCTION and
		# ppc_function_entry() from <asm/kprobes.h>.
		ARCHDIR="arch/powerpc/kernel/kprobes/ arch/powerpc/net/" ;;
	# s390: the glue is in kernel/ (ftrace.c, stacktrace.c, the
	# unwinder), the shared decoder and the stock test in lib/.
	s390)
		VARS=(ARCH=s390 CROSS_COMPILE=s390x-linux-gnu-
		      "CC=ccache s390x-linux-gnu-gcc")
		DEFCONFIG=defconfig FRAGMENT=$FRAG/cross.config
		ARCHDIR="arch/s390/kernel/ arch/s390/lib/" ;;
	*) die "CC_ARCHES: $1: compile-check knows i386, riscv, arm64, ppc64, ppc64le, ppc32 and s390" ;;
	esac
}

cmake() {  # cmake OBJ ARGS...
	local obj=$1
	shift
	make -C "$SRC" O="$obj" "${VARS[@]}" KBUILD_BUILD_USER=kprobes \
		KBUILD_BUILD_HOST=compile-check "$@"
}

# Steps for one arch; prints its line, returns non-zero on failure.
check_arch() {
	local a=$1 obj=$CDIR/$1 log=$CDIR/$1.log t0 warns nobj
	t0=$(date +%s)
	arch_setup "$a"
	mkdir -p "$obj"
	# 1. The config: defconfig, the fragment, modules on.
	if ! { cmake "$obj" "$DEFCONFIG" &&
	       "$SRC/scripts/kconfig/merge_config.sh" -m -O "$obj" \
			"$obj/.config" "$FRAGMENT" &&
	       "$SRC/scripts/config" --file "$obj/.config" -e MODULES \
			-e MODULE_UNLOAD -e KPROBES &&
	       cmake "$obj" olddefconfig; } >"$log" 2>&1; then
		echo "compile-check $a: FAILED (config; $log)"
		return 1
	fi
	if ! grep -q '^CONFIG_KPROBES=y' "$obj/.config"; then
		echo "compile-check $a: FAILED (CONFIG_KPROBES is not set)"
		return 1
	fi
	# 2. What compiling a directory needs, then our directories.
	if ! cmake "$obj" -j"$NPROC" prepare >>"$log" 2>&1 ||
	   ! cmake "$obj" -j"$NPROC" W=1 kernel/kprobes/ $ARCHDIR \
			>>"$log" 2>&1; then
		echo "compile-check $a: FAILED ($(grep -m1 -E ': (fatal )?error:' "$log" || echo "see $log"))"
		return 1
	fi
	# 3. Count what was built and what warned.
	nobj=$(cd "$obj" && find kernel/kprobes $ARCHDIR -name '*.o' | wc -l)
	warns=$(grep -E "$OURS_RE" "$log" | grep -c 'warning:' || true)
	if [ "$warns" -ne 0 ]; then
		echo "compile-check $a: FAILED ($warns warnings in our files; $log)"
		grep -E "$OURS_RE" "$log" | grep 'warning:' | head -5
		return 1
	fi
	echo "compile-check $a: ok, $nobj objects, 0 warnings in our files ($(elapsed "$t0"))"
}

main() {
	local a passed=0 failed=0
	[ -d "$SRC" ] || die "no $SRC (make tree)"
	mkdir -p "$CDIR"
	for a in $CC_ARCHES; do
		if check_arch "$a"; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
		fi
	done
	echo "$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

main "$@"
