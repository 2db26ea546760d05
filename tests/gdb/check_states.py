# Checks of scripts/bobbin-gdb.py, run inside gdb by run_gdb_test.sh:
#
#   BOBBIN_GDB_MODE=live  gdb -batch -nx -x check_states.py gdb_states
#   BOBBIN_GDB_MODE=core  gdb -batch -nx -x check_states.py gdb_states CORE
#
# Live: stop in bobbin_gdb_checkpoint, check, save a core to $BOBBIN_GDB_CORE
# (unless $BOBBIN_GDB_NO_CORE gives a reason not to), then continue: the
# program must exit 0. Core: the same checks on the core.
# Prints "BOBBIN-GDB-CHECK: PASS (<mode>)" when every check holds.

import os
import re

import gdb

MODE = os.environ["BOBBIN_GDB_MODE"]
# CMAKE_C_COMPILER_ID of the build: GCC keeps every ABT_* frame in sight.
GCC = os.environ.get("BOBBIN_GDB_COMPILER", "GNU") == "GNU"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        gdb.write("CHECK FAILED: %s\n" % what)


def run(command):
    """Run a gdb command, echo it and its output, return the output."""
    out = gdb.execute(command, to_string=True)
    gdb.write("(gdb) %s\n%s" % (command, out))
    return out


# What tests/gdb/gdb_states.c sets up, by entry function:
# (kind, state, ES rank, a regular expression the DETAIL column matches,
#  functions its backtrace shows, innermost first -- None: no backtrace).
# "A|B": A, or B when the library was not built by GCC. An ABT_* call may
# reach the library's inner function as a tail call (clang does), leaving no
# frame of its own: the inner one stands for it then.
EXPECTED = {
    "spin_worker_es1": ("ULT", "running", "1", r"^on CPU, gdb thread \d+$", ["spin_worker_es1"]),
    "spin_worker_es2": ("ULT", "running", "2", r"^on CPU, gdb thread \d+$", ["spin_worker_es2"]),
    # ABT_thread_yield ends by a tail call (of the context swap, or of its
    # general path), which leaves no frame of its own.
    "yield_worker": ("ULT", "ready", "0", r"^$", ["yield_worker"]),
    "fresh_worker": ("ULT", "ready", "-", r"^not started$", None),
    "mutex_worker": ("ULT", "blocked", "0", r"^mutex 0x[0-9a-f]+, held by primary ULT 0x[0-9a-f]+$",
                     ["bb_wait|bb_wait_then_wake", "lock_slow|ABT_mutex_lock|take_or_wait",
                      "mutex_worker"]),
    "cond_worker": ("ULT", "blocked", "0", r"^cond 0x[0-9a-f]+$",
                    ["bb_wait_then_wake|bb_wait", "ABT_cond_wait|wait", "cond_worker"]),
    "join_worker": ("ULT", "blocked", "0", r"^join of ULT \d+$",
                    ["ABT_thread_join|bb_unit_join", "join_worker"]),
    "suspend_worker": ("ULT", "blocked", "0", r"^suspended \(ABT_self_suspend",
                       ["ABT_self_suspend", "suspend_worker"]),
    "tasklet_worker": ("tasklet", "ready", "-", r"^$", None),
}

ROW = re.compile(r"^([* ]) (\S+)\s+(0x[0-9a-f]+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+) *(.*)$")


def parse_listing(text):
    rows = []
    for line in text.splitlines()[1:]:
        m = ROW.match(line)
        if m:
            on_cpu, uid, addr, kind, state, es, func, detail = m.groups()
            rows.append(dict(on_cpu=on_cpu == "*", id=uid, addr=addr, kind=kind, state=state,
                             es=es, func=func, detail=detail.strip()))
    return rows


def frame_functions(bt):
    """Function names of a backtrace printed by 'bobbin bt', innermost first."""
    names = []
    for line in bt.splitlines():
        m = re.match(r"^#\d+\s+(?:0x[0-9a-f]+ in )?(\S+) \(", line)
        if m:
            names.append(m.group(1))
    return names


def check_in_order(names, wanted, what):
    """`wanted` appear in `names` in this order (others may lie between)."""
    pos = 0
    for i, w in enumerate(wanted):
        accepted = w.split("|")[:1] if GCC else w.split("|")
        found = [j for j in range(pos, len(names)) if names[j] in accepted]
        if not found:
            check(False, "%s: backtrace lacks %s after %s (frames: %s)"
                  % (what, w, wanted[:i], names))
            return
        pos = found[0] + 1


def check_clean_end(bt, what):
    """A ULT's backtrace ends at its first frame: no garbage beyond."""
    check("??" not in bt, "%s: backtrace has unknown frames" % what)
    check("Backtrace stopped" not in bt, "%s: backtrace stopped early" % what)


def check_unit(row, by_func):
    func = row["func"]
    kind, state, es, detail, frames = EXPECTED[func]
    what = "%s (%s)" % (func, row["addr"])
    check(row["kind"] == kind, "%s: kind %s, expected %s" % (what, row["kind"], kind))
    check(row["state"] == state, "%s: state %s, expected %s" % (what, row["state"], state))
    check(row["es"] == es, "%s: ES %s, expected %s" % (what, row["es"], es))
    check(re.search(detail, row["detail"]) is not None,
          "%s: detail %r does not match %r" % (what, row["detail"], detail))
    check(row["on_cpu"] == (state == "running"), "%s: on-CPU mark wrong" % what)
    if func == "join_worker":
        joined = by_func["spin_worker_es1"]["id"]
        check(row["detail"] == "join of ULT %s" % joined,
              "%s: should join ULT %s" % (what, joined))
    # By id when it has one, else by address: both forms of the command.
    bt = run("bobbin bt %s" % (row["id"] if row["id"] != "-" else row["addr"]))
    if frames is None:
        check(not frame_functions(bt), "%s: has frames, expected none" % what)
        expect = "no stack until it runs" if kind == "tasklet" else "no frames yet"
        check(expect in bt, "%s: expected %r" % (what, expect))
    else:
        check_in_order(frame_functions(bt), frames, what)
        check_clean_end(bt, what)


def registers_of_all_threads():
    """pc, sp and frame pointer of every thread, to prove nothing moved."""
    regs = {}
    selected = gdb.selected_thread()
    for t in gdb.selected_inferior().threads():
        t.switch()
        regs[t.num] = tuple(int(gdb.parse_and_eval("$" + r)) for r in ("pc", "sp", "rbp"))
    selected.switch()
    return regs


def checks():
    gdb.execute("source " + os.environ["BOBBIN_GDB_SCRIPT"])
    thread_before = gdb.selected_thread().num
    regs_before = registers_of_all_threads()

    listing = run("bobbin ults")
    rows = parse_listing(listing)
    by_func = {r["func"]: r for r in rows if r["func"] in EXPECTED}
    for func in EXPECTED:
        check(func in by_func, "listing lacks %s" % func)
    if len(by_func) == len(EXPECTED):
        for row in by_func.values():
            check_unit(row, by_func)

    primary = [r for r in rows if r["kind"] == "primary"]
    check(len(primary) == 1 and primary[0]["on_cpu"] and primary[0]["es"] == "0",
          "one primary ULT, on a CPU, on ES 0")
    if primary:
        bt = run("bobbin bt %s" % primary[0]["addr"])
        check_in_order(frame_functions(bt), ["bobbin_gdb_checkpoint", "main"], "primary ULT")
    scheds = [r for r in rows if r["kind"] == "scheduler"]
    check(sorted(r["es"] for r in scheds) == ["0", "1", "2"], "one scheduler ULT per ES")
    for r in scheds:
        check(r["state"] == "running" and not r["on_cpu"], "scheduler %s: running, not on a CPU"
              % r["addr"])
        bt = run("bobbin bt %s" % r["addr"])
        if "restarts afresh" in r["detail"]:
            # SS / SC (bb_technique.h): it called the ULT without saving itself
            check("restarts afresh" in bt, "scheduler %s: bt says why no frames" % r["addr"])
            continue
        check_in_order(frame_functions(bt), ["bb_sched_basic_run"], "scheduler %s" % r["addr"])
        check_clean_end(bt, "scheduler %s" % r["addr"])

    all_bt = run("bobbin bt all")
    for func in EXPECTED:
        check(func in all_bt, "bobbin bt all lacks %s" % func)
    check(len(re.findall(r" -- ", all_bt)) == len(rows), "bobbin bt all: one header per unit")
    check(run("bobbin threads") == listing, "bobbin threads is bobbin ults")

    # Errors are messages, not Python tracebacks.
    for bad in ("bobbin bt 987654", "bobbin bt 0x10", "bobbin bt"):
        try:
            gdb.execute(bad, to_string=True)
            check(False, "%s: no error" % bad)
        except gdb.error as e:
            check(str(e).startswith(("bobbin", "usage")), "%s: odd error %r" % (bad, str(e)))

    check(gdb.selected_thread().num == thread_before, "the selected thread is restored")
    check(registers_of_all_threads() == regs_before, "no register of any thread changed")
    check(gdb.selected_frame().name() == "bobbin_gdb_checkpoint",
          "the selected frame is restored")


def main():
    if MODE == "live":
        gdb.execute("set pagination off")
        gdb.execute("break bobbin_gdb_checkpoint")
        gdb.execute("run")
        checks()
        if not os.environ.get("BOBBIN_GDB_NO_CORE"):
            gdb.execute("gcore %s" % os.environ["BOBBIN_GDB_CORE"])
        # The program finishes only if every ULT can still resume.
        gdb.execute("delete")
        gdb.execute("continue")
        code = gdb.parse_and_eval("$_exitcode")
        check(code.type.code != gdb.TYPE_CODE_VOID and int(code) == 0,
              "the program exits 0 after the session (exit code %s)" % code)
    else:
        checks()
    if failures:
        gdb.write("BOBBIN-GDB-CHECK: FAIL (%s): %d check(s)\n" % (MODE, len(failures)))
    else:
        gdb.write("BOBBIN-GDB-CHECK: PASS (%s)\n" % MODE)


try:
    main()
except Exception as e:  # report, so that the driver sees a failure and why
    gdb.write("BOBBIN-GDB-CHECK: FAIL (%s): %s: %s\n" % (MODE, type(e).__name__, e))
