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
  `exp2(x)` is `exp(x * ln 2)` (ln 2 in the dtype), `integer_pow` squares and multiplies, each
  step rounded; on bfloat16 also asin/acos/asinh/acosh/atanh, on float16 `expm1` (XLA's
  `tanh(x/2) * (exp(x) + 1)`); conversions from float64 and integers round through float32;
- `reduce_sum` (a bias's gradient: the transpose of its broadcast) accumulates in the 16-bit
  dtype, each addition rounded, in XLA's order (`_rounded_sum`: windows of 32 along every
  reduced axis longer than that, each window in row-major order, then the windows' sums), and
  bfloat16 `reduce_window_sum` (average pooling, its gradient) adds each window in row-major
  order.

Where the formats differ (checked against JAX 0.10.2 on this CPU, `tests/core/jit/
record_narrow.py`): a bfloat16 result converted to float32 right away is converted unrounded
(XLA's excess precision: `(x * 3 + 1).astype(float32)` rounds the product only) unless it only
moved (reshape, neg, max, select); float16 results are always rounded. XLA divides float16 by a
broadcast (a literal, a broadcast or a conversion of one, an operand with size-1 axes) as a
product with the divisor's reciprocal rounded to float16 (`x / 7` is `x * 0.14282`, softmax
multiplies by its sums' reciprocals); bfloat16 divides. XLA lowers bfloat16 to float32 before
its elemental code, so bfloat16 expm1 is float32's rounded, while float16 keeps XLA's float16
expansions: float16 equations whose primitive is not in `FLOAT16.checked` (asin, acos, asinh,
acosh, atanh, reduce_prod, ...) raise `UnsupportedDTypeError` and the program falls back to the
numpy back end.

Partial (results within a rounding of JAX's, not its bits): 16-bit `cumsum`/`cumprod`,
`reduce_prod`, float16 `reduce_window_sum` (XLA's order depends on the window's shape),
bfloat16 `reduce_window_sum` over windows of more than 64 elements or with base dilation, and
scatter-adds with repeated indices (computed in float32 and rounded once); float32 products and
convolutions sum in another order than XLA's, and a division by a loop-invariant divisor is a
product with its float32 reciprocal (`core/jit/codegen.py`'s `arcp`): the rounding to 16 bits
hides both but for rare ties. Conversions from float64 to float16 round twice (through
float32; XLA once). XLA's CPU code flushes float32 subnormal numbers (FTZ/DAZ), numbax's does
not (float16's subnormal numbers are float32 normal ones: both keep them). NaN payloads of
inputs pass through the `EXACT` equations (XLA quiets them). Bitcasts between a 16-bit float
and types of another width raise `UnsupportedDTypeError`.
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
from core.jit.errors import UnsupportedDTypeError
from core.prims.narrow import ROUNDING, rounded_sum_p

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


def _narrow_dtypes(jaxpr: Jaxpr, found: set | None = None) -> set:
    """The 16-bit float dtypes `jaxpr` (or a jaxpr in its equations' parameters) holds as an
    input, an equation's output or a literal operand; this walk is all a float32 program's
    compile pays for the rewrite (about 1 us per equation)."""
    found = set() if found is None else found
    for v in (*jaxpr.constvars, *jaxpr.invars):
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
                    _narrow_dtypes(j, found)
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
    found = _narrow_dtypes(jaxpr)
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


# bfloat16's (XLA's CHLO expansions, in float32 steps each rounded)
_BF16_ROUND = ROUNDING[BF16].bind
_BF16_LN2 = float(ml_dtypes.bfloat16(np.log(2.0)))  # exp2 on bfloat16: exp(x * 0.69140625)


def _root_of_one_minus_square(lax, x):  # sqrt((1 - x)(x + 1))
    r = _BF16_ROUND
    return r(lax.sqrt(r(lax.mul(r(lax.sub(_c(x, 1), x)), r(lax.add(x, _c(x, 1)))))))


def _asin(x):  # 2 atan2(x, 1 + sqrt((1 - x)(x + 1)))
    lax = _ops()
    root = _root_of_one_minus_square(lax, x)
    half = _BF16_ROUND(lax.atan2(x, _BF16_ROUND(lax.add(root, _c(x, 1)))))
    return [lax.add(half, half)]


def _acos(x):  # atan2(sqrt((1 - x)(x + 1)), x)
    lax = _ops()
    return [lax.atan2(_root_of_one_minus_square(lax, x), x)]


def _log_large(lax, x):  # log(x) + log(2), for x where x * x overflows
    return _BF16_ROUND(lax.add(_BF16_ROUND(lax.log(x)), _c(x, _BF16_LN2)))


def _asinh(x):
    # sign(x) * (log(|x|) + log 2 if |x| >= sqrt(max) else log1p(|x| + x^2 / (1 + sqrt(1 + x^2))))
    lax, r = _ops(), _BF16_ROUND
    a = lax.abs(x)
    sq = r(lax.mul(a, a))
    root = r(lax.sqrt(r(lax.add(sq, _c(x, 1)))))
    small = r(lax.log1p(r(lax.add(a, r(lax.div(sq, r(lax.add(root, _c(x, 1)))))))))
    big = lax.ge(a, _c(x, 1.83746865e19))
    return [lax.mul(r(lax.sign(x)), lax.select(big, _log_large(lax, a), small))]


def _acosh(x):  # log(x) + log 2 if x >= 1.69e38 else log1p(sqrt(x-1) (sqrt(x+1) + sqrt(x-1)))
    lax, r = _ops(), _BF16_ROUND
    below = r(lax.sqrt(r(lax.add(x, _c(x, -1)))))
    above = r(lax.sqrt(r(lax.add(x, _c(x, 1)))))
    small = lax.log1p(r(lax.mul(below, r(lax.add(above, below)))))
    big = lax.ge(x, _c(x, 1.69476569e38))
    return [lax.select(big, _log_large(lax, x), r(small))]


def _atanh(x):  # (log1p(x) - log1p(-x)) / 2, nan where |x| > 1
    lax, r = _ops(), _BF16_ROUND
    diff = r(lax.sub(r(lax.log1p(x)), r(lax.log1p(r(lax.neg(x))))))
    half = r(lax.mul(diff, _c(x, 0.5)))
    return [lax.select(lax.gt(lax.abs(x), _c(x, 1)), _c(x, np.nan), half)]


def eager_expansion(name: str, x: np.ndarray) -> np.ndarray:
    """XLA's expansion `name` (`Format.expansions`) on 16-bit float `x`, eagerly: computed in
    float32 with the same kernels and roundings as the compiled program, so eager results
    equal `jit`'s bit for bit."""
    fmt = FORMAT_OF[np.asarray(x).dtype]
    (out,) = fmt.expansions[name](_ops().convert_element_type(np.asarray(x), F32), fmt=fmt)
    return np.asarray(fmt.round(out)).astype(fmt.dtype)


def _rounded_sum(x, *, axes, fmt):
    """XLA's 16-bit `reduce_sum` over `axes`: XLA's CPU compiler cuts every reduced axis of
    more than 32 elements into windows of 32 (the zero padding split between both ends, the
    smaller half first), sums each window's elements in row-major order, each addition
    rounded, and reduces the windows' sums the same way (checked against JAX on one to three
    reduced axes, major and minor)."""
    lax = _ops()
    total = lambda v: rounded_sum_p.bind(v, dtype=fmt.dtype)  # noqa: E731
    shape, axes = x.shape, tuple(sorted(axes))
    rest = [d for d in range(len(shape)) if d not in axes]
    sizes = [shape[d] for d in axes]
    m = _prod(shape[d] for d in rest)
    x = lax.reshape(lax.transpose(x, (*axes, *rest)), (*sizes, m))
    while any(s > 32 for s in sizes):
        ks = [-(-s // 32) if s > 32 else 1 for s in sizes]
        ws = [32 if s > 32 else s for s in sizes]
        pads = [k * w - s for k, w, s in zip(ks, ws, sizes)]
        x = lax.pad(x, np.float32(0), [(p // 2, p - p // 2, 0) for p in pads] + [(0, 0, 0)])
        x = lax.reshape(x, (*[v for k, w in zip(ks, ws) for v in (k, w)], m))
        r = len(sizes)
        x = lax.transpose(x, (*range(1, 2 * r, 2), *range(0, 2 * r, 2), 2 * r))
        x = total(lax.reshape(x, (_prod(ws), _prod(ks) * m)))
        x, sizes = lax.reshape(x, (*ks, m)), ks
    x = total(lax.reshape(x, (_prod(sizes), m)))
    return [lax.reshape(x, tuple(shape[d] for d in rest))]


def _prod(sizes) -> int:
    return int(np.prod(list(sizes), dtype=np.int64))


def _window_sum(x, *, window_dimensions, window_strides, padding, window_dilation, out_shape, fmt):
    """XLA's 16-bit `reduce_window_sum` (average pooling and its gradient): each window's
    elements added in row-major order, each addition rounded (checked against JAX on 2x2 and
    3x3 windows, strided, padded); the last addition left to `_composition`."""
    lax = _ops()
    x = lax.pad(x, np.float32(0), [(lo, hi, 0) for lo, hi in padding])
    acc, first = None, True
    for offsets in itertools.product(*[range(w) for w in window_dimensions]):
        start = [o * d for o, d in zip(offsets, window_dilation)]
        limit = [b + s * (n - 1) + 1 for b, s, n in zip(start, window_strides, out_shape)]
        piece = lax.slice(x, start, limit, window_strides)
        acc = piece if acc is None else lax.add(acc if first else fmt.round(acc), piece)
        first = acc is piece
    return [acc]


def _window_sum_rule(w: _Widener, e: Eqn, ins: list) -> bool:
    p = e.params
    out_shape = e.outputs[0].aval.shape
    if (
        any(d != 1 for d in p["base_dilation"])
        or _prod(p["window_dimensions"]) > 64
        or 0 in out_shape
    ):
        return False  # rounded once from float32 (partial), as the generic rule does
    params = {
        k: p[k] for k in ("window_dimensions", "window_strides", "padding", "window_dilation")
    }
    return _composition(_window_sum, lambda _: {**params, "out_shape": out_shape})(w, e, ins)


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
        ins = [self.atom(x) for x in e.inputs]
        name = e.prim.name
        narrow_in = any(self.narrow(x.aval) for x in e.inputs)
        narrow_out = [self.narrow(v.aval) for v in e.outputs]
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
            return self.fmt.dtype in _narrow_dtypes(inner)
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
        if self.fmt.dtype not in _narrow_dtypes(jaxpr):
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
    rounded reciprocals)."""
    a, b = e.inputs
    out = e.outputs[0]
    if type(a) is Literal or not w.narrow(out.aval):
        return False
    lax, r = _ops(), w.fmt.round
    if type(b) is not Literal and b in w.roots:
        (q,) = w.inline(lambda x, y: [lax.mul(x, r(lax.rsqrt(y)))], [ins[0], w.roots[b]])
    elif type(b) is Literal or b in w.broadcasts or b.aval.shape != out.aval.shape:
        (q,) = w.inline(lambda x, y: [lax.mul(x, r(lax.div(_c(y, 1), y)))], ins)
    else:
        return False
    w.round_into(out, q)
    return True


def _composition(fn: Callable, params: Callable[[dict], dict] = lambda p: {}, last=True):
    """The rule of a primitive XLA expands into `fn`'s steps; `last`: `fn` leaves its result's
    rounding to the rule (which keeps the unrounded value, `_Widener.raw`)."""

    def rule(w: _Widener, e: Eqn, ins: list) -> bool:
        if not w.narrow(e.outputs[0].aval):
            return False
        (out,) = w.inline(fn, ins, **params(e.params), fmt=w.fmt)
        if last:
            w.round_into(e.outputs[0], out)
        else:
            w.bind(e, [out])
        return True

    return rule


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
        self.excess = excess
        self.expansions = expansions
        common = {
            "convert_element_type": _convert,
            "bitcast_convert_type": _bitcast_rule,
            **{name: _composition(fn) for name, fn in expansions.items()},
            "integer_pow": _composition(_integer_pow, lambda p: {"y": p["y"]}),
            "reduce_sum": _composition(
                _rounded_sum, lambda p: {"axes": tuple(p["axes"])}, last=False
            ),
            "reduce_window_sum": _window_sum_rule,
        }
        self.special = {**common, **special}
        self.checked = checked

    def round(self, x):
        return self.rounding.bind(x)


def _bf16_only(fn: Callable) -> Callable:
    return lambda x, *, fmt: fn(x)


BFLOAT16 = Format(
    BF16,
    _load_bf16,
    _store_bf16,
    excess=True,
    expansions={
        "logistic": _logistic,
        "exp2": _exp2,
        **{f.__name__[1:]: _bf16_only(f) for f in (_asin, _acos, _asinh, _acosh, _atanh)},
    },
    special={},
)
FLOAT16 = Format(
    F16,
    _load_f16,
    _store_f16,
    excess=False,
    expansions={"logistic": _logistic, "exp2": _exp2, "expm1": _expm1_f16},
    # XLA's float16 reduce-window adds in orders that depend on the window's shape (2x2: each
    # row, then the rows; 3x3 and 2x4: row-major; 4x4: neither): float32 sums rounded once
    special={
        "div": _divide,
        "reduce_window_sum": lambda w, e, ins: False,
    },
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
