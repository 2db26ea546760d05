# bobbin-gdb.py: gdb commands that show bobbin's work units (ULTs and
# tasklets) and the backtrace of any ULT, running or not.
#
# Load it into gdb (installed as <prefix>/share/bobbin/bobbin-gdb.py):
#
#     (gdb) source /usr/local/share/bobbin/bobbin-gdb.py
#     $ gdb -x /usr/local/share/bobbin/bobbin-gdb.py ./program [core]
#
# Commands (on a live process or on a core file):
#
#   bobbin ults             One line per live unit (alias: bobbin threads):
#                           '*' if it is on a CPU now, its id (or '-' if it has
#                           none yet: use the address), descriptor address,
#                           kind (ULT, tasklet, scheduler, primary), state
#                           (ready, running, blocked, terminated), ES rank,
#                           entry function, and what a blocked ULT waits on.
#   bobbin bt ULT           Backtrace of one ULT. ULT is its id (decimal
#                           digits), its descriptor address, or any expression
#                           worth an address (e.g. an ABT_thread variable).
#                           A ULT on a CPU: the backtrace of its ES's OS thread.
#                           Any other ULT: unwound from its saved context.
#   bobbin bt all           The same for every unit.
#
# A saved context is unwound by a Python unwinder that, for the length of one
# command only, makes the selected thread's innermost real frame "return"
# into the saved registers. Nothing of the inferior is written, so it works
# on core files (where gdb refuses register writes) and can never leave a
# live process with corrupted registers.
#
# What it reads (all through the library's debug information, which every
# build has): the descriptor chunks headed by `bb_desc_chunks`
# (src/include/bb_mem.h), `struct bb_unit` (src/include/bb_unit.h), `struct
# bb_xstream` and the saved context format of the context switch in use:
# src/arch/x86_64/ctx_sysv.S or src/arch/ucontext/ctx_ucontext.c. Both are
# supported on x86-64; other architectures get the listing but no
# backtraces of saved contexts.

import sys

import gdb
import gdb.unwinder

# ---- what the library's structures mean ------------------------------------

STATE_FREE = 0xF4EE  # BB_UNIT_STATE_FREE: a descriptor that holds no unit
STATE_READY, STATE_RUNNING, STATE_BLOCKED, STATE_TERMINATED = 0, 1, 2, 3  # ABT_thread_state
STATE_NAMES = {STATE_READY: "ready", STATE_RUNNING: "running", STATE_BLOCKED: "blocked",
               STATE_TERMINATED: "terminated"}

FLAG_ULT = 1 << 0      # enum bb_unit_flags
FLAG_PRIMARY = 1 << 2
FLAG_SCHED = 1 << 3

# enum ABT_sync_event_type: bb_wait_node.sync_type of a blocked ULT.
SYNC_NAMES = {
    3: "xstream join", 4: "thread join", 5: "mutex", 6: "cond", 7: "rwlock",
    8: "eventual", 9: "future", 10: "barrier",
}
MUTEX_FLAG_BITS = 7  # BB_MUTEX_WAITERS | NESTED | RECURSIVE, low bits of bb_mutex.owner
MUTEX_HELD = 8  # the holder of a locked plain mutex, which records no owner

# A saved context holds the callee-saved registers, the stack pointer and
# where it resumes (rip): every other register is unknown in its frames.
# src/arch/x86_64/ctx_sysv.S: offsets from the saved sp (see its header).
ASM_FRAME = {"r15": 8, "r14": 16, "r13": 24, "r12": 32, "rbx": 40, "rbp": 48, "rip": 56}
ASM_FRAME_SIZE = 64  # the context resumes with sp = saved sp + 64

# ucontext: the saved pointer is a ucontext_t filled by swapcontext. Its
# general registers (glibc's x86-64 layout, fixed by the ABI) start at byte
# 40, indexed by the REG_* constants of <sys/ucontext.h>.
UC_GREGS_OFFSET = 40
UC_GREG_INDEX = {"r12": 4, "r13": 5, "r14": 6, "r15": 7, "rbp": 10, "rbx": 11,
                 "rsp": 15, "rip": 16}

# Where a ULT's stack begins (function, file it is defined in): nothing
# older is a real frame, only whatever lies above the top of the stack.
STACK_BOTTOMS = (("bb_ctx_start", "ctx_sysv.S"), ("bb_ctx_call", "ctx_sysv.S"),
                 ("bb_ctx_run_on", "ctx_sysv.S"),
                 ("bb_ctx_exit_start", "ctx_sysv.S"), ("bb_ctx_trampoline", "ctx_sysv.S"),
                 ("trampoline", "ctx_ucontext.c"))

MAX_FRAMES = 200

# A running scheduler without a saved context called its ULT without saving
# one (ABT_THREAD_TECHNIQUE ss, ss-l, sc): it starts afresh when resumed.
RESTART_NOTE = "no saved context (restarts afresh)"


class BobbinError(gdb.GdbError):
    """An error shown to the user as a plain message (no Python traceback)."""


# ---- reading the runtime ----------------------------------------------------

def _eval(expr):
    try:
        return gdb.parse_and_eval(expr)
    except gdb.error as e:
        raise BobbinError("bobbin: cannot read %s (%s). Is the program linked with "
                          "bobbin's libabt, with its debug information, and started?"
                          % (expr, str(e).rstrip(".")))


def _type(name):
    try:
        return gdb.lookup_type(name)
    except gdb.error:
        raise BobbinError("bobbin: type %s unknown: libabt's debug information is missing"
                          % name)


def function_name(addr):
    """Symbol of a code address ('my_worker'); its hex value if unknown, '-' for NULL."""
    if addr == 0:
        return "-"
    block = gdb.block_for_pc(addr)
    while block is not None and block.function is None:
        block = block.superblock
    if block is not None:
        return block.function.print_name
    # No debug information there: ask the ELF symbol table.
    out = gdb.execute("info symbol 0x%x" % addr, to_string=True)
    return out.split()[0] if not out.startswith("No symbol") else "0x%x" % addr


def is_function_start(addr):
    """True if addr is the first instruction of a function (not a return address)."""
    out = gdb.execute("info symbol 0x%x" % addr, to_string=True)
    return not out.startswith("No symbol") and " + " not in out.split(" in section")[0]


class Unit:
    """One work unit: a struct bb_unit that is not free."""

    def __init__(self, value, live_xstreams):
        self.value = value
        self.addr = int(value.address)
        self.flags = int(value["flags"])
        self.state = int(value["state"])
        stored_id = int(value["id"])  # stored plus one; 0: not assigned yet
        self.id = stored_id - 1 if stored_id else None
        # The ES it runs on or last ran on; only trusted while that ES lives
        # (a finished unit may outlive the ES that ran it).
        xstream = value["xstream"]
        self.xstream = xstream if int(xstream) in live_xstreams else None
        self.rank = int(xstream["rank"]) if self.xstream is not None else None
        self.on_cpu = self.xstream is not None and int(xstream["current"]) == self.addr

    @property
    def is_ult(self):
        return bool(self.flags & FLAG_ULT)

    @property
    def kind(self):
        if self.flags & FLAG_PRIMARY:
            return "primary"
        if self.flags & FLAG_SCHED:
            # A secondary ES's OS thread has a unit of its own (no function,
            # no stack): it starts the scheduler and waits for it to stop.
            return "scheduler" if int(self.value["func"]) != 0 else "os-thread"
        return "ULT" if self.is_ult else "tasklet"

    @property
    def state_name(self):
        return STATE_NAMES.get(self.state, "state %d" % self.state)

    @property
    def id_text(self):
        return str(self.id) if self.id is not None else "-"

    def label(self):
        """How messages name it: 'ULT 5', 'primary ULT 0x...' without an id."""
        kind = self.kind if self.kind in ("ULT", "tasklet") else self.kind + " ULT"
        if self.id is not None:
            return "%s %d" % (kind, self.id)
        return "%s 0x%x" % (kind, self.addr)

    def function(self):
        func = int(self.value["func"])
        if func == 0 and self.flags & FLAG_SCHED:
            return scheduler_function(self.addr)
        return function_name(func)


def all_units():
    """Every unit in the descriptor chunks, ordered by id then address."""
    chunk = _eval("bb_desc_chunks")
    unit_ptr = _type("struct bb_unit").pointer()
    live_xstreams = {int(es.address) for es in xstreams()}
    units = []
    while int(chunk) != 0:
        base = int(chunk["units"].address)
        size = int(chunk["desc_size"])
        for i in range(int(chunk["carved"])):
            value = gdb.Value(base + i * size).cast(unit_ptr).dereference()
            if int(value["state"]) != STATE_FREE:
                units.append(Unit(value, live_xstreams))
        chunk = chunk["next"]
    units.sort(key=lambda u: (u.id is None, u.id if u.id is not None else 0, u.addr))
    return units


def xstreams():
    """The live ESs (struct bb_xstream values), by rank."""
    rt = _eval("bb_rt")
    table = rt["xstreams"]
    result = []
    for rank in range(int(rt["num_xstreams"])):
        es = table[rank]
        if int(es) != 0:
            result.append(es.dereference())
    return result


def scheduler_function(unit_addr):
    """A scheduler ULT has no entry function of its own: name the run
    function of the main scheduler it runs, if it is one."""
    for es in xstreams():
        sched = es["main_sched"]
        if int(sched) != 0 and int(sched["unit"]) == unit_addr:
            return function_name(int(sched["run"]))
    return "-"


def find_unit(arg, units):
    """The unit named by a command argument: an id, or an address expression."""
    arg = arg.strip()
    if arg.isdigit():
        for u in units:
            if u.id == int(arg):
                return u
        raise BobbinError("bobbin: no unit has id %s (see 'bobbin ults')" % arg)
    try:
        addr = int(gdb.parse_and_eval(arg))
    except gdb.error as e:
        raise BobbinError("bobbin: %s is neither an id nor an address (%s)" % (arg, e))
    for u in units:
        if u.addr == addr:
            return u
    raise BobbinError("bobbin: 0x%x is not a live unit (see 'bobbin ults')" % addr)


def waiting_on(u, by_addr):
    """What a blocked ULT waits for, in words ('' if it is not blocked)."""
    if u.state != STATE_BLOCKED:
        return ""
    if int(u.value["switching"]):
        return "blocking (its context is being saved)"
    target = int(u.value["wait_target"])
    if target == 0:
        if int(u.value["resumable"]):
            return "suspended (ABT_self_suspend: waits for ABT_thread_resume)"
        return "parked by the runtime"
    if target in by_addr:  # a join points at the unit it joins
        return "join of %s" % by_addr[target].label()
    # Otherwise it is the ULT's node in a synchronization object's queue.
    node = gdb.Value(target).cast(_type("struct bb_wait_node").pointer()).dereference()
    kind = SYNC_NAMES.get(int(node["sync_type"]), "sync object")
    obj = int(node["sync_obj"])
    text = "%s 0x%x" % (kind, obj)
    if kind == "mutex":
        text += mutex_owner(obj, by_addr)
    return text


def unit_detail(u, by_addr, threads):
    """The DETAIL column: what a blocked ULT waits on, where a running one
    runs, whether a ready one ever ran."""
    if u.state == STATE_BLOCKED:
        return waiting_on(u, by_addr)
    if u.on_cpu:
        if threads is not None and u.rank in threads:
            return "on CPU, gdb thread %d" % threads[u.rank].num
        return "on CPU"
    if u.kind == "os-thread":
        return "runs the scheduler of its ES until it stops"
    if u.state == STATE_RUNNING and u.flags & FLAG_SCHED:
        # A scheduler "runs" while the unit it picked runs in its place.
        current = by_addr.get(int(u.xstream["current"])) if u.xstream is not None else None
        text = "its ES runs %s" % current.label() if current is not None else ""
        if int(u.value["ctx"]) == 0:
            text += (", " if text else "") + RESTART_NOTE
        return text
    if u.state == STATE_READY and u.is_ult and not has_started(u):
        return "not started"
    return ""


def has_started(u):
    """A ULT that never ran has no context (it starts on its stack at its
    first switch) or a fresh one, which resumes at the very first instruction
    of a function; a switched-out one resumes at a return address."""
    ctx = int(u.value["ctx"])
    if ctx == 0:
        # none yet; but the primary ULT and a secondary ES's OS thread have
        # no stack of their own and are always running (a ULT with a lazy
        # stack, or a scheduler that is to start afresh, has none until it
        # runs)
        return int(u.value["stack"]) == 0 and (u.flags & (FLAG_PRIMARY | FLAG_SCHED)) != 0
    try:
        return not is_function_start(saved_registers(ctx)["rip"])
    except (gdb.error, BobbinError):
        return True


def mutex_owner(mutex_addr, by_addr):
    mutex = gdb.Value(mutex_addr).cast(_type("struct bb_mutex").pointer()).dereference()
    owner = int(mutex["owner"]) & ~MUTEX_FLAG_BITS
    if owner == 0:
        return ""
    if owner == MUTEX_HELD:
        return ", held (a plain mutex: its holder is not recorded)"
    if owner in by_addr:
        return ", held by %s" % by_addr[owner].label()
    return ", held by an external thread (token 0x%x)" % owner


# ---- OS threads -------------------------------------------------------------

def thread_of_es(es):
    """The gdb thread that runs an ES: the one whose pthread_t is es.thread.
    A pthread_t is glibc's thread pointer, which is also $fs_base on x86-64:
    that is the fallback when gdb cannot tell a thread's handle."""
    want = int(es["thread"])
    threads = gdb.selected_inferior().threads()
    for t in threads:
        try:
            if int.from_bytes(t.handle(), sys.byteorder) == want:
                return t
        except (gdb.error, AttributeError, TypeError):
            pass
    with preserved_selection():
        for t in threads:
            t.switch()
            try:
                if int(gdb.parse_and_eval("$fs_base")) == want:
                    return t
            except gdb.error:
                pass
    if bool(es["is_primary"]):  # the thread that called ABT_init: the first one
        return min(threads, key=lambda t: t.num, default=None)
    return None


class preserved_selection:
    """Restores the selected thread and frame, whatever happens inside."""

    def __enter__(self):
        self.thread = gdb.selected_thread()
        try:
            self.frame = gdb.selected_frame()
        except gdb.error:
            self.frame = None
        return self

    def __exit__(self, *exc):
        if self.thread is not None and self.thread.is_valid():
            self.thread.switch()
            if self.frame is not None and self.frame.is_valid():
                self.frame.select()
        return False


# ---- saved contexts ---------------------------------------------------------

def context_flavour():
    """'asm' or 'ucontext': the context switch the library was built with."""
    arch = gdb.selected_inferior().architecture().name() \
        if hasattr(gdb.Inferior, "architecture") else gdb.selected_frame().architecture().name()
    if arch != "i386:x86-64":
        raise BobbinError("bobbin: saved contexts can be unwound on x86-64 only (this is %s)"
                          % arch)
    sym = gdb.lookup_global_symbol("bb_ctx_jump")
    if sym is not None and sym.symtab is not None \
            and sym.symtab.filename.endswith("ctx_ucontext.c"):
        return "ucontext"
    return "asm"


def read_word(addr):
    data = gdb.selected_inferior().read_memory(addr, 8)
    return int.from_bytes(bytes(data), "little")


def saved_registers(ctx):
    """Registers of a saved context, as the frame that switched away sees
    them right after its switch call returns."""
    if context_flavour() == "ucontext":
        return {reg: read_word(ctx + UC_GREGS_OFFSET + 8 * index)
                for reg, index in UC_GREG_INDEX.items()}
    regs = {reg: read_word(ctx + offset) for reg, offset in ASM_FRAME.items()}
    regs["rsp"] = ctx + ASM_FRAME_SIZE
    return regs


class SavedContextUnwinder(gdb.unwinder.Unwinder):
    """While armed, the selected thread's innermost real frame unwinds into
    the saved registers of a ULT, so its caller is the ULT's innermost frame.

    gdb stops a backtrace whose caller frame lies "inner" (lower on the
    stack) than its callee, which would be the case when the ULT's stack sits
    below the thread's. So the claimed frame's id uses the ULT's own stack
    pointer: always below the frames it leads to."""

    def __init__(self):
        super().__init__("bobbin-saved-context")
        self.armed = None  # (thread number, frame rsp, frame rip, saved registers)

    def __call__(self, pending):
        if self.armed is None:
            return None
        thread_num, rsp, rip, regs = self.armed
        if gdb.selected_thread().num != thread_num:
            return None
        # Only the frame measured when arming: same stack pointer and pc.
        if int(pending.read_register("rsp")) != rsp or int(pending.read_register("rip")) != rip:
            return None
        info = pending.create_unwind_info(FrameId(regs["rsp"], rip))
        for reg, value in regs.items():
            reg_type = pending.read_register(reg).type
            info.add_saved_register(reg, gdb.Value(value).cast(reg_type))
        return info


class FrameId:
    """A frame id as gdb's unwinder API wants it: attributes holding gdb.Values."""

    def __init__(self, sp, pc):
        self.sp = gdb.Value(sp)
        self.pc = gdb.Value(pc)


UNWINDER = SavedContextUnwinder()
gdb.unwinder.register_unwinder(None, UNWINDER, replace=True)


def innermost_real_frame():
    """Frame 0 of the selected thread, or the function that frame 0 and the
    next ones are inlined into: the frame an unwinder gets to see."""
    frame = gdb.newest_frame()
    while frame.type() == gdb.INLINE_FRAME and frame.older() is not None:
        frame = frame.older()
    return frame


class armed_with:
    """Arm the unwinder with a ULT's saved registers for one `with` block;
    yields the ULT's innermost frame. Always disarms, and flushes gdb's frame
    cache on both sides so that no frame built while armed survives."""

    def __init__(self, regs):
        self.regs = regs

    def __enter__(self):
        gdb.invalidate_cached_frames()
        frame = innermost_real_frame()
        rsp = int(frame.read_register("rsp"))
        rip = int(frame.read_register("rip"))
        UNWINDER.armed = (gdb.selected_thread().num, rsp, rip, self.regs)
        gdb.invalidate_cached_frames()
        # The same frame, now claimed by the unwinder: its caller is the ULT.
        older = innermost_real_frame().older()
        if older is None or older.pc() != self.regs["rip"]:
            raise BobbinError("bobbin: gdb did not take the saved context (its unwinder "
                              "was not used); no backtrace")
        return older

    def __exit__(self, *exc):
        UNWINDER.armed = None
        gdb.invalidate_cached_frames()
        return False


# ---- printing backtraces ----------------------------------------------------

def frame_arguments(frame):
    """'a=1, b=0x...' for a frame with debug information, else None."""
    try:
        block = frame.block()
    except RuntimeError:
        return None
    while block is not None and block.function is None:
        block = block.superblock
    if block is None:
        return None
    parts = []
    for sym in block:
        if not sym.is_argument:
            continue
        try:
            value = frame.read_var(sym)
            try:
                text = value.format_string(summary=True)
            except TypeError:  # gdb without format_string(summary=)
                text = str(value)
        except gdb.error as e:
            text = "<%s>" % e
        parts.append("%s=%s" % (sym.print_name, text))
    return ", ".join(parts)


def format_frame(number, frame):
    pc = frame.pc()
    name = frame.name() or "??"
    args = frame_arguments(frame)
    text = "#%-2d " % number
    if frame.type() != gdb.INLINE_FRAME:
        text += "0x%016x in " % pc
    text += "%s (%s)" % (name, args if args is not None else "")
    sal = frame.find_sal()
    if sal.symtab is not None and sal.line:
        text += " at %s:%d" % (sal.symtab.filename, sal.line)
    else:
        lib = gdb.solib_name(pc)
        if lib:
            text += " from %s" % lib
    return text


def is_stack_bottom(frame):
    name = frame.name()
    for func, file in STACK_BOTTOMS:
        if name == func:
            symtab = frame.find_sal().symtab
            return symtab is None or symtab.filename.endswith(file)
    return False


def print_frames(frame):
    """Print from `frame` outwards, renumbered from #0, up to the bottom of
    the ULT's stack (where the context started: anything older is garbage)."""
    number = 0
    while frame is not None and number < MAX_FRAMES:
        gdb.write(format_frame(number, frame) + "\n")
        if is_stack_bottom(frame):
            return
        try:
            older = frame.older()
        except gdb.error as e:
            gdb.write("Backtrace stopped: %s\n" % e)
            return
        if older is None:
            reason = frame.unwind_stop_reason()
            if reason not in (gdb.FRAME_UNWIND_NO_REASON, gdb.FRAME_UNWIND_OUTERMOST):
                gdb.write("Backtrace stopped: %s\n" % gdb.frame_stop_reason_string(reason))
            return
        frame = older
        number += 1
    if frame is not None:
        gdb.write("(more frames follow)\n")


def header(u, by_addr, how):
    """'ULT 6 (0x...) cond_worker: blocked, cond 0x..., ES 0 -- how'."""
    text = u.label()
    if u.id is not None:
        text += " (0x%x)" % u.addr
    func = u.function()
    if func != "-":
        text += " " + func
    text += ": " + u.state_name
    detail = unit_detail(u, by_addr, None) if not u.on_cpu else ""  # `how` says it
    if detail:
        text += ", " + detail
    if u.rank is not None:
        text += ", ES %d" % u.rank
    return text + " -- " + how + "\n"


def backtrace_unit(u, by_addr):
    """Print one unit's backtrace, or why there is none."""
    if u.on_cpu:
        thread = thread_of_es(u.xstream)
        if thread is None:
            gdb.write(header(u, by_addr, "on a CPU, but no gdb thread runs ES %d" % u.rank))
            return
        gdb.write(header(u, by_addr, "on a CPU: gdb thread %d" % thread.num))
        with preserved_selection():
            thread.switch()
            print_frames(gdb.newest_frame())
        return
    if not u.is_ult:
        gdb.write(header(u, by_addr, "a tasklet has no stack until it runs"))
        return
    if u.state == STATE_TERMINATED:
        gdb.write(header(u, by_addr, "finished: nothing to unwind"))
        return
    ctx = int(u.value["ctx"])
    if ctx == 0 and u.flags & FLAG_SCHED and u.state == STATE_RUNNING:
        gdb.write(header(u, by_addr, RESTART_NOTE))
        return
    if ctx == 0 and not has_started(u):
        gdb.write(header(u, by_addr, "no frames yet"))
        return
    if ctx == 0 or (u.state == STATE_BLOCKED and int(u.value["switching"])):
        gdb.write(header(u, by_addr, "no saved context yet"))
        return
    regs = saved_registers(ctx)
    if is_function_start(regs["rip"]):
        gdb.write(header(u, by_addr, "no frames yet"))
        return
    gdb.write(header(u, by_addr, "saved context 0x%x" % ctx))
    with preserved_selection(), armed_with(regs) as frame:
        print_frames(frame)


# ---- commands -----------------------------------------------------------------

class BobbinPrefix(gdb.Command):
    """Inspect bobbin (Argobots API) work units: bobbin ults, bobbin bt ULT|all."""

    def __init__(self):
        super().__init__("bobbin", gdb.COMMAND_STACK, gdb.COMPLETE_NONE, True)


class BobbinUlts(gdb.Command):
    """List bobbin's work units: ULTs (incl. schedulers and the primary ULT) and tasklets.
Columns: '*' on a CPU now, id ('-': none assigned yet), descriptor address,
kind, state, ES rank, entry function, what a blocked unit waits on."""

    def __init__(self, name):
        super().__init__(name, gdb.COMMAND_STACK, gdb.COMPLETE_NONE)

    def invoke(self, arg, from_tty):
        units = all_units()
        by_addr = {u.addr: u for u in units}
        threads = es_threads()
        gdb.write("  %-5s %-18s %-9s %-10s %-3s %-24s %s\n"
                  % ("ID", "ADDRESS", "KIND", "STATE", "ES", "FUNCTION", "DETAIL"))
        for u in units:
            detail = unit_detail(u, by_addr, threads)
            gdb.write("%s %-5s 0x%-16x %-9s %-10s %-3s %-24s %s\n" % (
                "*" if u.on_cpu else " ", u.id_text, u.addr, u.kind, u.state_name,
                u.rank if u.rank is not None else "-", u.function(), detail))
        gdb.write("%d unit(s) on %d ES(s)\n" % (len(units), len(xstreams())))
        if not int(_eval("bb_rt")["up"]):
            gdb.write("(the runtime is not up: ABT_init not called yet, or ABT_finalize done)\n")


def es_threads():
    """gdb thread of each ES, by rank (those that could be found)."""
    result = {}
    for es in xstreams():
        thread = thread_of_es(es)
        if thread is not None:
            result[int(es["rank"])] = thread
    return result


class BobbinBt(gdb.Command):
    """Backtrace of a bobbin ULT: bobbin bt ID|ADDRESS|EXPRESSION, or bobbin bt all.
A ULT on a CPU shows its ES's OS thread; any other ULT is unwound from its
saved context (live process or core file: nothing is written)."""

    def __init__(self):
        super().__init__("bobbin bt", gdb.COMMAND_STACK, gdb.COMPLETE_EXPRESSION)

    def invoke(self, arg, from_tty):
        if not arg.strip():
            raise BobbinError("usage: bobbin bt ID|ADDRESS|all")
        units = all_units()
        by_addr = {u.addr: u for u in units}
        if arg.strip() == "all":
            for u in units:
                backtrace_unit(u, by_addr)
                gdb.write("\n")
        else:
            backtrace_unit(find_unit(arg, units), by_addr)


BobbinPrefix()
BobbinUlts("bobbin ults")
BobbinUlts("bobbin threads")
BobbinBt()
