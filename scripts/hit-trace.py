#!/usr/bin/env python3
"""Per-function instruction and memory-access counts of one traced call.

Reads build/hit-trace[-CONFIG]/FLAVOR-MODE.pcs (one program counter per line, as
recorded by scripts/hit-trace-gdb.py), cuts one call of the traced
function (from its first entry to the next), names each kernel address
with nm and decodes it with objdump, and prints, for ours and the stock
kernel, the functions in the order the CPU went through them, and what
the call costs QEMU's TCG beyond its instructions (tcg_cost()).
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


def decode_dumps(pcs_file, pcs):
    """Disassembly of the code pages hit-trace-gdb.py dumped from memory."""
    insns = {}
    for page in sorted({pc & ~0xfff for pc in pcs}):
        dump = "%s.%x.bin" % (pcs_file, page)
        # Decode from the first address the CPU ran there, and keep the
        # page only if every address it ran decodes as an instruction.
        seen = {pc for pc in pcs if pc & ~0xfff == page}
        try:
            out = subprocess.run(
                ["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                 "--no-show-raw-insn", "--adjust-vma=0x%x" % page,
                 "--start-address=0x%x" % min(seen), dump],
                capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            continue
        page_insns = {}
        for line in out.splitlines():
            m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
            if m:
                page_insns[int(m.group(1), 16)] = m.group(2)
        if seen <= set(page_insns):
            insns.update(page_insns)
    return insns


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


# QEMU 7.2's per-CPU jump cache (accel/tcg/tb-hash.h): 4096 entries.
def jmp_cache_slot(pc):
    t = pc ^ (pc >> 6)
    return ((t >> 6) & 0xfc0) | (t & 0x3f)


def tcg_cost(call, insns):
    """Block lookups, main-loop exits and jump-cache collisions of a call.

    TCG chains a translated block straight to the next one when the next
    is reached by a direct jump or call within the block's page.  Any
    other way on is a lookup by address: a return, an indirect jump or
    call, a direct one to another page (the page of the jumping
    instruction stands for the block's).  POPF, IRET and INT3 leave the
    generated code for QEMU's main loop, which looks the next block up
    the same way.  A lookup goes through a direct-mapped cache first;
    two addresses of one call that share its slot evict each other, and
    each of their lookups goes to the hash table of all blocks.
    The code is decoded as it was in memory (hit-trace-gdb.py dumps it);
    without a dump, module code counts only its cross-page transfers.
    """
    addrs = sorted(insns)
    lookups = exits = 0
    targets = set()
    for a, b in zip(call, call[1:]):
        text = insns.get(a)
        op = text.split()[0] if text else ""
        if op.startswith(("popf", "iret", "int3")):
            exits += 1
            targets.add(b)
            continue
        if text is None:
            if 0 < b - a <= 15:
                continue
            far = (a ^ b) >> 12 != 0
        else:
            i = bisect.bisect_right(addrs, a)
            if i < len(addrs) and b == addrs[i]:
                continue		# next instruction (or a branch not taken)
            m = re.search(r"\b(?:jmp|call|j[a-z]+)\s+(?:0x)?([0-9a-f]+)\b", text)
            direct = m is not None and "*" not in text and int(m.group(1), 16) == b
            far = not direct or (a ^ b) >> 12 != 0
        if far:
            lookups += 1
            targets.add(b)
    slots = {}
    for pc in targets:
        slots.setdefault(jmp_cache_slot(pc), []).append(pc)
    collisions = sum(len(v) for v in slots.values() if len(v) > 1)
    return lookups, exits, collisions


def host_code(tcg_log):
    """Host instructions TCG generated per guest instruction.

    Reads QEMU's in_asm,out_asm log: each block's guest instructions
    ("IN:"), then its host code ("OUT:"), which marks where the code of
    each guest instruction begins ("-- guest addr", its offset in the
    page; one whose code is empty has no mark), and ends with the slow
    paths of memory accesses (a TLB miss), which a hit in a loop does
    not take.  A block translated again later (the code or the CPU
    state changed) replaces the earlier one.
    """
    host = {}
    guest, state, cur = [], None, None
    try:
        lines = open(tcg_log, errors="replace").read().splitlines()
    except OSError:
        return None
    for line in lines:
        if line.startswith("IN:"):
            state, guest = "in", []
        elif line.startswith("OUT:"):
            state, cur, pos = "out", None, 0
            for pc in guest:
                host[pc] = 0
        elif line.startswith("----"):
            state = None
        elif state == "in":
            m = re.match(r"0x([0-9a-f]+):", line)
            if m:
                guest.append(int(m.group(1), 16))
        elif state == "out":
            m = re.match(r"\s+-- guest addr 0x([0-9a-f]+)", line)
            if m:
                # The offset in the page; an instruction without host
                # code of its own has no mark.
                off, cur = int(m.group(1), 16) & 0xfff, None
                while pos < len(guest) and cur is None:
                    if guest[pos] & 0xfff == off:
                        cur = guest[pos]
                    pos += 1
            elif "-- tb slow paths" in line:
                state = None
            elif cur is not None and re.match(r"0x[0-9a-f]+:", line):
                host[cur] += 1
    return host


def profile(build, suffix, flavor, mode):
    vmlinux = "%s/obj-%s%s/vmlinux" % (build, flavor, suffix)
    pcs_file = "%s/hit-trace%s/%s-%s.pcs" % (build, suffix, flavor, mode)
    with open(pcs_file) as f:
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
    host = host_code("%s/hit-trace%s/%s-%s.tcg.log" % (build, suffix, flavor, mode))
    if host is not None:
        host = (sum(host.get(pc, 0) for pc in call),
                sum(1 for pc in call if pc not in host))
    return rows, tcg_cost(call, {**insns, **decode_dumps(pcs_file, call)}), host


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--mode", required=True)
    ap.add_argument("--suffix", default="-release",
                    help="of the build directories: -release, -kunit or none (debug)")
    args = ap.parse_args()
    print("mode %s: one call of the probed function, hit included" % args.mode)
    totals, tcg, host = {}, {}, {}
    for flavor in ("ours", "incumbent"):
        rows, tcg[flavor], host[flavor] = profile(args.build, args.suffix,
                                                  flavor, args.mode)
        print("  %s" % flavor)
        for name, n, mem in rows:
            print("    %-40s %5d insns %4d mem" % (name, n, mem))
        totals[flavor] = (sum(r[1] for r in rows), sum(r[2] for r in rows))
    (oi, om), (ii, im) = totals["ours"], totals["incumbent"]
    print("  total: ours %d insns %d mem, incumbent %d insns %d mem"
          " (ours/incumbent %.2f, %.2f)" % (oi, om, ii, im, oi / ii, om / im))
    for flavor in ("ours", "incumbent"):
        print("  TCG, %s: %d block lookups, %d main-loop exits, %d blocks"
              " in jump-cache collisions" % ((flavor,) + tcg[flavor]))
    if host["ours"] and host["incumbent"]:
        print("  TCG host code of the call: ours %d instructions, incumbent %d"
              " (ours/incumbent %.2f)" % (host["ours"][0], host["incumbent"][0],
                                          host["ours"][0] / host["incumbent"][0]))
        for flavor in ("ours", "incumbent"):
            if host[flavor][1]:
                print("    %s: %d guest instructions not in the log"
                      % (flavor, host[flavor][1]))


if __name__ == "__main__":
    main()
