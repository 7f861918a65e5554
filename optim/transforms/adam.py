"""Adam and its relatives: first moment `mu` over a second-moment denominator.

All share Optax's conventions: moments start at zero, `count` (int32) is the number of updates
done so far, bias corrections use `t = count + 1`, and the denominator is
`sqrt(nu_hat + eps_root) + eps` (eps *outside* the root, as in the Adam paper and PyTorch).
`nesterov=True` replaces `mu_hat` by `b1 * mu / (1 - b1**(t+1)) + (1 - b1) * g / (1 - b1**t)`
(NAdam). `mu_dtype` stores the first moment in another dtype (e.g. bfloat16) to save memory.
Adan (`scale_by_adan`) adds an EMA of gradient differences and keeps Optax's own state names
(`m`, `v`, `n`, `g`, `t`).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from optim import tree
from optim.base import GradientTransformation
from optim.errors import OptimizerArgumentError
from optim.numerics import abs_sq, safe_increment


class ScaleByAdamState(NamedTuple):
    """State of `scale_by_adam`, `scale_by_adamax`, `scale_by_radam` and `scale_by_yogi`."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    nu: Any


class ScaleByAmsgradState(NamedTuple):
    """State of `scale_by_amsgrad`."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    nu: Any
    nu_max: Any


class ScaleByBeliefState(NamedTuple):
    """State of `scale_by_belief` (`nu` is the EMA of `(g - mu)**2`)."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    nu: Any


class ScaleByLionState(NamedTuple):
    """State of `scale_by_lion`."""

    count: Any  # shape=(), dtype=int32.
    mu: Any


class ScaleByNovogradState(NamedTuple):
    """State of `scale_by_novograd` (`nu` holds one scalar per leaf)."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    nu: Any


def _is_none(x: Any) -> bool:
    return x is None


def _zero_moments_init(state_cls: Any, mu_dtype: Any = None, more: tuple[str, ...] = ()) -> Any:
    """The `init_fn` of a `state_cls(count, mu, nu, *more)` at zero (`mu` stored in `mu_dtype`)."""

    def init_fn(params):
        return state_cls(
            count=jnp.zeros([], jnp.int32),
            mu=tree.zeros_like(params, dtype=mu_dtype),
            nu=tree.zeros_like(params),
            **{name: tree.zeros_like(params) for name in more},
        )

    return init_fn


def _adam_moments(updates: Any, state: Any, b1: Any, b2: Any) -> tuple[Any, Any, Any]:
    """Adam's EMAs `mu` of g and `nu` of g**2, and the incremented count."""
    mu = tree.update_moment(updates, state.mu, b1, 1)
    nu = tree.update_moment_per_elem_norm(updates, state.nu, b2, 2)
    return mu, nu, safe_increment(state.count)


def _debiased(
    mu: Any, nu: Any, updates: Any, b1: Any, b2: Any, count_inc: Any, nesterov: bool = False
) -> tuple[Any, Any]:
    """Bias-corrected moments `(mu_hat, nu_hat)`; `mu_hat` is NAdam's look-ahead when
    `nesterov`."""
    nu_hat = tree.bias_correction(nu, b2, count_inc)
    if not nesterov:
        return tree.bias_correction(mu, b1, count_inc), nu_hat
    mu_hat = tree_util.tree_map(
        lambda m, g: b1 * m + (1 - b1) * g,
        tree.bias_correction(mu, b1, safe_increment(count_inc)),
        tree.bias_correction(updates, b1, count_inc),
    )
    return mu_hat, nu_hat


def _adam_direction(mu_hat: Any, nu_hat: Any, eps: Any, eps_root: Any) -> Any:
    return tree_util.tree_map(
        lambda m, v: None if m is None else m / (jnp.sqrt(v + eps_root) + eps),
        mu_hat,
        nu_hat,
        is_leaf=_is_none,
    )


def scale_by_adam(
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Rescales updates by Adam's rule (Kingma & Ba, 2014).

    `mu = b1*mu + (1-b1)*g`, `nu = b2*nu + (1-b2)*g**2`, `t = count + 1`,
    `u = mu/(1-b1**t) / (sqrt(nu/(1-b2**t) + eps_root) + eps)`.

    Args:
      b1: decay of the first moment.
      b2: decay of the second moment.
      eps: added to the denominator outside the square root.
      eps_root: added inside the square root (set it > 0 to differentiate through Adam).
      mu_dtype: dtype of the first moment (default: the params' dtype).
      nesterov: use NAdam's look-ahead first moment.

    Returns:
      A `GradientTransformation` with state `ScaleByAdamState(count, mu, nu)`.
    """

    def update_fn(updates, state, params=None):
        del params
        mu, nu, count_inc = _adam_moments(updates, state, b1, b2)
        mu_hat, nu_hat = _debiased(mu, nu, updates, b1, b2, count_inc, nesterov)
        updates = _adam_direction(mu_hat, nu_hat, eps, eps_root)
        mu = tree.cast(mu, mu_dtype)
        nu = tree.cast_like(nu, state.nu)
        return updates, ScaleByAdamState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(_zero_moments_init(ScaleByAdamState, mu_dtype), update_fn)


def scale_by_amsgrad(
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    bias_correction_mu: bool = True,
    bias_correction_nu: bool = True,
) -> GradientTransformation:
    """Adam with the running maximum of the (bias-corrected) second moment (Reddi et al., 2018).

    Args:
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      bias_correction_mu: divide the first moment by ``1 - b1**t``.
      bias_correction_nu: divide the second moment by ``1 - b2**t``.

    Returns:
      A `GradientTransformation` with state `ScaleByAmsgradState(count, mu, nu, nu_max)`.
    """

    def update_fn(updates, state, params=None):
        del params
        mu, nu, count_inc = _adam_moments(updates, state, b1, b2)
        mu_hat = tree.bias_correction(mu, b1, count_inc) if bias_correction_mu else mu
        nu_eff = tree.bias_correction(nu, b2, count_inc) if bias_correction_nu else nu
        nu_max = tree_util.tree_map(jnp.maximum, state.nu_max, nu_eff)
        updates = _adam_direction(mu_hat, nu_max, eps, eps_root)
        mu = tree.cast(mu, mu_dtype)
        return updates, ScaleByAmsgradState(count=count_inc, mu=mu, nu=nu, nu_max=nu_max)

    init_fn = _zero_moments_init(ScaleByAmsgradState, mu_dtype, more=("nu_max",))
    return GradientTransformation(init_fn, update_fn)


def scale_by_adamax(b1: Any = 0.9, b2: Any = 0.999, eps: Any = 1e-8) -> GradientTransformation:
    """Adamax: the infinity-norm variant of Adam, `u = mu_hat / max(|g| + eps, b2 * nu)`.

    Args:
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to ``|g|`` in the infinity-norm moment.

    Returns:
      A `GradientTransformation` with state `ScaleByAdamState(count, mu, nu)`.
    """

    def update_fn(updates, state, params=None):
        del params
        count_inc = safe_increment(state.count)
        mu = tree.update_moment(updates, state.mu, b1, 1)
        nu = tree.update_infinity_moment(updates, state.nu, b2, eps)
        mu_hat = tree.bias_correction(mu, b1, count_inc)
        updates = tree_util.tree_map(lambda m, v: m / v, mu_hat, nu)
        return updates, ScaleByAdamState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(_zero_moments_init(ScaleByAdamState), update_fn)


def scale_by_radam(
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    threshold: Any = 5.0,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """Rectified Adam (Liu et al., 2020).

    With `rho_inf = 2/(1-b2) - 1` and `rho_t = rho_inf - 2 t b2**t / (1 - b2**t)`: if
    `rho_t >= threshold` the Adam direction times
    `r_t = sqrt((rho_t-4)(rho_t-2) rho_inf / ((rho_inf-4)(rho_inf-2) rho_t))`, else `mu_hat`.

    Args:
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      threshold: the rectification threshold on ``rho_t``; below it the update is the bias-corrected
        first moment.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformation` with state `ScaleByAdamState(count, mu, nu)`.
    """
    rho_inf = 2.0 / (1.0 - b2) - 1.0

    def update_fn(updates, state, params=None):
        del params
        mu, nu, count_inc = _adam_moments(updates, state, b1, b2)
        b2t = jnp.asarray(b2) ** count_inc
        rho = rho_inf - 2 * count_inc * b2t / (1 - b2t)
        mu_hat, nu_hat = _debiased(mu, nu, updates, b1, b2, count_inc, nesterov)
        # Where 2 < rho < 4 the square root is of a negative number: NaN, which jnp.where
        # discards unless `threshold` is below 4 (then the update is NaN, as Optax's)
        r = jnp.sqrt(
            (rho - 4.0) * (rho - 2.0) * rho_inf / ((rho_inf - 4.0) * (rho_inf - 2.0) * rho)
        )
        rectified = tree_util.tree_map(
            lambda m, v: r.astype(m.dtype) * m / (jnp.sqrt(v + eps_root) + eps), mu_hat, nu_hat
        )
        updates = tree_util.tree_map(
            lambda t, f: jnp.where(rho >= threshold, t, f), rectified, mu_hat
        )
        return updates, ScaleByAdamState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(_zero_moments_init(ScaleByAdamState), update_fn)


def scale_by_belief(
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-16,
    eps_root: Any = 1e-16,
    *,
    nesterov: bool = False,
) -> GradientTransformation:
    """AdaBelief (Zhuang et al., 2020): the second moment tracks `(g - mu)**2 + eps_root`.

    Args:
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root.
      eps_root: added to the variance estimate (inside the square root).
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformation` with state `ScaleByBeliefState(count, mu, nu)`.
    """

    def update_fn(updates, state, params=None):
        del params
        mu = tree.update_moment(updates, state.mu, b1, 1)
        prediction_error = tree.sub(updates, mu)
        nu = tree.update_moment_per_elem_norm(prediction_error, state.nu, b2, 2)
        nu = tree_util.tree_map(lambda v: v + eps_root, nu)
        count_inc = safe_increment(state.count)
        mu_hat, nu_hat = _debiased(mu, nu, updates, b1, b2, count_inc, nesterov)
        updates = _adam_direction(mu_hat, nu_hat, eps, 0.0)
        return updates, ScaleByBeliefState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(_zero_moments_init(ScaleByBeliefState), update_fn)


def scale_by_yogi(
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-3,
    eps_root: Any = 0.0,
    initial_accumulator_value: Any = 1e-6,
) -> GradientTransformation:
    """Yogi (Zaheer et al., 2018): `nu -= (1-b2) * sign(nu - g**2) * g**2`.

    Args:
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      initial_accumulator_value: initial value of both moments.

    Returns:
      A `GradientTransformation` with state `ScaleByAdamState(count, mu, nu)`.
    """

    def init_fn(params):
        return ScaleByAdamState(
            count=jnp.zeros([], jnp.int32),
            mu=tree.full_like(params, initial_accumulator_value),
            nu=tree.full_like(params, initial_accumulator_value),
        )

    def update_fn(updates, state, params=None):
        del params
        mu = tree.update_moment(updates, state.mu, b1, 1)
        nu = tree_util.tree_map(
            lambda g, v: v - (1 - b2) * jnp.sign(v - abs_sq(g)) * abs_sq(g), updates, state.nu
        )
        count_inc = safe_increment(state.count)
        mu_hat, nu_hat = _debiased(mu, nu, updates, b1, b2, count_inc)
        updates = _adam_direction(mu_hat, nu_hat, eps, eps_root)
        return updates, ScaleByAdamState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def scale_by_lion(
    b1: Any = 0.9,
    b2: Any = 0.99,
    mu_dtype: Any = None,
    *,
    mode: str = "hard",
    smooth_beta: float = 1.0,
) -> GradientTransformation:
    """Lion (Chen et al., 2023): `u = s((1-b1) g + b1 mu)`, then `mu = b2 mu + (1-b2) g`.

    Args:
      b1: weight of the momentum in the update direction.
      b2: decay of the momentum.
      mu_dtype: dtype of the momentum (default: that of the params).
      mode: the squashing `s`: "hard" (`sign`), "smooth" (`tanh(smooth_beta * x)`) or
        "refined" (`x` where `|x| < 1`, else `sign(x)`).
      smooth_beta: slope of the "smooth" mode.

    Returns:
      A `GradientTransformation` with state `ScaleByLionState(count, mu)`.
    """
    squash = {
        "hard": jnp.sign,
        "smooth": lambda x: jnp.tanh(smooth_beta * x),
        "refined": lambda x: jnp.where(jnp.abs(x) < 1.0, x, jnp.sign(x)),
    }
    if mode not in squash:
        raise OptimizerArgumentError(
            f'Unknown lion mode: {mode}. It needs to be one of ["hard", "smooth", "refined"].'
            "\n(numbax checks the mode when the transformation is built, Optax at update.)"
        )

    def init_fn(params):
        return ScaleByLionState(
            count=jnp.zeros([], jnp.int32), mu=tree.zeros_like(params, dtype=mu_dtype)
        )

    def update_fn(updates, state, params=None):
        del params
        new_updates = tree_util.tree_map(
            lambda g, m: squash[mode]((1.0 - b1) * g + b1 * m), updates, state.mu
        )
        mu = tree.cast(tree.update_moment(updates, state.mu, b2, 1), mu_dtype)
        return new_updates, ScaleByLionState(count=safe_increment(state.count), mu=mu)

    return GradientTransformation(init_fn, update_fn)


def scale_by_novograd(
    b1: Any = 0.9,
    b2: Any = 0.25,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    weight_decay: Any = 0.0,
    mu_dtype: Any = None,
) -> GradientTransformation:
    """NovoGrad (Ginsburg et al., 2019): layer-wise second moments of `||g||**2`.

    First step: `nu = ||g||**2`, `mu = g/(sqrt(nu+eps_root)+eps) + wd*p`; later
    `nu = b2 nu + (1-b2) ||g||**2`, `mu = b1 mu + g/(sqrt(nu+eps_root)+eps) + wd*p`.

    Args:
      b1: decay rate of the first moment.
      b2: decay rate of the layer-wise second moment of ``||g||**2``.
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      weight_decay: rate of the weight decay added to the normalized gradients.
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.

    Returns:
      A `GradientTransformation` with state `ScaleByNovogradState(count, mu, nu)`; needs `params`.
    """

    def init_fn(params):
        return ScaleByNovogradState(
            count=jnp.zeros([], jnp.int32),
            mu=tree.zeros_like(params, dtype=mu_dtype),
            nu=tree_util.tree_map(lambda p: jnp.asarray(0.0, dtype=p.dtype), params),
        )

    def update_fn(updates, state, params):
        count_inc = safe_increment(state.count)
        first = count_inc == 1
        sq_norms = tree_util.tree_map(lambda g: jnp.sum(abs_sq(g)), updates)
        nu = tree_util.tree_map(
            lambda s, n: jnp.where(first, s, b2 * n + (1 - b2) * s).astype(n.dtype),
            sq_norms,
            state.nu,
        )
        step = tree_util.tree_map(
            lambda g, p, n: g / (jnp.sqrt(n + eps_root) + eps) + weight_decay * p,
            updates,
            params,
            nu,
        )
        mu = tree_util.tree_map(lambda m, s: jnp.where(first, s, b1 * m + s), state.mu, step)
        mu = tree.cast(mu, mu_dtype)
        return mu, ScaleByNovogradState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


class ScaleByAdanState(NamedTuple):
    """State of `scale_by_adan` (Optax's field names).

    Attributes:
      m: EMA of the gradients.
      v: EMA of the gradient differences `g_t - g_{t-1}`.
      n: EMA of `(g + (1 - b2) * diff)**2`.
      g: the previous gradient.
      t: number of updates so far (int32).
    """

    m: Any
    v: Any
    n: Any
    g: Any
    t: Any


def scale_by_adan(
    b1: Any = 0.98,
    b2: Any = 0.92,
    b3: Any = 0.99,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
) -> GradientTransformation:
    """Rescales updates with Adan (Xie et al., 2022, Algorithm 1), as in Optax.

    The first step uses a zero gradient difference. Bias corrections use `t = count + 1`.

    Args:
      b1: decay of the EMA of gradients.
      b2: decay of the EMA of gradient differences.
      b3: decay of the EMA of the squared term.
      eps: added to the denominator outside the root.
      eps_root: added inside the root.

    Returns:
      A `GradientTransformation` with state `ScaleByAdanState`.
    """

    def init_fn(params):
        return ScaleByAdanState(
            m=tree.zeros_like(params),
            v=tree.zeros_like(params),
            n=tree.zeros_like(params),
            g=tree.zeros_like(params),
            t=jnp.zeros([], jnp.int32),
        )

    def update_fn(updates, state, params=None):
        del params
        g = updates
        diff = tree.where(state.t == 0, tree.zeros_like(g), tree.sub(g, state.g))
        m = tree.update_moment(g, state.m, b1, 1)
        v = tree.update_moment(diff, state.v, b2, 1)
        n = tree.update_moment_per_elem_norm(tree.add_scale(g, 1 - b2, diff), state.n, b3, 2)
        t = safe_increment(state.t)
        m_hat = tree.bias_correction(m, b1, t)
        v_hat = tree.bias_correction(v, b2, t)
        n_hat = tree.bias_correction(n, b3, t)
        u = tree.add_scale(m_hat, 1 - b2, v_hat)
        denom = tree_util.tree_map(lambda x: jnp.sqrt(x + eps_root) + eps, n_hat)
        return tree.div(u, denom), ScaleByAdanState(m=m, v=v, n=n, g=g, t=t)

    return GradientTransformation(init_fn, update_fn)
