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
     three-way merge; where the edit touches text a state does not have
     yet (a later patch adds it) the state keeps its own text, and the
     place is listed, to be checked by eye;
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


def merge(state, base, edited, where):
    """Carry base -> edited into @state; conflicts keep @state's text."""
    with tempfile.TemporaryDirectory() as d:
        names = []
        for name, text in (("state", state), ("base", base),
                           ("edited", edited)):
            p = os.path.join(d, name)
            with open(p, "w") as f:
                f.write(text)
            names.append(p)
        r = run("git", "merge-file", "-p", *names, check=False)
        if r.returncode:
            print(f"restrip: {where}: {r.returncode} place(s) where the "
                  "edit touches text this state does not have; kept the "
                  "state's text", file=sys.stderr)
            r = run("git", "merge-file", "-p", "--ours", *names)
        return r.stdout


def section_diff(before, after, path):
    """A strip diff section for @path: @before -> @after, 3 lines context."""
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        with open(a, "w") as f:
            f.write(before)
        with open(b, "w") as f:
            f.write(after)
        r = run("git", "diff", "--no-index", "--no-prefix", "-U3", a, b,
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
                  merge(s, base, edited, f"{path} before {touching[i]}")
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
