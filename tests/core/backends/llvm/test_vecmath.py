"""The LLVM IR of `core/backends/llvm/vecmath.py` against numba, bit for bit.

Every call `emit_call` supports, on every dtype the generated code uses, runs over a table of
inputs with the special values (nan, +-inf, +-0, denormals, the largest and smallest numbers, the
kernels' thresholds) and random values, twice: as an IR loop compiled by numba's own code
generator (the same target machine and O3 pipeline) and as the same source text the numba back
end generates, in a numba kernel with the generated kernels' options. Each case is its own loop
on both sides, so LLVM vectorizes (or not) both alike. All IR loops share one module.
"""

import ctypes
import math  # noqa: F401 (the numba kernels' namespace)
from collections import defaultdict

import numpy as np
import pytest
from llvmlite import ir
from numba import njit
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import cpu_target

from core.backends.llvm import vecmath
from core.jit import codegen
from core.jit import runtime as rt  # noqa: F401 (the numba kernels' namespace)
from core.jit import vecmath as vm  # noqa: F401 (the numba kernels' namespace)

F32, F64, BOOL = np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.bool_)
INTS = [np.dtype(t) for t in ("int8", "int16", "int32", "int64", "uint8", "uint32", "uint64")]
rng = np.random.default_rng(0)


def _float_inputs(dtype: np.dtype) -> np.ndarray:
    info = np.finfo(dtype)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, info.max, -info.max, info.tiny]
    special += [-info.tiny, info.smallest_subnormal, -info.smallest_subnormal, info.tiny / 3]
    special += [info.eps, 1 - info.epsneg, -1 + info.epsneg, 1 + info.eps, 1e-30, 1e30]
    # the vm kernels' thresholds and reduction edges
    special += [88.72283, 88.7229, 88.8, -87.33654, -87.34, -104.0, 127.9, 128.0, -126.0, -126.5]
    special += [-150.0, 30.0, -30.0, -31.0, 20.0, 20.5, -20.5, 0.55, -0.55, 4.0, -4.0, 4.5, 1e6]
    special += [1e7, -1e7, 1.4142135, 0.70710677, math.pi / 4, math.pi / 2, math.pi, 3 * math.pi]
    special += [0.5, -0.5, 1.5, 2.5, -2.5, 1.0, -1.0, 2.0, 3.0, 1 / 3, 10.0, -10.0, 100.0]
    special += [524288.0, 524287.97, -524288.0, 1.6263033e16, 3e38, -3e38, 1e20]  # reductions
    special += [-87.8, 88.8, 7.9988117, 8.0, -8.0, 4e-4, 3.9e-4, 0.41421357, -0.41421357, 0.4142]
    special += [1.8446743e19, 1.7014117e38, 1e-40, -1e-40, -1 + 1e-7, 1.0000001]  # XLA's kernels
    special += [120.0, -120.0, 119.99999, 0.75, 0.7499999, 2.0**-12, 2.0**-13, 0.67433548]  # glibc
    special += [-0.67433548, 3.8325069, -3.8325067, 0.9966227, -0.9966228, 0.9999]  # erf, erf_inv
    if dtype == F64:  # the float64 kernels' thresholds
        special += [709.78, 709.79, -708.39, -708.4, -745.2, -1075.0, 17.714196154005176, 1e-310]
        special += [0.41421356237309503, 1.3407807929942596e154, 8.98846567431158e307, -1e-310]
        special += [-745.0, 1e-300, 2.0**-966, -(2.0**-966), -(2.0**-967), 5e-324, -5e-324]
    mags = 10.0 ** rng.uniform(-12, 6, 300)
    rand = [mags * rng.choice([-1, 1], 300), rng.uniform(-10, 10, 200), rng.uniform(-1, 1, 200)]
    return np.concatenate([np.array(special, dtype), *[r.astype(dtype) for r in rand]])


def _int_inputs(dtype: np.dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    special = [0, 1, 2, 3, 7, info.max, info.max - 1, info.min, info.min + 1, info.max // 2]
    if dtype.kind == "i":
        special += [-1, -2, -3, -7, info.min // 2]
    small = rng.integers(-9 if dtype.kind == "i" else 0, 10, 200)
    wide = rng.integers(info.min, info.max, 300, dtype=dtype, endpoint=True)
    return np.concatenate([np.array(special, dtype), small.astype(dtype), wide])


def _inputs(dtype: np.dtype, domain: str) -> np.ndarray:
    if dtype == BOOL:
        return rng.integers(0, 2, 64).astype(bool)
    if dtype.kind == "f":
        x = _float_inputs(dtype)
        # a float -> int cast out of range is undefined in LLVM (and numba): the generated code
        # saturates before casting, so only values that fit every integer type reach one
        return x[np.isfinite(x) & (x > -1) & (x < 127)] if domain == "cast" else x
    return _int_inputs(dtype)


def _columns(dtypes, domain):
    """Argument columns: all pairs of the inputs for two arguments, random tuples for more."""
    values = [_inputs(d, domain) for d in dtypes]
    if len(values) == 1:
        return values
    if len(values) == 2:
        a, b = values
        n = min(len(a), len(b), 120)
        pa, pb = np.repeat(a[:n], n), np.tile(b[:n], n)
        return [np.concatenate([pa, a[: len(b)]]), np.concatenate([pb, b[: len(a)]])]
    n = max(len(v) for v in values)
    return [rng.choice(v, n) for v in values]


def _cases():
    """(name, argument dtypes, the generated source's expression, domain, result index)."""
    out = []
    f32 = ("exp", "exp2", "expm1", "log", "log1p", "log10", "tanh", "logistic", "erf", "erf_inv")
    f32 += ("rsqrt", "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos")
    for n in (*f32, "sin", "cos", "tan"):
        out.append((f"vm.{n}_f32", (F32,), f"vm.{n}_f32({{0}})"))
    out.append(("vm.atan2_f32", (F32, F32), "vm.atan2_f32({0}, {1})"))
    unary = ("sqrt", "floor", "ceil", "trunc", "rint", "exp", "exp2", "log", "sin", "cos", "tan")
    unary += ("tanh", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh")
    unary += ("arctanh", "log1p", "expm1", "cbrt", "abs", "isfinite", "isnan")
    for d in (F32, F64):
        for n in ("radd", "rmul", "maximum", "minimum"):
            out.append((f"vm.{n}", (d, d), f"vm.{n}({{0}}, {{1}})"))
        out += [(f"np.{n}", (d,), f"np.{n}({{0}})") for n in unary]
        out += [(f"np.{n}", (d, d), f"np.{n}({{0}}, {{1}})") for n in ("copysign", "fmod")]
        out += [("np.arctan2", (d, d), "np.arctan2({0}, {1})"), ("**", (d, d), "{0} ** {1}")]
        out += [(f"math.{n}", (d,), f"math.{n}({{0}})") for n in ("erf", "lgamma")]
    out.append(("rt.erf_inv_f64", (F64,), "rt.erf_inv_f64({0})"))
    f64 = ("rsqrt", "exp", "exp2", "expm1", "tanh", "logistic", "sinh", "cosh", "log", "log1p")
    f64 += ("asinh", "acosh", "atanh", "asin", "acos", "erf", "cbrt", "tan", "atan", "sqrt")
    f64 += ("erf_inv", "lgamma", "digamma")
    out += [(f"vm.{n}_f64", (F64,), f"vm.{n}_f64({{0}})") for n in f64]
    out += [(f"vm.{n}_f64", (F64, F64), f"vm.{n}_f64({{0}}, {{1}})") for n in ("atan2", "pow")]
    out += [("rt.digamma", (d,), "rt.digamma({0})") for d in (F32, F64)]
    for d in INTS:
        out += [("np.abs", (d,), "np.abs({0})"), ("np.isfinite", (d,), "np.isfinite({0})")]
        out += [(n, (d, d), f"{n}({{0}}, {{1}})") for n in ("min", "max")]
        if d.kind == "i":
            out.append(("rt.idiv", (d, d), "rt.idiv({0}, {1})"))
        else:
            out.append(("rt.udiv", (d, d), "rt.udiv({0}, {1})"))
        out.append(("rt.irem", (d, d), "rt.irem({0}, {1})"))
    out.append(("np.abs", (BOOL,), "np.abs({0})"))
    out.append(("rt.popcount", (np.dtype(np.uint64),), "rt.popcount({0})"))
    for src, dst in ((F32, "int32"), ("int32", F32), (F64, "uint64"), ("uint32", "int32")):
        out.append(("rt.bitcast", (np.dtype(src), np.dtype(dst)), "rt.bitcast({0}, {1})"))
    for d in (F32, F64, np.dtype(np.int32), np.dtype(np.uint8), BOOL):
        out.append(("rt.where", (BOOL, d, d), "rt.where({0}, {1}, {2})"))
    out.append(("rt.where", (F32, F32, F32), "rt.where({0}, {1}, {2})"))
    u32 = (np.dtype(np.uint32),) * 4
    pair = "rt.threefry2x32({0}, {1}, {2}, {3})"
    out += [("rt.threefry2x32", u32, f"{pair}[{k}]") for k in (0, 1)]
    # casts: every kind of conversion (float <-> float, float -> signed/unsigned, widening and
    # narrowing of signed and unsigned ints, int -> float, to and from bool)
    some = [np.dtype(t) for t in ("float32", "float64", "int8", "int64", "uint8", "uint32", "bool")]
    others = [np.dtype(t) for t in ("float32", "float64", "int16", "int64", "uint8", "uint64")]
    for src in some:
        for dst in [*others, BOOL]:
            name = "np.bool_" if dst == BOOL else f"np.{dst.name}"
            out.append((name, (src,), f"{name}({{0}})"))
    return [(*c, _domain(*c)) for c in out]


def _domain(name: str, dtypes, expr: str) -> str:
    to_int = name.removeprefix("np.") in {d.name for d in INTS}
    return "cast" if to_int and dtypes[0].kind == "f" else ""


CASES = _cases()


def _ir_loop(module: ir.Module, k: int, name: str, dtypes, index: int | None) -> None:
    """`void case_k(in0*, ..., out*, i64 n)`: out[i] = name(in0[i], ...)."""
    result = vecmath.result_dtype(name, dtypes)
    out_dtype = result[index] if index is not None else result
    elem = [vecmath.llvm_type(d) if d != BOOL else ir.IntType(8) for d in (*dtypes, out_dtype)]
    fnty = ir.FunctionType(ir.VoidType(), [t.as_pointer() for t in elem] + [ir.IntType(64)])
    fn = ir.Function(module, fnty, name=f"case_{k}")
    entry, body, done = (fn.append_basic_block(s) for s in ("entry", "body", "done"))
    b = ir.IRBuilder(entry)
    n = fn.args[-1]
    b.cbranch(b.icmp_signed(">", n, ir.Constant(n.type, 0)), body, done)
    b.position_at_end(body)
    i = b.phi(n.type)
    i.add_incoming(ir.Constant(n.type, 0), entry)
    args = []
    for ptr, d in zip(fn.args, dtypes):
        v = b.load(b.gep(ptr, [i], inbounds=True))
        args.append(b.trunc(v, ir.IntType(1)) if d == BOOL else v)
    y = vecmath.emit_call(b, name, args, dtypes)
    if index is not None:
        y = b.extract_value(y, index)
    if out_dtype == BOOL:
        y = b.zext(y, ir.IntType(8))
    b.store(y, b.gep(fn.args[len(dtypes)], [i], inbounds=True))
    nxt = b.add(i, ir.Constant(n.type, 1))
    i.add_incoming(nxt, b.block)  # emit_call may have added blocks (rt.digamma's loop)
    b.cbranch(b.icmp_signed("<", nxt, n), body, done)
    b.position_at_end(done)
    b.ret_void()


def _numba_group(exprs: list[str], nargs: int):
    """One numba function with a loop per expression, as the numba back end compiles them."""
    args = [f"a{j}" for j in range(nargs)]
    outs = [f"o{k}" for k in range(len(exprs))]
    lines = [f"def group({', '.join(args + outs)}):"]
    for out, expr in zip(outs, exprs):
        lines.append(f"    for i in range({args[0]}.size):")
        lines.append(f"        {out}[i] = {expr.format(*(f'{a}[i]' for a in args))}")
    namespace = dict(globals())
    exec("\n".join(lines), namespace)
    return njit(**codegen.OPTIONS)(namespace["group"])


def _index(expr: str) -> int | None:
    return int(expr[-2]) if expr.endswith("]") else None


def test_kernel_flags_are_codegens():
    assert set(vecmath.KERNEL_FLAGS) == codegen.OPTIONS["fastmath"]
    # explicit, so that a runtime function does not keep its first caller's flags
    assert rt._OPTS["fastmath"] == codegen.OPTIONS["fastmath"]


@pytest.fixture(scope="module")
def compiled():
    module = ir.Module("vecmath_test")
    for k, (name, dtypes, expr, _) in enumerate(CASES):
        assert vecmath.supported(name, dtypes), (name, dtypes)
        _ir_loop(module, k, name, dtypes, _index(expr))
    with global_compiler_lock:
        library = cpu_target.target_context.codegen().create_library("vecmath_test")
        library.add_ir_module(module)
        library.finalize()
    return library


def _run_ours(library, k: int, columns, dtype) -> np.ndarray:
    out = np.zeros(len(columns[0]), dtype)
    proto = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * (len(columns) + 1), ctypes.c_int64)
    fn = proto(library.get_pointer_to_function(f"case_{k}"))
    fn(*[c.ctypes.data for c in columns], out.ctypes.data, len(out))
    return out


def test_bit_for_bit_with_numba(compiled):
    groups = defaultdict(list)
    for k, (name, dtypes, expr, domain) in enumerate(CASES):
        groups[(dtypes, domain)].append((k, name, expr))
    failures = []
    for (dtypes, domain), members in groups.items():
        columns = _columns(dtypes, domain)
        ours = []
        for k, name, expr in members:
            result = vecmath.result_dtype(name, dtypes)
            dtype = result if _index(expr) is None else result[_index(expr)]
            ours.append(_run_ours(compiled, k, columns, dtype))
        theirs = [np.zeros_like(o) for o in ours]
        _numba_group([expr for _, _, expr in members], len(dtypes))(*columns, *theirs)
        for (_, _, expr), mine, ref in zip(members, ours, theirs):
            bits = f"u{mine.dtype.itemsize}"
            bad = np.flatnonzero(mine.view(bits) != ref.view(bits))
            if len(bad):
                args = [c[bad[0]] for c in columns]
                failures.append(
                    f"{expr} on {[d.name for d in dtypes]}: {len(bad)} differ, e.g. {args} -> "
                    f"{mine[bad[0]]!r}, numba {ref[bad[0]]!r}"
                )
    assert not failures, "\n".join(failures)


def test_unsupported_is_said():
    assert not vecmath.supported("np.sqrt", [np.dtype(np.int32)])
    assert not vecmath.supported("vm.exp_f32", [F64])
    assert not vecmath.supported("rt.no_such_routine", [F64, F64])
    with pytest.raises(vecmath.UnsupportedCallError, match="rt.no_such_routine"):
        vecmath.emit_call(ir.IRBuilder(), "rt.no_such_routine", [], [F64, F64])


def _fold_loop(module: ir.Module, name: str, dtype: np.dtype, call: str, op: str, start: float):
    """`void name(a*, b*, out*, i64 n)`: acc = start; acc = call(acc, a[i] <op> b[i]); out[0] = acc
    (`op` "*" or "+", the kernel's arithmetic with the kernel's flags)."""
    t = vecmath.llvm_type(dtype)
    fnty = ir.FunctionType(ir.VoidType(), [t.as_pointer()] * 3 + [ir.IntType(64)])
    fn = ir.Function(module, fnty, name=name)
    entry, body, done = (fn.append_basic_block(s) for s in ("entry", "body", "done"))
    b = ir.IRBuilder(entry)
    a_ptr, b_ptr, out, n = fn.args
    b.branch(body)
    b.position_at_end(body)
    i, acc = b.phi(n.type), b.phi(t)
    i.add_incoming(ir.Constant(n.type, 0), entry)
    acc.add_incoming(ir.Constant(t, start), entry)
    x, y = (b.load(b.gep(p, [i], inbounds=True)) for p in (a_ptr, b_ptr))
    term = (b.fmul if op == "*" else b.fadd)(x, y, flags=vecmath.KERNEL_FLAGS)
    new = vecmath.emit_call(b, call, [acc, term], [dtype, dtype])
    nxt = b.add(i, ir.Constant(n.type, 1))
    i.add_incoming(nxt, body)
    acc.add_incoming(new, body)
    b.cbranch(b.icmp_signed("<", nxt, n), body, done)
    b.position_at_end(done)
    b.store(new, out)
    b.ret_void()


def test_reductions_bit_for_bit_with_numba():
    """The reassociable sums and products and the NaN-propagating max/min as reduction loops
    (vectorized and interleaved by LLVM: the order of the partial results must match too)."""
    folds = [("vm.radd", "*", 0.0), ("vm.rmul", "*", 1.0), ("vm.maximum", "*", -np.inf)]
    folds.append(("vm.minimum", "+", np.inf))
    module, lines, names = ir.Module("folds"), ["def folds(a, b, c, d, out):"], []
    for dtype, (x, y) in ((F32, "ab"), (F64, "cd")):
        for call, op, start in folds:
            names.append((f"fold_{len(names)}", dtype))
            _fold_loop(module, names[-1][0], dtype, call, op, start)
            lines += [f"    acc = np.{dtype.name}({start!r})", f"    for i in range({x}.size):"]
            lines += [f"        acc = {call}(acc, {x}[i] {op} {y}[i])"]
            lines += [f"    out[{len(names) - 1}] = acc"]
    with global_compiler_lock:
        library = cpu_target.target_context.codegen().create_library("folds")
        library.add_ir_module(module)
        library.finalize()
    namespace = dict(globals(), inf=np.inf)
    exec("\n".join(lines), namespace)
    inputs = {}
    for dtype in (F32, F64):  # products of 1001 such factors stay normal numbers
        inputs[dtype] = [rng.uniform(0.95, 1.05, 1001).astype(dtype) for _ in range(2)]
    theirs = np.zeros(len(names))
    njit(**codegen.OPTIONS)(namespace["folds"])(*inputs[F32], *inputs[F64], theirs)
    proto = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 3, ctypes.c_int64)
    for (name, dtype), ref in zip(names, theirs):
        a, b = inputs[dtype]
        mine = np.zeros(1, dtype)
        fn = proto(library.get_pointer_to_function(name))
        fn(a.ctypes.data, b.ctypes.data, mine.ctypes.data, len(a))
        assert mine[0] == dtype.type(ref), name
