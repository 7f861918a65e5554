"""JAX's classic optimizer library (`jax.example_libraries.optimizers`).

An optimizer is an `Optimizer(init_fn, update_fn, params_fn)` triple, usually unpacked as
`opt_init, opt_update, get_params = optimizers.adam(1e-3)`:

* `opt_init(params) -> opt_state`;
* `opt_update(step, grads, opt_state) -> opt_state` (`step` is the 0-based step index that
  schedules and Adam's bias correction read);
* `get_params(opt_state) -> params`.

Each optimizer is written for one array by the `@optimizer` decorator's contract and lifted to
pytrees: the state is an `OptimizerState(packed_state, tree_def, subtree_defs)` pytree holding
the flattened per-leaf states, so it passes through `jit` and `grad`. The update formulas,
defaults and state layouts are JAX's (the same trajectories); `unpack_optimizer_state` /
`pack_optimizer_state` convert states to a nested pytree of `JoinPoint`s for serialization.
For new code, `optim` (the Optax analogue) is the fuller library.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Callable
from typing import Any, NamedTuple

import core.numpy as jnp
from core import tree_util
from core.example_libraries.errors import OptimizerTreeError, ScheduleError, StepSizeTypeError

Array = Any
Params = Any
State = Any
Updates = Any
Step = int
Schedule = Callable[[Step], Any]

OptimizerState = namedtuple("OptimizerState", ["packed_state", "tree_def", "subtree_defs"])
tree_util.register_pytree_node(
    OptimizerState,
    lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
    lambda aux, children: OptimizerState(children[0], aux[0], aux[1]),
)

InitFn = Callable[[Params], OptimizerState]
UpdateFn = Callable[[Step, Updates, OptimizerState], OptimizerState]
ParamsFn = Callable[[OptimizerState], Params]


class Optimizer(NamedTuple):
    """The `(init_fn, update_fn, params_fn)` triple an optimizer constructor returns."""

    init_fn: InitFn
    update_fn: UpdateFn
    params_fn: ParamsFn


def _flatten_all(trees: list[Any]) -> tuple[list[list[Any]], tuple[Any, ...]]:
    flat = [tree_util.tree_flatten(t) for t in trees]
    return [leaves for leaves, _ in flat], tuple(treedef for _, treedef in flat)


def optimizer(opt_maker: Callable[..., tuple[Callable, Callable, Callable]]) -> Callable:
    """Lifts an optimizer written for single arrays to pytrees of arrays.

    Args:
      opt_maker: returns `(init, update, get_params)` working on one array: `init(x0)` gives
        that leaf's state (any pytree), `update(i, g, state)` the next state, `get_params(state)`
        the array.

    Returns:
      A function with `opt_maker`'s arguments returning an :class:`Optimizer` over pytrees,
      whose state is an :class:`OptimizerState`.
    """

    @functools.wraps(opt_maker)
    def tree_opt_maker(*args: Any, **kwargs: Any) -> Optimizer:
        init, update, get_params = opt_maker(*args, **kwargs)

        @functools.wraps(init)
        def tree_init(x0_tree: Params) -> OptimizerState:
            x0_flat, tree = tree_util.tree_flatten(x0_tree)
            states_flat, subtrees = _flatten_all([init(x0) for x0 in x0_flat])
            return OptimizerState(states_flat, tree, subtrees)

        @functools.wraps(update)
        def tree_update(i: Step, grad_tree: Updates, opt_state: OptimizerState) -> OptimizerState:
            states_flat, tree, subtrees = opt_state
            grad_flat, grad_tree_def = tree_util.tree_flatten(grad_tree)
            if grad_tree_def != tree:
                raise OptimizerTreeError(
                    "optimizer update function was passed a gradient tree that did not match "
                    f"the parameter tree structure with which it was initialized: parameter "
                    f"tree {tree} and grad tree {grad_tree_def}."
                )
            states = [tree_util.tree_unflatten(d, s) for d, s in zip(subtrees, states_flat)]
            new_flat, new_subtrees = _flatten_all(
                [update(i, g, s) for g, s in zip(grad_flat, states)]
            )
            for old, new in zip(subtrees, new_subtrees):
                if old != new:
                    raise OptimizerTreeError(
                        "optimizer update function produced an output structure that did not "
                        f"match its input structure: input {old} and output {new}."
                    )
            return OptimizerState(new_flat, tree, subtrees)

        @functools.wraps(get_params)
        def tree_get_params(opt_state: OptimizerState) -> Params:
            states_flat, tree, subtrees = opt_state
            states = [tree_util.tree_unflatten(d, s) for d, s in zip(subtrees, states_flat)]
            return tree_util.tree_unflatten(tree, [get_params(s) for s in states])

        return Optimizer(tree_init, tree_update, tree_get_params)

    return tree_opt_maker


def _first(state: tuple) -> Any:
    return state[0]


def _init_with_zeros(count: int) -> Callable[[Any], tuple]:
    """The per-leaf `init` of a state `(x0, zeros, ...)` with `count` zero accumulators."""

    def init(x0):
        return (x0, *(jnp.zeros_like(x0) for _ in range(count)))

    return init


# ---------------------------------------------------------------------------------------------
# Optimizers. Docstrings: `step_size` is a positive scalar or a schedule (step -> scalar).


@optimizer
def sgd(step_size: float | Schedule) -> Optimizer:
    """Stochastic gradient descent: `x - step_size(i) * g`; the state is the params.

    Args:
      step_size: a positive scalar or a schedule (step -> scalar).

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def init(x0):
        return x0

    def update(i, g, x):
        return x - step_size(i) * g

    def get_params(x):
        return x

    return Optimizer(init, update, get_params)


def _momentum(step_size: float | Schedule, mass: float, nesterov: bool) -> tuple:
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        step = mass * velocity + g if nesterov else velocity
        return x - step_size(i) * step, velocity

    return _init_with_zeros(1), update, _first


@optimizer
def momentum(step_size: float | Schedule, mass: float) -> tuple:
    """SGD with momentum: `v = mass * v + g; x -= step_size(i) * v`; state `(x, v)`.

    Args:
      step_size: a positive scalar or a schedule.
      mass: the momentum coefficient.

    Returns:
      The `Optimizer` triple.
    """
    return _momentum(step_size, mass, nesterov=False)


@optimizer
def nesterov(step_size: float | Schedule, mass: float) -> tuple:
    """SGD with Nesterov momentum: `v = mass * v + g; x -= step_size(i) * (mass * v + g)`.

    Args:
      step_size: a positive scalar or a schedule.
      mass: the momentum coefficient.

    Returns:
      The `Optimizer` triple.
    """
    return _momentum(step_size, mass, nesterov=True)


@optimizer
def adagrad(step_size: float | Schedule, momentum: float = 0.9) -> tuple:
    """Adagrad (Duchi et al. 2011) with momentum on the scaled gradient; state `(x, g_sq, m)`.

    Args:
      step_size: a positive scalar or a schedule.
      momentum: the momentum of the scaled gradient.

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + jnp.square(g)
        g_sq_inv_sqrt = jnp.where(g_sq > 0, 1.0 / jnp.sqrt(g_sq), 0.0)
        m = (1.0 - momentum) * (g * g_sq_inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m

    return _init_with_zeros(2), update, _first


@optimizer
def rmsprop(step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8) -> tuple:
    """RMSProp: `x -= step_size(i) * g / sqrt(avg_sq_grad + eps)`; state `(x, avg_sq_grad)`.

    Args:
      step_size: a positive scalar or a schedule.
      gamma: the decay of the squared-gradient average.
      eps: added inside the square root.

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / jnp.sqrt(avg_sq_grad + eps), avg_sq_grad

    return _init_with_zeros(1), update, _first


@optimizer
def rmsprop_momentum(
    step_size: float | Schedule, gamma: float = 0.9, eps: float = 1e-8, momentum: float = 0.9
) -> tuple:
    """RMSProp with momentum on the scaled step; state `(x, avg_sq_grad, mom)`.

    Args:
      step_size: a positive scalar or a schedule.
      gamma: the decay of the squared-gradient average.
      eps: added inside the square root.
      momentum: the momentum of the scaled step.

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + jnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / jnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom

    return _init_with_zeros(2), update, _first


@optimizer
def adam(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> tuple:
    """Adam with bias correction `1 - b ** (i + 1)`; state `(x, m, v)`.

    Args:
      step_size: a positive scalar or a schedule.
      b1: the decay of the first moment.
      b2: the decay of the second moment.
      eps: added to the root of the second moment.

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * jnp.square(g) + b2 * v
        mhat = m / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))
        vhat = v / (1 - jnp.asarray(b2, m.dtype) ** (i + 1))
        return x - step_size(i) * mhat / (jnp.sqrt(vhat) + eps), m, v

    return _init_with_zeros(2), update, _first


@optimizer
def adamax(
    step_size: float | Schedule, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8
) -> tuple:
    """AdaMax (Adam with the infinity norm); state `(x, m, u)`.

    Args:
      step_size: a positive scalar or a schedule.
      b1: the decay of the first moment.
      b2: the decay of the infinity norm.
      eps: added to the norm.

    Returns:
      The `Optimizer` triple.
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = jnp.maximum(b2 * u, jnp.abs(g))
        lr = step_size(i) / (1 - jnp.asarray(b1, m.dtype) ** (i + 1))
        return x - lr * m / (u + eps), m, u

    return _init_with_zeros(2), update, _first


@optimizer
def sm3(step_size: float | Schedule, momentum: float = 0.9) -> tuple:
    """SM3 (Anil et al. 2019): one accumulator vector per axis; state `(x, m, vs, x_shape)`.

    Args:
      step_size: a positive scalar or a schedule.
      momentum: the momentum of the scaled gradient.

    Returns:
      The `Optimizer` triple (its state holds the shape as ints: keep the update outside
      `jit`, as in JAX).
    """
    step_size = make_schedule(step_size)

    def along(ndim: int, v: Any, axis: int) -> Any:
        # `v` (one axis) broadcast along `axis` of an ndim array.
        return v[tuple(slice(None) if d == axis else None for d in range(ndim))]

    def init(x0):
        x_shape = x0.shape
        x0 = jnp.atleast_1d(x0)
        return x0, jnp.zeros_like(x0), [jnp.zeros(n, dtype=x0.dtype) for n in x0.shape], x_shape

    def update(i, g, state):
        x, m, vs, x_shape = state
        vs = [along(g.ndim, v, axis) for axis, v in enumerate(vs)]
        accum = functools.reduce(jnp.minimum, vs) + jnp.square(g)
        accum_inv_sqrt = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = (1.0 - momentum) * (g * accum_inv_sqrt) + momentum * m
        x = x - step_size(i) * m
        others = [tuple(d for d in range(x.ndim) if d != axis) for axis in range(x.ndim)]
        return x, m, [accum.max(axes) for axes in others], x_shape

    def get_params(state):
        x, _, _, x_shape = state
        return x.reshape(x_shape)

    return init, update, get_params


# ---------------------------------------------------------------------------------------------
# Learning-rate schedules: functions of the step index.


def constant(step_size: float) -> Schedule:
    """The schedule returning `step_size` at every step.

    Args:
      step_size: the value.

    Returns:
      The schedule (step -> value).
    """

    def schedule(i):
        return step_size

    return schedule


def exponential_decay(step_size: float, decay_steps: float, decay_rate: float) -> Schedule:
    """The schedule `step_size * decay_rate ** (i / decay_steps)`.

    Args:
      step_size: the value at step 0.
      decay_steps: the steps over which the value is multiplied by `decay_rate`.
      decay_rate: the factor.

    Returns:
      The schedule.
    """

    def schedule(i):
        return step_size * decay_rate ** (i / decay_steps)

    return schedule


def inverse_time_decay(
    step_size: float, decay_steps: float, decay_rate: float, staircase: bool = False
) -> Schedule:
    """The schedule `step_size / (1 + decay_rate * i / decay_steps)`.

    Args:
      step_size: the value at step 0.
      decay_steps: the step scale.
      decay_rate: the decay per `decay_steps`.
      staircase: take the floor of `i / decay_steps`.

    Returns:
      The schedule.
    """

    def schedule(i):
        ratio = jnp.floor(i / decay_steps) if staircase else i / decay_steps
        return step_size / (1 + decay_rate * ratio)

    return schedule


def polynomial_decay(
    step_size: float, decay_steps: float, final_step_size: float, power: float = 1.0
) -> Schedule:
    """From `step_size` to `final_step_size` over `decay_steps` as
    `(1 - i / decay_steps) ** power`, then constant.

    Args:
      step_size: the value at step 0.
      decay_steps: the steps to reach `final_step_size`.
      final_step_size: the value from `decay_steps` on.
      power: the polynomial's power.

    Returns:
      The schedule.
    """

    def schedule(step_num):
        step_num = jnp.minimum(step_num, decay_steps)
        step_mult = (1 - step_num / decay_steps) ** power
        return step_mult * (step_size - final_step_size) + final_step_size

    return schedule


def piecewise_constant(boundaries: Any, values: Any) -> Schedule:
    """`values[k]` where `k` is the number of boundaries the step is past.

    Args:
      boundaries: increasing step indices, one fewer than `values`.
      values: the step sizes.

    Returns:
      The schedule.
    """
    boundaries = jnp.array(boundaries)
    values = jnp.array(values)
    if not boundaries.ndim == values.ndim == 1:
        raise ScheduleError("boundaries and values must be sequences")
    if not boundaries.shape[0] == values.shape[0] - 1:
        raise ScheduleError("boundaries length must be one shorter than values length")

    def schedule(i):
        return values[jnp.sum(i > boundaries)]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule from a callable (returned as is) or a scalar (:func:`constant`).

    Args:
      scalar_or_schedule: a scalar or a schedule.

    Returns:
      The schedule.
    """
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if jnp.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise StepSizeTypeError(scalar_or_schedule)


# ---------------------------------------------------------------------------------------------
# Utilities


def l2_norm(tree: Any) -> Any:
    """The l2 norm of all the leaves of a pytree of arrays together.

    Args:
      tree: a pytree of arrays.

    Returns:
      The norm, a scalar.
    """
    leaves = tree_util.tree_leaves(tree)
    return jnp.sqrt(sum(jnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree: Any, max_norm: float) -> Any:
    """Scales a pytree of gradients so its :func:`l2_norm` is at most `max_norm`.

    Args:
      grad_tree: a pytree of gradients.
      max_norm: the largest norm allowed.

    Returns:
      The clipped pytree.
    """
    norm = l2_norm(grad_tree)
    return tree_util.tree_map(
        lambda g: jnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree
    )


class JoinPoint:
    """Marks the boundary between the parameter tree and a leaf's state tree (a pytree leaf)."""

    def __init__(self, subtree: Any) -> None:
        self.subtree = subtree

    def __iter__(self):
        yield self.subtree


def unpack_optimizer_state(opt_state: OptimizerState) -> Any:
    """The parameter tree with each leaf replaced by a `JoinPoint` holding its state tree.

    Args:
      opt_state: an :class:`OptimizerState`.

    Returns:
      A nested pytree without treedefs (e.g. for serialization).
    """
    states_flat, tree_def, subtree_defs = opt_state
    subtrees = [tree_util.tree_unflatten(d, s) for d, s in zip(subtree_defs, states_flat)]
    return tree_util.tree_unflatten(tree_def, [JoinPoint(s) for s in subtrees])


def pack_optimizer_state(marked_pytree: Any) -> OptimizerState:
    """The inverse of :func:`unpack_optimizer_state`.

    Args:
      marked_pytree: a pytree whose leaves are `JoinPoint`s.

    Returns:
      The :class:`OptimizerState`.
    """
    sentinels, tree_def = tree_util.tree_flatten(marked_pytree)
    if not all(isinstance(s, JoinPoint) for s in sentinels):
        raise OptimizerTreeError(
            "pack_optimizer_state expects a pytree whose leaves are all JoinPoints "
            "(what unpack_optimizer_state returns)."
        )
    states_flat, subtree_defs = _flatten_all([s.subtree for s in sentinels])
    return OptimizerState(states_flat, tree_def, subtree_defs)
