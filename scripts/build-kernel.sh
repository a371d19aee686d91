#!/usr/bin/env bash
# Build the kernel of FLAVOR (boot image + modules) out of tree in
# build/obj-$FLAVOR and install its modules into build/modroot-$FLAVOR;
# ARCH=arm64 cross-builds it in build/obj-$FLAVOR-arm64 (scripts/lib.sh).
# The pristine lib/test_kprobes.c, unmodified, is one of them (for
# FLAVOR=incumbent an external module, installed as extra/test_kprobes.ko).
#
# Config: make tinyconfig + configs/base.config + configs/debug.config
# (+ configs/$ARCH.config for another ARCH than x86_64, + configs/incumbent.config
# for FLAVOR=incumbent, + $EXTRA_FRAGMENTS);
# VARIANT=release leaves debug.config out and builds in obj-$FLAVOR-release;
# VARIANT=kunit starts from an empty config instead of tinyconfig and takes
# configs/kunit.config alone (+ incumbent.config), in obj-$FLAVOR-kunit:
# what kunit.py builds, with kconfig's defaults for everything else.
# The config is only regenerated when the fragments or the tree's Kconfig
# files changed, so a no-change rebuild is just kbuild's own no-op.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# Everything kbuild sees must be the same on every call, or it rebuilds.
# LOCALVERSION= (set, empty): no "+" suffix because build/linux is a git
# tree without a release tag; both flavors report the same release.
guest_arch
MAKEVARS=("${KMAKEVARS[@]}" KBUILD_BUILD_USER=kprobes KBUILD_BUILD_HOST=qemu LOCALVERSION=)
BUILD_LOG=$BUILD/build-$(basename "$OBJ" | sed 's/^obj-//').log

kmake() { make -C "$SRC" O="$OBJ" "${MAKEVARS[@]}" "$@"; }

fragments() {
	if [ "$VARIANT" = kunit ]; then
		echo "$ROOT/configs/kunit.config"
	else
		echo "$ROOT/configs/base.config"
		[ -z "$FRAGMENT" ] || echo "$FRAGMENT"
		[ "$VARIANT" = release ] || echo "$ROOT/configs/debug.config"
	fi
	[ "$FLAVOR" = incumbent ] && echo "$ROOT/configs/incumbent.config"
	local f
	for f in ${EXTRA_FRAGMENTS:-}; do echo "$f"; done
}

# Changes when a fragment or any Kconfig file of the source tree changes.
config_inputs_hash() {
	{
		echo "$FLAVOR ${MAKEVARS[*]}"
		local f
		while read -r f; do echo "== $f"; cat "$f"; done < <(fragments)
		(cd "$SRC" && find . -name 'Kconfig*' -type f -print0 | LC_ALL=C sort -z | xargs -0 cat)
	} | hash_stdin
}

configure() {
	local stamp=$STAMPS/config-$(basename "$OBJ").hash want
	local -a frags
	mapfile -t frags < <(fragments)
	want=$(config_inputs_hash)
	if [ -f "$OBJ/.config" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		log "config unchanged"
		return 0
	fi
	rm -f "$stamp"
	mkdir -p "$OBJ" "$STAMPS"
	if [ "$VARIANT" = kunit ]; then
		log "configuring: kconfig defaults + ${frags[*]##*/}"
		: >"$OBJ/.config"
	else
		log "configuring: tinyconfig + ${frags[*]##*/}"
		kmake -s tinyconfig >/dev/null
	fi
	# merge_config.sh writes temp files into the cwd: run it in the obj dir.
	# -m: merge only (we run olddefconfig ourselves); -Q: no override chatter.
	(cd "$OBJ" && "$SRC/scripts/kconfig/merge_config.sh" -m -Q .config "${frags[@]}" >/dev/null)
	kmake -s olddefconfig >/dev/null
	if ! python3 "$ROOT/scripts/check-config.py" "$OBJ/.config" "${frags[@]}"; then
		# CONFIG_CHECK=warn (make bisect-check): a step of the series
		# before the features those options select.
		[ "${CONFIG_CHECK:-strict}" = warn ] || exit 1
		log "going on without them (CONFIG_CHECK=warn)"
	fi
	echo "$want" >"$stamp"
}

# Run kbuild with the full output in the log; show warnings and errors live.
build() {
	log "building $KIMAGE_TARGET + modules with -j$NPROC (full log: ${BUILD_LOG#"$ROOT"/})"
	local rc=0
	kmake -j"$NPROC" "$KIMAGE_TARGET" modules >"$BUILD_LOG" 2>&1 || rc=$?
	grep -E 'warning:|error:|Error [0-9]|\*\*\*' "$BUILD_LOG" | head -n 100 >&2 || true
	if [ $rc -ne 0 ]; then
		echo "---- last lines of $BUILD_LOG ----" >&2
		tail -n 40 "$BUILD_LOG" >&2
		die "kernel build failed"
	fi
}

install_modules() {
	# Start from an empty modroot so modules dropped from the config vanish.
	rm -rf "$MODROOT"
	kmake -s INSTALL_MOD_PATH="$MODROOT" INSTALL_MOD_STRIP=1 modules_install >>"$BUILD_LOG" 2>&1 ||
		die "modules_install failed (see ${BUILD_LOG#"$ROOT"/})"
}

# The stock lib/test_kprobes.c, built unmodified against this kernel's
# headers.  Our tree builds it in place (lib/Makefile, KPROBES_SANITY_TEST=m,
# with the stack_trace_save_regs() export of patches/); the stock tree
# cannot link it as a module, so for FLAVOR=incumbent it is built here, as
# an external module with a shim for that one symbol.
build_pristine_test() {
	local dir=$BUILD/pristine-test-$FLAVOR$VSUFFIX
	mkdir -p "$dir"
	# rsync -c keeps mtimes of unchanged files: no rebuild when nothing changed.
	rsync -c "$ROOT"/tests/pristine/* "$dir"/
	# Byte for byte; renamed only because the module is a composite object
	# (see tests/pristine/Kbuild).
	rsync -c "$PRISTINE/lib/test_kprobes.c" "$dir/test_kprobes_pristine.c"
	log "building pristine lib/test_kprobes.c as an external module"
	if ! kmake -s -j"$NPROC" M="$dir" modules >>"$BUILD_LOG" 2>&1; then
		tail -n 30 "$BUILD_LOG" >&2
		die "pristine test_kprobes.c does not build against the $FLAVOR kernel"
	fi
	kmake -s M="$dir" INSTALL_MOD_PATH="$MODROOT" INSTALL_MOD_DIR=extra \
		INSTALL_MOD_STRIP=1 modules_install >>"$BUILD_LOG" 2>&1 ||
		die "installing test_kprobes.ko failed"
}

main() {
	[ -f "$SRC/Makefile" ] || die "no source tree at $SRC: run scripts/prepare-tree.sh"
	local t0
	t0=$(date +%s)
	configure
	build
	# BUILD_ONLY=1: just compile (bisectability checks), no install.
	[ "${BUILD_ONLY:-0}" = 1 ] && return 0
	install_modules
	[ "$FLAVOR" != incumbent ] || build_pristine_test
	log "kernel $(cat "$OBJ/include/config/kernel.release") ready in $(elapsed "$t0"): ${OBJ#"$ROOT"/}/$KIMAGE"
}

main "$@"
