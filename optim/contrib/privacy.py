"""Differentially private SGD (Abadi et al., 2016): per-example clipping plus Gaussian noise.

`differentially_private_aggregate` expects gradients with a leading batch axis (one gradient per
example, e.g. from `core.vmap(core.grad(loss), in_axes=(None, 0))`), clips each example's global
norm to `l2_norm_clip`, sums, adds noise of standard deviation `l2_norm_clip * noise_multiplier`
and divides by the batch size. `optim.dpsgd` (also top-level, as in Optax) chains it with
momentum and the learning rate.
"""

from typing import Any, NamedTuple

from core import random, tree_util
from optim.base import GradientTransformation, ScalarOrSchedule, identity
from optim.combine import chain
from optim.transforms import per_example_global_norm_clip, scale_by_learning_rate, trace
from optim.utils import canonicalize_key, key_or_seed


class DifferentiallyPrivateAggregateState(NamedTuple):
    """State of `differentially_private_aggregate`: the noise key."""

    rng_key: Any


def differentially_private_aggregate(
    l2_norm_clip: Any, noise_multiplier: Any, key: Any = None, *, seed: int | None = None
) -> GradientTransformation:
    """Clips per-example gradients, sums them, adds Gaussian noise and averages.

    Args:
      l2_norm_clip: the largest global norm of one example's gradient.
      noise_multiplier: the noise's standard deviation relative to `l2_norm_clip`.
      key: a PRNG key or an integer seed of the noise (None: key 0, with a warning as in Optax).
      seed: deprecated integer seed (warns; give `key` instead).

    Returns:
      A `GradientTransformation` with state `DifferentiallyPrivateAggregateState(rng_key)`.

    Raises:
      OptimizerArgumentError: both `key` and `seed` given (a `ValueError`).
    """
    key = canonicalize_key(key_or_seed(key, seed))
    noise_std = l2_norm_clip * noise_multiplier

    def init_fn(params):
        del params
        return DifferentiallyPrivateAggregateState(rng_key=key)

    def update_fn(updates, state, params=None):
        del params
        leaves, treedef = tree_util.tree_flatten(updates)
        bsize = leaves[0].shape[0]
        clipped, _ = per_example_global_norm_clip(leaves, l2_norm_clip)
        new_key, *keys = random.split(state.rng_key, len(leaves) + 1)
        noised = [
            (g + noise_std * random.normal(k, g.shape, g.dtype)) / bsize
            for g, k in zip(clipped, keys)
        ]
        return tree_util.tree_unflatten(treedef, noised), DifferentiallyPrivateAggregateState(
            new_key
        )

    return GradientTransformation(init_fn, update_fn)


def dpsgd(
    learning_rate: ScalarOrSchedule,
    l2_norm_clip: Any,
    noise_multiplier: Any,
    seed: int,
    momentum: Any = None,
    nesterov: bool = False,
) -> GradientTransformation:
    """The DP-SGD optimizer.

    Args:
      learning_rate: a float or schedule.
      l2_norm_clip: see `differentially_private_aggregate`.
      noise_multiplier: see `differentially_private_aggregate`.
      seed: the integer seed of the noise.
      momentum: momentum decay (None: plain SGD).
      nesterov: Nesterov momentum.

    Returns:
      A `GradientTransformation` (a `chain`).
    """
    return chain(
        differentially_private_aggregate(
            l2_norm_clip=l2_norm_clip, noise_multiplier=noise_multiplier, seed=seed
        ),
        trace(decay=momentum, nesterov=nesterov) if momentum is not None else identity(),
        scale_by_learning_rate(learning_rate),
    )
