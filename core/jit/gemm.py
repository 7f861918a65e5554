"""BLAS products emitted into compiled code: one single-threaded BLAS call on a block.

OpenBLAS runs single-threaded under numbax (`core/jit/threads.py`): its own thread pool
splits every product statically between threads that busy-wait for work and for each other,
so a product whose second thread lost its core to another process waits a scheduler time
slice (measured on this 2-core machine with one competing process: a 1024x512x128 sgemm 1.3 ms
on one thread, 10 ms on two OpenBLAS threads). Instead the kernels' product (`lib.dot`,
`core/backends/numba/library/products.py`, built on the emitters here) cuts a large product
into bands of rows (or of columns, when the output is wider than tall) and runs one
single-threaded BLAS call per band under `prange`, on numba's threading layer (TBB, whose idle
workers sleep and take the bands dynamically, `core/jit/schedule.py`): one pool for fused loops
and products, sized by the thread policy, never more threads than the caller's share
(`numba.get_num_threads()`, per device thread).

`register_blas` names the BLAS: the OpenBLAS that numpy bundles, its kernels chosen for this CPU
(`core/blas_kernels.py`: its AVX2 ones on Zen 4, where they beat its AVX-512 ones).

Library code that parallelizes at a coarser grain (a convolution's batch parts, each filled
into the part's own buffer and multiplied there) multiplies with `gemm_block` (one BLAS call,
no nested bands).
"""

from __future__ import annotations

import ctypes
import functools

from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.core.errors import TypingError
from numba.extending import intrinsic
from numba.np import linalg
from numba.np.ufunc import parallel

from core import blas_kernels
from core.jit import fork_safety
from core.jit.array_struct import array_struct

# The pool starts now, not at the first call: cached code that asks for the caller's thread count
# links against the symbols that starting it registers.
fork_safety.configure()
parallel._launch_threads()
_OPTS = dict(error_model="numpy", cache=True, nogil=True)  # of cached helpers (bgemm.py)
_BLAS_DTYPES = (types.float32, types.float64, types.complex64, types.complex128)
_I8 = ir.IntType(8)


def _gemm_fn(builder: ir.IRBuilder, kind: str) -> ir.Function:
    """The Fortran `?gemm` (`kind` s, d, c or z) that `register_blas` named: every argument a
    pointer, sizes integers of the registered BLAS's width (`_blas_ints`)."""
    fnty = ir.FunctionType(ir.VoidType(), [cgutils.voidptr_t] * 13)
    return cgutils.get_or_insert_function(builder.module, fnty, _symbol(kind, _blas_ints()))


def _symbol(kind: str, bits: int) -> str:
    """The LLVM symbol of the registered `?gemm` taking `bits`-bit integers: the width is in the
    name, so that cached code calling the other width never links to it."""
    return f"numbax_{kind}gemm" if bits == 32 else f"numbax_{kind}gemm_i{bits}"


def _capsule_pointer(capsule) -> int:
    """The pointer a Cython `__pyx_capi__` capsule holds."""
    api = ctypes.pythonapi
    api.PyCapsule_GetName.restype = ctypes.c_char_p
    api.PyCapsule_GetName.argtypes = [ctypes.py_object]
    api.PyCapsule_GetPointer.restype = ctypes.c_void_p
    api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return api.PyCapsule_GetPointer(capsule, api.PyCapsule_GetName(capsule))


# The OpenBLAS builds numpy's and scipy's wheels bundle, in order of preference: (package,
# directory beside it, file pattern, symbol suffix, integer bits). numpy's (0.3.31 here, ILP64)
# multiplies a transposed left operand over a long contraction faster than scipy's (0.3.30):
# on this machine's AVX-512 EPYC, one core, the LSTM step's 64x1024x1024 weight gradient (`X^T
# DZ`) 1.88 against 2.99 ms, a 288x6272x64 convolution kernel gradient 3.98 against 5.27 ms, a
# 128x3136x256 product 2.81 against 3.32 ms; untransposed operands within a few percent.
_BUNDLED = (
    ("numpy", "numpy.libs", "*openblas64*", "_64_", 64),
    ("scipy", "scipy.libs", "*blas*", "_", 32),
)


def _gemms(path: str, suffix: str) -> dict[str, int] | None:
    """The addresses of the `scipy_?gemm<suffix>` of the library at `path` (its kernels chosen
    for this CPU: `core/blas_kernels.py`), or None."""
    try:
        lib = ctypes.CDLL(path)
        found = {
            k: ctypes.cast(getattr(lib, f"scipy_{k}gemm{suffix}"), ctypes.c_void_p).value
            for k in "sdcz"
        }
    except (OSError, AttributeError):
        return None
    blas_kernels.prefer_avx2(lib)
    _LOADED.append(lib)
    return found


_LOADED: list[ctypes.CDLL] = []  # the library `register_blas` loaded (`_gemms`)


def blas_core() -> str:
    """The kernels of the OpenBLAS that compiled products call, as OpenBLAS names them
    (`gotoblas_corename`: "Haswell", "SkylakeX", ...); "" when that is not known."""
    return blas_kernels.core_name(_LOADED[0]) if _LOADED else ""


def _bundled_blas() -> tuple[dict[str, int], int] | None:
    """The `?gemm` of the OpenBLAS that numpy's or scipy's wheels bundle (`_BUNDLED`: symbols
    `scipy_?gemm_64_` or `scipy_?gemm_`, what `scipy.linalg.cython_blas` calls), loaded by
    path, and its integer width; None if neither is there."""
    for package, directory, pattern, suffix, bits in _BUNDLED:
        for path in blas_kernels.bundled_libraries(package, directory, pattern):
            found = _gemms(path, suffix)
            if found is not None:
                return found, bits
    return None


@functools.cache
def register_blas() -> int:
    """Names the BLAS of compiled products for LLVM (`_symbol`): the OpenBLAS bundled with
    numpy, else scipy's (`_bundled_blas`), loaded by path (importing `scipy.linalg` for its
    `cython_blas`, what numba does at its first product, takes 0.3 s of CPU with the numpy
    submodules it reads); without either, scipy's `cython_blas` is imported. The library's
    threads are set with the others' (`core/jit/threads.py`).

    Returns:
      The width of the BLAS's integers (32 or 64), 0 if there is no BLAS.
    """
    bundled = _bundled_blas()
    if bundled is None:
        try:
            from scipy.linalg import cython_blas  # noqa: PLC0415 (no bundled library)
        except ImportError:
            return 0
        bundled = {k: _capsule_pointer(cython_blas.__pyx_capi__[f"{k}gemm"]) for k in "sdcz"}, 32
    found, bits = bundled
    for kind, address in found.items():
        llvm.add_symbol(_symbol(kind, bits), address)
    return bits


register_blas()  # now: cached machine code names these symbols


def _blas_ints() -> int:
    """The integer width of the registered BLAS (32 when there is none: calls are never made)."""
    return register_blas() or 32


def ensure_blas() -> None:
    """Raises numba's `ImportError` if there is no BLAS for compiled products (`register_blas`)."""
    if not register_blas():
        linalg.ensure_blas()


def check_operands(a, b, out) -> None:
    arrays = (a, b, out)
    if not (
        all(isinstance(t, types.Array) and t.ndim == 2 and t.dtype == out.dtype for t in arrays)
        and out.dtype in _BLAS_DTYPES
        and a.layout in "CF"
        and b.layout in "CF"
        and out.layout == "C"
    ):
        raise TypingError(f"lib.dot takes 2-d C/F-contiguous float matrices, got {arrays}")
    ensure_blas()


def emit_gemm(context, builder, dtype, ptrs, dims, fortran, rows, cols) -> None:
    """Emits `out[r0:r1, c0:c1] = a[r0:r1] @ b[:, c0:c1]` (zeros when k == 0, nothing for an
    empty block). `ptrs` are the data pointers of a (m, k), b (k, n) and the C-contiguous out;
    `fortran` says (as i1 values) whether a and b are F-contiguous; `rows`/`cols` are the
    (start, stop) of the block."""
    x, y, c = ptrs
    m, k, n = dims
    a_f, b_f = fortran
    (lo_r, hi_r), (lo_c, hi_c) = rows, cols
    nrows, ncols = builder.sub(hi_r, lo_r), builder.sub(hi_c, lo_c)
    zero = context.get_constant(types.intp, 0)
    itemsize = context.get_constant(types.intp, context.get_abi_sizeof(c.type.pointee))
    c_ptr = builder.gep(c, [builder.add(builder.mul(lo_r, n), lo_c)])
    empty = builder.or_(
        builder.icmp_signed("<=", nrows, zero), builder.icmp_signed("<=", ncols, zero)
    )
    with builder.if_else(builder.icmp_signed("==", k, zero)) as (no_k, some_k):
        with no_k, cgutils.for_range(builder, builder.select(empty, zero, nrows)) as loop:
            row = builder.gep(c_ptr, [builder.mul(loop.index, n)])
            cgutils.memset(builder, row, builder.mul(ncols, itemsize), 0)
        with some_k, builder.if_then(builder.not_(empty)):
            b_ptr = builder.gep(y, [builder.select(b_f, builder.mul(lo_c, k), lo_c)])
            a_ptr = builder.gep(x, [builder.select(a_f, lo_r, builder.mul(lo_r, k))])
            emit_call(
                context,
                builder,
                dtype,
                (a_ptr, builder.select(a_f, m, k), a_f),
                (b_ptr, builder.select(b_f, k, n), b_f),
                (c_ptr, n),
                (nrows, k, ncols),
            )


def emit_call(context, builder, dtype, a, b, c, dims) -> None:
    """Emits one BLAS gemm `C = A @ B` on row-major matrices given by pointers: `a` and `b` are
    `(pointer, leading dimension, transposed)` (transposed, an i1: the matrix is stored
    column-major, as the `.T` of a C-contiguous array), `c` is `(pointer, leading dimension)`
    (row-major), `dims` = (rows, k, columns), all intp values."""
    (a_ptr, lda, a_t), (b_ptr, ldb, b_t), (c_ptr, ldc) = a, b, c
    nrows, k, ncols = dims
    # Row-major C = A @ B is column-major C.T = B.T @ A.T: BLAS's first operand is B, whose
    # row-major layout is a column-major B.T.
    char = {v: ir.Constant(_I8, ord(v)) for v in "nt"}
    one, nil = (linalg.make_constant_slot(context, builder, dtype, v) for v in (1, 0))

    def slot(ty: ir.Type, value: ir.Value) -> ir.Value:  # Fortran passes everything by address
        ptr = cgutils.alloca_once(builder, ty)
        builder.store(value, ptr)
        return builder.bitcast(ptr, cgutils.voidptr_t)

    def integer(v: ir.Value) -> ir.Value:  # BLAS's integers: 32 or 64 bits (`_blas_ints`)
        ty = ir.IntType(_blas_ints())
        return slot(ty, v if ty.width == v.type.width else builder.trunc(v, ty))

    tb, ta = (slot(_I8, builder.select(t, char["t"], char["n"])) for t in (b_t, a_t))
    ptr = [builder.bitcast(p, cgutils.voidptr_t) for p in (one, b_ptr, a_ptr, nil, c_ptr)]
    operands = [tb, ta, integer(ncols), integer(nrows), integer(k), ptr[0], ptr[1], integer(ldb)]
    operands += [ptr[2], integer(lda), ptr[3], ptr[4], integer(ldc)]
    builder.call(_gemm_fn(builder, linalg.get_blas_kind(dtype)), operands)


def is_fortran(layout: str) -> ir.Constant:
    return ir.Constant(ir.IntType(1), layout == "F")


@intrinsic
def gemm_block(typingctx, a, b, out, r0, r1, c0, c1):
    """`out[r0:r1, c0:c1] = a[r0:r1] @ b[:, c0:c1]`: one BLAS gemm call on the block, in place.

    `a` (m, k) and `b` (k, n) are C- or F-contiguous (a `.T` of a C-contiguous array is F),
    `out` (m, n) is C-contiguous, the shapes agree and the bounds are in range (unchecked).
    An empty block does nothing; an empty contraction (k == 0) writes zeros.
    """
    check_operands(a, b, out)

    def codegen(context, builder, signature, args):
        x, y, o = (array_struct(t)(context, builder, v) for t, v in zip((a, b, out), args))
        m, k = cgutils.unpack_tuple(builder, x.shape)
        n = cgutils.unpack_tuple(builder, y.shape)[1]
        bounds = [
            context.cast(builder, v, t, types.intp) for v, t in zip(args[3:], signature.args[3:])
        ]
        emit_gemm(
            context,
            builder,
            out.dtype,
            (x.data, y.data, o.data),
            (m, k, n),
            (is_fortran(a.layout), is_fortran(b.layout)),
            bounds[:2],
            bounds[2:],
        )
        return context.get_dummy_value()

    return types.none(a, b, out, r0, r1, c0, c1), codegen


@intrinsic
def flat_block(typingctx, a, b, out, dims, fortran, r0, r1, c0, c1):
    """`gemm_block` on flat buffers: a (m, k) and b (k, n) stored C- or F-contiguously as
    `fortran` = (a_f, b_f) says, out (m, n) C-contiguous, `dims` = (m, k, n)."""

    def codegen(context, builder, signature, args):
        x, y, o = (array_struct(t)(context, builder, v) for t, v in zip((a, b, out), args))
        f_a, f_b = cgutils.unpack_tuple(builder, args[4])
        bounds = [
            context.cast(builder, v, t, types.intp) for v, t in zip(args[5:], signature.args[5:])
        ]
        emit_gemm(
            context,
            builder,
            out.dtype,
            (x.data, y.data, o.data),
            cgutils.unpack_tuple(builder, args[3]),
            (builder.trunc(f_a, ir.IntType(1)), builder.trunc(f_b, ir.IntType(1))),
            bounds[:2],
            bounds[2:],
        )
        return context.get_dummy_value()

    return types.none(a, b, out, dims, fortran, r0, r1, c0, c1), codegen


@intrinsic
def flat_slab(typingctx, a, b, out, dims, fortran, k0, k1):
    """`out = a[:, k0:k1] @ b[k0:k1]` on flat buffers (as `flat_block`: a (m, k) and b (k, n)
    stored C- or F-contiguously as `fortran` says, out (m, n) C-contiguous, `dims` = (m, k,
    n)): one BLAS call on a slab of the contraction."""

    def codegen(context, builder, signature, args):
        x, y, o = (array_struct(t)(context, builder, v) for t, v in zip((a, b, out), args))
        m, k, n = cgutils.unpack_tuple(builder, args[3])
        f_a, f_b = (builder.trunc(f, ir.IntType(1)) for f in cgutils.unpack_tuple(builder, args[4]))
        lo, hi = (
            context.cast(builder, v, t, types.intp) for v, t in zip(args[5:], signature.args[5:])
        )
        a_ptr = builder.gep(x.data, [builder.select(f_a, builder.mul(lo, m), lo)])
        b_ptr = builder.gep(y.data, [builder.select(f_b, lo, builder.mul(lo, n))])
        emit_call(
            context,
            builder,
            out.dtype,
            (a_ptr, builder.select(f_a, m, k), f_a),
            (b_ptr, builder.select(f_b, k, n), f_b),
            (o.data, n),
            (m, builder.sub(hi, lo), n),
        )
        return context.get_dummy_value()

    return types.none(a, b, out, dims, fortran, k0, k1), codegen
