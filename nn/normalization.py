"""Normalization layers: ``BatchNorm``, ``LayerNorm``, ``RMSNorm``, ``GroupNorm``, ``InstanceNorm``,
and the weight wrappers ``WeightNorm`` and ``SpectralNorm``.

All share two steps, as in Flax: statistics (mean and the biased variance, computed as
``E[x²] - E[x]²`` in float32 at least; averaged across devices with ``lax.pmean`` when
``axis_name`` is set) and normalization ``(x - mean) * rsqrt(var + eps) * scale + bias``.
``BatchNorm`` keeps running statistics in the ``'batch_stats'`` collection:
``ra = momentum * ra + (1 - momentum) * batch_stat``, updated only when ``batch_stats`` is
mutable (``apply(..., mutable=['batch_stats'])``) and not during ``init``.

``WeightNorm``/``SpectralNorm`` wrap a layer instance and run it through ``nn.map_variables``
on a view of its parameters (l2-normalized and rescaled; divided by the power-iteration estimate
of the largest singular value), as Flax does, so their variables are named like Flax's
(``'Dense_1/kernel/scale'`` in the wrapper's scope).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import core.numpy as jnp
from core import lax, random, tree_util
from nn import errors, initializers
from nn.dtypes import canonicalize_dtype
from nn.module import Module, compact, merge_param
from nn.transforms import map_variables

Array = Any
Axes = int | Sequence[int]


def _canonicalize_axes(ndim: int, axes: Axes) -> tuple[int, ...]:
    axes = (axes,) if isinstance(axes, int) else axes
    axes = tuple(sorted({ax + ndim if ax < 0 else ax for ax in axes}))
    if any(not -ndim <= ax < ndim for ax in axes):  # Flax fails indexing the shape with them
        raise errors.NormAxesError(axes, ndim)
    return axes


def _abs_sq(x: Array) -> Array:
    """|x|^2 elementwise, as Flax's (`lax.square`; of the real and imaginary parts if complex)."""
    if jnp.iscomplexobj(x):
        return lax.square(lax.real(x)) + lax.square(lax.imag(x))
    return lax.square(x)


def _mean(x: Array, axes: tuple[int, ...], mask: Array | None) -> Array:
    if mask is None:
        return jnp.mean(x, axes)
    mask = jnp.broadcast_to(mask, x.shape)  # a mask broadcastable to `x`, as `mean(where=)`
    return jnp.sum(jnp.where(mask, x, 0), axes) / jnp.sum(mask, axes).astype(x.dtype)


def _compute_stats(
    x: Array,
    axes: Axes,
    dtype: Any,
    axis_name: str | None = None,
    axis_index_groups: Any = None,
    use_mean: bool = True,
    use_fast_variance: bool = True,
    mask: Array | None = None,
    force_float32_reductions: bool = True,
) -> tuple[Array, Array]:
    """Mean and biased variance of ``x`` over ``axes`` (``use_mean=False``: mean is 0)."""
    if dtype is None:
        dtype = jnp.result_type(x)
    if force_float32_reductions:
        dtype = jnp.promote_types(dtype, jnp.float32)
    x = jnp.asarray(x, dtype)
    axes = _canonicalize_axes(x.ndim, axes)
    if mask is not None:
        mask = jnp.asarray(mask, bool)

    def distributed_mean(*xs: Array) -> list[Array]:
        mus = [_mean(v, axes, mask) for v in xs]
        if axis_name is not None:
            # One call for both moments: over a pmapped axis they travel in one exchange.
            mus = lax.pmean(mus, axis_name, axis_index_groups=axis_index_groups)
        return mus

    if not use_mean:
        (var,) = distributed_mean(_abs_sq(x))
        return jnp.zeros_like(var), var
    if use_fast_variance:
        mu, mu2 = distributed_mean(x, _abs_sq(x))
        return mu, jnp.maximum(0.0, mu2 - _abs_sq(mu))
    (mu,) = distributed_mean(x)
    centered = x - jnp.expand_dims(mu, axes)
    (var,) = distributed_mean(_abs_sq(centered))
    return mu, var


def _module_stats(
    mdl: Module, x: Array, axes: Axes, mask: Array | None, use_mean: bool = True, sync: bool = True
) -> tuple[Array, Array]:
    """``_compute_stats`` with ``mdl``'s dtype, device averaging (if ``sync``) and flags."""
    return _compute_stats(
        x,
        axes,
        mdl.dtype,
        mdl.axis_name if sync else None,
        mdl.axis_index_groups,
        use_mean=use_mean,
        use_fast_variance=mdl.use_fast_variance,
        mask=mask,
        force_float32_reductions=mdl.force_float32_reductions,
    )


def _feature_param(
    mdl: Module, name: str, init: Callable, x_shape: tuple[int, ...], feature_axes: tuple[int, ...]
) -> Array:
    """``mdl``'s parameter ``name`` (in ``mdl.param_dtype``) of the sizes of ``feature_axes``,
    reshaped to broadcast against an array of shape ``x_shape``."""
    shape = tuple(x_shape[ax] for ax in feature_axes)
    broadcast_shape = [size if ax in feature_axes else 1 for ax, size in enumerate(x_shape)]
    return jnp.reshape(mdl.param(name, init, shape, mdl.param_dtype), broadcast_shape)


def _normalize(
    mdl: Module,
    x: Array,
    mean: Array,
    var: Array,
    reduction_axes: Axes,
    feature_axes: Axes,
    use_bias: bool = True,
) -> Array:
    """``(x - mean) * rsqrt(var + eps)``, scaled and shifted by ``mdl``'s parameters.

    ``mdl`` gives ``dtype``, ``param_dtype``, ``epsilon``, ``use_scale``, ``scale_init`` and,
    unless ``use_bias`` is False, ``use_bias`` and ``bias_init``.
    """
    reduction_axes = _canonicalize_axes(x.ndim, reduction_axes)
    feature_axes = _canonicalize_axes(x.ndim, feature_axes)
    mean = jnp.expand_dims(mean, reduction_axes)
    var = jnp.expand_dims(var, reduction_axes)
    y = x - mean
    mul = lax.rsqrt(var + mdl.epsilon)
    args = [x]
    if mdl.use_scale:
        scale = _feature_param(mdl, "scale", mdl.scale_init, x.shape, feature_axes)
        mul = mul * scale
        args.append(scale)
    y = y * mul
    if use_bias and mdl.use_bias:
        bias = _feature_param(mdl, "bias", mdl.bias_init, x.shape, feature_axes)
        y = y + bias
        args.append(bias)
    return jnp.asarray(y, canonicalize_dtype(*args, dtype=mdl.dtype))


class BatchNorm(Module):
    """Normalizes over the batch (all axes but ``axis``) and tracks running statistics.

    Training: ``y, updates = model.apply(variables, x, train=True, mutable=['batch_stats'])``
    with ``nn.BatchNorm(use_running_average=not train)``; evaluation uses the running stats
    and needs no mutable collection.

    Attributes:
      use_running_average: normalize with the running statistics (evaluation mode); may also
        be given at call time.
      axis: the feature axis (or axes).
      momentum: decay of the running averages.
      epsilon: added to the variance.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      use_bias: learn a bias.
      use_scale: learn a scale.
      bias_init: initializer of the bias.
      scale_init: initializer of the scale.
      axis_name: average the statistics over this ``vmap``/``pmap`` axis.
      axis_index_groups: groups for the cross-device average.
      use_fast_variance: variance as ``E[x²] - E[x]²`` (one pass).
      force_float32_reductions: compute statistics in at least float32.

    Example::

        >>> layer = nn.BatchNorm(use_running_average=False)
        >>> v = layer.init(core.random.key(0), jnp.ones((4, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'batch_stats': {'mean': (3,), 'var': (3,)}, 'params': {'bias': (3,), 'scale': (3,)}}
    """

    use_running_average: bool | None = None
    axis: int = -1
    momentum: float = 0.99
    epsilon: float = 1e-5
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Callable = initializers.zeros
    scale_init: Callable = initializers.ones
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(
        self, x: Array, use_running_average: bool | None = None, *, mask: Array | None = None
    ) -> Array:
        """Normalizes ``x``; ``use_running_average`` given here overrides the field.

        Args:
          x: the input, features on ``axis``.
          use_running_average: normalize with the stored averages (inference) instead of the batch
            statistics; None uses the attribute (exactly one of the two is set: `merge_param`).
          mask: a bool array broadcastable to ``x``: only the True entries enter the statistics;
            None for all.

        Returns:
          The normalized, scaled and shifted ``x`` (same shape); in training the ``batch_stats``
          collection is updated.
        """
        use_running_average = merge_param(
            "use_running_average", self.use_running_average, use_running_average
        )
        feature_axes = _canonicalize_axes(x.ndim, self.axis)
        reduction_axes = tuple(i for i in range(x.ndim) if i not in feature_axes)
        per_feature = tuple(x.shape[ax] for ax in feature_axes)
        stats_dtype = jnp.float32 if self.force_float32_reductions else self.param_dtype
        # The running statistics start as the identity normalization: mean 0, variance 1.
        running = {
            name: self.variable(
                "batch_stats", name, lambda s, f=fill: f(s, stats_dtype), per_feature
            )
            for name, fill in (("mean", jnp.zeros), ("var", jnp.ones))
        }
        if use_running_average:
            stats = {name: v.value for name, v in running.items()}
        else:
            # init sees a single batch: no cross-device sync and no update of the averages.
            initializing = self.is_initializing()
            mean, var = _module_stats(self, x, reduction_axes, mask, sync=not initializing)
            stats = {"mean": mean, "var": var}
            if not initializing:
                for name, v in running.items():
                    v.value = self.momentum * v.value + (1 - self.momentum) * stats[name]
        return _normalize(self, x, stats["mean"], stats["var"], reduction_axes, feature_axes)


class LayerNorm(Module):
    """Normalizes each example over ``reduction_axes`` (default: the last axis).

    Attributes:
      epsilon: added to the variance.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      use_bias: learn a bias.
      use_scale: learn a scale.
      bias_init: initializer of the bias.
      scale_init: initializer of the scale.
      reduction_axes: axes to normalize over.
      feature_axes: axes that get their own scale and bias.
      axis_name: average the statistics over this mapped axis.
      axis_index_groups: groups for the cross-device average.
      use_fast_variance: one-pass variance.
      force_float32_reductions: compute statistics in at least float32.

    Example::

        >>> layer = nn.LayerNorm()
        >>> v = layer.init(core.random.key(0), jnp.ones((2, 5)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (5,), 'scale': (5,)}}
    """

    epsilon: float = 1e-6
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Callable = initializers.zeros
    scale_init: Callable = initializers.ones
    reduction_axes: Axes = -1
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Array, *, mask: Array | None = None) -> Array:
        """Normalizes ``x`` over the feature axes of each example.

        Args:
          x: the input; the statistics are taken over the axes the attributes select.
          mask: a bool array broadcastable to ``x``: only the True entries enter the statistics;
            None for all.

        Returns:
          The normalized, scaled and shifted ``x`` (same shape).
        """
        mean, var = _module_stats(self, x, self.reduction_axes, mask)
        return _normalize(self, x, mean, var, self.reduction_axes, self.feature_axes)


class RMSNorm(Module):
    """Scales each example by the root mean square over ``reduction_axes`` (no centering).

    Attributes:
      epsilon: added to the mean square.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      use_scale: learn a scale.
      scale_init: initializer of the scale.
      reduction_axes: axes to normalize over.
      feature_axes: axes that get their own scale.
      axis_name: average the statistics over this mapped axis.
      axis_index_groups: groups for the cross-device average.
      use_fast_variance: accepted for Flax compatibility.
      force_float32_reductions: compute statistics in at least float32.

    Example::

        >>> layer = nn.RMSNorm()
        >>> v = layer.init(core.random.key(0), jnp.ones((2, 5)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'scale': (5,)}}
    """

    epsilon: float = 1e-6
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_scale: bool = True
    scale_init: Callable = initializers.ones
    reduction_axes: Axes = -1
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Array, *, mask: Array | None = None) -> Array:
        """Divides ``x`` by its root mean square over the feature axes.

        Args:
          x: the input; the statistics are taken over the axes the attributes select.
          mask: a bool array broadcastable to ``x``: only the True entries enter the statistics;
            None for all.

        Returns:
          The normalized and scaled ``x`` (same shape).
        """
        mean, var = _module_stats(self, x, self.reduction_axes, mask, use_mean=False)
        return _normalize(
            self, x, mean, var, self.reduction_axes, self.feature_axes, use_bias=False
        )


class GroupNorm(Module):
    """Normalizes over groups of channels (and the spatial axes) of each example.

    Attributes:
      num_groups: the number of channel groups (set ``None`` to use ``group_size``).
      group_size: channels per group (alternative to ``num_groups``).
      epsilon: added to the variance.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      use_bias: learn a bias.
      use_scale: learn a scale.
      bias_init: initializer of the bias.
      scale_init: initializer of the scale.
      reduction_axes: axes to normalize over (default: all but the first; must include -1).
      axis_name: average the statistics over this mapped axis.
      axis_index_groups: groups for the cross-device average.
      use_fast_variance: one-pass variance.
      force_float32_reductions: compute statistics in at least float32.

    Example::

        >>> layer = nn.GroupNorm(num_groups=2)
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 4, 4, 6)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (6,), 'scale': (6,)}}
    """

    num_groups: int | None = 32
    group_size: int | None = None
    epsilon: float = 1e-6
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Callable = initializers.zeros
    scale_init: Callable = initializers.ones
    reduction_axes: Axes | None = None
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Array, *, mask: Array | None = None) -> Array:
        """Normalizes ``x`` over groups of channels and the spatial axes.

        Args:
          x: the input; the statistics are taken over the axes the attributes select.
          mask: a bool array broadcastable to ``x``: only the True entries enter the statistics;
            None for all.

        Returns:
          The normalized, scaled and shifted ``x`` (same shape).
        """
        axes = self.reduction_axes
        if axes is None:  # every axis but the batch one, channels last
            axes = [*range(1, x.ndim - 1), -1]
        axes = _canonicalize_axes(x.ndim, axes)
        if axes[-1] != x.ndim - 1:
            raise ValueError("GroupNorm's reduction_axes must include the last (feature) axis.")
        groups = _group_count(self, x.shape[-1])
        per_group = x.shape[-1] // groups

        def grouped(shape: tuple[int, ...]) -> tuple[int, ...]:
            return shape[:-1] + (groups, per_group)

        if mask is not None:
            mask = jnp.reshape(mask, grouped(mask.shape))
        # Statistics per group (over the reduction axes and the group's channels), then
        # repeated back onto each of the group's channels.
        mean, var = _module_stats(self, jnp.reshape(x, grouped(x.shape)), [*axes[:-1], -1], mask)
        mean, var = (jnp.repeat(stat, per_group, axis=-1) for stat in (mean, var))
        return _normalize(self, x, mean, var, axes[:-1], (-1,))


def _power_iteration(u: Array, matrix: Array, steps: int, eps: float) -> tuple[Array, Array]:
    """``steps`` rounds of power iteration from ``u`` (``(1, columns)``) towards ``matrix``'s
    top singular vectors: the right and left estimates ``(u, v)``, outside differentiation."""
    for _ in range(steps):
        v = _l2_normalize(jnp.matmul(u, jnp.transpose(matrix)), eps=eps)
        u = _l2_normalize(jnp.matmul(v, matrix), eps=eps)
    return lax.stop_gradient(u), lax.stop_gradient(v)


def _group_count(norm: GroupNorm, channels: int) -> int:
    """``norm``'s number of channel groups for ``channels`` channels (one of its ``num_groups``
    and ``group_size`` is set; the groups split the channels evenly)."""
    if (norm.num_groups is None) == (norm.group_size is None):
        raise ValueError(  # Flax's message
            "Either `num_groups` or `group_size` should be specified. If `group_size` is to "
            "be specified, pass `num_groups=None` as argument to override the default "
            "`num_groups` value of 32."
        )
    if norm.group_size is None:
        groups = norm.num_groups
    elif channels % norm.group_size == 0:
        groups = channels // norm.group_size
    else:
        raise ValueError(
            f"Number of channels ({channels}) is not multiple of the group size "
            f"({norm.group_size})."
        )
    if groups > 0 and channels % groups == 0:
        return groups
    raise ValueError(
        f"Number of groups ({groups}) does not divide the number of channels ({channels})."
    )


class InstanceNorm(Module):
    """Normalizes each example and channel over the remaining (spatial) axes.

    The leading axis is the batch; statistics are computed over every axis but the batch and
    ``feature_axes``, which get their own scale and bias.

    Attributes:
      epsilon: added to the variance.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      use_bias: learn a bias.
      use_scale: learn a scale.
      bias_init: initializer of the bias.
      scale_init: initializer of the scale.
      feature_axes: the channel axes (not the leading one).
      axis_name: average the statistics over this mapped axis.
      axis_index_groups: groups for the cross-device average.
      use_fast_variance: one-pass variance.
      force_float32_reductions: compute statistics in at least float32.

    Example::

        >>> layer = nn.InstanceNorm()
        >>> v = layer.init(core.random.key(0), jnp.ones((2, 4, 4, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (3,), 'scale': (3,)}}
    """

    epsilon: float = 1e-6
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_bias: bool = True
    use_scale: bool = True
    bias_init: Callable = initializers.zeros
    scale_init: Callable = initializers.ones
    feature_axes: Axes = -1
    axis_name: str | None = None
    axis_index_groups: Any = None
    use_fast_variance: bool = True
    force_float32_reductions: bool = True

    @compact
    def __call__(self, x: Array, *, mask: Array | None = None) -> Array:
        """Normalizes ``x`` per example and channel over the spatial axes.

        Args:
          x: the input; the statistics are taken over the axes the attributes select.
          mask: a bool array broadcastable to ``x``: only the True entries enter the statistics;
            None for all.

        Returns:
          The normalized, scaled and shifted ``x`` (same shape).
        """
        feature_axes = _canonicalize_axes(x.ndim, self.feature_axes)
        if 0 in feature_axes:
            raise errors.InstanceNormAxesError(self.feature_axes)
        reduction_axes = tuple(i for i in range(1, x.ndim) if i not in feature_axes)
        mean, var = _module_stats(self, x, reduction_axes, mask)
        return _normalize(self, x, mean, var, reduction_axes, feature_axes)


def _l2_normalize(x: Array, axis: Any = None, eps: float = 1e-12) -> Array:
    """``x`` divided by its l2 norm over ``axis`` (all axes for ``None``)."""
    return x * lax.rsqrt(jnp.sum(x * x, axis=axis, keepdims=True) + eps)


def _var_path(layer: Module, path: tuple) -> str:
    """Flax's name for a wrapped variable: ``'<layer name>/<key path>'``."""
    return f"{layer.name}/{tree_util.keystr(path[1:], simple=True, separator='/')}"


class WeightNorm(Module):
    """Runs ``layer_instance`` with l2-normalized (and learnably rescaled) weights.

    Each selected variable ``w`` of the layer is replaced by ``scale * w / ||w||`` with the
    norm over every axis but ``feature_axes``; ``scale`` is a parameter of this module named
    ``'<layer>/<path>/scale'``.

    Attributes:
      layer_instance: the wrapped layer (created outside, e.g. ``nn.Dense(3)``).
      epsilon: added under the square root.
      dtype: the output dtype of the normalized weights.
      param_dtype: the dtype of ``scale``.
      use_scale: learn the per-feature ``scale``.
      scale_init: initializer of ``scale``.
      feature_axes: the axes that keep their own norm (``None``: one norm per variable).
      variable_filter: normalize only variables whose path contains one of these strings
        (default ``{'kernel'}``; empty or ``None``: all).

    Example::

        >>> class Model(nn.Module):
        ...     @nn.compact
        ...     def __call__(self, x):
        ...         return nn.WeightNorm(nn.Dense(3))(x)
        >>> v = Model().init(core.random.key(0), jnp.ones((1, 2)))
        >>> core.tree_util.tree_map(jnp.shape, v)["params"]["WeightNorm_0"]
        {'Dense_0/kernel/scale': (3,)}
    """

    layer_instance: Module
    epsilon: float = 1e-12
    dtype: Any = None
    param_dtype: Any = jnp.float32
    use_scale: bool = True
    scale_init: Callable = initializers.ones
    feature_axes: Axes | None = -1
    variable_filter: Iterable | None = dataclasses.field(default_factory=lambda: {"kernel"})

    @compact
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Calls the wrapped layer with its weights normalized.

        Args:
          *args: positional arguments of the wrapped layer.
          **kwargs: keyword arguments of the wrapped layer.

        Returns:
          The wrapped layer's output.
        """
        return map_variables(
            lambda layer: layer(*args, **kwargs),
            trans_in_fn=lambda vs: tree_util.tree_map_with_path(self._l2_normalize, vs),
            init=self.is_initializing(),
        )(self.layer_instance)

    def _l2_normalize(self, path: tuple, vs: Array) -> Array:
        value = jnp.asarray(vs)
        str_path = _var_path(self.layer_instance, path)
        if self.variable_filter and not any(n in str_path for n in self.variable_filter):
            return value
        if self.feature_axes is None:
            feature_axes: tuple[int, ...] = ()
        else:
            feature_axes = _canonicalize_axes(value.ndim, self.feature_axes)
        reduction_axes = tuple(i for i in range(value.ndim) if i not in feature_axes)
        value_bar = _l2_normalize(value, axis=reduction_axes, eps=self.epsilon)
        args = [vs]
        if self.use_scale:
            name = f"{str_path}/scale"
            scale = _feature_param(self, name, self.scale_init, value.shape, feature_axes)
            value_bar = value_bar * scale
            args.append(scale)
        return jnp.asarray(value_bar, canonicalize_dtype(*args, dtype=self.dtype))


class SpectralNorm(Module):
    """Runs ``layer_instance`` with its weight matrices divided by their spectral norm.

    The largest singular value ``sigma`` is estimated by ``n_steps`` of power iteration from a
    vector ``u`` kept, with ``sigma``, in ``collection_name`` (``'<layer>/<path>/u'`` and
    ``'/sigma'``); they are updated when ``update_stats=True`` and the collection is mutable.
    Tensors of rank > 2 are flattened to ``(-1, last)``; scalars and vectors pass unchanged.

    Attributes:
      layer_instance: the wrapped layer.
      n_steps: power-iteration steps per call.
      epsilon: added when l2-normalizing.
      dtype: the output dtype of the normalized weights.
      param_dtype: the dtype of ``u`` and ``sigma``.
      error_on_non_matrix: raise for tensors of rank > 2 instead of flattening them.
      collection_name: the collection of ``u`` and ``sigma``.

    Example::

        >>> class Model(nn.Module):
        ...     @nn.compact
        ...     def __call__(self, x, train):
        ...         return nn.SpectralNorm(nn.Dense(3))(x, update_stats=train)
        >>> v = Model().init(core.random.key(0), jnp.ones((1, 2)), True)
        >>> core.tree_util.tree_map(jnp.shape, v)["batch_stats"]["SpectralNorm_0"]
        {'Dense_0/kernel/sigma': (), 'Dense_0/kernel/u': (1, 3)}
    """

    layer_instance: Module
    n_steps: int = 1
    epsilon: float = 1e-12
    dtype: Any = None
    param_dtype: Any = jnp.float32
    error_on_non_matrix: bool = False
    collection_name: str = "batch_stats"

    @compact
    def __call__(self, *args: Any, update_stats: bool, **kwargs: Any) -> Any:
        """Calls the wrapped layer with its weights divided by their largest singular value.

        Args:
          update_stats: run the power iteration and store its vectors (True in training, False in
            evaluation).
          *args: positional arguments of the wrapped layer.
          **kwargs: keyword arguments of the wrapped layer.

        Returns:
          The wrapped layer's output.
        """
        normalize = functools.partial(self._spectral_normalize, update_stats=update_stats)
        return map_variables(
            lambda layer: layer(*args, **kwargs),
            trans_in_fn=lambda vs: tree_util.tree_map_with_path(normalize, vs),
            init=self.is_initializing(),
            mutable=True,
        )(self.layer_instance)

    def _spectral_normalize(self, path: tuple, vs: Array, update_stats: bool) -> Array:
        weights = jnp.asarray(vs)
        if weights.ndim < 2 or self.n_steps < 1:  # scalars and vectors pass through
            return weights
        if weights.ndim > 2 and self.error_on_non_matrix:
            raise errors.SpectralNormRankError(weights.shape)
        # A kernel of higher rank is normalized as a matrix with its output features as columns.
        matrix = weights if weights.ndim == 2 else jnp.reshape(weights, (-1, weights.shape[-1]))
        # The estimate of the top singular vector (created first, from a 'params' key only
        # when it does not exist yet) and the last spectral norm, named by the weight's path.
        prefix = _var_path(self.layer_instance, path)
        stats = self.collection_name
        key = None if self.has_variable(stats, f"{prefix}/u") else self.make_rng("params")
        columns = (1, matrix.shape[-1])
        u_var = self.variable(stats, f"{prefix}/u", random.normal, key, columns, self.param_dtype)
        sigma_var = self.variable(stats, f"{prefix}/sigma", jnp.ones, (), self.param_dtype)
        u, v = _power_iteration(u_var.value, matrix, self.n_steps, self.epsilon)
        sigma = jnp.matmul(jnp.matmul(v, matrix), jnp.transpose(u))[0, 0]
        normalized = matrix / jnp.where(sigma != 0, sigma, 1)  # a zero matrix stays zero
        if update_stats:
            u_var.value, sigma_var.value = u, sigma
        dtype = canonicalize_dtype(vs, u, v, sigma, dtype=self.dtype)
        return jnp.asarray(jnp.reshape(normalized, weights.shape), dtype)
