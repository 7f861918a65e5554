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


def _leaf_states(opt_state: OptimizerState) -> list[Any]:
    """The per-leaf state trees an :class:`OptimizerState` holds flattened."""
    return [
        tree_util.tree_unflatten(structure, leaves)
        for structure, leaves in zip(opt_state.subtree_defs, opt_state.packed_state)
    ]


def _packed(params_def: Any, leaf_states: list[Any]) -> OptimizerState:
    """An :class:`OptimizerState` holding `leaf_states` (one state tree per parameter leaf)."""
    packed, structures = [], []
    for state in leaf_states:
        leaves, structure = tree_util.tree_flatten(state)
        packed.append(leaves)
        structures.append(structure)
    return OptimizerState(packed, params_def, tuple(structures))


def _check_same_structure(expected: Any, got: Any, message: str) -> None:
    if expected != got:
        raise OptimizerTreeError(message.format(expected=expected, got=got))


_GRADS_MISMATCH = (
    "optimizer update function was passed a gradient tree that did not match the parameter "
    "tree structure with which it was initialized: parameter tree {expected} and grad tree "
    "{got}."
)
_STATE_MISMATCH = (
    "optimizer update function produced an output structure that did not match its input "
    "structure: input {expected} and output {got}."
)


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
    def make_tree_optimizer(*args: Any, **kwargs: Any) -> Optimizer:
        leaf_init, leaf_update, leaf_params = opt_maker(*args, **kwargs)

        def tree_init(params: Params) -> OptimizerState:
            leaves, params_def = tree_util.tree_flatten(params)
            return _packed(params_def, [leaf_init(leaf) for leaf in leaves])

        def tree_update(i: Step, grads: Updates, opt_state: OptimizerState) -> OptimizerState:
            grad_leaves, grads_def = tree_util.tree_flatten(grads)
            _check_same_structure(opt_state.tree_def, grads_def, _GRADS_MISMATCH)
            stepped = [
                leaf_update(i, g, state) for g, state in zip(grad_leaves, _leaf_states(opt_state))
            ]
            new_state = _packed(opt_state.tree_def, stepped)
            for before, after in zip(opt_state.subtree_defs, new_state.subtree_defs):
                _check_same_structure(before, after, _STATE_MISMATCH)
            return new_state._replace(subtree_defs=opt_state.subtree_defs)

        def tree_params(opt_state: OptimizerState) -> Params:
            leaves = [leaf_params(state) for state in _leaf_states(opt_state)]
            return tree_util.tree_unflatten(opt_state.tree_def, leaves)

        functools.update_wrapper(tree_init, leaf_init)
        functools.update_wrapper(tree_update, leaf_update)
        functools.update_wrapper(tree_params, leaf_params)
        return Optimizer(tree_init, tree_update, tree_params)

    return make_tree_optimizer


def _first(state: tuple) -> Any:
    return state[0]


def _leaf_is_state() -> tuple[Callable, Callable]:
    """``(init, get_params)`` of an optimizer whose per-leaf state is the leaf itself."""

    def init(x0):
        return x0

    def get_params(x):
        return x

    return init, get_params


def _with_slots(step_size: float | Schedule, slots: int, rule: Callable) -> tuple:
    """A per-leaf `(init, update, get_params)` whose state is `(x, *slots)`.

    The slots start at zero; `rule(lr, g, x, *slots)` returns the next `(x, *slots)` given the
    step size `lr` of the current step.
    """
    schedule = make_schedule(step_size)

    def init(x0):
        return (x0, *[jnp.zeros_like(x0) for _ in range(slots)])

    def update(i, g, state):
        return rule(schedule(i), g, *state)

    return init, update, _first


def _bias_corrected(i: Step, decay: float, like: Any) -> Any:
    """`1 - decay ** (i + 1)` with `decay` in `like`'s dtype (Adam's bias correction)."""
    return 1 - jnp.asarray(decay, like.dtype) ** (i + 1)


def _inv_sqrt_or_zero(total: Any) -> Any:
    return jnp.where(total > 0, 1.0 / jnp.sqrt(total), 0.0)


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
    schedule = make_schedule(step_size)
    init, get_params = _leaf_is_state()

    def update(i, g, x):
        return x - schedule(i) * g

    return Optimizer(init, update, get_params)


def _heavy_ball(step_size: float | Schedule, mass: float, lookahead: bool) -> tuple:
    def rule(lr, g, x, velocity):
        velocity = mass * velocity + g
        direction = mass * velocity + g if lookahead else velocity
        return x - lr * direction, velocity

    return _with_slots(step_size, 1, rule)


@optimizer
def momentum(step_size: float | Schedule, mass: float) -> tuple:
    """SGD with momentum: `v = mass * v + g; x -= step_size(i) * v`; state `(x, v)`.

    Args:
      step_size: a positive scalar or a schedule.
      mass: the momentum coefficient.

    Returns:
      The `Optimizer` triple.
    """
    return _heavy_ball(step_size, mass, lookahead=False)


@optimizer
def nesterov(step_size: float | Schedule, mass: float) -> tuple:
    """SGD with Nesterov momentum: `v = mass * v + g; x -= step_size(i) * (mass * v + g)`.

    Args:
      step_size: a positive scalar or a schedule.
      mass: the momentum coefficient.

    Returns:
      The `Optimizer` triple.
    """
    return _heavy_ball(step_size, mass, lookahead=True)


@optimizer
def adagrad(step_size: float | Schedule, momentum: float = 0.9) -> tuple:
    """Adagrad (Duchi et al. 2011) with momentum on the scaled gradient; state `(x, g_sq, m)`.

    Args:
      step_size: a positive scalar or a schedule.
      momentum: the momentum of the scaled gradient.

    Returns:
      The `Optimizer` triple.
    """

    def rule(lr, g, x, sum_sq, m):
        sum_sq = sum_sq + jnp.square(g)
        m = momentum * m + (1.0 - momentum) * (g * _inv_sqrt_or_zero(sum_sq))
        return x - lr * m, sum_sq, m

    return _with_slots(step_size, 2, rule)


def _decayed_square(avg: Any, g: Any, gamma: float) -> Any:
    return avg * gamma + jnp.square(g) * (1.0 - gamma)


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

    def rule(lr, g, x, avg_sq):
        avg_sq = _decayed_square(avg_sq, g, gamma)
        return x - lr * g / jnp.sqrt(avg_sq + eps), avg_sq

    return _with_slots(step_size, 1, rule)


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

    def rule(lr, g, x, avg_sq, mom):
        avg_sq = _decayed_square(avg_sq, g, gamma)
        mom = momentum * mom + lr * g / jnp.sqrt(avg_sq + eps)
        return x - mom, avg_sq, mom

    return _with_slots(step_size, 2, rule)


def _moment_optimizer(step_size: float | Schedule, b1: float, second: Callable) -> tuple:
    """Adam-family per-leaf rule over `(x, m, s)`.

    `second(i, lr, g, m, s)` gets the new first moment `m` and returns `(x_step, s)`.
    """
    schedule = make_schedule(step_size)

    def init(x0):
        return x0, jnp.zeros_like(x0), jnp.zeros_like(x0)

    def update(i, g, state):
        x, m, s = state
        m = (1 - b1) * g + b1 * m
        x_step, s = second(i, schedule(i), g, m, s)
        return x - x_step, m, s

    return init, update, _first


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

    def second(i, lr, g, m, v):
        v = (1 - b2) * jnp.square(g) + b2 * v
        m_hat = m / _bias_corrected(i, b1, m)
        v_hat = v / _bias_corrected(i, b2, m)
        return lr * m_hat / (jnp.sqrt(v_hat) + eps), v

    return _moment_optimizer(step_size, b1, second)


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

    def second(i, lr, g, m, u):
        u = jnp.maximum(b2 * u, jnp.abs(g))
        corrected_lr = lr / _bias_corrected(i, b1, m)
        return corrected_lr * m / (u + eps), u

    return _moment_optimizer(step_size, b1, second)


def _axis_profile(v: Any, axis: int, ndim: int) -> Any:
    """The vector `v` laid along `axis` of an `ndim`-array (size 1 on the other axes)."""
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return v.reshape(shape)


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
    schedule = make_schedule(step_size)

    def init(x0):
        original_shape = x0.shape
        x = jnp.atleast_1d(x0)
        per_axis = [jnp.zeros(size, dtype=x.dtype) for size in x.shape]
        return x, jnp.zeros_like(x), per_axis, original_shape

    def update(i, g, state):
        x, m, per_axis, original_shape = state
        profiles = [_axis_profile(v, axis, x.ndim) for axis, v in enumerate(per_axis)]
        smallest = profiles[0]
        for profile in profiles[1:]:
            smallest = jnp.minimum(smallest, profile)
        accum = smallest + jnp.square(g)
        scale = jnp.where(accum > 0, 1.0 / jnp.sqrt(accum), 0)
        m = momentum * m + (1.0 - momentum) * (g * scale)
        x = x - schedule(i) * m
        axes = range(x.ndim)
        per_axis = [accum.max(tuple(a for a in axes if a != keep)) for keep in axes]
        return x, m, per_axis, original_shape

    def get_params(state):
        return state[0].reshape(state[3])

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


def _progress(i: Step, decay_steps: float, whole: bool = False) -> Any:
    """How many `decay_steps` periods step `i` is into (floored when `whole`)."""
    periods = i / decay_steps
    return jnp.floor(periods) if whole else periods


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
        return step_size * decay_rate ** _progress(i, decay_steps)

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
        return step_size / (1 + decay_rate * _progress(i, decay_steps, staircase))

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

    def schedule(i):
        remaining = 1 - jnp.minimum(i, decay_steps) / decay_steps
        return final_step_size + remaining**power * (step_size - final_step_size)

    return schedule


def piecewise_constant(boundaries: Any, values: Any) -> Schedule:
    """`values[k]` where `k` is the number of boundaries the step is past.

    Args:
      boundaries: increasing step indices, one fewer than `values`.
      values: the step sizes.

    Returns:
      The schedule.
    """
    edges, levels = jnp.array(boundaries), jnp.array(values)
    if edges.ndim != 1 or levels.ndim != 1:
        raise ScheduleError("boundaries and values must be sequences")
    if edges.shape[0] + 1 != levels.shape[0]:
        raise ScheduleError("boundaries length must be one shorter than values length")

    def schedule(i):
        passed = jnp.sum(edges < i)
        return levels[passed]

    return schedule


def make_schedule(scalar_or_schedule: float | Schedule) -> Schedule:
    """A schedule from a callable (returned as is) or a scalar (:func:`constant`).

    Args:
      scalar_or_schedule: a scalar or a schedule.

    Returns:
      The schedule.
    """
    if not callable(scalar_or_schedule):
        if jnp.ndim(scalar_or_schedule) != 0:
            raise StepSizeTypeError(scalar_or_schedule)
        scalar_or_schedule = constant(scalar_or_schedule)
    return scalar_or_schedule


# ---------------------------------------------------------------------------------------------
# Utilities


def l2_norm(tree: Any) -> Any:
    """The l2 norm of all the leaves of a pytree of arrays together.

    Args:
      tree: a pytree of arrays.

    Returns:
      The norm, a scalar.
    """
    squares = [jnp.vdot(leaf, leaf) for leaf in tree_util.tree_leaves(tree)]
    return jnp.sqrt(sum(squares))


def clip_grads(grad_tree: Any, max_norm: float) -> Any:
    """Scales a pytree of gradients so its :func:`l2_norm` is at most `max_norm`.

    Args:
      grad_tree: a pytree of gradients.
      max_norm: the largest norm allowed.

    Returns:
      The clipped pytree.
    """
    norm = l2_norm(grad_tree)
    within, shrink = norm < max_norm, max_norm / norm

    def clip(g):
        return jnp.where(within, g, g * shrink)

    return tree_util.tree_map(clip, grad_tree)


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
    marked = [JoinPoint(state) for state in _leaf_states(opt_state)]
    return tree_util.tree_unflatten(opt_state.tree_def, marked)


def pack_optimizer_state(marked_pytree: Any) -> OptimizerState:
    """The inverse of :func:`unpack_optimizer_state`.

    Args:
      marked_pytree: a pytree whose leaves are `JoinPoint`s.

    Returns:
      The :class:`OptimizerState`.
    """
    marks, params_def = tree_util.tree_flatten(marked_pytree)
    if any(not isinstance(mark, JoinPoint) for mark in marks):
        raise OptimizerTreeError(
            "pack_optimizer_state expects a pytree whose leaves are all JoinPoints "
            "(what unpack_optimizer_state returns)."
        )
    return _packed(params_def, [mark.subtree for mark in marks])
