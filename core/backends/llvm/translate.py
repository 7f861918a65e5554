"""Loop nests of the kernel language as LLVM IR: typing and lowering, statement by statement.

A loop nest of a generated kernel is a `for` statement (or a `while_loop`'s `while True:`) of
a small closed language: SSA-like assignments of scalars (`x += v` too, `a, b, = x, y,` for a
loop's carries), `for i in range(...)` loops (`continue` too), `while` loops (`break` too),
`if` statements, `rt.threads()`, `rt.helpers()`, `rt.ld(a, flat)`,
`rt.st(a, flat, v)`, LAPACK calls through numba's wrappers (`rt.lapack.<routine>_<dtype>`,
`core/jit/lapack.py`, by their C symbols; arrays passed as `rt.ptr(a, flat)`),
`rt.where(c, x, y)`, scalar arithmetic, comparisons and bit operations,
`np.float32(x)`-style casts, `np.*`/`math.*` functions of scalars and the `vm.*` math of
`core/jit/vecmath.py`. Scalars are real, boolean or complex (numba's pair of floats: `x.real`,
`x.imag`, `complex(a, b)`, `np.complex64(x)`, `+`, `-`, `==` as numba lowers them, and the
kernels' `rt.cmul`/`rt.cdiv` as `complex_ir.py` writes them). `Nest` types it and writes it
as one LLVM function

    define void @<name>(ptr <array data>..., <scalar>..., ptr <output>...)

whose arrays are flat data pointers (int64 offsets, as `rt.ld` indexes them), whose scalars are
the nest's free variables and whose outputs are pointers through which it returns the scalars
the kernel reads after the nest. A threaded nest, `for i in prange(n)` (none of whose scalars the
kernel reads after it), packs its parameters on its stack and runs its iterations on numba's
threads (`parallel.emit_for`) through an outlined `<name>.body(data, lo, hi)`, which unpacks
them and runs `for i in range(lo, hi)` with the nest's body: each iteration the same code as
the serial nest's.

It does not re-implement numba's semantics: a name's type and every operation's result type are
what numba's typing context says for the same operands (int32 + int32 is int64, float32 <
float64 compares in float64, ...), and each operator, cast and `np.*`/`math.*` function is lowered
by numba's own implementation for that signature, with the error model the kernels compile
with ("numpy": an integer division by zero gives 0, no exception). What is ours is the
structure: loops, `if`, variables (an `alloca` each, which LLVM promotes to registers), the
array accesses, `rt.where`, `vm.radd`/`rmul` (reassociable, as in vecmath) and
`vm.maximum`/`minimum`. Anything else, or an implementation that needs numba's calling
convention (functions numba compiles rather than inlines), raises `Unsupported`: the caller
keeps that nest numba code, so a construct this module does not know never gives a wrong
answer. Other `vm.*` functions are emitted by `core/backends/llvm/vecmath.py` where it has
them. Float operations get the kernels' fastmath flags (`contract`, `arcp`,
`core/jit/codegen.OPTIONS`) as numba's fastmath pass gives them, and then `settle.py` makes the
choices they leave to LLVM (so that both compile tiers compute the same bits): the translator
itself writes a division by a loop-invariant divisor as a multiplication by its reciprocal
(`variant_names`) and a float sum over a loop in the lanes of `LANES`.
"""

from __future__ import annotations

import ast
import functools
import math
import operator

import numpy as np
from llvmlite import ir
from numba.core import cgutils, types

from core.backends.llvm import complex_ir, parallel, settle
from core.backends.llvm import target as lean_target
from core.errors import NumbaxError
from core.jit import lapack
from core.jit.vecmath_ops import (
    REDUCE_FLAGS,
)
from core.jit.vecmath_trig import STRICT_FLAGS

_I64 = ir.IntType(64)
_PTR = ir.PointerType()
# A float sum or product over an innermost loop (`acc = vm.radd(acc, x)`, `vm.rmul`) is folded
# in this many lanes, by dtype: lane j folds the iterations j, j + LANES, ... of each whole
# block of LANES iterations, in order (the accumulator's value before the loop starts lane 0);
# then the lanes are folded by parts of the vector width (the second number), lane by lane, the
# part's lanes by halves, and the iterations left over, in order (a block's `x * y` folds with
# one rounding, as O3 contracted it). That order is written in the IR (`Nest._lanes`), so O3
# vectorizes the blocks with no reassociation and the quick tier computes the same bits
# (`core/backends/llvm/settle.py`); with reassociable adds, O3 chose lanes of its own (by loop
# and CPU) and the quick tier summed in order. Sums as fast as O3's own (`vm.radd` loops of
# 37 to 4097 iterations, float32 and float64, with products, stores and exp in the body).
LANES = {"float32": (32, 8), "float64": (16, 4)}
# The folds that lanes take, by the kernel language's call, and each one's identity. A maximum
# or minimum (LLVM's NaN-propagating `llvm.maximum`/`minimum`, -0 below +0) has one value in
# any order, so its lanes give the bits of the loop in order; O3 left its loop scalar (a
# softmax's row maxima: 4-5x the time of the row sums).
_LANE_OPS = {"vm.radd": "fadd", "vm.rmul": "fmul", "vm.maximum": "maximum", "vm.minimum": "minimum"}
_LANE_IDENTITY = {"fadd": 0.0, "fmul": 1.0, "maximum": -math.inf, "minimum": math.inf}
_FLAGS = ("contract", "arcp")

_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_,
    ast.BitXor: operator.xor,
    ast.LShift: operator.lshift,
    ast.RShift: operator.rshift,
}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_UNARY[ast.Invert] = operator.invert
_COMPARE = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}
_MODULES = {"np": np, "math": math}
INTS = tuple(getattr(types, f"{k}int{n}") for k in ("", "u") for n in (8, 16, 32, 64))
# names the kernel language uses that are not the kernel's variables
_GLOBAL_NAMES = {
    "rt",
    "vm",
    "lib",
    "hc",
    "range",
    "prange",
    "threaded_range",  # THREADED_RANGE
    "max",
    "min",
    "complex",
    "True",
    "False",
    *_MODULES,
}


class Unsupported(NumbaxError, NotImplementedError):
    """A construct of the kernel language the translator does not lower; raised and caught
    inside the back end, where it means "this nest stays numba code", never seen by users.

    Failing code: ``translate`` on a nest that assigns a tuple (``a, b = f(x)``), which the
    translator does not lower. Fix: none needed by a user (the kernel compiles with numba); to
    lower such nests, teach the translator the construct.
    """


@functools.cache
def contexts():
    """numba's typing context and a target context with the kernels' error model, of the
    kernel language only (`core/backends/llvm/target.py`)."""
    from numba.core import callconv  # noqa: PLC0415

    typing, target = lean_target.contexts()
    typing.refresh()
    target.refresh()
    return typing, target.subtarget(error_model=callconv.create_error_model("numpy", target))


@functools.cache
def _scratch_library():
    """The code library numba's implementations see as the one being built (they register
    libraries to link there: `Expressions.apply` refuses those)."""
    _, target = contexts()
    return target.codegen().create_library("numbax_lean_scratch")


@functools.cache
def scalar_type(dtype) -> types.Type:
    """The numba scalar type of numpy `dtype` (real, complex and bool); memoized (numpy's
    `dtype.name` takes tens of microseconds, and a rewrite asks thousands of times)."""
    dtype = np.dtype(dtype)
    if dtype.kind not in "biufc" or dtype in (np.float16, np.longdouble, np.clongdouble):
        raise Unsupported(f"dtype {dtype}")
    return types.boolean if dtype == np.bool_ else getattr(types, dtype.name)


def constant_type(name: str) -> types.Type | None:
    """The type of a module constant `c_<code>_<bits>` (`core/backends/numba/source.const`)."""
    parts = name.split("_")
    if len(parts) != 3 or parts[0] != "c":
        return None
    return scalar_type(parts[1])


def constant_value(name: str, ty: types.Type):
    """The value of module constant `name` of type `ty`."""
    code, bits = name.split("_")[1:]
    dtype = np.dtype(code)  # the bytes as one little-endian integer (`source.const`)
    return np.frombuffer(int(bits, 16).to_bytes(dtype.itemsize, "little"), dtype)[0].item()


def _unify(a: types.Type, b: types.Type) -> types.Type:
    typing, _ = contexts()
    kind = typing.unify_types(types.unliteral(a), types.unliteral(b))
    if not isinstance(kind, (types.Number, types.Boolean)):
        raise Unsupported(f"cannot unify {a} and {b}")
    return kind


class Expressions:
    """Types (and, with a builder, lowers) expressions of the kernel language over `env`:
    name -> numba type (scalars; arrays are `types.Array`). `lower_name(name)` gives a
    scalar's LLVM value, `array_pointer(name)` an array's data pointer. Without a builder only
    types are computed (the kernel's straight-line code, whose names nests read)."""

    def __init__(self, env: dict, builder: ir.IRBuilder | None = None, math_emitter=None):
        self.env = env
        self.builder = builder
        self.math = math_emitter

    # names and values supplied by the nest (overridden by `Nest`)
    def lower_name(self, name: str):
        raise Unsupported(name)

    def array_pointer(self, name: str):
        raise Unsupported(name)

    def expr(self, node: ast.AST) -> tuple[types.Type, object]:
        method = getattr(self, f"_{type(node).__name__}", None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def _Name(self, node: ast.Name):
        name = node.id
        ty = self.env.get(name)
        if ty is None:
            ty = constant_type(name)
            if ty is None:
                raise Unsupported(f"name {name}")
            value = self._constant(constant_value(name, ty), ty) if self.builder else None
            return ty, value
        if isinstance(ty, types.Array):
            raise Unsupported(f"array {name} as a scalar")
        return ty, self.lower_name(name) if self.builder else None

    def _Constant(self, node: ast.Constant):
        v = node.value
        if isinstance(v, bool):
            ty = types.boolean
        elif isinstance(v, int):
            ty = types.int64
        elif isinstance(v, float):
            ty = types.float64
        else:
            raise Unsupported(f"constant {v!r}")
        return ty, self._constant(v, ty) if self.builder else None

    def _Attribute(self, node: ast.Attribute):
        name = dotted(node)
        if name in ("np.inf", "np.nan", "math.pi", "math.inf", "math.nan"):
            value = float(eval(name, _MODULES))  # noqa: S307 (a fixed name)
            return types.float64, self._constant(value, types.float64) if self.builder else None
        if node.attr in ("real", "imag"):  # a complex number's part (a float's: as numba's)
            ty, value = self.expr(node.value)
            if isinstance(ty, types.Float):
                zero = self._constant(0.0, ty) if self.builder else None
                return ty, value if node.attr == "real" else zero
            if not isinstance(ty, types.Complex):
                raise Unsupported(f".{node.attr} of {ty}")
            part = ty.underlying_float
            if not self.builder:
                return part, None
            return part, self.builder.extract_value(value, int(node.attr == "imag"))
        raise Unsupported(ast.unparse(node))

    def _constant(self, value, ty: types.Type):
        _, target = contexts()
        return target.get_constant(ty, value)

    def _BinOp(self, node: ast.BinOp):
        if isinstance(node.op, ast.Pow):
            return self._vecmath("**", [self.expr(node.left), self.expr(node.right)])
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise Unsupported(type(node.op).__name__)
        args = [self.expr(node.left), self.expr(node.right)]
        if isinstance(node.op, ast.Div) and self.builder is not None and self.invariant(node.right):
            quotient = self._by_reciprocal(*args)
            if quotient is not None:
                return quotient
        return self.apply(op, args)

    def invariant(self, node: ast.AST) -> bool:
        """Whether expression `node` has one value over the innermost loop being lowered, so
        that a float division by it is a multiplication by its reciprocal (`Nest`); never
        here."""
        return False

    def _by_reciprocal(self, a: tuple, b: tuple):
        """`a / b` as `a * (1 / b)` where both are floats of one type, else None: what O3 made
        of a division by a loop-invariant divisor with `arcp` (LICM hoists the reciprocal; it
        does the same with this), written so that the quick tier computes it too."""
        _, sig = _signature(operator.truediv, tuple(types.unliteral(t) for t, _ in (a, b)))
        ty = sig.args[0]
        if not isinstance(ty, types.Float) or sig.args[1] != ty or sig.return_type != ty:
            return None
        one = (ty, self._constant(1.0, ty))
        return self.apply(operator.mul, [a, self.apply(operator.truediv, [one, b])])

    def _UnaryOp(self, node: ast.UnaryOp):
        return self.apply(_UNARY[type(node.op)], [self.expr(node.operand)])

    def _Compare(self, node: ast.Compare):
        if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
            raise Unsupported("chained or membership comparison")
        return self.apply(
            _COMPARE[type(node.ops[0])], [self.expr(node.left)] + [self.expr(node.comparators[0])]
        )

    def _IfExp(self, node: ast.IfExp):
        cond, a, b = self.expr(node.test), self.expr(node.body), self.expr(node.orelse)
        return self._select(cond, a, b)

    def _select(self, cond, a, b):
        kind = _unify(a[0], b[0])
        if not self.builder:
            return kind, None
        c = self.cast(cond, types.boolean)
        return kind, self.builder.select(c, self.cast(a, kind), self.cast(b, kind))

    def cast(self, typed, ty: types.Type):
        """The value of `typed` (type, value) converted to `ty` as numba converts."""
        _, target = contexts()
        return target.cast(self.builder, typed[1], typed[0], ty)

    def apply(self, fn, args: list[tuple]) -> tuple[types.Type, object]:
        """`fn(*args)` typed and lowered by numba (an operator, a numpy scalar type, an `np.*`
        or `math.*` function, a builtin)."""
        _, target = contexts()
        argtys = tuple(types.unliteral(t) for t, _ in args)
        fnty, sig = _signature(fn, argtys)
        if not self.builder:
            return sig.return_type, None
        values = [self.cast(a, t) for a, t in zip(args, sig.args)]
        scratch = _scratch_library()
        try:
            with target.push_code_library(scratch):
                value = _implementation(fnty, sig)(self.builder, values)
        except Exception as e:  # e.g. an implementation using numba's calling convention
            scratch._linking_libraries.clear()  # what it registered is not linked
            raise Unsupported(f"{fn} on {argtys}: {e}") from None
        if scratch._linking_libraries:  # it calls code numba compiled: not ours to link
            scratch._linking_libraries.clear()
            raise Unsupported(f"{fn} on {argtys} calls compiled code")
        return sig.return_type, value

    def _Call(self, node: ast.Call):
        if node.keywords:
            raise Unsupported("keyword arguments")
        fn = dotted(node.func)
        if fn == "rt.ld":
            return self._load(node)
        if fn == "rt.where":
            cond, a, b = (self.expr(x) for x in node.args)
            return self._select(cond, a, b)
        if fn == "rt.bitcast":
            return self._bitcast(node)
        if fn == "rt.ptr":
            return self._pointer(node)
        if fn.startswith("rt.lapack."):
            return self._lapack(fn[len("rt.lapack.") :], node)
        if fn == "rt.threads" and not node.args:  # the calling thread's share of numba's pool
            if not self.builder:
                return types.intp, None
            threads = parallel.runtime(self.builder.module, "get_num_threads")
            return types.intp, self.builder.call(threads, [])
        if fn == "rt.helpers" and not node.args:  # pmap devices ready to take pieces
            return types.intp, parallel.desk_helpers(self.builder) if self.builder else None
        if fn in ("vm.radd", "vm.rmul", "vm.sadd", "vm.maximum", "vm.minimum"):
            return self._vm_float_pair(fn[3:], node)
        args = [self.expr(x) for x in node.args]
        if fn.startswith("vm.") or fn == "rt.threefry2x32":
            return self._vecmath(fn, args)
        if fn in ("max", "min"):
            return self._extremum(fn, args)
        if fn in ("rt.idiv", "rt.udiv", "rt.irem"):
            return getattr(self, f"_{fn[3:]}")(*args)
        if fn in ("rt.cmul", "rt.cdiv"):
            return self._complex_op(fn, args)
        if fn == "complex":
            return self.apply(complex, args)
        module, _, attr = fn.partition(".")
        obj = None
        if module in _MODULES and attr.isidentifier() and "." not in attr:
            obj = getattr(_MODULES[module], attr, None)
        if obj is None:
            raise Unsupported(f"call of {fn}")
        return self.apply(obj, args)

    def _complex_op(self, fn: str, args: list[tuple]):
        """`rt.cmul(a, b)`/`rt.cdiv(a, b)` of two complex numbers (`complex_ir.py`): of their
        unified type, as numba types the runtime's functions."""
        if len(args) != 2:
            raise Unsupported(f"{fn} of {len(args)} arguments")
        kind = _unify(args[0][0], args[1][0])
        if not isinstance(kind, types.Complex):
            raise Unsupported(f"{fn} on {[t for t, _ in args]}")
        if not self.builder:
            return kind, None
        a, b = (self.cast(x, kind) for x in args)
        emit = complex_ir.multiply if fn == "rt.cmul" else complex_ir.divide
        return kind, emit(self.builder, a, b)

    def _extremum(self, fn: str, args: list[tuple]):
        """`max`/`min` of two or more int64s (the chunk bounds of threadable loops): numba
        compiles its builtin's overload, so it is ours."""
        if len(args) < 2 or any(types.unliteral(t) != types.int64 for t, _ in args):
            raise Unsupported(f"{fn} on {[t for t, _ in args]}")
        if not self.builder:
            return types.int64, None
        (_, a), *rest = args
        for _, b in rest:  # left to right, as the builtin picks
            pick = self.builder.icmp_signed(">" if fn == "max" else "<", b, a)
            a = self.builder.select(pick, b, a)
        return types.int64, a

    # `core/jit/runtime.py`'s integer division helpers, which numba compiles as functions: the
    # same operations on the same types, both sides of each `if` evaluated and selected (numba's
    # integer division by zero gives 0, it does not trap)
    def _int(self, value: int) -> tuple:
        return types.int64, self._constant(value, types.int64) if self.builder else None

    def _idiv(self, a, b):
        zero = self._int(0)
        q = self.apply(operator.floordiv, [a, b])
        inexact = self.apply(operator.ne, [self.apply(operator.mul, [q, b]), a])
        negative = self.apply(operator.lt, [q, zero])
        up = self.apply(operator.and_, [negative, inexact])
        r = self._select(up, self.apply(operator.add, [q, self._int(1)]), q)
        minus_one = self.apply(operator.eq, [b, self._int(-1)])
        r = self._select(minus_one, self.apply(operator.sub, [zero, a]), r)  # MIN / -1 == MIN
        return self._select(self.apply(operator.eq, [b, zero]), self._int(-1), r)

    def _udiv(self, a, b):
        ones = self.apply(operator.invert, [self.apply(operator.xor, [a, a])])
        nonzero = self.apply(operator.ne, [b, self._int(0)])
        return self._select(nonzero, self.apply(operator.floordiv, [a, b]), ones)

    def _irem(self, a, b):
        zero = self._int(0)
        r = self.apply(operator.mod, [a, b])
        signs = self.apply(
            operator.ne,
            [self.apply(operator.lt, [r, zero]), self.apply(operator.lt, [a, zero])],
        )
        fix = self.apply(operator.and_, [self.apply(operator.ne, [r, zero]), signs])
        r = self._select(fix, self.apply(operator.sub, [r, b]), r)
        return self._select(self.apply(operator.eq, [b, zero]), a, r)

    def _load(self, node: ast.Call):
        array, index = node.args
        if not isinstance(array, ast.Name):
            raise Unsupported("rt.ld of an expression")
        arr = self.env.get(array.id)
        if not isinstance(arr, types.Array):
            raise Unsupported(f"rt.ld of {array.id}")
        itype, ivalue = self.expr(index)
        if not isinstance(itype, types.Integer):
            raise Unsupported("non-integer offset")
        dtype = arr.dtype
        if not self.builder:
            return dtype, None
        ptr = self.element_pointer(array.id, (itype, ivalue), dtype)
        _, target = contexts()
        data = self.builder.load(ptr, typ=target.get_data_type(dtype))
        if dtype == types.boolean:
            return dtype, self.builder.icmp_unsigned("!=", data, data.type(0))
        return dtype, data

    def store(self, call: ast.Call) -> None:
        """`rt.st(a, flat, v)`: `v` cast to `a`'s dtype (numba's cast) into element `flat`."""
        array, index, value = call.args
        if not isinstance(array, ast.Name) or not isinstance(self.env.get(array.id), types.Array):
            raise Unsupported("rt.st into an expression")
        arr = self.env[array.id]
        if not arr.mutable:
            raise Unsupported(f"rt.st into read-only {array.id}")
        index, value = self.expr(index), self.expr(value)
        if not isinstance(index[0], types.Integer):
            raise Unsupported("non-integer offset")
        if self.builder is None:
            return
        v = self.cast(value, arr.dtype)
        if arr.dtype == types.boolean:
            v = self.builder.zext(v, ir.IntType(8))
        self.builder.store(v, self.element_pointer(array.id, index, arr.dtype))

    def _pointer(self, node: ast.Call):
        """`rt.ptr(a, flat)`: the address of an element of a writable array, only as an
        argument of a LAPACK call (which may write through it)."""
        array, index = node.args
        arr = self.env.get(array.id) if isinstance(array, ast.Name) else None
        if not isinstance(arr, types.Array) or not arr.mutable:
            raise Unsupported(f"rt.ptr of {ast.unparse(array)}")
        itype, ivalue = self.expr(index)
        if not isinstance(itype, types.Integer):
            raise Unsupported("non-integer offset")
        ty = types.CPointer(arr.dtype)
        if not self.builder:
            return ty, None
        return ty, self.element_pointer(array.id, (itype, ivalue), arr.dtype)

    def _lapack(self, routine: str, node: ast.Call):
        """`rt.lapack.<routine>_<dtype>(...)` (`core/jit/lapack.py`): a call of numba's C
        wrapper of scipy's LAPACK routine, by its symbol and signature, as numba calls it."""
        try:
            external = getattr(lapack, routine)
        except AttributeError:
            raise Unsupported(f"rt.lapack.{routine}") from None
        sig = external.sig
        args = [self.expr(x) for x in node.args]
        if len(args) != len(sig.args):
            raise Unsupported(f"rt.lapack.{routine} of {len(args)} arguments")
        for (ty, _), want in zip(args, sig.args):
            pointer = isinstance(want, types.CPointer)
            if pointer != isinstance(ty, types.CPointer) or (pointer and ty != want):
                raise Unsupported(f"rt.lapack.{routine} on {ty} for {want}")
        if not self.builder:
            return sig.return_type, None
        _, target = contexts()
        values = [
            a[1] if isinstance(w, types.CPointer) else self.cast(a, w)
            for a, w in zip(args, sig.args)
        ]
        fnty = ir.FunctionType(
            target.get_value_type(sig.return_type), [target.get_value_type(t) for t in sig.args]
        )
        callee = cgutils.get_or_insert_function(self.builder.module, fnty, external.symbol)
        return sig.return_type, self.builder.call(callee, values)

    def element_pointer(self, name: str, index: tuple, dtype: types.Type):
        """The address of element `index` (typed) of array `name` (as `rt.ld`'s, inbounds)."""
        _, target = contexts()
        i = self.cast(index, types.intp)
        return self.builder.gep(
            self.array_pointer(name), [i], inbounds=True, source_etype=target.get_data_type(dtype)
        )

    def _bitcast(self, node: ast.Call):
        x, like = (self.expr(a) for a in node.args)
        _, target = contexts()
        if not self.builder:
            return like[0], None
        return like[0], self.builder.bitcast(x[1], target.get_value_type(like[0]))

    def _vm_float_pair(self, name: str, node: ast.Call):
        a, b = (self.expr(x) for x in node.args)
        if a[0] != b[0] or not isinstance(a[0], types.Float):
            raise Unsupported(f"vm.{name} on {a[0]}, {b[0]}")
        if not self.builder:
            return a[0], None
        if name in ("radd", "rmul"):
            op = "fadd" if name == "radd" else "fmul"
            return a[0], getattr(self.builder, op)(a[1], b[1], flags=REDUCE_FLAGS)
        if name == "sadd":  # never fused with a product (XLA's sums in windows)
            return a[0], self.builder.fadd(a[1], b[1], flags=STRICT_FLAGS)
        ty = a[1].type
        fnty = ir.FunctionType(ty, [ty, ty])
        suffix = "f32" if ty == ir.FloatType() else "f64"
        module = self.builder.module
        fn = module.globals.get(f"llvm.{name}.{suffix}") or ir.Function(
            module, fnty, f"llvm.{name}.{suffix}"
        )
        return a[0], self.builder.call(fn, [a[1], b[1]])

    def _vecmath(self, fn: str, args: list[tuple]):
        """A call of a function numba compiles rather than inlines (`vm.exp_f32`,
        `rt.threefry2x32`): the IR of `core/backends/llvm/vecmath.py`."""
        if any(not isinstance(t, (types.Number, types.Boolean)) for t, _ in args):
            raise Unsupported(f"{fn} on {[t for t, _ in args]}")
        dtypes = tuple(np.dtype(str(types.unliteral(t))) for t, _ in args)
        if self.math is None or not self.math.supported(fn, dtypes):
            raise Unsupported(f"{fn} not emitted")
        result = self.math.result_dtype(fn, dtypes)
        if isinstance(result, tuple):
            ty = types.UniTuple(scalar_type(result[0]), len(result))
            if set(result) != {result[0]}:
                raise Unsupported(f"{fn} returns {result}")
        else:
            ty = scalar_type(result)
        if not self.builder:
            return ty, None
        return ty, self.math.emit_call(self.builder, fn, [v for _, v in args], dtypes)

    def _Subscript(self, node: ast.Subscript):
        """An element of a tuple (`rt.threefry2x32`'s pair) at a constant index."""
        ty, value = self.expr(node.value)
        index = node.slice
        if not isinstance(ty, types.UniTuple) or not isinstance(index, ast.Constant):
            raise Unsupported(ast.unparse(node))
        if not isinstance(index.value, int) or not 0 <= index.value < ty.count:
            raise Unsupported(ast.unparse(node))
        if not self.builder:
            return ty.dtype, None
        return ty.dtype, self.builder.extract_value(value, index.value)


@functools.cache
def _signature(fn, argtys: tuple):
    """numba's function type of `fn` and its signature for arguments of types `argtys`."""
    typing, _ = contexts()
    fnty = typing.resolve_value_type(fn)
    try:
        sig = typing.resolve_function_type(fnty, argtys, {})
    except Exception as e:
        raise Unsupported(f"{fn} on {argtys}: {e}") from None
    if sig is None or not isinstance(sig.return_type, (types.Number, types.Boolean)):
        raise Unsupported(f"{fn} on {argtys}")
    return fnty, sig


@functools.cache
def _implementation(fnty, sig):
    _, target = contexts()
    return target.get_function(fnty, sig)


class Nest(Expressions):
    """One loop nest (a top-level `for` statement of a kernel) as an LLVM function.

    Args:
      node: the `for` statement.
      env: the types of the kernel's names before the nest (scalars and `types.Array`s).
      outputs: the names the nest assigns that the kernel reads after it, returned through
        pointers.
      math_emitter: the `vm.*` emitter (`core/backends/llvm/vecmath.py`) or None.

    `params` lists the function's parameters in order: `(name, type, kind)`, kind "a" (an array:
    its data pointer), "s" (a scalar's value) or "o" (a pointer to an output scalar of `type`;
    a name the kernel defined before the nest is also passed in as a scalar).
    """

    node: ast.For | None = None
    parallel = False  # a `prange` nest (`_threaded`)
    # a float division by a loop-invariant divisor is a multiplication by its reciprocal (the
    # kernels' `arcp`, `core/jit/codegen.OPTIONS`; library routines divide)
    reciprocals = True

    def __init__(self, node: ast.For, env: dict, outputs: list[str], math_emitter=None):
        super().__init__(dict(env), None, math_emitter)
        self.node = node
        assigned, read = _names(node)
        self.assigned = assigned
        free = [n for n in read if n not in assigned and n in env]
        unknown = [n for n in read if n not in assigned and n not in env]
        for name in unknown:
            if constant_type(name) is None:
                raise Unsupported(f"name {name} of unknown type")
        # a name assigned in the nest that the kernel defined before comes in as a scalar too
        # when the nest may read it before assigning it or the kernel reads it after the nest
        # (a loop that runs no iteration leaves it as it was)
        inouts = [n for n in assigned if n in env and (n in read or n in outputs)]
        arrays = [n for n in free if isinstance(env[n], types.Array)]
        scalars = [n for n in [*free, *inouts] if not isinstance(env[n], types.Array)]
        for name in scalars:
            if not isinstance(env[name], (types.Number, types.Boolean)):
                raise Unsupported(f"{name} of type {env[name]}")
        for name in arrays:
            scalar_type(np.dtype(str(env[name].dtype)))
        self.params = (
            [(n, env[n], "a") for n in arrays]
            + [(n, env[n], "s") for n in scalars]
            + [(n, None, "o") for n in outputs]
        )
        self.outputs = outputs
        self.parallel = is_prange(node)
        if self.parallel and (outputs or inouts):
            raise Unsupported("a threaded nest whose scalars the kernel reads")
        self.types: dict[str, types.Type] = {}  # of the names the nest assigns
        self._statement(node)  # types the nest (no builder yet): every assigned name one type
        for k, (name, _, kind) in enumerate(self.params):
            if kind == "o":
                if name not in self.types:
                    raise Unsupported(f"output {name} not typed")
                if not isinstance(self.types[name], (types.Number, types.Boolean)):
                    raise Unsupported(f"output {name} of type {self.types[name]}")
                self.params[k] = (name, self.types[name], kind)
                if name in env and env[name] != self.types[name]:
                    raise Unsupported(f"{name} changes type")

    def _assign_type(self, name: str, ty: types.Type) -> None:
        ty = types.unliteral(ty)
        before = self.types.get(name) or self.env.get(name)
        if name in self.env and isinstance(self.env[name], types.Array):
            raise Unsupported(f"array {name} reassigned")
        if before is not None and before != ty:
            raise Unsupported(f"{name} is {before} and {ty}")
        self.types[name] = ty
        self.env[name] = ty

    def function(self, module: ir.Module, name: str, noalias: bool) -> ir.Function:
        """Lowers the nest into `module` as function `name` (see the class docstring);
        `noalias` marks its array pointers noalias."""
        _, target = contexts()
        argtys = []
        for _, ty, kind in self.params:
            argtys.append(_PTR if kind in "ao" else target.get_value_type(ty))
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), argtys), name)
        fn.attributes.add("nounwind")
        entry = fn.append_basic_block("entry")
        self.builder = ir.IRBuilder(entry)
        self.slots: dict[str, ir.Value] = {}
        self.pointers: dict[str, ir.Value] = {}
        for (pname, ty, kind), arg in zip(self.params, fn.args):
            arg.name = pname
            if kind == "a":
                if noalias:
                    arg.add_attribute("noalias")
                self.pointers[pname] = arg
            elif kind == "s":
                self._slot(pname, ty)
                self.builder.store(arg, self.slots[pname])
        outs = {pname: arg for (pname, _, kind), arg in zip(self.params, fn.args) if kind == "o"}
        if self.parallel:
            self._threaded(module, fn)
            add_fastmath(module)
            return fn
        self._statement(self.node)
        for pname, ptr in outs.items():
            slot = self.slots[pname]
            self.builder.store(self.builder.load(slot, typ=slot.allocated_type), ptr)
        self.builder.ret_void()
        add_fastmath(module)
        return fn

    def _threaded(self, module: ir.Module, fn: ir.Function) -> None:
        """The body of `fn` for a `for i in prange(...)` nest: its parameters packed on its
        stack, and the loop run by `parallel.emit_for` over the iterations of an outlined
        function `<name>.body(data, lo, hi)`, which unpacks them and runs
        `for i in range(lo, hi)` with the nest's body."""
        b = self.builder
        struct = ir.LiteralStructType([a.type for a in fn.args])
        data = b.alloca(struct, name="par.data")
        for k, arg in enumerate(fn.args):
            b.store(arg, cgutils.gep_inbounds(b, data, 0, k))
        bounds = [self.cast(self.expr(a), types.int64) for a in self.node.iter.args]
        start, stop = bounds if len(bounds) == 2 else (ir.Constant(_I64, 0), bounds[0])
        body = ir.Function(module, parallel.body_type(), f"{fn.name}.body")
        body.linkage = "internal"
        parallel.emit_for(b, body, b.bitcast(data, parallel.body_type().args[0]), start, stop)
        b.ret_void()
        self.builder = b = ir.IRBuilder(body.append_basic_block("entry"))
        self.slots, self.pointers = {}, {}
        at = b.bitcast(body.args[0], struct.as_pointer())
        for k, (pname, ty, kind) in enumerate(self.params):
            value = b.load(cgutils.gep_inbounds(b, at, 0, k), typ=struct.elements[k])
            if kind == "a":
                self.pointers[pname] = value
            else:
                b.store(value, self._slot(pname, ty))
        lo, hi = "_par_lo", "_par_hi"
        for name, value in ((lo, body.args[1]), (hi, body.args[2])):
            self.env[name] = types.int64
            b.store(value, self._slot(name, types.int64))
        bound = [ast.Name(lo, ast.Load()), ast.Name(hi, ast.Load())]
        loop = ast.For(
            self.node.target, ast.Call(ast.Name("range", ast.Load()), bound, []), self.node.body, []
        )
        self._statement(loop)
        b.ret_void()

    def _slot(self, name: str, ty: types.Type) -> ir.Value:
        if name not in self.slots:
            _, target = contexts()
            with self.builder.goto_entry_block():
                self.slots[name] = self.builder.alloca(target.get_value_type(ty), name=name)
        return self.slots[name]

    def lower_name(self, name: str):
        if name not in self.slots:
            raise Unsupported(f"{name} read before it is assigned")
        slot = self.slots[name]
        return self.builder.load(slot, typ=slot.allocated_type)

    def array_pointer(self, name: str):
        return self.pointers[name]

    # statements
    def _statement(self, node: ast.stmt) -> None:
        method = getattr(self, f"_stmt_{type(node).__name__}", None)
        if method is None:
            raise Unsupported(type(node).__name__)
        method(node)

    def _body(self, body: list[ast.stmt]) -> None:
        for st in body:
            self._statement(st)

    def _stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def _stmt_Assign(self, node: ast.Assign) -> None:
        target, value = node.targets[0], node.value
        if (
            len(node.targets) == 1
            and isinstance(target, ast.Tuple)
            and isinstance(value, ast.Tuple)
        ):
            return self._assign_tuple(target, value)
        if len(node.targets) != 1 or not isinstance(target, ast.Name):
            raise Unsupported("assignment to a non-name")
        name = target.id
        lane = self.__dict__.get("_lane_of", {}).get(name) if self.builder else None
        if lane is not None:  # `acc = vm.radd(acc, x)` in a block's lane j: x staged
            staged, j = lane
            ty = self.types[name]
            product = self.__dict__.get("_lane_products", {}).get(name)
            if product is None:
                values = [self.cast(self.expr(node.value.args[1]), ty)]
            else:  # x * y: both staged, folded by an FMA (a product of another type: x, 1)
                x, y = (self.expr(v) for v in product)
                if x[0] == y[0] == ty:
                    values = [x[1], y[1]]
                else:
                    values = [self.cast(self.apply(operator.mul, [x, y]), ty)]
                    values.append(self._constant(1.0, ty))
            for buffer, value in zip(staged, values):
                ptr = self.builder.gep(buffer, [ir.Constant(_I64, 0), j], inbounds=True)
                self.builder.store(value, ptr)
            return
        self._set(name, *self.expr(node.value))

    def _assign_tuple(self, target: ast.Tuple, value: ast.Tuple) -> None:
        """`a, b, = x, y,` (a loop's carries): every value first, then the names."""
        if len(target.elts) != len(value.elts) or not all(
            isinstance(t, ast.Name) for t in target.elts
        ):
            raise Unsupported(f"assignment {ast.unparse(target)}")
        values = [self.expr(v) for v in value.elts]
        for t, (ty, v) in zip(target.elts, values):
            self._set(t.id, ty, v)

    def _set(self, name: str, ty: types.Type, value) -> None:
        """Scalar `name` assigned `value` of type `ty` (its slot typed on the first pass)."""
        scalar = isinstance(ty, (types.Number, types.Boolean))
        if not scalar and not (isinstance(ty, types.UniTuple) and ty.dtype in INTS):
            raise Unsupported(f"{name} of type {ty}")
        if self.builder is None:
            self._assign_type(name, ty)
            return
        ty = self.types[name]
        self.builder.store(value, self._slot(name, ty))

    def latches(self) -> list:
        """The enclosing loops' blocks that start their next iteration, innermost last (True
        while typing; False for a loop that `continue` may not leave, a routine's `while`)."""
        return self.__dict__.setdefault("_latches", [])

    def _stmt_AugAssign(self, node: ast.AugAssign) -> None:
        """`x op= v`: `x = x op v` (a gather's flat offset, `off += i * n`)."""
        if not isinstance(node.target, ast.Name):
            raise Unsupported("augmented assignment to a non-name")
        name = node.target.id
        value = ast.BinOp(ast.Name(name, ast.Load()), node.op, node.value)
        self._stmt_Assign(ast.Assign([ast.Name(name, ast.Store())], value))

    def _stmt_Continue(self, node: ast.Continue) -> None:
        """`continue`: on to the innermost loop's next iteration (what follows it in its block
        is unreachable)."""
        latches = self.latches()
        if not latches or latches[-1] is False:
            raise Unsupported("continue outside a for loop")
        if self.builder is None:
            return
        self.builder.branch(latches[-1])
        self.builder.position_at_end(self.builder.append_basic_block("continued"))

    def exits(self) -> list:
        """The blocks `break` leaves to, innermost loop last (None for a `for` loop, which
        `break` may not leave; True while typing)."""
        return self.__dict__.setdefault("_exits", [])

    def _stmt_While(self, node: ast.While) -> None:
        """`while test: body` (no `else`; `break` leaves it, `continue` is not lowered): a
        `while_loop`'s `while True:` whose body starts with `if not <cond>: break`."""
        if node.orelse:
            raise Unsupported("while ... else")
        self.latches().append(False)
        self.exits().append(True)
        try:
            if self.builder is None:
                self.expr(node.test)
                self._body(node.body)
                return
            b = self.builder
            head = b.append_basic_block("while.head")
            body = b.append_basic_block("while.body")
            done = b.append_basic_block("while.done")
            self.exits()[-1] = done
            b.branch(head)
            b.position_at_end(head)
            b.cbranch(self.cast(self.expr(node.test), types.boolean), body, done)
            b.position_at_end(body)
            self._body(node.body)
            b.branch(head)
            b.position_at_end(done)
        finally:
            self.latches().pop()
            self.exits().pop()

    def _stmt_Break(self, node: ast.Break) -> None:
        """`break`: out of the innermost loop, a `while` (what follows it in its block is
        unreachable)."""
        exits = self.exits()
        if not exits or exits[-1] is None:
            raise Unsupported("break outside a while loop")
        if self.builder is None:
            return
        self.builder.branch(exits[-1])
        self.builder.position_at_end(self.builder.append_basic_block("broken"))

    def _stmt_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if not isinstance(call, ast.Call) or dotted(call.func) != "rt.st":
            raise Unsupported(ast.unparse(node))
        self.store(call)

    def _stmt_If(self, node: ast.If) -> None:
        cond = self.expr(node.test)
        if self.builder is None:
            self._body(node.body)
            self._body(node.orelse)
            return
        c = self.cast(cond, types.boolean)
        if node.orelse:
            with self.builder.if_else(c) as (then, otherwise):
                with then:
                    self._body(node.body)
                with otherwise:
                    self._body(node.orelse)
        else:
            with self.builder.if_then(c):
                self._body(node.body)

    def _stmt_For(self, node: ast.For) -> None:
        self.exits().append(None)  # `break` is a while loop's only
        try:
            self._for(node)
        finally:
            self.exits().pop()

    def _for(self, node: ast.For) -> None:
        it = node.iter
        threaded = node is self.node and self.parallel  # typed as its `range`
        if (
            not isinstance(it, ast.Call)
            or (dotted(it.func) != "range" and not threaded)
            or not 1 <= len(it.args) <= (2 if threaded else 3)
            or node.orelse
            or not isinstance(node.target, ast.Name)
        ):
            raise Unsupported("a loop other than for i in range(...)")
        bounds = [self.expr(a) for a in it.args]
        for ty, _ in bounds:
            if types.unliteral(ty) not in (types.int64, types.intp):
                raise Unsupported(f"range over {ty}")
        name = node.target.id
        if self.builder is None:
            self._assign_type(name, types.int64)
            self.latches().append(True)
            self._body(node.body)
            self.latches().pop()
            return
        values = [v for _, v in bounds]
        sums = self.lane_sums(node)
        self.loops().append(node)
        if sums:
            values = self._lanes(node, values, sums)
        self._range_loop(name, values, node.body)
        self.loops().pop()

    def loops(self) -> list[ast.For]:
        """The loops being lowered, innermost last (`invariant` reads it)."""
        return self.__dict__.setdefault("_loops", [])

    def invariant(self, node: ast.AST) -> bool:
        """Whether expression `node` has one value over the iterations of the innermost loop
        being lowered (`variant_names`)."""
        if not self.reciprocals or not self.loops():
            return False
        loop = self.loops()[-1]
        cache = self.__dict__.setdefault("_variant", {})
        if id(loop) not in cache:
            cache[id(loop)] = variant_names(loop)
        return _invariant_in(node, *cache[id(loop)])

    def _range_loop(self, name: str, bounds: list[ir.Value], body: list[ast.stmt]) -> None:
        """`for name in range(*bounds): body`, lowered at the builder."""
        b = self.builder
        slot = self._slot(name, types.int64)
        i, step, head, done = open_range(b, name, bounds)
        b.store(i, slot)
        latch = b.append_basic_block(f"{name}.latch")
        self.latches().append(latch)
        self._body(body)
        self.latches().pop()
        b.branch(latch)
        b.position_at_end(latch)
        flags = ("nsw",) if len(bounds) < 3 else ()
        i.add_incoming(b.add(i, step, name=f"{name}.next", flags=flags), latch)
        b.branch(head)
        b.position_at_end(done)

    def lane_sums(self, node: ast.For) -> dict[str, str]:
        """The accumulators of `node` to fold in lanes (`LANES`): name -> its `_LANE_OPS` op,
        for an innermost loop of step 1 whose body (no loops, `if` or `continue`) folds each of
        them by one `acc = vm.radd(acc, x)` (`rmul`, `maximum`, `minimum`) and reads it nowhere
        else."""
        if len(node.iter.args) > 2 or not isinstance(node.target, ast.Name):
            return {}
        found: dict[str, str] = {}
        for st in node.body:
            if isinstance(st, (ast.For, ast.While, ast.If, ast.Continue)):
                return {}
            call = getattr(st, "value", None)
            if (
                isinstance(st, ast.Assign)
                and isinstance(st.targets[0], ast.Name)
                and isinstance(call, ast.Call)
                and dotted(call.func) in _LANE_OPS
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == st.targets[0].id
                and isinstance(self.types.get(st.targets[0].id), types.Float)
            ):
                found[st.targets[0].id] = _LANE_OPS[dotted(call.func)]
        if not found:
            return {}
        reads: dict[str, int] = {}
        for n in walk(node):
            if isinstance(n, ast.Name):
                reads[n.id] = reads.get(n.id, 0) + (1 if isinstance(n.ctx, ast.Load) else 100)
        # each read once (by its fold) and assigned once (by it); nested bodies ruled out above
        sums = {acc: op for acc, op in found.items() if reads.get(acc) == 101}
        self._lane_products = {}
        for acc in sums:
            product = self._product_folded(node.body, acc, reads)
            if product is not None and sums[acc] == "fadd":
                self._lane_products[acc] = product
        return sums

    def _product_folded(self, body: list[ast.stmt], acc: str, reads: dict) -> tuple | None:
        """The operands of the product that `acc = vm.radd(acc, t)` folds, when `t` is one
        (`x * y`, or a name assigned so in the body once, read by the fold only, from names
        not assigned after it): the lanes then fold it with FMAs, as O3 contracted it."""
        stmts = {}
        for k, st in enumerate(body):
            if isinstance(st, ast.Assign) and isinstance(st.targets[0], ast.Name):
                stmts.setdefault(st.targets[0].id, []).append((k, st))
        ((at, fold),) = stmts[acc]
        x = fold.value.args[1]
        if isinstance(x, ast.Name):
            defined = stmts.get(x.id, [])
            if len(defined) != 1 or reads.get(x.id) != 101:
                return None
            k, st = defined[0]
            x = st.value
            names = [n.id for n in walk(x) if isinstance(n, ast.Name)]
            if any(j > k for name in names for j, _ in stmts.get(name, [])):
                return None
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Mult):
            return x.left, x.right
        return None

    def _lanes(self, node: ast.For, bounds: list[ir.Value], sums: dict[str, str]) -> list:
        """The whole blocks of `LANES` iterations of `node`, lowered (see `LANES`); returns the
        bounds of the iterations left, which run in order. Each block runs the body in a loop
        over its lanes (kept from unrolling, so that O3 vectorizes it) that writes each fold's
        operand to a buffer, then folds the buffer into a vector of lanes, lane by lane."""
        b = self.builder
        _, target = contexts()
        start, stop = bounds if len(bounds) == 2 else (ir.Constant(_I64, 0), bounds[0])
        name = node.target.id
        k = max(LANES[str(self.types[acc])][0] for acc in sums)  # one block size: the most
        n = b.sub(stop, start)
        zero = ir.Constant(_I64, 0)
        whole = b.select(b.icmp_signed(">", n, zero), b.sdiv(n, ir.Constant(_I64, k)), zero)
        rest = b.add(start, b.mul(whole, ir.Constant(_I64, k)), name=f"{name}.rest")
        staged, folded = {}, {}
        products = self.__dict__.get("_lane_products", {})
        for acc in sums:
            ty = target.get_value_type(self.types[acc])
            with b.goto_entry_block():
                staged[acc] = [
                    b.alloca(ir.ArrayType(ty, k), name=f"{acc}.staged")
                    for _ in range(2 if acc in products else 1)
                ]
                for buffer in staged[acc]:
                    buffer.align = 64
                folded[acc] = b.alloca(ir.VectorType(ty, k), name=f"{acc}.lanes")
        with b.if_then(b.icmp_signed(">", whole, zero)):
            for acc, op in sums.items():
                ty = folded[acc].allocated_type.element
                identity = ir.Constant(ir.VectorType(ty, k), [_LANE_IDENTITY[op]] * k)
                first = b.insert_element(identity, self.lower_name(acc), ir.Constant(_I64, 0))
                b.store(first, folded[acc])
            at, _, head, done = open_range(b, f"{name}.block", [start, rest])
            lane = f"{name}.lane"
            j, step, jhead, jdone = open_range(b, lane, [ir.Constant(_I64, k)])
            b.store(b.add(at, j, flags=("nsw",)), self._slot(name, types.int64))
            latch = b.append_basic_block(f"{lane}.latch")
            self.latches().append(latch)
            self._lane_of = {acc: (staged[acc], j) for acc in sums}
            self._body(node.body)
            self._lane_of = {}
            self.latches().pop()
            b.branch(latch)
            b.position_at_end(latch)
            j.add_incoming(b.add(j, step, flags=("nsw",)), latch)
            b.branch(jhead).set_metadata("llvm.loop", _vectorize_only(b.module, k))
            b.position_at_end(jdone)
            for acc, op in sums.items():
                vec = folded[acc].allocated_type
                x = [b.load(buffer, typ=vec, align=64) for buffer in staged[acc]]
                before = b.load(folded[acc])
                if len(x) == 2:  # products: one rounding each, as O3 contracted them
                    suffix = f"v{k}{'f32' if vec.element == ir.FloatType() else 'f64'}"
                    fma = _intrinsic(b.module, f"llvm.fma.{suffix}", vec, 3)
                    b.store(b.call(fma, [*x, before]), folded[acc])
                else:
                    b.store(_fold(b, op, before, x[0]), folded[acc])
            self._close_blocks(at, head, done, k)
            for acc, op in sums.items():
                width = LANES[str(self.types[acc])][1]
                b.store(self._fold_lanes(b.load(folded[acc]), op, width), self.slots[acc])
        return [rest, stop]

    def _fold_lanes(self, lanes, op: str, width: int):
        """The lanes of vector `lanes` folded by `op`: its parts of `width` lanes, in order,
        lane by lane, then the halves of the result, lane by lane, to one."""
        b = self.builder

        def pick(v, first: int, count: int):
            lanes = list(range(first, first + count))
            return b.shuffle_vector(v, v, ir.Constant(ir.VectorType(ir.IntType(32), count), lanes))

        total = pick(lanes, 0, width)
        for p in range(width, lanes.type.count, width):
            total = _fold(b, op, pick(lanes, p, width), total)
        while width > 1:
            width //= 2
            total = _fold(b, op, pick(total, 0, width), pick(total, width, width))
        return b.extract_element(total, ir.Constant(ir.IntType(32), 0))

    def _close_blocks(self, i, head, done, k: int) -> None:
        """Closes a loop `open_range` opened as `for i in range(start, stop, k)`."""
        b = self.builder
        i.add_incoming(b.add(i, ir.Constant(_I64, k), flags=("nsw",)), b.block)
        b.branch(head)
        b.position_at_end(done)


def variant_names(loop: ast.For) -> tuple[set[str], set[str]]:
    """The names whose value may change over the iterations of `loop` (its variable, those
    assigned in it more than once, in an `if`, by an inner loop, read in it before they are
    assigned, or from a variant value) and the arrays it stores into."""
    stored, counts, variant = set(), {}, {loop.target.id}
    defs: dict[str, ast.AST] = {}

    def visit(body: list[ast.stmt], conditional: bool) -> None:
        for st in body:
            for n in walk(st):
                if isinstance(n, ast.Call) and dotted(n.func) == "rt.st" and n.args:
                    stored.add(getattr(n.args[0], "id", None))
            if isinstance(st, ast.For):
                variant.add(getattr(st.target, "id", None))
                reads = [n.id for n in walk(st.iter) if isinstance(n, ast.Name)]
                variant.update(r for r in reads if r in counts)
                visit(st.body, conditional)
                continue
            if isinstance(st, ast.If):
                tested = [n.id for n in walk(st.test) if isinstance(n, ast.Name)]
                variant.update(n for n in tested if n in counts)
                visit(st.body, True)
                visit(st.orelse, True)
                continue
            targets = [
                t for t in walk(st) if isinstance(t, ast.Name) and isinstance(t.ctx, ast.Store)
            ]
            if isinstance(st, ast.AugAssign) and isinstance(st.target, ast.Name):
                variant.add(st.target.id)
            for t in targets:
                counts[t.id] = counts.get(t.id, 0) + 1
                if conditional or counts[t.id] > 1 or not isinstance(st, ast.Assign):
                    variant.add(t.id)
                elif isinstance(st.targets[0], ast.Name):
                    defs[t.id] = st.value
                else:  # a tuple of carries, `a, b, = x, y,`
                    variant.add(t.id)

    visit(loop.body, False)
    # read before its assignment in an iteration: the previous iteration's value
    seen: set[str] = set()
    for st in _statements(loop.body):
        for n in walk(st.value if isinstance(st, ast.Assign) else st):
            loaded = isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)
            if loaded and n.id in counts and n.id not in seen:
                variant.add(n.id)
        if isinstance(st, ast.Assign):
            seen.update(t.id for t in st.targets if isinstance(t, ast.Name))
    changed = True
    while changed:
        changed = False
        for name, value in defs.items():
            if name not in variant and not _invariant_in(value, variant, stored):
                variant.add(name)
                changed = True
    return variant, stored


def _statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The simple statements of `body`, in order, those of nested loops and `if`s included."""
    out = []
    for st in body:
        if isinstance(st, (ast.For, ast.If)):
            out += _statements(st.body) + _statements(getattr(st, "orelse", []))
        else:
            out.append(st)
    return out


def _invariant_in(node: ast.AST, variant: set[str], stored: set[str]) -> bool:
    for n in walk(node):
        if isinstance(n, ast.Name) and n.id in variant:
            return False
        if isinstance(n, ast.Call):
            fn = dotted(n.func)
            if fn == "rt.ld" and getattr(n.args[0], "id", None) in stored:
                return False
            if fn in ("rt.threads", "rt.helpers", "rt.threefry2x32"):
                return False
    return True


def _fold(b: ir.IRBuilder, op: str, x: ir.Value, y: ir.Value) -> ir.Value:
    """`x op y` for a `_LANE_OPS` op: an instruction (`fadd`, `fmul`), or LLVM's NaN-propagating
    `llvm.maximum`/`llvm.minimum` (vectors too)."""
    if op in ("fadd", "fmul"):
        return getattr(b, op)(x, y)
    ty = x.type
    scalar = ty.element if isinstance(ty, ir.VectorType) else ty
    suffix = "f32" if scalar == ir.FloatType() else "f64"
    if isinstance(ty, ir.VectorType):
        suffix = f"v{ty.count}{suffix}"
    return b.call(_intrinsic(b.module, f"llvm.{op}.{suffix}", ty, 2), [x, y])


def _intrinsic(module: ir.Module, name: str, ty: ir.Type, arity: int) -> ir.Function:
    """The declaration of LLVM intrinsic `name` of `arity` operands of type `ty` in `module`."""
    fn = module.globals.get(name)
    return fn or ir.Function(module, ir.FunctionType(ty, [ty] * arity), name)


def _vectorize_only(module: ir.Module, width: int):
    """Loop metadata for a loop over a block's lanes (`Nest._lanes`): not unrolled before LLVM's
    vectorizer sees it (unrolled first, its lanes stayed scalar), and vectorized `width` wide,
    one vector iteration for the block (narrower, the loop stayed, and its staged operands
    went through memory: 1.4x slower)."""
    options = [
        module.add_metadata([ir.MetaDataString(module, "llvm.loop.unroll.disable")]),
        module.add_metadata(
            [
                ir.MetaDataString(module, "llvm.loop.vectorize.width"),
                ir.Constant(ir.IntType(32), width),
            ]
        ),
        module.add_metadata(
            [
                ir.MetaDataString(module, "llvm.loop.vectorize.enable"),
                ir.Constant(ir.IntType(1), 1),
            ]
        ),
    ]
    loop = module.add_metadata(options)
    loop.operands = (loop, *options)
    return loop


def open_range(
    b: ir.IRBuilder, name: str, bounds: list[ir.Value]
) -> tuple[ir.PhiInstr, ir.Value, ir.Block, ir.Block]:
    """Opens `for name in range(*bounds)` (1-3 int64 values; a step of either sign, 0 runs no
    iteration) and leaves `b` at the start of its body. The caller closes it: the latch adds
    `(b.add(i, step), latch)` to `i` and branches to `head`; `done` follows the loop.

    Returns:
      `(i, step, head, done)`: the loop variable, the step, the header and exit blocks.
    """
    start = bounds[0] if len(bounds) >= 2 else ir.Constant(_I64, 0)
    stop = bounds[1 if len(bounds) == 3 else -1]
    pre = b.block
    head = b.append_basic_block(f"{name}.head")
    body = b.append_basic_block(f"{name}.body")
    done = b.append_basic_block(f"{name}.done")
    b.branch(head)
    b.position_at_end(head)
    i = b.phi(_I64, name=f"{name}.i")
    i.add_incoming(start, pre)
    if len(bounds) == 3:
        step = bounds[2]
        up = b.icmp_signed(">", step, ir.Constant(_I64, 0))
        more = b.select(up, b.icmp_signed("<", i, stop), b.icmp_signed(">", i, stop))
    else:
        step, more = ir.Constant(_I64, 1), b.icmp_signed("<", i, stop)
    b.cbranch(more, body, done)
    b.position_at_end(body)
    return i, step, head, done


# How a lean nest's spec (`nests.load`) spells a `prange` loop: a kernel module naming no
# `prange` is serial to numba and `core/jit/program.py`, whatever its nests run.
THREADED_RANGE = "threaded_range"


def is_prange(node: ast.stmt) -> bool:
    """Whether `node` is a `for ... in prange(...)` loop (a threaded nest; `THREADED_RANGE` in a
    nest's spec)."""
    it = getattr(node, "iter", None)
    return (
        isinstance(node, ast.For)
        and isinstance(it, ast.Call)
        and dotted(it.func) in ("prange", THREADED_RANGE)
    )


def dotted(node: ast.AST) -> str:
    """`ast.unparse(node)`, read directly for a name or a dotted name (`rt.st`, `np.inf`): the
    translators ask it of every call and attribute, and unparsing costs 10-20 us a node."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        parts = [node.attr]
        value = node.value
        while isinstance(value, ast.Attribute):
            parts.append(value.attr)
            value = value.value
        if isinstance(value, ast.Name):
            return ".".join([value.id, *reversed(parts)])
    return ast.unparse(node)


def walk(node: ast.AST) -> list[ast.AST]:
    """`list(ast.walk(node))`, in its order (breadth first, children in field order), at half
    its cost: the rewrite of a cold first call's kernels walks their statements ~150,000 times
    (`_names`, `rewrite._exposed`: a fifth of a rewrite's CPU with `ast.walk`).

    Args:
      node: the root.

    Returns:
      `node` and every node below it.
    """
    nodes = [node]
    for n in nodes:  # grows as it is read: each node's children go to the end
        for field in n._fields:
            v = getattr(n, field, None)
            if isinstance(v, list):
                nodes.extend(c for c in v if isinstance(c, ast.AST))
            elif isinstance(v, ast.AST):
                nodes.append(v)
    return nodes


def _names(node: ast.AST) -> tuple[list[str], list[str]]:
    """The names `node` assigns (targets, loop variables) and those it reads, in order."""
    assigned, read = {}, {}
    for n in walk(node):
        if isinstance(n, ast.Name):
            (assigned if isinstance(n.ctx, ast.Store) else read).setdefault(n.id, None)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            read.setdefault(n.target.id, None)  # `x += v` reads x
    return list(assigned), [n for n in read if n not in _GLOBAL_NAMES]


def add_fastmath(module: ir.Module) -> None:
    """The kernels' fastmath flags on the float operations and calls of `module`, by numba's
    own pass (`core/jit/codegen.OPTIONS`): an operation that has flags (`vm.radd`'s reassoc)
    keeps them only, as in a kernel."""
    from numba.core import fastmathpass  # noqa: PLC0415
    from numba.core.cpu_options import FastMathOptions  # noqa: PLC0415

    fastmathpass.rewrite_module(module, FastMathOptions(set(_FLAGS)))
    settle.settle(module)


def release(module: ir.Module) -> None:
    """Empties `module` once its IR text is taken: each of its functions, blocks, instructions
    and arguments names its parent, so a module is a reference cycle that only the collector
    frees, and all the modules of a compile reached its final full collection
    (`core/jit/gc_pause.py`; the MNIST CNN's first call: 94 000 objects). With the cycles cut,
    reference counting frees them at once."""
    for value in module.globals.values():
        if isinstance(value, ir.Function):
            for block in value.blocks:
                block.instructions, block.terminator = [], None
            value.blocks, value.args, value.return_value = [], (), None
    module.globals.clear()
    module.metadata, module.namedmetadata, module._metadatacache = [], {}, {}
