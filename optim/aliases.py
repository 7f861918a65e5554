"""Ready-made optimizers, each nothing but a `chain` of transformations with Optax's defaults.

Every alias returns updates to *add* (`scale_by_learning_rate` negates), and accepts a float or a
schedule as `learning_rate`. Defaults that differ from PyTorch are listed in `optim/README.md`.

Weight-decay masks: `mask` (or `weight_decay_mask`, as in Optax) is a pytree of bools or a
function of the params; the usual recipe excludes biases and norm scales::

    mask = lambda params: core.tree_util.tree_map(lambda p: p.ndim > 1, params)
    tx = optim.adamw(1e-3, weight_decay=1e-2, mask=mask)
"""

import functools
import warnings
from typing import Any

import core.numpy as jnp
from optim.base import GradientTransformationExtraArgs, ScalarOrSchedule, identity
from optim.combine import chain
from optim.errors import OptimizerArgumentError
from optim.linesearch import scale_by_zoom_linesearch
from optim.transforms.accumulation import ema, trace
from optim.transforms.adam import (
    scale_by_adam,
    scale_by_adamax,
    scale_by_adan,
    scale_by_amsgrad,
    scale_by_belief,
    scale_by_lion,
    scale_by_novograd,
    scale_by_radam,
    scale_by_yogi,
)
from optim.transforms.adding import add_decayed_weights, add_noise
from optim.transforms.clipping import clip_by_block_rms
from optim.transforms.factorized import scale_by_factored_rms
from optim.transforms.lbfgs import scale_by_lbfgs
from optim.transforms.rms import (
    scale_by_adadelta,
    scale_by_rms,
    scale_by_rss,
    scale_by_sm3,
    scale_by_stddev,
)
from optim.transforms.scaling import (
    scale,
    scale_by_learning_rate,
    scale_by_optimistic_gradient,
    scale_by_param_block_rms,
    scale_by_polyak,
    scale_by_rprop,
    scale_by_sign,
    scale_by_trust_ratio,
)
from optim.wrappers import masked

Tx = GradientTransformationExtraArgs

# Optax's default line search for `lbfgs` (built once, at import, as in Optax).
_DEFAULT_LBFGS_LINESEARCH = scale_by_zoom_linesearch(
    max_linesearch_steps=20, initial_guess_strategy="one"
)


def sgd(
    learning_rate: ScalarOrSchedule,
    momentum: Any = None,
    nesterov: bool = False,
    accumulator_dtype: Any = None,
) -> Tx:
    """Stochastic gradient descent, optionally with (Nesterov) momentum (no dampening).

    `sgd(lr, momentum=0.9)` equals `torch.optim.SGD(lr=lr, momentum=0.9)`.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      momentum: decay rate of the momentum (``trace``); None for plain SGD.
      nesterov: use Nesterov momentum.
      accumulator_dtype: dtype of the momentum buffer; None uses the dtype of the params.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    momentum_tx = (
        trace(decay=momentum, nesterov=nesterov, accumulator_dtype=accumulator_dtype)
        if momentum is not None
        else identity()
    )
    return chain(momentum_tx, scale_by_learning_rate(learning_rate))


def adam(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    *,
    nesterov: bool = False,
) -> Tx:
    """Adam (Kingma & Ba, 2014): `chain(scale_by_adam(...), scale_by_learning_rate(lr))`.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adam(
            b1=b1, b2=b2, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype, nesterov=nesterov
        ),
        scale_by_learning_rate(learning_rate),
    )


def adamw(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    weight_decay: ScalarOrSchedule = 1e-4,
    mask: Any = None,
    *,
    nesterov: bool = False,
) -> Tx:
    """AdamW (Loshchilov & Hutter, 2019): decoupled decay, multiplied by the learning rate.

    Trap: the default `weight_decay` is 1e-4 (PyTorch's AdamW: 1e-2).

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      weight_decay: rate of the decoupled weight decay (`p * weight_decay` is added to the update
        before the learning rate scales it); a float or a schedule.
      mask: where the weight decay applies: a pytree of bools with the structure of the params, or a
        function of the params returning one; None for every leaf.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adam(
            b1=b1, b2=b2, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype, nesterov=nesterov
        ),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


nadam = functools.partial(adam, nesterov=True)
nadam.__doc__ = "NAdam (Dozat, 2016): `adam(..., nesterov=True)`."
nadamw = functools.partial(adamw, nesterov=True)
nadamw.__doc__ = "NAdamW: `adamw(..., nesterov=True)`."


def adamax(learning_rate: ScalarOrSchedule, b1: Any = 0.9, b2: Any = 0.999, eps: Any = 1e-8) -> Tx:
    """Adamax, the infinity-norm variant of Adam (Kingma & Ba, 2014, section 7).

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the infinity norm in the denominator.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(scale_by_adamax(b1=b1, b2=b2, eps=eps), scale_by_learning_rate(learning_rate))


def adamaxw(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    weight_decay: ScalarOrSchedule = 1e-4,
    mask: Any = None,
) -> Tx:
    """Adamax with decoupled weight decay.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the infinity norm in the denominator.
      weight_decay: rate of the decoupled weight decay (`p * weight_decay` is added to the update
        before the learning rate scales it); a float or a schedule.
      mask: where the weight decay applies: a pytree of bools with the structure of the params, or a
        function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adamax(b1=b1, b2=b2, eps=eps),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


def amsgrad(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    bias_correction_mu: bool = True,
    bias_correction_nu: bool = True,
) -> Tx:
    """AMSGrad (Reddi et al., 2018): Adam with a non-decreasing second moment.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      bias_correction_mu: divide the first moment by ``1 - b1**t``.
      bias_correction_nu: divide the second moment by ``1 - b2**t``.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_amsgrad(b1, b2, eps, eps_root, mu_dtype, bias_correction_mu, bias_correction_nu),
        scale_by_learning_rate(learning_rate),
    )


def radam(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    threshold: Any = 5.0,
    *,
    nesterov: bool = False,
) -> Tx:
    """Rectified Adam (Liu et al., 2020).

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      threshold: the rectification threshold on the length of the approximated moving average
        (``rho_t``); below it the step is plain momentum SGD.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_radam(b1, b2, eps, eps_root, threshold, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


def rmsprop(
    learning_rate: ScalarOrSchedule,
    decay: Any = 0.9,
    eps: Any = 1e-8,
    initial_scale: Any = 0.0,
    eps_in_sqrt: bool = True,
    centered: bool = False,
    momentum: Any = None,
    nesterov: bool = False,
    bias_correction: bool = False,
) -> Tx:
    """RMSProp (Hinton, 2012), optionally centred and with momentum applied after the lr.

    Trap: `g / sqrt(nu + eps)` with decay 0.9; PyTorch uses `g / (sqrt(v) + eps)` and 0.99.
    `rmsprop(lr, decay=0.99, eps_in_sqrt=False)` matches `torch.optim.RMSprop(lr=lr)`.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      decay: decay rate of the moving average of the squared gradients.
      eps: added to the moving average (inside the square root when ``eps_in_sqrt``).
      initial_scale: initial value of the moving averages.
      eps_in_sqrt: add ``eps`` inside the square root (Optax) rather than after it (PyTorch).
      centered: divide by the standard deviation (subtract the squared mean of the gradients).
      momentum: decay rate of the momentum applied after the learning rate; None for none.
      nesterov: use Nesterov momentum.
      bias_correction: correct the moving averages for their zero initialization.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    rescale = scale_by_stddev if centered else scale_by_rms
    return chain(
        rescale(decay, eps, initial_scale, eps_in_sqrt, bias_correction),
        scale_by_learning_rate(learning_rate),
        trace(decay=momentum, nesterov=nesterov) if momentum is not None else identity(),
    )


def adagrad(
    learning_rate: ScalarOrSchedule, initial_accumulator_value: Any = 0.1, eps: Any = 1e-7
) -> Tx:
    """Adagrad (Duchi et al., 2011). Trap: accumulator starts at 0.1 (PyTorch: 0).

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      initial_accumulator_value: initial value of the sum of squared gradients (0.1; PyTorch uses
        0).
      eps: added to the sum inside the square root.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_rss(initial_accumulator_value=initial_accumulator_value, eps=eps),
        scale_by_learning_rate(learning_rate),
    )


def adadelta(
    learning_rate: ScalarOrSchedule | None = None,
    rho: Any = 0.9,
    eps: Any = 1e-6,
    weight_decay: ScalarOrSchedule = 0.0,
    weight_decay_mask: Any = None,
) -> Tx:
    """Adadelta (Zeiler, 2012); without a learning rate the step is the raw Adadelta step.

    Args:
      learning_rate: a float or schedule multiplying the Adadelta step; None for the raw step.
      rho: decay rate of the moving averages of the squared gradients and updates.
      eps: added inside both square roots.
      weight_decay: rate of the weight decay added to the gradients before the Adadelta step.
      weight_decay_mask: where the weight decay applies: a pytree of bools with the structure of the
        params, or a function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        add_decayed_weights(weight_decay, mask=weight_decay_mask),
        scale_by_adadelta(rho=rho, eps=eps),
        scale_by_learning_rate(learning_rate),
    )


def adabelief(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-16,
    eps_root: Any = 1e-16,
    *,
    nesterov: bool = False,
) -> Tx:
    """AdaBelief (Zhuang et al., 2020): Adam with the variance of the gradient around its EMA.

    Optax 0.2.8 has no weight decay here: chain `add_decayed_weights` before it for that.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root.
      eps_root: added to the variance estimate (inside the square root).
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_belief(b1=b1, b2=b2, eps=eps, eps_root=eps_root, nesterov=nesterov),
        scale_by_learning_rate(learning_rate),
    )


def lamb(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-6,
    eps_root: Any = 0.0,
    weight_decay: ScalarOrSchedule = 0.0,
    mask: Any = None,
) -> Tx:
    """LAMB (You et al., 2020): Adam plus decay, rescaled per leaf by the trust ratio.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      weight_decay: rate of the weight decay added before the trust-ratio rescaling.
      mask: where the weight decay applies: a pytree of bools with the structure of the params, or a
        function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adam(b1=b1, b2=b2, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay=weight_decay, mask=mask),
        scale_by_trust_ratio(),
        scale_by_learning_rate(learning_rate),
    )


def lars(
    learning_rate: ScalarOrSchedule,
    weight_decay: ScalarOrSchedule = 0.0,
    weight_decay_mask: Any = True,
    trust_coefficient: Any = 0.001,
    eps: Any = 0.0,
    trust_ratio_mask: Any = True,
    momentum: Any = 0.9,
    nesterov: bool = False,
) -> Tx:
    """LARS (You et al., 2017): decay, layer-wise trust ratio, then momentum after the lr.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      weight_decay: rate of the weight decay added to the gradients.
      weight_decay_mask: where the weight decay applies (a pytree of bools or a function of the
        params); True for every leaf.
      trust_coefficient: multiplies the trust ratio ``||p|| / ||g||``.
      eps: added to the denominator of the trust ratio.
      trust_ratio_mask: where the trust ratio applies (a pytree of bools or a function of the
        params); True for every leaf.
      momentum: decay rate of the momentum applied after the learning rate.
      nesterov: use Nesterov momentum.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        add_decayed_weights(weight_decay, mask=weight_decay_mask),
        masked(
            scale_by_trust_ratio(trust_coefficient=trust_coefficient, eps=eps), trust_ratio_mask
        ),
        scale_by_learning_rate(learning_rate),
        trace(decay=momentum, nesterov=nesterov),
    )


def lion(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.99,
    mu_dtype: Any = None,
    weight_decay: ScalarOrSchedule = 1e-3,
    mask: Any = None,
) -> Tx:
    """Lion (Chen et al., 2023): sign of an interpolated momentum, plus decoupled decay.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: interpolation rate between the momentum and the gradient for the sign taken.
      b2: decay rate of the momentum.
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      weight_decay: rate of the decoupled weight decay (Lion uses larger values than AdamW).
      mask: where the weight decay applies: a pytree of bools with the structure of the params, or a
        function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_lion(b1=b1, b2=b2, mu_dtype=mu_dtype),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


def adafactor(
    learning_rate: ScalarOrSchedule | None = None,
    min_dim_size_to_factor: int = 128,
    decay_rate: Any = 0.8,
    decay_offset: Any = 0,
    multiply_by_parameter_scale: bool = True,
    clipping_threshold: Any = 1.0,
    momentum: Any = None,
    dtype_momentum: Any = jnp.float32,
    weight_decay_rate: ScalarOrSchedule | None = None,
    eps: Any = 1e-30,
    factored: bool = True,
    weight_decay_mask: Any = None,
) -> Tx:
    """Adafactor (Shazeer & Stern, 2018): factored second moments, update clipping, and steps
    relative to the parameter scale.

    Args:
      learning_rate: a float or schedule; None for the relative step size ``min(1e-2, 1/sqrt(t))``.
      min_dim_size_to_factor: factor the second moment of a leaf only when both of its last two
        dimensions are at least this large.
      decay_rate: exponent of the second-moment decay schedule ``1 - t**(-decay_rate)``.
      decay_offset: offset of the step in that schedule (for fine-tuning).
      multiply_by_parameter_scale: scale the step by the root mean square of each parameter.
      clipping_threshold: clip each update to this root mean square (None for no clipping).
      momentum: decay rate of an optional first moment; None for none.
      dtype_momentum: dtype of the first moment.
      weight_decay_rate: rate of the weight decay; None for none.
      eps: regularization constant added to the squared gradients.
      factored: factor the second moment of large matrices (row and column statistics).
      weight_decay_mask: where the weight decay applies: a pytree of bools with the structure of the
        params, or a function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    txs = [scale_by_factored_rms(factored, decay_rate, decay_offset, min_dim_size_to_factor, eps)]
    if clipping_threshold is not None:
        txs.append(clip_by_block_rms(clipping_threshold))
    if learning_rate is not None:
        txs.append(scale_by_learning_rate(learning_rate, flip_sign=False))
    if multiply_by_parameter_scale:
        txs.append(scale_by_param_block_rms())
    if momentum is not None:
        txs.append(ema(momentum, debias=False, accumulator_dtype=dtype_momentum))
    if weight_decay_rate is not None:
        txs.append(add_decayed_weights(weight_decay_rate, mask=weight_decay_mask))
    txs.append(scale(-1))
    return chain(*txs)


def noisy_sgd(
    learning_rate: ScalarOrSchedule,
    eta: Any = 0.01,
    gamma: Any = 0.55,
    key: Any = None,
    *,
    seed: int | None = None,
) -> Tx:
    """SGD with annealed Gaussian gradient noise (Neelakantan et al., 2015).

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      eta: initial variance of the Gaussian noise added to the gradients.
      gamma: decay exponent of the variance: ``eta / (1 + t)**gamma``.
      key: PRNG key of the noise; None uses ``seed``.
      seed: seed of the noise when ``key`` is None (Optax's older argument).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(add_noise(eta, gamma, key, seed=seed), scale_by_learning_rate(learning_rate))


def novograd(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.9,
    b2: Any = 0.25,
    eps: Any = 1e-6,
    eps_root: Any = 0.0,
    weight_decay: Any = 0.0,
) -> Tx:
    """NovoGrad (Ginsburg et al., 2019): layer-wise normalised moments.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the first moment.
      b2: decay rate of the layer-wise second moment of ``||g||**2``.
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      weight_decay: rate of the weight decay added to the normalized gradients.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_novograd(b1=b1, b2=b2, eps=eps, eps_root=eps_root, weight_decay=weight_decay),
        scale_by_learning_rate(learning_rate),
    )


def yogi(learning_rate: ScalarOrSchedule, b1: Any = 0.9, b2: Any = 0.999, eps: Any = 1e-3) -> Tx:
    """Yogi (Zaheer et al., 2018): additive second-moment updates.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(scale_by_yogi(b1=b1, b2=b2, eps=eps), scale_by_learning_rate(learning_rate))


def _of_learning_rate(fn: Any, learning_rate: ScalarOrSchedule) -> ScalarOrSchedule:
    """`fn(learning_rate)` for a constant; for a schedule, the schedule `fn(learning_rate(c))`."""
    if callable(learning_rate):
        return lambda count: fn(learning_rate(count))
    return fn(learning_rate)


def fromage(learning_rate: ScalarOrSchedule, min_norm: Any = 1e-6) -> Tx:
    """Fromage (Bernstein et al., 2020): relative steps `lr * ||p|| / ||g||`, shrunk by
    `1 / sqrt(1 + lr**2)`.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      min_norm: the smallest norm used for parameters and gradients (avoids dividing by zero).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """

    def mult(lr):
        return 1 / (1 + lr**2) ** 0.5

    return chain(
        scale_by_trust_ratio(min_norm),
        scale_by_learning_rate(_of_learning_rate(lambda lr: lr * mult(lr), learning_rate)),
        add_decayed_weights(_of_learning_rate(lambda lr: mult(lr) - 1, learning_rate)),
    )


def sm3(learning_rate: Any, momentum: Any = 0.9) -> Tx:
    """SM3 (Anil et al., 2019): memory-efficient adaptive steps.

    Args:
      learning_rate: the step size (a float).
      momentum: decay rate of the momentum.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(scale_by_sm3(momentum), scale(-learning_rate))


def sign_sgd(learning_rate: ScalarOrSchedule) -> Tx:
    """signSGD (Bernstein et al., 2018): steps of the gradient's sign.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(scale_by_sign(), scale_by_learning_rate(learning_rate))


def signum(learning_rate: ScalarOrSchedule, beta: Any = 0.9, accumulator_dtype: Any = None) -> Tx:
    """Signum: signSGD on an exponential moving average of the gradients.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      beta: decay rate of the moving average of the gradients whose sign is taken.
      accumulator_dtype: dtype of the moving average; None uses the dtype of the params.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        ema(beta, debias=False, accumulator_dtype=accumulator_dtype),
        scale_by_sign(),
        scale_by_learning_rate(learning_rate),
    )


def adan(
    learning_rate: ScalarOrSchedule,
    b1: Any = 0.98,
    b2: Any = 0.92,
    b3: Any = 0.99,
    eps: Any = 1e-8,
    eps_root: Any = 1e-8,
    weight_decay: ScalarOrSchedule = 0.0,
    mask: Any = None,
) -> Tx:
    """Adan, adaptive Nesterov momentum (Xie et al., 2022), with decoupled weight decay.

    Note that the alias's `eps_root` default (1e-8) differs from `scale_by_adan`'s (0), as in
    Optax.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      b1: decay rate of the moving average of the gradients.
      b2: decay rate of the moving average of the gradient differences.
      b3: decay rate of the moving average of the squared Nesterov-corrected gradients.
      eps: added to the denominator outside the square root.
      eps_root: added inside the square root.
      weight_decay: rate of the decoupled weight decay (`p * weight_decay` is added to the update
        before the learning rate scales it); a float or a schedule.
      mask: where the weight decay applies: a pytree of bools with the structure of the params, or a
        function of the params returning one; None for every leaf.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adan(b1=b1, b2=b2, b3=b3, eps=eps, eps_root=eps_root),
        add_decayed_weights(weight_decay, mask),
        scale_by_learning_rate(learning_rate),
    )


def rprop(
    learning_rate: Any,
    eta_minus: Any = 0.5,
    eta_plus: Any = 1.2,
    min_step_size: Any = 1e-6,
    max_step_size: Any = 50.0,
) -> Tx:
    """Rprop (Riedmiller & Braun, 1993): per-entry step sizes adapted to gradient sign changes.

    `learning_rate` is the initial step size. Meant for full-batch optimisation.

    Args:
      learning_rate: the initial step size of every entry.
      eta_minus: factor applied to the step size when the gradient changes sign.
      eta_plus: factor applied to the step size when the gradient keeps its sign.
      min_step_size: the smallest step size.
      max_step_size: the largest step size.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_rprop(
            learning_rate=learning_rate,
            eta_minus=eta_minus,
            eta_plus=eta_plus,
            min_step_size=min_step_size,
            max_step_size=max_step_size,
        ),
        scale(-1.0),
    )


def polyak_sgd(
    max_learning_rate: Any = 1.0,
    scaling: ScalarOrSchedule = 1.0,
    f_min: Any = 0.0,
    eps: Any = 0.0,
    variant: str = "sps",
) -> Tx:
    """SGD with the Polyak step size `scaling * min((f - f_min) / (||g||**2 + eps), max_lr)`.

    `update` needs the loss: `tx.update(grads, state, params, value=loss)`.

    Args:
      max_learning_rate: upper bound of the Polyak step size.
      scaling: factor (or schedule) multiplying the step size.
      f_min: a lower bound of the objective (0 for non-negative losses).
      eps: added to ``||g||**2`` in the denominator.
      variant: ``'sps'`` (the step above) or ``'sps+'`` (the step clipped at 0).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        sgd(learning_rate=scaling),
        scale_by_polyak(max_learning_rate=max_learning_rate, f_min=f_min, eps=eps, variant=variant),
    )


def optimistic_gradient_descent(
    learning_rate: ScalarOrSchedule, alpha: Any = 1.0, beta: Any = 1.0
) -> Tx:
    """Optimistic gradient descent: steps along `(alpha + beta) * g_t - beta * g_{t-1}`.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      alpha: weight of the current gradient.
      beta: weight of the difference to the previous gradient.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_optimistic_gradient(alpha=alpha, beta=beta),
        scale_by_learning_rate(learning_rate),
    )


def optimistic_adam(
    learning_rate: Any,
    optimism: Any = None,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    *,
    nesterov: bool = True,
) -> Tx:
    """Optimistic Adam (Daskalakis et al., 2017); deprecated in Optax for `optimistic_adam_v2`.

    Raises:
      OptimizerArgumentError: if `learning_rate` is a schedule (use `optimistic_adam_v2`).

    Args:
      learning_rate: the step size (a float; schedules are refused).
      optimism: weight of the optimistic correction; None uses ``learning_rate``.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    warnings.warn(
        "`optimistic_adam` is deprecated, please use `optimistic_adam_v2` instead.",
        category=DeprecationWarning,
        stacklevel=2,
    )
    if callable(learning_rate):
        raise OptimizerArgumentError(
            "This version of `optimistic_adam` does not support learning rate schedules but "
            "`optimistic_adam_v2` does."
        )
    return optimistic_adam_v2(
        1.0,
        alpha=learning_rate,
        beta=learning_rate if optimism is None else optimism,
        b1=b1,
        b2=b2,
        eps=eps,
        eps_root=eps_root,
        mu_dtype=mu_dtype,
        nesterov=nesterov,
    )


def optimistic_adam_v2(
    learning_rate: ScalarOrSchedule,
    *,
    alpha: Any = 1.0,
    beta: Any = 1.0,
    b1: Any = 0.9,
    b2: Any = 0.999,
    eps: Any = 1e-8,
    eps_root: Any = 0.0,
    mu_dtype: Any = None,
    nesterov: bool = True,
) -> Tx:
    """Optimistic Adam: the optimistic gradient of Adam's direction, then the learning rate.

    Args:
      learning_rate: the step size: a float, or a schedule (a function of the update count)
        returning it.
      alpha: weight of the current Adam direction.
      beta: weight of the difference to the previous Adam direction.
      b1: decay rate of the exponential moving average of the gradients (first moment).
      b2: decay rate of the exponential moving average of the squared gradients (second moment).
      eps: added to the denominator outside the square root, for numerical stability.
      eps_root: added to the second moment inside the square root (keeps the gradient of the update
        finite when differentiating through the optimizer).
      mu_dtype: dtype of the first-moment accumulator; None uses the dtype of the gradients.
      nesterov: use the Nesterov form of the momentum (as NAdam does).

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`.
    """
    return chain(
        scale_by_adam(
            b1=b1, b2=b2, eps=eps, eps_root=eps_root, mu_dtype=mu_dtype, nesterov=nesterov
        ),
        scale_by_optimistic_gradient(alpha=alpha, beta=beta),
        scale_by_learning_rate(learning_rate),
    )


def lbfgs(
    learning_rate: ScalarOrSchedule | None = None,
    memory_size: int = 10,
    scale_init_precond: bool = True,
    linesearch: Any = _DEFAULT_LBFGS_LINESEARCH,
) -> Tx:
    """L-BFGS with (by default) a zoom line search; meant for deterministic objectives.

    Its `update` needs the line search's extra arguments::

        value, grad = optim.value_and_grad_from_state(f)(params, state=opt_state)
        updates, opt_state = tx.update(grad, opt_state, params, value=value, grad=grad,
                                       value_fn=f)

    Args:
      learning_rate: `None` for a plain sign flip (the line search picks the step), else a
        factor or schedule applied before the line search.
      memory_size: number of stored (parameter, gradient) differences.
      scale_init_precond: see `scale_by_lbfgs`.
      linesearch: a line search transformation, or `None` for none.

    Returns:
      A `GradientTransformationExtraArgs` (``init``, ``update``): the updates it returns are added
      to the params with `optim.apply_updates`. Its ``update`` needs ``value``, ``grad`` and
      ``value_fn`` (see above).
    """
    base_scaling = scale(-1.0) if learning_rate is None else scale_by_learning_rate(learning_rate)
    if linesearch is None:
        linesearch = identity()
    return chain(
        scale_by_lbfgs(memory_size=memory_size, scale_init_precond=scale_init_precond),
        base_scaling,
        linesearch,
    )
