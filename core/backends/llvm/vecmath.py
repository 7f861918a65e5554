"""LLVM IR for the scalar function calls of generated kernels, as numba compiles them.

The direct-LLVM back end translates the loop nests of generated kernels (`core/jit/codegen.py`)
into LLVM IR without numba. Every function call a loop body can contain (`vm.exp_f32(x)`,
`np.sqrt(x)`, `math.erf(x)`, `rt.idiv(a, b)`, casts such as `np.float32(x)`, ...) becomes IR
through `emit_call`; `supported` says which calls it knows, `result_dtype` what they return.

The IR is what numba emits for the same source, instruction for instruction, so results are
bit for bit numba's (tests/core/backends/llvm/test_vecmath.py compiles both and compares):

- `vm.*_f32` follow `core/jit/vecmath.py` line by line (same coefficients, same operation order,
  same constants). numba compiles those functions with `fastmath={"contract"}`, so FMA contraction
  may fuse a product into the following add; the IR here carries the same flags on the same
  instructions, so LLVM fuses the same pairs. `erf_inv_f32`, `sin_f32`, `cos_f32` and
  `tan_f32` are `inline="always"`: numba lowers them inside the caller, with the caller's
  flags (`flags` here), except the strict operations of tan (`vecmath.STRICT_FLAGS`).
- numpy ufuncs and `math` functions call what numba's lowering calls (numba/np/npyfuncs.py,
  numba/np/math/mathimpl.py, numba/cpython/mathimpl.py): LLVM intrinsics (`llvm.exp.f64`,
  `llvm.floor.f32`, ...) or the C library (`tanhf`, `erf`, `lgamma`, `atan2`, ... declared
  `readonly nounwind`), with the kernel's fast-math flags on every float instruction and float
  call, as numba's fast-math pass sets them.
- `rt.*` follow `core/jit/runtime.py` with numba's integer typing and the kernel's flags
  (runtime.py compiles them with `codegen.OPTIONS`' fast-math flags, whoever calls them).
  Small integers widen to 64 bits, so `rt.idiv` of two int32 returns an int64 (the generated
  code casts it back); the int64 minimum divided by -1 gives 0 as in numba, which guards that
  division.
- `vm.radd`/`vm.rmul` are `fadd`/`fmul` marked `reassoc` and `contract` only
  (`core.jit.vecmath.REDUCE_FLAGS`; numba's fast-math pass does not add flags to an
  instruction that has some), `vm.maximum`/`vm.minimum` LLVM's NaN-propagating
  `llvm.maximum`/`llvm.minimum` (numpy's maximum/minimum).

Conditional expressions and `if`s become `select`s (their sides are pure values), with two
exceptions: a division whose divisor the source tests for 0 divides by a safe divisor instead
(x86 traps), and `rt.digamma` keeps numba's branches and loop (its recurrence runs a
data-dependent number of times). float16 is not supported: such kernels stay numba. Complex
values are numba's `{float, float}` pairs (`translate.py`: loads, stores, casts, `+`, `-`,
`==`, `.real`/`.imag`, `complex(a, b)` by numba's implementations; `rt.cmul`/`rt.cdiv` by
`complex_ir.py`); complex functions numba compiles as calls (`np.exp` of a complex, ...) stay
numba's, and the lowering rules expand the ones XLA expands (exp) into real operations.

Values: floats are `float`/`double`, integers `iN` (signedness comes from the dtype), booleans
`i1` (numba's value representation; `i8` arguments are accepted and tested against 0).
`rt.threefry2x32` returns numba's tuple representation, an `[2 x i32]` array value.

The IR lives in the modules this one dispatches to: `float_ir` (`_Fp` and the building
blocks), `vm_f32`, `vm_trig` and `vm_f64` (`core/jit/vecmath.py`'s kernels), `numpy_ir`
(numpy's functions and casts) and `runtime_ir` (`core/jit/runtime.py`'s). This module holds
the table of calls (`_CALLS`: what each accepts, returns and emits) and the public face:
`supported`, `result_dtype`, `emit_call`, `llvm_type`, `KERNEL_FLAGS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from llvmlite import ir

from core.backends.llvm.float_ir import (
    _BOOL,
    _F32,
    _F64,
    _FLOATS,
    _I64,
    _INTS,
    _U64,
    _c_name,
    _flush64,
    _Fp,
    _libm,
    _sqrt,
    llvm_type,  # noqa: F401  (the public face)
)
from core.backends.llvm.numpy_ir import _cast, _np_abs, _np_cbrt, _np_isfinite, _np_isnan, _to_bool
from core.backends.llvm.runtime_ir import (
    _rt_digamma,
    _rt_erf_inv_f64,
    _rt_idiv,
    _rt_irem,
    _rt_threefry2x32,
    _rt_udiv,
)
from core.backends.llvm.vm_f32 import (
    _vm_acos,
    _vm_acosh,
    _vm_asin,
    _vm_asinh,
    _vm_atan2,
    _vm_atanh,
    _vm_cbrt,
    _vm_cosh,
    _vm_erf,
    _vm_erf_inv,
    _vm_exp,
    _vm_exp2,
    _vm_expm1,
    _vm_log,
    _vm_log1p,
    _vm_log10,
    _vm_logistic,
    _vm_rsqrt,
    _vm_sinh,
    _vm_tanh,
)
from core.backends.llvm.vm_f64 import (
    _PIECES64,
    _vm_atan2_64,
    _vm_cbrt64,
    _vm_cosh64,
    _vm_digamma64,
    _vm_erf64,
    _vm_erf_inv64,
    _vm_exp2_64,
    _vm_exp64,
    _vm_expm1_64,
    _vm_lgamma64,
    _vm_log1p64,
    _vm_log64,
    _vm_logistic64,
    _vm_sinh64,
    _vm_tanh64,
)
from core.backends.llvm.vm_trig import _vm_cos, _vm_digamma, _vm_lgamma, _vm_sin, _vm_tan
from core.errors import NumbaxError
from core.jit.vecmath_ops import (
    REDUCE_FLAGS,
)
from core.jit.vecmath_trig import STRICT_FLAGS

# The generated kernels' fast-math flags (core/jit/codegen.py OPTIONS; the test checks they agree)
KERNEL_FLAGS = ("contract", "arcp")
_VM_FLAGS = ("contract",)  # core/jit/vecmath.py's functions


class UnsupportedCallError(NumbaxError, NotImplementedError):
    """A scalar call the LLVM back end has no IR for.

    Failing code: ``emit_call(builder, "np.sqrt", [n], [i4])`` (no IR for the square root of
    an integer). Fix: ask ``supported(name, dtypes)`` first and leave a loop nest that makes
    such a call to numba.
    """


class _Call:
    """One callable of generated code: which argument dtypes it takes, its result dtype, its IR
    (`emit(fp, args, dtypes)`), and the fast-math flags numba compiles it with (None: the
    calling kernel's, for what numba lowers inline)."""

    def __init__(self, accepts, result, emit, flags=None):
        self.accepts = accepts
        self.result = result
        self.emit = emit
        self.flags = flags


def _same(kinds: str, arity: int, dtypes: Sequence[np.dtype] = _FLOATS + _INTS + (_BOOL,)):
    """Accepts `arity` arguments of one dtype of the given kinds."""

    def accepts(ds):
        return len(ds) == arity and ds[0] in dtypes and ds[0].kind in kinds and len(set(ds)) == 1

    return accepts


def _first(ds):
    return ds[0]


def _unary(fn: Callable) -> Callable:
    return lambda e, args, ds: fn(e, args[0])


def _vm(fn, flags=_VM_FLAGS, dtype=_F32) -> _Call:
    return _Call(lambda ds: tuple(ds) == (dtype,), _first, _unary(fn), flags)


def _reassoc(op: str) -> _Call:
    def emit(e, args, ds):
        return getattr(e.b, op)(args[0], args[1], flags=REDUCE_FLAGS)

    return _Call(_same("f", 2), _first, emit)


def _intrinsic(name: str, kinds="f", arity=1) -> _Call:
    return _Call(_same(kinds, arity), _first, lambda e, args, ds: e.intrinsic(name, *args))


def _float_unary(fn: Callable) -> _Call:
    return _Call(_same("f", 1), _first, _unary(fn))


def _bool_result(fn: Callable) -> _Call:
    return _Call(_same("fiub", 1), lambda ds: _BOOL, lambda e, args, ds: fn(e, args[0], ds[0]))


def _int_pair(kind: str, fn: Callable, result: np.dtype) -> _Call:
    return _Call(_same(kind, 2, _INTS), lambda ds: result, lambda e, args, ds: fn(e, *args, ds))


def _minmax(op: str) -> _Call:
    """Python's builtin min/max of two integers: `b if b <op> a else a` (numba's do_minmax)."""

    def emit(e, args, ds):
        a, b = args
        cmp = e.b.icmp_signed if ds[0].kind == "i" else e.b.icmp_unsigned
        return e.b.select(cmp(op, b, a), b, a)

    return _Call(_same("iu", 2, _INTS), _first, emit)


def _where_accepts(ds):
    return len(ds) == 3 and all(d in _FLOATS + _INTS + (_BOOL,) for d in ds) and ds[1] == ds[2]


def _where(e, args, ds):
    c, a, b = args
    return e.b.select(_to_bool(e, c, ds[0]), _as_value(e, a, ds[1]), _as_value(e, b, ds[2]))


def _as_value(e, x, dtype):
    return _to_bool(e, x, dtype) if dtype == _BOOL else x


def _bitcast_accepts(ds):
    return (
        len(ds) == 2 and all(d in _FLOATS + _INTS for d in ds) and ds[0].itemsize == ds[1].itemsize
    )


_CALLS: dict[str, _Call] = {
    "vm.exp_f32": _vm(_vm_exp),
    "vm.exp2_f32": _vm(_vm_exp2),
    "vm.expm1_f32": _vm(_vm_expm1),
    "vm.log_f32": _vm(_vm_log),
    "vm.log1p_f32": _vm(_vm_log1p),
    "vm.tanh_f32": _vm(_vm_tanh),
    "vm.logistic_f32": _vm(_vm_logistic),
    "vm.rsqrt_f32": _vm(_vm_rsqrt),
    "vm.rsqrt_f64": _vm(_vm_rsqrt, dtype=_F64),
    "vm.exp_f64": _vm(_vm_exp64, (), _F64),
    "vm.exp2_f64": _vm(_vm_exp2_64, (), _F64),
    "vm.expm1_f64": _vm(_vm_expm1_64, (), _F64),
    "vm.tanh_f64": _vm(_vm_tanh64, (), _F64),
    "vm.logistic_f64": _vm(_vm_logistic64, (), _F64),
    "vm.sinh_f64": _vm(_vm_sinh64, (), _F64),
    "vm.cosh_f64": _vm(_vm_cosh64, (), _F64),
    "vm.log_f64": _vm(_vm_log64, (), _F64),
    "vm.log1p_f64": _vm(_vm_log1p64, (), _F64),
    "vm.asinh_f64": _vm(lambda e, x: _vm_asinh(e, x, _PIECES64), (), _F64),
    "vm.acosh_f64": _vm(lambda e, x: _vm_acosh(e, x, _PIECES64), (), _F64),
    "vm.atanh_f64": _vm(lambda e, x: _vm_atanh(e, x, _PIECES64), (), _F64),
    "vm.asin_f64": _vm(lambda e, x: _vm_asin(e, x, _vm_atan2_64), (), _F64),
    "vm.acos_f64": _vm(lambda e, x: _vm_acos(e, x, _vm_atan2_64), (), _F64),
    "vm.erf_f64": _vm(_vm_erf64, (), _F64),
    "vm.lgamma_f64": _vm(_vm_lgamma64, (), _F64),
    "vm.digamma_f64": _vm(_vm_digamma64, (), _F64),
    "vm.erf_inv_f64": _vm(_vm_erf_inv64, (), _F64),
    "vm.cbrt_f64": _vm(_vm_cbrt64, (), _F64),
    "vm.cbrt_f32": _vm(_vm_cbrt),
    "vm.atan_f32": _vm(lambda e, x: e.libm("atanf", x), ()),
    "vm.sqrt_f64": _vm(lambda e, x: _sqrt(e, _flush64(e, x)), (), _F64),
    "vm.tan_f64": _vm(lambda e, x: e.libm("tan", x), (), _F64),
    "vm.atan_f64": _vm(lambda e, x: e.libm("atan", x), (), _F64),
    "vm.log10_f32": _vm(_vm_log10),
    "vm.sinh_f32": _vm(_vm_sinh),
    "vm.cosh_f32": _vm(_vm_cosh),
    "vm.asinh_f32": _vm(_vm_asinh),
    "vm.acosh_f32": _vm(_vm_acosh),
    "vm.atanh_f32": _vm(_vm_atanh),
    "vm.asin_f32": _vm(_vm_asin),
    "vm.acos_f32": _vm(_vm_acos),
    "vm.atan2_f32": _Call(
        lambda ds: tuple(ds) == (_F32, _F32),
        _first,
        lambda e, args, ds: _vm_atan2(e, *args),
        _VM_FLAGS,
    ),
    "vm.pow_f64": _Call(
        lambda ds: tuple(ds) == (_F64, _F64),
        _first,
        lambda e, args, ds: _flush64(e, e.intrinsic("pow", *args)),
        (),
    ),
    "vm.atan2_f64": _Call(
        lambda ds: tuple(ds) == (_F64, _F64),
        _first,
        lambda e, args, ds: _vm_atan2_64(e, *args),
        (),
    ),
    "vm.erf_f32": _vm(_vm_erf),
    "vm.erf_inv_f32": _vm(_vm_erf_inv, flags=None),
    "vm.sin_f32": _vm(_vm_sin, flags=None),
    "vm.cos_f32": _vm(_vm_cos, flags=None),
    "vm.tan_f32": _vm(_vm_tan, flags=None),
    "vm.lgamma_f32": _vm(_vm_lgamma),
    "vm.digamma_f32": _vm(_vm_digamma),
    "vm.radd": _reassoc("fadd"),
    "vm.rmul": _reassoc("fmul"),
    "vm.sadd": _Call(
        _same("f", 2), _first, lambda e, args, ds: e.b.fadd(*args, flags=STRICT_FLAGS)
    ),
    "vm.maximum": _intrinsic("maximum", arity=2),
    "vm.minimum": _intrinsic("minimum", arity=2),
    "np.abs": _Call(_same("fiub", 1), _first, lambda e, args, ds: _np_abs(e, args[0], ds[0])),
    "np.sqrt": _float_unary(_libm("sqrt")),
    "np.floor": _intrinsic("floor"),
    "np.ceil": _intrinsic("ceil"),
    "np.trunc": _intrinsic("trunc"),
    "np.rint": _intrinsic("rint"),
    "np.exp": _intrinsic("exp"),
    "np.exp2": _intrinsic("exp2"),
    "np.log": _intrinsic("log"),
    "np.sin": _intrinsic("sin"),
    "np.cos": _intrinsic("cos"),
    "np.copysign": _intrinsic("copysign", arity=2),
    "np.fmod": _Call(_same("f", 2), _first, lambda e, args, ds: e.b.frem(*args, flags=e.flags)),
    "np.arctan2": _Call(
        _same("f", 2),
        _first,
        lambda e, args, ds: e.libm(_c_name("atan2", args[0].type), *args),
    ),
    "np.cbrt": _float_unary(_np_cbrt),
    "np.isfinite": _bool_result(_np_isfinite),
    "np.isnan": _bool_result(_np_isnan),
    "**": _intrinsic("pow", arity=2),
    "min": _minmax("<"),
    "max": _minmax(">"),
    "rt.where": _Call(_where_accepts, lambda ds: ds[1], _where),
    "rt.idiv": _int_pair("i", _rt_idiv, _I64),
    "rt.udiv": _int_pair("u", _rt_udiv, _U64),
    "rt.irem": _Call(
        _same("iu", 2, _INTS),
        lambda ds: _I64 if ds[0].kind == "i" else _U64,
        lambda e, args, ds: _rt_irem(e, *args, ds),
    ),
    "rt.popcount": _Call(
        lambda ds: tuple(ds) == (_U64,),
        lambda ds: _I64,
        lambda e, args, ds: e.b.ctpop(args[0]),
    ),
    "rt.bitcast": _Call(
        _bitcast_accepts, lambda ds: ds[1], lambda e, args, ds: e.b.bitcast(args[0], args[1].type)
    ),
    "rt.digamma": _Call(_same("f", 1), lambda ds: _F64, _unary(_rt_digamma)),
    "rt.erf_inv_f64": _Call(lambda ds: tuple(ds) == (_F64,), _first, _unary(_rt_erf_inv_f64)),
    "rt.threefry2x32": _Call(
        lambda ds: tuple(ds) == (np.dtype(np.uint32),) * 4,
        lambda ds: (ds[0], ds[0]),
        lambda e, args, ds: _rt_threefry2x32(e, *args),
    ),
}
# numpy's name -> the C function (with an "f" for float32) numba's lowering calls
_LIBM = dict(tanh="tanh", tan="tan", sinh="sinh", cosh="cosh", log1p="log1p", expm1="expm1")
_LIBM.update(arcsin="asin", arccos="acos", arctan="atan")
_LIBM.update(arcsinh="asinh", arccosh="acosh", arctanh="atanh")
for _np_name, _c in _LIBM.items():
    _CALLS[f"np.{_np_name}"] = _float_unary(_libm(_c))
_CALLS["math.erf"] = _float_unary(_libm("erf"))
_CALLS["math.lgamma"] = _float_unary(_libm("lgamma"))
for _dtype in _FLOATS + _INTS + (_BOOL,):
    _CALLS["np.bool_" if _dtype == _BOOL else f"np.{_dtype.name}"] = _Call(
        lambda ds: len(ds) == 1 and ds[0] in _FLOATS + _INTS + (_BOOL,),
        lambda ds, _dtype=_dtype: _dtype,
        lambda e, args, ds, _dtype=_dtype: _cast(e, args[0], ds[0], _dtype),
    )


def _lookup(name: str, dtypes: Sequence[np.dtype]) -> _Call | None:
    call = _CALLS.get(name)
    if call is None or not call.accepts(tuple(np.dtype(d) for d in dtypes)):
        return None
    return call


def supported(name: str, dtypes: Sequence[np.dtype]) -> bool:
    """Whether `emit_call` has IR for calling `name` on arguments of `dtypes`.

    Args:
      name: the callee as generated source spells it: `vm.exp_f32`, `np.sqrt`, `math.erf`,
        `rt.idiv`, a cast such as `np.float32`, `min`/`max`, or `**` (float power).
      dtypes: the numpy dtypes of the arguments.

    Returns:
      True if `emit_call` accepts the call.
    """
    return _lookup(name, dtypes) is not None


def result_dtype(name: str, dtypes: Sequence[np.dtype]) -> np.dtype | tuple[np.dtype, ...]:
    """The dtype numba gives the call's result (a tuple of dtypes for `rt.threefry2x32`).

    Args:
      name: the callee (see `supported`).
      dtypes: the numpy dtypes of the arguments.

    Returns:
      The result's numpy dtype, e.g. int64 for `rt.idiv` of two int32 (numba widens).
    """
    call = _lookup(name, dtypes)
    if call is None:
        raise UnsupportedCallError(_unsupported(name, dtypes))
    return call.result(tuple(np.dtype(d) for d in dtypes))


def emit_call(
    builder: ir.IRBuilder,
    name: str,
    args: Sequence[ir.Value],
    dtypes: Sequence[np.dtype],
    flags: Sequence[str] = KERNEL_FLAGS,
) -> ir.Value:
    """Emit the IR of the call `name(*args)` at the builder's position.

    Args:
      builder: positioned where the call goes (inside a loop body, typically).
      name: the callee (see `supported`).
      args: the argument values, of `llvm_type(dtype)` for their `dtypes` (bool as i1 or i8).
      dtypes: the numpy dtypes of the arguments.
      flags: the calling kernel's fast-math flags (those of numba's kernel by default), for what
        numba lowers inline in the kernel.

    Returns:
      The result, of `llvm_type(result_dtype(name, dtypes))` (`[2 x i32]` for a threefry pair).

    Raises:
      UnsupportedCallError: if `supported(name, dtypes)` is false.
    """
    call = _lookup(name, dtypes)
    if call is None:
        raise UnsupportedCallError(_unsupported(name, dtypes))
    ds = tuple(np.dtype(d) for d in dtypes)
    fp = _Fp(builder, flags if call.flags is None else call.flags)
    return call.emit(fp, list(args), ds)


def _unsupported(name: str, dtypes: Sequence[np.dtype]) -> str:
    types = ", ".join(np.dtype(d).name for d in dtypes)
    return (
        f"no LLVM IR for {name}({types}) in core/backends/llvm/vecmath.py; "
        "check `supported` first and compile the kernel with numba"
    )
