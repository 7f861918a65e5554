"""Statistics and signal processing: diff, gradient, trapezoid, cov, histograms, interp,
convolve, unwrap and the NaN-ignoring arg/cumulative/order statistics.

Everything is a composite of existing `core.numpy` functions (slices, `searchsorted`, scatter-add
through `.at[...]`, sort, `conv_general_dilated`), so it works under `jit`, `grad` and `vmap`
without new primitives. Arguments that fix output shapes (`n`, `axis`, integer `bins`, `mode`)
must be concrete, as in JAX.
"""

from __future__ import annotations

import builtins
import operator
from collections.abc import Sequence
from typing import Any

import numpy as np

from core import dtypes
from core.errors import AxisError
from core.jit.library import library_jit
from core.lax import conv_general_dilated
from core.numpy import creation as cr
from core.numpy import reductions as rd
from core.numpy import shapes as shp
from core.numpy import ufuncs as uf
from core.numpy._util import (
    broadcast_to,
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_dtypes,
    promote_dtypes_inexact,
    reduction_axes,
    to_inexact,
)
from core.numpy.creation import ravel_multi_index
from core.numpy.linalg_ops import diagonal, dot
from core.numpy.logic import bincount
from core.numpy.lookup import searchsorted, take_along_axis
from core.numpy.sorting import argsort, sort
from core.numpy.ufuncs import clip
from core.numpy.where import where
from core.prims import elementwise as ew
from core.prims.options import canonicalize_precision
from core.trace import get_aval


def _shape(x: Any) -> tuple[int, ...]:
    return get_aval(x).shape


def _dtype(x: Any) -> np.dtype:
    return get_aval(x).dtype


def _slice_axis(a: Any, start: int | None, stop: int | None, axis: int) -> Any:
    idx = [slice(None)] * len(_shape(a))
    idx[axis] = slice(start, stop)
    return a[tuple(idx)]


# ---------------------------------------------------------------------------------------------
# Differences and integration


@library_jit(static_argnames=("n", "axis"))
def diff(a: Any, n: int = 1, axis: int = -1, prepend: Any = None, append: Any = None) -> Any:
    """The `n`-th discrete difference `a[i+1] - a[i]` along `axis` (`!=` for booleans).

    Args:
        a: array with at least one dimension.
        n: order of the difference (static, >= 0).
        axis: the axis along which to difference.
        prepend: values (broadcast along `axis` when scalar) put before `a` first.
        append: values put after `a` first.

    Returns:
        An array whose `axis` is `n` shorter than the (extended) input's.
    """
    check_arraylike("diff", a)
    arr = ensure_array(a)
    n = operator.index(n)
    if n == 0:
        return arr
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    nd = len(_shape(arr))
    if nd == 0:
        raise ValueError("diff requires input that is at least one dimensional; got shape ()")
    axis = canonicalize_axis(operator.index(axis), nd)

    def edge(v: Any) -> Any:
        v = ensure_array(v)
        if len(_shape(v)) == 0:
            shape = list(_shape(arr))
            shape[axis] = 1
            v = broadcast_to(v, tuple(shape))
        return v

    parts = [arr]
    if prepend is not None:
        parts.insert(0, edge(prepend))
    if append is not None:
        parts.append(edge(append))
    if len(parts) > 1:
        arr = shp.concatenate(parts, axis)
    op = uf.not_equal if _dtype(arr) == dtypes.bool_ else uf.subtract
    for _ in range(n):
        arr = op(_slice_axis(arr, 1, None, axis), _slice_axis(arr, None, -1, axis))
    return arr


@library_jit
def ediff1d(ary: Any, to_end: Any = None, to_begin: Any = None) -> Any:
    """Differences of consecutive elements of the flattened array.

    Args:
        ary: input array or scalar.
        to_end: values appended to the result (cast to the input dtype).
        to_begin: values prepended to the result (cast to the input dtype).

    Returns:
        A 1-D array of `ary.size - 1` differences, plus the extra values.
    """
    check_arraylike("ediff1d", ary)
    arr = shp.ravel(ensure_array(ary))
    res = uf.subtract(arr[1:], arr[:-1])
    dt = _dtype(arr)
    if to_begin is not None:
        res = shp.concatenate([shp.ravel(ensure_array(to_begin).astype(dt)), res])
    if to_end is not None:
        res = shp.concatenate([res, shp.ravel(ensure_array(to_end).astype(dt))])
    return res


def gradient(
    f: Any, *varargs: Any, axis: int | Sequence[int] | None = None, edge_order: int | None = None
) -> Any:
    """Numerical gradient: central differences inside, one-sided differences at the edges.

    Args:
        f: array of samples.
        *varargs: spacing: nothing (1), one scalar or 1-D coordinate array for every axis, or
            one per axis.
        axis: axis or axes to differentiate along (all by default).
        edge_order: only the default (first-order edges) is supported, as in JAX.

    Returns:
        One array per axis (a list), or the single array when one axis is asked.
    """
    check_arraylike("gradient", f)
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    a, *spacing = promote_dtypes_inexact(f, *varargs)
    nd = len(_shape(a))
    axes = tuple(range(nd)) if axis is None else reduction_axes(axis, nd)
    if not axes:
        return []
    if builtins.min(_shape(a)[i] for i in axes) < 2:
        raise ValueError(
            "Shape of array too small to calculate a numerical gradient, at least 2 elements "
            f"are required.\nGot shape {_shape(a)}."
        )
    if len(spacing) == 0:
        dx: list[Any] = [1.0] * len(axes)
    elif len(spacing) == 1:
        dx = spacing * len(axes)
    elif len(spacing) == len(axes):
        dx = list(spacing)
    else:
        raise TypeError(f"Invalid number of spacing arguments {len(spacing)} for axis={axis}")

    def along(ax: int, h: Any) -> Any:
        def sl(x: Any, start: int | None, stop: int | None) -> Any:
            return _slice_axis(x, start, stop, ax)

        upper = uf.subtract(sl(a, 1, 2), sl(a, 0, 1))
        lower = uf.subtract(sl(a, -1, None), sl(a, -2, -1))
        hnd = len(_shape(h)) if not isinstance(h, float) else 0
        if hnd == 0:
            inner = uf.divide(uf.multiply(uf.subtract(sl(a, 2, None), sl(a, None, -2)), 0.5), h)
            upper, lower = uf.divide(upper, h), uf.divide(lower, h)
        elif hnd == 1:
            if _shape(h)[0] != _shape(a)[ax]:
                raise ValueError(
                    "Spacing arrays must have the same length as the dimension along which the "
                    f"gradient is calculated.\nGot {_shape(h)[0]} spacings for an axis of "
                    f"length {_shape(a)[ax]}."
                )
            hshape = [1] * nd
            hshape[ax] = _shape(h)[0]
            h = shp.reshape(h, tuple(hshape))
            upper = uf.divide(upper, uf.subtract(sl(h, 1, 2), sl(h, 0, 1)))
            lower = uf.divide(lower, uf.subtract(sl(h, -1, None), sl(h, -2, -1)))
            dx1 = uf.subtract(sl(h, 1, -1), sl(h, 0, -2))
            dx2 = uf.subtract(sl(h, 2, None), sl(h, 1, -1))
            ca = uf.divide(uf.negative(dx2), uf.multiply(dx1, uf.add(dx1, dx2)))
            cb = uf.divide(uf.subtract(dx2, dx1), uf.multiply(dx1, dx2))
            cc = uf.divide(dx1, uf.multiply(dx2, uf.add(dx1, dx2)))
            inner = uf.add(
                uf.add(uf.multiply(ca, sl(a, 0, -2)), uf.multiply(cb, sl(a, 1, -1))),
                uf.multiply(cc, sl(a, 2, None)),
            )
        else:
            raise ValueError("Spacing arrays must be 1D arrays or scalars.")
        return shp.concatenate([upper, inner, lower], ax)

    grads = [along(ax, h) for ax, h in zip(axes, dx)]
    return grads[0] if len(axes) == 1 else grads


def trapezoid(y: Any, x: Any = None, dx: Any = 1.0, axis: int = -1) -> Any:
    """Integral of `y` along `axis` by the composite trapezoidal rule.

    Args:
        y: sampled values.
        x: sample points (1-D along `axis`, or the shape of `y`); `dx` spacing when None.
        dx: constant spacing used when `x` is None.
        axis: the axis to integrate along.

    Returns:
        `y` integrated along `axis` (that axis removed), in an inexact dtype.
    """
    check_arraylike("trapezoid", y, *(() if x is None else (x,)))
    if x is None:
        (y_arr,) = promote_dtypes_inexact(y)
        dx_arr = ensure_array(dx)
        if len(_shape(dx_arr)) > 0:
            dx_arr = shp.reshape(
                dx_arr, (1,) * (len(_shape(y_arr)) - len(_shape(dx_arr))) + _shape(dx_arr)
            )
            dx_arr = shp.moveaxis(dx_arr, axis, -1)
    else:
        y_arr, x_arr = promote_dtypes_inexact(y, x)
        if len(_shape(x_arr)) == 1:
            dx_arr = diff(x_arr)
        else:
            dx_arr = shp.moveaxis(diff(x_arr, axis=axis), axis, -1)
    y_arr = shp.moveaxis(y_arr, axis, -1)
    if len(_shape(dx_arr)) == 0 or _shape(dx_arr)[-1] == 1:
        d = dx_arr if len(_shape(dx_arr)) == 0 else dx_arr[..., 0]
        ends = uf.multiply(0.5, uf.add(y_arr[..., 0], y_arr[..., -1]))
        return uf.multiply(d, uf.subtract(rd.sum(y_arr, -1), ends))
    mids = uf.add(y_arr[..., 1:], y_arr[..., :-1])
    return uf.multiply(0.5, rd.sum(uf.multiply(dx_arr, mids), -1))


# ---------------------------------------------------------------------------------------------
# Covariance


def cov(
    m: Any,
    y: Any = None,
    rowvar: bool = True,
    bias: bool = False,
    ddof: int | None = None,
    fweights: Any = None,
    aweights: Any = None,
    dtype: Any = None,
) -> Any:
    """Covariance matrix of the variables (rows of `m` when `rowvar`, else columns).

    Args:
        m: 1-D or 2-D array of observations.
        y: extra variables, stacked under those of `m`.
        rowvar: whether rows (True) or columns are the variables.
        bias: normalize by N instead of N - 1 (when `ddof` is None).
        ddof: delta degrees of freedom, overriding `bias`.
        fweights: integer frequency weights, one per observation.
        aweights: observation weights, one per observation.
        dtype: computation dtype (default: inexact promotion of the inputs).

    Returns:
        The (variables, variables) covariance matrix, or a scalar for one variable.
    """
    check_arraylike("cov", m)
    m = ensure_array(m)
    if len(_shape(m)) > 2:
        raise ValueError(f"m has more than 2 dimensions: shape {_shape(m)}")
    if dtype is not None and dtypes.kind(np.dtype(dtype)) not in "fc":
        raise ValueError(f"cov: dtype must be a subclass of float or complex; got {dtype=}")
    (X,) = promote_dtypes_inexact(shp.atleast_2d(m))
    if not rowvar and len(_shape(m)) != 1:  # JAX's test (numpy's keeps a (1, N) m as is)
        X = X.T
    if _shape(X)[0] == 0:
        return cr.array([]).reshape(0, 0)
    if y is not None:
        y = ensure_array(y)
        if len(_shape(y)) > 2:
            raise ValueError(f"y has more than 2 dimensions: shape {_shape(y)}")
        (y_arr,) = promote_dtypes_inexact(shp.atleast_2d(y))
        if not rowvar and _shape(y_arr)[0] != 1:
            y_arr = y_arr.T
        X, y_arr = promote_dtypes(X, y_arr)
        X = shp.concatenate([X, y_arr], 0)
    if _shape(X)[1] == 0:
        out_shape = () if _shape(X)[0] == 1 else (_shape(X)[0],) * 2
        return cr.full(out_shape, np.nan, dtype=_dtype(X))
    if ddof is None:
        ddof = 1 if not bias else 0
    w = None
    if fweights is not None:
        fweights = ensure_array(fweights)
        if len(_shape(fweights)) > 1:
            raise RuntimeError("cannot handle multidimensional fweights")
        if _shape(fweights)[0] != _shape(X)[1]:
            raise RuntimeError("incompatible numbers of samples and fweights")
        if _dtype(fweights).kind not in "iu":
            raise TypeError("fweights must be integer.")
        w = uf.abs(fweights)
    if aweights is not None:
        aweights = ensure_array(aweights)
        if len(_shape(aweights)) > 1:
            raise RuntimeError("cannot handle multidimensional aweights")
        if _shape(aweights)[0] != _shape(X)[1]:
            raise RuntimeError("incompatible numbers of samples and aweights")
        aweights = uf.abs(aweights)
        w = aweights if w is None else uf.multiply(w, aweights)
    if dtype is not None:
        X = X.astype(dtype)
        w = w.astype(dtype) if w is not None else w
    avg, w_sum = rd.average(X, axis=1, weights=w, returned=True)
    w_sum = w_sum[0]
    if w is None:
        f: Any = _shape(X)[1] - ddof
    elif ddof == 0:
        f = w_sum
    elif aweights is None:
        f = uf.subtract(w_sum, ddof)
    else:
        f = uf.subtract(
            w_sum, uf.divide(uf.multiply(ddof, rd.sum(uf.multiply(w, aweights))), w_sum)
        )
    X = uf.subtract(X, avg[:, None])
    X_T = X.T if w is None else uf.multiply(X, w[None, :]).T
    return shp.squeeze(uf.true_divide(dot(X, uf.conj(X_T)), f))


def corrcoef(x: Any, y: Any = None, rowvar: bool = True, dtype: Any = None) -> Any:
    """Pearson correlation coefficients, `cov / sqrt(outer(diag(cov), diag(cov)))`, clipped
    to [-1, 1].

    Args:
        x: 1-D or 2-D array of observations.
        y: extra variables.
        rowvar: whether rows (True) or columns are the variables.
        dtype: computation dtype (must be inexact).

    Returns:
        The correlation matrix (a scalar for one variable: 1, or NaN for constant data).
    """
    check_arraylike("corrcoef", x)
    if dtype is not None and dtypes.kind(np.dtype(dtype)) not in "fc":
        raise ValueError(f"corrcoef: dtype must be a subclass of float or complex; got {dtype=}")
    c = cov(x, y, rowvar, dtype=dtype)
    if len(_shape(c)) == 0:
        return uf.divide(c, c)

    std = uf.sqrt(uf.real(diagonal(c))).astype(_dtype(c))
    c = uf.divide(uf.divide(c, std[:, None]), std[None, :])
    real_part = clip(uf.real(c), -1, 1)
    if dtypes.kind(_dtype(c)) != "c":
        return real_part
    # complex: the parts clipped separately (clip refuses complex values), as JAX's
    return ew.complex_p.bind(real_part, clip(uf.imag(c), -1, 1))


# ---------------------------------------------------------------------------------------------
# Histograms, digitize, interp


def histogram_bin_edges(
    a: Any, bins: Any = 10, range: Sequence[Any] | None = None, weights: Any = None
) -> Any:
    """The bin edges `histogram` uses.

    Args:
        a: values to be binned.
        bins: number of equal-width bins (static int), or the 1-D array of edges.
        range: (low, high) of the bins; the data's min and max by default (a zero-width range
            is widened by 0.5 on each side).
        weights: unused (string `bins` are not supported).

    Returns:
        The `bins + 1` edges, in the inexact dtype of `a`.
    """
    if isinstance(bins, str):  # JAX's TypeError: its asarray of the bins refuses a string
        raise TypeError(
            f"asarray: expected ArrayLike, got {bins} of type {type(bins)}.\n"
            "histogram: pass bins as an int or an array of edges (no estimator names)"
        )
    check_arraylike("histogram_bin_edges", a, bins)
    arr = ensure_array(a)
    dt = _dtype(arr) if dtypes.kind(_dtype(arr)) in "fc" else to_inexact(_dtype(arr))
    if np.ndim(bins) == 1:
        return cr.asarray(bins, dtype=dt)
    nbins = operator.index(bins if not hasattr(bins, "aval") else int(bins))
    rng = cr.asarray([rd.min(arr), rd.max(arr)] if range is None else range, dtype=dt)
    if _shape(rng) != (2,):
        raise ValueError(f"`range` must be either None or a sequence of scalars, got {range}")
    same = uf.equal(rng[0], rng[1])
    lo = where(same, uf.subtract(rng[0], 0.5), rng[0])
    hi = where(same, uf.add(rng[1], 0.5), rng[1])
    return cr.linspace(lo, hi, nbins + 1, dtype=dt)


def histogram(
    a: Any,
    bins: Any = 10,
    range: Sequence[Any] | None = None,
    weights: Any = None,
    density: bool | None = None,
) -> tuple[Any, Any]:
    """Histogram of `a` (flattened): counts per bin and the bin edges.

    Bins are half-open `[edge_i, edge_i+1)` except the last, which includes its right edge;
    values outside the edges are dropped.

    Args:
        a: values to be binned.
        bins: number of bins (static int) or the 1-D array of edges.
        range: (low, high) of the bins when `bins` is an int.
        weights: per-value weights (same shape as `a`); counts become sums of weights.
        density: normalize so that the integral over the range is 1.

    Returns:
        `(counts, edges)`; counts are in the inexact dtype of `a`, as in JAX.
    """
    check_arraylike("histogram", a, bins, *(() if weights is None else (weights,)))
    if weights is None:
        (a,) = promote_dtypes_inexact(a)
        weights = cr.ones_like(a)
    else:
        a, weights = ensure_array(a), ensure_array(weights)
        if _shape(a) != _shape(weights):
            raise ValueError(
                f"weights should have the same shape as a; got {_shape(weights)} and {_shape(a)}"
            )
        a, weights = promote_dtypes_inexact(a, weights)
    edges = histogram_bin_edges(a, bins, range, weights)
    nedges = _shape(edges)[0]
    idx = searchsorted(edges, a, side="right")
    idx = where(uf.equal(a, edges[-1]), nedges - 1, idx)
    counts = cr.zeros(nedges, _dtype(weights)).at[idx].add(weights)[1:]
    if density:
        counts = uf.divide(uf.divide(counts, diff(edges)), rd.sum(counts))
    return counts, edges


def histogramdd(
    sample: Any,
    bins: Any = 10,
    range: Sequence[Any] | None = None,
    weights: Any = None,
    density: bool | None = None,
) -> tuple[Any, list[Any]]:
    """D-dimensional histogram of `N` points given as an `(N, D)` array.

    Args:
        sample: the points, shape (N, D).
        bins: one int/edge array for all dimensions, or a sequence of D of them.
        range: a sequence of D `(low, high)` pairs or Nones.
        weights: one weight per point.
        density: normalize so that the integral over the range is 1.

    Returns:
        `(hist, edges)`: the counts of shape `(nbins_0, ..., nbins_{D-1})` (int32 without
        weights or density, as in JAX) and the list of D edge arrays.
    """
    check_arraylike("histogramdd", sample, *(() if weights is None else (weights,)))
    if weights is None:
        (sample,) = promote_dtypes_inexact(sample)
    else:
        sample, weights = ensure_array(sample), ensure_array(weights)
        if _shape(weights) != _shape(sample)[:1]:
            raise ValueError(
                f"should have one weight for each sample; got {_shape(weights)} weights for "
                f"sample shape {_shape(sample)}."
            )
        sample, weights = promote_dtypes_inexact(sample, weights)
    if len(_shape(sample)) != 2:
        raise ValueError(f"sample must be a 2-D (N, D) array; got shape {_shape(sample)}")
    N, D = _shape(sample)
    if range is not None and (
        len(range) != D or builtins.any(r is not None and np.shape(r)[0] != 2 for r in range)
    ):
        raise ValueError(
            f"For sample.shape={(N, D)}, range must be a sequence of {D} pairs or Nones; "
            f"got range={range}"
        )
    if isinstance(bins, (list, tuple)) or np.ndim(bins) == 1:
        per_dim = list(bins)
        if len(per_dim) != D:
            raise ValueError(f"should be a bin for each dimension; got {len(per_dim)} for D={D}.")
    else:
        per_dim = [bins] * D
    idx_by_dim, edges_by_dim = [], []
    for i in builtins.range(D):
        col = sample[:, i]
        edges = histogram_bin_edges(col, per_dim[i], None if range is None else range[i])
        idx = searchsorted(edges, col, side="right")
        idx = where(uf.equal(col, edges[-1]), uf.subtract(idx, 1), idx)
        idx_by_dim.append(idx)
        edges_by_dim.append(edges)
    nbins = tuple(_shape(e)[0] + 1 for e in edges_by_dim)
    flat = ravel_multi_index(tuple(idx_by_dim), nbins, mode="clip")
    hist = bincount(flat, weights, length=int(np.prod(nbins)))
    hist = shp.reshape(hist, nbins)[(slice(1, -1),) * D]
    if density:
        hist = hist.astype(_dtype(sample))
        hist = uf.divide(hist, rd.sum(hist))
        for i, e in enumerate(edges_by_dim):
            shape = [1] * D
            shape[i] = _shape(e)[0] - 1
            hist = uf.divide(hist, shp.reshape(diff(e), tuple(shape)))
    return hist, edges_by_dim


def histogram2d(
    x: Any,
    y: Any,
    bins: Any = 10,
    range: Sequence[Any] | None = None,
    weights: Any = None,
    density: bool | None = None,
) -> tuple[Any, Any, Any]:
    """2-D histogram of the points `(x[i], y[i])`.

    Args:
        x: x coordinates (1-D).
        y: y coordinates (1-D, same length).
        bins: int, edge array, or a pair of ints/edge arrays.
        range: a pair of `(low, high)` pairs or Nones.
        weights: one weight per point.
        density: normalize so that the integral over the range is 1.

    Returns:
        `(hist, x_edges, y_edges)`.
    """
    check_arraylike("histogram2d", x, y)
    try:
        nb = len(bins)
    except TypeError:
        nb = 1
    if nb not in (1, 2):
        bins = [cr.asarray(bins), cr.asarray(bins)]
    x, y = ensure_array(x), ensure_array(y)
    if _shape(x) != _shape(y):  # JAX's class (its error comes from a concatenation)
        raise TypeError(
            f"histogram2d: x and y must have the same shape, got {_shape(x)} and {_shape(y)}; "
            "pass one y coordinate for each x coordinate"
        )
    sample = shp.stack([x, y], axis=1)
    hist, edges = histogramdd(sample, bins, range, weights, density)
    return hist, edges[0], edges[1]


def digitize(x: Any, bins: Any, right: bool = False, *, method: str | None = None) -> Any:
    """Index of the bin each value of `x` falls in (`bins` increasing or decreasing).

    Args:
        x: values.
        bins: 1-D monotonic array of bin edges.
        right: whether bins include their right edge instead of their left one.
        method: accepted for JAX compatibility; one search method is implemented.

    Returns:
        int32 indices with the shape of `x`.
    """
    check_arraylike("digitize", x, bins)
    methods = ["compare_all", "scan", "scan_unrolled", "sort"]
    if method is not None and method not in methods:
        raise ValueError(f"invalid argument {method=}, expected one of {methods}")
    x, b = ensure_array(x), ensure_array(bins)
    if len(_shape(b)) != 1:
        raise ValueError(f"digitize: bins must be a 1-dimensional array; got shape {_shape(b)}")
    if _shape(b)[0] == 0:
        return cr.zeros(_shape(x), dtypes.default_int())
    side = "left" if right else "right"
    return where(
        uf.greater_equal(b[-1], b[0]),
        searchsorted(b, x, side=side),
        uf.subtract(_shape(b)[0], searchsorted(b[::-1], x, side=side)),
    )


def interp(
    x: Any, xp: Any, fp: Any, left: Any = None, right: Any = None, period: Any = None
) -> Any:
    """Piecewise-linear interpolation of the points `(xp, fp)` at `x`.

    Args:
        x: where to evaluate.
        xp: increasing 1-D sample points.
        fp: values at `xp` (same shape).
        left: value for `x < xp[0]` (default `fp[0]`), or "extrapolate".
        right: value for `x > xp[-1]` (default `fp[-1]`), or "extrapolate".
        period: period of the x coordinate (then `left`/`right` are ignored).

    Returns:
        The interpolated values, shaped like `x`, in an inexact dtype.
    """
    check_arraylike("interp", x, xp, fp)
    x, xp, fp = ensure_array(x), ensure_array(xp), ensure_array(fp)
    if _shape(xp) != _shape(fp) or len(_shape(xp)) != 1:
        raise ValueError(
            "xp and fp must be one-dimensional arrays of equal size\nGot shapes "
            f"{_shape(xp)} and {_shape(fp)}."
        )
    if dtypes.kind(get_aval(x).dtype) == "c":
        raise ValueError("jnp.interp: complex x values not supported.")
    x_arr, xp_arr = promote_dtypes_inexact(x, xp)
    (fp_arr,) = promote_dtypes_inexact(fp)
    extrap = {}
    for name, v in (("left", left), ("right", right)):
        if isinstance(v, str) and v != "extrapolate":
            raise ValueError(
                f"the only valid string value of `{name}` is 'extrapolate', but got: {v!r}"
            )
        extrap[name] = isinstance(v, str)
    if period is not None:
        if np.ndim(period) != 0:
            raise ValueError(f"period must be a scalar; got {period}")

        period = uf.abs(period)
        x_arr = uf.remainder(x_arr, period)
        xp_arr = uf.remainder(xp_arr, period)
        order = argsort(xp_arr)
        xp_arr, fp_arr = xp_arr[order], fp_arr[order]
        xp_arr = shp.concatenate(
            [uf.subtract(xp_arr[-1:], period), xp_arr, uf.add(xp_arr[:1], period)]
        )
        fp_arr = shp.concatenate([fp_arr[-1:], fp_arr, fp_arr[:1]])
    n = _shape(xp_arr)[0]
    i = clip(searchsorted(xp_arr, x_arr, side="right"), 1, n - 1)
    im1 = uf.subtract(i, 1)
    df = uf.subtract(fp_arr[i], fp_arr[im1])
    dx = uf.subtract(xp_arr[i], xp_arr[im1])
    delta = uf.subtract(x_arr, xp_arr[im1])
    eps = np.spacing(dtypes.finfo(_dtype(xp_arr)).eps)
    dx0 = uf.less_equal(uf.abs(dx), eps)
    f = where(
        dx0, fp_arr[im1], uf.add(fp_arr[im1], uf.multiply(uf.divide(delta, where(dx0, 1, dx)), df))
    )
    if period is None:
        if not extrap["left"]:
            f = where(uf.less(x_arr, xp_arr[0]), fp_arr[0] if left is None else left, f)
        if not extrap["right"]:
            f = where(uf.greater(x_arr, xp_arr[-1]), fp_arr[-1] if right is None else right, f)
    return f


# ---------------------------------------------------------------------------------------------
# Convolution and phase unwrapping


def _conv(a: Any, v: Any, mode: str, op: str, preferred_element_type: Any) -> Any:
    a, v = ensure_array(a), ensure_array(v)
    if len(_shape(a)) != 1 or len(_shape(v)) != 1:
        raise ValueError(
            f"{op}() only support 1-dimensional inputs.\nGot shapes {_shape(a)} and {_shape(v)}."
        )
    if preferred_element_type is None:
        a, v = promote_dtypes_inexact(a, v)
    else:
        a, v = promote_dtypes(a, v)
    if _shape(a)[0] == 0 or _shape(v)[0] == 0:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {_shape(a)} and {_shape(v)}.")
    reverse = False
    if op == "correlate":
        if get_aval(v).dtype.kind == "c":  # numpy's c[k] = sum_j a[k + j] conj(v[j])
            v = uf.conjugate(v)
        if _shape(a)[0] < _shape(v)[0]:
            a, v = v, a
            reverse = True
    else:
        if _shape(a)[0] < _shape(v)[0]:
            a, v = v, a
        v = v[::-1]
    m = _shape(v)[0]
    pads = {"valid": (0, 0), "same": (m // 2, m - m // 2 - 1), "full": (m - 1, m - 1)}
    if mode not in pads:
        raise ValueError(f"mode must be one of ['full', 'same', 'valid']; got {mode!r}")
    out = conv_general_dilated(a[None, None, :], v[None, None, :], (1,), [pads[mode]])[0, 0]
    if preferred_element_type is not None:
        out = out.astype(preferred_element_type)
    return out[::-1] if reverse else out


def convolve(
    a: Any, v: Any, mode: str = "full", *, precision: Any = None, preferred_element_type: Any = None
) -> Any:
    """Discrete linear convolution of two 1-D arrays, `c[k] = sum_j a[k - j] v[j]`.

    Args:
        a: first 1-D array.
        v: second 1-D array.
        mode: "full" (default), "same" (size of the longer input) or "valid".
        precision: checked as JAX checks it; no effect on the CPU.
        preferred_element_type: output dtype; by default inputs are promoted to inexact.

    Returns:
        The 1-D convolution.
    """
    check_arraylike("convolve", a, v)
    canonicalize_precision(precision)
    return _conv(a, v, mode, "convolve", preferred_element_type)


def correlate(
    a: Any,
    v: Any,
    mode: str = "valid",
    *,
    precision: Any = None,
    preferred_element_type: Any = None,
) -> Any:
    """Cross-correlation of two 1-D arrays, `c[k] = sum_j a[k + j] conj(v[j])`.

    Args:
        a: first 1-D array.
        v: second 1-D array.
        mode: "valid" (default), "same" or "full".
        precision: checked as JAX checks it; no effect on the CPU.
        preferred_element_type: output dtype; by default inputs are promoted to inexact.

    Returns:
        The 1-D correlation.
    """
    check_arraylike("correlate", a, v)
    canonicalize_precision(precision)
    return _conv(a, v, mode, "correlate", preferred_element_type)


def unwrap(p: Any, discont: Any = None, axis: int = -1, period: Any = 2 * np.pi) -> Any:
    """Unwraps a phase signal: jumps larger than `discont` are replaced by their value modulo
    `period`.

    Args:
        p: input array (real).
        discont: largest allowed jump (default `period / 2`).
        axis: the axis along which to unwrap.
        period: the period of the signal (default 2 pi).

    Returns:
        The unwrapped array.
    """
    check_arraylike("unwrap", p)
    p, period = promote_dtypes(p, period)
    if _dtype(p).kind == "c":
        raise ValueError("jnp.unwrap does not support complex inputs.")
    if not -len(_shape(p)) <= operator.index(axis) < len(_shape(p)):
        raise AxisError(  # JAX's first line: its p.shape[axis] fails
            f"tuple index out of range\njnp.unwrap: axis {axis} is out of bounds for an array "
            f"of dimension {len(_shape(p))}"
        )
    ax = canonicalize_axis(axis, len(_shape(p)))
    if _shape(p)[ax] == 0:
        return p
    if discont is None:
        discont = uf.divide(period, 2)
    if _dtype(p).kind in "iu":
        interval = uf.floor_divide(period, 2)
    else:
        interval = uf.divide(period, 2)
    dd = diff(p, axis=ax)
    ddmod = uf.subtract(uf.remainder(uf.add(dd, interval), period), interval)
    ddmod = where(
        uf.logical_and(uf.equal(ddmod, uf.negative(interval)), uf.greater(dd, 0)), interval, ddmod
    )
    correct = where(uf.less(uf.abs(dd), discont), 0, uf.subtract(ddmod, dd))
    rest = uf.add(_slice_axis(p, 1, None, ax), rd.cumsum(correct, axis=ax))
    return shp.concatenate([_slice_axis(p, 0, 1, ax), rest.astype(_dtype(p))], ax)


# ---------------------------------------------------------------------------------------------
# NaN-ignoring arg/cumulative reductions and order statistics


def _nanarg(fn, fill: float, name: str):
    def op(a: Any, axis: int | None = None, out: Any = None, keepdims: bool | None = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        check_arraylike(name, a)
        a = ensure_array(a)
        if dtypes.kind(_dtype(a)) not in "fc":
            return fn(a, axis=axis, keepdims=keepdims)
        nan = uf.isnan(a)
        res = fn(where(nan, fill, a), axis=axis, keepdims=keepdims)
        return where(rd.all(nan, axis=axis, keepdims=bool(keepdims)), -1, res)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"""Indices of the {name[6:]}imum values along `axis`, ignoring NaNs.

    Args:
        a: input array.
        axis: the axis to reduce (the flattened array when None).
        out: unsupported (must be None).
        keepdims: keep the reduced axis with size 1.

    Returns:
        int32 indices; -1 where every value is NaN (numpy raises there).
    """
    return op


nanargmax = _nanarg(rd.argmax, -np.inf, "nanargmax")
nanargmin = _nanarg(rd.argmin, np.inf, "nanargmin")


def _nancum(fn, fill: int, name: str):
    def op(a: Any, axis: int | None = None, dtype: Any = None, out: Any = None) -> Any:
        if out is not None:
            raise NotImplementedError(f"The 'out' argument to jnp.{name} is not supported.")
        check_arraylike(name, a)
        a = ensure_array(a)
        if dtypes.kind(_dtype(a)) in "fc":
            a = where(uf.isnan(a), fill, a)
        return fn(a, axis, dtype)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"""`{fn.__name__}` with NaNs treated as {fill}.

    Args:
        a: input array.
        axis: the axis to accumulate along (the flattened array when None).
        dtype: the accumulation dtype.
        out: unsupported (must be None).

    Returns:
        The running {name[6:]}s.
    """
    return op


nancumsum = _nancum(rd.cumsum, 0, "nancumsum")
nancumprod = _nancum(rd.cumprod, 1, "nancumprod")


def nanquantile(
    a: Any,
    q: Any,
    axis: int | tuple[int, ...] | None = None,
    out: Any = None,
    overwrite_input: bool = False,
    method: str = "linear",
    keepdims: bool = False,
    *,
    weights: Any = None,
) -> Any:
    """The `q`-th quantiles along `axis`, ignoring NaNs (NaN where every value is NaN).

    Args:
        a: input array.
        q: scalar or 1-D array of quantiles in [0, 1].
        axis: axis or axes to reduce (all by default).
        out: unsupported (must be None; ValueError otherwise, as JAX).
        overwrite_input: unsupported (must be False).
        method: "linear", "lower", "higher", "midpoint", "nearest" or "inverted_cdf".
        keepdims: keep the reduced axes with size 1.
        weights: for "inverted_cdf" only, the values' weights: an array of `a`'s shape or of
            the reduced axes' shape.

    Returns:
        The quantiles; the dimensions of `q` come first, as in numpy.
    """
    check_arraylike("nanquantile", a, q, *(() if weights is None else (weights,)))
    rd.check_no_out("nanquantile", out, overwrite_input)
    rd.check_quantile_method(method, weights, q)
    if method == "inverted_cdf":
        return rd.inverted_cdf(a, q, axis, keepdims, weights, skip_nans=True)
    (a,) = promote_dtypes_inexact(a)
    rd.reject_complex_quantile(a)
    q = ensure_array(q)
    if len(_shape(q)) > 1:
        raise ValueError(f"q must be a scalar or 1d; got shape {_shape(q)}")
    shape0 = _shape(a)
    nd = len(shape0)
    axes = reduction_axes(axis, nd, iterable=False)
    keep = [i for i in range(nd) if i not in axes]
    moved = shp.transpose(a, (*keep, *axes))
    batch = tuple(shape0[i] for i in keep)
    n = int(np.prod([shape0[i] for i in axes], dtype=np.int64))
    flat = shp.reshape(moved, (*batch, n))

    s = sort(flat, axis=-1)  # NaNs sort last
    dt = _dtype(s)
    # As JAX: positions and weights in q's dtype (a Python float's: float32), a 16-bit one
    # in float32 as XLA computes 16-bit chains (rounding once, at the end).
    cdt = _dtype(q) if dtypes.kind(_dtype(q)) == "f" else dtypes.default_float()
    cdt = np.dtype(np.float32) if cdt.itemsize == 2 else cdt
    qa = q.astype(cdt)
    qshape = _shape(qa)
    # the non-NaN counts, shape (1, ..., *batch): of q's rank too (no rank promotion)
    count = rd.sum(uf.logical_not(uf.isnan(flat)), axis=-1).astype(cdt)
    count = shp.reshape(count, (1,) * len(qshape) + batch)
    # positions, shape (*qshape, *batch)
    qb = shp.reshape(qa, qshape + (1,) * len(batch))
    last = uf.subtract(count, 1)
    # q outside [0, 1] reads the smallest or largest non-NaN value, as JAX clamps it
    pos = clip(uf.multiply(qb, last), 0, uf.maximum(last, 0))
    lo = uf.floor(pos)
    hi = uf.ceil(pos)
    full = (*qshape, *batch, n)
    sb = broadcast_to(s, full)
    idt = dtypes.default_int()

    def pick(ix: Any) -> Any:
        ix = broadcast_to(ix.astype(idt)[..., None], (*qshape, *batch, 1))
        return take_along_axis(sb, ix, axis=-1)[..., 0]

    if method == "linear":  # JAX's weighted sum of the neighbours, in q's dtype
        vlo, vhi = pick(lo).astype(cdt), pick(hi).astype(cdt)
        frac = uf.subtract(pos, lo)
        res = uf.add(uf.multiply(vlo, uf.subtract(1, frac)), uf.multiply(vhi, frac)).astype(dt)
    elif method == "lower":
        res = pick(lo)
    elif method == "higher":
        res = pick(hi)
    elif method == "midpoint":
        res = uf.multiply(uf.add(pick(lo), pick(hi)), 0.5)
    else:  # JAX's "nearest": a fraction of exactly 1/2 takes the lower neighbour
        res = pick(where(uf.less_equal(uf.subtract(pos, lo), 0.5), lo, hi))
    res = where(uf.equal(count, 0), np.nan, res)
    if keepdims:
        kept = tuple(1 if i in axes else d for i, d in enumerate(shape0))
        res = shp.reshape(res, (*qshape, *kept))
    return res


@rd._takes_args_of(nanquantile)
def nanpercentile(a: Any, q: Any, *args: Any, **kwargs: Any) -> Any:
    """`nanquantile` with `q` in percent.

    Args:
        a: input array.
        q: scalar or 1-D array of percentiles in [0, 100].
        *args: `nanquantile`'s `axis`, `out`, `overwrite_input`, `method`, `keepdims`.
        **kwargs: the same, by keyword.

    Returns:
        The percentiles; the dimensions of `q` come first.
    """
    check_arraylike("nanpercentile", a, q)
    return nanquantile(a, uf.divide(q, 100), *args, **kwargs)


def nanmedian(
    a: Any,
    axis: int | tuple[int, ...] | None = None,
    out: Any = None,
    overwrite_input: bool = False,
    keepdims: bool = False,
) -> Any:
    """The median along `axis`, ignoring NaNs.

    Args:
        a: input array.
        axis: axis or axes to reduce (all by default).
        out: unsupported (must be None).
        overwrite_input: unsupported (must be False).
        keepdims: keep the reduced axes with size 1.

    Returns:
        The medians (NaN where every value is NaN).
    """
    check_arraylike("nanmedian", a)
    return nanquantile(a, 0.5, axis, out, overwrite_input, "linear", keepdims)
