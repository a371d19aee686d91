#!/usr/bin/env python3
"""Summarise kpmode=test console logs (and kunit.py's, scripts/kunit-py.sh).

usage: ktap-summary.py [--markdown FILE] CONSOLE_LOG...

Counts the KTAP results printed by the guest between
"=== KTAP BEGIN <suite> ===" and "=== KTAP END <suite> ===" markers:
test cases are the results one level below the suite line (KUnit), or the
top-level results of a block that has no nesting (scripted tests).
Parameterized cases' subtests count as their parent case; "# SKIP" counts
as skipped.  On top of that, each of these is one failed test:
  - each distinct kernel splat anywhere in the log ("splat: <line>"),
    except one a test provokes on purpose: between the guest's lines
    "=== EXPECT-SPLAT BEGIN <word> ===" and "=== EXPECT-SPLAT END ===",
    a splat whose text names <word> is expected, not a failure,
  - a module that failed to load ("MODULE-LOAD-FAILED name"),
  - no KTAP block at all, or no "=== GUEST DONE ===" line (crash/timeout),
  - a suite reported "not ok" although none of its cases failed.
Before it, a table of suites (KUnit suites by name, scripted tests by
block) with their passed, failed and skipped cases.  Each log must have
its own "=== GUEST DONE ===".  The last line printed is
"N passed, M failed[, K skipped]"; the exit code is 1 if anything failed.
--markdown FILE also writes the table, the failures and that line as
Markdown (the body of a result page, scripts/results.py).
"""
import re
import sys

BEGIN = re.compile(r"=== KTAP BEGIN (\S+) ===")
END = re.compile(r"=== KTAP END (\S+) ===")
DONE = "=== GUEST DONE ==="
RESULT = re.compile(r"^(?P<indent>\s*)(?P<ok>ok|not ok) (?P<num>\d+)(?: -)?\s*(?P<name>[^#]*?)\s*(?:#\s*(?P<directive>.*))?$")
SPLAT = re.compile(
    r"\bBUG:|\bWARNING:|\bOops\b|general protection fault|KASAN|UBSAN|"
    r"possible circular locking|possible recursive locking|"
    r"inconsistent lock state|suspicious RCU usage|"
    r"sleeping function called from invalid context|Kernel panic|"
    r"INFO: task|stack-protector|Call Trace:")
SPLAT_END = re.compile(r"---\[ end (trace|Kernel panic)")
# printk timestamp, and things that differ between two hits of the same bug.
TIMESTAMP = re.compile(r"^\s*\[\s*\d+\.\d+\]\s*")
VOLATILE = re.compile(r"0x[0-9a-f]+|\b[0-9a-f]{8,}\b|\bCPU: ?\d+|\bPID: ?\d+|\b\d+\b")
CONTEXT = 30


def indent_level(s):
    return (len(s.expandtabs(4)) // 4) if s else 0


def clean(line):
    # Console logs carry \r and sometimes ANSI junk from the serial line.
    return line.rstrip("\r\n").replace("\r", "")


class Summary:
    def __init__(self):
        self.passed = 0
        self.failed = []   # (name, detail lines)
        self.skipped = 0
        self.suites = {}   # name -> [passed, failed, skipped], in order seen

    def count(self, suite, counts):
        have = self.suites.setdefault(suite, [0, 0, 0])
        for i, n in enumerate(counts):
            have[i] += n

    def fail(self, name, detail=()):
        self.failed.append((name, list(detail)))


def parse_block(suite, lines, summ):
    """Count the results of one KTAP block."""
    parsed = []
    for i, line in enumerate(lines):
        m = RESULT.match(line)
        if m:
            parsed.append((i, indent_level(m.group("indent")), m))
    if not parsed:
        summ.fail(f"{suite}: no KTAP results", lines[-CONTEXT:])
        return
    top = min(lvl for _, lvl, _ in parsed)
    case_level = top + 1 if any(lvl == top + 1 for _, lvl, _ in parsed) else top
    prev_end = 0
    case_failed = False
    pending = [0, 0, 0]    # cases not yet attributed to a suite line
    for i, lvl, m in parsed:
        if lvl != case_level:
            if lvl == top and case_level != top:
                # One suite per block (debugfs), or many (kunit.py).
                name = m.group("name") or suite
                # "suite@tag": the same suite in another boot (kptag=).
                same = name in (suite, suite.split("@")[0])
                summ.count(suite if same else f"{suite}:{name}", pending)
                pending = [0, 0, 0]
                # The suite line: not ok without a failed case is a failure
                # of its own (e.g. suite init or exit failed).
                directive = (m.group("directive") or "").strip()
                if m.group("ok") == "not ok" and not case_failed and \
                        not directive.upper().startswith("SKIP"):
                    summ.fail(f"{suite}: suite {m.group('name')} not ok",
                              [l for l in lines[prev_end:i + 1] if l.strip().startswith("#")])
            continue
        directive = (m.group("directive") or "").strip()
        name = m.group("name") or f"#{m.group('num')}"
        if directive.upper().startswith("SKIP"):
            summ.skipped += 1
            pending[2] += 1
        elif m.group("ok") == "ok":
            summ.passed += 1
            pending[0] += 1
        else:
            case_failed = True
            pending[1] += 1
            # Everything since the previous case: "# ..." diagnostics, their
            # continuation lines, parameterized subtests' results.
            detail = [l for l in lines[prev_end:i] if l.strip()
                      and not l.strip().startswith("KTAP version")][-CONTEXT:]
            summ.fail(f"{suite}: {name}", detail)
        prev_end = i + 1
    if any(pending):
        summ.count(suite, pending)


EXPECT_BEGIN = re.compile(r"=== EXPECT-SPLAT BEGIN (\S+) ===")
EXPECT_END = "=== EXPECT-SPLAT END ==="


def expected_windows(lines):
    """[(first, last, word)] of the EXPECT-SPLAT markers; open to the end."""
    windows, cur = [], None
    for i, line in enumerate(lines):
        m = EXPECT_BEGIN.search(line)
        if m:
            cur = (i, m.group(1))
        elif EXPECT_END in line and cur:
            windows.append((cur[0], i, cur[1]))
            cur = None
    if cur:
        windows.append((cur[0], len(lines), cur[1]))
    return windows


def find_splats(lines, summ):
    seen = set()
    windows = expected_windows(lines)
    i = 0
    while i < len(lines):
        line = TIMESTAMP.sub("", lines[i])
        if not SPLAT.search(line):
            i += 1
            continue
        start = i
        # One splat runs to its "---[ end trace" line (or CONTEXT lines).
        end = min(len(lines), i + CONTEXT)
        for j in range(i + 1, min(len(lines), i + 200)):
            if SPLAT_END.search(lines[j]):
                end = j + 1
                break
            if BEGIN.search(lines[j]) or END.search(lines[j]) or DONE in lines[j]:
                end = j
                break
        key = VOLATILE.sub("#", line.strip())
        block = "\n".join(lines[start:end])
        if any(a <= start <= b and word in block for a, b, word in windows):
            pass
        elif key not in seen:
            seen.add(key)
            summ.fail(f"splat: {line.strip()}", lines[max(0, start - 3):min(end, start + CONTEXT)])
        i = end if end > i else i + 1


def summarise_log(path, summ):
    try:
        with open(path, errors="replace") as f:
            lines = [clean(l) for l in f]
    except OSError as e:
        summ.fail(f"{path}: {e}")
        return
    blocks, cur, cur_lines = 0, None, []
    for line in lines:
        if cur is None:
            m = BEGIN.search(line)
            if m:
                cur, cur_lines = m.group(1), []
                blocks += 1
            continue
        if END.search(line):
            parse_block(cur, cur_lines, summ)
            cur = None
            continue
        cur_lines.append(line)
    if cur is not None:
        summ.fail(f"{cur}: KTAP block never ended (guest died while printing it)", cur_lines[-CONTEXT:])
    for line in lines:
        m = re.search(r"MODULE-LOAD-FAILED (\S+)", line)
        if m:
            summ.fail(f"module {m.group(1)} failed to load")
        m = re.search(r"SKIP-MODULE (\S+)", line)
        if m:
            print(f"SKIP module {m.group(1)} (not installed)")
            summ.skipped += 1
    find_splats(lines, summ)
    if blocks == 0:
        summ.fail(f"{path}: no KTAP output in the console log", lines[-CONTEXT:])
    if not any(DONE in l for l in lines):
        summ.fail(f"{path}: guest did not finish (no '=== GUEST DONE ===': "
                  "crash, hang, timeout or build failure)", lines[-CONTEXT:])


def print_table(summ):
    if not summ.suites:
        return
    width = max(len(n) for n in summ.suites)
    print(f"{'suite':<{width}}  {'passed':>6}  {'failed':>6}  {'skipped':>7}")
    for name, (p, f, s) in summ.suites.items():
        print(f"{name:<{width}}  {p:>6}  {f:>6}  {s:>7}")


def markdown(summ, logs, line):
    out = ["| suite | passed | failed | skipped |", "|---|---:|---:|---:|"]
    out += [f"| {n} | {p} | {f} | {s} |" for n, (p, f, s) in summ.suites.items()]
    if summ.failed:
        out += ["", "Failures:", ""]
        out += [f"- {name}" for name, _ in summ.failed]
    out += ["", "Console logs: " + ", ".join(f"`{l}`" for l in logs) + ".", "", f"**{line}**"]
    return "\n".join(out) + "\n"


def main():
    args = sys.argv[1:]
    md = None
    if args[:1] == ["--markdown"] and len(args) > 1:
        md, args = args[1], args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    summ = Summary()
    for path in args:
        summarise_log(path, summ)
    print_table(summ)

    for name, detail in summ.failed:
        print(f"FAIL {name}")
        for d in detail:
            print(f"    | {d}")
    line = f"{summ.passed} passed, {len(summ.failed)} failed"
    if summ.skipped:
        line += f", {summ.skipped} skipped"
    print(line)
    if md:
        logs = [p.split("/build/", 1)[-1] if "/build/" in p else p for p in args]
        with open(md, "w") as f:
            f.write(markdown(summ, logs, line))
    return 1 if summ.failed else 0


if __name__ == "__main__":
    sys.exit(main())
