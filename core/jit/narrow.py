"""bfloat16 programs compiled as float32 programs that round as XLA's CPU back end does.

XLA's CPU compiler computes each bfloat16 operation in float32 and converts its result back to
bfloat16 (round to nearest even; a NaN becomes the quiet NaN of its sign), also inside fused
loops: `jit(lambda x: (x * 3 + 1) / 7)` rounds three times. Its products and convolutions
convert their operands to float32, accumulate in float32 and round the result once. numba
cannot type `ml_dtypes.bfloat16` arrays, so `widen` rewrites a jaxpr holding bfloat16 into one
the numba back end compiles:

- every bfloat16 value becomes a float32 value holding a bfloat16 number; each equation that
  makes one is followed by `round_bfloat16` (one elementwise expression of integer operations,
  fused into the loop that computes the value) unless its results are some of its operands'
  elements or their negations (`EXACT`);
- the program's bfloat16 inputs and outputs are uint16 (the arrays' bits, viewed without a
  copy by `Widened.wrap`), widened with a shift on load and rounded, shifted and narrowed on
  store;
- XLA's own decompositions on bfloat16 round at their steps too: `logistic` is
  `1 / (1 + exp(-x))`, `exp2(x)` is `exp(x * bf16(ln 2))`, `integer_pow` squares and
  multiplies, each step rounded; conversions from float64 and integers round through float32
  (XLA's double rounding);
- `reduce_sum` on bfloat16 (a bias's gradient: the transpose of its broadcast) accumulates in
  bfloat16, each addition rounded, in XLA's order (`_rounded_sum`: windows of 32 along every
  reduced axis longer than that, each window in row-major order, then the windows' sums), and
  `reduce_window_sum` (average pooling, its gradient) adds each window in row-major order;
- a bfloat16 result converted to float32 right away is converted unrounded (XLA's excess
  precision: `(x * 3 + 1).astype(float32)` rounds the product only), unless it only moved
  (reshape, neg, max, select) after it was computed.

Partial (results within a bfloat16 rounding of JAX's, not its bits): bfloat16
`cumsum`/`cumprod`, `reduce_prod`, `reduce_window_sum` over windows of more than 64 elements
or with base dilation, and scatter-adds with repeated indices (computed in float32 and rounded
once); float32 products and convolutions sum in another order than XLA's (the rounding to
bfloat16 hides it but for rare ties). XLA's CPU code flushes subnormal numbers (FTZ/DAZ),
numbax's does not (in float32 either). NaN payloads of inputs pass through the `EXACT`
equations (XLA quiets them). Bitcasts between bfloat16 and types of another width raise
`UnsupportedDTypeError` (the program falls back to the numpy back end). float16 is not widened:
XLA keeps float16 operations in float16 (LLVM rounds each), folds a division by a constant into
a product with a float16 reciprocal and expands other primitives than on bfloat16, none of it
checked here; it still falls back.
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
from core.prims.narrow import round_bfloat16_p, rounded_sum_p

BF16 = dtypes.bfloat16
F32 = np.dtype(np.float32)
U16 = np.dtype(np.uint16)


# Equations whose bfloat16 results are operands' elements, their negations or magnitudes, or
# integers they round to (all bfloat16 numbers): no rounding after them.
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
_LN2 = float(ml_dtypes.bfloat16(np.log(2.0)))  # XLA's exp2 on bfloat16: exp(x * 0.69140625)


def has_bfloat16(jaxpr: Jaxpr) -> bool:
    """Whether `jaxpr` (or a jaxpr in its equations' parameters) holds a bfloat16 value.

    A bfloat16 value is an input, an equation's output or a literal operand; this walk is all a
    float32 program's compile pays for the rewrite (about 1 us per equation)."""
    if any(v.aval.dtype == BF16 for v in (*jaxpr.constvars, *jaxpr.invars)):
        return True
    for e in jaxpr.eqns:
        for v in e.outputs:
            if v.aval.dtype == BF16:
                return True
        for x in e.inputs:
            if type(x) is Literal and x.aval.dtype == BF16:
                return True
        if e.prim.higher_order and any(
            has_bfloat16(j) for v in e.params.values() for j in sub_jaxprs(v)
        ):
            return True
    return False


class Widened:
    """`jaxpr` rewritten by `widen`: `jaxpr` takes and returns uint16 where the original
    took and returned bfloat16 (positions `narrow_in`, `narrow_out`)."""

    def __init__(self, jaxpr: Jaxpr, narrow_in: list[int], narrow_out: list[int]):
        self.jaxpr = jaxpr
        self.narrow_in = narrow_in
        self.narrow_out = narrow_out

    def wrap(self, call: Callable[..., list[np.ndarray]]) -> Callable[..., list[np.ndarray]]:
        """The executable of the original jaxpr from `call`, the compiled widened one: its
        bfloat16 arguments go in as their uint16 bits, its uint16 results come back viewed as
        bfloat16 (no copies). It has no `kernel` attribute: `jit`'s call path calls it as it
        calls the numpy back end's executables."""
        ins, outs = self.narrow_in, self.narrow_out

        def run(*args):
            args = list(args)
            for i in ins:
                args[i] = np.asarray(args[i], BF16).view(U16)
            results = list(call(*args))
            for i in outs:
                results[i] = np.asarray(results[i]).view(BF16)
            return results

        run.source = getattr(call, "source", None)
        return run


def widen(jaxpr: Jaxpr) -> Widened | None:
    """`jaxpr` as a program without bfloat16 values (see the module docstring), or None if it
    has none.

    Args:
      jaxpr: a jaxpr (its constvars, if any, are taken as leading inputs).

    Returns:
      The `Widened` program, or None.

    Raises:
      UnsupportedDTypeError: it holds a bfloat16 operation this rewrite cannot express
        (a bitcast between bfloat16 and a type of another width).
    """
    if not has_bfloat16(jaxpr):
        return None
    w = _Widener()
    inputs = [*jaxpr.constvars, *jaxpr.invars]
    new_in, narrow_in = [], []
    for i, v in enumerate(inputs):
        if _is_bf16(v.aval):
            bits = Var(v.aval.update(dtype=U16))
            w.env[v] = w.inline(_load, [bits])[0]
            new_in.append(bits)
            narrow_in.append(i)
        else:
            new_in.append(w.env.setdefault(v, v))
    w.eqns_of(jaxpr.eqns)
    new_out, narrow_out = [], []
    for i, x in enumerate(jaxpr.outvars):
        y = w.atom(x)
        if isinstance(x, Var | Literal) and _is_bf16(x.aval):
            y = w.inline(_store, [y])[0]
            narrow_out.append(i)
        new_out.append(y)
    return Widened(Jaxpr([], new_in, w.eqns, new_out), narrow_in, narrow_out)


def _is_bf16(aval: Any) -> bool:
    return isinstance(aval, ShapedArray) and aval.dtype == BF16


# ---------------------------------------------------------------------------------------------
# The pieces, written with lax and traced (`_Widener.inline`)


_LAX: list = []  # `core.lax`, which registers itself when it loads (it is a higher layer)


def register_lax(module: Any) -> None:
    """Hands this module `core.lax`, whose wrappers the pieces below are written with."""
    _LAX[:] = [module]


def _ops():
    return _LAX[0]


def _round(x):
    return round_bfloat16_p.bind(x)


def _load(bits):
    lax = _ops()
    wide = lax.shift_left(lax.convert_element_type(bits, np.uint32), np.uint32(16))
    return [lax.bitcast_convert_type(wide, F32)]


def _store(x):
    lax = _ops()
    # a float32 value of the program holds a bfloat16 number: its high half is that number
    bits = lax.shift_right_logical(lax.bitcast_convert_type(x, np.uint32), np.uint32(16))
    return [lax.convert_element_type(bits, U16)]


# XLA's expansions on bfloat16, each step rounded but the last (`_composition` rounds it, and
# keeps the unrounded value for a conversion to float32)


def _logistic(x):
    lax = _ops()
    e = _round(lax.exp(_round(lax.neg(x))))
    return [lax.div(lax.full_like(x, 1.0), _round(lax.add(e, lax.full_like(x, 1.0))))]


def _exp2(x):
    lax = _ops()
    return [lax.exp(_round(lax.mul(x, lax.full_like(x, _LN2))))]


def _integer_pow(x, *, y):
    # repeated squaring, as XLA expands it (and the numba rule of integer_pow); a negative
    # power is the reciprocal of the positive one. Values are kept unrounded and rounded where
    # a step reads them.
    lax = _ops()
    r = lambda v: v if v is x else _round(v)  # noqa: E731
    n, acc, base = abs(y), None, x
    while n:
        if n & 1:
            acc = base if acc is None else lax.mul(r(acc), r(base))
        n >>= 1
        if n:
            base = lax.mul(r(base), r(base))
    if acc is None:
        return [lax.full_like(x, 1.0)]
    return [acc if y >= 0 else lax.div(lax.full_like(x, 1.0), r(acc))]


def _c(x, value: float):
    return _ops().full_like(x, value)


def _asin(x):  # 2 atan2(x, 1 + sqrt((1 - x)(x + 1)))
    lax = _ops()
    root = _round(
        lax.sqrt(_round(lax.mul(_round(lax.sub(_c(x, 1), x)), _round(lax.add(x, _c(x, 1))))))
    )
    half = _round(lax.atan2(x, _round(lax.add(root, _c(x, 1)))))
    return [lax.add(half, half)]


def _acos(x):  # atan2(sqrt((1 - x)(x + 1)), x)
    lax = _ops()
    root = _round(
        lax.sqrt(_round(lax.mul(_round(lax.sub(_c(x, 1), x)), _round(lax.add(x, _c(x, 1))))))
    )
    return [lax.atan2(root, x)]


def _log_large(lax, x):  # log(x) + log(2), for x where x * x overflows
    return _round(lax.add(_round(lax.log(x)), _c(x, _LN2)))


def _asinh(x):
    # sign(x) * (log(|x|) + log 2 if |x| >= sqrt(max) else log1p(|x| + x^2 / (1 + sqrt(1 + x^2))))
    lax = _ops()
    a = lax.abs(x)
    sq = _round(lax.mul(a, a))
    root = _round(lax.sqrt(_round(lax.add(sq, _c(x, 1)))))
    small = _round(
        lax.log1p(_round(lax.add(a, _round(lax.div(sq, _round(lax.add(root, _c(x, 1))))))))
    )
    big = lax.ge(a, _c(x, 1.83746865e19))
    return [lax.mul(_round(lax.sign(x)), lax.select(big, _log_large(lax, a), small))]


def _acosh(x):  # log(x) + log 2 if x >= 1.69e38 else log1p(sqrt(x-1) (sqrt(x+1) + sqrt(x-1)))
    lax = _ops()
    below = _round(lax.sqrt(_round(lax.add(x, _c(x, -1)))))
    above = _round(lax.sqrt(_round(lax.add(x, _c(x, 1)))))
    small = lax.log1p(_round(lax.mul(below, _round(lax.add(above, below)))))
    big = lax.ge(x, _c(x, 1.69476569e38))
    return [lax.select(big, _log_large(lax, x), _round(small))]


def _atanh(x):  # (log1p(x) - log1p(-x)) / 2, nan where |x| > 1
    lax = _ops()
    diff = _round(lax.sub(_round(lax.log1p(x)), _round(lax.log1p(_round(lax.neg(x))))))
    half = _round(lax.mul(diff, _c(x, 0.5)))
    return [lax.select(lax.gt(lax.abs(x), _c(x, 1)), _c(x, np.nan), half)]


# The unary primitives XLA expands on bfloat16 into steps of its own (each rounded), by name;
# eager bfloat16 impls run them too (`core/backends/numba/transcendentals.py`)
EXPANSIONS: dict[str, Callable] = {
    "logistic": _logistic,
    "exp2": _exp2,
    "asin": _asin,
    "acos": _acos,
    "asinh": _asinh,
    "acosh": _acosh,
    "atanh": _atanh,
}


def eager_expansion(name: str, x: np.ndarray) -> np.ndarray:
    """`EXPANSIONS[name]` on bfloat16 `x`, eagerly: computed in float32 with the same kernels
    and roundings as the compiled program, so eager results equal `jit`'s bit for bit."""
    (out,) = EXPANSIONS[name](_ops().convert_element_type(np.asarray(x), F32))
    return np.asarray(_round(out)).astype(BF16)


def _rounded_sum(x, *, axes):
    """XLA's bfloat16 `reduce_sum` over `axes`: XLA's CPU compiler cuts every reduced axis of
    more than 32 elements into windows of 32 (the zero padding split between both ends, the
    smaller half first), sums each window's elements in row-major order, each addition
    rounded, and reduces the windows' sums the same way (checked against JAX on one to three
    reduced axes, major and minor)."""
    lax = _ops()
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
        x = rounded_sum_p.bind(lax.reshape(x, (_prod(ws), _prod(ks) * m)))
        x, sizes = lax.reshape(x, (*ks, m)), ks
    x = rounded_sum_p.bind(lax.reshape(x, (_prod(sizes), m)))
    return [lax.reshape(x, tuple(shape[d] for d in rest))]


def _prod(sizes) -> int:
    return int(np.prod(list(sizes), dtype=np.int64))


def _window_sum(x, *, window_dimensions, window_strides, padding, window_dilation, out_shape):
    """XLA's bfloat16 `reduce_window_sum` (average pooling and its gradient): each window's
    elements added in row-major order, each addition rounded (checked against JAX on 2x2 and
    3x3 windows, strided, padded); the last addition left to `_composition`."""
    lax = _ops()
    x = lax.pad(x, np.float32(0), [(lo, hi, 0) for lo, hi in padding])
    acc, first = None, True
    for offsets in itertools.product(*[range(w) for w in window_dimensions]):
        start = [o * d for o, d in zip(offsets, window_dilation)]
        limit = [b + s * (n - 1) + 1 for b, s, n in zip(start, window_strides, out_shape)]
        piece = lax.slice(x, start, limit, window_strides)
        acc = piece if acc is None else lax.add(acc if first else _round(acc), piece)
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


def _bitcast(x, *, new_dtype, source):
    lax = _ops()
    new_dtype = np.dtype(new_dtype)
    if new_dtype == BF16:  # 16-bit integers to bfloat16: their bits in the high half
        bits = lax.bitcast_convert_type(x, U16) if source != U16 else x
        return _load(bits)
    bits = lax.shift_right_logical(lax.bitcast_convert_type(x, np.uint32), np.uint32(16))
    bits = lax.convert_element_type(bits, U16)
    return [bits if new_dtype == U16 else lax.bitcast_convert_type(bits, new_dtype)]


# ---------------------------------------------------------------------------------------------
# The rewrite


class _Widener:
    """Rewrites equations into `eqns`; `env` maps the original program's variables to the new
    one's atoms."""

    def __init__(self):
        self.env: dict[Var, Any] = {}
        self.eqns: list[Eqn] = []
        # bfloat16 results of computations -> their float32 values before rounding: XLA
        # converts such a result to float32 without rounding it (its excess precision)
        self.raw: dict[Var, Any] = {}

    def atom(self, x: Any) -> Any:
        if isinstance(x, Literal):
            if _is_bf16(x.aval):
                return Literal(np.float32(x.val), x.aval.update(dtype=F32))
            return x
        return self.env[x]

    def fresh(self, v: Var) -> Var:
        new = Var(v.aval.update(dtype=F32)) if _is_bf16(v.aval) else Var(v.aval)
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
        narrow_in = any(_is_bf16(x.aval) for x in e.inputs)
        narrow_out = [_is_bf16(v.aval) for v in e.outputs]
        if not narrow_in and not any(narrow_out) and not _holds_bf16(e.params):
            outs = [self.fresh(v) for v in e.outputs]
            self.eqns.append(Eqn(e.prim, ins, e.params, outs, e.source_info))
            return
        special = _SPECIAL.get(name)
        if special is not None and special(self, e, ins):
            return
        params = {k: _widen_param(v) for k, v in e.params.items()}
        exact = name in EXACT or e.prim.higher_order
        if exact or not any(narrow_out):
            outs = [self.fresh(v) for v in e.outputs]
            self.eqns.append(Eqn(e.prim, ins, params, outs, e.source_info))
            return
        outs = [Var(v.aval.update(dtype=F32)) if n else v for v, n in zip(e.outputs, narrow_out)]
        outs = [o if o is not v else self.fresh(v) for o, v in zip(outs, e.outputs)]
        self.eqns.append(Eqn(e.prim, ins, params, outs, e.source_info))
        for v, o, n in zip(e.outputs, outs, narrow_out):
            if n:
                self.round_into(v, o)

    def round_into(self, v: Var, value: Any) -> None:
        """Binds bfloat16 `v` to float32 `value` rounded; a conversion of `v` to float32 reads
        `value` itself (`raw`)."""
        self.raw[v] = value
        self.eqns.append(Eqn(round_bfloat16_p, [value], {}, [self.fresh(v)]))


def _holds_bf16(params: dict) -> bool:
    return any(_param_has_bf16(v) for v in params.values())


def _param_has_bf16(v: Any) -> bool:
    if isinstance(v, np.dtype | type):
        try:
            return np.dtype(v) == BF16
        except TypeError:
            return False
    if isinstance(v, ShapedArray):
        return _is_bf16(v)
    if isinstance(v, Jaxpr | ClosedJaxpr):
        return has_bfloat16(v.jaxpr if isinstance(v, ClosedJaxpr) else v)
    if isinstance(v, (tuple, list)):
        return any(_param_has_bf16(x) for x in v)
    return False


def _widen_param(v: Any) -> Any:
    if isinstance(v, ClosedJaxpr):
        consts = [np.asarray(c, F32) if np.asarray(c).dtype == BF16 else c for c in v.consts]
        return ClosedJaxpr(_widen_inner(v.jaxpr), consts)
    if isinstance(v, Jaxpr):
        return _widen_inner(v)
    if isinstance(v, ShapedArray):
        return v.update(dtype=F32) if _is_bf16(v) else v
    if isinstance(v, tuple | list) and _param_has_bf16(v):
        return type(v)(_widen_param(x) for x in v)
    if isinstance(v, np.dtype | type) and _param_has_bf16(v):
        return F32
    return v


def _widen_inner(jaxpr: Jaxpr) -> Jaxpr:
    """A parameter's jaxpr (a scan's body, a cond's branch) widened: its bfloat16 inputs and
    outputs become float32 ones, as the enclosing program's values are."""
    if not has_bfloat16(jaxpr):
        return jaxpr
    w = _Widener()
    constvars = [w.fresh(v) for v in jaxpr.constvars]
    invars = [w.fresh(v) for v in jaxpr.invars]
    w.eqns_of(jaxpr.eqns)
    return Jaxpr(constvars, invars, w.eqns, [w.atom(x) for x in jaxpr.outvars])


def _convert(w: _Widener, e: Eqn, ins: list) -> bool:
    src, dst = e.inputs[0].aval.dtype, np.dtype(e.params["new_dtype"])
    (x,) = ins
    if src == BF16 and dst == F32 and e.inputs[0] in w.raw:
        w.bind(e, [w.raw[e.inputs[0]]])  # a computation's result, not rounded (XLA's)
        return True
    if src == BF16 and dst in (BF16, F32):
        w.bind(e, [x])  # the same float32 value, a bfloat16 number
        return True
    if dst == BF16:  # through float32, as XLA converts (float64 and integers round twice)
        lax = _ops()
        w.bind(e, w.inline(lambda a: [_round(lax.convert_element_type(a, F32))], [x]))
        return True
    params = dict(e.params)
    w.eqns.append(Eqn(e.prim, [x], params, [w.fresh(e.outputs[0])], e.source_info))
    return True


def _bitcast_rule(w: _Widener, e: Eqn, ins: list) -> bool:
    src, dst = e.inputs[0].aval.dtype, np.dtype(e.params["new_dtype"])
    other = dst if src == BF16 else src
    if other.itemsize != 2:
        raise UnsupportedDTypeError([f"bfloat16 (bitcast from {src} to {dst})"])
    if other == BF16:
        w.bind(e, ins)
        return True
    w.bind(e, w.inline(_bitcast, ins, new_dtype=dst, source=src))
    return True


def _composition(fn: Callable, params: Callable[[dict], dict] = lambda p: {}, last=True):
    """The rule of a primitive XLA expands on bfloat16 into `fn`'s steps; `last`: `fn` leaves
    its result's rounding to the rule (which keeps the unrounded value, `_Widener.raw`)."""

    def rule(w: _Widener, e: Eqn, ins: list) -> bool:
        if not _is_bf16(e.outputs[0].aval):
            return False
        (out,) = w.inline(fn, ins, **params(e.params))
        if last:
            w.round_into(e.outputs[0], out)
        else:
            w.bind(e, [out])
        return True

    return rule


_SPECIAL: dict[str, Callable[[_Widener, Eqn, list], bool]] = {
    "convert_element_type": _convert,
    "bitcast_convert_type": _bitcast_rule,
    **{name: _composition(fn) for name, fn in EXPANSIONS.items()},
    "integer_pow": _composition(_integer_pow, lambda p: {"y": p["y"]}),
    "reduce_sum": _composition(_rounded_sum, lambda p: {"axes": tuple(p["axes"])}, last=False),
    "reduce_window_sum": _window_sum_rule,
}
