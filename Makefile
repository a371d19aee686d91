# Build-and-test harness for the kprobes rewrite (Linux 6.12, x86_64).
#
#   make test      install deps, build our kernel (base+debug config), boot it
#                  under QEMU TCG -smp 2, run the KUnit suites, the scripted
#                  checks and the kernel's ftrace kprobe selftests; then
#                  the KUnit suites again under retbleed=stuff (call-depth
#                  return thunk; STUFFING=0: not); kunit.py
#                  --kunitconfig=kernel/kprobes (KUNIT_PY=0: not); one
#                  table and summary
#   make kunit-py  just the kunit.py run
#   make matrix    build the series across configs (defconfig, Debian's, RT,
#                  preemption models, clang, randconfig, arm64, W=1/sparse)
#   make run       same build, boot the demo (tests/guest/demo.sh)
#   make shell     same build, interactive shell in the guest
#   make patches   export the series (series/NN-*.{msg,files}) to out/patches
#   make bisect-check  after each patch: build, boot, run the tests present
#   make bench     build both kernels, boot each with tests/bench/ (alternating,
#                  BENCH_RUNS=3 rounds), table of ours vs stock in out/bench.md
#   make fuzz      random probes via kprobe_events on both kernels (same specs,
#                  printed seeds), under load; table in out/fuzz.md
#   make hit-trace single-step one probe hit on each kernel under gdb; per-
#                  function instruction/memory counts in build/hit-trace/
#   FLAVOR=incumbent builds the stock 6.12 tree instead of ours.
#
# Everything lives in build/ (pristine tree build/linux-src, our tree
# build/linux, objects build/obj-$(FLAVOR)) and out/.

FLAVOR ?= ours
export FLAVOR

SHELL := /bin/bash
S := scripts

.PHONY: help deps pristine tree kernel initramfs test run shell patches bisect-check kunit-py matrix \
	originality doc-check clean distclean header bench hit-trace fuzz

help:
	@sed -n '3,26p' Makefile | sed 's/^# \{0,1\}//'
	@echo "targets: deps tree kernel initramfs test kunit-py matrix run shell bench fuzz hit-trace patches bisect-check originality doc-check clean distclean"

deps:
	@$(S)/deps.sh

header: deps
	@echo "== kprobes rewrite harness: FLAVOR=$(FLAVOR) =="

pristine: deps
	@PRISTINE_ONLY=1 $(S)/prepare-tree.sh

tree: header
	@$(S)/prepare-tree.sh

kernel: tree
	@$(S)/build-kernel.sh

initramfs: kernel
	@$(S)/mkinitramfs.sh

# A boot that times out or crashes is not a make error here: the summary
# reports it as a failed test (no "=== GUEST DONE ===") and fails.
# KUNIT_PY=0 leaves out the kunit.py run (a second kernel build).
KUNIT_PY ?= 1
# STUFFING=0 leaves out the second boot under call-depth stuffing.
STUFFING ?= 1
TEST_LOGS := build/console-test-$(FLAVOR).log
ifeq ($(STUFFING),1)
TEST_LOGS += build/console-stuffing-$(FLAVOR).log
endif
ifeq ($(KUNIT_PY),1)
TEST_LOGS += build/console-kunit-py-$(FLAVOR).log
endif

test: initramfs
	@$(S)/qemu-run.sh test || true
	@if [ "$(STUFFING)" = 1 ]; then $(S)/qemu-run.sh stuffing || true; fi
	@if [ "$(KUNIT_PY)" = 1 ]; then $(S)/kunit-py.sh || true; fi
	@python3 $(S)/ktap-summary.py $(TEST_LOGS)

# kunit.py run --kunitconfig=kernel/kprobes (all built in), on its own.
kunit-py: tree
	@$(S)/kunit-py.sh || true
	@python3 $(S)/ktap-summary.py build/console-kunit-py-$(FLAVOR).log

run: initramfs
	@$(S)/qemu-run.sh run

shell: initramfs
	@$(S)/qemu-run.sh shell

# Our tree across configs (scripts/matrix.sh; MATRIX_LINES= picks lines).
matrix: tree
	@DEPS_MATRIX=1 $(S)/deps.sh
	@$(S)/matrix.sh

# Both flavors, whatever FLAVOR says (scripts/bench.sh runs make kernel for
# each).
bench: deps
	@$(S)/bench.sh

# Both kernels (FUZZ_SEEDS, FUZZ_N, FUZZ_SECS: scripts/fuzz.sh).
fuzz: deps
	@$(MAKE) --no-print-directory initramfs FLAVOR=ours
	@$(MAKE) --no-print-directory initramfs FLAVOR=incumbent
	@$(S)/fuzz.sh

hit-trace: deps
	@$(S)/hit-trace.sh

patches: deps
	@FLAVOR=ours $(S)/prepare-tree.sh
	@$(S)/make-patches.sh

# After every patch of the series: build the kernel, boot it and run the
# tests the tree has at that point (scripts/bisect-check.sh; too slow for
# CI).  BISECT_QUICK=1 only compiles what the series touches.
bisect-check: patches
	@$(S)/bisect-check.sh

# The project's originality checker lives next to the repository.
ORIGINALITY ?= $(firstword $(wildcard ../shared/tools/originality \
		/work/shared/tools/originality) ../shared/tools/originality)

originality: pristine
	@test -x $(ORIGINALITY) || { echo "originality: $(ORIGINALITY) not found (set ORIGINALITY=)"; exit 1; }
	@$(ORIGINALITY) --kernel-src build/linux-src

# The numbers and names Documentation/trace/kprobes.rst quotes, against
# the code (scripts/doc-check.py).
doc-check: pristine
	@python3 $(S)/doc-check.py --kernel-src build/linux-src

# Keep build/linux-src (pristine, slow to extract) and build/linux (our git
# tree; prepare-tree resets it when its stamps are gone).
clean:
	rm -rf build/obj-* build/modroot-* build/initramfs-* build/pristine-test-* \
		build/console-*.log build/build-*.log build/stamps build/series-work \
		build/bench-* build/initramfs-bench-* build/hit-trace \
		build/tools out

distclean: clean
	rm -rf build/linux
