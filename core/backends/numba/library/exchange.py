"""The collectives of a running `pmap` inside compiled kernels: psum, pmax, pmin, all_gather.

A kernel's collective (`core/backends/numba/rules/collectives.py`) is one call

    lib.exchange__f4(x, out, (kind, outer, inner))

made by every device thread of the pmap with its own flat array `x` and a result array `out`
of its own. The devices meet in their communicator's `Block` (`core/parallel/communicator.py`,
its layout and its life), which each thread finds through its POSIX thread-specific place:
native memory read and written with atomics, no GIL, no Python, no `objmode`. Each device
publishes its array in the slot of its rank (a copy in the staging area when it is small, or
its address), meets the others at the barrier, and computes the whole result from every
device's array in rank order: `out = x0 op x1`, then `out = out op x2`, ... (`SUM`, `MAX`,
`MIN`, the order `collective_ops` folds in, so the results are its bits), or `out[o, r, :] =
x_r[o, :]` (`GATHER`: an all_gather's stacked or tiled result seen as `outer` rows of `size`
blocks of `inner` elements). A reduction of arrays too large to stage is shared: each device
folds its share of the elements and writes it into every device's result (whose addresses
the devices publish too). A device whose program does not read the result (a gradient's psum
whose optimizer update another device computes for all, `core/parallel/shared_work.py`: the
third word of its place is set) publishes no result address: nobody writes its share into it,
and it computes no result of its own. A device that read arrays in place meets the others a second
time before it returns (their kernels may then free or reuse them, and every share of its
result is written), unless the fourth word of its place says the next exchange, of arrays
read in place too, completes this one (`communicator.call_exchange`: the others reach that
exchange's first barrier only after reading this one's arrays and writing their shares, and
the device keeps its arrays alive and reads no result until then; a chain of gradient psums
meets once per psum, and twice at its last); staged copies need no
second barrier, since consecutive collectives alternate between two sets of slots (a device
can only come back to a set after the next barrier, which every device reaches after
reading it).

The barrier: each arrival adds one to the round's count; the last resets it, moves the round
on and wakes the sleepers; the others spin (the block's `SPIN` ns, which adapts: see
`communicator.SPIN_NS`; with a core per device, while they find pieces of the other devices'
parallel loops on the block's desk, which they run meanwhile, and the block's `HELP_WINDOW`
(`communicator.HELP_NS`) after the last: `core/backends/llvm/pool.py`'s `desk`; a waiter
that then goes to sleep ends the helping of the call's other barriers,
`communicator.DESK_OFF`) and then sleep on the round's futex in slices of at most
`_SLICE_NS` (re-checking the block's status: an abort from Python cannot wake a waiter that
had not slept yet), so a device whose partner lost its core costs no CPU while it waits.
A device that waits longer than the block's timeout marks it timed out (and names itself),
and every later or waiting device returns at once: the exchange then leaves `out` zero and
the device's program runs to its end, where `ThreadCommunicator.check` raises.
"""

from __future__ import annotations

import os

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

from core.backends.llvm import parallel
from core.backends.numba.library.blocks import copy, fill, inline
from core.backends.numba.library.entry import register, register_slot
from core.jit import runtime as rt
from core.jit.array_struct import array_struct
from core.parallel import communicator as comm

SUM, MAX, MIN, GATHER = 0, 1, 2, 3

# A waiter sleeps at most this long at a time before it looks at the block's status again.
_SLICE_NS = 20_000_000
_FUTEX_WAIT_PRIVATE = 128
_FUTEX_WAKE_PRIVATE = 129
_SYS_FUTEX = {"x86_64": 202, "aarch64": 98}[os.uname().machine]
_CLOCK_MONOTONIC = 1
_X86 = os.uname().machine == "x86_64"

# The C functions compiled code calls, through cells like the library's slots (registered with
# LLVM under these symbols, filled in this process): the cached machine code names the cells.
_CELLS = {
    "numbax_exchange_getspecific": comm.libc_address("pthread_getspecific"),
    "numbax_exchange_syscall": comm.libc_address("syscall"),
    "numbax_exchange_clock": comm.libc_address("clock_gettime"),
    "numbax_exchange_key": comm.place_key(),
}
for _sym, _value in _CELLS.items():
    register_slot(_sym)[0] = _value

_I32, _I64 = ir.IntType(32), ir.IntType(64)


def _cell(builder: ir.IRBuilder, sym: str, ty: ir.Type) -> ir.Value:
    """The value of cell `sym` as `ty` (a function pointer, or an int)."""
    cell = builder.module.globals.get(sym)
    if cell is None:
        cell = ir.GlobalVariable(builder.module, _I64, sym)
    value = builder.load(cell)
    return builder.inttoptr(value, ty) if isinstance(ty, ir.PointerType) else value


def _int(context, builder, value, ty) -> ir.Value:
    return context.cast(builder, value, ty, types.int64)


@intrinsic
def _place(typingctx):
    """The address of this thread's place (its block's control words, its rank), 0 if none."""

    def codegen(context, builder, signature, args):
        fn = ir.FunctionType(ir.IntType(8).as_pointer(), [_I32])
        get = _cell(builder, "numbax_exchange_getspecific", fn.as_pointer())
        key = builder.trunc(_cell(builder, "numbax_exchange_key", _I64), _I32)
        return builder.ptrtoint(builder.call(get, [key]), _I64)

    return types.int64(), codegen


@intrinsic
def _peek(typingctx, base, word):
    """The int64 at word `word` of address `base`."""

    def codegen(context, builder, signature, args):
        at = builder.add(
            _int(context, builder, args[0], base),
            builder.mul(_int(context, builder, args[1], word), _I64(8)),
        )
        return builder.load(builder.inttoptr(at, _I64.as_pointer()))

    return types.int64(base, word), codegen


@intrinsic
def _poke(typingctx, base, word, value):
    """Stores the int64 `value` at word `word` of address `base`."""

    def codegen(context, builder, signature, args):
        at = builder.add(
            _int(context, builder, args[0], base),
            builder.mul(_int(context, builder, args[1], word), _I64(8)),
        )
        builder.store(
            _int(context, builder, args[2], value), builder.inttoptr(at, _I64.as_pointer())
        )
        return context.get_dummy_value()

    return types.none(base, word, value), codegen


def _flag_pointer(context, builder, base, base_ty, word, word_ty) -> ir.Value:
    at = builder.add(
        _int(context, builder, base, base_ty),
        builder.mul(_int(context, builder, word, word_ty), _I64(8)),
    )
    return builder.inttoptr(at, _I32.as_pointer())


@intrinsic
def _flag(typingctx, base, word):
    """The int32 counter of word `word` of address `base` (an atomic, sequentially consistent
    load)."""

    def codegen(context, builder, signature, args):
        ptr = _flag_pointer(context, builder, args[0], base, args[1], word)
        return builder.sext(builder.load_atomic(ptr, "seq_cst", 4), _I64)

    return types.int64(base, word), codegen


@intrinsic
def _add_flag(typingctx, base, word, value):
    """Adds `value` to the int32 counter of word `word` of address `base` (atomically);
    returns the value before."""

    def codegen(context, builder, signature, args):
        ptr = _flag_pointer(context, builder, args[0], base, args[1], word)
        v = builder.trunc(_int(context, builder, args[2], value), _I32)
        return builder.sext(builder.atomic_rmw("add", ptr, v, "seq_cst"), _I64)

    return types.int64(base, word, value), codegen


@intrinsic
def _set_flag(typingctx, base, word, expected, value):
    """Sets the int32 counter of word `word` of address `base` to `value` if it holds
    `expected` (atomically); returns whether it did."""

    def codegen(context, builder, signature, args):
        ptr = _flag_pointer(context, builder, args[0], base, args[1], word)
        old, new = (
            builder.trunc(_int(context, builder, a, t), _I32)
            for a, t in ((args[2], expected), (args[3], value))
        )
        pair = builder.cmpxchg(ptr, old, new, "seq_cst", "seq_cst")
        return builder.extract_value(pair, 1)

    return types.boolean(base, word, expected, value), codegen


@intrinsic
def _futex(typingctx, base, word, op, value, ns):
    """futex(2) on the int32 counter of word `word`: `op` FUTEX_WAIT_PRIVATE (sleep while it
    holds `value`, at most `ns` nanoseconds) or FUTEX_WAKE_PRIVATE (wake `value` sleepers)."""

    def codegen(context, builder, signature, args):
        ptr = _flag_pointer(context, builder, args[0], base, args[1], word)
        op_, value_ = (
            builder.trunc(_int(context, builder, a, t), _I32)
            for a, t in ((args[2], op), (args[3], value))
        )
        futex(builder, ptr, op_, value_, _int(context, builder, args[4], ns))
        return context.get_dummy_value()

    return types.none(base, word, op, value, ns), codegen


def futex(builder: ir.IRBuilder, ptr: ir.Value, op: ir.Value, value: ir.Value, ns: ir.Value):
    """Emits futex(2) on the int32 at `ptr` (an i32*): `op` (i32) FUTEX_WAIT_PRIVATE (sleep
    while it holds `value`, an i32, at most `ns` nanoseconds, an i64) or FUTEX_WAKE_PRIVATE
    (wake `value` sleepers)."""
    fn = ir.FunctionType(_I64, [_I64], var_arg=True)
    call = _cell(builder, "numbax_exchange_syscall", fn.as_pointer())
    spec = cgutils.alloca_once(builder, ir.LiteralStructType([_I64, _I64]))
    builder.store(builder.sdiv(ns, _I64(1_000_000_000)), cgutils.gep(builder, spec, 0, 0))
    builder.store(builder.srem(ns, _I64(1_000_000_000)), cgutils.gep(builder, spec, 0, 1))
    builder.call(call, [_I64(_SYS_FUTEX), ptr, op, value, spec])


def clock_ns(builder: ir.IRBuilder, clock: int) -> ir.Value:
    """Emits a read of clock `clock` (a `clock_gettime` clock id) in nanoseconds, as int64."""
    spec = cgutils.alloca_once(builder, ir.LiteralStructType([_I64, _I64]))
    fn = ir.FunctionType(_I32, [_I32, spec.type])
    builder.call(_cell(builder, "numbax_exchange_clock", fn.as_pointer()), [_I32(clock), spec])
    sec = builder.load(cgutils.gep(builder, spec, 0, 0))
    nsec = builder.load(cgutils.gep(builder, spec, 0, 1))
    return builder.add(builder.mul(sec, _I64(1_000_000_000)), nsec)


@intrinsic
def _now(typingctx):
    """CLOCK_MONOTONIC in nanoseconds."""

    def codegen(context, builder, signature, args):
        return clock_ns(builder, _CLOCK_MONOTONIC)

    return types.int64(), codegen


@intrinsic
def _pause(typingctx):
    """The spin-wait hint (x86's `pause`; nothing elsewhere)."""

    def codegen(context, builder, signature, args):
        pause(builder)
        return context.get_dummy_value()

    return types.none(), codegen


def pause(builder: ir.IRBuilder) -> None:
    """Emits the spin-wait hint (x86's `pause`; nothing elsewhere)."""
    if _X86:
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), []), "llvm.x86.sse2.pause"
        )
        builder.call(fn, [])


@intrinsic
def _address(typingctx, a):
    """The address of flat C array `a`'s data."""

    def codegen(context, builder, signature, args):
        return builder.ptrtoint(array_struct(a)(context, builder, args[0]).data, _I64)

    return types.int64(a), codegen


@intrinsic
def _view(typingctx, address, n, like):
    """The flat C array of `n` elements of `like`'s dtype at `address` (no owner)."""
    if not (isinstance(like, types.Array) and like.ndim == 1):
        raise TypingError(f"_view takes a flat array, got {like}")
    ty = like.copy(layout="C", readonly=False)

    def codegen(context, builder, signature, args):
        out = array_struct(ty)(context, builder)
        item = context.get_data_type(ty.dtype)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item))
        populate_array(
            out,
            data=builder.inttoptr(_int(context, builder, args[0], address), item.as_pointer()),
            shape=[_int(context, builder, args[1], n)],
            strides=[itemsize],
            itemsize=itemsize,
            meminfo=None,
            parent=None,
        )
        return out._getvalue()

    return ty(address, n, like), codegen


@intrinsic
def _help(typingctx, desk):
    """Takes one piece of a loop another device posted on the desk `desk` (`pool._help`,
    through the cell `parallel.HELP_CELL`); returns how many it ran (0 or 1)."""

    def codegen(context, builder, signature, args):
        fn = _cell(builder, parallel.HELP_CELL, ir.FunctionType(_I64, [_I64]).as_pointer())
        return builder.call(fn, [args[0]])

    return types.int64(types.int64), codegen


@inline
def _meet(ctrl, size):
    """The block's barrier (see the module docstring); returns whether every device arrived
    and none gave up."""
    round_ = _flag(ctrl, comm.ROUND)
    if _flag(ctrl, comm.STATUS) != comm.RUNNING:
        return False
    if _add_flag(ctrl, comm.COUNT, 1) + 1 == size:
        _set_flag(ctrl, comm.COUNT, size, 0)
        _add_flag(ctrl, comm.ROUND, 1)
        if _flag(ctrl, comm.SLEEPERS) != 0:
            _futex(ctrl, comm.ROUND, _FUTEX_WAKE_PRIVATE, 1 << 30, 0)
        return _flag(ctrl, comm.STATUS) == comm.RUNNING
    start = _now()
    spin = _peek(ctrl, comm.SPIN)
    timeout = _peek(ctrl, comm.TIMEOUT)
    desk = _peek(ctrl, comm.DESK)  # 0: the devices do not help each other (see `_help`)
    window = _peek(ctrl, comm.HELP_WINDOW)
    if _flag(ctrl, comm.DESK_OFF) != 0:  # a device slept at a barrier (`comm.HELP_NS`)
        desk = 0
    helped = start  # when this device last ran a piece of another's loop
    slept = False
    k = 0
    while _flag(ctrl, comm.ROUND) == round_:
        if _flag(ctrl, comm.STATUS) != comm.RUNNING:
            return False
        if desk != 0 and _help(desk) != 0:
            helped = _now()
            continue
        k += 1
        if k & 63 != 0:
            _pause()
            continue
        now = _now()
        waited = now - start
        if waited < spin or desk != 0 and now - helped < window:
            continue
        if desk != 0:  # no piece for a whole window: the others lack their cores
            _set_flag(ctrl, comm.DESK_OFF, 0, 1)
            desk = 0
        slept = True
        if waited >= timeout:
            if _set_flag(ctrl, comm.STATUS, comm.RUNNING, comm.TIMED_OUT):
                _poke(ctrl, comm.CULPRIT, _peek(_place(), 1))
            _add_flag(ctrl, comm.ROUND, 1)
            _futex(ctrl, comm.ROUND, _FUTEX_WAKE_PRIVATE, 1 << 30, 0)
            return False
        _add_flag(ctrl, comm.SLEEPERS, 1)
        _futex(ctrl, comm.ROUND, _FUTEX_WAIT_PRIVATE, round_, min(_SLICE_NS, timeout - waited))
        _add_flag(ctrl, comm.SLEEPERS, -1)
    # Adapt the spin (a plain store: concurrent updates may lose one, which does no harm).
    longer = min(2 * spin + 1000, _peek(ctrl, comm.SPIN_LIMIT))
    _poke(ctrl, comm.SPIN, spin // 2 if slept else longer)
    return _flag(ctrl, comm.STATUS) == comm.RUNNING


@inline
def _fold(out, a, n, kind):
    """out = out op a, element by element (`SUM`, `MAX` or `MIN`; as XLA's CPU all-reduce,
    max and min skip NaNs: the first operand if the second is NaN or the first is strictly
    beyond it, else the second, so of equal zeros the second wins; `_unnan` then turns the
    elements NaN on every device into -inf or inf)."""
    if kind == SUM:
        for i in range(n):
            rt.st(out, i, rt.ld(out, i) + rt.ld(a, i))
    elif kind == MAX:
        for i in range(n):
            u, v = rt.ld(out, i), rt.ld(a, i)
            rt.st(out, i, u if (u > v) | (v != v) else v)
    else:
        for i in range(n):
            u, v = rt.ld(out, i), rt.ld(a, i)
            rt.st(out, i, u if (u < v) | (v != v) else v)


@inline
def _unnan(out, n, kind):
    """The elements of a max (min) that were NaN on every device: -inf (inf), as JAX 0.10.2's
    pmax and pmin over several CPU devices give (integers are never NaN)."""
    if kind != SUM:
        empty = -np.inf if kind == MAX else np.inf
        for i in range(n):
            u = rt.ld(out, i)
            if u != u:
                rt.st(out, i, empty)


# Elements of a shared reduction folded at a time (then copied to every device's result while
# they are in the cache).
_CHUNK = 4096


@inline
def _reduce_share(out, x, ctrl, slot, results, size, rank, n, kind):
    """This device's share of the reduction of arrays read in place, written into the result
    of every device that reads its result (a result address of 0: that device does not, see
    the module docstring): each device folds 1/size of the elements (the shares
    `collective_ops` cuts), so a gradient's psum costs each of N devices 1/N of the sum and
    one copy per device that reads it."""
    into = rank  # whose result the share is folded in (then copied to the others' results)
    while into < rank + size and _peek(ctrl, results + into % size) == 0:
        into += 1
    if into == rank + size:
        return  # no device reads the result
    into %= size
    per = (n + size - 1) // size
    lo, hi = min(n, rank * per), min(n, (rank + 1) * per)
    for start in range(lo, hi, _CHUNK):
        m = min(_CHUNK, hi - start)
        mine = _view(_peek(ctrl, results + into) + start * out.itemsize, m, out)
        copy(mine, 0, _view(_peek(ctrl, slot), n, x), start, m)
        for r in range(1, size):
            _fold(mine, _view(_peek(ctrl, slot + r) + start * x.itemsize, m, x), m, kind)
        if size > 1:
            _unnan(mine, m, kind)
        for r in range(size):
            if r != into and _peek(ctrl, results + r) != 0:
                copy(_view(_peek(ctrl, results + r), n, out), start, mine, 0, m)


@register("a a p")
def exchange(x, out, p):
    """The collective `p[0]` (`SUM`, `MAX`, `MIN`, `GATHER`) of this device's `x` with the
    other devices' (see the module docstring); `p[1]`, `p[2]`: the gather's `outer` rows and
    `inner` elements per row of `x`."""
    kind, outer, inner = p[0], p[1], p[2]
    place = _place()
    ctrl, rank, unread = _peek(place, 0), _peek(place, 1), _peek(place, 2)
    chained = _peek(place, 3)
    size = _peek(ctrl, comm.SIZE)
    phase = _peek(ctrl, comm.RANKS + 8 * rank)
    _poke(ctrl, comm.RANKS + 8 * rank, 1 - phase)
    n = len(x)
    slot = comm.RANKS + 8 * size + phase * size  # comm.slots(size)
    results = slot + 2 * size
    stage_bytes = _peek(ctrl, comm.STAGE_BYTES)
    staged = n * x.itemsize <= stage_bytes
    if staged:
        at = _peek(ctrl, comm.STAGE) + (phase * size + rank) * stage_bytes
        copy(_view(at, n, x), 0, x, 0, n)
        _poke(ctrl, slot + rank, at)
    else:
        _poke(ctrl, slot + rank, _address(x))
        _poke(ctrl, results + rank, 0 if unread else _address(out))
    ok = _meet(ctrl, size)
    if ok:
        if unread and (staged or kind == GATHER):
            pass  # this device computes only its own result, which nothing reads
        elif kind == GATHER:
            for r in range(size):
                xr = _view(_peek(ctrl, slot + r), n, x)
                for o in range(outer):
                    copy(out, (o * size + r) * inner, xr, o * inner, inner)
        elif staged:
            copy(out, 0, _view(_peek(ctrl, slot), n, x), 0, n)
            for r in range(1, size):
                _fold(out, _view(_peek(ctrl, slot + r), n, x), n, kind)
            if size > 1:
                _unnan(out, n, kind)
        else:
            _reduce_share(out, x, ctrl, slot, results, size, rank, n, kind)
        if not (staged or chained):
            ok = _meet(ctrl, size)
    if not ok:
        fill(out, 0, len(out), 0)
