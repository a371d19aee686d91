#!/usr/bin/env python3
"""Check the numbers and names Documentation/trace/kprobes.rst quotes.

usage: scripts/doc-check.py [-v] [--kernel-src DIR] [DOC]

Reads what the document states that can be compared with the source
mechanically, and compares it:

  sizes      "N-byte slots (``MACRO``)" and "``MACRO`` (N)" against the
             #define in our tree; every "N-byte slot" must match
             KPROBE_SLOT_SIZE (or the macro it names), and the slot size
             must be stated
  maxactive  the default "max(A, B * possible CPUs)" against
             KRETPROBE_DEFAULT_INSTANCES in kernel/kprobes/kretprobe.c
  sysctl     "sysctl dir.name=" against register_sysctl_init() and
             .procname in kernel/kprobes/
  debugfs    the files of the debugfs section against debugfs.c; the type
             letters and tags against show_site()/kprobe_type_char() in
             kernel/kprobes/core.c, and the example lines of the list file
             against the seq_printf() formats there
  suites     the KUnit suite names against kernel/kprobes/tests/
  insns      every instruction decode.c refuses is listed under the errno
             decode.c gives it (-EILSEQ or -EOPNOTSUPP)
  errno      every -Exxx the document quotes occurs in the kprobes sources
  config     every CONFIG_ option (and ``HAVE_...``) exists in a Kconfig
             of the pristine tree or is added by patches/*.patch, and is
             not removed by them
  locked     what the document says of the ``_locked`` and
             ``_text_locked`` suffixes: every such function defined in
             kernel/kprobes/ asserts its file's registration mutex, or
             text_mutex for ``_text_locked``, with lockdep_assert_held()
  symbols    every ``name`` or ``name()`` that looks like kprobes API
             exists in our kernel/, include/ or arch/ (else: other
             subsystems' names in the pristine tree, kprobes-looking ones
             only in its kernel/trace/, never in its old kprobes)

Each failed check is printed; the last line is "N passed, M failed", and
the exit status is 1 if anything failed.  Python 3 standard library only.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "Documentation", "trace", "kprobes.rst")
OUR_DIRS = ("kernel", "include", "arch")
SRC_EXT = (".c", ".h", ".S")

# ``name`` tokens checked as symbols: the API of <linux/kprobes.h> and the
# arch contract of <linux/kprobes_arch.h>.
API_NAME = re.compile(
    r"^(?:register_|unregister_|enable_|disable_|kprobe_|kretprobe_|"
    r"jprobe_|arch_|within_kprobe|is_kprobe_|is_kretprobe_|"
    r"wait_for_kprobe|dump_kprobe|get_kretprobe|KPROBE_|KRETPROBE_)"
    r"[A-Za-z0-9_]*$")
NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
             "six": 6, "seven": 7, "eight": 8}


class Checker:
    def __init__(self, verbose):
        self.verbose = verbose
        self.passed = 0
        self.failed = 0

    def check(self, ok, what, why=""):
        if ok:
            self.passed += 1
            if self.verbose:
                print(f"ok    {what}")
        else:
            self.failed += 1
            print(f"FAIL  {what}" + (f": {why}" if why else ""))
        return ok


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def src_files(top, dirs, exts=SRC_EXT):
    for d in dirs:
        for dirpath, dirnames, filenames in os.walk(os.path.join(top, d)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(exts):
                    yield os.path.join(dirpath, name)


def our_sources():
    if not hasattr(our_sources, "cache"):
        our_sources.cache = {p: read(p) for p in src_files(ROOT, OUR_DIRS)}
    return our_sources.cache


def our_file(rel):
    return read(os.path.join(ROOT, rel))


def define_value(name):
    """The integer a #define in our tree gives @name, or None."""
    pat = re.compile(r"^#\s*define\s+" + re.escape(name) +
                     r"\s+\(?\s*(0x[0-9a-fA-F]+|\d+)\s*\)?\s*(?:/[*/].*)?$",
                     re.M)
    for text in our_sources().values():
        m = pat.search(text)
        if m:
            return int(m.group(1), 0)
    return None


def c_function(text, name):
    """The body of the C function @name in @text (up to a closing brace in
    column 0), or ''."""
    m = re.search(r"^[^\n;]*\b" + re.escape(name) + r"\([^;{]*\)\s*\{",
                  text, re.M)
    if not m:
        return ""
    end = text.find("\n}", m.end())
    return text[m.start():end if end >= 0 else len(text)]


# --- the document -----------------------------------------------------------

def headings(doc):
    """[(line index, title)] of every section heading."""
    lines = doc.split("\n")
    out = []
    for i in range(len(lines) - 1):
        t, u = lines[i], lines[i + 1]
        if (t.strip() and u and len(set(u)) == 1 and u[0] in "=-~^"
                and len(u) >= len(t.rstrip()) and not t.startswith(" ")):
            out.append((i, t.strip()))
    return out


def section(doc, title):
    """Text of the section @title, up to the next heading of any level."""
    lines = doc.split("\n")
    hs = headings(doc)
    for k, (i, t) in enumerate(hs):
        if t == title:
            end = hs[k + 1][0] if k + 1 < len(hs) else len(lines)
            return "\n".join(lines[i + 2:end])
    return ""


def deflist_entry(text, term):
    """The body of the definition-list item whose term line is @term."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if line.rstrip() == term:
            body = []
            for l in lines[i + 1:]:
                if l and not l[0].isspace():
                    break
                body.append(l)
            return "\n".join(body)
    return ""


def literal_after(text, marker):
    """The lines of the literal block that follows the first '::' after
    @marker, without their indentation."""
    start = text.find(marker)
    if start < 0:
        return []
    colons = text.find("::\n", start)
    if colons < 0:
        return []
    out = []
    lines = text[colons + 3:].split("\n")
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    indent = None
    for l in lines[i:]:
        if not l.strip():
            if out:
                break
            continue
        ind = len(l) - len(l.lstrip())
        if indent is None:
            indent = ind
        if ind < indent:
            break
        out.append(l[indent:].rstrip("\n"))
    return out


def unquote(text):
    return re.sub(r"\s+", " ", text.replace("``", ""))


# --- checks ------------------------------------------------------------------

def check_sizes(c, doc):
    slot = define_value("KPROBE_SLOT_SIZE")
    c.check(slot is not None, "KPROBE_SLOT_SIZE is defined in our tree")
    stated = False
    # "N-byte slot(s)" with or without "(``MACRO``)" right after.
    for m in re.finditer(r"(\d+)-byte\s+(\w+)\s*(?:\(``([A-Z][A-Z0-9_]*)``\))?",
                         doc):
        num, noun, macro = int(m.group(1)), m.group(2), m.group(3)
        if not macro:
            if not noun.startswith("slot"):
                continue
            macro = "KPROBE_SLOT_SIZE"
        val = define_value(macro)
        if macro == "KPROBE_SLOT_SIZE":
            stated = True
        c.check(val == num, f'doc "{m.group(0).strip()}" matches {macro}',
                f"{macro} is {val}")
    c.check(stated, "doc states the slot size",
            'no "N-byte slots (``KPROBE_SLOT_SIZE``)" in the document')
    # "``MACRO`` (N)"
    for m in re.finditer(r"``([A-Z][A-Z0-9_]+)``\s+\((\d+)\)", doc):
        macro, num = m.group(1), int(m.group(2))
        val = define_value(macro)
        c.check(val == num, f"doc {macro} ({num}) matches the source",
                f"{macro} is {val}")


def check_maxactive(c, doc):
    m = re.search(r"max\((\d+),\s*(\d+)\s*\*\s*possible CPUs\)", doc)
    if not m:
        return
    code = our_file("kernel/kprobes/kretprobe.c")
    k = re.search(r"#define\s+KRETPROBE_DEFAULT_INSTANCES\(\w+\)\s+"
                  r"max\((\d+),\s*(\d+)\s*\*", code)
    c.check(bool(k) and k.groups() == m.groups(),
            f"doc maxactive default {m.group(0)} matches kretprobe.c",
            f"code says max({k.group(1)}, {k.group(2)} * ncpus)" if k else
            "KRETPROBE_DEFAULT_INSTANCES not found")


def check_sysctl(c, doc):
    known = set()
    for path, text in our_sources().items():
        if "/kernel/kprobes/" not in path:
            continue
        dirs = re.findall(r'register_sysctl_init\(\s*"([^"]+)"', text)
        for d in dirs:
            for p in re.findall(r'\.procname\s*=\s*"([^"]+)"', text):
                known.add(f"{d.replace('/', '.')}.{p}")
    for m in sorted(set(re.findall(r"sysctl\s+([\w.-]+)=", doc))):
        c.check(m in known, f"doc sysctl {m} exists",
                "kernel/kprobes/ registers " + (", ".join(sorted(known))
                                                 or "none"))


def show_site_parts():
    core = our_file("kernel/kprobes/core.c")
    letters = re.findall(r"'([a-z])'", c_function(core, "kprobe_type_char"))
    # Other kinds (watchpoints) pass their own letter to kprobes_show_addr().
    for text in our_sources().values():
        letters += re.findall(r"kprobes_show_addr\([^;]*'([a-z])'", text)
    tags = re.findall(r'"\[([A-Z]+)\]"', c_function(core, "show_site"))
    heads = [f for f in re.findall(r'seq_printf\(\s*m,\s*"([^"]*)"',
                                   c_function(core, "kprobes_show_addr"))
             if "%px" in f]
    return letters, tags, heads


def head_regex(fmt, letters):
    """A regex for what seq_printf() format @fmt prints."""
    conv = {"%px": "[0-9a-f]{16}", "%c": "[" + "".join(letters) + "]",
            "%lx": "[0-9a-f]+", "%x": "[0-9a-f]+", "%pS": r"\S+",
            "%s": r"(?:\S+| )"}
    out, i = "", 0
    while i < len(fmt):
        for k in sorted(conv, key=len, reverse=True):
            if fmt.startswith(k, i):
                out += conv[k]
                i += len(k)
                break
        else:
            out += re.escape(fmt[i])
            i += 1
    return out


def check_debugfs(c, doc):
    sec = section(doc, "The debugfs interface")
    c.check(bool(sec), "doc has a section 'The debugfs interface'")
    if not sec:
        return
    code = our_file("kernel/kprobes/debugfs.c")
    files = re.findall(r'debugfs_create_file\(\s*"([^"]+)"', code)
    d = re.search(r'debugfs_create_dir\(\s*"([^"]+)"', code)
    m = re.search(r"``/sys/kernel/debug/([\w-]+)/``\s+holds\s+(\w+)\s+files",
                  sec)
    if c.check(bool(m), "doc names the debugfs directory and its file count"):
        c.check(bool(d) and d.group(1) == m.group(1),
                f"debugfs directory {m.group(1)} matches debugfs.c",
                f"debugfs.c creates {d.group(1) if d else 'nothing'}")
        n = NUM_WORDS.get(m.group(2), m.group(2))
        c.check(str(n) == str(len(files)),
                f"doc debugfs file count ({m.group(2)}) matches debugfs.c",
                f"debugfs.c creates {len(files)}")
    terms = re.findall(r"^``([\w.-]+)``$", sec, re.M)
    c.check(sorted(terms) == sorted(files),
            "doc debugfs files match debugfs.c",
            f"doc {sorted(terms)}, code {sorted(files)}")

    letters, tags, heads = show_site_parts()
    c.check(bool(letters) and bool(tags) and bool(heads),
            "core.c has kprobe_type_char(), kprobes_show_addr() and show_site()")
    entry = deflist_entry(sec, "``list``")
    doc_letters = re.findall(r"``([a-z])``", entry.split("::")[0])
    c.check(sorted(set(doc_letters)) == sorted(set(letters)),
            "doc list type letters match kprobe_type_char()",
            f"doc {sorted(set(doc_letters))}, code {sorted(set(letters))}")
    for t in re.findall(r"\btype\s+``([a-z])``", doc):
        c.check(t in letters, f"doc type letter {t} exists",
                f"code has {letters}")
    doc_tags = re.findall(r"``\[([A-Z]+)\]``", entry.split("::")[0])
    c.check(doc_tags == tags, "doc list tags and their order match show_site()",
            f"doc {doc_tags}, code {tags}")
    for t in sorted(set(re.findall(r"``\[([A-Z]+)\]``", doc))):
        c.check(t in tags, f"doc tag [{t}] exists", f"code has {tags}")

    tail = "".join(r"(?:\[%s\])?" % t for t in tags)
    line_re = re.compile("^(?:%s)%s$" % (
        "|".join(head_regex(h, letters) for h in heads), tail))
    examples = literal_after(entry, "")
    c.check(bool(examples), "doc shows example lines of the list file")
    for ex in examples:
        # A line without tags ends in spaces, which an editor may trim.
        pads = range(5) if not ex.rstrip().endswith("]") else (0,)
        ok = any(line_re.match(ex.rstrip() + " " * k) for k in pads) and \
            not ("[GONE]" in ex and "[DISABLED]" in ex)
        c.check(ok, f'doc list example "{ex}" has the layout of show_site()',
                "does not match " + " or ".join(repr(h) for h in heads) +
                " followed by the tags in order")


def check_suites(c, doc):
    names = set()
    for path, text in our_sources().items():
        if "/kernel/kprobes/tests/" in path and "kunit_suite" in text:
            names.update(re.findall(r'\.name\s*=\s*"([^"]+)"', text))
    entry = deflist_entry(doc, "``CONFIG_KPROBES_SANITY_TEST``")
    doc_names = set(re.findall(r"``(kprobes_[a-z0-9_]+)``", entry))
    if not entry:
        return
    for n in sorted(doc_names):
        c.check(n in names, f"doc KUnit suite {n} exists",
                "not a suite name in kernel/kprobes/tests/")
    for n in sorted(names - doc_names):
        c.check(False, f"KUnit suite {n} is documented",
                "missing from the CONFIG_KPROBES_SANITY_TEST entry")


def check_insns(c, doc):
    code = our_file("arch/x86/kernel/kprobes/decode.c")
    errno = {"PLAN_REFUSE": "-EOPNOTSUPP", "PLAN_REFUSE_TRAP": "-EILSEQ"}
    refused = []
    for m in re.finditer(r"\{[^}]*\b(PLAN_REFUSE(?:_TRAP)?)\b[^}]*\},?\s*"
                         r"/\*\s*([^*:]+?)\s*(?::[^*]*)?\*/", code):
        for name in m.group(2).split(","):
            refused.append((name.strip(), errno[m.group(1)]))
    arr = re.search(r"refused_modrm\[\]\[3\]\s*=\s*\{(.*?)\n\};", code, re.S)
    if arr:
        for m in re.finditer(r"\}\s*,?\s*/\*\s*([^*:]+?)\s*(?::[^*]*)?\*/",
                             arr.group(1)):
            refused.append((m.group(1).strip(), "-EOPNOTSUPP"))
    c.check(bool(refused), "decode.c lists refused instructions")
    sec = section(doc, "register_kprobe")
    for name, err in refused:
        entry = unquote(deflist_entry(sec, f"``{err}``"))
        c.check(re.search(r"(?<![\w])" + re.escape(name) + r"(?![\w])",
                          entry) is not None,
                f"refused {name} is documented under {err}",
                f"not in the doc's {err} entry of register_kprobe")


def check_errno(c, doc):
    text = "".join(t for p, t in our_sources().items()
                   if "kprobes" in p)
    for e in sorted(set(re.findall(r"``(-E[A-Z0-9]+)``", doc))):
        c.check(re.search(r"(?<![\w])" + re.escape(e) + r"\b", text)
                is not None, f"doc errno {e} occurs in the kprobes sources")


# A function definition whose name ends in _locked, and its body.
LOCKED_DEF = re.compile(r"^[a-z][\w \*]*?\b(\w+_locked)\([^;{}]*?\)\n\{\n(.*?)\n\}",
                        re.M | re.S)
# The mutex that serializes registration in each file (kprobe_mutex in the
# core files).
FILE_MUTEX = {"kwatch.c": "kwatch_mutex", "user.c": "kprobe_user_mutex",
              "modsyms.c": "kprobe_modsyms_mutex"}


def check_locked(c, doc):
    said = re.search(r"ending in\s+``_locked``.*?each asserts it", doc, re.S)
    if not c.check(said is not None,
                   "doc states what a _locked suffix means"):
        return
    n = 0
    for path, text in sorted(our_sources().items()):
        rel = os.path.relpath(path, ROOT)
        if not rel.startswith("kernel/kprobes/") or not rel.endswith(".c"):
            continue
        base = os.path.basename(rel)
        for m in LOCKED_DEF.finditer(text):
            name, body = m.group(1), m.group(2)
            want = ("text_mutex" if name.endswith("_text_locked") else
                    FILE_MUTEX.get(base, "kprobe_mutex"))
            held = re.findall(r"lockdep_assert_held\(&?(\w+)\)", body)
            c.check(want in held, f"{rel}: {name}() asserts {want}",
                    f"asserts {held or 'nothing'}")
            n += 1
    c.check(n > 0, "kernel/kprobes/ has _locked functions to check")


def kconfig_symbols(ksrc):
    defined = set()
    for dirpath, dirnames, filenames in os.walk(ksrc):
        dirnames[:] = [d for d in dirnames if not d.startswith(".")]
        for name in filenames:
            if name.startswith("Kconfig"):
                defined.update(re.findall(r"^\s*(?:menu)?config\s+(\w+)",
                                          read(os.path.join(dirpath, name)),
                                          re.M))
    added, removed = set(), set()
    pdir = os.path.join(ROOT, "patches")
    for name in sorted(os.listdir(pdir)) if os.path.isdir(pdir) else []:
        if name.endswith(".patch"):
            text = read(os.path.join(pdir, name))
            added.update(re.findall(r"^\+\s*(?:menu)?config\s+(\w+)", text,
                                    re.M))
            removed.update(re.findall(r"^-\s*(?:menu)?config\s+(\w+)", text,
                                      re.M))
    return (defined - (removed - added)) | added, removed - added


def check_config(c, doc, ksrc):
    names = set(re.findall(r"\bCONFIG_([A-Z0-9_]+)", doc))
    names |= set(re.findall(r"``(HAVE_[A-Z0-9_]*[A-Z0-9])``", doc))
    if not names:
        return
    if not c.check(os.path.isdir(ksrc), f"pristine tree {ksrc} exists"):
        return
    defined, removed = kconfig_symbols(ksrc)
    for n in sorted(names):
        why = ("removed by patches/" if n in removed else
               "no Kconfig defines it")
        c.check(n in defined, f"doc option {n} exists", why)


def words_in(texts, names):
    """The subset of @names that occur as whole words in @texts."""
    found = set()
    if not names:
        return found
    pat = re.compile(r"\b(" + "|".join(map(re.escape, sorted(names))) +
                     r")\b")
    for t in texts:
        found.update(pat.findall(t))
        if found >= names:
            break
    return found


def check_symbols(c, doc, ksrc):
    names = set()
    for tok in re.findall(r"``([^`]+)``", doc):
        m = re.match(r"^(?:struct\s+)?([A-Za-z_]\w*)(?:\([^()]*\))?$", tok)
        if m and API_NAME.match(m.group(1)):
            names.add(m.group(1))
    found = words_in(our_sources().values(), names)
    missing = names - found
    # Names of other subsystems may live in the pristine tree, but the old
    # kprobes there must not vouch for ours: a kprobes-looking name is only
    # looked for in the tracing code, which uses kprobes and is not ours.
    foreign = {n for n in missing if "probe" not in n.lower()}
    tracing = missing - foreign
    if os.path.isdir(ksrc):
        if foreign:
            found |= words_in((read(p) for p in src_files(
                ksrc, ("include", "kernel", "arch/x86", "lib", "mm"))),
                foreign)
        if tracing:
            found |= words_in((read(p) for p in src_files(
                ksrc, ("kernel/trace",))), tracing)
    for n in sorted(names):
        c.check(n in found, f"doc symbol {n} exists",
                "not in our kernel/, include/, arch/" +
                (" nor in the pristine tree" if n in foreign else
                 " nor in the pristine kernel/trace/"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("doc", nargs="?", default=DOC)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the checks that pass too")
    ap.add_argument("--kernel-src",
                    default=os.environ.get("PRISTINE",
                                           os.path.join(ROOT, "build",
                                                        "linux-src")),
                    help="pristine kernel tree (default: build/linux-src)")
    args = ap.parse_args()

    doc = read(args.doc)
    c = Checker(args.verbose)
    check_sizes(c, doc)
    check_maxactive(c, doc)
    check_sysctl(c, doc)
    check_debugfs(c, doc)
    check_suites(c, doc)
    check_insns(c, doc)
    check_errno(c, doc)
    check_locked(c, doc)
    check_config(c, doc, args.kernel_src)
    check_symbols(c, doc, args.kernel_src)
    print(f"{c.passed} passed, {c.failed} failed")
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
