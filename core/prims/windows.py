"""Windowed reductions (pooling): `reduce_window_{sum,max,min}` and their selection helpers.

Every primitive here takes the same window params (one entry per operand dimension):

    window_dimensions   the window size
    window_strides      the step between windows
    padding             (low, high) per dimension, filled with the reduction's identity
    base_dilation       operand dilation (identity values inserted between elements)
    window_dilation     window dilation (gaps between window taps)

`reduce_window_sum` is linear; its transpose is a pad (interior = stride - 1) followed by a
windowed sum with strides = base_dilation (JAX's rule), except when the windows tile the
operand (stride = window, no dilation: avg_pool): then every element just receives its
window's cotangent, an upsampling (broadcast + reshape) that costs a copy, not a zero-filled
array twice the size and a windowed sum over it. `reduce_window_max/min` differentiate
through the selected element: their jvp is `select_and_gather_add(t, x)` (the tangent at the
first maximal/minimal tap of each window), whose transpose is `select_and_scatter_add`
(each output cotangent added at that tap), and vice versa, so every order works. All batch by
adding a window dimension of size 1 for the vmapped axis. The numpy impls use strided views.

`reduce_window` is JAX's primitive for any other computation (a jaxpr on scalars, several
operands at once): its value, eagerly and compiled, is the computation applied to one strided
slice per window tap (`Primitive.def_composition`), differentiated through that composition
(JAX linearizes none).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

from core import tree_util
from core.ad_util import Zero, instantiate
from core.avals import ShapedArray
from core.errors import ReduceWindowTreeError, ShapeError
from core.interpreters import batching
from core.interpreters.jvp import deflinear, jvp_flat
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import ClosedJaxpr, Jaxpr, eval_jaxpr
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims.conv import padtype_to_pads
from core.prims.indexing import pad
from core.prims.indexing import slice as static_slice
from core.prims.shapes import broadcast_in_dim, convert_element_type, full, reshape
from core.trace import get_aval

_WINDOW_PARAMS = (
    "window_dimensions",
    "window_strides",
    "padding",
    "base_dilation",
    "window_dilation",
)


def _dilate(shape, dilation):
    return tuple(0 if d == 0 else 1 + r * (d - 1) for d, r in zip(shape, dilation))


def _out_shape(shape, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    padded = [d + lo + hi for d, (lo, hi) in zip(_dilate(shape, base_dilation), padding)]
    eff = _dilate(window_dimensions, window_dilation)
    return tuple(0 if p < k else (p - k) // s + 1 for p, k, s in zip(padded, eff, window_strides))


def _check_shapelike(arg_name: str, obj: Sequence[int], lower: int) -> None:
    """JAX's `_check_shapelike` of reduce_window's `arg_name` (its TypeError text)."""
    if any(d < lower for d in obj):
        bound = "strictly positive" if lower else "nonnegative"
        raise ShapeError(f"reduce_window {arg_name} must have every element be {bound}, got {obj}.")


def _check(name, aval, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    # JAX's shape rule (`_common_reduce_window_shape_rule`), its checks in order, its messages
    _check_shapelike("window_dimensions", window_dimensions, 1)
    _check_shapelike("window_strides", window_strides, 1)
    _check_shapelike("base_dilation", base_dilation, 0)
    _check_shapelike("window_dilation", window_dilation, 0)
    if aval.ndim != len(window_dimensions):
        raise ShapeError(
            "reduce_window got the wrong number of window_dimensions for operand: got operand "
            f"shape {aval.shape} with window_dimensions {window_dimensions}."
        )
    for arg, value in (
        ("window_strides", window_strides),
        ("base_dilation", base_dilation),
        ("window_dilation", window_dilation),
    ):
        if len(value) != len(window_dimensions):
            raise ShapeError(
                f"reduce_window got inconsistent {arg} and window_dimensions: got {arg} {value} "
                f"and window_dimensions {window_dimensions}."
            )
    if len(padding) != aval.ndim:
        raise ShapeError(  # JAX's first line: its safe_zip of the shape and the padding fails
            f"safe_zip() argument 1 has length {len(padding)} but argument 0 has length "
            f"{aval.ndim}. All lengths: ({aval.ndim}, {len(padding)})\n{name}: padding needs "
            f"one (low, high) pair per operand dimension ({aval.ndim} for shape {aval.shape}), "
            f"got {padding}"
        )
    for dilation in (base_dilation, window_dilation):
        if any(d < 1 for d in dilation):
            raise ShapeError(f"All dilations must be positive, got {dilation}.")


def identity(kind: str, dtype: np.dtype) -> Any:
    """The identity of a windowed reduction (the value padding stands for)."""
    dtype = np.dtype(dtype)
    if kind == "sum":
        return dtype.type(0)
    if dtype.kind == "b":
        return kind == "min"
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return dtype.type(info.min if kind == "max" else info.max)
    return dtype.type(-np.inf if kind == "max" else np.inf)


def _padded(x: np.ndarray, fill: Any, padding, base_dilation) -> np.ndarray:
    if any(d > 1 for d in base_dilation):
        dil = np.full(_dilate(x.shape, base_dilation), fill, x.dtype)
        dil[tuple(slice(None, None, d) for d in base_dilation)] = x
        x = dil
    pos = [(max(lo, 0), max(hi, 0)) for lo, hi in padding]
    if any(p != (0, 0) for p in pos):
        x = np.pad(x, pos, constant_values=fill)
    crop = tuple(
        slice(-lo if lo < 0 else 0, x.shape[i] + hi if hi < 0 else None)
        for i, (lo, hi) in enumerate(padding)
    )
    return x[crop]


def _windows(
    x: np.ndarray,
    fill: Any,
    window_dimensions,
    window_strides,
    padding,
    base_dilation,
    window_dilation,
) -> np.ndarray:
    """A read-only view of shape `out_shape + window_dimensions`."""
    xp = _padded(x, fill, padding, base_dilation)
    eff = _dilate(window_dimensions, window_dilation)
    out = tuple(0 if p < k else (p - k) // s + 1 for p, k, s in zip(xp.shape, eff, window_strides))
    st = xp.strides
    return as_strided(
        xp,
        out + tuple(window_dimensions),
        tuple(s * w for s, w in zip(st, window_strides))
        + tuple(s * d for s, d in zip(st, window_dilation)),
        writeable=False,
    )


def _reducer(name: str, kind: str, np_fn) -> Primitive:
    prim = Primitive(name)

    def impl(x, **params):
        view = _windows(x, identity(kind, x.dtype), **params)
        axes = tuple(range(x.ndim, 2 * x.ndim))
        if view.size == 0:
            return np.full(view.shape[: x.ndim], identity(kind, x.dtype), x.dtype)
        return np.asarray(np_fn(view, axis=axes), dtype=x.dtype)

    def abstract_eval(x, **params):
        _check(name, x, *(params[k] for k in _WINDOW_PARAMS))
        return ShapedArray(_out_shape(x.shape, **params), x.dtype, x.weak_type)

    def batch(args, dims, **params):
        (x,), (d,) = args, dims
        return prim.bind(x, **_insert_unit_window(params, d)), d

    prim.def_impl(impl)
    prim.def_abstract_eval(abstract_eval)
    prim.def_batch(batch)
    return prim


def _insert_unit_window(params: dict, d: int) -> dict:
    def ins(t, v):
        t = list(t)
        t.insert(d, v)
        return tuple(t)

    return dict(
        window_dimensions=ins(params["window_dimensions"], 1),
        window_strides=ins(params["window_strides"], 1),
        padding=ins(params["padding"], (0, 0)),
        base_dilation=ins(params["base_dilation"], 1),
        window_dilation=ins(params["window_dilation"], 1),
        **{k: v for k, v in params.items() if k not in _WINDOW_PARAMS},
    )


reduce_window_sum_p = _reducer("reduce_window_sum", "sum", np.sum)
reduce_window_max_p = _reducer("reduce_window_max", "max", np.max)


reduce_window_min_p = _reducer("reduce_window_min", "min", np.min)
deflinear(reduce_window_sum_p)


def _vjp_padding(
    in_shape, window_dimensions, window_strides, out_shape, padding, base_dilation, window_dilation
):
    lhs_d = _dilate(in_shape, base_dilation)
    rhs_d = _dilate(window_dimensions, window_dilation)
    out_d = _dilate(out_shape, window_strides)
    before = [r - lo - 1 for r, (lo, _) in zip(rhs_d, padding)]
    after = [a + r - 1 - o - b for a, r, o, b in zip(lhs_d, rhs_d, out_d, before)]
    return list(zip(before, after))


def _reduce_window_sum_transpose(
    ct, x, *, window_dimensions, window_strides, padding, base_dilation, window_dilation
):
    in_shape = x.aval.shape
    if window_strides == window_dimensions and all(
        d == 1 for d in (*base_dilation, *window_dilation)
    ):
        return [_tiled_sum_transpose(ct, in_shape, window_dimensions, padding)]
    pads = _vjp_padding(
        in_shape,
        window_dimensions,
        window_strides,
        get_aval(ct).shape,
        padding,
        base_dilation,
        window_dilation,
    )
    cfg = tuple((lo, hi, s - 1) for (lo, hi), s in zip(pads, window_strides))
    padded = pad(ct, _weak_zero(ct), cfg)
    n = len(in_shape)
    out = reduce_window_sum_p.bind(
        padded,
        window_dimensions=window_dimensions,
        window_strides=base_dilation,
        padding=((0, 0),) * n,
        base_dilation=(1,) * n,
        window_dilation=window_dilation,
    )
    return [out]


def _weak_zero(ct: Any) -> Any:
    """A zero scalar as weakly typed as `ct` (JAX's `lax._zero`: its window-sum transposes
    pad the cotangent with it, so a weak cotangent stays weak)."""
    aval = get_aval(ct)
    return full((), 0, aval.dtype, aval.weak_type)


def _tiled_sum_transpose(ct, in_shape, window_dimensions, padding):
    """The transpose when the windows tile the (padded) operand: every element gets the
    cotangent of the one window holding it, an upsampling (broadcast, merge axes) then a pad
    or crop back to the operand's extent; no zero-dilated array, no overlapping sums."""
    shape = get_aval(ct).shape
    wide = tuple(x for n, w in zip(shape, window_dimensions) for x in (n, w))
    up = broadcast_in_dim(ct, wide, tuple(range(0, len(wide), 2)))
    up = reshape(up, tuple(n * w for n, w in zip(shape, window_dimensions)))
    cfg = tuple(
        (-lo, size - n * w + lo, 0)
        for size, n, w, (lo, _) in zip(in_shape, shape, window_dimensions, padding)
    )
    if any(c != (0, 0, 0) for c in cfg):
        up = pad(up, _weak_zero(ct), cfg)
    return up


reduce_window_sum_p.def_transpose(_reduce_window_sum_transpose)


# ---------------------------------------------------------------------------------------------
# Selection: the derivative machinery of max/min pooling


def _selected_sources(x: np.ndarray, select: str, **params) -> np.ndarray:
    """Per output window, the flat operand index of its first max/min tap (-1: padding only)."""
    src = np.arange(x.size, dtype=np.int64).reshape(x.shape)
    vals = _windows(x, identity(select, x.dtype), **params)
    srcs = _windows(src, np.int64(-1), **params)
    out_shape = vals.shape[: x.ndim]
    flat_v = vals.reshape(out_shape + (-1,))
    flat_s = srcs.reshape(out_shape + (-1,))
    if flat_v.shape[-1] == 0:
        return np.full(out_shape, -1, np.int64)
    pick = np.argmax(flat_v, axis=-1) if select == "max" else np.argmin(flat_v, axis=-1)
    return np.take_along_axis(flat_s, pick[..., None], axis=-1)[..., 0]


select_and_gather_add_p = Primitive("select_and_gather_add")
select_and_scatter_add_p = Primitive("select_and_scatter_add")


def _sga_impl(t, x, *, select_prim, **params):
    idx = _selected_sources(x, select_prim, **params)
    flat = t.reshape(-1)
    return np.where(idx >= 0, flat[np.maximum(idx, 0)] if flat.size else 0, 0).astype(t.dtype)


def _sga_abstract_eval(t, x, *, select_prim, **params):
    if t.shape != x.shape or t.dtype != x.dtype:
        raise ShapeError(
            f"select_and_gather_add: tangent {t.str_short(short_dtypes=True)} must match operand "
            f"{x.str_short(short_dtypes=True)}"
        )
    return ShapedArray(_out_shape(x.shape, **params), t.dtype, t.weak_type)


def _ssa_impl(s, x, *, select_prim, **params):
    idx = _selected_sources(x, select_prim, **params).reshape(-1)
    out = np.zeros(x.size, s.dtype)
    keep = idx >= 0
    np.add.at(out, idx[keep], s.reshape(-1)[keep])
    return out.reshape(x.shape)


def _ssa_abstract_eval(s, x, *, select_prim, **params):
    expect = _out_shape(x.shape, **params)
    if s.shape != expect:
        raise ShapeError(
            f"select_and_scatter_add: source {s.shape} must have the window output "
            f"shape {expect} of operand {x.shape}"
        )
    return ShapedArray(x.shape, s.dtype, s.weak_type)


def _linear_in_first(prim):
    def jvp(primals, tangents, **params):
        (a, x), (ta, _) = primals, tangents
        out = prim.bind(a, x, **params)
        if type(ta) is Zero:
            return out, Zero(get_aval(out))
        return out, prim.bind(ta, x, **params)

    def batch(args, dims, **params):
        (a, x), (da, dx) = args, dims
        size = get_aval(a).shape[da] if da is not None else get_aval(x).shape[dx]
        a = batching.moveaxis(a, da, 0, size)
        x = batching.moveaxis(x, dx, 0, size)
        return prim.bind(a, x, **_insert_unit_window(params, 0)), 0

    prim.def_jvp(jvp)
    prim.def_batch(batch)


_linear_in_first(select_and_gather_add_p)
_linear_in_first(select_and_scatter_add_p)
select_and_gather_add_p.def_impl(_sga_impl)
select_and_gather_add_p.def_abstract_eval(_sga_abstract_eval)
select_and_gather_add_p.def_transpose(
    lambda ct, t, x, **params: [select_and_scatter_add_p.bind(ct, x, **params), None]
)
select_and_gather_add_p.linear = True
select_and_scatter_add_p.def_impl(_ssa_impl)
select_and_scatter_add_p.def_abstract_eval(_ssa_abstract_eval)
select_and_scatter_add_p.def_transpose(
    lambda ct, s, x, **params: [select_and_gather_add_p.bind(ct, x, **params), None]
)


select_and_scatter_add_p.linear = True


def _chooser_jvp(prim, select):
    def rule(primals, tangents, **params):
        (x,), (t,) = primals, tangents
        out = prim.bind(x, **params)
        if type(t) is Zero:
            return out, Zero(get_aval(out))
        return out, select_and_gather_add_p.bind(t, x, select_prim=select, **params)

    prim.def_jvp(rule)


_chooser_jvp(reduce_window_max_p, "max")
_chooser_jvp(reduce_window_min_p, "min")


# ---------------------------------------------------------------------------------------------
# The user-facing wrappers


def _norm_params(
    shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
) -> dict:
    n = len(shape)
    wd = tuple(int(d) for d in window_dimensions)
    ws = (1,) * n if window_strides is None else tuple(int(s) for s in window_strides)
    bd = (1,) * n if base_dilation is None else tuple(int(d) for d in base_dilation)
    wdl = (1,) * n if window_dilation is None else tuple(int(d) for d in window_dilation)
    if isinstance(padding, str):
        pads = tuple(padtype_to_pads(shape, _dilate(wd, wdl), ws, padding))
    else:
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    return dict(
        window_dimensions=wd, window_strides=ws, padding=pads, base_dilation=bd, window_dilation=wdl
    )


def _window_fn(prim: Primitive):
    def fn(
        operand: Any,
        window_dimensions: Sequence[int],
        window_strides: Sequence[int] | None = None,
        padding: Any = "VALID",
        base_dilation: Sequence[int] | None = None,
        window_dilation: Sequence[int] | None = None,
    ) -> Any:
        params = _norm_params(
            get_aval(operand).shape,
            window_dimensions,
            window_strides,
            padding,
            base_dilation,
            window_dilation,
        )
        return prim.bind(operand, **params)

    fn.__name__ = prim.name
    fn.__doc__ = f"`{prim.name}` with the reduction's identity as padding."
    return fn


reduce_window_sum = _window_fn(reduce_window_sum_p)
reduce_window_max = _window_fn(reduce_window_max_p)
reduce_window_min = _window_fn(reduce_window_min_p)


# The binary functions `reduce_window` runs as its sum/max/min primitives. The layers above
# register their own names for them (`core.numpy`'s add/maximum/minimum); wrappers made with
# `functools.wraps` (the `core.lax` ones) are unwrapped first.
_MONOIDS: list[tuple[Callable, str]] = [(ew.add, "sum"), (ew.max, "max"), (ew.min, "min")]


def register_monoid(computation: Callable, kind: str) -> None:
    """Makes `reduce_window(..., computation, ...)` use the `kind` ('sum', 'max' or 'min')
    reduction primitive."""
    _MONOIDS.append((computation, kind))


def _monoid(computation: Callable) -> str | None:
    base = inspect.unwrap(computation)
    for fn, kind in _MONOIDS:
        if computation is fn or base is fn:
            return kind
    return None


def reduce_window(
    operand: Any,
    init_value: Any,
    computation: Callable,
    window_dimensions: Sequence[int],
    window_strides: Sequence[int] | None = None,
    padding: str | Sequence[tuple[int, int]] = "VALID",
    base_dilation: Sequence[int] | None = None,
    window_dilation: Sequence[int] | None = None,
) -> Any:
    """`lax.reduce_window`: primitives for the sum/max/min monoids (the pooling layers; a
    non-identity init joins the result once, where JAX binds `reduce_window`), JAX's
    `reduce_window` primitive for any other `computation`.

    Args:
      operand: the array, or a pytree of arrays of one shape.
      init_value: the reduction's start value (a pytree of scalars like `operand`); padding is
        filled with it.
      computation: `lax.add`, `lax.max` or `lax.min` (or jnp.add/maximum/minimum), or any
        associative binary function of (pytrees of) scalars.
      window_dimensions: the window size per dimension.
      window_strides: the step per dimension (default 1).
      padding: 'SAME', 'VALID' or (low, high) pairs.
      base_dilation: operand dilation per dimension.
      window_dilation: window dilation per dimension.

    Returns:
      The reduced windows (a pytree like `operand`).
    """
    leaves = tree_util.tree_leaves(operand)
    shapes = [np.shape(i) for i in tree_util.tree_leaves(init_value)]
    if any(shapes):
        raise ShapeError(
            "reduce_window expected init_values to be scalars but init_values have shapes "
            f"{shapes}."
        )
    kind = _monoid(computation) if len(leaves) == 1 and leaves[0] is operand else None
    aval = get_aval(leaves[0])
    params = _norm_params(
        aval.shape, window_dimensions, window_strides, padding, base_dilation, window_dilation
    )
    if kind is None:
        return _generic_reduce_window(operand, init_value, computation, params)
    prim = {"sum": reduce_window_sum_p, "max": reduce_window_max_p, "min": reduce_window_min_p}[
        kind
    ]
    init = np.asarray(init_value) if not hasattr(init_value, "aval") else None
    if (
        init is not None
        and init.shape == ()
        and init.astype(aval.dtype) == identity(kind, aval.dtype)
    ):
        return prim.bind(operand, **params)
    # A non-identity init joins once; padding and dilation holes hold no element (as in XLA),
    # which the primitive's identity padding gives.
    init = convert_element_type(init_value, aval.dtype, aval.weak_type)
    out = prim.bind(operand, **params)
    combine = {"sum": ew.add, "max": ew.max, "min": ew.min}[kind]
    return combine(out, _broadcast(init, out))


# ---------------------------------------------------------------------------------------------
# reduce_window: any computation (JAX's primitive)

reduce_window_p = Primitive("reduce_window", multiple_results=True)


def _reduce_window_composition(*args: Any, jaxpr: Jaxpr, consts: tuple = (), **params: Any) -> list:
    """Combines, from the init values, one strided slice of the padded operands per window
    offset (window-size many evaluations of the computation `jaxpr` on whole arrays); a
    validity mask keeps padding and dilation holes out, as in XLA."""
    if isinstance(jaxpr, ClosedJaxpr):  # accepted too (a `make_jaxpr` result)
        jaxpr, consts = jaxpr.jaxpr, (*jaxpr.consts, *consts)
    n = len(args) // 2
    operands, inits = args[:n], args[n:]
    cfg = tuple((lo, hi, d - 1) for (lo, hi), d in zip(params["padding"], params["base_dilation"]))
    padded = [pad(x, i, cfg) for x, i in zip(operands, inits)]
    shape = get_aval(operands[0]).shape
    valid = pad(full(shape, True, np.dtype(bool)), full((), False, np.dtype(bool)), cfg)
    out_shape = _out_shape(shape, **params)
    wd, ws, wdl = params["window_dimensions"], params["window_strides"], params["window_dilation"]
    outs = [broadcast_in_dim(i, out_shape, ()) for i in inits]
    for offset in itertools.product(*(range(w) for w in wd)):
        start = [o * d for o, d in zip(offset, wdl)]
        limit = [b + (k - 1) * st + 1 if k else b for b, k, st in zip(start, out_shape, ws)]
        taken = [static_slice(x, start, limit, ws) for x in padded]
        ok = static_slice(valid, start, limit, ws)
        new = batching.scalar_call(lambda *xs: eval_jaxpr(jaxpr, consts, *xs), [*outs, *taken])
        outs = [ew.select(ok, a, b) for a, b in zip(new, outs)]
    return outs


def _reduce_window_abstract_eval(*args: ShapedArray, jaxpr: Jaxpr, consts: tuple = (), **params):
    n = len(args) // 2
    for x, i in zip(args[:n], args[n:]):
        _check("reduce_window", x, *(params[k] for k in _WINDOW_PARAMS))
        if x.dtype != i.dtype or i.shape != ():
            raise ShapeError(
                f"reduce_window: the init value of an operand of dtype {x.dtype} must be a "
                f"scalar of that dtype, got {i.dtype}{list(i.shape)}"
            )
    return [ShapedArray(_out_shape(x.shape, **params), x.dtype) for x in args[:n]]


def _reduce_window_jvp(primals, tangents, **params):
    # the jvp of the composition (JAX's primitive has a jvp but no linearization)
    outs = reduce_window_p.bind(*primals, **params)
    tangents = [instantiate(t) for t in tangents]
    _, touts = jvp_flat(lambda *xs: _reduce_window_composition(*xs, **params), primals, tangents)
    return outs, touts


def _reduce_window_batch(args, dims, **params):
    # JAX's: the operands' batch axes to the front, a unit window over them
    n = len(args) // 2
    if any(d is not None for d in dims[n:]):
        raise NotImplementedError("reduce_window batching is not implemented for initial values")
    size = next(get_aval(x).shape[d] for x, d in zip(args, dims) if d is not None)
    operands = [batching.moveaxis(x, d, 0, size) for x, d in zip(args[:n], dims[:n])]
    outs = reduce_window_p.bind(*operands, *args[n:], **_insert_unit_window(params, 0))
    return outs, [0] * n


reduce_window_p.def_composed(_reduce_window_composition)
reduce_window_p.def_abstract_eval(_reduce_window_abstract_eval)
reduce_window_p.def_jvp(_reduce_window_jvp)
reduce_window_p.def_batch(_reduce_window_batch)


def _generic_reduce_window(operands: Any, init_values: Any, computation: Callable, params) -> Any:
    """`reduce_window_p` of the (pytrees of) operands and init values, `computation` staged
    on scalars as JAX stages it."""
    flat, tree = tree_util.tree_flatten(operands)
    flat_inits, init_tree = tree_util.tree_flatten(init_values)
    if tree != init_tree:
        raise ReduceWindowTreeError(
            f"Operands must have the same tree structure as init_values: {tree} vs. {init_tree}"
        )
    avals = [get_aval(x) for x in flat]
    flat_inits = [convert_element_type(i, a.dtype) for i, a in zip(flat_inits, avals)]
    scalars = [ShapedArray((), a.dtype) for a in avals]

    def fun(*xs):
        n = len(xs) // 2
        a = tree_util.tree_unflatten(tree, list(xs[:n]))
        b = tree_util.tree_unflatten(tree, list(xs[n:]))
        out, out_tree = tree_util.tree_flatten(computation(a, b))
        if out_tree != tree:
            raise ReduceWindowTreeError(
                "reduce_window output must have the same tree structure as the operands "
                f"{tree} vs. {out_tree}"
            )
        return out

    jaxpr, consts = trace_to_jaxpr(fun, scalars + scalars)
    outs = reduce_window_p.bind(*flat, *flat_inits, jaxpr=jaxpr, consts=tuple(consts), **params)
    return tree_util.tree_unflatten(tree, outs)


def _broadcast(scalar: Any, like: Any) -> Any:
    return broadcast_in_dim(scalar, get_aval(like).shape, ())
