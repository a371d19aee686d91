#!/usr/bin/env python3
"""Per-function instruction and memory-access counts of one traced call.

Reads build/hit-trace[-CONFIG]/FLAVOR-MODE.pcs (one program counter per line, as
recorded by scripts/hit-trace-gdb.py), cuts one call of the traced
function (from its first entry to the next), names each kernel address
with nm and decodes it with objdump, and prints, for ours and the stock
kernel, the functions in the order the CPU went through them.
"""
import argparse
import bisect
import re
import subprocess
import sys

KERNEL_TEXT = (0xffffffff80000000, 0xffffffffa0000000)	# below: modules


def symbols(vmlinux):
    out = subprocess.run(["nm", "-n", vmlinux], capture_output=True,
                         text=True, check=True).stdout
    syms = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "tTwW":
            syms.append((int(parts[0], 16), parts[2]))
    return syms


def decode(vmlinux, pcs):
    """Disassembly text of each kernel address in pcs."""
    insns = {}
    for page in sorted({pc & ~0xfff for pc in pcs}):
        out = subprocess.run(
            ["objdump", "-d", "--no-show-raw-insn",
             "--start-address=0x%x" % (page - 32),
             "--stop-address=0x%x" % (page + 0x1020), vmlinux],
            capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
            if m:
                insns.setdefault(int(m.group(1), 16), m.group(2))
    return insns


def touches_memory(text):
    op = text.split()[0] if text else ""
    if op.startswith(("lea", "nop")):
        return False
    if op in ("push", "pop", "call", "ret") or op.startswith("iret"):
        return True
    return "(" in text or "%gs:" in text


def one_call(pcs):
    entries = [i for i, pc in enumerate(pcs) if pc == pcs[0]]
    if len(entries) < 2:
        sys.exit("trace too short for one whole call: raise TRACE_STEPS")
    return pcs[entries[0]:entries[1]]


def profile(build, suffix, flavor, mode):
    vmlinux = "%s/obj-%s%s/vmlinux" % (build, flavor, suffix)
    with open("%s/hit-trace%s/%s-%s.pcs" % (build, suffix, flavor, mode)) as f:
        call = one_call([int(line, 16) for line in f if line.strip()])
    kernel = [pc for pc in call if KERNEL_TEXT[0] <= pc < KERNEL_TEXT[1]]
    syms = symbols(vmlinux)
    addrs = [a for a, _ in syms]
    insns = decode(vmlinux, kernel)
    rows = []	# [function, insns, memory accesses], in order of entry
    for pc in call:
        if KERNEL_TEXT[0] <= pc < KERNEL_TEXT[1]:
            name = syms[bisect.bisect_right(addrs, pc) - 1][1]
            mem = touches_memory(insns.get(pc, ""))
        else:
            name, mem = "(module code)", False	# same module on both
        if not rows or rows[-1][0] != name:
            rows.append([name, 0, 0])
        rows[-1][1] += 1
        rows[-1][2] += mem
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--suffix", default="-release",
                    help="of the build directories: -release, -kunit or none (debug)")
    args = ap.parse_args()
    print("mode %s: one call of the probed function, hit included" % args.mode)
    totals = {}
    for flavor in ("ours", "incumbent"):
        rows = profile(args.build, args.suffix, flavor, args.mode)
        print("  %s" % flavor)
        for name, n, mem in rows:
            print("    %-40s %5d insns %4d mem" % (name, n, mem))
        totals[flavor] = (sum(r[1] for r in rows), sum(r[2] for r in rows))
    (oi, om), (ii, im) = totals["ours"], totals["incumbent"]
    print("  total: ours %d insns %d mem, incumbent %d insns %d mem"
          " (ours/incumbent %.2f, %.2f)" % (oi, om, ii, im, oi / ii, om / im))


if __name__ == "__main__":
    main()
