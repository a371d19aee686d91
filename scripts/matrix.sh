#!/usr/bin/env bash
# make matrix: build our tree (full vmlinux + modules link) across configs
# users build, boot-and-test where cheap, and print one table:
#
#   line | result | warnings in our files | build time | tests | first error
#
# Lines (MATRIX_LINES="a b ..." picks some; MATRIX_LIST=1 lists them):
#   defconfig             x86_64_defconfig + configs/matrix/kprobes.config
#                         (every kprobes option and its in-tree users); boots
#                         and runs the KUnit suites, scripts and ftracetest
#   preempt-{none,voluntary,full,dynamic}, no-smp, no-modules,
#   no-function-tracer, no-debug-fs, no-sysctl, no-kallsyms-all,
#   frame-pointer, no-ibt, lockdep
#                         defconfig line + configs/matrix/<line>.config
#   clang                 defconfig line built with LLVM=-14 (Debian clang)
#   debian-amd64, debian-rt-amd64
#                         Debian's own 6.12 configs (linux-config-6.12),
#                         every =m dropped (built-in options kept), no debug
#                         info, no signing keys; rt boots and tests
#   rand-<seed>           randconfig with KPROBES=y (configs/matrix/
#                         randconfig.config), seeds MATRIX_SEEDS (printed),
#                         every =m dropped
#   arm64-defconfig       arm64 defconfig cross-built (gcc-aarch64-linux-gnu)
#                         + configs/matrix/arm64.config (kprobes, their
#                         users and the KUnit suites), every =m dropped
#   i386-defconfig        i386_defconfig + configs/matrix/i386.config
#                         (kprobes with jump optimization and ftrace sites,
#                         fprobe and so rethook's 32-bit register strings,
#                         the KUnit suites), every =m dropped
#   <arch>-defconfig      for riscv, arm, powerpc, s390, mips, sparc, sh,
#                         arc, parisc: that architecture's defconfig
#                         cross-built with Debian's cross compiler +
#                         configs/matrix/cross.config (kprobes, their users,
#                         the KUnit suites), every =m dropped.  An
#                         architecture without a backend yet (no select of
#                         HAVE_KPROBES_BACKEND) builds with KPROBES=n and
#                         says so; loongarch and csky have no compiler in
#                         Debian 12: their rows say that, built nothing.
#                         When such a line does not build, the objects that
#                         failed are built in the stock tree with the same
#                         .config: if they fail there too, the row says
#                         "stock 6.12 fails too" and names them
#   w1-sparse             W=1 and sparse (C=2) on our directories, in the
#                         defconfig line's tree: 0 warnings wanted
#
# Everything goes to build/matrix/<line>/ (objects, build.log); each
# line's row goes into the result page docs/results/matrix.md, which keeps
# the latest row of every line, with its date, commit and command
# (scripts/results.py matrix-row), and out/matrix.md is a copy of it.  Lines build one after another with -j$(nproc);
# ccache makes the variants of one base cheap after the first.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

MDIR=$BUILD/matrix
OUT=$ROOT/out/matrix.md
FRAG=$ROOT/configs/matrix
DEBIAN_CONFIGS=/usr/src/linux-config-6.12
MATRIX_SEEDS=${MATRIX_SEEDS:-"0x1ab5 0x2c0ffee 0x3db7"}
VARIANTS="preempt-none preempt-voluntary preempt-full preempt-dynamic no-smp no-modules no-function-tracer no-debug-fs no-sysctl no-kallsyms-all frame-pointer no-ibt lockdep"
# Paths of ours whose warnings count (the rest of the kernel is not ours).
OURS_RE='(kernel/kprobes/|arch/[a-z0-9]+/kernel/kprobes/|include/linux/kprobes(_arch)?\.h|arch/(x86|arm64|riscv)/include/asm/kprobes\.h|samples/kprobes/)'

all_lines() {
	echo defconfig
	local v s
	for v in $VARIANTS; do echo "$v"; done
	echo clang debian-amd64 debian-rt-amd64
	for s in $MATRIX_SEEDS; do echo "rand-$s"; done
	echo arm64-defconfig i386-defconfig
	for s in $CROSS_ARCHS; do echo "$s-defconfig"; done
	echo w1-sparse
}

# The architectures cross-built besides arm64 and i386, each with the
# defconfig target, kbuild ARCH and Debian cross compiler prefix it gets.
CROSS_ARCHS="riscv arm powerpc s390 mips sparc sh arc parisc loongarch csky"
cross_karch() {
	case $1 in sparc) echo sparc64 ;; *) echo "$1" ;; esac
}
cross_compiler() {  # empty: Debian 12 has none
	case $1 in
		riscv) echo riscv64-linux-gnu- ;;
		arm) echo arm-linux-gnueabihf- ;;
		powerpc) echo powerpc64le-linux-gnu- ;;
		s390) echo s390x-linux-gnu- ;;
		mips) echo mips-linux-gnu- ;;
		sparc) echo sparc64-linux-gnu- ;;
		sh) echo sh4-linux-gnu- ;;
		arc) echo arc-linux-gnu- ;;
		parisc) echo hppa-linux-gnu- ;;
	esac
}
cross_defconfig() {
	case $1 in
		powerpc) echo ppc64le_defconfig ;;
		sparc) echo sparc64_defconfig ;;
		*) echo defconfig ;;
	esac
}
# Whether the series has a backend for the architecture (its Kconfig
# selects HAVE_KPROBES_BACKEND).
ported() { grep -q 'select HAVE_KPROBES_BACKEND' "$SRC/arch/$1/Kconfig"; }

# What make needs for a line, one word per line.
line_makevars() {
	case $1 in
		clang) printf '%s\n' ARCH=x86_64 LLVM=-14 "CC=ccache clang-14" ;;
		arm64-*) printf '%s\n' ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- "CC=ccache aarch64-linux-gnu-gcc" ;;
		i386-*) printf '%s\n' ARCH=i386 "CC=ccache gcc" ;;
		*-defconfig)
			local a=${1%-defconfig} cross
			cross=$(cross_compiler "$a")
			printf '%s\n' "ARCH=$(cross_karch "$a")" "CROSS_COMPILE=$cross" "CC=ccache ${cross}gcc" ;;
		*) printf '%s\n' ARCH=x86_64 "CC=ccache gcc" ;;
	esac
	printf '%s\n' KBUILD_BUILD_USER=kprobes KBUILD_BUILD_HOST=matrix LOCALVERSION=
}

lmake() {  # lmake LINE OBJ ARGS...
	local line=$1 obj=$2
	shift 2
	local -a vars
	mapfile -t vars < <(line_makevars "$line")
	make -C "$SRC" O="$obj" "${vars[@]}" "$@"
}

# Turn every "=m" of a config into "is not set".  The big lines (Debian's,
# the randconfigs, arm64, i386) keep their built-in options and lose their
# thousands of modules: that is what keeps each under an hour on 2 cores.
# Our own test modules are =m in kprobes.config, merged afterwards.
drop_modules() {  # drop_modules < CONFIG > CONFIG
	sed -E 's/^(CONFIG_[A-Za-z0-9_]+)=m$/# \1 is not set/'
}

# Debian's config with every module dropped and nothing that needs
# Debian's own build environment (certificates, debug info).
debian_config() {  # debian_config FLAVOUR OBJ
	local f=$DEBIAN_CONFIGS/config.$1.xz
	[ -f "$f" ] || die "$f missing (apt-get install linux-config-6.12)"
	xz -dc "$f" | drop_modules >"$2/.config"
	cat >>"$2/.config" <<-'EOF'
	CONFIG_SYSTEM_TRUSTED_KEYS=""
	CONFIG_SYSTEM_REVOCATION_KEYS=""
	CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"
	# CONFIG_DEBUG_INFO_DWARF5 is not set
	# CONFIG_DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT is not set
	CONFIG_DEBUG_INFO_NONE=y
	EOF
}

configure_line() {  # configure_line LINE OBJ; prints a note, or fails
	local line=$1 obj=$2
	local -a frags=()
	case $line in
		defconfig|clang)
			lmake "$line" "$obj" -s x86_64_defconfig
			frags=("$FRAG/kprobes.config") ;;
		debian-amd64)
			debian_config amd64_none_amd64 "$obj"
			frags=("$FRAG/kprobes.config") ;;
		debian-rt-amd64)
			debian_config amd64_rt_amd64 "$obj"
			frags=("$FRAG/kprobes.config") ;;
		rand-*)
			KCONFIG_SEED=${line#rand-} KCONFIG_ALLCONFIG=$FRAG/randconfig.config \
				lmake "$line" "$obj" -s randconfig >/dev/null
			drop_modules <"$obj/.config" >"$obj/.config.nomod"
			mv "$obj/.config.nomod" "$obj/.config"
			frags=("$FRAG/randconfig.config") ;;
		arm64-defconfig|i386-defconfig)
			# The architecture's defconfig, plus its fragment if any.
			lmake "$line" "$obj" -s defconfig
			drop_modules <"$obj/.config" >"$obj/.config.nomod"
			mv "$obj/.config.nomod" "$obj/.config"
			frags=()
			[ ! -f "$FRAG/${line%-defconfig}.config" ] ||
				frags=("$FRAG/${line%-defconfig}.config") ;;
		*-defconfig)
			local arch=${line%-defconfig}
			[ -n "$(cross_compiler "$arch")" ] || die "unknown matrix line: $line"
			# Some defconfig targets (mips) merge fragments and say so.
			lmake "$line" "$obj" -s "$(cross_defconfig "$arch")" >/dev/null
			drop_modules <"$obj/.config" >"$obj/.config.nomod"
			mv "$obj/.config.nomod" "$obj/.config"
			frags=("$FRAG/cross.config")
			if ! ported "$arch"; then
				# Nothing to hold to account but the build.
				(cd "$obj" && "$SRC/scripts/kconfig/merge_config.sh" -m -Q .config "${frags[@]}" >/dev/null)
				lmake "$line" "$obj" -s olddefconfig >/dev/null
				! grep -q '^CONFIG_KPROBES=y' "$obj/.config" || return 1
				echo "KPROBES=n: not ported yet"
				return 0
			fi ;;
		*)
			[ -f "$FRAG/$line.config" ] || die "unknown matrix line: $line"
			lmake "$line" "$obj" -s x86_64_defconfig
			frags=("$FRAG/kprobes.config" "$FRAG/$line.config") ;;
	esac
	if [ ${#frags[@]} -gt 0 ]; then
		(cd "$obj" && "$SRC/scripts/kconfig/merge_config.sh" -m -Q .config "${frags[@]}" >/dev/null)
	fi
	lmake "$line" "$obj" -s olddefconfig >/dev/null
	if [ ${#frags[@]} -gt 0 ]; then
		python3 "$ROOT/scripts/check-config.py" "$obj/.config" "${frags[@]}" >/dev/null 2>"$obj/config-check.txt" ||
			return 1
	fi
	if ! grep -q '^CONFIG_KPROBES=y' "$obj/.config"; then
		echo "KPROBES=n"
	fi
}

# The defconfig-based lines boot and test where it is cheap.
boots() { case $1 in defconfig|debian-rt-amd64) return 0 ;; esac; return 1; }

boot_and_test() {  # boot_and_test LINE OBJ; prints "P/F/S" or a reason
	local line=$1 obj=$2 mod sum
	mod=$obj/modroot
	rm -rf "$mod"
	lmake "$line" "$obj" -s INSTALL_MOD_PATH="$mod" INSTALL_MOD_STRIP=1 modules_install >>"$obj/build.log" 2>&1 ||
		{ echo "modules_install failed"; return; }
	KOBJ=$obj KMODROOT=$mod KINITRAMFS=$obj/initramfs.cpio.gz \
		"$ROOT/scripts/mkinitramfs.sh" >>"$obj/build.log" 2>&1 ||
		{ echo "initramfs failed"; return; }
	KOBJ=$obj KINITRAMFS=$obj/initramfs.cpio.gz KCONSOLE=$obj/console.log \
		"$ROOT/scripts/qemu-run.sh" test >>"$obj/build.log" 2>&1 || true
	sum=$(python3 "$ROOT/scripts/ktap-summary.py" "$obj/console.log" >"$obj/summary.txt" 2>&1; tail -n 1 "$obj/summary.txt")
	if [[ $sum =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)? ]]; then
		echo "${BASH_REMATCH[1]}/${BASH_REMATCH[2]}/${BASH_REMATCH[4]:-0}"
	else
		echo "no summary"
	fi
}

# W=1 and sparse on our directories, in the defconfig line's objects.
w1_sparse() {  # w1_sparse OBJ
	local obj=$MDIR/defconfig
	if [ ! -f "$obj/vmlinux" ]; then
		mkdir -p "$obj"
		configure_line defconfig "$obj" >/dev/null &&
			lmake defconfig "$obj" -j"$NPROC" all >"$obj/build.log" 2>&1 ||
			{ echo "defconfig line does not build" >"$1/build.log"; return 1; }
	fi
	lmake defconfig "$obj" -j"$NPROC" W=1 C=2 \
		kernel/kprobes/ arch/x86/kernel/kprobes/ samples/kprobes/ >"$1/build.log" 2>&1
}

# A line that does not build: do the objects that failed fail the same way
# in the stock tree, with the same .config?  The line is first built on
# with -k, so that every object that fails is known and everything else
# was compiled.  Prints those objects (none of them ours) when all of them
# fail there too; returns 1 otherwise.
stock_fails_too() {  # stock_fails_too LINE OBJ
	local line=$1 obj=$2 base=$2/stock o objs
	local -a vars
	lmake "$line" "$obj" -k -j"$NPROC" all >>"$obj/build.log" 2>&1 && return 1
	objs=$(grep -oE 'Makefile\.build:[0-9]+: [^] ]+\.o\] Error' "$obj/build.log" |
		awk '{ sub(/\]$/, "", $2); print $2 }' | sort -u)
	[ -n "$objs" ] || return 1
	if grep -qE "$OURS_RE" <<<"$objs"; then return 1; fi
	mapfile -t vars < <(line_makevars "$line")
	mkdir -p "$base"
	cp "$obj/.config" "$base/.config"
	make -C "$PRISTINE" O="$base" "${vars[@]}" -s olddefconfig >>"$obj/build.log" 2>&1 || return 1
	for o in $objs; do
		if make -C "$PRISTINE" O="$base" "${vars[@]}" -j"$NPROC" "$o" >>"$obj/build.log" 2>&1; then
			return 1
		fi
	done
	echo $objs
}

FAILED=0

# The line's row into the result page.
put_row() {  # put_row LINE ROWFILE
	python3 "$ROOT/scripts/results.py" matrix-row "$1" --row "$2" \
		--order "$(all_lines | tr '\n' ' ')" \
		--command "MATRIX_LINES='${MATRIX_LINES:-all}' scripts/matrix.sh" >/dev/null
}

run_line() {
	local line=$1 obj=$MDIR/$1 t0 rc=0 note='' result warn err='' tests=- stock
	t0=$(date +%s)
	mkdir -p "$obj"
	log "== $line"
	if [[ $line == *-defconfig ]] && [[ " $CROSS_ARCHS " == *" ${line%-defconfig} "* ]] &&
		[ -z "$(cross_compiler "${line%-defconfig}")" ]; then
		# Nothing to build with: say so, count it as no failure.
		echo "not built (no cross compiler in Debian 12) | - | - | - | $(date -u +%Y-%m-%d) ${RESULT_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD)} | @CMD@ | " >"$obj/row.md"
		put_row "$line" "$obj/row.md"
		log "   $line: no cross compiler in Debian 12"
		return 0
	fi
	if [ "$line" = w1-sparse ]; then
		w1_sparse "$obj" || rc=$?
	elif ! note=$(configure_line "$line" "$obj" 2>"$obj/config.err"); then
		rc=1
		err="config: $(grep -m1 -E 'CONFIG_' "$obj/config-check.txt" "$obj/config.err" 2>/dev/null | sed 's/^[^:]*: *//' || true)"
	else
		lmake "$line" "$obj" -j"$NPROC" all >"$obj/build.log" 2>&1 || rc=$?
	fi
	if [ $rc -eq 0 ]; then
		result=ok
	elif [[ $line == *-defconfig ]] && stock=$(stock_fails_too "$line" "$obj"); then
		# Not the series': the row says so and the line counts as no failure.
		result="stock 6.12 fails too"
		err="the stock tree fails the same way in $stock: $(grep -m1 -E 'error:' "$obj/build.log" | sed 's|^.*/linux[^/]*/||' | cut -c1-140 || true)"
	else
		result=FAIL
		FAILED=$((FAILED + 1))
	fi
	warn=$(grep -E 'warning:' "$obj/build.log" 2>/dev/null | grep -E "$OURS_RE" | sort -u | wc -l || true)
	grep -E 'warning:' "$obj/build.log" 2>/dev/null | grep -E "$OURS_RE" | sort -u >"$obj/our-warnings.txt" || true
	if [ $rc -ne 0 ] && [ -z "$err" ]; then
		err=$(grep -m1 -E 'error:|undefined reference|ERROR:|Error [0-9]' "$obj/build.log" | cut -c1-160 || true)
	fi
	if [ $rc -eq 0 ] && boots "$line" && [ "${MATRIX_BOOT:-1}" = 1 ]; then
		tests=$(boot_and_test "$line" "$obj")
		case $tests in */0/*) ;; *) result="FAIL (tests)"; FAILED=$((FAILED + 1)) ;; esac
	fi
	if [ "$warn" -ne 0 ] && [ "$result" = ok ]; then
		result="FAIL (warnings)"
		FAILED=$((FAILED + 1))
	fi
	echo "$result${note:+ ($note)} | $warn | $(elapsed "$t0") | $tests | $(date -u +%Y-%m-%d) ${RESULT_COMMIT:-$(git -C "$ROOT" rev-parse --short HEAD)} | @CMD@ | ${err//|/\\|}" >"$obj/row.md"
	put_row "$line" "$obj/row.md"
	# A line that is neither booted nor needed by another line keeps its
	# log and table row only: twenty object trees do not fit everywhere.
	if [ "$line" != defconfig ] && [ "$line" != w1-sparse ] && [ "${MATRIX_KEEP:-0}" != 1 ]; then
		find "$obj" -mindepth 1 -maxdepth 1 ! -name build.log ! -name row.md ! -name 'config*' ! -name .config \
			! -name our-warnings.txt ! -name summary.txt ! -name console.log -exec rm -rf {} +
	fi
	log "   $line: $result${note:+ ($note)}, $warn warnings of ours, $(elapsed "$t0"), tests $tests ${err:+; $err}"
}

main() {
	if [ "${MATRIX_LIST:-0}" = 1 ]; then all_lines; return; fi
	local lines t0
	lines=${MATRIX_LINES:-$(all_lines | tr '\n' ' ')}
	t0=$(date +%s)
	mkdir -p "$MDIR" "$(dirname "$OUT")"
	log "lines: $lines (randconfig seeds: $MATRIX_SEEDS)"
	local l
	# The page is rewritten after every line: a long run shows progress.
	for l in $lines; do
		run_line "$l"
	done
	cp "${RESULTS_DIR:-$ROOT/docs/results}/matrix.md" "$OUT"
	log "all lines in $(elapsed "$t0")"
	cat "$OUT"
	[ "$FAILED" -eq 0 ]
}

main "$@"
