#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Check that kprobe_running() is written only through its helpers.

kprobe_hits_quiesce() can tell that a CPU is inside a hit only if the
CPU marks itself before it reads what the hit uses.  The helpers in
kernel/kprobes/internal.h (kprobe_running_begin(), kprobe_running_set(),
kprobe_running_end()) keep that order with a compiler barrier; a plain
per-CPU store elsewhere may be sunk below the loads it must precede, as
it was once in the return trampoline's handler.  So any other store to
current_kprobe in our code is an error.

Usage: scripts/check-running.py [repository root]; exit status 1 and one
line per offending store when there is one.
"""
import pathlib
import re
import sys

# Where the helpers live, and the tests that fake a CPU's state on purpose.
ALLOWED = ("kernel/kprobes/internal.h", "kernel/kprobes/tests/")

STORE = re.compile(
    r"(?:__this_cpu_|this_cpu_|raw_cpu_)(?:write|xchg|cmpxchg)\s*\(\s*current_kprobe\b"
    r"|smp_store_release\s*\(\s*(?:this_cpu_ptr|per_cpu_ptr|raw_cpu_ptr)\s*\(\s*&\s*current_kprobe\b"
    r"|WRITE_ONCE\s*\(\s*(?:\*\s*)?(?:per_cpu|this_cpu_ptr|per_cpu_ptr)\s*\(\s*&?\s*current_kprobe\b"
    r"|per_cpu\s*\(\s*current_kprobe\s*,[^)]*\)\s*=[^=]")


def sources(root):
    for pattern in ("kernel/kprobes/**/*.[ch]", "arch/*/kernel/kprobes/*.[cS]",
                    "arch/*/include/asm/kprobes.h", "include/linux/kprobe*.h"):
        yield from sorted(root.glob(pattern))


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    bad = 0
    checked = 0
    for path in sources(root):
        rel = path.relative_to(root).as_posix()
        if rel.startswith(ALLOWED):
            continue
        checked += 1
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if STORE.search(line):
                print(f"{rel}:{n}: current_kprobe written directly; use "
                      f"kprobe_running_begin() or kprobe_running_set()")
                bad += 1
    print(f"check-running: {checked} files, {bad} direct stores to current_kprobe")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
