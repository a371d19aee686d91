#!/usr/bin/env bash
# Build build/initramfs-$FLAVOR.cpio.gz: static busybox, the modules of
# build/modroot-$FLAVOR, tests/guest/init as /init, every other file of
# tests/guest/ (demo.sh, tests.d/...) at the same place under /,
# tests/test-modules as /etc/test-modules, and the pristine tree's
# tools/testing/selftests/ftrace as /ftrace.  ARCH=arm64: the same for an
# arm64 guest, with Debian's arm64 busybox (scripts/deps.sh fetches it)
# and the programs cross-compiled.
#
# The archive is written with the kernel's own gen_init_cpio from a file
# list, so it needs no root: ownership is 0:0 and /dev/console exists (the
# kernel opens it for init's stdio before anything is mounted).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

STAGE=${INITRAMFS%.cpio.gz}.d
FUZZ_SHORT_SEED=0x5eed0
GEN=$BUILD/tools/gen_init_cpio
guest_arch
case $ARCH in
	x86_64) BUSYBOX=${BUSYBOX:-/bin/busybox} ;;
	*) BUSYBOX=${BUSYBOX:-$BUILD/tools/busybox-$ARCH/bin/busybox} ;;
esac

build_gen_init_cpio() {
	if [ ! -x "$GEN" ] || [ "$PRISTINE/usr/gen_init_cpio.c" -nt "$GEN" ]; then
		mkdir -p "$(dirname "$GEN")"
		gcc -O2 -o "$GEN" "$PRISTINE/usr/gen_init_cpio.c"
	fi
}

stage() {
	rm -rf "$STAGE"
	mkdir -p "$STAGE"/{bin,sbin,usr/bin,usr/sbin,etc,proc,sys,dev,tmp,run,root,lib/modules}
	[ -x "$BUSYBOX" ] || die "$BUSYBOX missing (make deps ARCH=$ARCH)"
	# No program interpreter: static.
	! readelf -l "$BUSYBOX" | grep -q 'Requesting program interpreter' ||
		die "$BUSYBOX is not static (install busybox-static)"
	cp "$BUSYBOX" "$STAGE/bin/busybox"
	# The same links `busybox --install -s` would make, made here.  The
	# host's busybox-static names them: another architecture's busybox
	# does not run here, and Debian builds both from one configuration.
	local app
	for app in $(/bin/busybox --list-full); do
		[ -e "$STAGE/$app" ] || ln -s /bin/busybox "$STAGE/$app"
	done
	[ -d "$MODROOT/lib/modules" ] || die "no modules in $MODROOT (make kernel FLAVOR=$FLAVOR)"
	cp -a "$MODROOT/lib/modules/." "$STAGE/lib/modules/"
	# build/source point into the build machine: useless in the guest.
	rm -f "$STAGE"/lib/modules/*/build "$STAGE"/lib/modules/*/source
	# Everything in tests/guest/ (init, demo.sh, tests.d/...) goes to /.
	cp -a "$ROOT/tests/guest/." "$STAGE/"
	chmod 755 "$STAGE/init"
	# The kernel's own ftrace selftests, unmodified (tests.d/ftracetest.sh).
	cp -a "$PRISTINE/tools/testing/selftests/ftrace" "$STAGE/ftrace"
	# Scripted tests decide what to expect from the kernel's own config.
	cp "$OBJ/.config" "$STAGE/etc/kernel.config"
	# The program tests.d/user-probes.sh probes (static: no libc here).
	"$UCC" -static -O2 -Wall -o "$STAGE/bin/kpu-target" \
		"$ROOT/tests/user/kpu-target.c" "$ROOT/tests/user/kpu-funcs-$ARCH.S"
	# The FUSE server the same script serves kpu-target from.
	"$UCC" -static -O2 -Wall -o "$STAGE/bin/kpu-fuse" "$ROOT/tests/user/kpu-fuse.c"
	# The short seed of make fuzz (tests.d/fuzz.sh): specs drawn from this
	# kernel's own System.map, so they name functions it has.
	mkdir -p "$STAGE/fuzz"
	echo "$FUZZ_SHORT_SEED" >"$STAGE/fuzz/seed-short"
	python3 "$ROOT/scripts/fuzz-specs.py" "$FUZZ_SHORT_SEED" 40 "$OBJ/System.map" \
		>"$STAGE/fuzz/specs-short"
	# Random functions may all be cold in a large kernel (defconfig's
	# drivers): two probes on what the workload's forks surely run
	# keep "the probes hit" a check of kprobes, not of the draw.
	n=$(wc -l <"$STAGE/fuzz/specs-short")
	printf '%d p kernel_clone\n%d r kernel_clone\n' "$n" $((n + 1)) >>"$STAGE/fuzz/specs-short"
	if [ -f "$ROOT/tests/test-modules" ]; then
		cp "$ROOT/tests/test-modules" "$STAGE/etc/test-modules"
	else
		printf 'kprobes_kunit\ntest_kprobes\n' >"$STAGE/etc/test-modules"
	fi
}

# gen_init_cpio list format: see usr/gen_init_cpio.c.
cpio_list() {
	(cd "$STAGE" && find . -mindepth 1 | LC_ALL=C sort) | while read -r p; do
		local path=${p#.} src=$STAGE/${p#./} mode
		mode=$(stat -c %a "$src")
		if [ -L "$src" ]; then
			echo "slink $path $(readlink "$src") 777 0 0"
		elif [ -d "$src" ]; then
			echo "dir $path $mode 0 0"
		elif [ -f "$src" ]; then
			echo "file $path $src $mode 0 0"
		fi
	done
	# After "dir /dev": the unpacker does not create parent directories.
	echo "nod /dev/console 600 0 0 c 5 1"
}

main() {
	build_gen_init_cpio
	stage
	cpio_list >"$STAGE.list"
	"$GEN" "$STAGE.list" | gzip -6 -n >"$INITRAMFS.tmp"
	mv "$INITRAMFS.tmp" "$INITRAMFS"
	log "${INITRAMFS#"$ROOT"/}: $(du -h "$INITRAMFS" | cut -f1), $(grep -c . "$STAGE.list") entries"
}

main "$@"
