# gdb script for scripts/hit-trace.sh: wait for the traced function to be
# entered twice (the second time with everything warm), then single-step
# TRACE_STEPS instructions and write their addresses to TRACE_OUT, and
# each page of code they ran on, as it is in memory (patched: alternatives,
# return thunks, detours and trampolines), to TRACE_OUT.PAGE.bin.
import os

import gdb

steps = int(os.environ.get("TRACE_STEPS", "2000"))
fn = int(os.environ["TRACE_FN"], 16)

gdb.execute("set pagination off")
gdb.execute("hbreak *0x%x" % fn)
gdb.execute("continue")
gdb.execute("continue")
gdb.execute("delete")
pcs = []
for _ in range(steps):
    pcs.append(int(gdb.parse_and_eval("$pc")) & 0xffffffffffffffff)
    gdb.execute("stepi", to_string=True)
with open(os.environ["TRACE_OUT"], "w") as out:
    out.write("".join("%x\n" % pc for pc in pcs))
for page in sorted({pc & ~0xfff for pc in pcs}):
    # With the first bytes of the next page, if mapped: an instruction
    # may straddle the boundary.
    for size in (0x1010, 0x1000):
        try:
            gdb.execute("dump binary memory %s.%x.bin 0x%x 0x%x"
                        % (os.environ["TRACE_OUT"], page, page, page + size))
            break
        except gdb.error:
            pass
gdb.execute("kill")
