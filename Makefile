# Build-and-test harness for the kprobes rewrite (Linux 6.12, x86_64).
#
#   make run       build our kernel, boot the demo (tests/guest/demo.sh):
#                  one probe of each kind; exits non-zero if a check fails
#   make test      build our kernel (base+debug config), boot it under
#                  QEMU TCG -smp 2, run the KUnit suites, the scripted
#                  checks, the kernel's ftrace kprobe selftests; the KUnit
#                  suites again under retbleed=stuff (STUFFING=0: not);
#                  kunit.py --kunitconfig=kernel/kprobes (KUNIT_PY=0: not);
#                  ARCH=arm64: the arm64 kernel on QEMU's virt machine, its
#                  KUnit suites and scripted checks (make deps installs the
#                  cross compiler, QEMU and an arm64 busybox)
#   make kunit-py  just the kunit.py run; ARCH=i386 (or arm64, riscv, with
#                  their cross compiler and QEMU installed by make deps)
#                  runs it for that architecture instead of x86_64
#   make shell     same build, interactive shell in the guest
#   make matrix    the series across configs (MATRIX_LINES= picks lines)
#   make fuzz      random probes via kprobe_events on both kernels
#                  (ARCH=arm64: the arm64 ones)
#   make bench     hit and attach costs, ours against the stock kernel
#   make bisect-check  after each patch: build, boot, run the tests present
#                  (BISECT_QUICK=1: compile only)
#   make patches   export the series (series/) to out/patches and check it
#   make hit-trace single-step one probe hit on each kernel under gdb
#   make originality, make doc-check   the checks CI runs besides make test
#
# How long each takes on 2 cores, "cold" with nothing built and an empty
# ccache, "warm" with ccache and build/ from an earlier run (the check's
# result page under docs/results/ records the time of its last run):
#
#   target              cold          warm
#   make run            ~20 min       ~3 min
#   make test           ~50 min       ~20-25 min; ARCH=arm64: see its page
#   make kunit-py       ~20 min       ~8 min; ARCH=i386: ~25 min cold
#                                     (the build: the tests take ~15 s),
#                                     ~1 min warm
#   make fuzz           ~35 min       ~7-11 min per FUZZ_N=300 FUZZ_SECS=30 seed
#   make bench          ~40 min       ~1 min per boot with BENCH_MODARGS=counts=2000
#                                     (two boots per round); the default
#                                     10,000 probes: hours
#   make matrix         10+ hours     17-70 min per line
#   make bisect-check   hours         ~15 min; BISECT_QUICK=1: ~15 min cold,
#                                     ~3 min warm
#   make patches        ~5 min        ~1 min
#
#   FLAVOR=incumbent builds the stock 6.12 tree instead of ours.
#
# Everything lives in build/ (pristine tree build/linux-src, our tree
# build/linux, objects build/obj-$(FLAVOR)) and out/.

FLAVOR ?= ours
export FLAVOR

SHELL := /bin/bash
S := scripts

.PHONY: help deps pristine tree kernel initramfs test run shell patches bisect-check kunit-py matrix \
	compile-check \
	originality doc-check clean distclean header bench hit-trace fuzz

help:
	@sed -n '3,/^# Everything lives/p' Makefile | sed -e '$$d' -e 's/^# \{0,1\}//'
	@echo "targets: deps tree kernel initramfs test kunit-py compile-check matrix run shell bench fuzz hit-trace patches bisect-check originality doc-check clean distclean"

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
export KUNIT_PY STUFFING

# The command a result page (docs/results/) names: the target, with the
# variables that changed what it ran.
RESULT_VARS := FLAVOR ARCH STUFFING KUNIT_PY QEMU_SMP QEMU_CPU BENCH_RUNS BENCH_CONFIG \
	BENCH_TAG KERNEL_APPEND BENCH_MODARGS FUZZ_SEEDS FUZZ_N FUZZ_SECS MATRIX_LINES MATRIX_SEEDS BISECT_QUICK \
	BISECT_FROM BISECT_TO
result_cmd = $(strip $(foreach v,$(RESULT_VARS),$(if $(filter environment command line,\
	$(origin $(v))),$(v)=$(if $(findstring $(space),$($(v))),'$($(v))',$($(v))))) make $(1))
space := $(subst ,, )
# The commit a result page names: the code as make started.
ifndef RESULT_COMMIT
RESULT_COMMIT := $(shell python3 scripts/results.py commit)
endif
export RESULT_COMMIT

# scripts/test.sh: the boots, kunit.py, the summary and its result page.
test: initramfs
	@RESULT_COMMAND="$(call result_cmd,test)" $(S)/test.sh test

# kunit.py run --kunitconfig=kernel/kprobes (all built in), on its own.
kunit-py: tree
	@RESULT_COMMAND="$(call result_cmd,kunit-py)" $(S)/test.sh kunit-py

run: initramfs
	@$(S)/qemu-run.sh run

shell: initramfs
	@$(S)/qemu-run.sh shell

# Our tree across configs (scripts/matrix.sh; MATRIX_LINES= picks lines).
compile-check: tree
	@DEPS_COMPILE=1 $(S)/deps.sh
	@$(S)/compile-check.sh

matrix: tree
	@DEPS_MATRIX=1 $(S)/deps.sh
	@RESULT_COMMAND="$(call result_cmd,matrix)" $(S)/matrix.sh

# Both flavors, whatever FLAVOR says (scripts/bench.sh runs make kernel for
# each).
bench: deps
	@RESULT_COMMAND="$(call result_cmd,bench)" $(S)/bench.sh

# Both kernels (FUZZ_SEEDS, FUZZ_N, FUZZ_SECS: scripts/fuzz.sh).
fuzz: deps
	@$(MAKE) --no-print-directory initramfs FLAVOR=ours
	@$(MAKE) --no-print-directory initramfs FLAVOR=incumbent
	@RESULT_COMMAND="$(call result_cmd,fuzz)" $(S)/fuzz.sh

hit-trace: deps
	@$(S)/hit-trace.sh

patches: deps
	@FLAVOR=ours $(S)/prepare-tree.sh
	@$(S)/make-patches.sh

# After every patch of the series: build the kernel, boot it and run the
# tests the tree has at that point (scripts/bisect-check.sh; too slow for
# CI).  BISECT_QUICK=1 only compiles what the series touches.
bisect-check: patches
	@RESULT_COMMAND="$(call result_cmd,bisect-check)" $(S)/bisect-check.sh

# The project's originality checker lives next to the repository.
ORIGINALITY ?= $(firstword $(wildcard ../shared/tools/originality \
		/work/shared/tools/originality) ../shared/tools/originality)

originality: pristine
	@test -x $(ORIGINALITY) || { echo "originality: $(ORIGINALITY) not found (set ORIGINALITY=)"; exit 1; }
	@$(ORIGINALITY) --kernel-src build/linux-src

# The numbers and names Documentation/trace/kprobes.rst quotes, against
# the code (scripts/doc-check.py); every store to kprobe_running() going
# through its helpers (scripts/check-running.py); the README's and the cover letter's
# figures, against the committed result pages (scripts/results.py).
doc-check: pristine
	@python3 $(S)/doc-check.py --kernel-src build/linux-src
	@python3 $(S)/check-running.py
	@RESULTS_DIR= python3 $(S)/results.py fill README.md --check
	@RESULTS_DIR= python3 $(S)/results.py fill series/cover-letter.txt --check
	@echo "doc-check: README.md and the cover letter take every figure from docs/results/"

# Keep build/linux-src (pristine, slow to extract) and build/linux (our git
# tree; prepare-tree resets it when its stamps are gone).
clean:
	rm -rf build/obj-* build/modroot-* build/initramfs-* build/pristine-test-* \
		build/console-*.log build/build-*.log build/stamps build/series-work \
		build/bench-* build/initramfs-bench-* build/hit-trace* \
		build/tools out

distclean: clean
	rm -rf build/linux
