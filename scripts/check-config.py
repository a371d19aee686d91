#!/usr/bin/env python3
"""Check that every symbol requested by the config fragments got its value.

usage: check-config.py DOTCONFIG FRAGMENT...

Fragments are read in order (a later one wins, as with merge_config.sh).
Every mismatch is listed; the exit code is 1 only if a mismatch concerns a
symbol that matters for testing kprobes (FATAL below), since e.g. a boot
option that does not stick shows up anyway as a boot failure.
"""
import re
import sys

# Symbols whose loss would silently weaken or void the test run.
FATAL = re.compile(r"KPROBE|KRETPROBE|OPTPROBE|KUNIT|FTRACE|FUNCTION_TRACER|"
                   r"BPF|PERF_EVENTS|FAULT_INJECTION|ERROR_INJECTION|"
                   r"FAIL_FUNCTION|LKDTM|SAMPLE|^MODULE|KALLSYMS|DEBUG_FS|"
                   r"KASAN|PROVE_|LOCKDEP|DEBUG_ATOMIC_SLEEP|DEBUG_LIST|"
                   r"DEBUG_KERNEL|UNWINDER")
LINE = re.compile(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$")
UNSET = re.compile(r"^# (CONFIG_[A-Za-z0-9_]+) is not set$")


def parse(path, keep_unset=True):
    vals = {}
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            m = LINE.match(line)
            if m:
                vals[m.group(1)] = m.group(2)
                continue
            m = UNSET.match(line)
            if m and keep_unset:
                vals[m.group(1)] = "n"
    return vals


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    actual = parse(sys.argv[1])
    want, origin = {}, {}
    for frag in sys.argv[2:]:
        for sym, val in parse(frag).items():
            want[sym], origin[sym] = val, frag
    bad_fatal, bad_soft = [], []
    for sym, val in sorted(want.items()):
        got = actual.get(sym, "n")  # absent from .config: unset/unavailable
        if got != val:
            name = sym[len("CONFIG_"):]
            row = f"  {sym}: wanted {val}, got {got if sym in actual else 'n (not available)'}  [{origin[sym].rsplit('/', 1)[-1]}]"
            (bad_fatal if FATAL.search(name) else bad_soft).append(row)
    if bad_soft:
        print("config: WARNING: these fragment symbols did not get their value "
              "(dependencies unmet?):", file=sys.stderr)
        print("\n".join(bad_soft), file=sys.stderr)
    if bad_fatal:
        print("config: ERROR: these kprobes/test-related symbols did not get "
              "their value; fix the fragments (a dependency is missing):", file=sys.stderr)
        print("\n".join(bad_fatal), file=sys.stderr)
        return 1
    print(f"config: all {len(want)} fragment symbols checked"
          + (f", {len(bad_soft)} non-fatal mismatches" if bad_soft else ", all as requested"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
