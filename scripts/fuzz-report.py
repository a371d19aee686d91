#!/usr/bin/env python3
"""Judge and tabulate the console logs of `make fuzz` (scripts/fuzz.sh).

usage: fuzz-report.py --out FILE --title TEXT SEED:FLAVOR:LOG:OBJ...

Each LOG is the console of one kernel (FLAVOR ours or incumbent, objects
in OBJ) running tests/guest/fuzz.sh on build/fuzz/specs-SEED.txt (next to
the log).  A kernel's run passes when: every spec got a FUZZ-REG result,
FUZZ-SUM says alive=yes and left=0, "=== FUZZ DONE ===" was printed, the
console has no kernel splat (the patterns of scripts/ktap-summary.py),
and, for ours, each spec has the stock kernel's result (accepted, or the
same errno) unless the difference is one docs/testing.md documents: an
instruction we refuse with -EOPNOTSUPP that the stock kernel steps
(DOCUMENTED below).  Differences are listed with the instruction at the
probed address (objdump of OBJ/vmlinux: Debian's cross objdump for an
arm64 or riscv kernel, $OBJDUMP when set).  Exit code 1 if a run failed.
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess
import sys

REG = re.compile(r"FUZZ-REG (\d+) ([pr]) (\S+) (\S+)$")
RES = re.compile(r"^FUZZ-RES (\d+) ([pr]) (\S+) (\S+)$")
SUM = re.compile(r"FUZZ-SUM (.*)")
DONE = "=== FUZZ DONE ==="
# docs/testing.md, "Where the stock kernel's user-visible behaviour and ours differ".
DOCUMENTED = {"hlt", "lret", "lretq", "lretl", "iret", "iretq", "iretl",
              "syscall", "sysret", "sysretq", "sysretl", "sysenter",
              "sysexit", "swapgs", "mwait", "mwaitx", "monitorx", "xbegin"}
PREFIXES = {"data16", "addr32", "cs", "ds", "notrack", "bnd", "lock",
            "rex", "rex.w", "rex.W", "rep", "repz", "repnz"}


def load_ktap_summary():
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "ktap_summary", os.path.join(here, "ktap-summary.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


KTAP = load_ktap_summary()


class Run:
    def __init__(self, seed, flavor, log, obj):
        self.seed, self.flavor, self.log, self.obj = seed, flavor, log, obj
        self.regs = {}
        self.summary = {}
        self.done = False
        self.problems = []
        self.splats = []
        specs = os.path.join(os.path.dirname(log), f"specs-{seed}.txt")
        with open(specs) as f:
            self.nspecs = sum(1 for line in f if line.strip())
        try:
            with open(log, errors="replace") as f:
                lines = [KTAP.clean(l) for l in f]
        except OSError as e:
            self.problems.append(f"no console log: {e}")
            return
        final = {}
        for line in lines:
            m = RES.search(line)
            if m:
                final[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
                continue
            m = REG.search(line)
            if m:
                self.regs[int(m.group(1))] = (m.group(2), m.group(3), m.group(4))
                continue
            m = SUM.search(line)
            if m:
                self.summary = dict(kv.split("=", 1) for kv in m.group(1).split())
            if DONE in line:
                self.done = True
        # The end-of-run copy, when the guest got there; else what it
        # printed as it went (a crash stops both).
        if final:
            self.regs = final
        summ = KTAP.Summary()
        KTAP.find_splats(lines, summ)
        self.splats = [name for name, _ in summ.failed]
        if len(self.regs) != self.nspecs:
            self.problems.append(f"{len(self.regs)} of {self.nspecs} specs have a result")
        if not self.done:
            self.problems.append("no '=== FUZZ DONE ===' (crash, hang or timeout)")
        if self.summary.get("alive") != "yes":
            self.problems.append("guest not alive at the end")
        if self.summary.get("left", "0") != "0":
            self.problems.append(f"{self.summary.get('left')} probes left after removal")
        self.problems += self.splats

    def refused_by_errno(self):
        return collections.Counter(r for _, _, r in self.regs.values() if r != "ok")


# ELF e_machine of the kernels a cross objdump reads.
CROSS_OBJDUMP = {183: "aarch64-linux-gnu-objdump", 243: "riscv64-linux-gnu-objdump"}


def objdump_for(vmlinux):
    """The objdump that reads vmlinux: $OBJDUMP, a cross one, or the host's."""
    if os.environ.get("OBJDUMP"):
        return os.environ["OBJDUMP"]
    try:
        with open(vmlinux, "rb") as f:
            machine = int.from_bytes(f.read(20)[18:20], "little")
    except OSError:
        return "objdump"
    return CROSS_OBJDUMP.get(machine, "objdump")


class SymbolMap:
    def __init__(self, obj):
        self.obj = obj
        self.addr = {}
        with open(os.path.join(obj, "System.map")) as f:
            for line in f:
                a, _, name = line.split()
                self.addr.setdefault(name, int(a, 16))

    def insn_at(self, target):
        """(mnemonic, text) of the instruction at symbol[+off], or None."""
        name, _, off = target.partition("+")
        if name not in self.addr:
            return None
        start = self.addr[name] + int(off or "0", 0)
        try:
            out = subprocess.run(
                [objdump_for(os.path.join(self.obj, "vmlinux")), "-d", "-w",
                 f"--start-address={start:#x}", f"--stop-address={start + 16:#x}",
                 os.path.join(self.obj, "vmlinux")],
                capture_output=True, text=True, check=False).stdout
        except OSError:
            return None
        for line in out.splitlines():
            parts = line.split("\t")
            if len(parts) >= 3 and parts[0].strip().endswith(":"):
                text = parts[2].strip()
                words = [w for w in text.split() if w not in PREFIXES]
                return (words[0] if words else ""), f"{parts[1].strip()}  {text}"
        return None


def documented(ours, stock, insn):
    """Is this difference one docs/testing.md lists?"""
    if ours != "EOPNOTSUPP" or stock != "ok" or insn is None:
        return False
    mnem, text = insn
    if mnem in DOCUMENTED:
        return True
    # Branches with an operand- or address-size prefix.
    raw = text.split("  ")[0].split()
    branch = mnem.startswith(("j", "call", "ret", "loop"))
    return branch and any(b in ("66", "67") for b in raw[:2])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--title", default="make fuzz")
    ap.add_argument("runs", nargs="+")
    args = ap.parse_args()

    runs = []
    for r in args.runs:
        seed, flavor, log, obj = r.split(":", 3)
        runs.append(Run(seed, flavor, log, obj))
    by_seed = collections.defaultdict(dict)
    for r in runs:
        by_seed[r.seed][r.flavor] = r

    rows, details, failed = [], [], False
    maps = {}
    for seed, kernels in by_seed.items():
        stock = kernels.get("incumbent")
        for flavor, r in kernels.items():
            mism = doc = 0
            if flavor == "ours" and stock is not None:
                smap = maps.setdefault(r.obj, SymbolMap(r.obj))
                for idx, (kind, target, res) in sorted(r.regs.items()):
                    sres = stock.regs.get(idx, (None, None, "missing"))[2]
                    if res == sres:
                        continue
                    insn = smap.insn_at(target)
                    is_doc = documented(res, sres, insn)
                    doc += is_doc
                    mism += not is_doc
                    details.append(f"| {seed} | `{kind}:{target}` | {res} | {sres} | "
                                   f"`{insn[1] if insn else '?'}` | {'documented' if is_doc else '**not documented**'} |")
                if mism:
                    r.problems.append(f"{mism} results differ from the stock kernel's")
            ok = not r.problems
            failed |= not ok
            s = r.summary
            errnos = ", ".join(f"{e} {n}" for e, n in sorted(r.refused_by_errno().items()))
            cmp_col = f"{mism} (+{doc} documented)" if flavor == "ours" and stock else "-"
            rows.append(f"| {seed} | {flavor} | {s.get('accepted', '?')} | {s.get('refused', '?')} ({errnos}) | "
                        f"{s.get('hits', '?')} | {s.get('missed', '?')} | {cmp_col} | {len(r.splats)} | "
                        f"{'pass' if ok else 'FAIL: ' + '; '.join(p.replace('|', '/')[:120] for p in r.problems[:3])} |")

    out = [args.title, "",
           "| seed | kernel | accepted | refused (by errno) | hits | missed | errno/acceptance differences from stock | splats | result |",
           "|---|---|---:|---|---:|---:|---|---:|---|"] + rows
    if details:
        out += ["", "Differences from the stock kernel (ours, stock, the instruction in ours):", "",
                "| seed | spec | ours | stock | instruction | |", "|---|---|---|---|---|---|"] + details
    text = "\n".join(out) + "\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    for r in runs:
        for p in r.problems:
            print(f"FAIL seed {r.seed} {r.flavor}: {p}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
