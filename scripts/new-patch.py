#!/usr/bin/env python3
"""Start a new patch at the end of the series from the work tree's edits.

usage: scripts/new-patch.py NN-slug FILE...

The edits of FILE... (work tree against git HEAD) become patch NN: its
strip diff series/strip/NN-slug.diff holds them, every earlier entry of
each FILE in series/*.files gets that diff appended (so the earlier
patches keep carrying the file as it was), and series/NN-slug.files
lists the files.  Write series/NN-slug.msg yourself.  Files new in the
work tree (untracked) only go into the new .files list.
"""
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name, files = sys.argv[1], sys.argv[2:]
    strip = "series/strip/%s.diff" % name
    tracked = [f for f in files if subprocess.run(
        ["git", "ls-files", "--error-unmatch", f], cwd=ROOT,
        capture_output=True).returncode == 0]
    diff = subprocess.run(["git", "diff", "HEAD", "--"] + tracked, cwd=ROOT,
                          capture_output=True, text=True, check=True).stdout
    diff = "".join(l for l in diff.splitlines(True)
                   if not l.startswith("index "))
    with open(os.path.join(ROOT, strip), "w") as out:
        out.write(diff)
    for path in sorted(glob.glob(os.path.join(ROOT, "series", "*.files"))):
        if os.path.basename(path).startswith(name):
            continue
        lines = open(path).read().splitlines()
        changed = False
        for i, line in enumerate(lines):
            entry = line.split(" <- ")[0].strip()
            if entry in tracked and strip not in line.split():
                lines[i] = line + (" " if " <- " in line else " <- ") + strip
                changed = True
        if changed:
            with open(path, "w") as out:
                out.write("\n".join(lines) + "\n")
    with open(os.path.join(ROOT, "series", name + ".files"), "w") as out:
        out.write("\n".join(files) + "\n")


if __name__ == "__main__":
    main()
