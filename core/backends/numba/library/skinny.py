"""Products with few rows (an RNN step's), without BLAS: `skinny_nn` (`out = a @ b`) and
`skinny_dot` (`out = a @ bt.T`).

A recurrent network's step multiplies a small batch of states by a large weight matrix: the
LSTM benchmark's (16, 256) x (256, 1024) per step. OpenBLAS packs the whole weight matrix into
its panel layout for each call, work that 16 rows of output cannot amortize: it ran these
products at about 50 GFLOP/s on this machine (one core). Both forms read the weights in place.

`skinny_nn` (`skinny_rows`) is the register tile of a GEMM kernel without the packing: 8 rows
by 2 vectors of columns (32 floats with AVX-512) accumulate in 16 vector registers, each step
of the contraction loading two vectors of b's row q and adding a[r, q] times them to row r's
(a broadcast operand of a fused multiply-add, `_panel`'s LLVM IR): 95-105 GFLOP/s for the
LSTM's products here (16x256x1024 82 us, 16x1024x256 83 us, one core). Each element is one
chain of fused multiply-adds over the contraction in order, so tiles of fewer rows (the
rest of the rows), of one vector or one column (the last columns) give it the same bits.

`skinny_dot` reads `bt` (the weights transposed, `(n, k)`) as rows and keeps a tile of 2 x 4
outputs in registers: each of the 8 sums is a vector accumulator over the contiguous `k` axis
(`_mul_add`: reassociable, so LLVM vectorizes the sum, and contractible, so each step is one
fused multiply-add), reduced across its lanes at the end, which costs a sum over 256 elements
a fifth of its time (80-90 GFLOP/s); it serves products whose second operand is stored
transposed and not a const of the loop (`core/jit/scan_motion.py` transposes those once).

Both share the columns between the caller's share of numba's pool once the product has
`SPLIT_FLOPS` multiply-adds, in chunks of whole tiles: each output element is computed by the
same code, in the same order, whatever the number of threads, so the result does not depend on
it. Below that, or with one thread, they run on the calling thread. The lowering of
`dot_general` uses them for products with at most `SKINNY_ROWS` rows inside loops
(`core/backends/numba/rules/linalg.py`); a scan's chunks of rows call `skinny_rows` and
`skinny_columns` on their task's thread (`core/backends/numba/scan_rows.py`).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from core.backends.numba.library.entry import RUNNER, callee, dispatcher, in_parts, register
from core.jit import runtime as rt
from core.jit.array_struct import array_struct
from core.jit.rsqrt_estimate import target_cpu

# Real products with at most this many rows whose second operand is stored transposed run here
# instead of BLAS (the lowering of `dot_general`; scans transpose their weights for it).
SKINNY_ROWS = 16
# Products contracting at most `SHORT_K` into a multiple of `SHORT_COLUMNS` columns run here
# whatever their rows (the lowering of `dot_general`): OpenBLAS packs both operands for so few
# steps of the contraction (one core: 1024x64x1024 1.81 ms against 1.35 ms here, 1024x32x1024
# 1.16 against 0.63 ms, 4096x64x64 0.36 against 0.30 ms; 1024x128x1024 3.07 against 3.20 ms).
SHORT_K = 64
SHORT_COLUMNS = 16
# Products of at least this many multiply-adds (about 10 us on one core here) share their
# columns between threads: a hand-off to a woken TBB worker costs 1-2 us.
SPLIT_FLOPS = 1 << 19
# Each thread's chunk of columns is at least this wide (a multiple of the tile's 4 columns).
MIN_COLUMNS = 32

_I64 = ir.IntType(64)
_AVX512 = "+avx512f" in target_cpu()[1].split(",")
# `skinny_rows`' tiles: rows x `_TILE_VECTORS` vectors of `_VECTOR_BYTES`, accumulated in
# registers (32 vector registers with AVX-512: 16 accumulators, 2 loaded vectors of `b`).
_VECTOR_BYTES = 64 if _AVX512 else 32
_TILE_ROWS = 8 if _AVX512 else 4
_TILE_VECTORS = 2


@intrinsic
def _mul_add(typingctx, acc, x, y):
    """`acc + x * y`, reassociable (so a sum of them vectorizes) and contractible (one fused
    multiply-add: `vm.radd(acc, x * y)` compiled to a multiply and an add, half the rate)."""

    def codegen(context, builder, signature, args):
        product = builder.fmul(args[1], args[2], flags=("reassoc", "contract"))
        return builder.fadd(args[0], product, flags=("reassoc", "contract"))

    return acc(acc, x, y), codegen


@register("a a a p", calls=("skinny_columns", "skinny_part", RUNNER))
def skinny_dot(a, bt, out, p):
    """`out = a @ bt.T` with a (m, k), bt (n, k) and out (m, n) flat C-contiguous arrays,
    p = (m, k, n): the columns split between the caller's share of the pool (whole 4-column
    tiles per thread, at least `MIN_COLUMNS`) from `SPLIT_FLOPS` multiply-adds on."""
    m, k, n = p[0], p[1], p[2]
    tiles = (n + 3) // 4
    parts = min(rt.threads(), max(1, n // MIN_COLUMNS))
    if parts < 2 or m * k * n < SPLIT_FLOPS:
        _columns(a, bt, out, p, 0, n)
        return
    _in_parts(parts, a, bt, out, p, -(-tiles // parts) * 4)


@register("a a a p i i", calls=("skinny_columns",))
def skinny_part(a, bt, out, p, width, t):
    """`skinny_dot`'s part t: columns t * width.. (t + 1) * width (`skinny_columns`)."""
    _columns(a, bt, out, p, t * width, min(p[2], (t + 1) * width))


@register("a a a p i i", optimized=True)  # quick code ran the LSTM step 15x slower
def skinny_columns(a, bt, out, p, lo, hi):
    """`out[:, lo:hi] = a @ bt[lo:hi].T` (see `skinny_dot`; scans' chunks of rows call it too,
    `core/backends/numba/scan_rows.py`): tiles of 2 rows x 4 columns, then the odd row, then
    the columns past the last whole tile one at a time."""
    m, k, n = p[0], p[1], p[2]
    zero = a.dtype.type(0)
    j = lo
    while j + 4 <= hi:
        b0, b1, b2, b3 = j * k, (j + 1) * k, (j + 2) * k, (j + 3) * k
        i = 0
        while i + 2 <= m:
            r0, r1 = i * k, (i + 1) * k
            s00 = s01 = s02 = s03 = s10 = s11 = s12 = s13 = zero
            for q in range(k):
                x0, x1 = rt.ld(a, r0 + q), rt.ld(a, r1 + q)
                y0, y1 = rt.ld(bt, b0 + q), rt.ld(bt, b1 + q)
                y2, y3 = rt.ld(bt, b2 + q), rt.ld(bt, b3 + q)
                s00, s01 = _mul_add(s00, x0, y0), _mul_add(s01, x0, y1)
                s02, s03 = _mul_add(s02, x0, y2), _mul_add(s03, x0, y3)
                s10, s11 = _mul_add(s10, x1, y0), _mul_add(s11, x1, y1)
                s12, s13 = _mul_add(s12, x1, y2), _mul_add(s13, x1, y3)
            o0, o1 = i * n + j, (i + 1) * n + j
            rt.st(out, o0, s00)
            rt.st(out, o0 + 1, s01)
            rt.st(out, o0 + 2, s02)
            rt.st(out, o0 + 3, s03)
            rt.st(out, o1, s10)
            rt.st(out, o1 + 1, s11)
            rt.st(out, o1 + 2, s12)
            rt.st(out, o1 + 3, s13)
            i += 2
        if i < m:
            r0 = i * k
            s00 = s01 = s02 = s03 = zero
            for q in range(k):
                x0 = rt.ld(a, r0 + q)
                s00 = _mul_add(s00, x0, rt.ld(bt, b0 + q))
                s01 = _mul_add(s01, x0, rt.ld(bt, b1 + q))
                s02 = _mul_add(s02, x0, rt.ld(bt, b2 + q))
                s03 = _mul_add(s03, x0, rt.ld(bt, b3 + q))
            o0 = i * n + j
            rt.st(out, o0, s00)
            rt.st(out, o0 + 1, s01)
            rt.st(out, o0 + 2, s02)
            rt.st(out, o0 + 3, s03)
        j += 4
    for jj in range(j, hi):
        for i in range(m):
            s = zero
            for q in range(k):
                s = _mul_add(s, rt.ld(a, i * k + q), rt.ld(bt, jj * k + q))
            rt.st(out, i * n + jj, s)


_columns = callee("skinny_columns")
_in_parts = in_parts("skinny_part")


def _int(v: int) -> ir.Constant:
    return ir.Constant(_I64, v)


def _fma(builder: ir.IRBuilder, ty: ir.Type) -> ir.Function:
    """LLVM's fused multiply-add of `ty` (a float or a vector of floats): one rounding, the
    same bits whatever the vector width, so every tile shape computes an element alike."""
    vector = isinstance(ty, ir.VectorType)
    elem = ty.element if vector else ty
    suffix = "f32" if isinstance(elem, ir.FloatType) else "f64"
    name = f"llvm.fma.v{ty.count}{suffix}" if vector else f"llvm.fma.{suffix}"
    return cgutils.get_or_insert_function(builder.module, ir.FunctionType(ty, [ty] * 3), name)


def _emit_tile(builder, ptrs, sizes, i, j, rows: int, ty: ir.Type, vectors: int) -> None:
    """Rows i.. i + rows of `out[:, j:j + vectors * lanes] = a @ b[:, j:...]` (a (m, k), b
    (k, n), out (m, n) flat row-major; `ptrs` their data, `sizes` (k, n)): rows x vectors
    accumulators of type `ty` (a vector, or a float for single columns), one loop over the
    contraction that loads `vectors` of b's row q and adds a[r, q] times them to each row's
    (a broadcast operand of the fused multiply-add), then one store per accumulator."""
    a, b, out = ptrs
    k, n = sizes
    lanes = ty.count if isinstance(ty, ir.VectorType) else 1
    elem = ty.element if lanes > 1 else ty
    align = 4 if isinstance(elem, ir.FloatType) else 8
    zero, fma = ir.Constant(ty, None), _fma(builder, ty)
    row_of = [builder.add(i, _int(r)) for r in range(rows)]
    a_rows = [builder.gep(a, [builder.mul(r, k)]) for r in row_of]
    before = builder.block
    loop = builder.append_basic_block("tile_loop")
    done = builder.append_basic_block("tile_done")
    builder.cbranch(builder.icmp_signed(">", k, _int(0)), loop, done)
    builder.position_at_end(loop)
    q = builder.phi(_I64)
    q.add_incoming(_int(0), before)
    acc = [[builder.phi(ty) for _ in range(vectors)] for _ in range(rows)]
    for p in (p for row in acc for p in row):
        p.add_incoming(zero, before)
    b_row = builder.gep(b, [builder.add(builder.mul(q, n), j)])
    loaded = []
    for w in range(vectors):
        at = builder.bitcast(builder.gep(b_row, [_int(w * lanes)]), ty.as_pointer())
        loaded.append(builder.load(at, align=align))
    new = []
    for r in range(rows):
        x = builder.load(builder.gep(a_rows[r], [q]))
        if lanes > 1:  # a[r, q] in every lane
            x = builder.insert_element(ir.Constant(ty, ir.Undefined), x, ir.IntType(32)(0))
            lane0 = ir.Constant(ir.VectorType(ir.IntType(32), lanes), [0] * lanes)
            x = builder.shuffle_vector(x, ir.Constant(ty, ir.Undefined), lane0)
        new.append([builder.call(fma, [x, loaded[w], acc[r][w]]) for w in range(vectors)])
    q_next = builder.add(q, _int(1))
    end = builder.block
    q.add_incoming(q_next, end)
    for r in range(rows):
        for w in range(vectors):
            acc[r][w].add_incoming(new[r][w], end)
    builder.cbranch(builder.icmp_signed("<", q_next, k), loop, done)
    builder.position_at_end(done)
    results = [[builder.phi(ty) for _ in range(vectors)] for _ in range(rows)]
    for r in range(rows):
        o_row = builder.gep(out, [builder.add(builder.mul(row_of[r], n), j)])
        for w in range(vectors):
            results[r][w].add_incoming(zero, before)
            results[r][w].add_incoming(new[r][w], end)
            at = builder.bitcast(builder.gep(o_row, [_int(w * lanes)]), ty.as_pointer())
            builder.store(results[r][w], at, align=align)


def _emit_rows(builder, ptrs, sizes, m, j, ty: ir.Type, vectors: int) -> None:
    """All m rows of the columns `_emit_tile` computes at j: tiles of `_TILE_ROWS` rows, then
    one of each smaller power of two the rest needs."""
    full = builder.udiv(m, _int(_TILE_ROWS))
    with cgutils.for_range(builder, full) as loop:
        i = builder.mul(loop.index, _int(_TILE_ROWS))
        _emit_tile(builder, ptrs, sizes, i, j, _TILE_ROWS, ty, vectors)
    base = builder.mul(full, _int(_TILE_ROWS))
    rest = builder.sub(m, base)
    rows = _TILE_ROWS // 2
    while rows:
        with builder.if_then(builder.icmp_signed("!=", builder.and_(rest, _int(rows)), _int(0))):
            done = builder.and_(rest, _int(~(2 * rows - 1)))  # the rows the larger tiles took
            _emit_tile(builder, ptrs, sizes, builder.add(base, done), j, rows, ty, vectors)
        rows //= 2


@intrinsic
def _panel(typingctx, a, b, out, m, k, n, j, hi):
    """`out[:, j:j + c] = a @ b[:, j:j + c]` for every row (see `skinny_rows`), c the widest
    of `_TILE_VECTORS` vectors, one vector or one column that fits before `hi`; returns c."""

    def codegen(context, builder, signature, args):
        arrays = zip(signature.args[:3], args[:3])
        ptrs = [array_struct(t)(context, builder, v).data for t, v in arrays]
        m_, k_, n_, j_, hi_ = (
            context.cast(builder, v, t, types.int64) for v, t in zip(args[3:], signature.args[3:])
        )
        elem = context.get_value_type(signature.args[0].dtype)
        lanes = _VECTOR_BYTES // (signature.args[0].dtype.bitwidth // 8)
        vec = ir.VectorType(elem, lanes)
        left = builder.sub(hi_, j_)
        taken = cgutils.alloca_once(builder, _I64)
        with builder.if_else(builder.icmp_signed(">=", left, _int(_TILE_VECTORS * lanes))) as (
            wide,
            narrow,
        ):
            with wide:
                _emit_rows(builder, ptrs, (k_, n_), m_, j_, vec, _TILE_VECTORS)
                builder.store(_int(_TILE_VECTORS * lanes), taken)
            with (
                narrow,
                builder.if_else(builder.icmp_signed(">=", left, _int(lanes))) as (
                    one,
                    single,
                ),
            ):
                with one:
                    _emit_rows(builder, ptrs, (k_, n_), m_, j_, vec, 1)
                    builder.store(_int(lanes), taken)
                with single:
                    _emit_rows(builder, ptrs, (k_, n_), m_, j_, elem, 1)
                    builder.store(_int(1), taken)
        return builder.load(taken)

    return types.int64(a, b, out, m, k, n, j, hi), codegen


@register("a a a p i i", optimized=True)
def skinny_rows(a, b, out, p, lo, hi):
    """`out[:, lo:hi] = a @ b[:, lo:hi]` with a (m, k), b (k, n) and out (m, n) flat
    C-contiguous, p = (m, k, n): tiles of `_TILE_ROWS` rows by `_TILE_VECTORS` vectors of b's
    rows (`_panel`). Each element is one chain of fused multiply-adds over the contraction in
    order, so its bits do not depend on the tile that computed it (the row chunks of a scan,
    the threads' columns)."""
    m, k, n = p[0], p[1], p[2]
    j = lo
    while j < hi:
        j += _panel(a, b, out, m, k, n, j, hi)


@register("a a a p", calls=("skinny_rows", "skinny_rows_part", RUNNER))
def skinny_nn(a, b, out, p):
    """`out = a @ b` with a (m, k), b (k, n) and out (m, n) flat C-contiguous arrays, p = (m,
    k, n) (`skinny_rows`): the columns split between the caller's share of the pool (at
    least `MIN_COLUMNS` a thread) from `SPLIT_FLOPS` multiply-adds on."""
    m, k, n = p[0], p[1], p[2]
    parts = min(rt.threads(), max(1, n // MIN_COLUMNS))
    if parts < 2 or m * k * n < SPLIT_FLOPS:
        _rows(a, b, out, p, 0, n)
        return
    width = -(-n // parts)
    _rows_in_parts(parts, a, b, out, p, -(-width // MIN_COLUMNS) * MIN_COLUMNS)


@register("a a a p i i", calls=("skinny_rows",))
def skinny_rows_part(a, b, out, p, width, t):
    """`skinny_nn`'s part t: columns t * width.. (t + 1) * width (`skinny_rows`)."""
    _rows(a, b, out, p, t * width, min(p[2], (t + 1) * width))


_rows = callee("skinny_rows")
_rows_in_parts = in_parts("skinny_rows_part")


def dot_nn(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """`out[...] = a @ b` by `skinny_nn`, from Python (tests and benchmarks).

    Args:
      a: an (m, k) C-contiguous float matrix.
      b: a (k, n) C-contiguous matrix of the same dtype.
      out: the (m, n) C-contiguous result, written in place.
    """
    _product("skinny_nn", a, b, b.shape[1], out)


def dot_nt(a: np.ndarray, bt: np.ndarray, out: np.ndarray) -> None:
    """`out[...] = a @ bt.T` by `skinny_dot`, from Python (tests and benchmarks).

    Args:
      a: an (m, k) C-contiguous float matrix.
      bt: an (n, k) C-contiguous matrix of the same dtype.
      out: the (m, n) C-contiguous result, written in place.
    """
    _product("skinny_dot", a, bt, bt.shape[0], out)


def _product(name: str, a: np.ndarray, b: np.ndarray, n: int, out: np.ndarray) -> None:
    """Calls the compiled `name` on `a` (m, k) and its second operand `b` for the (m, n) `out`."""
    p = np.array([a.shape[0], a.shape[1], n], np.int64)
    dispatcher(f"{name}__{out.dtype.str[1:]}")(a.ravel(), b.ravel(), out.reshape(-1), p)
