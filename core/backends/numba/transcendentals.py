"""The primitives the numba back end computes with `core.jit.vecmath`'s float32 and float64
kernels, and their eager impls, which run the same kernels so that eager results equal `jit`'s
bit for bit (and JAX's jitted ones: XLA's CPU kernels).

`VM_F32` and `VM_F64` are the one table: the lowering rules (`rules/elementwise.py`)
call `vm_kernel` to emit `vm.<kernel>(x)` in fused loops, and `EagerKernel`, registered with
`core.prims.elementwise.register_eager_kernel` for each primitive of the table, loops that kernel
over an eager operand. numpy's own float32 functions round differently (JAX and `jit` print
`sin(1.0)` as 0.84147096, numpy as 0.841471; on 1e5 float32 inputs ~40% of exp results and ~10%
of sin results differed). float16 and bfloat16 operands of most of them are computed in float32
and rounded, as XLA does on the CPU; other dtypes stay with numpy, as in the lowering.

Nothing here imports numba: the loops are compiled per kernel on the first eager call that needs
one (`eager_loops.py`, loaded then), and cached on disk.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable

import numpy as np

from core import dtypes
from core.jit import narrow
from core.primitive import Primitive
from core.prims import elementwise as ew

# primitive -> its vecmath kernel on float32 operands
VM_F32: dict[Primitive, str] = {
    ew.exp_p: "exp_f32",
    ew.exp2_p: "exp2_f32",
    ew.expm1_p: "expm1_f32",
    ew.log_p: "log_f32",
    ew.log1p_p: "log1p_f32",
    ew.tanh_p: "tanh_f32",
    ew.logistic_p: "logistic_f32",
    ew.sin_p: "sin_f32",
    ew.cos_p: "cos_f32",
    ew.tan_p: "tan_f32",
    ew.erf_p: "erf_f32",
    ew.erf_inv_p: "erf_inv_f32",
    ew.rsqrt_p: "rsqrt_f32",
    ew.cbrt_p: "cbrt_f32",  # the C library's cbrtf, atanf and atan2f, as XLA calls them
    ew.atan_p: "atan_f32",
    ew.atan2_p: "atan2_f32",
    # XLA's compositions of its kernels
    ew.asin_p: "asin_f32",
    ew.acos_p: "acos_f32",
    ew.sinh_p: "sinh_f32",
    ew.cosh_p: "cosh_f32",
    ew.asinh_p: "asinh_f32",
    ew.acosh_p: "acosh_f32",
    ew.atanh_p: "atanh_f32",
    ew.lgamma_p: "lgamma_f32",  # XLA's Lanczos expansions (CHLO's)
    ew.digamma_p: "digamma_f32",
}
# primitive -> its vecmath kernel on float64 operands: XLA's own exp and tanh and its
# compositions of them, rsqrt's estimate and Newton steps, sqrt and the C library's functions
# XLA calls where its flushing of denormals changes their results (log, erf, cbrt, pow, atan2)
# or numpy's eager functions round otherwise (tan, arctan, arctan2, cbrt, pow)
VM_F64: dict[Primitive, str] = {
    ew.exp_p: "exp_f64",
    ew.exp2_p: "exp2_f64",
    ew.expm1_p: "expm1_f64",
    ew.log_p: "log_f64",
    ew.log1p_p: "log1p_f64",
    ew.tanh_p: "tanh_f64",
    ew.logistic_p: "logistic_f64",
    ew.erf_p: "erf_f64",
    ew.erf_inv_p: "erf_inv_f64",  # XLA's expansion (Giles' polynomials)
    ew.lgamma_p: "lgamma_f64",  # XLA's Lanczos expansions (CHLO's), as for float32
    ew.digamma_p: "digamma_f64",
    ew.cbrt_p: "cbrt_f64",
    ew.tan_p: "tan_f64",  # numpy's tan and arctan round otherwise than the C library's
    ew.atan_p: "atan_f64",
    ew.atan2_p: "atan2_f64",
    ew.pow_p: "pow_f64",
    ew.rsqrt_p: "rsqrt_f64",
    ew.sqrt_p: "sqrt_f64",
    ew.asin_p: "asin_f64",
    ew.acos_p: "acos_f64",
    ew.sinh_p: "sinh_f64",
    ew.cosh_p: "cosh_f64",
    ew.asinh_p: "asinh_f64",
    ew.acosh_p: "acosh_f64",
    ew.atanh_p: "atanh_f64",
}
# XLA computes these primitives on float16 and bfloat16 in float32 and rounds the result, but
# the ones it expands into steps of its own, each rounded (`core.jit.narrow`'s
# `Format.expansions`: eager and jitted results are both JAX's, checked on every 16-bit number
# or on 5000 values each)
_NARROW = frozenset({dtypes.float16, dtypes.bfloat16})
NARROW_VIA_F32 = frozenset(p for p in VM_F32 if p.name not in narrow.FLOAT16.expansions)
BF16_VIA_F32 = frozenset(p for p in VM_F32 if p.name not in narrow.BFLOAT16.expansions)


def vm_kernel(prim: Primitive, dtype: np.dtype) -> str | None:
    """The name of the `core.jit.vecmath` function computing `prim` on `dtype` values, or None
    where the back end computes it otherwise (numpy's libm functions)."""
    if dtype == dtypes.float32:
        return VM_F32.get(prim)
    return VM_F64.get(prim) if dtype == dtypes.float64 else None


class EagerKernel:
    """The eager impl of a primitive of `VM_F32` or `VM_F64`: `kernel(*operands)` (of one shape
    and dtype, as the primitives check) is its result, or None for a dtype numpy computes. The
    loop of each dtype is made on its first call."""

    def __init__(self, prim: Primitive):
        self.prim = prim
        self._loops: dict[np.dtype, Callable | None] = {}

    def __call__(self, *xs: np.ndarray) -> np.ndarray | None:
        dtype = xs[0].dtype
        if dtype.kind == "c" and any(x.dtype != dtype for x in xs[1:]):
            return None  # a complex power of a real exponent: numpy's
        loop = self._loops.get(dtype, _UNSET)
        if loop is _UNSET:
            loop = self._loops[dtype] = self._loop(dtype)
        return None if loop is None else loop(*xs)

    def _loop(self, dtype: np.dtype) -> Callable | None:
        if dtype.kind == "c":  # XLA's expansion, as `jit` compiles it
            loops = importlib.import_module("core.backends.numba.eager_loops")
            return loops.compute_complex(self.prim, dtype)
        fmt = narrow.FORMAT_OF.get(dtype)
        if fmt is not None and self.prim.name in fmt.expansions:
            return functools.partial(narrow.eager_expansion, self.prim.name)
        via = self.prim in (BF16_VIA_F32 if dtype == dtypes.bfloat16 else NARROW_VIA_F32)
        via = via and dtype in _NARROW
        kernel = vm_kernel(self.prim, dtypes.float32 if via else dtype)
        if kernel is None:
            return None
        # numba loads on this first use (`import core` stays numba-free, as for the rules).
        loops = importlib.import_module("core.backends.numba.eager_loops")
        compiled = loops.compute(kernel, self.prim.nargs)
        return _rounded(compiled, dtype) if via else _direct(compiled)


_UNSET = object()


def _direct(compiled: Callable) -> Callable[..., np.ndarray]:
    def run(*xs: np.ndarray) -> np.ndarray:
        return compiled(*(np.ravel(x) for x in xs)).reshape(xs[0].shape)

    return run


def _rounded(compiled: Callable, dtype: np.dtype) -> Callable[..., np.ndarray]:
    """The float32 loop for a narrower float `dtype`: converted up, computed, rounded once."""

    def run(*xs: np.ndarray) -> np.ndarray:
        out = compiled(*(np.ravel(x).astype(dtypes.float32) for x in xs)).reshape(xs[0].shape)
        with np.errstate(over="ignore"):  # values beyond the dtype's range become inf silently
            return out.astype(dtype)

    return run


for _prim in {**VM_F32, **VM_F64}:
    ew.register_eager_kernel(_prim, EagerKernel(_prim))
