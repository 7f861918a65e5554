"""The fast-math choices made in the IR (core/backends/llvm/settle.py, `translate.LANES`): FMAs
where O3 contracted, reciprocals where it multiplied, sums in fixed lanes; no flag left to the
pipeline; a nest compiled by the quick tier's code generator and by O3 gives the same bits, and
its sum is `LANES`'s order, computed here with numpy."""

import ast
import ctypes
from fractions import Fraction

import numpy as np
import pytest
from llvmlite import binding as llvm
from llvmlite import ir
from numba.core import types
from numba.core.compiler_lock import global_compiler_lock

from core.backends.llvm import target, translate, vecmath

F32, F64, I64 = "float32", "float64", "int64"


def _ir(source: str, params: tuple) -> tuple[str, list[str]]:
    """The IR text of nest `source` (its parameters `(name, kind, dtype, writable)`) and the
    order of its function's parameters."""
    env = {}
    for name, kind, dtype, writable in params:
        ty = translate.scalar_type(dtype)
        env[name] = types.Array(ty, 1, "C", readonly=not writable) if kind == "a" else ty
    nest = translate.Nest(ast.parse(source).body[0], env, [], vecmath)
    module = ir.Module(name="settle_test")
    nest.function(module, "settle_test", True)
    return str(module), [name for name, _, _ in nest.params]


def _body(text: str) -> str:
    return text.split("define void", 1)[1]


AXPY = (
    "for i in range(n):\n    t1 = rt.ld(a, i) * rt.ld(b, i)\n    t2 = t1\n"
    "    rt.st(o, i, t2 + rt.ld(c, i))"
)
ARGS3 = (("a", "a", F32, False), ("b", "a", F32, False), ("c", "a", F32, False))
OUT = (("o", "a", F32, True), ("n", "s", I64, False))


@pytest.mark.parametrize(
    "source, params, fma, fdiv",
    [
        (AXPY, ARGS3 + OUT, 1, 0),  # through two slots
        # a product read twice stays a product (O3 fused only products with one user)
        (
            "for i in range(n):\n    t1 = rt.ld(a, i) * rt.ld(b, i)\n"
            "    rt.st(o, i, t1 + rt.ld(c, i) + t1)",
            ARGS3 + OUT,
            0,
            0,
        ),
        # across numba's empty `if divisor == 0:` diamond of a division, and a ufunc's loop
        (
            "for i in range(n):\n    t1 = rt.ld(a, i) * rt.ld(b, i)\n"
            "    t2 = rt.ld(c, i) / (rt.ld(a, i) + rt.ld(b, i))\n    t3 = np.abs(t2)\n"
            "    rt.st(o, i, t1 + t3)",
            ARGS3 + OUT,
            1,
            1,
        ),
        # a loop-invariant divisor: its reciprocal (hoisted by O3), a multiplication
        (
            "for i in range(n):\n    for j in range(n):\n"
            "        rt.st(o, i * n + j, rt.ld(a, i * n + j) / rt.ld(b, i))",
            ARGS3 + OUT,
            0,
            1,
        ),
        # a constant divisor: a multiplication by its reciprocal, as instcombine made it
        ("for i in range(n):\n    rt.st(o, i, rt.ld(a, i) / 7.0)", ARGS3 + OUT, 0, 0),
    ],
)
def test_choices_are_in_the_ir_and_no_flag_is_left(source, params, fma, fdiv):
    body = _body(_ir(source, params)[0])
    assert body.count('call float @"llvm.fma.f32"') == fma
    assert body.count("fdiv") == fdiv
    for flag in ("contract", "arcp", "reassoc"):
        assert flag not in body


def test_a_variant_divisor_is_divided_by():
    source = "for i in range(n):\n    rt.st(o, i, rt.ld(a, i) / rt.ld(b, i))"
    body = _body(_ir(source, ARGS3 + OUT)[0])
    assert "fdiv float %" in body and "0x3ff0000000000000" not in body  # no reciprocal


ROWS = (
    "for i in range(m):\n    acc = c_{code}_0\n    for j in range(n):\n"
    "        acc = vm.radd(acc, rt.ld(a, i * n + j){square})\n    rt.st(o, i, acc)"
)


def _compiled(text: str, order: list[str], quick: bool):
    """Nest `text` compiled by the quick tier's code generator or numba's O3 one: its code
    library and `f(o, a, m, n)`."""
    gen = target.quick_codegen() if quick else target.codegen()
    library = gen.create_library(f"settle_test_{quick}")
    library.add_llvm_module(llvm.parse_assembly(text))
    with global_compiler_lock:
        library.finalize()
    kinds = {"o": ctypes.c_void_p, "a": ctypes.c_void_p, "m": ctypes.c_int64, "n": ctypes.c_int64}
    address = library.get_pointer_to_function("settle_test")
    fn = ctypes.CFUNCTYPE(None, *[kinds[name] for name in order])(address)
    return library, lambda **values: fn(*[values[name] for name in order])


def _lanes_sum(x: np.ndarray, square: bool) -> np.generic:
    """`translate.LANES`'s order of `sum(x)` (of `x * x`: each product fused into its sum)."""
    t = x.dtype.type
    k, width = translate.LANES[x.dtype.name]
    whole = len(x) // k
    acc = t(0)
    if whole:
        lanes = np.zeros(k, x.dtype)
        for b in range(whole):
            block = x[b * k : (b + 1) * k]
            if square:
                lanes = np.array([_fma(v, v, a) for v, a in zip(block, lanes)], x.dtype)
            else:
                lanes = lanes + block
        total = lanes[:width]
        for p in range(width, k, width):
            total = lanes[p : p + width] + total
        while width > 1:
            width //= 2
            total = total[:width] + total[width : 2 * width]
        acc = total[0]
    for v in x[whole * k :]:  # in order, a product fused into its sum (as O3 contracted it)
        acc = _fma(v, v, acc) if square else t(acc + v)
    return acc


def _fma(x, y, z):
    """`x * y + z` rounded once to the type of `x` (exactly, with fractions)."""
    exact = Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))
    near = x.dtype.type(float(exact))  # within one step of the nearest
    candidates = [
        np.nextafter(near, x.dtype.type(-np.inf)),
        near,
        np.nextafter(near, x.dtype.type(np.inf)),
    ]

    def error(c):
        bits = int(np.asarray(c).view(f"u{x.dtype.itemsize}"))
        return abs(Fraction(float(c)) - exact), bits & 1  # ties to the even one

    return min(candidates, key=error)


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("square", [False, True])
def test_both_tiers_sum_in_the_lanes_order(dtype, square):
    code = "f4" if dtype == F32 else "f8"
    source = ROWS.format(code=code, square=" * rt.ld(a, i * n + j)" if square else "")
    params = (("o", "a", dtype, True), ("a", "a", dtype, False), ("m", "s", I64, False))
    text, order = _ir(source, (*params, ("n", "s", I64, False)))
    compiled = [_compiled(text, order, quick) for quick in (True, False)]
    rng = np.random.default_rng(1)
    for n in [*range(70), 100, 255, 1000]:
        x = rng.standard_normal((3, n)).astype(dtype)
        want = np.array([_lanes_sum(row, square) for row in x], dtype)
        for _, fn in compiled:
            got = np.zeros(3, dtype)
            fn(o=got.ctypes.data, a=x.ctypes.data, m=3, n=n)
            np.testing.assert_array_equal(got, want, err_msg=f"n={n}")


EXTREMA = (
    "for i in range(m):\n    acc = {start}\n    for j in range(n):\n"
    "        acc = vm.{fn}(acc, rt.ld(a, i * n + j))\n    rt.st(o, i, acc)"
)
# -inf and +inf, the identities of a row's maximum and minimum, by their bits
_INF_BITS = {
    (F32, "maximum"): "c_f4_ff800000",
    (F32, "minimum"): "c_f4_7f800000",
    (F64, "maximum"): "c_f8_fff0000000000000",
    (F64, "minimum"): "c_f8_7ff0000000000000",
}


def _extremum(row: np.ndarray, fn: str) -> np.generic:
    """`llvm.maximum`/`minimum` folded over `row` from its identity: NaN if any is, -0 below +0."""
    if np.isnan(row).any():
        return row.dtype.type(np.nan)
    sign = -1 if fn == "minimum" else 1
    start = row.dtype.type(-sign * np.inf)
    return max([start, *row], key=lambda v: (sign * v, sign * (not np.signbit(v))))


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("fn", ["maximum", "minimum"])
def test_both_tiers_fold_extrema_in_lanes_to_the_ordered_bits(dtype, fn):
    """A row's maximum (a softmax's) folds in `LANES` too (vectorized; O3 left it scalar): any
    order gives the same value, NaNs propagated, +0 above -0, in both tiers."""
    source = EXTREMA.format(start=_INF_BITS[dtype, fn], fn=fn)
    params = (("o", "a", dtype, True), ("a", "a", dtype, False), ("m", "s", I64, False))
    text, order = _ir(source, (*params, ("n", "s", I64, False)))
    assert f'@"llvm.{fn}.v{translate.LANES[dtype][0]}' in text  # the lanes' fold
    compiled = [_compiled(text, order, quick) for quick in (True, False)]
    rng = np.random.default_rng(2)
    for n in [*range(70), 100, 1000]:
        x = rng.standard_normal((5, n)).astype(dtype)
        x[1] = np.where(rng.random(n) < 0.5, -0.0, 0.0)  # signed zeros only
        x[2, n // 3 :: 7] = np.nan
        x[3, : n // 2] = -np.inf
        want = np.array([_extremum(row, fn) for row in x], dtype)
        for _, f in compiled:
            got = np.zeros(5, dtype)
            f(o=got.ctypes.data, a=x.ctypes.data, m=5, n=n)
            np.testing.assert_array_equal(got, want, err_msg=f"n={n}")
            np.testing.assert_array_equal(np.signbit(got), np.signbit(want), err_msg=f"n={n}")
