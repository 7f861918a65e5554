"""Building blocks of the library functions: segments of flat buffers, the matrix product
(BLAS for floats, a loop for integers), loops that fill and copy runs, multi-index counters.

Library code fills and copies with loops or `memcpy`/`memset`, never by assigning into slices:
that compiles numba's shape-checking and error-formatting machinery (seconds per function).
Inner loops read and write through `rt.ld`/`rt.st` (no negative-index fix-up, so LLVM can
vectorize them).
"""

from __future__ import annotations

from collections.abc import Callable

import numba
import numpy as np
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic, overload
from numba.np.arrayobj import populate_array

from core.jit import runtime as rt
from core.jit.array_struct import array_struct
from core.jit.gemm import flat_block

# Helpers are only called from library functions: no Python or C entry points to compile.
_helper = numba.njit(
    error_model="numpy",
    fastmath={"contract"},
    nogil=True,
    no_cpython_wrapper=True,
    no_cfunc_wrapper=True,
)


def jit(fn: Callable) -> Callable:
    """`fn` as a helper of library functions, compiled once per argument types, not values.

    A dispatcher called from numba code compiles a specialization for every literal constant
    it is passed (`_spatial(p, 8, nsp)`, `_spatial(p, 4, nsp)`: three copies of it, and two of
    `im2col`, each 1 s): this one types its callers' constants as their plain types."""
    disp = _helper(fn)
    template = disp.get_call_template

    def plain(args: tuple, kws: dict) -> tuple:
        return template(tuple(types.unliteral(a) for a in args), kws)

    disp.get_call_template = plain
    return disp


# Helpers called in inner loops are inlined into their callers in numba's IR: a call passing
# arrays costs reference counting and struct copies, more than these loops' bodies.
inline = numba.njit(error_model="numpy", fastmath={"contract"}, nogil=True, inline="always")


@intrinsic
def segment(typingctx, a, start, n):
    """The flat C array of the `n` elements of flat C array `a` from element `start` on
    (unchecked), sharing `a`'s memory: a slice `a[start:start + n]` without the bounds
    arithmetic numba emits for one (the parameter vectors of every library function)."""
    if not (isinstance(a, types.Array) and a.ndim == 1 and a.layout == "C"):
        raise TypingError(f"segment takes a flat C array, got {a}")

    def codegen(context, builder, signature, args):
        src = array_struct(a)(context, builder, args[0])
        begin, count = (
            context.cast(builder, v, t, types.intp) for v, t in zip(args[1:], signature.args[1:])
        )
        out = array_struct(a)(context, builder)
        populate_array(
            out,
            data=builder.gep(src.data, [begin]),
            shape=[count],
            strides=[src.itemsize],
            itemsize=src.itemsize,
            meminfo=src.meminfo,
            parent=src.parent,
        )
        return impl_ret_borrowed(context, builder, a, out._getvalue())

    return a(a, start, n), codegen


@jit
def product(a, b, out, dims, fortran, c0, c1):
    """`out[:, c0:c1] = a @ b[:, c0:c1]` on flat buffers: a (m, k) and b (k, n) stored C- or
    F-contiguously as the run-time flags `fortran` = (a_f, b_f) say (a C array read as its
    transpose is F), out (m, n) C-contiguous, dims = (m, k, n): one single-threaded BLAS call
    for floats (the chunks are cache-sized, and linking `lib.dot`'s threaded bands into every
    library function would double its compile time), a loop for integers. With the layouts
    values rather than types, every product of the library is one compiled function per
    dtype (each pair of layouts of 2-d views compiled a copy of its own, 0.1 s each)."""
    _block(a, b, out, dims, fortran, c0, c1)


def _block(a, b, out, dims, fortran, c0, c1):
    raise NotImplementedError  # numba only (see the overload)


@overload(_block)
def _block_impl(a, b, out, dims, fortran, c0, c1):
    if isinstance(out.dtype, types.Float | types.Complex):
        return lambda a, b, out, dims, fortran, c0, c1: flat_block(
            a, b, out, dims, fortran, 0, dims[0], c0, c1
        )

    def loop(a, b, out, dims, fortran, c0, c1):
        m, k, n = dims
        for i in range(m):
            for j in range(c0, c1):
                out[i * n + j] = 0
            for q in range(k):
                av = a[q * m + i] if fortran[0] else a[i * k + q]
                for j in range(c0, c1):
                    out[i * n + j] += av * (b[j * k + q] if fortran[1] else b[q * n + j])

    return loop


def _span(context, builder, ty, array, start, n, index_ty):
    """(pointer to element `start`, byte count of `n` elements) of flat C array `array`."""
    arr = array_struct(ty)(context, builder, array)
    begin = context.cast(builder, start, index_ty, types.intp)
    count = context.cast(builder, n, index_ty, types.intp)
    return builder.gep(arr.data, [begin]), builder.mul(count, arr.itemsize)


@intrinsic
def copy(typingctx, dst, at, src, start, n):
    """`dst[at:at + n] = src[start:start + n]` for flat C arrays of one dtype (a `memcpy`;
    unchecked, n >= 0)."""
    if not (isinstance(dst, types.Array) and src.dtype == dst.dtype and dst.layout == "C"):
        raise TypingError(f"copy takes flat C arrays of one dtype, got {dst}, {src}")

    def codegen(context, builder, signature, args):
        to, size = _span(context, builder, dst, args[0], args[1], args[4], signature.args[1])
        frm, _ = _span(context, builder, src, args[2], args[3], args[4], signature.args[3])
        cgutils.raw_memcpy(builder, to, frm, size, 1)
        return context.get_dummy_value()

    return types.none(dst, at, src, start, n), codegen


@intrinsic
def zero(typingctx, a, start, stop):
    """`a[start:stop] = 0` for a flat C array (a `memset`; unchecked)."""

    def codegen(context, builder, signature, args):
        n = builder.sub(args[2], args[1])
        ptr, size = _span(context, builder, a, args[0], args[1], n, signature.args[1])
        cgutils.memset(builder, ptr, size, 0)
        return context.get_dummy_value()

    return types.none(a, start, stop), codegen


@inline
def fill(a, start, stop, value):
    """`a[start:stop] = value`."""
    for j in range(start, stop):
        a[j] = value


@intrinsic
def zero_of(typingctx, a):
    """A zero of array `a`'s dtype."""

    def codegen(context, builder, signature, args):
        return context.get_constant(a.dtype, 0)

    return a.dtype(a), codegen


@jit
def prod(a):
    """The product of the ints in `a` (1 if empty)."""
    n = 1
    for j in range(len(a)):
        n *= a[j]
    return n


@inline
def advance(counter, extent, n):
    """Steps the row-major multi-index `counter[:n]` over `extent[:n]` by one (wrapping to
    zeros)."""
    carry = True
    for e in range(n):
        d = n - 1 - e
        if carry:
            v = counter[d] + 1
            carry = v >= extent[d]
            counter[d] = 0 if carry else v


@jit
def tap_table(outs, outm, taps, tapm, lo, dil, size, stride):
    """Where each window tap reads, per axis, so loops need no division: for axis d, entry
    `at[d] + a * taps[d] + t` is `stride[d] * s` if position p = a * outm[d] + t * tapm[d] - lo[d]
    of the operand dilated by `dil[d]` holds its element s (p = s * dil[d], 0 <= s < size[d]),
    else -1. Returns `(table, at)`."""
    nd = len(size)
    at = rt.empty((nd,), np.int64)
    total = 0
    for d in range(nd):
        at[d] = total
        total += outs[d] * taps[d]
    table = rt.empty((total,), np.int64)
    for d in range(nd):
        for a in range(outs[d]):
            for t in range(taps[d]):
                p = a * outm[d] + t * tapm[d] - lo[d]
                ok = p >= 0 and p % dil[d] == 0 and p // dil[d] < size[d]
                table[at[d] + a * taps[d] + t] = stride[d] * (p // dil[d]) if ok else -1
    return table, at


@jit
def strides_of(size, inner):
    """Row-major element strides of an array of `size` (then `inner` contiguous elements);
    returns `(strides, total)`."""
    stride = rt.empty((len(size),), np.int64)
    acc = inner
    for d in range(len(size) - 1, -1, -1):
        stride[d] = acc
        acc *= size[d]
    return stride, acc
