"""Sorting and scans: sort (multi-operand, stable), top_k, and the cumulative reductions.

`sort` sorts several same-shaped operands together by the first `num_keys` of them (argsort is
`sort(x, iota)`); NaNs go last, as in numpy and JAX. `top_k` returns the k largest values along
`axis` and their int32 indices, ties in index order. `cumsum`/`cumprod`/`cummax`/`cummin`/
`cumlogsumexp` scan along one axis, optionally in reverse (`jit` compiles cumlogsumexp as its
composition, the parallel prefix scan of a stable logaddexp); cumsum and cumprod of floats
round in XLA's CPU order (`xla_order_scan`), bit for bit JAX's. Derivatives of sort and top_k go
through the permutation gathered with `take_along_axis`; `cumsum` is linear; the others
differentiate JAX's way, as the jvp of the parallel prefix scan (`lax.associative_scan`) of
their operation.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from core import dtypes
from core.ad_util import Zero, instantiate
from core.avals import ShapedArray
from core.errors import (
    AxisError,
    DTypeError,
    IntegerLogSumExpError,
    JaxRuntimeError,
    ShapeError,
    UnorderedDTypeError,
)
from core.interpreters import batching
from core.interpreters.jvp import deflinear, jvp_flat
from core.primitive import Primitive
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.associative_scan import associative_scan
from core.prims.gather import GatherDimensionNumbers, GatherScatterMode, bind_gather, gather
from core.prims.indexing import concatenate
from core.trace import get_aval


def take_along_axis(x: Any, idx: Any, axis: int) -> Any:
    """`x` gathered along `axis` at in-bounds indices `idx` of the same shape (prim level)."""
    aval = get_aval(idx)
    cols = [idx if d == axis else sh.iota(aval.dtype, aval.shape, d) for d in range(aval.ndim)]
    full = [sh.reshape(c, (*aval.shape, 1)) for c in cols]

    indices = concatenate(full, aval.ndim)
    return gather(x, indices, tuple(range(aval.ndim)), "clip")


# ---------------------------------------------------------------------------------------------
# sort

sort_p = Primitive("sort", multiple_results=True)


def _sort_perm(keys, dimension):
    # ml_dtypes' floats (bfloat16...) sort through float32, exactly: numpy's sort of them
    # does not put NaN last
    keys = [
        k.astype(np.float32) if k.dtype.kind == "V" and dtypes.is_float(k.dtype) else k
        for k in keys
    ]
    # a complex key is its real part, then its imaginary part, each with NaN last (XLA's
    # comparator; numpy's sort puts every number holding a NaN last: 0 + nan j after 1 + 0j)
    keys = [p for k in keys for p in ((k.real, k.imag) if k.dtype.kind == "c" else (k,))]
    if len(keys) == 1:
        return np.argsort(keys[0], axis=dimension, kind="stable")
    if keys[0].size == 0:  # no rows to lexsort (reshape(-1, 0) is ambiguous)
        return np.zeros(keys[0].shape, np.int64)
    moved = [np.moveaxis(k, dimension, -1) for k in keys]
    flat = [m.reshape(-1, m.shape[-1]) for m in moved]
    rows = [np.lexsort(tuple(f[r] for f in reversed(flat))) for r in range(flat[0].shape[0])]
    perm = np.array(rows, dtype=np.int64).reshape(moved[0].shape)
    return np.moveaxis(perm, -1, dimension)


def _sort_impl(*operands, dimension, is_stable, num_keys):
    perm = _sort_perm(operands[:num_keys], dimension)
    return [np.take_along_axis(o, perm, axis=dimension) for o in operands]


def _sort_abstract_eval(*operands, dimension, is_stable, num_keys):
    if any(o.shape != operands[0].shape for o in operands[1:]):
        shapes = " ".join(str(o.shape) for o in operands)
        raise ShapeError(f"Arguments to sort must have equal shapes, got: {shapes}")
    if not 0 <= dimension < operands[0].ndim or not 1 <= num_keys <= len(operands):
        raise ShapeError(
            f"sort: dimension {dimension} / num_keys {num_keys} invalid for {len(operands)} "
            f"operands of shape {operands[0].shape}"
        )
    for o in operands[:num_keys]:  # JAX's comparator (`lt_to`) orders numbers only
        if type(o.dtype) is dtypes.KeyDType:
            ew.reject_dtype("lt_to", o.dtype, "iufb", 0)
    return [ShapedArray(o.shape, o.dtype, o.weak_type) for o in operands]


def _sort_jvp(primals, tangents, *, dimension, is_stable, num_keys):
    # JAX's: the permutation in the smallest unsigned index dtype, the tangents gathered along
    # `dimension` with the other dimensions as batching dimensions
    shape = get_aval(primals[0]).shape
    index_dtype = np.dtype(np.uint32 if max(shape, default=0) <= 2**32 - 1 else np.uint64)
    iota = sh.iota(index_dtype, shape, dimension)
    *outs, perm = sort_p.bind(
        *primals, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys
    )
    batch = tuple(np.delete(np.arange(len(shape), dtype=np.int64), dimension))
    dn = GatherDimensionNumbers((), (dimension,), (dimension,), batch, batch)
    idx = sh.broadcast_in_dim(perm, (*shape, 1), tuple(range(len(shape))))
    touts = [
        t
        if type(t) is Zero
        else bind_gather(t, idx, dn, (1,) * len(shape), mode=GatherScatterMode.PROMISE_IN_BOUNDS)
        for t in tangents
    ]
    touts = [Zero(get_aval(o)) if type(t) is Zero else t for o, t in zip(outs, touts)]
    return outs, touts


def _sort_batch(args, dims, *, dimension, is_stable, num_keys):
    size = batching.batch_size(args, dims)
    moved = [batching.moveaxis(a, d, 0, size) for a, d in zip(args, dims)]
    outs = sort_p.bind(*moved, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys)
    return outs, [0] * len(outs)


sort_p.def_impl(_sort_impl)
sort_p.def_abstract_eval(_sort_abstract_eval)
sort_p.def_jvp(_sort_jvp)
sort_p.def_batch(_sort_batch)


def _canonical_axis(axis: Any, ndim: int) -> int:
    # lax's canonicalize_axis: an axis in [-ndim, ndim) (none for a rank-0 operand)
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise AxisError(f"axis {axis} is out of bounds for array of dimension {ndim}")
    return axis + ndim if axis < 0 else axis


def sort(operand: Any, dimension: int = -1, is_stable: bool = True, num_keys: int = 1) -> Any:
    """`lax.sort`: sorts one array, or a sequence of arrays by the first `num_keys` of them."""
    multiple = isinstance(operand, (list, tuple))
    ops = list(operand) if multiple else [operand]
    if multiple and not ops:
        raise TypeError("Sort requires at least one operand")
    if multiple and not 1 <= num_keys <= len(ops):
        raise ValueError(f"num_keys={num_keys} must be between 1 and len(operand)={len(ops)}")
    if not multiple and num_keys != 1:
        raise ValueError(f"num_keys={num_keys} must equal 1 for a single operand.")
    outs = sort_p.bind(
        *ops,
        dimension=_canonical_axis(dimension, get_aval(ops[0]).ndim),
        is_stable=bool(is_stable),
        num_keys=int(num_keys),
    )
    return tuple(outs) if multiple else outs[0]


def sort_key_val(keys: Any, values: Any, dimension: int = -1, is_stable: bool = True):
    """`lax.sort_key_val`: sorts `keys` and permutes `values` the same way."""
    return sort([keys, values], dimension, is_stable, 1)


# ---------------------------------------------------------------------------------------------
# top_k (along `axis`, as JAX's primitive)

top_k_p = Primitive("top_k", multiple_results=True)


def total_order_key(x: np.ndarray) -> np.ndarray:
    """Float `x` as integers in IEEE totalOrder, the order XLA's TopK compares in: its bits as
    a signed integer with the magnitude bits of negative numbers flipped, so -nan < -inf < ...
    < -0.0 < 0.0 < ... < nan. Other dtypes are their own keys."""
    if not dtypes.is_float(x.dtype):
        return x
    bits = 8 * x.dtype.itemsize
    ints = np.ascontiguousarray(x).view(f"int{bits}")
    return ints ^ ((ints >> (bits - 1)) & np.array(2 ** (bits - 1) - 1, ints.dtype))


def _top_k_impl(x, *, k, axis):
    xm = np.moveaxis(total_order_key(x), axis, -1)
    n = xm.shape[-1]
    perm = np.argsort(xm[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    idx = (n - 1 - perm)[..., :k]
    vals = np.take_along_axis(np.moveaxis(x, axis, -1), idx, axis=-1)
    return [np.moveaxis(vals, -1, axis), np.moveaxis(idx.astype(np.int32), -1, axis)]


_INT32_MAX = int(np.iinfo(np.int32).max)


def _top_k_abstract_eval(x, *, k, axis):
    if np.dtype(x.dtype).kind == "c":
        raise UnorderedDTypeError(
            "top_k is not compatible with complex inputs.\n"
            "Order complex numbers by a real key: lax.top_k(jnp.abs(x), k), or x.real."
        )
    if not 0 <= axis < x.ndim:
        raise ShapeError(f"top_k: axis {axis} is out of bounds for an operand of shape {x.shape}")
    if k > x.shape[axis]:
        raise ShapeError(
            "k argument to top_k must be no larger than size along axis; got "
            f"k={k} with shape={list(x.shape)} and axis={axis}"
        )
    if x.shape[axis] > _INT32_MAX + 1:
        raise ShapeError(
            "top_k returns int32 indices, which will overflow for array dimensions larger than "
            f"the maximum int32 ({_INT32_MAX}). Got operand.shape={x.shape}"
        )
    shape = (*x.shape[:axis], k, *x.shape[axis + 1 :])
    return [ShapedArray(shape, x.dtype, x.weak_type), ShapedArray(shape, dtypes.int32)]


def _top_k_jvp(primals, tangents, *, k, axis):
    (x,), (t,) = primals, tangents
    vals, idx = top_k_p.bind(x, k=k, axis=axis)
    if type(t) is Zero:
        return [vals, idx], [Zero(get_aval(vals)), Zero(get_aval(idx))]
    return [vals, idx], [take_along_axis(t, idx, axis), Zero(get_aval(idx))]


def _top_k_batch(args, dims, *, k, axis):
    (x,), (d,) = args, dims
    return top_k_p.bind(x, k=k, axis=axis + 1 if d <= axis else axis), [d, d]


top_k_p.def_impl(_top_k_impl)
top_k_p.def_abstract_eval(_top_k_abstract_eval)
top_k_p.def_jvp(_top_k_jvp)
top_k_p.def_batch(_top_k_batch)


def top_k(operand: Any, k: int, *, axis: int = -1) -> list[Any]:
    """`lax.top_k`: the `k` largest entries along `axis` (default the last) and their int32
    indices, largest first, as the list `[values, indices]` (JAX's type)."""
    count = int(k)
    if count >= 0:
        along = _canonical_axis(axis, get_aval(operand).ndim)
        return list(top_k_p.bind(operand, k=count, axis=along))
    raise ValueError(f"k argument to top_k must be nonnegative, got {count}")


# ---------------------------------------------------------------------------------------------
# approx_top_k (JAX's primitive of approx_max_k/approx_min_k: exact here)

approx_top_k_p = Primitive("approx_top_k", multiple_results=True)


def _approx_top_k_output_size(
    size: int, rank: int, k: int, recall_target: float, aggregate: bool, size_override: int
) -> int:
    """How many entries approx_top_k returns along its reduction dimension: `k` when it
    aggregates, else XLA's `ApproxTopKReductionOutputSize` (the reduced windows of 128 lanes,
    1024 for rank 1, kept for the recall target; XLA's INVALID_ARGUMENT messages)."""
    if aggregate:
        return k
    tiling = 1024 if rank == 1 else 128
    if size <= tiling:
        return size
    if 0 <= size_override < size:
        raise JaxRuntimeError(
            f"INVALID_ARGUMENT: reduction_input_size_override: {size_override} should be "
            f"greater equals to operands[reduction_dim]: {size}"
        )
    logical = size_override if size_override >= 0 else size
    windows = -(-size // tiling)
    if k == 1:
        return tiling
    if recall_target == 1.0:
        return size
    if not 0.0 < recall_target <= 1.0:
        raise JaxRuntimeError("INVALID_ARGUMENT: recall_target should range in (0,1]")
    m = min(max(int((1.0 - k) / np.log(np.float64(np.float32(recall_target)))), tiling), logical)
    log2_reduction = (logical // m).bit_length() - 1
    if log2_reduction == 0:
        return size
    log2_reduction = min(log2_reduction, (windows - 1).bit_length())
    return -(-windows // (1 << log2_reduction)) * tiling


def _approx_top_k(
    operand: Any, *, k: int, reduction_dimension: int, is_max_k: bool, **params: Any
) -> list[Any]:
    """The exact top (or bottom) entries, as many as JAX's CPU fallback (a sort) returns:
    `k`, or XLA's reduced size without `aggregate_to_topk`."""
    aval = get_aval(operand)
    axis = reduction_dimension % aval.ndim
    count = _approx_top_k_output_size(
        aval.shape[axis], aval.ndim, k, params["recall_target"], params["aggregate_to_topk"],
        params["reduction_input_size_override"],
    )  # fmt: skip
    vals, idx = top_k_p.bind(operand if is_max_k else ew.neg(operand), k=count, axis=axis)
    return [vals if is_max_k else ew.neg(vals), idx]


def _approx_top_k_abstract_eval(
    operand, *, k, reduction_dimension, recall_target, aggregate_to_topk,
    reduction_input_size_override, **_,
):  # fmt: skip
    # JAX's checks and messages
    if k <= 0:
        raise ValueError(f"k must be positive, got {k}")
    if operand.ndim == 0:
        raise TypeError(f"approx_top_k operand must have >= 1 dimension, got {operand.shape}")
    dims = list(operand.shape)
    if dims[reduction_dimension] < k:
        raise ValueError(
            f"k must be smaller than the size of reduction_dim {dims[reduction_dimension]}, got {k}"
        )
    if dtypes.kind(operand.dtype) != "f":
        raise ValueError("operand must be a floating type")
    dims[reduction_dimension] = _approx_top_k_output_size(
        dims[reduction_dimension], len(dims), k, recall_target, aggregate_to_topk,
        reduction_input_size_override,
    )  # fmt: skip
    return [
        ShapedArray(tuple(dims), operand.dtype, operand.weak_type),
        ShapedArray(tuple(dims), np.dtype(np.int32)),
    ]


def _approx_top_k_jvp(primals, tangents, **params):
    # JAX's: the tangent gathered at the selected indices
    (x,), (t,) = primals, tangents
    vals, idx = approx_top_k_p.bind(x, **params)
    if type(t) is Zero:
        return [vals, idx], [Zero(get_aval(vals)), Zero(get_aval(idx))]
    axis = params["reduction_dimension"] % get_aval(x).ndim
    return [vals, idx], [take_along_axis(t, idx, axis), Zero(get_aval(idx))]


def _approx_top_k_batch(args, dims, *, reduction_dimension, **params):
    # JAX's: the reduction dimension renumbered past the batch axis
    (x,), (d,) = args, dims
    dim = [i for i in range(get_aval(x).ndim) if i != d][reduction_dimension]
    return approx_top_k_p.bind(x, reduction_dimension=dim, **params), [d, d]


approx_top_k_p.def_composed(_approx_top_k)
approx_top_k_p.def_abstract_eval(_approx_top_k_abstract_eval)
approx_top_k_p.def_jvp(_approx_top_k_jvp)
approx_top_k_p.def_batch(_approx_top_k_batch)


def approx_top_k(
    operand: Any,
    k: int,
    reduction_dimension: int,
    recall_target: float,
    is_max_k: bool,
    reduction_input_size_override: int,
    aggregate_to_topk: bool,
) -> list[Any]:
    """`lax.approx_max_k`/`approx_min_k`'s primitive: `[values, int32 indices]` of the `k`
    largest (`is_max_k`) or smallest entries along `reduction_dimension`, exactly, as JAX's
    CPU fallback; with `aggregate_to_topk=False`, the exact top of XLA's reduced size (the
    fallback's; JAX's TPU algorithm returns an approximate set of that size).
    """
    return approx_top_k_p.bind(
        operand,
        k=int(k),
        reduction_dimension=int(reduction_dimension),
        recall_target=float(recall_target),
        is_max_k=bool(is_max_k),
        reduction_input_size_override=int(reduction_input_size_override),
        aggregate_to_topk=bool(aggregate_to_topk),
    )


# ---------------------------------------------------------------------------------------------
# Cumulative reductions


def _quiet(fn):
    """`fn` without numpy's warnings (logaddexp of two -infs is nan inside, and masked)."""

    def quiet(*args, **params):
        with np.errstate(all="ignore"):
            return fn(*args, **params)

    return quiet


SCAN_BLOCK = 16  # the base length of XLA's CPU ReduceWindowRewriter


def xla_order_scan(ufunc, identity: float, x: np.ndarray, axis: int, reverse: bool) -> np.ndarray:
    """The running fold of `ufunc` (add or multiply) along `axis`, rounded as XLA's CPU rounds
    JAX's cumsum/cumprod, so that float results are bit-equal to JAX's.

    JAX lowers them to a reduce-window over the whole axis. Each output folds its window from
    the identity in increasing index order (elements 0..j, or j..n-1 when reversed), each step
    rounded in the dtype. XLA's ReduceWindowRewriter cuts an axis longer than 16 into blocks of
    16 (the last padded with the identity), scans each block, scans the blocks' totals the same
    way, and combines each element with the total of the blocks before its block (after it,
    when reversed).

    Args:
      ufunc: `np.add` or `np.multiply`.
      identity: its identity (0 or 1).
      x: the operand.
      axis: the axis to scan.
      reverse: scan from the end.

    Returns:
      An array like `x`.
    """
    return np.moveaxis(_blocks_scan(ufunc, identity, np.moveaxis(x, axis, -1), reverse), -1, axis)


def _blocks_scan(ufunc, identity, x, reverse):
    *lead, n = x.shape
    if n <= SCAN_BLOCK:
        return _window_scan(ufunc, identity, x, reverse)
    blocks = -(-n // SCAN_BLOCK)
    padded = np.full((*lead, blocks * SCAN_BLOCK), identity, x.dtype)
    padded[..., :n] = x
    inner = _window_scan(ufunc, identity, padded.reshape(*lead, blocks, SCAN_BLOCK), reverse)
    totals = _blocks_scan(ufunc, identity, inner[..., 0 if reverse else -1], reverse)
    before = np.full_like(totals, identity)
    if reverse:
        before[..., :-1] = totals[..., 1:]
    else:
        before[..., 1:] = totals[..., :-1]
    out = ufunc(inner, before[..., None]).reshape(*lead, blocks * SCAN_BLOCK)
    return out[..., :n]


def _window_scan(ufunc, identity, x, reverse):
    """Output j folds x[..., :j + 1] (x[..., j:] when reversed) from the identity, in
    increasing index order: forwards one running fold (`ufunc.accumulate` after the identity,
    each step rounded in the dtype); reversed, step k adds element j + k to output j."""
    if not reverse:
        start = np.full((*x.shape[:-1], 1), identity, x.dtype)
        return ufunc.accumulate(np.concatenate([start, x], axis=-1), axis=-1, dtype=x.dtype)[
            ..., 1:
        ]
    acc = np.full_like(x, identity)
    n = x.shape[-1]
    for k in range(n):
        acc[..., : n - k] = ufunc(acc[..., : n - k], x[..., k:])
    return acc


def _cumulative(name: str, ufunc) -> Primitive:
    prim = Primitive(name)
    xla_order = {np.add: 0, np.multiply: 1}.get(ufunc)  # the identity, if XLA's order matters

    @_quiet
    def impl(x, *, axis, reverse):
        check(x, axis)
        if xla_order is not None and dtypes.kind(x.dtype) in "fc" and x.dtype.itemsize > 1:
            # (float8/6/4 accumulate in float32 and round once, below: XLA adds them through
            # float16, rounding twice, in an order of its own)
            return xla_order_scan(ufunc, xla_order, x, axis, reverse)
        if reverse:
            x = np.flip(x, axis)
        if dtypes.is_ml_float(x.dtype) or x.dtype == np.float16:
            # accumulate in float32 and round once
            out = ufunc.accumulate(x.astype(np.float32), axis=axis).astype(x.dtype)
        else:
            out = ufunc.accumulate(x, axis=axis, dtype=x.dtype) if x.shape[axis] else x.copy()
        return np.flip(out, axis) if reverse else out

    def check(x, axis):
        # JAX's shape and dtype rules (their messages): no negative axes, numbers only
        if axis < 0:
            raise ShapeError("XLA operations do not allow negative axes")
        if axis >= x.ndim:
            raise ShapeError(f"axis {axis} is out of bounds for array of shape {x.shape}")
        if dtypes.kind(x.dtype) not in "iufc":
            raise DTypeError(
                f"{name} does not accept dtype {np.dtype(x.dtype).name}. Accepted dtypes are "
                "subtypes of number."
            )
        if name == "cumlogsumexp" and dtypes.kind(x.dtype) in "iu":
            raise IntegerLogSumExpError(
                "cannot convert float infinity to integer\n"
                f"cumlogsumexp of {np.dtype(x.dtype).name} values: its identity, -inf, is no "
                "integer (JAX's error). Cast first: lax.cumlogsumexp(x.astype(jnp.float32))."
            )

    def abstract_eval(x, *, axis, reverse):
        check(x, axis)
        return ShapedArray(x.shape, x.dtype, x.weak_type)

    def batch(args, dims, *, axis, reverse):
        (x,), (d,) = args, dims
        return prim.bind(x, axis=axis + 1 if axis >= d else axis, reverse=reverse), d

    prim.def_impl(impl)
    prim.def_abstract_eval(abstract_eval)
    prim.def_batch(batch)
    return prim


cumsum_p = _cumulative("cumsum", np.add)
deflinear(cumsum_p)
cumsum_p.def_transpose(
    lambda ct, x, *, axis, reverse: [cumsum_p.bind(ct, axis=axis, reverse=not reverse)]
)
cumprod_p = _cumulative("cumprod", np.multiply)
cummax_p = _cumulative("cummax", np.maximum)
cummin_p = _cumulative("cummin", np.minimum)


def _cumulative_jvp(op):
    def rule(primals, tangents, *, axis, reverse):
        # As JAX: the jvp of the parallel prefix scan of `combine`, so ties split the tangent
        # the way nested max/min do and zeros of a product are exact (no division).
        def scan(x):
            return [associative_scan(op, x, reverse=reverse, axis=axis)]

        (out,), (tangent,) = jvp_flat(scan, primals, [instantiate(tangents[0])])
        return out, tangent

    return rule


def _wrap_pi(x: Any) -> Any:
    """Real `x` wrapped into [-pi, pi) (JAX's `_wrap_between(x, pi)`)."""
    pi, two_pi = ew.full_like(x, np.pi), ew.full_like(x, 2 * np.pi)
    r = ew.rem(ew.add(x, pi), two_pi)
    r = ew.select(ew.lt(r, ew.full_like(x, 0)), ew.add(r, two_pi), r)
    return ew.sub(r, pi)


def _logaddexp(a: Any, b: Any) -> Any:
    """`log(exp(a) + exp(b))`, stably (the combiner of cumlogsumexp); for complex numbers
    JAX's formula, `m + log1p(exp(a + b - 2m))` with `m` the lexicographic maximum and the
    imaginary part wrapped into [-pi, pi)."""
    m = ew.max(a, b)
    if np.dtype(get_aval(m).dtype).kind == "c":
        out = ew.add(m, ew.log1p(ew.exp(ew.sub(ew.add(a, b), ew.mul(m, ew.full_like(m, 2))))))
        return ew.complex_p.bind(ew.real_p.bind(out), _wrap_pi(ew.imag_p.bind(out)))
    safe = ew.select(ew.is_finite(m), m, ew.full_like(m, 0))
    d = ew.add(ew.exp(ew.sub(a, safe)), ew.exp(ew.sub(b, safe)))
    return ew.add(ew.log(d), safe)


# JAX's cumlogsumexp primitive; `jit` compiles its composition, the parallel prefix scan of
# `_logaddexp` (as JAX's lowering to a windowed reduction, a log-depth tree of roundings)
class _LogAddExp:
    """`np.logaddexp`'s `accumulate`, for complex numbers too (JAX's formula, `_logaddexp`,
    step by step in order, as XLA's windowed reduction)."""

    @staticmethod
    def accumulate(x: np.ndarray, axis: int, dtype: Any = None) -> np.ndarray:
        if x.dtype.kind != "c":
            return np.logaddexp.accumulate(x, axis=axis, dtype=dtype)
        out = np.moveaxis(x.copy(), axis, 0)
        acc = np.full(out.shape[1:], -np.inf, x.dtype)  # the identity (its step wraps x[0])
        for i in range(out.shape[0]):
            acc = out[i] = np.asarray(_logaddexp(acc, out[i]))
        return np.moveaxis(out, 0, axis)


cumlogsumexp_p = _cumulative("cumlogsumexp", _LogAddExp)


def _cumlogsumexp_composition(x: Any, *, axis: int, reverse: bool) -> Any:
    out = associative_scan(_logaddexp, x, reverse=reverse, axis=axis)
    if np.dtype(get_aval(x).dtype).kind == "c":  # the identity's step wraps the first element
        out = _logaddexp(ew.full_like(out, -np.inf), out)
    return out


cumlogsumexp_p.def_composition(_cumlogsumexp_composition)


def _inf_to_zero(x: Any) -> Any:
    """`x` with 0 where its real part is +inf (JAX's `_replace_inf`)."""
    re = ew.real_p.bind(x) if np.dtype(get_aval(x).dtype).kind == "c" else x
    return ew.select(ew.eq(re, ew.full_like(re, np.inf)), ew.full_like(x, 0), x)


def _logaddexp_pair(p: Any, q: Any) -> Any:
    """The combiner of cumlogsumexp's derivative, on (value, tangent) pairs: `jnp.logaddexp`
    (JAX's formula `max + log1p(exp(-|a - b|))`, `a + b` where that difference is nan) with
    its custom derivative, each tangent times `exp(operand - out)` with +inf replaced by 0.
    So `[0, inf]` differentiates to `[1, 1]` and the rounding of `out` shows as in JAX."""
    (a, ta), (b, tb) = p, q
    if np.dtype(get_aval(a).dtype).kind == "c":
        out = _logaddexp(a, b)
    else:
        delta = ew.sub(a, b)
        tail = ew.log1p(ew.exp(ew.neg(ew.abs(delta))))
        out = ew.select(ew.ne(delta, delta), ew.add(a, b), ew.add(ew.max(a, b), tail))
    fin = _inf_to_zero(out)
    ta = ew.mul(ta, ew.exp(ew.sub(_inf_to_zero(a), fin)))
    return out, ew.add(ta, ew.mul(tb, ew.exp(ew.sub(_inf_to_zero(b), fin))))


def _cumlogsumexp_jvp(primals: Any, tangents: Any, *, axis: int, reverse: bool) -> Any:
    pair = (primals[0], instantiate(tangents[0]))
    return associative_scan(_logaddexp_pair, pair, reverse=reverse, axis=axis)


cumlogsumexp_p.def_jvp(_cumlogsumexp_jvp)
cumprod_p.def_jvp(_cumulative_jvp(ew.mul))
cummax_p.def_jvp(_cumulative_jvp(ew.max))
cummin_p.def_jvp(_cumulative_jvp(ew.min))


def _wrap(prim: Primitive):
    def fn(operand: Any, axis: int = 0, reverse: bool = False) -> Any:
        return prim.bind(operand, axis=int(axis), reverse=bool(reverse))  # as JAX: axis >= 0

    fn.__name__ = prim.name
    fn.__doc__ = f"`lax.{prim.name}`: the running {prim.name[3:]} along `axis`."
    return fn


cumsum = _wrap(cumsum_p)


cumprod = _wrap(cumprod_p)
cummax = _wrap(cummax_p)
cummin = _wrap(cummin_p)
cumlogsumexp = _wrap(cumlogsumexp_p)
