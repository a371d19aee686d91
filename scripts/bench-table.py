#!/usr/bin/env python3
"""Side-by-side table of the kprobes benchmark (make bench).

Reads the "BENCH <key> <value>" lines of the guest consoles of each flavor
(one console log per boot), takes the median per key over the boots, and
prints a Markdown table: key, unit, ours median, incumbent median, ratio
ours/incumbent.  Hit costs are ns per call; attach costs are printed by the
module in ns and shown here in ms.  Counts (the sleepers case) are shown
side by side without a ratio, with the range over the boots when it
varies.  A value that is not a number ("n/a", "error -22", "yes") is shown
as is (the most common one over the boots).
"""
import argparse
import datetime
import re
import statistics
import sys
from collections import Counter

LINE = re.compile(r'(?:^|\] )BENCH ([a-z0-9_]+) (.+?)\s*$')

# Display order; unknown keys follow in the order first seen.
ORDER = ['none', 'k', 'b', 'b_floor', 'none_o', 'none_oh', 'o_floor', 'o', 'o_optimized', 'ko', 'r', 'r_floor', 'kr', 'none_f', 'f', 'f_floor',
         'sleepers_tasks', 'sleepers_returns', 'sleepers_nmissed']
for v in ('opt', 'post', 'trap'):
    for w in ('fired', 'seen', 'missed'):
        ORDER.append(f'nest_{v}_{w}')
for n in (2000, 10000):
    for w in ('reg_batch', 'unreg_batch', 'reg_single', 'unreg_single'):
        ORDER.append(f'{w}_{n}')

DESC = {
    'none': 'no probe (kpb_hit_fn)',
    'k': 'kprobe pre+post, 2nd insn',
    'b': 'kprobe pre only, same place',
    'b_floor': 'bare INT3 round trip + handler call',
    'none_o': 'no probe (kpb_opt_fn)',
    'none_oh': 'no probe, kpb_opt_fn + handler call',
    'o_floor': 'minimal detour: pt_regs + handler call',
    'o': 'kprobe pre only, optimizable site',
    'o_optimized': '[OPTIMIZED] in debugfs list',
    'ko': 'kprobe pre+post, optimizable site',
    'r': 'kretprobe',
    'kr': 'kprobe on entry + kretprobe',
    'none_f': 'no probe (kpb_ftrace_fn, traced C)',
    'f': 'kprobe pre only, on its ftrace call',
    'f_floor': 'own ftrace_ops calling the handler',
    'r_floor': 'INT3 entry + minimal return trampoline + handler call',
    'sleepers_tasks': 'kretprobe sleepers: tasks inside at once',
    'sleepers_returns': 'kretprobe sleepers: returns seen',
    'sleepers_nmissed': 'kretprobe sleepers: nmissed',
}

# Counts, not times: no ratio, whole numbers.
COUNTS = {'sleepers_tasks', 'sleepers_returns', 'sleepers_nmissed'}
NEST = {'opt': 'T pre on an optimizable site, I pre',
        'post': 'T and I pre+post, T on that site',
        'trap': 'T pre on a trap site, I pre'}
for v, what in NEST.items():
    DESC[f'nest_{v}_fired'] = f'nest ({what}): timer calls of I'
    DESC[f'nest_{v}_seen'] = f'nest ({what}): I handler runs'
    DESC[f'nest_{v}_missed'] = f'nest ({what}): I nmissed'
    COUNTS |= {f'nest_{v}_{w}' for w in ('fired', 'seen', 'missed')}


def parse(paths):
    """{key: [value per boot]}, keys in first-seen order, boots that ended."""
    vals, seen, done = {}, [], 0
    for p in paths:
        with open(p, 'rb') as f:
            text = f.read().decode('utf-8', 'replace')
        if '=== BENCH DONE ===' in text:
            done += 1
        for line in text.splitlines():
            m = LINE.search(line)
            if not m:
                continue
            k, v = m.group(1), m.group(2)
            if k not in vals:
                vals[k] = []
                seen.append(k)
            vals[k].append(v)
    return vals, seen, done


def is_count(key):
    """Counts, not times: no ratio, whole numbers."""
    return key in COUNTS or key.startswith('ipis_')


def is_attach(key):
    """Keys in ns of wall time, shown in ms."""
    return key.startswith(('reg_', 'unreg_', 'opt_wait_'))


def is_attach_cost(key):
    """What a tool waits for to attach or detach (the floors are not)."""
    return key.startswith(('reg_', 'unreg_')) and '_floor_' not in key


def describe(key):
    """The 'what' column: DESC, or the attach keys' pattern."""
    if key in DESC:
        return DESC[key]
    m = re.match(r'ipis_unreg_single_(after_)?(\d+)$', key)
    if m:
        when = ' and the 1 s after' if m.group(1) else ''
        return (f'call-function IPIs other CPUs took during {m.group(2)} '
                f'one-by-one unregistrations{when}')
    m = re.match(r'(opt_wait_|un)?(?:reg_)?modfn_(single_|opt_)?(\d+)$', key)
    if m:
        n = m.group(3)
        if m.group(1) == 'opt_wait_':
            return f'{n} module function entries: until all are optimized'
        what = 'unregister' if m.group(1) else 'register'
        how = {'single_': 'one by one', 'opt_': 'batch, once optimized'}.get(
            m.group(2), 'batch')
        return f'{what} {n} module function entries by name, {how}'
    m = re.match(r'(un)?reg_(batch|single|funcs|funcs_floor)_(\d+)$', key)
    if not m:
        return ''
    what = 'unregister' if m.group(1) else 'register'
    n = int(m.group(3))
    if m.group(2) == 'funcs':
        return f'{what} {n} function entries by name, batch'
    if m.group(2) == 'funcs_floor':
        return f'floor: {what} one ftrace_ops at the same {n}'
    how = 'batch' if m.group(2) == 'batch' else 'one by one'
    return f'{what} {n} kprobes, {how}'


def num(v):
    try:
        return float(v)
    except ValueError:
        return None


def summary(key, values):
    """(display string, number or None)."""
    if not values:
        return '-', None
    nums = [num(v) for v in values]
    good = [x for x in nums if x is not None]
    if len(good) == len(values):
        med = statistics.median(good)
        if is_count(key):
            s = fmt_count(med)
            if min(good) != max(good):
                s += f' ({fmt_count(min(good))}..{fmt_count(max(good))})'
            return s, med
        if is_attach(key):
            med /= 1e6
        return fmt(med), med
    if good:
        # Mixed: the median of the numbers, flagged.
        med = statistics.median(good)
        if is_attach(key):
            med /= 1e6
        shown = fmt_count(med) if is_count(key) else fmt(med)
        return f'{shown} ({len(values) - len(good)}/{len(values)} failed)', med
    return Counter(values).most_common(1)[0][0], None


def fmt_count(x):
    return f'{x:.0f}' if x == int(x) else f'{x:.1f}'


def fmt(x):
    if x >= 100:
        return f'{x:.0f}'
    if x >= 10:
        return f'{x:.1f}'
    return f'{x:.2f}'


def opt_target(ours, inc):
    """Lines on the target "o within 2x of none_oh", when measured."""
    lines = []
    for name, vals in (('ours', ours), ('incumbent', inc)):
        oh = summary('none_oh', vals.get('none_oh', []))[1]
        if not oh:
            continue
        parts = []
        for k in ('o', 'o_floor'):
            x = summary(k, vals.get(k, []))[1]
            if x is not None:
                parts.append(f'{k}/none_oh {x / oh:.2f}')
        if parts:
            lines.append(f'- {name}: ' + ', '.join(parts))
    if lines:
        lines = ['', 'Optimized hit against "call + handler call" (target: o/none_oh '
                 '<= 2; o_floor is a minimal detour, no kprobes):'] + lines
    return lines + floors(ours, inc)


# Each hit mode and the yardstick that runs no kprobes code below it.
FLOORS = (('b', 'b_floor'), ('k', 'b_floor'), ('o', 'o_floor'),
          ('ko', 'o_floor'), ('r', 'r_floor'), ('f', 'f_floor'))


def ratio_lines(ours, inc, pairs, title):
    """Lines "x/label ratio" per kernel for the (x, y, label) pairs measured."""
    lines = []
    for name, vals in (('ours', ours), ('incumbent', inc)):
        parts = []
        for x_key, y_key, label in pairs:
            x = summary(x_key, vals.get(x_key, []))[1]
            y = summary(y_key, vals.get(y_key, []))[1]
            if x is not None and y:
                parts.append(f'{x_key}/{label} {x / y:.2f}')
        if parts:
            lines.append(f'- {name}: ' + ', '.join(parts))
    return ['', title] + lines if lines else []


def floors(ours, inc):
    """Each hit mode against its floor, for the floors that were measured."""
    return ratio_lines(ours, inc, [(m, f, f) for m, f in FLOORS],
                       'Each hit mode against its floor, a yardstick that runs no '
                       'kprobes code (target: within 1.15):')


def funcs_floors(ours, inc, keys):
    """reg_funcs_N and unreg_funcs_N against ftrace alone at the same N."""
    pairs = []
    for k in keys:
        m = re.match(r'(un)?reg_funcs_(\d+)$', k)
        if m:
            pairs.append((k, f'{m.group(1) or ""}reg_funcs_floor_{m.group(2)}', 'floor'))
    return ratio_lines(ours, inc, pairs,
                       'Function entries against ftrace alone attaching one '
                       'ftrace_ops to the same functions (reg_funcs_floor_N):')


def attach_speedups(ours, inc, keys):
    """How many times faster than stock each attach and detach is."""
    parts = []
    for k in keys:
        if not is_attach_cost(k):
            continue
        _, no = summary(k, ours.get(k, []))
        _, ni = summary(k, inc.get(k, []))
        if no and ni:
            parts.append(f'{k} {ni / no:.1f}x')
    if not parts:
        return []
    return ['', 'Attach and detach, stock time / ours (target: >= 20x):',
            '- ' + ', '.join(parts)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ours', nargs='*', default=[])
    ap.add_argument('--incumbent', nargs='*', default=[])
    ap.add_argument('--version', default='Linux ?')
    ap.add_argument('--runs', default='?')
    ap.add_argument('--config', default='?')
    ap.add_argument('--out')
    a = ap.parse_args()

    ours, seen_o, done_o = parse(a.ours)
    inc, seen_i, done_i = parse(a.incumbent)
    keys = [k for k in ORDER if k in ours or k in inc]
    keys += [k for k in seen_o + seen_i if k not in keys]
    keys = list(dict.fromkeys(keys))

    out = []
    date = datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')
    cfg = {'release': 'release config (no KASAN/lockdep)',
           'debug': 'debug config (KASAN, lockdep, PROVE_RCU)'}.get(a.config, a.config)
    out.append(f'kprobes benchmark, {date}, base {a.version}, {cfg}, runs: {a.runs} '
               f'(boots completed: ours {done_o}/{len(a.ours)}, incumbent '
               f'{done_i}/{len(a.incumbent)}); medians over the runs. '
               'QEMU/TCG times are relative, not hardware figures.')
    out.append('')
    out.append('| key | what | unit | ours | incumbent | ours/incumbent |')
    out.append('|---|---|---|---:|---:|---:|')
    for k in keys:
        so, no = summary(k, ours.get(k, []))
        si, ni = summary(k, inc.get(k, []))
        ratio = f'{no / ni:.2f}' if no is not None and ni not in (None, 0) else 'n/a'
        what = describe(k)
        if is_attach(k):
            unit = 'ms'
        elif k == 'o_optimized':
            unit, ratio = '', 'n/a'
        elif is_count(k):
            unit, ratio = 'count', 'n/a'
        else:
            unit = 'ns/call'
        out.append(f'| {k} | {what} | {unit} | {so} | {si} | {ratio} |')
    out += opt_target(ours, inc)
    out += attach_speedups(ours, inc, keys)
    out += funcs_floors(ours, inc, keys)
    text = '\n'.join(out) + '\n'
    sys.stdout.write(text)
    if a.out:
        with open(a.out, 'w') as f:
            f.write(text)
    return 0 if keys else 1


if __name__ == '__main__':
    sys.exit(main())
