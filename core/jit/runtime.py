"""Small numba functions that generated kernels call (as `rt.<name>`), with lax semantics.

Also the scalar Threefry-2x32 hash (fused into loops like any elementwise op), bit casts,
digamma/erf_inv for float64, which have no libm or vecmath version, and the array
intrinsics (`empty`, `full`, `reshape`, `copy`, `ld`/`st`, `where`) that generated code
uses instead of numba's array methods, which cost compile time at every call site or a separate
compile per signature (see the comment above them).

Integer division truncates towards zero like C and XLA; division by zero gives -1 (signed) or
all ones (unsigned), the remainder by zero is the dividend, and the minimum divided by -1 is the
minimum (remainder 0), as in the numpy reference impls.
"""

from __future__ import annotations

import math

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic
from numba.np.arrayobj import (
    _empty_nd_impl,
    get_itemsize,
    load_item,
    populate_array,
    store_item,
)

# LAPACK's routines as numba wraps them (`rt.lapack.potrf_float32`, ...; core/jit/lapack.py).
from core.jit import lapack as lapack
from core.jit import vecmath
from core.jit.array_struct import array_struct

# One BLAS call on a block (core/jit/gemm.py; the kernels' matrix product is the library's
# `lib.dot`), and how parallel loops cut their work and hand it to threads (core/jit/schedule.py).
from core.jit.gemm import gemm_block as gemm_block
from core.jit.numba_cache import cached_njit
from core.jit.schedule import dynamic as dynamic
from core.jit.schedule import helpers as helpers
from core.jit.schedule import parts as parts
from core.jit.schedule import threads as threads

# Explicit fast-math flags, the generated kernels' (`codegen.OPTIONS`): without them a function
# inherits its first caller's flags and keeps them (also on disk), so `digamma`'s `0.5 / x` was
# a division or a reciprocal product depending on which caller compiled it first.
_OPTS = dict(error_model="numpy", fastmath={"contract", "arcp"}, cache=True)


@cached_njit(**_OPTS)
def idiv(a, b):
    """Signed integer division rounding towards zero; x / 0 == -1, MIN / -1 == MIN (XLA's
    wrap-around; numba's `//` gives 0)."""
    if b == 0:
        return -1
    if b == -1:
        return 0 - a  # in int64, as the function's other results
    q = a // b
    return q + 1 if (q < 0) & (q * b != a) else q


@cached_njit(**_OPTS)
def udiv(a, b):
    """Unsigned integer division; x / 0 == all ones (the caller casts to its width)."""
    return a // b if b != 0 else ~(a ^ a)


@cached_njit(**_OPTS)
def irem(a, b):
    """Integer remainder with the sign of the dividend (C's %); x % 0 == x."""
    if b == 0:
        return a
    r = a % b
    return r - b if (r != 0) & ((r < 0) != (a < 0)) else r


@cached_njit(**_OPTS)
def cmul(a, b):
    """Complex `a * b` as XLA's CPU code rounds it: two fused multiply-adds, real
    `fma(ar, br, -(ai bi))` and imaginary `fma(ai, br, ar bi)` (`core/prims/elementwise.py`)."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    return complex(vecmath.fma(ar, br, -(ai * bi)), vecmath.fma(ai, br, ar * bi))


@cached_njit(**dict(_OPTS, fastmath={"contract"}))
def cdiv(a, b):
    """Complex `a / b` as XLA divides (numba's division raises ZeroDivisionError): Smith's
    algorithm, and where it gives (nan, nan) C99's infinities and zeros: a zero divisor gives
    inf times the dividend, an infinite dividend over a finite divisor inf, a finite dividend
    over an infinite divisor 0. Its two divisions by `d` divide (with `arcp`, LLVM multiplied
    by `1 / d`: 45% of random complex64 quotients were off JAX's by an ulp); the lean back
    end's IR of it is `core/backends/llvm/complex_ir.divide`."""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    if np.abs(br) < np.abs(bi):
        t = br / bi
        d = bi + br * t
        r, i = (ar * t + ai) / d, (ai * t - ar) / d
    else:
        t = bi / br
        d = br + bi * t
        r, i = (ar + ai * t) / d, (ai - ar * t) / d
    if not (np.isnan(r) & np.isnan(i)):
        return complex(r, i)
    inf = np.inf
    if (br == 0) & (bi == 0) & ~(np.isnan(ar) & np.isnan(ai)):
        s = np.copysign(inf, br)
        return complex(s * ar, s * ai)
    a_inf, b_fin = np.isinf(ar) | np.isinf(ai), np.isfinite(br) & np.isfinite(bi)
    if a_inf & b_fin:
        sr = np.copysign(1.0 if np.isinf(ar) else 0.0, ar)
        si = np.copysign(1.0 if np.isinf(ai) else 0.0, ai)
        return complex(inf * (sr * br + si * bi), inf * (si * br - sr * bi))
    if (np.isinf(br) | np.isinf(bi)) & np.isfinite(ar) & np.isfinite(ai):
        sr = np.copysign(1.0 if np.isinf(br) else 0.0, br)
        si = np.copysign(1.0 if np.isinf(bi) else 0.0, bi)
        return complex(0.0 * (ar * sr + ai * si), 0.0 * (ai * sr - ar * si))
    return complex(r, i)


@cached_njit(**_OPTS)
def catan2(x, y):
    """Complex atan2(x, y) as XLA computes it: `-i log((y + i x) / sqrt(y^2 + x^2))`."""
    q = cdiv(y + 1j * x, np.sqrt(y * y + x * x))
    return -1j * np.log(q)


@cached_njit(**_OPTS)
def popcount(v):
    """The number of set bits of a uint64."""
    n = 0
    while v:
        v &= v - np.uint64(1)
        n += 1
    return n


@cached_njit(**_OPTS)
def digamma(x):
    """psi(x): reflection for x < 0.5, recurrence up to 6, then the asymptotic series; nan at
    the poles (x <= 0 whole, tested in floats: math.floor's int64 overflowed for -3e38)."""
    if x <= 0 and np.floor(x) == x:
        return np.nan
    acc = 0.0
    if x < 0.5:
        acc = -math.pi / math.tan(math.pi * x)
        x = 1.0 - x
    while x < 6.0:
        acc -= 1.0 / x
        x += 1.0
    z = 1.0 / (x * x)
    series = z * (1 / 12 - z * (1 / 120 - z * (1 / 252 - z * (1 / 240 - z * (1 / 132)))))
    return acc + math.log(x) - 0.5 / x - series


@cached_njit(**_OPTS)
def erf_inv_f64(x):
    """float64 erfinv: the float32 kernel refined by two Newton steps on math.erf."""
    y = np.float64(vecmath.erf_inv_f32(np.float32(x)))
    if math.isfinite(y) and abs(x) < 1:
        for _ in range(2):
            y -= (math.erf(y) - x) / (1.1283791670955126 * math.exp(-y * y))
    return y


_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))


@cached_njit(**_OPTS)
def _rotl(x, r):
    return np.uint32((x << np.uint32(r)) | (x >> np.uint32(32 - r)))


@cached_njit(**_OPTS)
def threefry2x32(k0, k1, x0, x1):
    """Threefry-2x32 (20 rounds) on uint32 scalars, JAX's bit layout; returns (y0, y1)."""
    ks = (k0, k1, np.uint32(k0 ^ k1 ^ np.uint32(0x1BD11BDA)))
    x0 = np.uint32(x0 + ks[0])
    x1 = np.uint32(x1 + ks[1])
    for i in range(5):
        rot = _ROTATIONS[i % 2]
        for j in range(4):
            x0 = np.uint32(x0 + x1)
            x1 = _rotl(x1, rot[j]) ^ x0
        x0 = np.uint32(x0 + ks[(i + 1) % 3])
        x1 = np.uint32(x1 + ks[(i + 2) % 3] + np.uint32(i + 1))
    return x0, x1


_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@cached_njit(**_OPTS)
def philox4x32(k0, k1, x0, x1, x2, x3):
    """Philox-4x32 (10 rounds) on uint32 scalars, XLA's layout; returns the four words."""
    for _ in range(10):
        p0 = np.uint64(x0) * np.uint64(0xD2511F53)
        p1 = np.uint64(x2) * np.uint64(0xCD9E8D57)
        x0, x1, x2, x3 = (
            np.uint32(np.uint32(p1 >> _S32) ^ x1 ^ k0),
            np.uint32(p1 & _M32),
            np.uint32(np.uint32(p0 >> _S32) ^ x3 ^ k1),
            np.uint32(p0 & _M32),
        )
        k0 = np.uint32(k0 + np.uint32(0x9E3779B9))
        k1 = np.uint32(k1 + np.uint32(0xBB67AE85))
    return x0, x1, x2, x3


@cached_njit(**_OPTS)
def _rbg_words(key):
    """The 64-bit key and counter of a `uint32[4]` or `uint64[2]` rng_bit_generator key."""
    if key.size == 4:
        k = np.uint64(key[0]) | (np.uint64(key[1]) << _S32)
        return k, np.uint64(key[2]) | (np.uint64(key[3]) << _S32)
    return np.uint64(key[0]), np.uint64(key[1])


@cached_njit(**_OPTS)
def _rbg_new_key(key, counter):
    out = key.copy()
    if key.size == 4:
        out[2] = np.uint32(counter & _M32)
        out[3] = np.uint32(counter >> _S32)
    else:
        out[1] = counter
    return out


@cached_njit(**_OPTS)
def _philox_counter(k0, k1, k, s, c):
    """The four Philox words of XLA's 128-bit counter `(s + c, k)` (a carry into `k`)."""
    lo = np.uint64(s + np.uint64(c))
    hi = k if lo >= s else np.uint64(k + np.uint64(1))
    return philox4x32(
        k0,
        k1,
        np.uint32(lo & _M32),
        np.uint32(lo >> _S32),
        np.uint32(hi & _M32),
        np.uint32(hi >> _S32),
    )


@cached_njit(**_OPTS)
def rbg_philox(key, out):
    """XLA's Philox RngBitGenerator: fills the flat unsigned `out` (uint8/16 take the low bits
    of 32-bit words) and returns the new key (`core/prims/rng_bit_generator.py`). Whole
    counters are stored without a bounds test (3x faster than testing every word), then the
    tail."""
    k, s = _rbg_words(key)
    k0, k1 = np.uint32(k & _M32), np.uint32(k >> _S32)
    n = out.size
    if out.itemsize == 8:  # two 64-bit words a counter
        full = n // 2
        for c in range(full):
            y0, y1, y2, y3 = _philox_counter(k0, k1, k, s, c)
            out[2 * c] = np.uint64(y0) | (np.uint64(y1) << _S32)
            out[2 * c + 1] = np.uint64(y2) | (np.uint64(y3) << _S32)
        if 2 * full < n:
            y0, y1, _, _ = _philox_counter(k0, k1, k, s, full)
            out[2 * full] = np.uint64(y0) | (np.uint64(y1) << _S32)
        return _rbg_new_key(key, np.uint64(s + np.uint64((n + 1) // 2)))
    full = n // 4
    for c in range(full):
        y0, y1, y2, y3 = _philox_counter(k0, k1, k, s, c)
        out[4 * c] = y0
        out[4 * c + 1] = y1
        out[4 * c + 2] = y2
        out[4 * c + 3] = y3
    if 4 * full < n:
        y = _philox_counter(k0, k1, k, s, full)
        for j in range(n - 4 * full):
            out[4 * full + j] = y[j]
    return _rbg_new_key(key, np.uint64(s + np.uint64((n + 3) // 4)))


@cached_njit(**_OPTS)
def rbg_threefry(key, out, outer, nd, inner):
    """XLA's Threefry RngBitGenerator: fills the flat unsigned `out`, an array of shape
    `(outer, nd, inner)` halved along `nd` (64-bit: counter per element), and returns the new
    key (`core/prims/rng_bit_generator.py`)."""
    k, s = _rbg_words(key)
    k0, k1 = np.uint32(k & _M32), np.uint32(k >> _S32)
    if out.itemsize == 8:
        for e in range(out.size):
            c = np.uint64(s + np.uint64(e))
            y0, y1 = threefry2x32(k0, k1, np.uint32(c & _M32), np.uint32(c >> _S32))
            out[e] = np.uint64(y0) | (np.uint64(y1) << _S32)
        return _rbg_new_key(key, np.uint64(s + np.uint64(out.size)))
    half = (nd + 1) // 2
    for o in range(outer):
        for h in range(half):
            for i in range(inner):
                c = np.uint64(s + np.uint64((o * half + h) * inner + i))
                y0, y1 = threefry2x32(k0, k1, np.uint32(c & _M32), np.uint32(c >> _S32))
                out[(o * nd + 2 * h) * inner + i] = y0
                if 2 * h + 1 < nd:
                    out[(o * nd + 2 * h + 1) * inner + i] = y1
    return _rbg_new_key(key, np.uint64(s + np.uint64(outer * half * inner)))


@intrinsic
def bitcast(typingctx, x, like):
    """The bits of scalar `x` reinterpreted as the type of `like` (same width)."""

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], context.get_value_type(signature.return_type))

    return like(x, like), codegen


# Array intrinsics. Generated kernels allocate, reshape, copy and multiply arrays through these
# instead of numba's `np.empty`/`reshape`/`copy`/`np.dot`: those compile a helper function per
# signature (dtype, shape arity, layout, read-only flag: 0.1-0.3 s each, a dozen or more in a
# train step, paid again by every new process whose cache is cold) and check at run time what
# generated code knows statically. An intrinsic is typed and lowered inline at its call site,
# with sizes and strides that LLVM sees as constants.


def _dtype_of(dtype) -> types.Type:
    if isinstance(dtype, types.NumberClass):
        return dtype.instance_type
    if isinstance(dtype, types.DType):
        return dtype.dtype
    raise TypingError(f"expected a numpy scalar type such as np.float32, got {dtype}")


def _sizes(shape) -> tuple:
    if isinstance(shape, types.BaseTuple) and all(isinstance(t, types.Integer) for t in shape):
        return tuple(shape)
    raise TypingError(f"expected a tuple of ints, got {shape}")


def _dims(context, builder, shape_type, shape) -> list:
    values = cgutils.unpack_tuple(builder, shape, len(shape_type))
    return [context.cast(builder, v, t, types.intp) for v, t in zip(values, shape_type)]


def _c_array(a) -> types.Array:
    if isinstance(a, types.Array) and a.layout == "C":
        return a
    raise TypingError(f"expected a C-contiguous array, got {a}")


def _item_pointer(context, builder, a, array, i, index):
    """The address of `array.flat[index]` (`index` of numba type `i`)."""
    data = builder.extract_value(array, context.data_model_manager[a].get_field_position("data"))
    return builder.gep(data, [context.cast(builder, index, i, types.intp)], inbounds=True)


@intrinsic
def cycles(typingctx):
    """The CPU's cycle counter (`llvm.readcyclecounter`: `rdtsc` on x86-64, about 10 ns), for
    the profiler's timestamps inside generated code (`core/profiler/stamps.py`)."""

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.IntType(64), []), "llvm.readcyclecounter"
        )
        return builder.call(fn, [])

    return types.int64(), codegen


@intrinsic
def ld(typingctx, a, i):
    """`a.flat[i]` for a C-contiguous `a` and a non-negative int `i` (unchecked).

    Loops in generated code index arrays through `ld`/`st` with flat offsets: numba's `a[i, j]`
    lowers to about 50 LLVM instructions (a copy of the array struct, negative-index fixes per
    axis, stride loads), these to three, which shortens both numba's lowering and LLVM's work.
    """
    if not isinstance(i, types.Integer):
        raise TypingError(f"rt.ld takes an int offset, got {i}")
    arr = _c_array(a)

    def codegen(context, builder, signature, args):
        return load_item(
            context, builder, arr, _item_pointer(context, builder, arr, args[0], i, args[1])
        )

    return arr.dtype(a, i), codegen


@intrinsic
def ptr(typingctx, a, i):
    """The address of `a.flat[i]` for a C-contiguous `a` (see `ld`), typed as a pointer to
    its dtype: what LAPACK's wrappers take (`rt.lapack.*`, `core/jit/lapack.py`)."""
    if not isinstance(i, types.Integer):
        raise TypingError(f"rt.ptr takes an int offset, got {i}")
    arr = _c_array(a)

    def codegen(context, builder, signature, args):
        return _item_pointer(context, builder, arr, args[0], i, args[1])

    return types.CPointer(arr.dtype)(a, i), codegen


@intrinsic
def st(typingctx, a, i, value):
    """`a.flat[i] = value` for a C-contiguous writable `a` (see `ld`)."""
    if not isinstance(i, types.Integer) or not _c_array(a).mutable:
        raise TypingError(f"rt.st takes a writable array and an int offset, got {a}, {i}")

    def codegen(context, builder, signature, args):
        ptr = _item_pointer(context, builder, a, args[0], i, args[1])
        store_item(context, builder, a, context.cast(builder, args[2], value, a.dtype), ptr)
        return context.get_dummy_value()

    return types.none(a, i, value), codegen


@intrinsic
def empty(typingctx, shape, dtype):
    """`np.empty(shape, dtype)` for a tuple `shape`."""
    arr = types.Array(_dtype_of(dtype), len(_sizes(shape)), "C")

    def codegen(context, builder, signature, args):
        dims = _dims(context, builder, shape, args[0])
        return _empty_nd_impl(context, builder, arr, dims)._getvalue()

    return arr(shape, dtype), codegen


@intrinsic
def full(typingctx, shape, value, dtype):
    """`np.full(shape, value, dtype)` for a tuple `shape` and a scalar `value`."""
    arr = types.Array(_dtype_of(dtype), len(_sizes(shape)), "C")

    def codegen(context, builder, signature, args):
        out = _empty_nd_impl(context, builder, arr, _dims(context, builder, shape, args[0]))
        fill = context.cast(builder, args[1], value, arr.dtype)
        with cgutils.for_range(builder, out.nitems) as loop:
            store_item(context, builder, arr, fill, builder.gep(out.data, [loop.index]))
        return out._getvalue()

    return arr(shape, value, dtype), codegen


@intrinsic
def reshape(typingctx, a, shape):
    """`a.reshape(shape)` for a C-contiguous `a` and a tuple `shape` of the same size (unchecked:
    generated code knows the sizes), a view sharing `a`'s memory."""
    view = _c_array(a).copy(ndim=len(_sizes(shape)))

    def codegen(context, builder, signature, args):
        src = array_struct(a)(context, builder, args[0])
        dims = _dims(context, builder, shape, args[1])
        itemsize = context.get_constant(types.intp, get_itemsize(context, a))
        strides, acc = [], itemsize
        for d in reversed(dims):
            strides.insert(0, acc)
            acc = builder.mul(acc, d)
        out = array_struct(view)(context, builder)
        populate_array(
            out,
            data=src.data,
            shape=dims,
            strides=strides,
            itemsize=itemsize,
            meminfo=src.meminfo,
            parent=src.parent,
        )
        return impl_ret_borrowed(context, builder, view, out._getvalue())

    return view(a, shape), codegen


@intrinsic
def copy(typingctx, a):
    """A new (writable) copy of the C-contiguous array `a`."""
    arr = _c_array(a).copy(readonly=False)

    def codegen(context, builder, signature, args):
        src = array_struct(a)(context, builder, args[0])
        dims = cgutils.unpack_tuple(builder, src.shape, a.ndim)
        out = _empty_nd_impl(context, builder, arr, dims)
        cgutils.raw_memcpy(builder, out.data, src.data, src.nitems, get_itemsize(context, a))
        return out._getvalue()

    return arr(a), codegen


@intrinsic
def where(typingctx, cond, a, b):
    """`a if cond else b` for scalars as one LLVM `select` (both operands evaluated): unlike a
    conditional expression it adds no branches, so numba's SSA passes and LLVM have less to do.
    """
    kind = typingctx.unify_types(types.unliteral(a), types.unliteral(b))
    if not isinstance(kind, (types.Number, types.Boolean)):
        raise TypingError(f"rt.where takes two numbers, got {a}, {b}")

    def codegen(context, builder, signature, args):
        c = context.cast(builder, args[0], cond, types.boolean)
        x = context.cast(builder, args[1], a, kind)
        y = context.cast(builder, args[2], b, kind)
        return builder.select(c, x, y)

    return kind(cond, a, b), codegen


@cached_njit(**_OPTS)
def contiguous(a):
    """`np.ascontiguousarray(a)` for views of any layout (a compiled, disk-cached helper)."""
    return np.ascontiguousarray(a)
