#!/usr/bin/env python3
"""Carry an edit of an overlay file into the strip diffs of the series.

usage: scripts/restrip.py [--since NN] FILE...

make patches commits a file that later patches extend in its earlier form:
the final file minus the hunks of series/strip/NN-*.diff (see
scripts/make-patches.sh).  Editing the final file can leave those hunks
without their context, and then they no longer come off.  For each FILE
(edited in the work tree, compared with git HEAD) this script

  1. rebuilds the file's states between the patches from HEAD's file and
     HEAD's strip diffs (each state is the one before a diff takes off);
  2. carries the edit (HEAD -> work tree) into every state with a
     three-way merge, or, where that conflicts, group by group of
     changed lines: a group goes where its text and the lines around it
     occur once in the state (a replacement of enough text: its old
     lines alone); one whose text a state does not have yet (a later
     patch adds it) is left out of that state, and counted;
  3. writes each strip diff's part for FILE again as the difference
     between consecutive new states, leaving its parts for other files
     as they are in the work tree.

--since NN: the edit belongs to patch NN (it is about something that
patch brings): the states before it keep HEAD's text, and patch NN's
strip diff carries the edit.  To split edits of one file between
patches, commit the others first.

Run make patches afterwards: it checks that the result adds up to the
final tree.  Python 3 standard library and git only.
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STRIP = os.path.join(ROOT, "series", "strip")
# Lines of context a group may take to find its one place in a state.
CONTEXT = 6
SECTION = re.compile(r"^diff --git [ab]/(\S+) [ab]/\S+\n", re.M)


def run(*args, cwd=ROOT, check=True, stdin=None):
    return subprocess.run(args, cwd=cwd, check=check, text=True,
                          input=stdin, capture_output=True)


def sections(text):
    """Split a strip diff into (path, section text) in order."""
    starts = [m.start() for m in SECTION.finditer(text)]
    out = []
    for i, s in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        out.append((SECTION.match(text, s).group(1), text[s:end]))
    return out


def head_text(path):
    return run("git", "show", f"HEAD:{path}").stdout


def unapply(state, section, path):
    """@state minus the hunks of @section (git apply -R)."""
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(d, path), "w") as f:
            f.write(state)
        run("git", "init", "-q", cwd=d)
        r = run("git", "apply", "-R", f"--include={path}", "-", cwd=d,
                check=False, stdin=section)
        if r.returncode:
            sys.exit(f"restrip: HEAD's strip diff does not come off {path}:"
                     f" {r.stderr.strip()}")
        with open(os.path.join(d, path)) as f:
            return f.read()


def find_once(lines, block):
    """Index of the only place @block occurs in @lines, else None."""
    n = len(block)
    hits = [i for i in range(len(lines) - n + 1) if lines[i:i + n] == block]
    return hits[0] if len(hits) == 1 else None


def edit_groups(base, edited, path):
    """The edit base -> edited as groups of consecutive changed lines:
    (lines before, removed lines, added lines, lines after), up to
    CONTEXT lines around, fewer at the ends of the file."""
    lines = base.split("\n")
    whole = section_diff(base, edited, path, context=0)
    groups = []
    for h in whole.split("\n@@")[1:]:
        m = re.match(r" -(\d+)(?:,(\d+))? ", h)
        start, count = int(m.group(1)), int(m.group(2) or 1)
        body = h.split("\n")[1:]
        removed = [ln[1:] for ln in body if ln[:1] == "-"]
        added = [ln[1:] for ln in body if ln[:1] == "+"]
        # Removed lines are start..start+count-1 (1-based); an insertion
        # (count 0) goes after line start.
        first = start - 1 if count else start
        before = lines[max(0, first - CONTEXT):first]
        after_i = first + count
        after = lines[after_i:after_i + CONTEXT]
        groups.append((before, removed, added, after))
    return groups


def apply_group(lines, group):
    """Apply one group where its text occurs once: with the fewest lines
    around it that make it unique (one on each side first; more where
    that is ambiguous), else (a replacement of distinctive lines) the
    removed lines alone.  Returns the new lines, or None."""
    before, removed, added, after = group
    # At least a line on each side (none only at an end of the file):
    # one side alone can match far from where the group belongs.
    pairs = sorted(((b, a) for b in range(min(1, len(before)), len(before) + 1)
                    for a in range(min(1, len(after)), len(after) + 1)),
                   key=lambda p: (p[0] + p[1], abs(p[0] - p[1])))
    for nb, na in pairs:
        ctx_b = before[len(before) - nb:]
        ctx_a = after[:na]
        old = ctx_b + removed + ctx_a
        at = find_once(lines, old)
        if at is not None:
            return lines[:at] + ctx_b + added + ctx_a + lines[at + len(old):]
    if len("".join(removed).replace(" ", "").replace("\t", "")) < 30:
        return None	# an insertion, or too little text to be sure
    at = find_once(lines, removed)
    if at is None:
        return None
    return lines[:at] + added + lines[at + len(removed):]


def apply_hunks(state, base, edited, path):
    """Apply base -> edited to @state group by group; return the result
    and how many groups did not apply."""
    lines = state.split("\n")
    skipped = 0
    for g in edit_groups(base, edited, path):
        out = apply_group(lines, g)
        if out is None:
            skipped += 1
        else:
            lines = out
    return "\n".join(lines), skipped


def merge(state, base, edited, where, path):
    """Carry base -> edited into @state.  Where a three-way merge
    conflicts, the edit goes in hunk by hunk; a hunk whose text the state
    does not have is left out."""
    with tempfile.TemporaryDirectory() as d:
        names = []
        for name, text in (("state", state), ("base", base),
                           ("edited", edited)):
            p = os.path.join(d, name)
            with open(p, "w") as f:
                f.write(text)
            names.append(p)
        r = run("git", "merge-file", "-p", *names, check=False)
    if r.returncode == 0:
        return r.stdout
    out, skipped = apply_hunks(state, base, edited, path)
    if skipped:
        print(f"restrip: {where}: {skipped} group(s) of changed lines touch text "
              "this state does not have; left out", file=sys.stderr)
    return out


def section_diff(before, after, path, context=3):
    """A strip diff section for @path: @before -> @after."""
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        with open(a, "w") as f:
            f.write(before)
        with open(b, "w") as f:
            f.write(after)
        r = run("git", "diff", "--no-index", "--no-prefix",
                f"-U{context}", a, b,
                check=False)
    body = r.stdout[r.stdout.index("\n@@") + 1:] if "\n@@" in r.stdout else ""
    if not body:
        return ""
    return (f"diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n"
            + body)


def restrip(path, since):
    diffs = sorted(f for f in os.listdir(STRIP) if f.endswith(".diff"))
    texts = {f: head_text(f"series/strip/{f}") for f in diffs}
    touching = [f for f in diffs
                if any(p == path for p, _ in sections(texts[f]))]
    if not touching:
        print(f"restrip: no strip diff touches {path}")
        return
    base = head_text(path)
    with open(os.path.join(ROOT, path)) as f:
        edited = f.read()

    # 1. old_states[i] is the file before touching[i] is added, and
    #    old_states[-1] the final file.
    old_states = [base]
    for f in reversed(touching):
        sec = dict(sections(texts[f]))[path]
        old_states.insert(0, unapply(old_states[0], sec, path))

    # 2.
    new_states = [s if int(touching[i][:2]) <= since else
                  merge(s, base, edited, f"{path} before {touching[i]}", path)
                  for i, s in enumerate(old_states[:-1])] + [edited]

    # 3.
    for i, f in enumerate(touching):
        new_sec = section_diff(new_states[i], new_states[i + 1], path)
        with open(os.path.join(STRIP, f)) as fh:
            now = fh.read()	# other files' parts as already restripped
        out = "".join(new_sec if p == path else s
                      for p, s in sections(now))
        with open(os.path.join(STRIP, f), "w") as fh:
            fh.write(out)
        print(f"restrip: series/strip/{f}: {path} rewritten")


def main():
    args, since = sys.argv[1:], 0
    if args[:1] == ["--since"] and len(args) > 1:
        since, args = int(args[1], 10), args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    for path in args:
        restrip(os.path.relpath(os.path.abspath(path), ROOT), since)
    return 0


if __name__ == "__main__":
    sys.exit(main())
