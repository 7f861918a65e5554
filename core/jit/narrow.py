"""bfloat16 and float16 programs compiled as float32 programs that round as XLA's CPU does.

XLA's CPU compiler computes each bfloat16 or float16 operation in float32 and converts its
result back (round to nearest even; a NaN becomes the quiet NaN of its sign), also inside fused
loops: `jit(lambda x: x * 3 + 1)` rounds twice. Its products and convolutions convert their
operands to float32, accumulate in float32 and round the result once. numba cannot type
`ml_dtypes.bfloat16` arrays nor compute in float16, so `widen` rewrites a jaxpr holding them
into one the numba back end compiles, one `Format` (16-bit dtype) after the other:

- every 16-bit value becomes a float32 value holding a number of its dtype; each equation that
  makes one is followed by the format's rounding (`round_bfloat16`, `round_float16`: one
  elementwise expression of integer operations, fused into the loop that computes the value)
  unless its results are some of its operands' elements or their negations (`EXACT`);
- the program's 16-bit inputs and outputs are uint16 (the arrays' bits, viewed without a copy
  by `Widened.wrap`), widened by integer operations on load and rounded and narrowed on store;
- XLA's own decompositions round at their steps too: `logistic` is `1 / (1 + exp(-x))`,
  `exp2(x)` is `exp(x * ln 2)` (ln 2 in the dtype), `integer_pow` squares and multiplies,
  asin/acos/asinh/acosh/atanh are StableHLO's CHLO expansions (checked on every 16-bit
  number), each step rounded; on float16 also `expm1` (XLA's `tanh(x/2) * (exp(x) + 1)`);
  conversions from float64 and integers round through float32;
- `reduce_sum` (a bias's gradient) and `reduce_prod` accumulate in the 16-bit dtype, each step
  rounded, in XLA's order (`_rounded_reduce`: windows of 32 along every reduced axis longer
  than that, each window in row-major order, then the windows' results), `cumsum`/`cumprod`
  as XLA's reduce-windows in blocks of 16 (`_cumulative`), `reduce_window_sum` (average
  pooling, its gradient) in the order LLVM gives XLA's loop (`_window_order`: by rows, by
  columns, or in vector lanes on float16).

Where the formats differ (checked against JAX 0.10.2 on this CPU, `tests/core/jit/
record_narrow.py`): a bfloat16 result converted to float32 right away is converted unrounded
(XLA's excess precision: `(x * 3 + 1).astype(float32)` rounds the product only) unless it only
moved (reshape, neg, max, select); float16 results are always rounded. XLA widens bfloat16 to
float32 before its algebraic simplifier, which rewrites float16 programs as float32 ones
(`core/jit/simplify.py`), each new step rounded: a division by a broadcast (a literal, a
broadcast or a conversion of one, an operand with size-1 axes) is a product with the
divisor's reciprocal rounded to float16 (`x / 7` is `x * 0.14282`, softmax multiplies by its
sums' reciprocals), `(A / B) / C` is `A / (B * C)`, `(A * C1) * C2` is `A * fl16(C1 * C2)`
and `(A + C1) + C2` is `A + fl16(C1 + C2)` for constants (also across the first step of an
expansion: `acosh(x + 1)`), `A * 1` is `A`. XLA lowers bfloat16 to float32 before its
elemental code, so bfloat16 expm1 is float32's rounded, while float16 keeps XLA's float16
expansions. float16 equations whose primitive is not in `FLOAT16.checked` (lgamma,
digamma, ...) raise `UnsupportedDTypeError` and the program falls back to the numpy back
end.

Partial (results within a rounding of JAX's, not its bits): float16 `reduce_window_sum` over
windows along three or more axes and 16-bit ones over more than 64 elements, `reduce_sum`/
`reduce_prod` over two or more axes where LLVM vectorizes XLA's float16 loop (float16 sums over
R x C with R a power of two; measured, not reproduced), scatter-adds with repeated indices
(computed in float32 and rounded once), XLA's float16 simplifications not listed above;
float32 products and convolutions sum in another order than XLA's, and a division by a
loop-invariant divisor is a product with its float32 reciprocal (`core/jit/codegen.py`'s
`arcp`): the rounding to 16 bits hides both but for rare ties. Conversions from float64 to
float16 round twice (through float32; XLA once). XLA's CPU code flushes float32 subnormal
numbers (FTZ/DAZ), numbax's does not (float16's subnormal numbers are float32 normal ones:
both keep them). NaN payloads and signs: numbax's roundings make every NaN the quiet NaN of
its sign, XLA's float16 conversions keep payload bits (its acosh(x < 1) is 0xFFFF), and the
`EXACT` equations pass inputs' payloads through (XLA quiets them). Bitcasts between a 16-bit
float and types of another width raise `UnsupportedDTypeError`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import ml_dtypes
import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import ClosedJaxpr, Eqn, Jaxpr, Literal, Var, sub_jaxprs
from core.jit.canonical import composition_jaxpr, explicit_mul_dtype
from core.jit.errors import UnsupportedDTypeError
from core.prims.narrow import IDENTITY, ROUNDING, rounded_reduce_p
from core.prims.sorting import SCAN_BLOCK

BF16 = dtypes.bfloat16
F16 = dtypes.float16
F32 = np.dtype(np.float32)
U16 = np.dtype(np.uint16)
U32 = np.dtype(np.uint32)


# Equations whose 16-bit results are operands' elements, their negations or magnitudes, or
# integers they round to (all numbers of the dtype): no rounding after them.
EXACT = frozenset(
    {
        "abs",
        "broadcast_in_dim",
        "ceil",
        "clamp",
        "concatenate",
        "copy",
        "cummax",
        "cummin",
        "dynamic_slice",
        "dynamic_update_slice",
        "floor",
        "gather",
        "max",
        "min",
        "neg",
        "pad",
        "reduce_max",
        "reduce_min",
        "reduce_window_max",
        "reduce_window_min",
        "reshape",
        "rev",
        "round",
        "scatter",
        "scatter-max",
        "scatter-min",
        "select_n",
        "sign",
        "slice",
        "sort",
        "squeeze",
        "stack",
        "stop_gradient",
        "top_k",
        "transpose",
    }
)
_NARROW = (BF16, F16)


def narrow_dtypes(jaxpr: Jaxpr, found: set | None = None) -> set:
    """The 16-bit float dtypes `jaxpr` (or a jaxpr in its equations' parameters) holds as an
    input, an equation's output, a literal operand or a literal output (`jit` of a function
    returning a constant); this walk is all a float32 program's compile pays for the rewrite
    (about 1 us per equation)."""
    found = set() if found is None else found
    for v in (*jaxpr.constvars, *jaxpr.invars, *jaxpr.outvars):
        if v.aval.dtype in _NARROW:
            found.add(v.aval.dtype)
    for e in jaxpr.eqns:
        for v in e.outputs:
            if v.aval.dtype in _NARROW:
                found.add(v.aval.dtype)
        for x in e.inputs:
            if type(x) is Literal and x.aval.dtype in _NARROW:
                found.add(x.aval.dtype)
        if e.prim.higher_order:
            for v in e.params.values():
                for j in sub_jaxprs(v):
                    narrow_dtypes(j, found)
    return found


class Widened:
    """`jaxpr` rewritten by `widen`: `jaxpr` takes and returns uint16 where the original
    took and returned a 16-bit float (`views`: (dtype, input positions, output positions))."""

    def __init__(self, jaxpr: Jaxpr, views: list[tuple[np.dtype, list[int], list[int]]]):
        self.jaxpr = jaxpr
        self.views = views

    def wrap(self, call: Callable[..., list[np.ndarray]]) -> Callable[..., list[np.ndarray]]:
        """The executable of the original jaxpr from `call`, the compiled widened one: its
        16-bit float arguments go in as their uint16 bits, its uint16 results come back viewed
        as their dtypes (no copies). It has no `kernel` attribute: `jit`'s call path calls it
        as it calls the numpy back end's executables."""
        views = self.views

        def run(*args):
            args = list(args)
            for dtype, ins, _ in views:
                for i in ins:
                    args[i] = np.asarray(args[i], dtype).view(U16)
            results = list(call(*args))
            for dtype, _, outs in views:
                for i in outs:
                    results[i] = np.asarray(results[i]).view(dtype)
            return results

        run.source = getattr(call, "source", None)
        return run


def widen(jaxpr: Jaxpr) -> Widened | None:
    """`jaxpr` as a program without bfloat16 or float16 values (see the module docstring), or
    None if it has none.

    Args:
      jaxpr: a jaxpr (its constvars, if any, are taken as leading inputs).

    Returns:
      The `Widened` program, or None.

    Raises:
      UnsupportedDTypeError: it holds a 16-bit float operation this rewrite cannot express
        (a bitcast to a type of another width, a float16 primitive not checked against XLA).
    """
    found = narrow_dtypes(jaxpr)
    if not found:
        return None
    views = []
    for fmt in FORMATS:
        if fmt.dtype in found:
            jaxpr, narrow_in, narrow_out = _widen_outer(jaxpr, fmt)
            views.append((fmt.dtype, narrow_in, narrow_out))
    return Widened(jaxpr, views)


def _widen_outer(jaxpr: Jaxpr, fmt: Format) -> tuple[Jaxpr, list[int], list[int]]:
    w = _Widener(fmt)
    inputs = [*jaxpr.constvars, *jaxpr.invars]
    new_in, narrow_in = [], []
    for i, v in enumerate(inputs):
        if w.narrow(v.aval):
            bits = Var(v.aval.update(dtype=U16))
            w.env[v] = w.inline(fmt.load, [bits])[0]
            new_in.append(bits)
            narrow_in.append(i)
        else:
            new_in.append(w.env.setdefault(v, v))
    w.eqns_of(jaxpr.eqns)
    new_out, narrow_out = [], []
    for i, x in enumerate(jaxpr.outvars):
        y = w.atom(x)
        if isinstance(x, Var | Literal) and w.narrow(x.aval):
            y = w.inline(fmt.store, [y])[0]
            narrow_out.append(i)
        new_out.append(y)
    return Jaxpr([], new_in, w.eqns, new_out), narrow_in, narrow_out


# ---------------------------------------------------------------------------------------------
# The pieces, written with lax and traced (`_Widener.inline`)


_LAX: list = []  # `core.lax`, which registers itself when it loads (it is a higher layer)


def register_lax(module: Any) -> None:
    """Hands this module `core.lax`, whose wrappers the pieces below are written with."""
    _LAX[:] = [module]


def _ops():
    return _LAX[0]


def _u32(x, v: int):
    return _ops().full_like(x, v, U32)


def _load_bf16(bits):
    lax = _ops()
    wide = lax.shift_left(lax.convert_element_type(bits, U32), np.uint32(16))
    return [lax.bitcast_convert_type(wide, F32)]


def _store_bf16(x):
    lax = _ops()
    # a float32 value of the program holds a bfloat16 number: its high half is that number
    bits = lax.shift_right_logical(lax.bitcast_convert_type(x, U32), np.uint32(16))
    return [lax.convert_element_type(bits, U16)]


def _load_f16(bits):
    # normal numbers and inf/nan: the exponent rebiased (+112, or to 255), the mantissa
    # shifted; subnormal numbers: their mantissa times 2**-24; then the sign
    lax = _ops()
    h = lax.convert_element_type(bits, U32)
    mag = lax.bitwise_and(h, _u32(h, 0x7FFF))
    exponent = lax.bitwise_and(h, _u32(h, 0x7C00))
    bias = lax.select(lax.eq(exponent, _u32(h, 0x7C00)), _u32(h, 0x70000000), _u32(h, 0x38000000))
    normal = lax.add(lax.shift_left(mag, _u32(h, 13)), bias)
    sub = lax.mul(lax.convert_element_type(mag, F32), lax.full_like(mag, 2.0**-24, F32))
    sub = lax.bitcast_convert_type(sub, U32)
    wide = lax.select(lax.eq(exponent, _u32(h, 0)), sub, normal)
    sign = lax.shift_left(lax.bitwise_and(h, _u32(h, 0x8000)), _u32(h, 16))
    return [lax.bitcast_convert_type(lax.bitwise_or(wide, sign), F32)]


def _store_f16(x):
    # a float32 value of the program holds a float16 number: the inverse of `_load_f16`
    # (a NaN becomes float16's quiet NaN of its sign)
    lax = _ops()
    u = lax.bitcast_convert_type(x, U32)
    a = lax.bitwise_and(u, _u32(u, 0x7FFFFFFF))
    sign = lax.bitwise_and(lax.shift_right_logical(u, _u32(u, 16)), _u32(u, 0x8000))
    normal = lax.shift_right_logical(lax.sub(a, _u32(u, 0x38000000)), _u32(u, 13))
    magnitude = lax.bitcast_convert_type(a, F32)
    sub = lax.convert_element_type(lax.mul(magnitude, lax.full_like(magnitude, 2.0**24)), U32)
    finite = lax.select(lax.lt(a, _u32(u, 0x38800000)), sub, normal)
    special = lax.select(lax.gt(a, _u32(u, 0x7F800000)), _u32(u, 0x7E00), _u32(u, 0x7C00))
    bits = lax.select(lax.ge(a, _u32(u, 0x7F800000)), special, finite)
    return [lax.convert_element_type(lax.bitwise_or(bits, sign), U16)]


# XLA's expansions, each step rounded (`fmt.round`) but the last (`_composition` rounds it, and
# keeps the unrounded value for a conversion to float32)


def _logistic(x, *, fmt):
    lax, r = _ops(), fmt.round
    e = r(lax.exp(r(lax.neg(x))))
    return [lax.div(_c(x, 1), r(lax.add(e, _c(x, 1))))]


def _exp2(x, *, fmt):
    lax = _ops()
    return [lax.exp(fmt.round(lax.mul(x, _c(x, fmt.ln2))))]


def _expm1_f16(x, *, fmt):
    # XLA's float16 expm1: tanh(x/2) * (exp(x) + 1), exp(x) - 1 where |x| > 0.5, x where x/2
    # is 0
    lax, r = _ops(), fmt.round
    half = r(lax.mul(x, _c(x, 0.5)))
    e = r(lax.exp(x))
    small = lax.mul(r(lax.tanh(half)), r(lax.add(e, _c(x, 1))))
    value = lax.select(lax.gt(lax.abs(x), _c(x, 0.5)), lax.sub(e, _c(x, 1)), small)
    return [lax.select(lax.eq(half, _c(x, 0)), x, value)]


def _integer_pow(x, *, y, fmt):
    # repeated squaring, as XLA expands it (and the numba rule of integer_pow); a negative
    # power is the reciprocal of the positive one. Values are kept unrounded and rounded where
    # a step reads them.
    lax = _ops()
    r = lambda v: v if v is x else fmt.round(v)  # noqa: E731
    n, acc, base = abs(y), None, x
    while n:
        if n & 1:
            acc = base if acc is None else lax.mul(r(acc), r(base))
        n >>= 1
        if n:
            base = lax.mul(r(base), r(base))
    if acc is None:
        return [_c(x, 1)]
    return [acc if y >= 0 else lax.div(_c(x, 1), r(acc))]


def _c(x, value: float):
    return _ops().full_like(x, value)


# XLA's CHLO expansions (StableHLO's `chlo` legalization, in the 16-bit dtype: each step is
# one float32 operation rounded), the same on bfloat16 and float16 but for their constants
# (`Format.sqrt_max`, `Format.half_max`, `Format.ln2`); checked on every 16-bit number


def _root_of_one_minus_square(x, r):  # sqrt((1 - x)(x + 1))
    lax = _ops()
    return r(lax.sqrt(r(lax.mul(r(lax.sub(_c(x, 1), x)), r(lax.add(x, _c(x, 1)))))))


def _asin(x, *, fmt):  # 2 atan2(x, 1 + sqrt((1 - x)(x + 1)))
    lax, r = _ops(), fmt.round
    root = _root_of_one_minus_square(x, r)
    half = r(lax.atan2(x, r(lax.add(root, _c(x, 1)))))
    return [lax.add(half, half)]


def _acos(x, *, fmt):  # atan2(sqrt((1 - x)(x + 1)), x)
    return [_ops().atan2(_root_of_one_minus_square(x, fmt.round), x)]


def _log_large(x, fmt):  # log(x) + log(2), for x where x * x overflows
    lax, r = _ops(), fmt.round
    return r(lax.add(r(lax.log(x)), _c(x, fmt.ln2)))


def _asinh(x, *, fmt):
    # sign(x) * (log(|x|) + log 2 if |x| >= sqrt(max) else log1p(|x| + x^2 / (1 + sqrt(1 + x^2))))
    lax, r = _ops(), fmt.round
    a = lax.abs(x)
    sq = r(lax.mul(a, a))
    root = r(lax.sqrt(r(lax.add(sq, _c(x, 1)))))
    small = r(lax.log1p(r(lax.add(a, r(lax.div(sq, r(lax.add(root, _c(x, 1)))))))))
    big = lax.ge(a, _c(x, fmt.sqrt_max))
    return [lax.mul(r(lax.sign(x)), lax.select(big, _log_large(a, fmt), small))]


def _acosh(
    x, *, fmt
):  # log(x) + log 2 if x >= max / 2 else log1p(sqrt(x-1) (sqrt(x+1) + sqrt(x-1)))
    lax, r = _ops(), fmt.round
    below = r(lax.sqrt(r(lax.add(x, _c(x, -1)))))
    above = r(lax.sqrt(r(lax.add(x, _c(x, 1)))))
    small = lax.log1p(r(lax.mul(below, r(lax.add(above, below)))))
    big = lax.ge(x, _c(x, fmt.half_max))
    return [lax.select(big, _log_large(x, fmt), r(small))]


def _atanh(x, *, fmt):  # (log1p(x) - log1p(-x)) / 2, nan where |x| > 1
    lax, r = _ops(), fmt.round
    diff = r(lax.sub(r(lax.log1p(x)), r(lax.log1p(r(lax.neg(x))))))
    half = r(lax.mul(diff, _c(x, 0.5)))
    return [lax.select(lax.gt(lax.abs(x), _c(x, 1)), _c(x, np.nan), half)]


_CHLO = {f.__name__[1:]: f for f in (_asin, _acos, _asinh, _acosh, _atanh)}


def eager_expansion(name: str, x: np.ndarray) -> np.ndarray:
    """XLA's expansion `name` (`Format.expansions`) on 16-bit float `x`, eagerly: computed in
    float32 with the same kernels and roundings as the compiled program, so eager results
    equal `jit`'s bit for bit."""
    fmt = FORMAT_OF[np.asarray(x).dtype]
    (out,) = fmt.expansions[name](_ops().convert_element_type(np.asarray(x), F32), fmt=fmt)
    return np.asarray(fmt.round(out)).astype(fmt.dtype)


def _rounded_reduce(x, *, axes, op, fmt):
    """XLA's 16-bit `reduce_sum` (`op="add"`) or `reduce_prod` (`"mul"`) over `axes`: XLA's
    CPU compiler cuts every reduced axis of more than 32 elements into windows of 32 (padded
    with the identity, split between both ends, the smaller half first), reduces each window's
    elements in row-major order, each step rounded, and reduces the windows' results the same
    way (checked against JAX on one to three reduced axes, major and minor)."""
    lax = _ops()
    total = lambda v: rounded_reduce_p.bind(v, dtype=fmt.dtype, op=op)  # noqa: E731
    shape, axes = x.shape, tuple(sorted(axes))
    rest = [d for d in range(len(shape)) if d not in axes]
    sizes = [shape[d] for d in axes]
    m = _prod(shape[d] for d in rest)
    x = lax.reshape(lax.transpose(x, (*axes, *rest)), (*sizes, m))
    identity = np.float32(IDENTITY[op])
    while any(s > 32 for s in sizes):
        ks = [-(-s // 32) if s > 32 else 1 for s in sizes]
        ws = [32 if s > 32 else s for s in sizes]
        pads = [k * w - s for k, w, s in zip(ks, ws, sizes)]
        x = lax.pad(x, identity, [(p // 2, p - p // 2, 0) for p in pads] + [(0, 0, 0)])
        x = lax.reshape(x, (*[v for k, w in zip(ks, ws) for v in (k, w)], m))
        r = len(sizes)
        x = lax.transpose(x, (*range(1, 2 * r, 2), *range(0, 2 * r, 2), 2 * r))
        x = total(lax.reshape(x, (_prod(ws), _prod(ks) * m)))
        x, sizes = lax.reshape(x, (*ks, m)), ks
    x = total(lax.reshape(x, (_prod(sizes), m)))
    return [lax.reshape(x, tuple(shape[d] for d in rest))]


def _prod(sizes) -> int:
    return int(np.prod(list(sizes), dtype=np.int64))


_STEP = {"add": lambda lax: lax.add, "mul": lambda lax: lax.mul}


def _cumulative(x, *, axis, reverse, op, fmt):
    """XLA's 16-bit `cumsum` (`op="add"`) or `cumprod` (`"mul"`): JAX lowers them on the CPU
    to a reduce-window over the whole axis, whose windows XLA folds from the identity in
    increasing index order, each step rounded; XLA's ReduceWindowRewriter cuts an axis of more
    than 16 elements into blocks of 16 (the last padded with the identity), scans each block,
    scans the blocks' totals (the same way) and combines each element with the total before
    its block (checked against JAX on 8 to 1000 elements, both directions)."""
    lax = _ops()
    last = x.ndim - 1
    perm = tuple(d for d in range(x.ndim) if d != axis) + (axis,)
    if axis != last:
        x = lax.transpose(x, perm)
    y = _scan_last(x, reverse, op, fmt)
    return [lax.transpose(y, tuple(np.argsort(perm))) if axis != last else y]


def _scan_last(x, reverse, op, fmt):
    """`_cumulative` along the last axis; its last step (the blocks' combination) unrounded."""
    lax = _ops()
    *lead, n = x.shape
    if n <= SCAN_BLOCK:
        return _window_scan(x, reverse, op, fmt)
    blocks = -(-n // SCAN_BLOCK)
    keep = [(0, 0, 0)] * len(lead)
    identity = np.float32(IDENTITY[op])
    x = lax.pad(x, identity, [*keep, (0, blocks * SCAN_BLOCK - n, 0)])
    inner = _window_scan(lax.reshape(x, (*lead, blocks, SCAN_BLOCK)), reverse, op, fmt)
    end = 0 if reverse else SCAN_BLOCK - 1
    totals = lax.reshape(lax.slice_in_dim(inner, end, end + 1, axis=-1), (*lead, blocks))
    totals = fmt.round(_scan_last(totals, reverse, op, fmt))
    # the total of the blocks before (after, when reversed) each block
    shifted = (
        lax.slice_in_dim(totals, 1, blocks, axis=-1)
        if reverse
        else (lax.slice_in_dim(totals, 0, blocks - 1, axis=-1))
    )
    before = lax.pad(shifted, identity, [*keep, (0, 1, 0) if reverse else (1, 0, 0)])
    before = lax.broadcast_in_dim(before, (*lead, blocks, SCAN_BLOCK), tuple(range(len(lead) + 1)))
    y = _STEP[op](lax)(inner, before)
    y = lax.reshape(y, (*lead, blocks * SCAN_BLOCK))
    return lax.slice_in_dim(y, 0, n, axis=-1)


def _window_scan(x, reverse, op, fmt):
    """The reduce-window of `_cumulative` along the last axis (of at most 16 elements): output
    j folds elements 0..j (j..n-1 when reversed) from the identity, each step rounded. Step k
    adds element j - (n-1) + k (j + k) to every output j; outside the axis it adds the
    identity, which changes nothing."""
    lax = _ops()
    *lead, n = x.shape
    keep = [(0, 0, 0)] * len(lead)
    identity = np.float32(IDENTITY[op])
    acc = lax.full_like(x, identity)
    for k in range(n):
        shift = k if reverse else n - 1 - k
        pads = (0, shift, 0) if reverse else (shift, 0, 0)
        piece = lax.pad(x, identity, [*keep, pads])
        start = shift if reverse else 0
        piece = lax.slice_in_dim(piece, start, start + n, axis=-1)
        acc = fmt.round(_STEP[op](lax)(acc, piece))
    return acc


# XLA's 16-bit reduce-window is an LLVM loop whose order LLVM changes by the window's shape;
# on float16 (no conversions between its steps, unlike bfloat16's) its additions are also
# `reassoc`, which LLVM vectorizes. With R x C the window's sizes along its two axes longer
# than 1 (measured against JAX 0.10.2 on this CPU): windows padded along the second axis with
# C = 2 add column by column (both dtypes); unpadded float16 ones with R of 2, 4, 8 or 16 and
# C from 2 to `_LANES[R]` add each row (a vector lane) and then the rows' sums by halves; all
# others, one-axis windows and windows over a dilated operand add in row-major order. float16
# windows over three or more axes follow none of these: their sums are computed in float32
# and rounded once (partial).
_LANES = {2: 3, 4: 4, 8: 5, 16: 5}


def _window_order(fmt, window, padding) -> str | None:
    """The order in which XLA adds a 16-bit window (`rows`, `columns`, `lanes`), or None."""
    axes = [d for d, size in enumerate(window) if size > 1]
    if len(axes) < 2 or len(axes) > 2 and fmt.dtype == BF16:
        return "rows"
    if len(axes) > 2:
        return None
    (h, w), (rows, cols) = axes, (window[a] for a in axes)
    if padding[w] != (0, 0):
        return "columns" if cols == 2 else "rows"
    if fmt.dtype == F16 and padding[h] == (0, 0) and 2 <= cols <= _LANES.get(rows, 0):
        return "lanes"
    return "rows"


def _window_sum(
    x,
    *,
    window_dimensions,
    window_strides,
    padding,
    base_dilation,
    window_dilation,
    out_shape,
    order,
    fmt,
):
    """XLA's 16-bit `reduce_window_sum` (average pooling and its gradient): each window's
    elements added from zero in `order` (`_window_order`), each addition rounded; the last one
    left to `_composition`."""
    lax = _ops()
    dilated = [(lo, hi, d - 1) for (lo, hi), d in zip(padding, base_dilation)]
    x = lax.pad(x, np.float32(0), dilated)

    def piece(offsets):
        start = [o * d for o, d in zip(offsets, window_dilation)]
        limit = [b + s * (n - 1) + 1 for b, s, n in zip(start, window_strides, out_shape)]
        return lax.slice(x, start, limit, window_strides)

    def fold(pieces, from_zero):
        # from zero (XLA's init), or from -0 (a vector lane but the first): the first
        # addition is exact (0 + x only turns -0 into +0), the others are rounded
        acc, exact = None, True
        for p in pieces:
            if acc is None:
                acc = lax.add(p, _c(p, 0)) if from_zero else p
            else:
                acc, exact = lax.add(acc if exact else fmt.round(acc), p), False
        return acc

    offsets = list(itertools.product(*[range(w) for w in window_dimensions]))
    axes = [d for d, size in enumerate(window_dimensions) if size > 1]
    if order == "columns":  # the last two window axes swapped
        offsets.sort(key=lambda o: (*o[: axes[-2]], o[axes[-1]], o[axes[-2]]))
    if order != "lanes":
        return [fold(map(piece, offsets), True)]
    rows = window_dimensions[axes[0]]
    lanes = [[piece(o) for o in offsets if o[axes[0]] == i] for i in range(rows)]
    sums = [fold(lane, i == 0) for i, lane in enumerate(lanes)]
    while len(sums) > 1:  # the lanes' sums by halves (LLVM's vector reduction)
        half = len(sums) // 2
        sums = [lax.add(fmt.round(a), fmt.round(b)) for a, b in zip(sums[:half], sums[half:])]
    return sums


def _window_sum_rule(w: _Widener, e: Eqn, ins: list) -> bool:
    p = e.params
    out_shape = e.outputs[0].aval.shape
    # XLA folds a zero-padding of the operand into the window's padding (a gradient's
    # interior padding into a base dilation): the order sees both
    padding, dilated = list(p["padding"]), any(d != 1 for d in p["base_dilation"])
    # (float16; checked on JAX's gradients of 2x2, 3x3 and 4x4 windows)
    source = w.pads.get(e.inputs[0]) if type(e.inputs[0]) is Var and w.fmt.dtype == F16 else None
    if source is not None:
        padding = [(lo + a, hi + b) for (lo, hi), (a, b, _) in zip(padding, source)]
        dilated = dilated or any(i for _, _, i in source)
    order = _window_order(w.fmt, p["window_dimensions"], padding)
    if _prod(p["window_dimensions"]) > 64 or 0 in out_shape or order is None:
        return False  # rounded once from float32 (partial), as the generic rule does
    names = ("window_dimensions", "window_strides", "padding", "base_dilation", "window_dilation")
    params = {k: p[k] for k in names}
    params.update(out_shape=out_shape, order="rows" if dilated else order)
    return _composition(_window_sum, lambda _: params)(w, e, ins)


def _bitcast(x, *, new_dtype, source, fmt):
    lax = _ops()
    new_dtype = np.dtype(new_dtype)
    if new_dtype == fmt.dtype:  # 16-bit integers to the 16-bit float
        bits = lax.bitcast_convert_type(x, U16) if source != U16 else x
        return fmt.load(bits)
    (bits,) = fmt.store(x)
    return [bits if new_dtype == U16 else lax.bitcast_convert_type(bits, new_dtype)]


# ---------------------------------------------------------------------------------------------
# The rewrite


class _Widener:
    """Rewrites equations of a program holding `fmt.dtype` values into `eqns`; `env` maps the
    original program's variables to the new one's atoms."""

    def __init__(self, fmt: Format):
        self.fmt = fmt
        self.env: dict[Var, Any] = {}
        self.eqns: list[Eqn] = []
        # 16-bit results of computations -> their float32 values before rounding: XLA
        # converts such a bfloat16 result to float32 without rounding it (its excess precision)
        self.raw: dict[Var, Any] = {}
        # 16-bit results of broadcasts (and conversions of them): XLA's `Broadcast` operands
        self.broadcasts: set[Var] = set()
        # 16-bit results of sqrt (plus zero) -> sqrt's operand in the new program
        self.roots: dict[Var, Any] = {}
        # 16-bit results of zero-paddings -> their padding configs (`_window_sum_rule`)
        self.pads: dict[Var, tuple] = {}
        # 16-bit constants (broadcast literals) -> their values; results of `A * C` or
        # `A + C` -> (primitive name, A in the new program, C) (`_reassociate`)
        self.constants: dict[Var, float] = {}
        self.chains: dict[Var, tuple[str, Any, float]] = {}
        # 16-bit results of divisions -> (numerator, divisor) in the new program (`_divide`)
        self.quotients: dict[Var, tuple[Any, Any]] = {}

    def narrow(self, aval: Any) -> bool:
        return isinstance(aval, ShapedArray) and aval.dtype == self.fmt.dtype

    def atom(self, x: Any) -> Any:
        if isinstance(x, Literal):
            if self.narrow(x.aval):
                return Literal(np.float32(x.val), x.aval.update(dtype=F32))
            return x
        return self.env[x]

    def fresh(self, v: Var) -> Var:
        new = Var(v.aval.update(dtype=F32)) if self.narrow(v.aval) else Var(v.aval)
        self.env[v] = new
        return new

    def inline(self, fn: Callable, ins: Sequence[Any], **params: Any) -> list[Any]:
        """The outputs of `fn(*ins, **params)` traced into `eqns` (`fn` returns a list)."""
        avals = [x.aval for x in ins]
        jaxpr, consts = trace_to_jaxpr(lambda *xs: fn(*xs, **params), avals)
        if consts or jaxpr.constvars:
            raise AssertionError(f"{fn.__name__} traced with constants")
        rename: dict[Var, Any] = dict(zip(jaxpr.invars, ins))
        sub = lambda x: rename.get(x, x) if isinstance(x, Var) else x  # noqa: E731
        for e in jaxpr.eqns:
            self.eqns.append(Eqn(e.prim, [sub(x) for x in e.inputs], e.params, e.outputs))
        return [sub(x) for x in jaxpr.outvars]

    def bind(self, e: Eqn, outputs: list[Any]) -> None:
        """Binds `e`'s outputs to `outputs` (atoms of the new program)."""
        for v, new in zip(e.outputs, outputs, strict=True):
            self.env[v] = new

    def eqns_of(self, eqns: Sequence[Eqn]) -> None:
        for e in eqns:
            self.eqn(e)

    def eqn(self, e: Eqn) -> None:
        if e.prim.name == "mul" and e.params.get("out_dtype") is not None:
            self.eqns_of(explicit_mul_dtype(e))  # the operands rounded to it first, as XLA's
            return
        ins = [self.atom(x) for x in e.inputs]
        name = e.prim.name
        narrow_in = any(self.narrow(x.aval) for x in e.inputs)
        narrow_out = [self.narrow(v.aval) for v in e.outputs]
        if name in ("broadcast_in_dim", "convert_element_type"):
            value, dtype = self.constant(e.inputs[0]), e.outputs[0].aval.dtype
            if value is not None and dtypes.kind(dtype) == "f":
                self.constants[e.outputs[0]] = float(dtype.type(value))
        if not narrow_in and not any(narrow_out) and not self.holds(e.params):
            outs = [self.fresh(v) for v in e.outputs]
            self.eqns.append(Eqn(e.prim, ins, e.params, outs, e.source_info))
            return
        if (
            name == "broadcast_in_dim"
            or name == "convert_element_type"
            and (type(e.inputs[0]) is Literal or e.inputs[0] in self.broadcasts)
        ):
            self.broadcasts.add(e.outputs[0])
        if name == "pad" and _zero(e.inputs[1]):
            config = tuple(e.params["padding_config"])
            if all(lo >= 0 and hi >= 0 for lo, hi, _ in config):
                self.pads[e.outputs[0]] = config
        if name == "sqrt":
            self.roots[e.outputs[0]] = ins[0]
        elif name == "add" and _zero(e.inputs[1]) and self.roots.get(e.inputs[0]) is not None:
            self.roots[e.outputs[0]] = self.roots[e.inputs[0]]  # XLA drops `+ 0`
        special = self.fmt.special.get(name)
        if special is not None and special(self, e, ins):
            return
        params = {k: self.widen_param(v) for k, v in e.params.items()}
        exact = name in EXACT or e.prim.higher_order
        if exact or not any(narrow_out):
            outs = [self.fresh(v) for v in e.outputs]
            self.eqns.append(Eqn(e.prim, ins, params, outs, e.source_info))
            return
        if self.fmt.checked is not None and name not in self.fmt.checked:
            raise UnsupportedDTypeError([f"{self.fmt.dtype} ({name}: not checked against XLA)"])
        outs = [Var(v.aval.update(dtype=F32)) if n else v for v, n in zip(e.outputs, narrow_out)]
        outs = [o if o is not v else self.fresh(v) for o, v in zip(outs, e.outputs)]
        self.eqns.append(Eqn(e.prim, ins, params, outs, e.source_info))
        for v, o, n in zip(e.outputs, outs, narrow_out):
            if n:
                self.round_into(v, o)

    def constant(self, x: Any) -> float | None:
        """The value of `x` if it is a literal or a broadcast (a conversion) of one."""
        if type(x) is Literal:  # (a complex literal is no float constant: logical_and's 0j)
            value = np.asarray(x.val)
            return float(value) if value.ndim == 0 and value.dtype.kind != "c" else None
        return self.constants.get(x)

    def round_into(self, v: Var, value: Any) -> None:
        """Binds 16-bit `v` to float32 `value` rounded; a conversion of `v` to float32 reads
        `value` itself (`raw`) where the format has excess precision."""
        if self.fmt.excess:
            self.raw[v] = value
        self.eqns.append(Eqn(self.fmt.rounding, [value], {}, [self.fresh(v)]))

    def holds(self, params: dict) -> bool:
        return any(self.param_holds(v) for v in params.values())

    def param_holds(self, v: Any) -> bool:
        if isinstance(v, np.dtype | type):
            try:
                return np.dtype(v) == self.fmt.dtype
            except TypeError:
                return False
        if isinstance(v, ShapedArray):
            return self.narrow(v)
        if isinstance(v, Jaxpr | ClosedJaxpr):
            inner = v.jaxpr if isinstance(v, ClosedJaxpr) else v
            return self.fmt.dtype in narrow_dtypes(inner)
        if isinstance(v, (tuple, list)):
            return any(self.param_holds(x) for x in v)
        return False

    def widen_param(self, v: Any) -> Any:
        if isinstance(v, ClosedJaxpr):
            consts = [
                np.asarray(c, F32) if np.asarray(c).dtype == self.fmt.dtype else c for c in v.consts
            ]
            return ClosedJaxpr(self.widen_inner(v.jaxpr), consts)
        if isinstance(v, Jaxpr):
            return self.widen_inner(v)
        if isinstance(v, ShapedArray):
            return v.update(dtype=F32) if self.narrow(v) else v
        if isinstance(v, tuple | list) and self.param_holds(v):
            return type(v)(self.widen_param(x) for x in v)
        if isinstance(v, np.dtype | type) and self.param_holds(v):
            return F32
        return v

    def widen_inner(self, jaxpr: Jaxpr) -> Jaxpr:
        """A parameter's jaxpr (a scan's body, a cond's branch) widened: its 16-bit inputs and
        outputs become float32 ones, as the enclosing program's values are."""
        if self.fmt.dtype not in narrow_dtypes(jaxpr):
            return jaxpr
        w = _Widener(self.fmt)
        constvars = [w.fresh(v) for v in jaxpr.constvars]
        invars = [w.fresh(v) for v in jaxpr.invars]
        w.eqns_of(jaxpr.eqns)
        return Jaxpr(constvars, invars, w.eqns, [w.atom(x) for x in jaxpr.outvars])


def _convert(w: _Widener, e: Eqn, ins: list) -> bool:
    src, dst = e.inputs[0].aval.dtype, np.dtype(e.params["new_dtype"])
    narrow = w.fmt.dtype
    (x,) = ins
    if src == narrow and dst == F32 and e.inputs[0] in w.raw:
        w.bind(e, [w.raw[e.inputs[0]]])  # a computation's result, not rounded (XLA's)
        return True
    if src == narrow and dst in (narrow, F32):
        w.bind(e, [x])  # the same float32 value, a number of the narrow dtype
        return True
    if dst == narrow:  # through float32, as XLA converts (float64 and integers round twice)
        lax = _ops()
        w.bind(e, w.inline(lambda a: [w.fmt.round(lax.convert_element_type(a, F32))], [x]))
        return True
    params = dict(e.params)
    w.eqns.append(Eqn(e.prim, [x], params, [w.fresh(e.outputs[0])], e.source_info))
    return True


def _bitcast_rule(w: _Widener, e: Eqn, ins: list) -> bool:
    src, dst = e.inputs[0].aval.dtype, np.dtype(e.params["new_dtype"])
    other = dst if src == w.fmt.dtype else src
    if other.itemsize != 2:
        raise UnsupportedDTypeError([f"{w.fmt.dtype} (bitcast from {src} to {dst})"])
    if other == w.fmt.dtype:
        w.bind(e, ins)
        return True
    w.bind(e, w.inline(_bitcast, ins, new_dtype=dst, source=src, fmt=w.fmt))
    return True


def _zero(x: Any) -> bool:
    return type(x) is Literal and x.val == 0


def _divide(w: _Widener, e: Eqn, ins: list) -> bool:
    """XLA's float16 `A / B` as its algebraic simplifier rewrites it: `A * rsqrt(C)` for
    `B = sqrt(C)` (plus zero: Optax's `eps` is 0 in float16), `A * (1 / B)` for a broadcast `B`
    (a literal, a broadcast or a conversion of one, an operand with size-1 axes), the
    reciprocal rounded to float16 (`x / 7` is `x * 0.14282`; softmax multiplies by its sums'
    rounded reciprocals), `A / (B * C)` for `A = A' / B` (atanh's gradient:
    `x ** -1 * 1 / C`, a product by one being dropped)."""
    a, b = e.inputs
    out = e.outputs[0]
    if type(a) is Literal or not w.narrow(out.aval):
        return False
    lax, r = _ops(), w.fmt.round
    inner = w.quotients.get(a) if type(a) is Var else None
    if type(b) is not Literal and b in w.roots:
        (q,) = w.inline(lambda x, y: [lax.mul(x, r(lax.rsqrt(y)))], [ins[0], w.roots[b]])
    elif type(b) is Literal or b in w.broadcasts or b.aval.shape != out.aval.shape:
        (q,) = w.inline(lambda x, y: [lax.mul(x, r(lax.div(_c(y, 1), y)))], ins)
    elif inner is not None and w.constant(inner[1]) is None:  # (A / B) / C => A / (B * C)
        num, den = inner
        (q,) = w.inline(lambda n, x, y: [lax.div(n, r(lax.mul(x, y)))], [num, den, ins[1]])
    else:
        w.quotients[out] = (ins[0], ins[1])
        return False
    w.round_into(out, q)
    return True


def _reassociate(w: _Widener, e: Eqn, ins: list) -> bool:
    """XLA's algebraic simplifier on float16 (and float32, not on bfloat16, which it widens to
    float32 first): `(A * C1) * C2` is `A * fl16(C1 * C2)` and `(A + C1) + C2` is
    `A + fl16(C1 + C2)` for constants C1, C2 (literals or their broadcasts) and any A that is
    not one, whatever the other uses of `A * C1` (gelu's gradient: `0.044708 * (0.79785 * q)`
    is `q * 0.035675`); records `A * C` and `A + C` for the next step of a chain."""
    out = e.outputs[0]
    values = [w.constant(x) for x in e.inputs]
    if not w.narrow(out.aval) or sum(v is not None for v in values) != 1:
        return False
    k = 0 if values[0] is not None else 1
    name, c2, other = e.prim.name, values[k], e.inputs[1 - k]
    if name == "mul" and c2 == 1 and w.narrow(other.aval) and other.aval.shape == out.aval.shape:
        w.bind(e, [ins[1 - k]])  # XLA drops `A * 1`, which keeps what A is
        for table in (w.chains, w.quotients):
            if other in table:
                table[out] = table[other]
        return True
    inner = w.chains.get(other) if type(other) is Var else None
    if inner is None or inner[0] != name:
        w.chains[out] = (name, ins[1 - k], c2)
        return False  # the generic rule computes it
    step = np.add if name == "add" else np.multiply
    c = float(w.fmt.dtype.type(step(np.float32(inner[2]), np.float32(c2))))
    w.chains[out] = (name, inner[1], c)
    product = Var(out.aval.update(dtype=F32))
    literal = Literal(np.float32(c), ShapedArray((), F32))
    w.eqns.append(Eqn(e.prim, [inner[1], literal], {}, [product], e.source_info))
    w.round_into(out, product)
    return True


def _fold_inlined_chains(w: _Widener, inputs: list, atoms: list, start: int) -> None:
    """`_reassociate` across the first step of an expansion inlined at `w.eqns[start:]`: XLA
    folds `acosh(A + 1)`'s `(A + 1) + (-1)` into `A + 0` (float16)."""
    chained = {a: w.chains[v] for v, a in zip(inputs, atoms) if type(v) is Var and v in w.chains}
    if not chained:
        return
    constants: dict[Var, float] = {}
    for i in range(start, len(w.eqns)):
        q = w.eqns[i]
        if q.prim.name == "broadcast_in_dim" and type(q.inputs[0]) is Literal:
            constants[q.outputs[0]] = float(q.inputs[0].val)
        if q.prim.name not in ("add", "mul"):
            continue
        for k in (0, 1):
            x, c = q.inputs[k], q.inputs[1 - k]
            chain = chained.get(x) if type(x) is Var else None
            value = float(c.val) if type(c) is Literal else constants.get(c)
            if chain is not None and chain[0] == q.prim.name and value is not None:
                step = np.add if chain[0] == "add" else np.multiply
                folded = float(w.fmt.dtype.type(step(np.float32(chain[2]), np.float32(value))))
                literal = Literal(np.float32(folded), ShapedArray((), F32))
                w.eqns[i] = Eqn(q.prim, [chain[1], literal], {}, q.outputs, q.source_info)
                break


def _integer_pow_rule(w: _Widener, e: Eqn, ins: list) -> bool:
    if not _composition(_integer_pow, lambda p: {"y": p["y"]})(w, e, ins):
        return False
    if e.params["y"] == -1:  # XLA's `1 / x`, a quotient for `_divide`
        w.quotients[e.outputs[0]] = (Literal(np.float32(1), ShapedArray((), F32)), ins[0])
    return True


def _composition(fn: Callable, params: Callable[[dict], dict] = lambda p: {}, last=True):
    """The rule of a primitive XLA expands into `fn`'s steps; `last`: `fn` leaves its result's
    rounding to the rule (which keeps the unrounded value, `_Widener.raw`)."""

    def rule(w: _Widener, e: Eqn, ins: list) -> bool:
        if not w.narrow(e.outputs[0].aval):
            return False
        start = len(w.eqns)
        (out,) = w.inline(fn, ins, **params(e.params), fmt=w.fmt)
        _fold_inlined_chains(w, e.inputs, ins, start)
        if last:
            w.round_into(e.outputs[0], out)
        else:
            w.bind(e, [out])
        return True

    return rule


def _on_bits(w: _Widener, e: Eqn, ins: list) -> bool:
    """The rule of a primitive XLA computes on the 16-bit dtype's bits (`nextafter` steps the
    bits by one): its composition's equations in the 16-bit dtype, each widened (a float32
    `nextafter` rounded back gave its operand)."""
    inner = composition_jaxpr(e)
    w.env.update(zip(inner.invars, ins))
    w.eqns_of(inner.eqns)
    w.bind(e, [w.atom(x) for x in inner.outvars])
    return True


class Format:
    """How XLA's CPU computes one 16-bit float dtype: `rounding` (the compiler primitive),
    `load`/`store` (its uint16 bits to and from float32), `ln2` (ln 2 in the dtype), `excess`
    (a result converted to float32 is not rounded), `expansions` (the unary primitives XLA
    expands into steps of its own, each rounded, by name: eager impls run them too,
    `core/backends/numba/transcendentals.py`), `special` (rules of other primitives XLA
    computes otherwise than one float32 operation rounded) and `checked` (the primitives that
    may compute values of the dtype; None: all)."""

    def __init__(self, dtype, load, store, *, excess, expansions, special, checked=None):
        self.dtype = np.dtype(dtype)
        self.rounding = ROUNDING[self.dtype]
        self.load, self.store = load, store
        self.ln2 = float(self.dtype.type(np.log(2.0)))
        big = float(ml_dtypes.finfo(self.dtype).max)
        self.sqrt_max = float(self.dtype.type(np.sqrt(big)))  # asinh's threshold
        self.half_max = float(self.dtype.type(big / 2))  # acosh's
        self.excess = excess
        self.expansions = expansions
        common = {
            "convert_element_type": _convert,
            "bitcast_convert_type": _bitcast_rule,
            "nextafter": _on_bits,
            **{name: _composition(fn) for name, fn in expansions.items()},
            "integer_pow": _integer_pow_rule,
            **{
                name: _composition(
                    _rounded_reduce,
                    lambda p, op=op: {"axes": tuple(p["axes"]), "op": op},
                    last=False,
                )
                for name, op in (("reduce_sum", "add"), ("reduce_prod", "mul"))
            },
            "reduce_window_sum": _window_sum_rule,
            **{
                name: _composition(
                    _cumulative,
                    lambda p, op=op: {"axis": p["axis"], "reverse": p["reverse"], "op": op},
                )
                for name, op in (("cumsum", "add"), ("cumprod", "mul"))
            },
        }
        self.special = {**common, **special}
        self.checked = checked

    def round(self, x):
        return self.rounding.bind(x)


BFLOAT16 = Format(
    BF16,
    _load_bf16,
    _store_bf16,
    excess=True,
    expansions={
        "logistic": _logistic,
        "exp2": _exp2,
        **_CHLO,
    },
    special={},
)
FLOAT16 = Format(
    F16,
    _load_f16,
    _store_f16,
    excess=False,
    expansions={"logistic": _logistic, "exp2": _exp2, "expm1": _expm1_f16, **_CHLO},
    special={"div": _divide, "mul": _reassociate, "add": _reassociate},
    checked=frozenset(
        {
            "add",
            "add_any",
            "sub",
            "mul",
            "div",
            "square",
            "sqrt",
            "rsqrt",
            "exp",
            "log",
            "log1p",
            "tanh",
            "sin",
            "cos",
            "erf",
            "erf_inv",
            "sinh",
            "cosh",
            "tan",
            "atan",
            "atan2",
            "cbrt",
            "pow",
            "rem",
            "dot_general",
            "conv_general_dilated",
            "cumsum",
            "reduce_window_sum",
            "scatter-add",
            "iota",
            "random_bits",
        }
    ),
)
FORMATS = (BFLOAT16, FLOAT16)
FORMAT_OF = {fmt.dtype: fmt for fmt in FORMATS}
