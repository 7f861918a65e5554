"""``flax.core.nn``: Flax's functional layers, functions of a scope (``dense(scope, x, 3)``).

They are the layers of Flax's functional core (`nn.core`: ``init``/``apply`` of functions of a
``Scope``, the lifted transforms of ``nn.lift``): each declares its variables on the scope it
is given (``scope.param('kernel', ...)``) and computes its output, with Flax's parameter names,
shapes, initializers and formulas, so ``init(f)(key, x)`` gives Flax's variables. They differ
from the linen layers of the same names in Flax's ways: inputs are cast to ``dtype``
(float32 by default), ``batch_norm`` keeps its statistics in the collection ``kind`` and
updates them only after the first call, ``embedding`` returns an `Embedding` holding the table.
The activations and pools are linen's (``nn.relu``, ``nn.max_pool``...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import lax, random, struct
from nn import activation, initializers
from nn.activation import (
    celu,
    elu,
    gelu,
    glu,
    leaky_relu,
    log_sigmoid,
    log_softmax,
    relu,
    sigmoid,
    silu,
    soft_sign,
    softmax,
    softplus,
    swish,
    tanh,
)
from nn.pooling import avg_pool, max_pool
from nn.scope import Scope

__all__ = [
    "Embedding",
    "activation",
    "avg_pool",
    "batch_norm",
    "celu",
    "conv",
    "conv_transpose",
    "dense",
    "dense_general",
    "dropout",
    "elu",
    "embedding",
    "gelu",
    "glu",
    "group_norm",
    "initializers",
    "layer_norm",
    "leaky_relu",
    "log_sigmoid",
    "log_softmax",
    "max_pool",
    "relu",
    "sigmoid",
    "silu",
    "soft_sign",
    "softmax",
    "softplus",
    "swish",
    "tanh",
]

default_kernel_init = initializers.lecun_normal()
default_embed_init = initializers.variance_scaling(1.0, "fan_in", "normal", out_axis=0)
default_bias_init = initializers.zeros_init()
default_scale_init = initializers.ones_init()
Initializer = Callable[..., Any]


def _as_tuple(x: Any) -> tuple:
    return tuple(x) if isinstance(x, Iterable) else (x,)


def _tiled_init(init: Initializer, n_batch: int, n_in: int, n_features: int) -> Initializer:
    """``init`` of a (batch..., in..., features...) kernel as Flax's ``dense_general`` makes it:
    one 2-D ``init`` draw of (prod(in), prod(features)) per batch index, with the same key,
    stacked (``n_in`` 0 for a bias: one (prod(features),) draw)."""

    def tiled(key: Any, shape: tuple, dtype: Any = jnp.float32) -> Any:
        copies = int(np.prod(shape[:n_batch], dtype=np.int64))
        features = int(np.prod(shape[len(shape) - n_features :], dtype=np.int64))
        flat = (int(np.prod(shape[n_batch : n_batch + n_in])), features) if n_in else (features,)
        return jnp.reshape(jnp.concatenate([init(key, flat, dtype)] * copies, axis=0), shape)

    return tiled


def dense_general(
    scope: Scope,
    inputs: Any,
    features: int | Sequence[int],
    axis: int | Sequence[int] = -1,
    batch_dims: int | Sequence[int] = (),
    bias: bool = True,
    dtype: Any = jnp.float32,
    kernel_init: Initializer = default_kernel_init,
    bias_init: Initializer = default_bias_init,
    precision: Any = None,
) -> Any:
    """A linear map over several input axes to several output features.

    Args:
      scope: the scope holding ``kernel`` (and ``bias``).
      inputs: the array to transform.
      features: the output feature sizes.
      axis: the input axes contracted.
      batch_dims: leading axes mapped one to one (a kernel per index, drawn alike).
      bias: add a bias.
      dtype: the computation's dtype.
      kernel_init: the kernel's initializer.
      bias_init: the bias's initializer.
      precision: passed to ``lax.dot_general``.

    Returns:
      The batch axes, the uncontracted input axes, then ``features``.
    """
    inputs = jnp.asarray(inputs, dtype)
    features, axis, batch_dims = _as_tuple(features), _as_tuple(axis), _as_tuple(batch_dims)
    if batch_dims and set(batch_dims) != set(range(max(batch_dims) + 1)):
        raise ValueError(
            f"batch_dims {batch_dims} must be consecutive leading dimensions starting from 0."
        )
    ndim = inputs.ndim
    axis = tuple(a % ndim for a in axis)
    batch_dims = tuple(b % ndim for b in batch_dims)
    n_batch, n_axis, n_features = len(batch_dims), len(axis), len(features)
    batch_shape = tuple(inputs.shape[b] for b in batch_dims)
    kernel_shape = batch_shape + tuple(inputs.shape[a] for a in axis) + features
    init = _tiled_init(kernel_init, n_batch, n_axis, n_features)
    kernel = jnp.asarray(scope.param("kernel", init, kernel_shape), dtype)
    contract = tuple(range(n_batch, n_batch + n_axis))
    dims = ((axis, contract), (batch_dims, tuple(range(n_batch))))
    out = lax.dot_general(inputs, kernel, dims, precision=precision)
    if bias:
        b = scope.param(
            "bias", _tiled_init(bias_init, n_batch, 0, n_features), batch_shape + features
        )
        for ax in sorted(set(range(ndim)) - set(axis) - set(batch_dims)):
            b = jnp.expand_dims(b, ax)
        out = out + jnp.asarray(b, dtype)
    return out


def dense(
    scope: Scope,
    inputs: Any,
    features: int,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Initializer = default_kernel_init,
    bias_init: Initializer = default_bias_init,
) -> Any:
    """``inputs @ kernel + bias`` over the last axis.

    Args:
      scope: the scope holding ``kernel`` (and ``bias``).
      inputs: the array to transform.
      features: the output size.
      bias: add a bias.
      dtype: the computation's dtype.
      precision: passed to ``lax.dot_general``.
      kernel_init: the kernel's initializer.
      bias_init: the bias's initializer.

    Returns:
      The inputs with their last axis mapped to ``features``.
    """
    inputs = jnp.asarray(inputs, dtype)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, (inputs.shape[-1], features)), dtype)
    dims = (((inputs.ndim - 1,), (0,)), ((), ()))
    y = lax.dot_general(inputs, kernel, dims, precision=precision)
    if bias:
        y = y + jnp.asarray(scope.param("bias", bias_init, (features,)), dtype)
    return y


def _add_bias(scope: Scope, y: Any, features: int, bias_init: Initializer, dtype: Any) -> Any:
    b = jnp.asarray(scope.param("bias", bias_init, (features,)), dtype)
    return y + jnp.reshape(b, (1,) * (y.ndim - 1) + (-1,))


def conv(
    scope: Scope,
    inputs: Any,
    features: int,
    kernel_size: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "SAME",
    input_dilation: Sequence[int] | None = None,
    kernel_dilation: Sequence[int] | None = None,
    feature_group_count: int = 1,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Initializer = default_kernel_init,
    bias_init: Initializer = default_bias_init,
) -> Any:
    """A convolution of ``(batch, spatial..., features)`` inputs.

    Args:
      scope: the scope holding ``kernel`` (and ``bias``).
      inputs: ``(batch, spatial..., in_features)``.
      features: the number of filters.
      kernel_size: the window, one size per spatial axis.
      strides: one stride per spatial axis (default 1).
      padding: ``'SAME'``, ``'VALID'`` or ``(low, high)`` pairs.
      input_dilation: the inputs' dilation (a transposed convolution).
      kernel_dilation: the kernel's dilation (an atrous convolution).
      feature_group_count: groups of input features convolved separately.
      bias: add a bias.
      dtype: the computation's dtype.
      precision: passed to ``lax.conv_general_dilated``.
      kernel_init: the kernel's initializer.
      bias_init: the bias's initializer.

    Returns:
      The convolved data.
    """
    inputs = jnp.asarray(inputs, dtype)
    strides = strides if strides is not None else (1,) * (inputs.ndim - 2)
    in_features = inputs.shape[-1]
    if in_features % feature_group_count:
        raise ValueError(
            f"conv: {in_features} input features do not split into {feature_group_count} groups."
        )
    shape = tuple(kernel_size) + (in_features // feature_group_count, features)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, shape), dtype)
    spatial = inputs.ndim - 2
    dimension_numbers = lax.ConvDimensionNumbers(
        (0, inputs.ndim - 1, *range(1, spatial + 1)),
        (inputs.ndim - 1, inputs.ndim - 2, *range(spatial)),
        (0, inputs.ndim - 1, *range(1, spatial + 1)),
    )
    y = lax.conv_general_dilated(
        inputs,
        kernel,
        strides,
        padding,
        lhs_dilation=input_dilation,
        rhs_dilation=kernel_dilation,
        dimension_numbers=dimension_numbers,
        feature_group_count=feature_group_count,
        precision=precision,
    )
    return _add_bias(scope, y, features, bias_init, dtype) if bias else y


def conv_transpose(
    scope: Scope,
    inputs: Any,
    features: int,
    kernel_size: Sequence[int],
    strides: Sequence[int] | None = None,
    padding: Any = "SAME",
    kernel_dilation: Sequence[int] | None = None,
    bias: bool = True,
    dtype: Any = jnp.float32,
    precision: Any = None,
    kernel_init: Initializer = default_kernel_init,
    bias_init: Initializer = default_bias_init,
) -> Any:
    """A transposed convolution (``lax.conv_transpose``) of ``(batch, spatial..., features)``.

    Args:
      scope: the scope holding ``kernel`` (and ``bias``).
      inputs: ``(batch, spatial..., in_features)``.
      features: the number of filters.
      kernel_size: the window, one size per spatial axis.
      strides: one stride per spatial axis (default 1).
      padding: ``'SAME'``, ``'VALID'`` or ``(low, high)`` pairs.
      kernel_dilation: the kernel's dilation.
      bias: add a bias.
      dtype: the computation's dtype.
      precision: passed to ``lax.conv_transpose``.
      kernel_init: the kernel's initializer.
      bias_init: the bias's initializer.

    Returns:
      The convolved data.
    """
    inputs = jnp.asarray(inputs, dtype)
    strides = strides or (1,) * (inputs.ndim - 2)
    shape = tuple(kernel_size) + (inputs.shape[-1], features)
    kernel = jnp.asarray(scope.param("kernel", kernel_init, shape), dtype)
    y = lax.conv_transpose(
        inputs, kernel, strides, padding, rhs_dilation=kernel_dilation, precision=precision
    )
    return _add_bias(scope, y, features, bias_init, dtype) if bias else y


@struct.dataclass
class Embedding:
    """An embedding table with its two uses: ``lookup`` (rows by index) and ``attend`` (inner
    products with every row, for logits tied to the embedding)."""

    table: Any

    def lookup(self, indices: Any) -> Any:
        """The rows of ``indices`` (integers), with a feature axis appended.

        Args:
          indices: an integer array of any shape.

        Returns:
          ``table[indices]``.
        """
        if jnp.asarray(indices).dtype not in (jnp.int32, jnp.int64, jnp.uint32, jnp.uint64):
            raise ValueError("Input type must be an integer or unsigned integer.")
        return self.table[indices]

    def attend(self, query: Any) -> Any:
        """``query @ table.T``: one score per embedding.

        Args:
          query: an array whose last axis has the table's feature size.

        Returns:
          The scores, last axis ``num_embeddings``.
        """
        return jnp.dot(query, self.table.T)


def embedding(
    scope: Scope, num_embeddings: int, features: int, init_fn: Initializer = default_embed_init
) -> Embedding:
    """Declares an embedding ``table`` of ``(num_embeddings, features)``.

    Args:
      scope: the scope holding ``table``.
      num_embeddings: the number of rows.
      features: the size of each row.
      init_fn: the table's initializer.

    Returns:
      An `Embedding` of the table.
    """
    return Embedding(scope.param("table", init_fn, (num_embeddings, features)))


def batch_norm(
    scope: Scope,
    x: Any,
    use_running_average: bool = False,
    axis: int | Sequence[int] = -1,
    momentum: float = 0.99,
    epsilon: float = 1e-5,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Initializer = default_bias_init,
    scale_init: Initializer = default_scale_init,
    axis_name: str | None = None,
    axis_index_groups: Any = None,
    kind: str = "batch_stats",
) -> Any:
    """Normalizes ``x`` by batch statistics, keeping running averages in collection ``kind``.

    Args:
      scope: the scope holding ``scale``, ``bias`` and ``kind``'s ``mean``/``var``.
      x: the inputs (computed in float32).
      use_running_average: normalize by the stored averages instead of the batch's.
      axis: the feature axes (the others are reduced).
      momentum: the averages' decay.
      epsilon: added to the variance.
      dtype: the output's dtype.
      bias: add a learned bias.
      scale: multiply by a learned scale.
      bias_init: the bias's initializer.
      scale_init: the scale's initializer.
      axis_name: average the statistics over this mapped axis (``lax.pmean``).
      axis_index_groups: passed to ``lax.pmean``.
      kind: the collection of the running averages.

    Returns:
      The normalized inputs.
    """
    x = jnp.asarray(x, jnp.float32)
    axis = tuple(a % x.ndim for a in _as_tuple(axis))
    reduced = tuple(i for i in range(x.ndim) if i not in axis)

    def mean_of(v: Any) -> Any:
        m = jnp.mean(v, reduced, keepdims=True)
        if axis_name is not None:
            m = lax.pmean(m, axis_name=axis_name, axis_index_groups=axis_index_groups)
        return m

    mean = mean_of(x)
    var = mean_of(jnp.square(x)) - jnp.square(mean)
    stat_shape = jnp.squeeze(mean).shape
    first_call = not scope.has_variable(kind, "mean")
    ra_mean = scope.variable(kind, "mean", jnp.zeros, stat_shape)
    ra_var = scope.variable(kind, "var", jnp.ones, stat_shape)
    if use_running_average:
        mean = jnp.reshape(ra_mean.value, mean.shape)
        var = jnp.reshape(ra_var.value, var.shape)
    elif not first_call:
        ra_mean.value += (1.0 - momentum) * (jnp.squeeze(mean) - ra_mean.value)
        ra_var.value += (1.0 - momentum) * (jnp.squeeze(var) - ra_var.value)
    mul = lax.rsqrt(var + epsilon)
    if scale:
        mul = mul * scope.param("scale", scale_init, stat_shape).reshape(mean.shape)
    y = (x - mean) * mul
    if bias:
        y = y + scope.param("bias", bias_init, stat_shape).reshape(mean.shape)
    return jnp.asarray(y, dtype)


def layer_norm(
    scope: Scope,
    x: Any,
    epsilon: float = 1e-6,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Initializer = default_bias_init,
    scale_init: Initializer = default_scale_init,
) -> Any:
    """Normalizes each example over its last axis.

    Args:
      scope: the scope holding ``scale`` and ``bias``.
      x: the inputs.
      epsilon: added to the variance.
      dtype: the dtype the learned scale and bias are cast to.
      bias: add a learned bias.
      scale: multiply by a learned scale.
      bias_init: the bias's initializer.
      scale_init: the scale's initializer.

    Returns:
      The normalized inputs.
    """
    features = x.shape[-1]
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(lax.square(x), axis=-1, keepdims=True) - lax.square(mean)
    mul = lax.rsqrt(var + epsilon)
    if scale:
        mul = mul * jnp.asarray(scope.param("scale", scale_init, (features,)), dtype)
    y = (x - mean) * mul
    if bias:
        y = y + jnp.asarray(scope.param("bias", bias_init, (features,)), dtype)
    return y


def group_norm(
    scope: Scope,
    x: Any,
    num_groups: int | None = 32,
    group_size: int | None = None,
    epsilon: float = 1e-6,
    dtype: Any = jnp.float32,
    bias: bool = True,
    scale: bool = True,
    bias_init: Initializer = default_bias_init,
    scale_init: Initializer = default_scale_init,
) -> Any:
    """Normalizes ``(batch, ..., channels)`` inputs over groups of channels (and the middle
    axes), each example on its own.

    Args:
      scope: the scope holding ``scale`` and ``bias``.
      x: the inputs (computed in float32).
      num_groups: the number of channel groups (or give ``group_size``).
      group_size: the channels per group.
      epsilon: added to the variance.
      dtype: the output's dtype.
      bias: add a learned bias.
      scale: multiply by a learned scale.
      bias_init: the bias's initializer.
      scale_init: the scale's initializer.

    Returns:
      The normalized inputs.
    """
    x = jnp.asarray(x, jnp.float32)
    if (num_groups is None) == (group_size is None):
        raise ValueError(
            "Either `num_groups` or `group_size` should be specified, but not both of them."
        )
    channels = x.shape[-1]
    if group_size is not None:
        if channels % group_size:
            raise ValueError(
                f"Number of channels ({channels}) is not multiple of the group size ({group_size})."
            )
        num_groups = channels // group_size
    shape = x.shape
    g = x.reshape(shape[:-1] + (num_groups, channels // num_groups))
    axes = [*range(1, g.ndim - 2), g.ndim - 1]
    mean = jnp.mean(g, axis=axes, keepdims=True)
    var = jnp.mean(jnp.square(g), axis=axes, keepdims=True) - jnp.square(mean)
    x = ((g - mean) * lax.rsqrt(var + epsilon)).reshape(shape)
    feature_shape = (1,) * (len(shape) - 1) + (channels,)
    if scale:
        x = x * scope.param("scale", scale_init, feature_shape)
    if bias:
        x = x + scope.param("bias", bias_init, feature_shape)
    return x.astype(dtype)


def dropout(
    scope: Scope, inputs: Any, rate: float, deterministic: bool = False, rng: Any = None
) -> Any:
    """Zeroes each input with probability ``rate`` and scales the rest by ``1 / (1 - rate)``.

    Args:
      scope: the scope whose ``'dropout'`` stream gives the mask's key.
      inputs: the inputs.
      rate: the probability of dropping a value.
      deterministic: return the inputs unchanged.
      rng: the key (default: ``scope.make_rng('dropout')``).

    Returns:
      The masked inputs.
    """
    if rate == 0.0 or deterministic:
        return inputs
    keep = 1.0 - rate
    key = scope.make_rng("dropout") if rng is None else rng
    mask = random.bernoulli(key, p=keep, shape=inputs.shape)
    return lax.select(mask, inputs / keep, jnp.zeros_like(inputs))
