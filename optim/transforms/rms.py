"""Second-moment-only rescalings: RMSProp, centred RMSProp, Adagrad, Adadelta, SM3.

Trap (Optax vs PyTorch): `scale_by_rms` divides by `sqrt(nu + eps)` (eps *inside* the root,
`eps_in_sqrt=True`) with decay 0.9, where `torch.optim.RMSprop` uses `sqrt(v) + eps` and 0.99.
Adagrad starts its accumulator at 0.1 with eps 1e-7 (torch: 0 and 1e-10).
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

import core.numpy as jnp
from core import lax, tree_util
from optim import tree
from optim.base import GradientTransformation
from optim.errors import ComplexParamsError
from optim.numerics import abs_sq, is_complex, safe_increment


class ScaleByRssState(NamedTuple):
    """State of `scale_by_rss` (Adagrad)."""

    sum_of_squares: Any


class ScaleByRmsState(NamedTuple):
    """State of `scale_by_rms`."""

    nu: Any


class ScaleByRmsWithCountState(NamedTuple):
    """State of `scale_by_rms(bias_correction=True)`."""

    count: Any  # shape=(), dtype=int32.
    nu: Any


class ScaleByRStdDevState(NamedTuple):
    """State of `scale_by_stddev` (centred RMSProp)."""

    mu: Any
    nu: Any


class ScaleByRStdDevWithCountState(NamedTuple):
    """State of `scale_by_stddev(bias_correction=True)`."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    nu: Any


class ScaleByAdaDeltaState(NamedTuple):
    """State of `scale_by_adadelta`: EMAs of squared gradients and squared updates."""

    e_g: Any
    e_x: Any


class ScaleBySM3State(NamedTuple):
    """State of `scale_by_sm3`: `mu` holds one accumulator vector per axis of each leaf."""

    mu: Any
    nu: Any


def scale_by_rss(initial_accumulator_value: Any = 0.1, eps: Any = 1e-7) -> GradientTransformation:
    """Adagrad: `s += g**2`, `u = g / sqrt(s + eps)` (0 where `s == 0`).

    Args:
      initial_accumulator_value: initial value of the accumulator of squared gradients.
      eps: added to the sum of squares inside the square root.

    Returns:
      A `GradientTransformation` with state `ScaleByRssState(sum_of_squares)`.
    """

    def init_fn(params):
        return ScaleByRssState(sum_of_squares=tree.full_like(params, initial_accumulator_value))

    def update_fn(updates, state, params=None):
        del params
        sum_of_squares = tree_util.tree_map(
            lambda g, t: abs_sq(g) + t, updates, state.sum_of_squares
        )
        inv_sqrt = tree_util.tree_map(
            lambda t: jnp.where(t > 0, lax.rsqrt(t + eps), 0.0), sum_of_squares
        )
        return tree.mul(inv_sqrt, updates), ScaleByRssState(sum_of_squares=sum_of_squares)

    return GradientTransformation(init_fn, update_fn)


def _inverse_root(x: Any, eps: Any, eps_in_sqrt: bool) -> Any:
    return lax.rsqrt(x + eps) if eps_in_sqrt else 1 / (jnp.sqrt(x) + eps)


def _state_maker(bias_correction: bool, plain: Any, with_count: Any) -> Any:
    """`make(count=..., **moments)`: a `with_count` state when `bias_correction`, else a
    `plain` one (which drops the count)."""
    if bias_correction:
        return with_count
    return lambda count, **moments: plain(**moments)


def _debiased(bias_correction: bool, state: Any, decay: Any, *moments: Any) -> tuple[Any, list]:
    """The incremented count (None without `bias_correction`) and the moments divided by
    `1 - decay**t` when `bias_correction`, else as they are."""
    if not bias_correction:
        return None, list(moments)
    count_inc = safe_increment(state.count)
    return count_inc, [tree.bias_correction(m, decay, count_inc) for m in moments]


def scale_by_rms(
    decay: Any = 0.9,
    eps: Any = 1e-8,
    initial_scale: Any = 0.0,
    eps_in_sqrt: bool = True,
    bias_correction: bool = False,
) -> GradientTransformation:
    """RMSProp: `nu = decay*nu + (1-decay)*g**2`, `u = g / sqrt(nu + eps)`.

    Args:
      decay: decay of the second moment.
      eps: added inside (default) or outside the square root.
      initial_scale: initial value of `nu`.
      eps_in_sqrt: `sqrt(nu + eps)` if True, else `sqrt(nu) + eps` (PyTorch's placement).
      bias_correction: divide `nu` by `1 - decay**t` (then the state also has `count`).

    Returns:
      A `GradientTransformation` with state `ScaleByRmsState(nu)` (or `...WithCountState`).
    """

    make_state = _state_maker(bias_correction, ScaleByRmsState, ScaleByRmsWithCountState)

    def init_fn(params):
        nu = tree.full_like(params, initial_scale)
        return make_state(count=jnp.zeros([], jnp.int32), nu=nu)

    def update_fn(updates, state, params=None):
        del params
        nu = tree.update_moment_per_elem_norm(updates, state.nu, decay, 2)
        count_inc, (nu_hat,) = _debiased(bias_correction, state, decay, nu)
        updates = tree_util.tree_map(
            lambda n, g: _inverse_root(n, eps, eps_in_sqrt) * g, nu_hat, updates
        )
        return updates, make_state(count=count_inc, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def scale_by_stddev(
    decay: Any = 0.9,
    eps: Any = 1e-8,
    initial_scale: Any = 0.0,
    eps_in_sqrt: bool = True,
    bias_correction: bool = False,
) -> GradientTransformation:
    """Centred RMSProp: `u = g / sqrt(nu - mu**2 + eps)` with EMAs `mu` of g and `nu` of g**2.

    Args:
      decay: decay rate of the moving averages of the gradients and squared gradients.
      eps: added to the variance (inside the square root when ``eps_in_sqrt``).
      initial_scale: initial value of the moving average of the squared gradients.
      eps_in_sqrt: add ``eps`` inside the square root (Optax) rather than after it.
      bias_correction: correct the moving averages for their zero initialization.

    Returns:
      A `GradientTransformation` with state `ScaleByRStdDevState(mu, nu)`.
    """

    make_state = _state_maker(bias_correction, ScaleByRStdDevState, ScaleByRStdDevWithCountState)

    def init_fn(params):
        mu = tree.zeros_like(params)
        nu = tree.full_like(params, initial_scale)
        return make_state(count=jnp.zeros([], jnp.int32), mu=mu, nu=nu)

    def update_fn(updates, state, params=None):
        del params
        mu = tree.update_moment(updates, state.mu, decay, 1)
        nu = tree.update_moment_per_elem_norm(updates, state.nu, decay, 2)
        count_inc, (mu_hat, nu_hat) = _debiased(bias_correction, state, decay, mu, nu)
        updates = tree_util.tree_map(
            lambda m, n, g: _inverse_root(n - abs_sq(m), eps, eps_in_sqrt) * g,
            mu_hat,
            nu_hat,
            updates,
        )
        return updates, make_state(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def scale_by_adadelta(rho: Any = 0.9, eps: Any = 1e-6) -> GradientTransformation:
    """Adadelta (Zeiler, 2012): `u = sqrt(E[x**2] + eps) / sqrt(E[g**2] + eps) * g`.

    Args:
      rho: decay rate of the moving averages of the squared gradients and updates.
      eps: added inside both square roots.

    Returns:
      A `GradientTransformation` with state `ScaleByAdaDeltaState(e_g, e_x)`.
    """

    def init_fn(params):
        return ScaleByAdaDeltaState(e_g=tree.zeros_like(params), e_x=tree.zeros_like(params))

    def update_fn(updates, state, params=None):
        del params
        e_g = tree.update_moment(updates, state.e_g, rho, 2)
        updates = tree_util.tree_map(
            lambda g, cur_e_g, prev_e_x: jnp.sqrt(prev_e_x + eps) / jnp.sqrt(cur_e_g + eps) * g,
            updates,
            e_g,
            state.e_x,
        )
        e_x = tree.update_moment(updates, state.e_x, rho, 2)
        return updates, ScaleByAdaDeltaState(e_g=e_g, e_x=e_x)

    return GradientTransformation(init_fn, update_fn)


def scale_by_sm3(b1: Any = 0.9, b2: Any = 1.0, eps: Any = 1e-8) -> GradientTransformation:
    """SM3 (Anil et al., 2019): memory-efficient Adagrad with one accumulator per axis.

    Args:
      b1: decay rate of the momentum.
      b2: decay rate of the accumulators (1.0 accumulates, as Adagrad).
      eps: added to the denominator.

    Returns:
      A `GradientTransformation` with state `ScaleBySM3State(mu, nu)`; real params only.
    """

    def expanded_shape(shape, axis):
        return [1] * axis + [shape[axis]] + [1] * (len(shape) - axis - 1)

    def new_accum(g, v):
        coeff = (1.0 - b2) if b2 != 1.0 else 1.0
        if g.ndim < 2:
            return coeff * g**2 + b2 * v[0]
        return coeff * g**2 + b2 * functools.reduce(jnp.minimum, v)

    def new_mu(g, i):
        if g.ndim < 2:
            return g
        return jnp.max(g, axis=tuple(a for a in range(g.ndim) if a != i))

    def init_fn(params):
        if any(is_complex(x) for x in tree_util.tree_leaves(params)):
            raise ComplexParamsError(
                "This transformation does not support complex parameters.\n"  # Optax's line
                "scale_by_sm3 (and sm3) only take real ones: split real and imaginary parts."
            )
        mu = tree_util.tree_map(
            lambda p: [jnp.zeros((p.shape[i],), p.dtype) for i in range(p.ndim)], params
        )
        return ScaleBySM3State(mu=mu, nu=tree.zeros_like(params))

    def update_fn(updates, state, params=None):
        del params
        mu = tree_util.tree_map(
            lambda g, v: [jnp.reshape(v[i], expanded_shape(g.shape, i)) for i in range(g.ndim)],
            updates,
            state.mu,
        )
        accum = tree_util.tree_map(new_accum, updates, mu)
        accum_inv_sqrt = tree_util.tree_map(
            lambda t: jnp.where(t > 0, lax.rsqrt(t + eps), 0.0), accum
        )
        scaled = tree_util.tree_map(lambda g, a: g * a, updates, accum_inv_sqrt)
        nu = tree.update_moment(scaled, state.nu, b1, 1)
        mu = tree_util.tree_map(lambda a: [new_mu(a, i) for i in range(a.ndim)], accum)
        return nu, ScaleBySM3State(mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)
