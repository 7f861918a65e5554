"""`optax.perturbations`: differentiable Monte-Carlo smoothing of any function.

`make_perturbed_fun(f)` returns `g(key, x)`, an unbiased estimate of
`f_sigma(x) = E_z f(x + sigma z)` whose derivatives of every order (through `core.grad`) are
unbiased estimates of `f_sigma`'s: each sample `y = x + sigma z` is held constant and weighted
by the "magic box" `exp(log p(z) - stop_gradient(log p(z)))` (value 1, gradient the score
function), so `f` is only evaluated, never differentiated (Berthet et al., 2020; Foerster et
al., 2018). With `use_baseline`, `f(x)` is subtracted inside the estimator to lower its
variance. Samples are Optax's: one key per sample (`random.split`), one per leaf
(`optim.tree.random_like`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import core
import core.numpy as jnp
from core import lax, random
from optim import tree as tree_lib


class Normal:
    """Standard normal noise: `sample` and the unnormalized `log_prob` (`-x**2 / 2`)."""

    def sample(self, key: Any, sample_shape: tuple = (), dtype: Any = float) -> Any:
        """`random.normal(key, sample_shape, dtype)`."""
        return random.normal(key, sample_shape, dtype)

    def log_prob(self, inputs: Any) -> Any:
        """The log-density up to a constant."""
        return -0.5 * inputs**2


class Gumbel:
    """Standard Gumbel noise: `sample` and `log_prob` (`-x - exp(-x)`)."""

    def sample(self, key: Any, sample_shape: tuple = (), dtype: Any = float) -> Any:
        """`random.gumbel(key, sample_shape, dtype)`."""
        return random.gumbel(key, sample_shape, dtype)

    def log_prob(self, inputs: Any) -> Any:
        """The log-density."""
        return -inputs - jnp.exp(-inputs)


_GUMBEL = Gumbel()


def _magic_box(x: Any) -> Any:
    """1 in value, `x`'s derivative times 1 in gradient."""
    return jnp.exp(x - lax.stop_gradient(x))


def make_perturbed_fun(
    fun: Callable[[Any], Any],
    num_samples: int = 1000,
    sigma: Any = 0.1,
    noise: Any = _GUMBEL,
    use_baseline: bool = True,
) -> Callable[[Any, Any], Any]:
    """A stochastic, differentiable approximation of `fun` (`optax.perturbations`).

    Example::

        >>> import core, core.numpy as jnp
        >>> from optim.perturbations import make_perturbed_fun
        >>> fn = make_perturbed_fun(lambda x: jnp.sum(jnp.maximum(x, 0.0)), 1_000, 0.1)
        >>> g = core.grad(fn, argnums=1)(core.random.key(0), jnp.zeros(3))
        >>> [round(float(v), 2) for v in g]
        [0.69, 0.72, 0.58]

    Args:
      fun: a function from a pytree of arrays to a pytree of arrays (need not be
        differentiable).
      num_samples: how many perturbed evaluations are averaged.
      sigma: the scale of the perturbation.
      noise: an object with `sample(key, shape, dtype)` and `log_prob(x)` (`Gumbel()`,
        Optax's default, or `Normal()`).
      use_baseline: subtract `fun(x)` as a control variate.

    Returns:
      `perturbed(key, x)`, with `fun`'s output structure.
    """

    def one(key: Any, x: Any, baseline: Any) -> Any:
        sample = tree_lib.random_like(key, x, sampler=noise.sample)
        shifted = lax.stop_gradient(core.tree.map(lambda v, z: v + sigma * z, x, sample))
        sample = core.tree.map(lambda v, y: (y - v) / sigma, x, shifted)
        box = _magic_box(tree_lib.sum(core.tree.map(noise.log_prob, sample)))
        out = tree_lib.scale(box, fun(shifted))
        return tree_lib.add_scale(out, 1 - box, baseline) if use_baseline else out

    def perturbed(key: Any, x: Any) -> Any:
        baseline = fun(lax.stop_gradient(x)) if use_baseline else None
        keys = random.split(key, num_samples)
        out = core.vmap(one, in_axes=(0, None, None))(keys, x, baseline)
        return core.tree.map(lambda v: jnp.mean(v, axis=0), out)

    return perturbed


__all__ = ["Gumbel", "Normal", "make_perturbed_fun"]
