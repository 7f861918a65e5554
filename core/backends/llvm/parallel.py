"""Parallel loops in numbax's own IR: numba's scheduler, numbax's thread pool, no parfors.

numba compiles a `prange` loop through its parallel passes: the loop body becomes a separately
compiled gufunc, plus a wrapper and the scheduling code around its call (0.5-7 s of compile per
threaded kernel, `bench/README.md`). What that code does at run time is small, and all of it
is C functions of numba's threading layer, registered with LLVM once its threads are launched
(`core/jit/gemm.py` launches them when the back end loads):

    threads = get_num_threads()                 the calling thread's share of the pool (numba's
                                                thread-local count: `core/jit/threads.py`
                                                sets it, following the machine's load)
    divisions = get_sched_size(threads, 1, &start, &last)
                                                how many pieces: one per `chunk` iterations when
                                                the caller set a chunk size (`rt.dynamic`),
                                                else one per thread
    set_parallel_chunksize(0)                   nested loops get the default
    sched = allocate_sched(2 * divisions)
    do_scheduling_signed(1, &start, &last, divisions, sched, 0)
                                                the pieces' [first, last] iterations
    numba_parallel_for(gufunc, [sched], [divisions, 2], [16], data, 1, 1, threads)
                                                TBB runs `gufunc` on ranges of pieces, the
                                                threads taking them dynamically, without
                                                the GIL (taken, then released around it,
                                                as numba's gufunc wrapper does: a caller
                                                holding it would stop a thread whose first
                                                BLAS call imports scipy's)
    set_parallel_chunksize(chunk); deallocate_sched(sched)

A loop on one thread (the count is 1, as on a pmap device or next to a busy process) or of one
piece skips the last call and the GIL: the gufunc runs its pieces inline, in order, as one
thread of either pool would. `emit_for` writes that sequence for a loop `for i in prange(start,
stop)` whose body is a
function `void body(i8* data, i64 lo, i64 hi)` running iterations lo..hi-1 (the caller
outlines it and packs what it reads into `data`), and can hand the pieces to numbax's own
pool, `run(state, body, sched, divisions, data, threads)` (`pool.py`), instead of
`numba_parallel_for` (`config.jit_thread_pool`, on by default: see below).
The last call is where the time went next to a busy process: numba's
TBB layer makes a task arena for every loop, and oneTBB's workers spin a millisecond in a
finished arena; a kernel's loops come less than a millisecond apart, so the worker never
slept, and next to one busy process it was a third runnable thread on two cores (the process
got about one core for its two threads, two threads were slower than one: `bench/README.md`,
"Next to one busy process"). The pool's workers are started once, spin briefly and then sleep
on a futex, and take pieces from one atomic counter, so the calling thread runs whatever a
worker without a core has not started.

The pieces are numba's, computed by numba's own scheduler from the same thread count and chunk
size, so a loop runs in the same chunks as numba's parfor of it; each iteration runs the same
code whichever thread takes it, so results do not depend on the thread count or on the pool.
With `config.jit_thread_pool` off (`NUMBAX_JIT_THREAD_POOL=0`, read
when the pool starts) the pieces go to `numba_parallel_for` as before, on a gufunc, a loop over
a range of pieces calling `body` for each: the kernel reads which from the pool's state at
every loop, so both run the same machine code (tests and benchmarks compare them in one
process). With the pool on, numba's own parfors run on it too (`route_parfors`: the symbol
`numba_parallel_for` they call points at `numbax_parfor`), so the pool is the only worker.
Measured in `bench/README.md` ("numbax's own pool"). The GIL is released around either
pool's run, as around `numba_parallel_for`.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

import numpy as np
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core.compiler_lock import global_compiler_lock
from numba.np.ufunc import parallel as numba_parallel

_I64 = ir.IntType(64)
_I8P = ir.IntType(8).as_pointer()
_BODY = ir.FunctionType(ir.VoidType(), [_I8P, _I64, _I64])
_GUFUNC = ir.FunctionType(
    ir.VoidType(), [_I8P.as_pointer(), _I64.as_pointer(), _I64.as_pointer(), _I8P]
)
# numbax's pool (`pool.py`): the cells of its state and of its `run(state, body, sched, count,
# data, threads)`, and the state's word that says whether loops run on it (else on oneTBB)
STATE_CELL, RUN_CELL, ON = "numbax_pool_state", "numbax_pool_run", 12
# The desk of the pmap devices (`pool.desk`: a pool state without workers, 0 until made) and its
# word that counts the devices of running pmaps that help each other (`communicator`); a
# device waiting at a collective's barrier calls `_help` through `HELP_CELL` (`exchange._meet`).
DESK_CELL, HELP_CELL, HELPERS = "numbax_desk_state", "numbax_desk_help", 20
_RUN = ir.FunctionType(ir.VoidType(), [_I64] * 6)
# numba's parfors call `numba_parallel_for(fn, args, dims, steps, data, inner_ndim, array_count,
# threads)` (numba's gufunc wrapper): `route_parfors` points that symbol at `numbax_parfor`,
# which runs the parfor's pieces on the pool when it is on, else calls oneTBB's function,
# whose address the cell `TBB_CELL` keeps.
TBB_CELL = "numbax_tbb_parallel_for"
# ... and numba's `get_thread_id` (the slot of a parfor's reduction that a thread adds to) at
# `numbax_thread_id`: the slot + 1 its thread keeps under the pthread key `KEY_CELL`, a pool
# worker's rank (`set_rank`), 0 for the caller of a parfor on the pool (also when it runs one
# inside a piece: that parfor's reductions have their own slots), else oneTBB's (`TBB_ID_CELL`).
TBB_ID_CELL, KEY_CELL = "numbax_tbb_thread_id", "numbax_pool_key"
_PARALLEL_FOR = ir.FunctionType(ir.VoidType(), [_I8P] * 5 + [_I64] * 3)
# The cells, registered with LLVM before any kernel loads; until `pool.start` fills them the
# state is a block of zeros (ON 0: loops run on numba's layer).
_OFF = np.zeros(16, np.int64)
CELLS = {
    STATE_CELL: np.array([_OFF.ctypes.data], np.int64),
    RUN_CELL: np.zeros(1, np.int64),
    TBB_CELL: np.zeros(1, np.int64),
    TBB_ID_CELL: np.zeros(1, np.int64),
    KEY_CELL: np.zeros(1, np.int64),
    DESK_CELL: np.zeros(1, np.int64),
    HELP_CELL: np.zeros(1, np.int64),
}
for _sym, _cell_array in CELLS.items():
    llvm.add_symbol(_sym, _cell_array.ctypes.data)
# numba's threading layer's functions, declared as its parfor lowering declares them
_RUNTIME = {
    "get_num_threads": ir.FunctionType(_I64, []),
    "get_parallel_chunksize": ir.FunctionType(_I64, []),
    "set_parallel_chunksize": ir.FunctionType(ir.VoidType(), [_I64]),
    "get_sched_size": ir.FunctionType(_I64, [_I64, _I64, _I64.as_pointer(), _I64.as_pointer()]),
    "allocate_sched": ir.FunctionType(_I64.as_pointer(), [_I64]),
    "deallocate_sched": ir.FunctionType(ir.VoidType(), [_I64.as_pointer()]),
    "do_scheduling_signed": ir.FunctionType(
        ir.VoidType(),
        [_I64, _I64.as_pointer(), _I64.as_pointer(), _I64, _I64.as_pointer(), _I64],
    ),
    "numba_parallel_for": ir.FunctionType(ir.VoidType(), [_I8P] * 5 + [_I64] * 3),
    # CPython's, as numba's gufunc wrapper calls them around `numba_parallel_for`
    "PyGILState_Ensure": ir.FunctionType(ir.IntType(32), []),
    "PyGILState_Release": ir.FunctionType(ir.VoidType(), [ir.IntType(32)]),
    "PyEval_SaveThread": ir.FunctionType(_I8P, []),
    "PyEval_RestoreThread": ir.FunctionType(ir.VoidType(), [_I8P]),
}


def symbols() -> tuple[str, ...]:
    """The threading layer's symbols that parallel loops call (defined once numba's threads are
    launched, which this makes sure of)."""
    numba_parallel._launch_threads()
    return tuple(_RUNTIME)


def body_type() -> ir.FunctionType:
    """The type of a loop body: `void(i8* data, i64 lo, i64 hi)`."""
    return _BODY


def _cell(module: ir.Module, sym: str) -> ir.GlobalVariable:
    """The cell `sym` (an int64 filled in this process: `entry.register_slot`)."""
    cell = module.globals.get(sym)
    return cell if cell is not None else ir.GlobalVariable(module, _I64, sym)


def runtime(module: ir.Module, name: str) -> ir.Function:
    """The declaration in `module` of function `name` of numba's threading layer (or
    CPython's), as numba's parfor lowering declares it."""
    fn = module.globals.get(name)
    if fn is None:
        fn = ir.Function(module, _RUNTIME[name], name)
    return fn


def emit_for(builder: ir.IRBuilder, body: ir.Function, data: ir.Value, start, stop) -> None:
    """Emits `for i in prange(start, stop)` (int64 values): `body` (`body_type()`) on the
    pieces of numba's scheduler, on the calling thread's share of numbax's pool (or of numba's,
    see the module docstring); `data` (an i8*) is passed to every call. No iteration runs
    when stop <= start."""
    symbols()
    module = builder.module
    gufunc = _gufunc(module, body)
    with builder.if_then(builder.icmp_signed(">", stop, start)):
        with builder.goto_entry_block():
            bounds = builder.alloca(_I64, 2, name="par.bounds")
            args = builder.alloca(_I8P, name="par.args")
            dims = builder.alloca(_I64, 2, name="par.dims")
            steps = builder.alloca(_I64, name="par.steps")
        first, last = bounds, builder.gep(bounds, [ir.Constant(_I64, 1)], source_etype=_I64)
        builder.store(start, first)
        builder.store(builder.sub(stop, ir.Constant(_I64, 1)), last)  # inclusive, as numba's
        threads = builder.call(runtime(module, "get_num_threads"), [])
        chunk = builder.call(runtime(module, "get_parallel_chunksize"), [])
        one = ir.Constant(_I64, 1)
        divisions = builder.call(runtime(module, "get_sched_size"), [threads, one, first, last])
        builder.call(runtime(module, "set_parallel_chunksize"), [ir.Constant(_I64, 0)])
        size = builder.mul(divisions, ir.Constant(_I64, 2))
        sched = builder.call(runtime(module, "allocate_sched"), [size])
        builder.call(
            runtime(module, "do_scheduling_signed"),
            [one, first, last, divisions, sched, ir.Constant(_I64, 0)],
        )
        builder.store(builder.bitcast(sched, _I8P), args)
        builder.store(divisions, dims)
        builder.store(ir.Constant(_I64, 2), builder.gep(dims, [one], source_etype=_I64))
        builder.store(ir.Constant(_I64, 16), steps)
        alone = builder.or_(
            builder.icmp_signed("<", threads, _I64(2)), builder.icmp_signed("<", divisions, _I64(2))
        )
        with builder.if_else(alone) as (inline, shared):
            with inline:
                _alone(builder, gufunc, body, sched, divisions, data, (args, dims, steps))
            with shared:
                _share(builder, gufunc, body, sched, divisions, data, threads, (args, dims, steps))
        builder.call(runtime(module, "set_parallel_chunksize"), [chunk])
        builder.call(runtime(module, "deallocate_sched"), [sched])


def desk_helpers(builder: ir.IRBuilder) -> ir.Value:
    """Emits a read of how many devices of running pmaps may take pieces of this thread's loops
    while they wait at a collective's barrier (the desk's `HELPERS` word; 0 without a desk)."""
    desk = builder.load(_cell(builder.module, DESK_CELL))
    with builder.goto_entry_block():
        helpers = builder.alloca(_I64, name="par.helpers")
    builder.store(_I64(0), helpers)
    with builder.if_then(builder.icmp_signed("!=", desk, _I64(0)), likely=False):
        word = builder.inttoptr(builder.add(desk, _I64(8 * HELPERS)), _I64.as_pointer())
        builder.store(builder.load_atomic(word, "monotonic", 8), helpers)
    return builder.load(helpers)


def _alone(builder: ir.IRBuilder, gufunc, body, sched, divisions, data, gu_args) -> None:
    """The pieces of a loop on one thread: inline, in order; or, when the loop has more than
    one piece and pmap devices that help each other are running (the desk's `HELPERS`),
    posted on the desk, where a device that waits at a collective's barrier takes pieces while
    this thread takes the rest (`pool.desk`; the caller never waits for a piece nobody
    started)."""
    desk = builder.load(_cell(builder.module, DESK_CELL))
    posted = builder.and_(
        builder.icmp_signed(">", desk_helpers(builder), _I64(0)),
        builder.icmp_signed(">", divisions, _I64(1)),
    )
    with builder.if_else(posted, likely=False) as (helped, inline):
        with helped:
            _run_on(builder, desk, body, sched, divisions, data, _I64(2))
        with inline:
            builder.call(gufunc, list(gu_args[:3]) + [data])


def _run_on(builder: ir.IRBuilder, state, body, sched, divisions, data, threads) -> None:
    """Emits `run(state, body, sched, divisions, data, threads)` (`pool.py`'s job, on the pool
    or the desk whose state is `state`), `run` read from `RUN_CELL`."""
    address = builder.ptrtoint
    builder.call(
        builder.inttoptr(builder.load(_cell(builder.module, RUN_CELL)), _RUN.as_pointer()),
        [state, address(body, _I64), address(sched, _I64), divisions, address(data, _I64), threads],
    )


def _share(builder: ir.IRBuilder, gufunc, body, sched, divisions, data, threads, gu_args) -> None:
    """The pieces of a loop on more than one thread: on numbax's pool or oneTBB, whichever the
    pool's state says, the GIL released around either (held or not by the caller)."""
    module = builder.module
    args, dims, steps = gu_args
    one = ir.Constant(_I64, 1)
    state = builder.load(_cell(module, STATE_CELL))
    on = builder.load(builder.inttoptr(builder.add(state, _I64(8 * ON)), _I64.as_pointer()))
    gil = builder.call(runtime(module, "PyGILState_Ensure"), [])
    thread = builder.call(runtime(module, "PyEval_SaveThread"), [])
    with builder.if_else(builder.icmp_signed("!=", on, _I64(0))) as (numbax, tbb):
        with numbax:
            _run_on(builder, state, body, sched, divisions, data, threads)
        with tbb:
            builder.call(
                runtime(module, "numba_parallel_for"),
                [
                    builder.bitcast(gufunc, _I8P),
                    builder.bitcast(args, _I8P),
                    builder.bitcast(dims, _I8P),
                    builder.bitcast(steps, _I8P),
                    data,
                    one,
                    one,
                    threads,
                ],
            )
    builder.call(runtime(module, "PyEval_RestoreThread"), [thread])
    builder.call(runtime(module, "PyGILState_Release"), [gil])


def _gufunc(module: ir.Module, body: ir.Function) -> ir.Function:
    """The gufunc `numba_parallel_for` calls with a range of pieces: `body(data, first, last +
    1)` for each piece's [first, last] (its args[0] points at the range's first piece)."""
    name = f"{body.name}.gufunc"
    fn = module.globals.get(name)
    if fn is not None:
        return fn
    fn = ir.Function(module, _GUFUNC, name)
    fn.linkage = "internal"
    args, dims, steps, data = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    base = b.load(args, typ=_I8P)
    count, step = b.load(dims, typ=_I64), b.load(steps, typ=_I64)
    entry = b.block
    head = b.append_basic_block("head")
    loop = b.append_basic_block("piece")
    done = b.append_basic_block("done")
    b.branch(head)
    b.position_at_end(head)
    k = b.phi(_I64, name="k")
    k.add_incoming(ir.Constant(_I64, 0), entry)
    b.cbranch(b.icmp_signed("<", k, count), loop, done)
    b.position_at_end(loop)
    piece = b.bitcast(b.gep(base, [b.mul(k, step)], source_etype=ir.IntType(8)), _I64.as_pointer())
    first = b.load(piece, typ=_I64)
    last = b.load(b.gep(piece, [ir.Constant(_I64, 1)], source_etype=_I64), typ=_I64)
    b.call(body, [data, first, b.add(last, ir.Constant(_I64, 1))])
    k.add_incoming(b.add(k, ir.Constant(_I64, 1)), loop)
    b.branch(head)
    b.position_at_end(done)
    b.ret_void()
    return fn


_LIBC = ctypes.CDLL(None)
_ROUTED: list = []  # the code library of `numbax_parfor`, once `route_parfors` routed to it
_BEFORE_PARFORS: list = []  # what `before_parfors` calls (`pool.py` registers its `route`)


def register_before_parfors(hook: Callable[[], None]) -> None:
    """Registers `hook`, which `before_parfors` calls (numbax's pool: its code loaded and
    numba's parfors routed to it, if it is on).

    Args:
      hook: a function of no arguments.
    """
    _BEFORE_PARFORS.append(hook)


def before_parfors() -> None:
    """Called before numba compiles, or loads from its cache, a function with parfors (a
    kernel or library function compiled with `parallel=True`): code linked from then on calls
    `numbax_parfor` (`route_parfors`) where numbax's pool is on."""
    for hook in _BEFORE_PARFORS:
        hook()


def route_parfors(library) -> None:
    """Points the symbol `numba_parallel_for`, which numba's parfors (the `prange` loops numba
    compiles itself: kernels the translator left to numba, numba's parallel ufuncs) call, at
    `numbax_parfor`: on the pool when it is on, else oneTBB's `parallel_for` as before. Code
    linked afterwards, compiled or loaded from numba's cache, calls it; code linked before keeps
    oneTBB's. Once per process (a forked child inherits it).

    Args:
      library: numba's code library of a module with `parfor_functions`, finalized.
    """
    if _ROUTED:  # (a forked child's parent's routing stands)
        return
    with global_compiler_lock:
        if _ROUTED:
            return
        symbols()
        key = ctypes.c_uint()
        if _LIBC.pthread_key_create(ctypes.byref(key), None) != 0:
            raise OSError("pthread_key_create failed: no key for the pool's thread ranks")
        CELLS[KEY_CELL][0] = key.value
        CELLS[TBB_CELL][0] = llvm.address_of_symbol("numba_parallel_for")
        CELLS[TBB_ID_CELL][0] = llvm.address_of_symbol("get_thread_id")
        _ROUTED.append(library)
        llvm.add_symbol("numba_parallel_for", library.get_pointer_to_function("numbax_parfor"))
        llvm.add_symbol("get_thread_id", library.get_pointer_to_function("numbax_thread_id"))


def set_rank(rank: int) -> None:
    """Records the calling thread as the pool's worker `rank` (>= 1) for `numbax_thread_id`
    (after `route_parfors`)."""
    _LIBC.pthread_setspecific(ctypes.c_uint(int(CELLS[KEY_CELL][0])), ctypes.c_void_p(rank + 1))


def parfor_functions(module: ir.Module) -> None:
    """Adds to `module` `numbax_thread_id` (see `KEY_CELL`) and `numbax_parfor(fn, args, dims,
    steps, data, inner_ndim, array_count, threads)`, numba's `parallel_for`'s signature: with
    the pool on, the `dims[0]` pieces of the gufunc `fn` (piece k: `fn` called for one item,
    its `array_count` arguments `args[j] + k * steps[j]`, as oneTBB's `parallel_for` calls it
    on a range of pieces) are the pool's job of `dims[0]` pieces [k, k] (`numbax_parfor.piece`,
    its `data` the call's arguments); else oneTBB's. The caller holds no GIL (numba's gufunc
    wrapper released it)."""
    _thread_id(module)
    fn = ir.Function(module, _PARALLEL_FOR, "numbax_parfor")
    piece = _parfor_piece(module)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    state = b.load(_cell(module, STATE_CELL))
    on = b.load(b.inttoptr(b.add(state, _I64(8 * ON)), _I64.as_pointer()))
    with b.if_then(b.icmp_signed("==", on, _I64(0))):
        tbb = b.inttoptr(b.load(_cell(module, TBB_CELL)), _PARALLEL_FOR.as_pointer())
        b.call(tbb, fn.args)
        b.ret_void()
    count = b.load(b.bitcast(fn.args[2], _I64.as_pointer()))
    frame = b.alloca(_I64, 8, name="frame")  # the call's arguments, as `piece` reads them
    for k, value in enumerate(fn.args[:7]):
        word = b.ptrtoint(value, _I64) if isinstance(value.type, ir.PointerType) else value
        b.store(word, b.gep(frame, [_I64(k)], source_etype=_I64))
    malloc = ir.Function(module, ir.FunctionType(_I8P, [_I64]), "malloc")
    free = ir.Function(module, ir.FunctionType(ir.VoidType(), [_I8P]), "free")
    raw = b.call(malloc, [b.mul(count, _I64(16))])
    sched = b.bitcast(raw, _I64.as_pointer())
    with counted(b, count) as k:
        at = b.mul(k, _I64(2))
        b.store(k, b.gep(sched, [at], source_etype=_I64))
        b.store(k, b.gep(sched, [b.add(at, _I64(1))], source_etype=_I64))
    i32 = ir.IntType(32)
    get = module.globals["pthread_getspecific"]  # (declared by `_thread_id`)
    put = ir.Function(module, ir.FunctionType(i32, [i32, _I8P]), "pthread_setspecific")
    key = b.trunc(b.load(_cell(module, KEY_CELL)), i32)
    outer = b.call(get, [key])
    b.call(put, [key, b.inttoptr(_I64(1), _I8P)])  # the caller's slot: 0
    run = b.inttoptr(b.load(_cell(module, RUN_CELL)), _RUN.as_pointer())
    job = [b.ptrtoint(v, _I64) for v in (piece, sched, frame)]
    b.call(run, [state, job[0], job[1], count, job[2], fn.args[7]])
    b.call(put, [key, outer])
    b.call(free, [raw])
    b.ret_void()


def _thread_id(module: ir.Module) -> None:
    """`int numbax_thread_id()`: the calling thread's slot in a parfor's reductions (see
    `KEY_CELL`)."""
    i32 = ir.IntType(32)
    fn = ir.Function(module, ir.FunctionType(i32, []), "numbax_thread_id")
    get = ir.Function(module, ir.FunctionType(_I8P, [i32]), "pthread_getspecific")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    slot = b.ptrtoint(b.call(get, [b.trunc(b.load(_cell(module, KEY_CELL)), i32)]), _I64)
    with b.if_then(b.icmp_signed("!=", slot, _I64(0))):
        b.ret(b.trunc(b.sub(slot, _I64(1)), i32))
    tbb = b.inttoptr(b.load(_cell(module, TBB_ID_CELL)), ir.FunctionType(i32, []).as_pointer())
    b.ret(b.call(tbb, []))


def _parfor_piece(module: ir.Module) -> ir.Function:
    """`numbax_parfor.piece(frame, lo, hi)`: the gufunc of `frame` (`numbax_parfor`'s
    arguments) on its items lo..hi-1, as oneTBB's `parallel_for` calls it on a range."""
    fn = ir.Function(module, _BODY, "numbax_parfor.piece")
    fn.linkage = "internal"
    frame_p, lo, hi = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    frame = b.bitcast(frame_p, _I64.as_pointer())

    def word(k: int) -> ir.Value:
        return b.load(b.gep(frame, [_I64(k)], source_etype=_I64))

    gufunc = b.inttoptr(word(0), _GUFUNC.as_pointer())
    args = b.inttoptr(word(1), _I8P.as_pointer())
    dims = b.inttoptr(word(2), _I64.as_pointer())
    steps = b.inttoptr(word(3), _I64.as_pointer())
    data, inner, arrays = b.inttoptr(word(4), _I8P), word(5), word(6)
    counts = b.alloca(_I64, b.add(inner, _I64(1)), name="counts")
    with counted(b, b.add(inner, _I64(1))) as k:
        value = b.load(b.gep(dims, [k], source_etype=_I64))
        b.store(value, b.gep(counts, [k], source_etype=_I64))
    b.store(b.sub(hi, lo), counts)
    bases = b.alloca(_I8P, arrays, name="bases")
    with counted(b, arrays) as j:
        base = b.load(b.gep(args, [j], source_etype=_I8P))
        step = b.load(b.gep(steps, [j], source_etype=_I64))
        moved = b.gep(base, [b.mul(step, lo)], source_etype=ir.IntType(8))
        b.store(moved, b.gep(bases, [j], source_etype=_I8P))
    b.call(gufunc, [bases, counts, steps, data])
    b.ret_void()
    return fn


class counted:
    """`with counted(builder, n) as k:` emits `for k in range(n)` (int64) around the block."""

    def __init__(self, builder: ir.IRBuilder, n: ir.Value):
        self.b, self.n = builder, n

    def __enter__(self) -> ir.Value:
        b = self.b
        self.entry = b.block
        self.head = b.append_basic_block("count.head")
        self.loop = b.append_basic_block("count.body")
        self.done = b.append_basic_block("count.done")
        b.branch(self.head)
        b.position_at_end(self.head)
        self.k = b.phi(_I64)
        self.k.add_incoming(_I64(0), self.entry)
        b.cbranch(b.icmp_signed("<", self.k, self.n), self.loop, self.done)
        b.position_at_end(self.loop)
        return self.k

    def __exit__(self, *exc) -> None:
        b = self.b
        self.k.add_incoming(b.add(self.k, _I64(1)), b.block)
        b.branch(self.head)
        b.position_at_end(self.done)
