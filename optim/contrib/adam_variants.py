"""Adam variants of `optax.contrib`: ACProp, AdEMAMix (and its simplified form), ADOPT, MADGRAD.

- ACProp (Zhuang et al., 2021) divides the gradient by the *previous* belief moment (EMA of
  `(g - mu)**2`), so the step size does not depend on the current gradient.
- AdEMAMix (Pagliardini et al., 2024) adds a slow EMA `m2` (decay `b3`) scaled by `alpha` to
  Adam's numerator; the simplified form folds both into one accumulator `m = b1 * m + g`.
- ADOPT (Taniguchi et al., 2024) normalises the gradient by the previous second moment before
  the momentum (clipped to `clip_value_fn(count)`).
- MADGRAD (Defazio & Jelassi, 2021): dual averaging with a cube-root preconditioner.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import dtypes, tree_util
from optim import tree
from optim.base import GradientTransformation, ScalarOrSchedule
from optim.combine import chain
from optim.errors import MissingParamsError
from optim.numerics import safe_increment, safe_int32_increment
from optim.transforms import (
    ScaleByAdamState,
    ScaleByBeliefState,
    add_decayed_weights,
    scale_by_learning_rate,
)

Mask = Any | Callable[[Any], Any] | None


def _canonical(dtype: Any) -> Any:
    return None if dtype is None else dtypes.canonicalize_dtype(dtype)


def scale_by_acprop(
    b1: Any = 0.9, b2: Any = 0.999, eps: Any = 1e-16, eps_root: Any = 1e-16
) -> GradientTransformation:
    """ACProp's rescaling: `g / (sqrt(s_hat_{t-1}) + eps)` (1 on the first step).

    Args:
      b1: decay of the first moment (only used to update the belief).
      b2: decay of the belief moment.
      eps: added outside the square root.
      eps_root: added to the belief moment.

    Returns:
      A `GradientTransformation` with state `ScaleByBeliefState(count, mu, nu)`.
    """

    def init_fn(params):
        return ScaleByBeliefState(
            count=jnp.zeros([], jnp.int32), mu=tree.zeros_like(params), nu=tree.zeros_like(params)
        )

    def update_fn(updates, state, params=None):
        del params
        mu = tree.update_moment(updates, state.mu, b1, 1)
        error = tree_util.tree_map(lambda g, m: g - m, updates, state.mu)
        nu = tree.update_moment_per_elem_norm(error, state.nu, b2, 2)
        nu = tree_util.tree_map(lambda v: v + eps_root, nu)
        count_inc = safe_increment(state.count)
        initial = state.count == 0
        t = jnp.where(initial, count_inc, state.count)
        nu_hat = tree.bias_correction(state.nu, b2, t)
        nu_hat = tree_util.tree_map(lambda x: jnp.where(initial, 1, x), nu_hat)
        updates = tree_util.tree_map(lambda g, v: g / (jnp.sqrt(v) + eps), updates, nu_hat)
        return updates, ScaleByBeliefState(count=count_inc, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def acprop(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-16,
    eps_root: Any = 1e-16,
    weight_decay: Any = 0.0,
    mask: Mask = None,
) -> GradientTransformation:
    """The ACProp optimizer.

    Args:
      learning_rate: a float or schedule.
      b1: see `scale_by_acprop`.
      b2: see `scale_by_acprop`.
      eps: see `scale_by_acprop`.
      eps_root: see `scale_by_acprop`.
      weight_decay: decoupled weight decay.
      mask: which parameters get weight decay.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        scale_by_acprop(b1=b1, b2=b2, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


class ScaleByAdemamixState(NamedTuple):
    """State of `scale_by_ademamix` (`count_m2` feeds the `b3` and `alpha` schedules)."""

    count: Any
    count_m2: Any
    m1: Any
    m2: Any
    nu: Any


def scale_by_ademamix(
    b1: Any = 0.9,
    b2: Any = 0.999,
    b3: ScalarOrSchedule = 0.9999,
    alpha: ScalarOrSchedule = 6.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
) -> GradientTransformation:
    """AdEMAMix's rescaling: `(m1_hat + alpha * m2) / (sqrt(nu_hat + eps_root) + eps)`.

    Args:
      b1: decay of the fast EMA `m1`.
      b2: decay of the second moment.
      b3: decay of the slow EMA `m2` (a float or a schedule of `count_m2`).
      alpha: weight of the slow EMA (a float or a schedule of `count_m2`).
      eps: added outside the square root.
      eps_root: added inside the square root.
      mu_dtype: dtype of the moments.

    Returns:
      A `GradientTransformation` with state `ScaleByAdemamixState`.
    """
    mu_dtype = _canonical(mu_dtype)

    def init_fn(params):
        return ScaleByAdemamixState(
            count=jnp.zeros([], jnp.int32),
            count_m2=jnp.zeros([], jnp.int32),
            m1=tree.zeros_like(params, dtype=mu_dtype),
            m2=tree.zeros_like(params, dtype=mu_dtype),
            nu=tree.zeros_like(params, dtype=mu_dtype),
        )

    def update_fn(updates, state, params=None):
        del params
        c_b3 = b3(state.count_m2) if callable(b3) else b3
        c_alpha = alpha(state.count_m2) if callable(alpha) else alpha
        m1 = tree.update_moment(updates, state.m1, b1, 1)
        m2 = tree.update_moment(updates, state.m2, c_b3, 1)
        nu = tree.update_moment_per_elem_norm(updates, state.nu, b2, 2)
        count_inc = safe_int32_increment(state.count)
        count_m2_inc = safe_int32_increment(state.count_m2)
        m1_hat = tree.bias_correction(m1, b1, count_inc)
        nu_hat = tree.bias_correction(nu, b2, count_inc)
        updates = tree_util.tree_map(
            lambda a, b, v: (a + c_alpha * b) / (jnp.sqrt(v + eps_root) + eps), m1_hat, m2, nu_hat
        )
        return updates, ScaleByAdemamixState(count_inc, count_m2_inc, m1, m2, nu)

    return GradientTransformation(init_fn, update_fn)


def ademamix(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    b3: ScalarOrSchedule = 0.9999,
    alpha: ScalarOrSchedule = 5.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    weight_decay: Any = 0.0,
    mask: Mask = None,
) -> GradientTransformation:
    """The AdEMAMix optimizer (note Optax's default `alpha=5.0` here, 6.0 in the scaling).

    Args:
      learning_rate: a float or schedule.
      b1: see `scale_by_ademamix`.
      b2: see `scale_by_ademamix`.
      b3: see `scale_by_ademamix`.
      alpha: see `scale_by_ademamix`.
      eps: see `scale_by_ademamix`.
      eps_root: see `scale_by_ademamix`.
      mu_dtype: see `scale_by_ademamix`.
      weight_decay: decoupled weight decay.
      mask: which parameters get weight decay.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        scale_by_ademamix(b1, b2, b3, alpha, eps, eps_root, mu_dtype),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


class ScaleBySimplifiedAdEMAMixState(NamedTuple):
    """State of `scale_by_simplified_ademamix`."""

    t: Any
    m: Any
    n: Any


def scale_by_simplified_ademamix(
    b1: Any = 0.99,
    b2: Any = 0.95,
    alpha: ScalarOrSchedule = 0.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
) -> GradientTransformation:
    """Simplified AdEMAMix: `m = b1 * m + g`,
    `u = (m + alpha * g) / (sqrt(n_hat + eps_root) + eps)`.

    Args:
      b1: decay of the accumulator `m` (no `1 - b1` factor).
      b2: decay of the second moment.
      alpha: weight of the current gradient (a float or a schedule of `t`).
      eps: added outside the square root.
      eps_root: added inside the square root.

    Returns:
      A `GradientTransformation` with state `ScaleBySimplifiedAdEMAMixState(t, m, n)`.
    """

    def init_fn(params):
        return ScaleBySimplifiedAdEMAMixState(
            t=jnp.array(0, jnp.int32), m=tree.zeros_like(params), n=tree.zeros_like(params)
        )

    def update_fn(updates, state, params=None):
        del params
        c_alpha = alpha(state.t) if callable(alpha) else alpha
        m = tree.add_scale(updates, b1, state.m)
        g2 = tree.mul(updates, updates)
        n = tree.add_scale(g2, b2, tree.sub(state.n, g2))
        t = safe_increment(state.t)
        n_hat = tree.bias_correction(n, b2, t)
        num = tree.add_scale(m, c_alpha, updates)
        den = tree_util.tree_map(lambda v: jnp.sqrt(v + eps_root) + eps, n_hat)
        return tree.div(num, den), ScaleBySimplifiedAdEMAMixState(t=t, m=m, n=n)

    return GradientTransformation(init_fn, update_fn)


def simplified_ademamix(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.99,
    b2: Any = 0.95,
    alpha: ScalarOrSchedule = 0.0,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    weight_decay: Any = 0.0,
    mask: Mask = None,
) -> GradientTransformation:
    """The simplified AdEMAMix optimizer.

    Args:
      learning_rate: a float or schedule.
      b1: see `scale_by_simplified_ademamix`.
      b2: see `scale_by_simplified_ademamix`.
      alpha: see `scale_by_simplified_ademamix`.
      eps: see `scale_by_simplified_ademamix`.
      eps_root: see `scale_by_simplified_ademamix`.
      weight_decay: decoupled weight decay.
      mask: which parameters get weight decay.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        scale_by_simplified_ademamix(b1, b2, alpha, eps, eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


def _quarter_power(x: Any) -> Any:
    return x**0.25


def scale_by_adopt(
    b1: Any = 0.9,
    b2: Any = 0.9999,
    eps: Any = 1e-6,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
    use_clipping: bool = True,
    clip_value_fn: Callable[[Any], Any] = _quarter_power,
) -> GradientTransformation:
    """ADOPT's rescaling: momentum of `g / max(sqrt(nu_{t-1}), eps)` (clipped).

    Args:
      b1: decay of the momentum (1 on the first step: no momentum update).
      b2: decay of the second moment (0 on the first step: `nu = g**2`).
      eps: the smallest denominator.
      mu_dtype: dtype of the momentum.
      nesterov: use Nesterov momentum.
      use_clipping: clip the normalised gradient to `clip_value_fn(count)`.
      clip_value_fn: the clipping bound as a function of the step count (default `t**0.25`).

    Returns:
      A `GradientTransformation` with state `ScaleByAdamState(count, mu, nu)`.
    """
    mu_dtype = _canonical(mu_dtype)

    def init_fn(params):
        return ScaleByAdamState(
            count=jnp.zeros([], jnp.int32),
            mu=tree.zeros_like(params, dtype=mu_dtype),
            nu=tree.zeros_like(params),
        )

    def update_fn(updates, state, params=None):
        del params
        b2_ = jnp.where(state.count > 0, b2, 0)
        b1_ = jnp.where(state.count > 0, b1, 1)
        nu = tree.update_moment_per_elem_norm(updates, state.nu, b2_, 2)
        bound = clip_value_fn(state.count) if use_clipping else None

        def normalised(g, v):
            u = g / jnp.maximum(jnp.sqrt(v), eps)
            return u if bound is None else jnp.clip(u, -bound, bound)

        mu_updates = tree_util.tree_map(normalised, updates, state.nu)
        mu = tree.update_moment(mu_updates, state.mu, b1_, 1)
        updates = tree.update_moment(mu_updates, mu, b1_, 1) if nesterov else mu
        mu = tree.cast(mu, mu_dtype)
        return updates, ScaleByAdamState(count=safe_increment(state.count), mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def adopt(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.9999,
    eps: Any = 1e-6,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
    use_clipping: bool = True,
    clip_value_fn: Callable[[Any], Any] = _quarter_power,
) -> GradientTransformation:
    """The ADOPT optimizer.

    Args:
      learning_rate: a float or schedule.
      b1: see `scale_by_adopt`.
      b2: see `scale_by_adopt`.
      eps: see `scale_by_adopt`.
      mu_dtype: see `scale_by_adopt`.
      nesterov: see `scale_by_adopt`.
      use_clipping: see `scale_by_adopt`.
      clip_value_fn: see `scale_by_adopt`.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        scale_by_adopt(
            b1=b1,
            b2=b2,
            eps=eps,
            mu_dtype=mu_dtype,
            nesterov=nesterov,
            use_clipping=use_clipping,
            clip_value_fn=clip_value_fn,
        ),
        scale_by_learning_rate(learning_rate),
    )


class MadgradState(NamedTuple):
    """State of `scale_by_madgrad` (`x0` are the initial parameters)."""

    count: Any
    grad_sum_sq: Any
    s: Any
    x0: Any


def scale_by_madgrad(
    learning_rate: ScalarOrSchedule, momentum: float = 0.9, eps: float = 1e-6
) -> GradientTransformation:
    """MADGRAD's step (it includes the learning rate and moves towards the dual average).

    Args:
      learning_rate: a float or schedule.
      momentum: the averaging weight of the current iterate.
      eps: stabilises the learning rate and the cube root.

    Returns:
      A `GradientTransformation` with state `MadgradState`.
    """

    def init_fn(params):
        return MadgradState(
            count=jnp.zeros([], jnp.int32),
            grad_sum_sq=tree.zeros_like(params),
            s=tree.zeros_like(params),
            x0=tree_util.tree_map(lambda x: x, params),
        )

    def update_fn(updates, state, params=None):
        if params is None:
            raise MissingParamsError("scale_by_madgrad")
        lr = learning_rate(state.count) if callable(learning_rate) else learning_rate
        lamb = (lr + eps) * jnp.sqrt(state.count + 1)
        grad_sum_sq = tree_util.tree_map(
            lambda a, g: a + (lamb * g**2).astype(g.dtype), state.grad_sum_sq, updates
        )
        s = tree_util.tree_map(lambda a, g: a + (lamb * g).astype(g.dtype), state.s, updates)
        z = tree_util.tree_map(
            lambda x0, sv, sq: x0 - sv / (jnp.cbrt(sq) + eps), state.x0, s, grad_sum_sq
        )
        new_updates = tree_util.tree_map(
            lambda zv, x: (1 - momentum) * zv + momentum * x - x, z, params
        )
        return new_updates, MadgradState(safe_increment(state.count), grad_sum_sq, s, state.x0)

    return GradientTransformation(init_fn, update_fn)


def madgrad(
    learning_rate: ScalarOrSchedule,
    momentum: float = 0.9,
    weight_decay: float = 0.0,
    eps: float = 1e-6,
) -> GradientTransformation:
    """The MADGRAD optimizer.

    Args:
      learning_rate: a float or schedule.
      momentum: see `scale_by_madgrad`.
      weight_decay: L2 weight decay added to the gradient.
      eps: see `scale_by_madgrad`.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        add_decayed_weights(weight_decay),
        scale_by_madgrad(learning_rate=learning_rate, momentum=momentum, eps=eps),
    )
