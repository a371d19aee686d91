#!/usr/bin/env python3
"""Choose random kprobe_events specs for `make fuzz`, reproducibly.

usage: fuzz-specs.py SEED N SYSTEM_MAP [SYSTEM_MAP...] > specs

Prints 2*N lines "<index> <p|r> <target>": N function entries (one in four
as a return probe, "r") and N "function+offset" probes with an offset of
1..96 bytes inside the function.  The functions are text symbols that every
given System.map has the same number of times with the same sizes (the
code the kernels share; kprobes' own code differs between ours and the
stock one and so drops out), so that the same specs mean the same
instructions in each kernel.  The size of a function is the distance to the
next symbol, padding included: an offset may land in the padding, which is
a case to refuse, the same way in both kernels.  Same seed, same maps: same
specs.
"""
import random
import sys

MAX_OFFSET = 96


def text_functions(path):
    """name -> sorted tuple of sizes, for the text symbols of a System.map."""
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue
            syms.append((int(parts[0], 16), parts[1], parts[2]))
    syms.sort()
    funcs = {}
    for (addr, kind, name), nxt in zip(syms, syms[1:]):
        if kind not in "tT":
            continue
        # Compiler clones (foo.cold, foo.isra.0), CFI/FineIBT prefixes and
        # linker markers are not what users name in kprobe_events.
        if "." in name or name.startswith(("__pfx_", "__cfi_", "__pi_")):
            continue
        funcs.setdefault(name, []).append(nxt[0] - addr)
    return {n: tuple(sorted(s)) for n, s in funcs.items()}


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    seed, n = int(sys.argv[1], 0), int(sys.argv[2])
    maps = [text_functions(p) for p in sys.argv[3:]]
    common = set(maps[0])
    for m in maps[1:]:
        common &= {name for name, sizes in m.items()
                   if maps[0].get(name) == sizes}
    names = sorted(common)
    if not names:
        print("no common text symbols", file=sys.stderr)
        return 1
    rng = random.Random(seed)
    idx = 0
    for _ in range(n):
        name = rng.choice(names)
        kind = "r" if rng.randrange(4) == 0 else "p"
        print(f"{idx} {kind} {name}")
        idx += 1
    sized = [name for name in names if max(maps[0][name]) > 1]
    for _ in range(n):
        name = rng.choice(sized)
        off = rng.randint(1, min(MAX_OFFSET, max(maps[0][name]) - 1))
        print(f"{idx} p {name}+{off}")
        idx += 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
