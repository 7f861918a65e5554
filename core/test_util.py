"""Numerical gradient checking, like `jax.test_util.check_grads`.

Derivatives are compared with central finite differences along ONE random direction, so the cost
does not grow with the input size: `check_jvp` compares `jvp(f)(x, t)` with
`(f(x + eps t) - f(x - eps t)) / 2 eps`, and `check_vjp` checks the inner-product identity
`<t, vjp(c)> == <jvp(t), c>` for random `t` and `c`. Higher orders recurse on the derivative
functions themselves. Use float64 inputs (`core.config.enable_x64()`) for tight tolerances.
Tolerances are a number for every dtype or, as in JAX, a dict from dtype to number that
overrides the per-dtype defaults for the dtypes it names.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from core import api, dtypes, tree_util

EPS = 1e-4

_DEFAULT_TOL = {
    np.dtype(dtypes.bfloat16): 1e-1,
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 2e-3,
    np.dtype(np.float64): 1e-5,
    np.dtype(np.complex64): 1e-3,
    np.dtype(np.complex128): 1e-5,
}


Tolerance = float | dict[Any, float] | None


def _tol(tol: Tolerance, dtype: np.dtype) -> float:
    """`tol` for `dtype` (canonicalized, as JAX's: float64's is float32's without x64): a
    number as it is, a dict's entry for `dtype`, else the default."""
    dtype = dtypes.canonicalize_dtype(dtype)
    if isinstance(tol, dict):
        tol = {np.dtype(k): v for k, v in tol.items()}.get(np.dtype(dtype))
    if tol is not None:
        return tol
    return _DEFAULT_TOL.get(np.dtype(dtype), 1e-5)


def _np(x: Any) -> np.ndarray:
    return np.asarray(x)


def _is_float(x: Any) -> bool:
    return _np(x).dtype.kind in "fc"


def _rand_like(rng: np.random.RandomState, x: Any) -> Any:
    """A random standard-normal value shaped like `x` (zero for integer leaves)."""
    arr = _np(x)
    if not _is_float(arr):
        return np.zeros(arr.shape, arr.dtype)
    return np.asarray(rng.standard_normal(arr.shape), dtype=arr.dtype)


def _rand_tree(rng: np.random.RandomState, tree: Any) -> Any:
    """`_rand_like` of every leaf of `tree`."""
    return tree_util.tree_map(functools.partial(_rand_like, rng), tree)


def _axpy(a: float, xs: Any, ys: Any) -> Any:
    """`ys + a * xs` leafwise (integer leaves are left as they are)."""

    def f(x, y):
        y = _np(y)
        if not _is_float(y):
            return y
        return np.asarray(y + a * _np(x), dtype=y.dtype)

    return tree_util.tree_map(f, xs, ys)


def numerical_jvp(
    f: Callable, primals: Sequence[Any], tangents: Sequence[Any], eps: float = EPS
) -> Any:
    """Central-difference directional derivative of `f` at `primals` along `tangents`."""
    f_pos = f(*_axpy(eps, tangents, tuple(primals)))
    f_neg = f(*_axpy(-eps, tangents, tuple(primals)))

    def diff(p, n):
        p, n = _np(p), _np(n)
        if not _is_float(p):
            return np.zeros(p.shape, p.dtype)
        return np.asarray((p - n) * (0.5 / eps), dtype=p.dtype)

    return tree_util.tree_map(diff, f_pos, f_neg)


def _inner(xs: Any, ys: Any) -> float:
    total = 0.0
    for x, y in zip(tree_util.tree_leaves(xs), tree_util.tree_leaves(ys), strict=True):
        x, y = _np(x), _np(y)
        if _is_float(x) and _is_float(y):
            total += float(np.sum(x.astype(np.float64) * y.astype(np.float64)))
    return total


def check_close(
    actual: Any,
    expected: Any,
    atol: Tolerance = None,
    rtol: Tolerance = None,
    err_msg: str = "",
) -> None:
    """Asserts two pytrees of arrays are leafwise close, as JAX's `check_close`: the
    tolerances (by default per dtype, the looser of the two leaves') are scaled by the
    number of elements."""
    a_leaves, a_tree = tree_util.tree_flatten(actual)
    e_leaves, e_tree = tree_util.tree_flatten(expected)
    if a_tree != e_tree:
        raise AssertionError(f"{err_msg}: tree {a_tree} != expected tree {e_tree}")
    for a, e in zip(a_leaves, e_leaves):
        a, e = _np(a), _np(e)
        if a.shape != e.shape:
            raise AssertionError(f"{err_msg}: shape {a.shape} != expected shape {e.shape}")
        dt = np.promote_types(a.dtype, e.dtype)
        np.testing.assert_allclose(
            a.astype(dt),
            e.astype(dt),
            atol=max(_tol(atol, a.dtype), _tol(atol, e.dtype)) * a.size,
            rtol=max(_tol(rtol, a.dtype), _tol(rtol, e.dtype)) * e.size,
            err_msg=err_msg,
        )


def check_jvp(
    f: Callable,
    f_jvp: Callable,
    args: Sequence[Any],
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float = EPS,
    err_msg: str = "",
) -> None:
    """Checks `f_jvp(primals, tangents)` (e.g. `partial(jvp, f)`) against finite differences."""
    rng = np.random.RandomState(0)
    tangent = _rand_tree(rng, tuple(args))
    v_out, t_out = f_jvp(tuple(args), tangent)
    check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal".strip())
    t_expected = numerical_jvp(f, args, tangent, eps)
    check_close(t_out, t_expected, atol, rtol, f"{err_msg} tangent".strip())


def check_vjp(
    f: Callable,
    f_vjp: Callable,
    args: Sequence[Any],
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float = EPS,
    err_msg: str = "",
) -> None:
    """Checks `f_vjp(*args)` (e.g. `partial(vjp, f)`) with the inner-product identity."""
    rng = np.random.RandomState(0)
    v_out, vjp_fn = f_vjp(*args)
    check_close(v_out, f(*args), atol, rtol, f"{err_msg} primal".strip())
    tangent = _rand_tree(rng, tuple(args))
    t_out = numerical_jvp(f, args, tangent, eps)
    cotangent = _rand_tree(rng, v_out)
    ct_in = vjp_fn(cotangent)
    ip, ip_expected = _inner(tangent, ct_in), _inner(t_out, cotangent)
    # The arguments' dtypes as JAX sees them: a Python float is float32 without x64.
    dt = np.result_type(
        *[dtypes.dtype_and_weak(x)[0] for x in tree_util.tree_leaves(args) if _is_float(x)]
        or [float]
    )
    check_close(
        np.asarray(ip, dt),
        np.asarray(ip_expected, dt),
        atol,
        rtol,
        f"{err_msg} cotangent projection".strip(),
    )


def check_grads(
    f: Callable,
    args: Sequence[Any],
    order: int,
    modes: Sequence[str] = ("fwd", "rev"),
    atol: Tolerance = None,
    rtol: Tolerance = None,
    eps: float | None = None,
) -> None:
    """Checks forward- and reverse-mode derivatives of `f` up to `order` numerically.

    Args:
      f: function to check at `f(*args)`.
      args: tuple of argument values (use float64 for tight tolerances).
      order: derivatives up to this order are checked (order 2 checks the derivative
        functions `partial(jvp, f)` and `x -> vjp(f, x)[1](f(x))` themselves).
      modes: "fwd" and/or "rev".
      atol: absolute tolerance: a number, or a dict from dtype to number over the per-dtype
        defaults (JAX's `ToleranceDict`).
      rtol: relative tolerance, the same way.
      eps: finite-difference step.

    Raises:
      AssertionError: when a derivative does not match.
    """
    eps = eps or EPS
    args = tuple(args)

    def check(f, args, order, what=""):
        if "fwd" in modes:
            msg = f"JVP of {what}" if what else "JVP"
            check_jvp(f, functools.partial(api.jvp, f), args, atol, rtol, eps, msg)
            if order > 1:
                check(functools.partial(api.jvp, f), (args, args), order - 1, msg)
        if "rev" in modes:
            msg = f"VJP of {what}" if what else "VJP"
            check_vjp(f, functools.partial(api.vjp, f), args, atol, rtol, eps, msg)
            if order > 1:

                def f_vjp(*xs):
                    out, vjp_fn = api.vjp(f, *xs)
                    return vjp_fn(out)

                check(f_vjp, args, order - 1, msg)

    check(f, args, order)


def num_float_bits(dtype: Any) -> int:
    """The bits of `dtype` as JAX canonicalizes it, like `jax._src.test_util.num_float_bits`:
    32 for float64 unless x64 is on (tests pick looser tolerances from it).

    Args:
      dtype: a floating dtype (or anything `np.dtype` takes).

    Returns:
      The number of bits of the canonical dtype.
    """
    return dtypes.finfo(dtypes.canonicalize_dtype(dtype)).bits
