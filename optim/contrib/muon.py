"""Muon (Jordan et al., 2024): momentum orthogonalised by Newton-Schulz iterations.

`scale_by_muon` replaces each matrix's (Nesterov) momentum by an approximation of its nearest
semi-orthogonal matrix `U V^T`, computed by `ns_steps` quintic Newton-Schulz iterations
`X <- a X + (b A + c A A) X` with `A = X X^T` on the matrix normalised by `preconditioning`
('frobenius', 'spectral', or 'aol'/'schatten' rescalings inside the first iteration). Leaves of
higher rank are reshaped to (batch, reduction, output) by `MuonDimensionNumbers`. `muon` applies
it to 2-D parameters (or those given dimension numbers) and AdamW to the rest, via `partition`.
"""

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal, NamedTuple

import core
import core.numpy as jnp
from core import dtypes, lax, tree_util
from optim import tree
from optim.aliases import adamw
from optim.base import GradientTransformation, ScalarOrSchedule, init_empty_state
from optim.combine import chain, partition
from optim.errors import OptimizerArgumentError
from optim.numerics import safe_increment
from optim.transforms import add_decayed_weights, scale_by_learning_rate
from optim.wrappers import MaskedNode

_PRECONDITIONINGS = ("frobenius", "spectral", "aol", "schatten")
_DEFAULT_NS_COEFFS = (3.4445, -4.775, 2.0315)
_DION_NS_COEFFS = [
    (4.0848, -6.8946, 2.927),
    (3.9505, -6.3029, 2.6377),
    (3.7418, -5.5913, 2.3037),
    (2.8769, -3.1427, 1.2046),
    (2.8366, -3.0525, 1.2012),
]
_NS_COEFFS_PRESET_DICT = {"standard": _DEFAULT_NS_COEFFS, "dion": _DION_NS_COEFFS}
Preconditioning = Literal["frobenius", "spectral", "aol", "schatten"]


class MuonDimensionNumbers(NamedTuple):
    """Which axes of a parameter are the matrix's rows (reduction) and columns (output); the
    others are batch axes, each slice orthogonalised on its own."""

    reduction_axis: Sequence[int] | int = 0
    output_axis: Sequence[int] | int = 1


def _is_dim_nums(x: Any) -> bool:
    return isinstance(x, MuonDimensionNumbers)


def _normalize_axes(x: Any, dim_nums: MuonDimensionNumbers) -> tuple[tuple[int, ...], ...]:
    def norm(axes):
        axes = (axes,) if isinstance(axes, int) else axes
        return tuple(ax % x.ndim for ax in axes)

    return norm(dim_nums.reduction_axis), norm(dim_nums.output_axis)


def _compute_muon_reshape(x: Any, dim_nums: MuonDimensionNumbers) -> tuple[Callable, Callable]:
    if x.ndim < 2:
        raise OptimizerArgumentError(
            f"Muon optimized parameters must have rank >= 2, got x.ndim={x.ndim!r}; give "
            "vectors and scalars to Adam (muon's default labels do so)."
        )
    reduction, output = _normalize_axes(x, dim_nums)
    if set(reduction) & set(output):
        raise OptimizerArgumentError(
            f"Normalized reduction axes and output axes must be disjoint, got {reduction} and "
            f"{output}. Originally dim_nums={dim_nums!r} and x.shape={x.shape!r}"
        )
    batch = tuple(sorted(set(range(x.ndim)) - set(reduction) - set(output)))
    perm = batch + reduction + output
    inverse = tuple(sorted(range(x.ndim), key=lambda i: perm[i]))

    def shape(axes):
        return tuple(x.shape[ax] for ax in axes)

    flat = (math.prod(shape(batch)), math.prod(shape(reduction)), math.prod(shape(output)))
    unflat = shape(batch) + shape(reduction) + shape(output)
    return (
        lambda y: jnp.reshape(jnp.transpose(y, perm), flat),
        lambda y: jnp.transpose(jnp.reshape(y, unflat), inverse),
    )


def _fans(x: Any, dim_nums: MuonDimensionNumbers) -> tuple[int, int]:
    reduction, output = _normalize_axes(x, dim_nums)
    return math.prod(x.shape[a] for a in reduction), math.prod(x.shape[a] for a in output)


def _scale_for_width_transfer(update: Any, dim_nums: MuonDimensionNumbers) -> Any:
    fan_in, fan_out = _fans(update, dim_nums)
    return jnp.sqrt(jnp.maximum(1, fan_out / fan_in)) * update


def _scale_for_consistent_rms(update: Any, dim_nums: MuonDimensionNumbers, consistent_rms: Any):
    fan_in, fan_out = _fans(update, dim_nums)
    return jnp.sqrt(jnp.maximum(fan_in, fan_out)) * consistent_rms * update


def scale_by_shape(
    weight_dimension_numbers: Any = None, consistent_rms: Any = None
) -> GradientTransformation:
    """Scales each matrix update by `sqrt(max(1, fan_out/fan_in))` (or to a consistent RMS).

    Args:
      weight_dimension_numbers: a tree of `MuonDimensionNumbers` (or a function of the updates
        giving it).
      consistent_rms: if given, scale by `sqrt(max(fan_in, fan_out)) * consistent_rms` instead.

    Returns:
      A stateless `GradientTransformation`.
    """

    def update_fn(updates, state, params=None):
        del params
        dim_nums = weight_dimension_numbers
        if callable(dim_nums):
            dim_nums = dim_nums(updates)
        if consistent_rms is not None:
            scale = functools.partial(_scale_for_consistent_rms, consistent_rms=consistent_rms)
        else:
            scale = _scale_for_width_transfer
        return tree_util.tree_map(scale, updates, dim_nums, is_leaf=_is_dim_nums), state

    return GradientTransformation(init_empty_state, update_fn)


def _ns_step(x: Any, coeffs: Any) -> Any:
    a = x @ jnp.conj(x.T)
    b = coeffs[1] * a + coeffs[2] * a @ a
    return coeffs[0] * x + b @ x


def _aol_first_step(x: Any, coeffs: Any, eps: Any = 1e-8) -> Any:
    a = x @ jnp.conj(x.T)
    s = jnp.expand_dims(lax.rsqrt(jnp.clip(jnp.abs(a).sum(axis=-1), min=eps)), -1)
    x, a = x * s, a * s * jnp.swapaxes(s, -1, -2)
    b = coeffs[1] * a + coeffs[2] * a @ a
    return coeffs[0] * x + b @ x


def _schatten_first_step(x: Any, coeffs: Any, eps: Any = 1e-8) -> Any:
    a = x @ x.T
    s = jnp.expand_dims(
        lax.rsqrt(jnp.clip(jnp.linalg.norm(a, ord="fro", axis=(-2, -1)), min=eps)), (0, -1)
    )
    x, a = x * s, a * s**2
    b = coeffs[1] * a + coeffs[2] * a @ a
    return coeffs[0] * x + b @ x


def _first_step_iterator(first: Callable) -> Callable:
    def step(i, x, coeffs):
        return lax.cond(i == 0, lambda y: first(y, coeffs), lambda y: _ns_step(y, coeffs), x)

    return step


def _base_iterator(i, x, coeffs):
    del i
    return _ns_step(x, coeffs)


_NS_ITERATORS = {
    "frobenius": _base_iterator,
    "spectral": _base_iterator,
    "aol": _first_step_iterator(_aol_first_step),
    "schatten": _first_step_iterator(_schatten_first_step),
}


def orthogonalize_via_newton_schulz(
    x: Any,
    ns_coeffs: Any,
    ns_steps: Any = 5,
    preconditioning: Preconditioning = "frobenius",
    eps: Any = 1e-8,
    dimension_numbers: MuonDimensionNumbers | None = None,
) -> Any:
    """Approximates the semi-orthogonal factor `U V^T` of `x` by Newton-Schulz iterations.

    Args:
      x: a matrix, or an array with `dimension_numbers`.
      ns_coeffs: the `(a, b, c)` coefficients, shape (3,), or one row per step, shape (n, 3).
      ns_steps: number of iterations (with shape (3,) coefficients).
      preconditioning: how `x` is normalised first.
      eps: keeps the normalisation finite.
      dimension_numbers: the matrix axes of a higher-rank `x`.

    Returns:
      An array like `x`.

    Raises:
      OptimizerArgumentError: a non-matrix without dimension numbers, coefficients of the wrong
        shape, or an unknown preconditioning (a `ValueError`, as in Optax).
    """
    if x.ndim != 2 and not isinstance(dimension_numbers, MuonDimensionNumbers):
        raise OptimizerArgumentError(
            f"Input must have shape (m, n) or weight dimension numbers must be provided. Got "
            f"shape={x.shape} and dimension_numbers={dimension_numbers!r}."
        )
    if x.ndim == 2:
        dimension_numbers = MuonDimensionNumbers(reduction_axis=0, output_axis=1)
    if ns_coeffs.ndim > 2 or ns_coeffs.shape[-1] != 3:
        raise OptimizerArgumentError(
            f"Newton-Schulz coefficients must have shape (3,) or (n, 3), got {ns_coeffs.shape}"
        )
    if preconditioning not in _PRECONDITIONINGS:
        raise OptimizerArgumentError(
            f"Unknown preconditioning {preconditioning}; use one of {_PRECONDITIONINGS}."
        )
    iterate = _NS_ITERATORS[preconditioning]

    def orthogonalize(m):
        transposed = m.shape[0] > m.shape[1]
        if transposed:
            m = m.T
        if preconditioning == "frobenius":
            m = m / (jnp.linalg.norm(m, ord="fro") + eps)
        elif preconditioning == "spectral":
            m = m / (jnp.linalg.norm(m, ord=2) + eps)
        coeffs = ns_coeffs.astype(m.dtype)
        if coeffs.ndim == 1:
            m = lax.fori_loop(0, ns_steps, lambda i, y: iterate(i, y, coeffs), m, unroll=True)
        else:

            def body(carry, c):
                i, y = carry
                return (i + 1, iterate(i, y, c)), None

            (_, m), _ = lax.scan(body, (jnp.asarray(0, dtype=jnp.int32), m), coeffs)
        return m.T if transposed else m

    reshape, inverse = _compute_muon_reshape(x, dimension_numbers)
    return inverse(core.vmap(orthogonalize)(reshape(x)))


class MuonState(NamedTuple):
    """State of `scale_by_muon`."""

    count: Any  # shape=(), dtype=int32.
    mu: Any
    ns_coeffs: Any


def scale_by_muon(
    ns_coeffs: Any = _DEFAULT_NS_COEFFS,
    ns_steps: Any = 5,
    beta: Any = 0.95,
    eps: Any = 1e-8,
    mu_dtype: Any = None,
    *,
    nesterov: bool = True,
    adaptive: bool = False,
    preconditioning: Preconditioning = "frobenius",
    weight_dimension_numbers: Any = None,
) -> GradientTransformation:
    """Muon's rescaling: orthogonalised (Nesterov) momentum.

    Args:
      ns_coeffs: Newton-Schulz coefficients, `(a, b, c)` or one triple per step.
      ns_steps: number of iterations.
      beta: momentum decay.
      eps: keeps the normalisation finite.
      mu_dtype: dtype of the momentum.
      nesterov: use Nesterov momentum.
      adaptive: scale each update by `<mu_hat, O>` (the dual norm).
      preconditioning: see `orthogonalize_via_newton_schulz`.
      weight_dimension_numbers: a tree of `MuonDimensionNumbers` (or a function of the updates)
        for parameters that are not matrices.

    Returns:
      A `GradientTransformation` with state `MuonState(count, mu, ns_coeffs)`.
    """
    mu_dtype = None if mu_dtype is None else dtypes.canonicalize_dtype(mu_dtype)

    def init_fn(params):
        coeffs = jnp.asarray(ns_coeffs)
        if coeffs.ndim > 2 or coeffs.shape[-1] != 3:
            raise OptimizerArgumentError(
                f"ns_coeffs must have shape (3,) or (n, 3), got {coeffs.shape}"
            )
        if coeffs.ndim == 2:
            if not coeffs.shape[0] <= ns_steps:
                raise OptimizerArgumentError(f"Not enough coeffs to perform {ns_steps} steps")
            coeffs = coeffs[-ns_steps:]
        return MuonState(
            count=jnp.zeros([], jnp.int32),
            mu=tree.zeros_like(params, dtype=mu_dtype),
            ns_coeffs=coeffs,
        )

    def update_fn(updates, state, params=None):
        del params
        dim_nums = weight_dimension_numbers
        if callable(dim_nums):
            dim_nums = dim_nums(updates)
        mu = tree.update_moment(updates, state.mu, beta, 1)
        count_inc = safe_increment(state.count)
        if nesterov:
            mu_hat = tree_util.tree_map(
                lambda m, g: beta * m + (1 - beta) * g,
                tree.bias_correction(mu, beta, safe_increment(count_inc)),
                tree.bias_correction(updates, beta, count_inc),
            )
        else:
            mu_hat = tree.bias_correction(mu, beta, count_inc)
        updates = tree_util.tree_map(
            lambda x, d: orthogonalize_via_newton_schulz(
                x, state.ns_coeffs, ns_steps, preconditioning, eps, d
            ),
            mu_hat,
            dim_nums,
            is_leaf=_is_dim_nums,
        )
        if adaptive:
            updates = tree_util.tree_map(lambda x, y: jnp.sum(jnp.conj(x) * y) * y, mu_hat, updates)
        mu = tree.cast(mu, mu_dtype)
        return updates, MuonState(count=count_inc, mu=mu, ns_coeffs=state.ns_coeffs)

    return GradientTransformation(init_fn, update_fn)


def muon(
    learning_rate: ScalarOrSchedule,
    ns_coeffs: Any = _DEFAULT_NS_COEFFS,
    ns_steps: Any = 5,
    beta: Any = 0.95,
    eps: Any = 1e-8,
    weight_decay: Any = 0.0,
    weight_decay_mask: Any = None,
    mu_dtype: Any = None,
    *,
    nesterov: bool = True,
    adaptive: bool = False,
    preconditioning: Preconditioning = "frobenius",
    adam_b1: Any = 0.9,
    adam_b2: Any = 0.999,
    adam_eps_root: Any = 0.0,
    adam_weight_decay: Any = 0.0,
    adam_learning_rate: ScalarOrSchedule | None = None,
    muon_weight_dimension_numbers: Any = None,
    consistent_rms: Any = None,
) -> GradientTransformation:
    """The Muon optimizer: Muon for matrices, AdamW for the other parameters.

    Args:
      learning_rate: a float or schedule.
      ns_coeffs: Newton-Schulz coefficients, or a preset name ('standard', 'dion').
      ns_steps: see `scale_by_muon`.
      beta: see `scale_by_muon`.
      eps: see `scale_by_muon` (also Adam's eps).
      weight_decay: Muon's decoupled weight decay.
      weight_decay_mask: which Muon parameters get weight decay.
      mu_dtype: see `scale_by_muon`.
      nesterov: see `scale_by_muon` (also Adam's).
      adaptive: see `scale_by_muon`.
      preconditioning: see `scale_by_muon`.
      adam_b1: Adam's b1.
      adam_b2: Adam's b2.
      adam_eps_root: Adam's eps_root.
      adam_weight_decay: Adam's weight decay.
      adam_learning_rate: Adam's learning rate (default `learning_rate`).
      muon_weight_dimension_numbers: a tree (or function of the params) of
        `MuonDimensionNumbers`, None for the leaves Adam should take; default: 2-D leaves.
      consistent_rms: see `scale_by_shape`.

    Returns:
      A `GradientTransformation` (a `partition` into 'muon' and 'adam').

    Raises:
      OptimizerArgumentError: an unknown preset name (a `ValueError`).
    """
    if adam_learning_rate is None:
        adam_learning_rate = learning_rate
    if isinstance(ns_coeffs, str):
        if ns_coeffs not in _NS_COEFFS_PRESET_DICT:
            raise OptimizerArgumentError(
                f"Unknown ns_coeff preset string: {ns_coeffs}; use one of "
                f"{sorted(_NS_COEFFS_PRESET_DICT)}."
            )
        ns_coeffs = _NS_COEFFS_PRESET_DICT[ns_coeffs]
    dim_nums_arg = muon_weight_dimension_numbers

    def resolve(params):
        return dim_nums_arg(params) if callable(dim_nums_arg) else dim_nums_arg

    if dim_nums_arg is None:
        dim_nums_arg = MuonDimensionNumbers()

        def param_labels(params):
            return tree_util.tree_map(lambda x: "muon" if x.ndim == 2 else "adam", params)

    else:

        def param_labels(params):
            return tree_util.tree_map(
                lambda d, x: tree_util.tree_map(lambda _: "muon" if d is not None else "adam", x),
                resolve(params),
                params,
                is_leaf=lambda x: x is None or _is_dim_nums(x),
            )

    def muon_dim_nums(params):
        mask = tree_util.tree_map(lambda label: label == "muon", param_labels(params))
        return tree_util.tree_map(
            lambda d, sub: tree_util.tree_map(lambda m: d if m else MaskedNode(), sub),
            resolve(params),
            mask,
            is_leaf=lambda x: x is None or _is_dim_nums(x) or isinstance(x, MaskedNode),
        )

    return partition(
        transforms={
            "muon": chain(
                scale_by_muon(
                    ns_coeffs=ns_coeffs,
                    ns_steps=ns_steps,
                    beta=beta,
                    eps=eps,
                    mu_dtype=mu_dtype,
                    nesterov=nesterov,
                    adaptive=adaptive,
                    preconditioning=preconditioning,
                    weight_dimension_numbers=muon_dim_nums,
                ),
                scale_by_shape(muon_dim_nums, consistent_rms),
                add_decayed_weights(weight_decay, weight_decay_mask),
                scale_by_learning_rate(learning_rate),
            ),
            "adam": adamw(
                learning_rate=adam_learning_rate,
                b1=adam_b1,
                b2=adam_b2,
                eps=eps,
                eps_root=adam_eps_root,
                weight_decay=adam_weight_decay,
                mu_dtype=mu_dtype,
                nesterov=nesterov,
            ),
        },
        param_labels=param_labels,
    )
