"""Linear layers: ``Dense``, ``DenseGeneral``, ``Einsum``, ``Conv``, ``ConvLocal``,
``ConvTranspose``, ``Embed``.

Fields, defaults, parameter names and shapes are Flax's, so parameter trees and (with the same
key) initial values match: kernels are ``(in, out)`` / ``(*window, in, out)`` (HWIO) and
inputs are channels-last (NHWC). Parameters are created at the first call from the input's
shape (shape inference), which is why the compact style suits layers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

import core
import core.numpy as jnp
from core import lax
from core.numpy.path_info import einsum_terms
from nn import errors, initializers, meta
from nn.dtypes import promote_dtype
from nn.module import Module, compact, merge_param
from nn.typing import (  # noqa: F401  (Flax's names in flax.linen.linear)
    Array,
    ConvGeneralDilatedT,
    DotGeneralT,
    Dtype,
    Initializer,
    LaxPadding,
    PaddingLike,
    PrecisionLike,
    PRNGKey,
    Shape,
)

default_kernel_init = initializers.lecun_normal()
default_embed_init = initializers.variance_scaling(1.0, "fan_in", "normal", out_axis=0)


class PromoteDtypeFn(Protocol):
    """The type of a layer's ``promote_dtype`` (`nn.dtypes.promote_dtype`'s signature)."""

    def __call__(
        self, *args: Array | None, dtype: Any = None, inexact: bool = True
    ) -> list[Array | None]: ...


def _as_tuple(x: int | Sequence[int]) -> tuple[int, ...]:
    return tuple(x) if isinstance(x, Sequence) else (x,)


def _normalize_axes(axes: tuple[int, ...], ndim: int) -> tuple[int, ...]:
    # Sorted, as Flax's: `axis=(2, 1)` gives the kernel the input's axis order (5, 4, ...).
    return tuple(sorted(ax if ax >= 0 else ndim + ax for ax in axes))


def _reshape_boxed(value: Any, shape: tuple[int, ...]) -> Any:
    """``value`` reshaped; a boxed one (``nn.with_partitioning`` / ``with_logical_partitioning``
    initializers) keeps its box and axis names, as in Flax."""
    if isinstance(value, meta.AxisMetadata):
        return meta.replace_boxed(value, jnp.reshape(value.unbox(), shape))
    return jnp.reshape(value, shape)


def _contraction(layer: Module) -> Callable:
    # Flax's order: a `dot_general_cls` module, else `dot_general`, else lax's.
    if layer.dot_general_cls is not None:
        return layer.dot_general_cls()
    return layer.dot_general or lax.dot_general


class DenseGeneral(Module):
    """A linear map over several input axes to a tuple of output features.

    Attributes:
      features: the output features (an int or a tuple).
      axis: the input axes contracted with the kernel.
      batch_dims: leading input axes treated as batch axes of the kernel.
      use_bias: whether to add a bias.
      dtype: the computation dtype (default: promoted from inputs and params).
      param_dtype: the parameter dtype.
      precision: passed to ``dot_general``.
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).
      kernel_init: initializer of the kernel (applied to its 2-D flattening, like Flax).
      bias_init: initializer of the bias.
      dot_general: the contraction function.
      dot_general_cls: a module class (called with no arguments) made in the layer to
        contract instead (`nn.Fp8DirectDotGeneralOp`: fp8 training).

    Example::

        >>> layer = nn.DenseGeneral(features=(2, 3), axis=-1)
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 4)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (2, 3), 'kernel': (4, 2, 3)}}
    """

    features: int | Sequence[int]
    axis: int | Sequence[int] = -1
    batch_dims: Sequence[int] = ()
    use_bias: bool = True
    dtype: Any = None
    param_dtype: Any = jnp.float32
    kernel_init: Initializer = default_kernel_init
    bias_init: Initializer = initializers.zeros_init()
    precision: Any = None
    promote_dtype: Callable = promote_dtype
    dot_general: Callable | None = None
    dot_general_cls: Any = None

    @compact
    def __call__(self, inputs: Array) -> Array:
        """Contracts ``inputs`` over ``axis`` with the kernel.

        Args:
          inputs: the input array.

        Returns:
          The output: ``inputs``' other axes followed by ``features``.
        """
        features = _as_tuple(self.features)
        ndim = inputs.ndim
        batch_dims = _as_tuple(self.batch_dims)
        if batch_dims and set(batch_dims) != set(range(max(batch_dims) + 1)):
            raise ValueError(
                f"batch_dims {batch_dims} must be consecutive leading dimensions starting from 0."
            )
        batch_dims = _normalize_axes(batch_dims, ndim)
        axis = _normalize_axes(_as_tuple(self.axis), ndim)
        n_batch, n_axis, n_features = len(batch_dims), len(axis), len(features)

        def kernel_init_wrap(rng, shape, dtype=jnp.float32):
            flat = (
                int(np.prod(shape[: n_batch + n_axis])),
                int(np.prod(shape[-n_features:])),
            )
            return _reshape_boxed(self.kernel_init(rng, flat, dtype), shape)

        def bias_init_wrap(rng, shape, dtype=jnp.float32):
            flat = (int(np.prod(shape[:n_batch]) * np.prod(shape[-n_features:])),)
            return _reshape_boxed(self.bias_init(rng, flat, dtype), shape)

        batch_shape = tuple(inputs.shape[ax] for ax in batch_dims)
        kernel_shape = tuple(inputs.shape[ax] for ax in axis) + features
        kernel = self.param(
            "kernel", kernel_init_wrap, batch_shape + kernel_shape, self.param_dtype
        )
        bias = None
        if self.use_bias:
            bias = self.param("bias", bias_init_wrap, batch_shape + features, self.param_dtype)
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        contract = tuple(range(n_batch, n_batch + n_axis))
        dot_general = _contraction(self)
        out = dot_general(
            inputs,
            kernel,
            ((axis, contract), (batch_dims, tuple(range(n_batch)))),
            precision=self.precision,
        )
        if bias is not None:
            expanded = tuple(
                inputs.shape[ax] if ax in batch_dims else 1 for ax in range(ndim) if ax not in axis
            )
            out = out + jnp.reshape(bias, expanded + features)
        return out


class Dense(Module):
    """A linear map over the last axis: ``y = x @ kernel + bias``.

    Attributes:
      features: the number of output features.
      use_bias: whether to add a bias.
      dtype: the computation dtype (default: promoted from inputs and params).
      param_dtype: the parameter dtype.
      precision: passed to ``dot_general``.
      kernel_init: initializer of the ``(in, features)`` kernel (default ``lecun_normal``).
      bias_init: initializer of the bias (default zeros).
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).
      dot_general: the contraction function.
      dot_general_cls: a module class (called with no arguments) made in the layer to
        contract instead (`nn.Fp8DirectDotGeneralOp`: fp8 training).

    Example::

        >>> layer = nn.Dense(features=4)
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (4,), 'kernel': (3, 4)}}
    """

    features: int
    use_bias: bool = True
    dtype: Any = None
    param_dtype: Any = jnp.float32
    precision: Any = None
    kernel_init: Initializer = default_kernel_init
    bias_init: Initializer = initializers.zeros_init()
    promote_dtype: Callable = promote_dtype
    dot_general: Callable | None = None
    dot_general_cls: Any = None

    @compact
    def __call__(self, inputs: Array) -> Array:
        """Applies ``inputs @ kernel + bias`` over the last axis.

        Args:
          inputs: the input array; its last axis has the input features.

        Returns:
          An array of shape ``inputs.shape[:-1] + (features,)``.
        """
        fan_in = jnp.shape(inputs)[-1]
        kernel = self.param("kernel", self.kernel_init, (fan_in, self.features), self.param_dtype)
        bias = (
            self.param("bias", self.bias_init, (self.features,), self.param_dtype)
            if self.use_bias
            else None
        )
        # `promote_dtype` is a field (users may pass their own): it gets the three operands.
        x, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        features_with_rows = (((x.ndim - 1,), (0,)), ((), ()))
        out = _contraction(self)(x, kernel, features_with_rows, precision=self.precision)
        if bias is None:
            return out
        # The bias lines up with the last output axis and broadcasts over the others.
        return out + jnp.reshape(bias, (1,) * (out.ndim - 1) + (-1,))


class Einsum(Module):
    """A linear map written as an einsum between the input and a kernel of shape ``shape``.

    Attributes:
      shape: the kernel shape.
      einsum_str: the equation, e.g. ``'abc,cde->abde'`` (or pass it at call time).
      use_bias: whether to add a bias over the kernel axes kept in the output.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      precision: passed to ``einsum``.
      kernel_init: initializer of the kernel.
      bias_init: initializer of the bias.
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).
      preferred_element_type: the einsum's accumulation and result dtype (``einsum``'s).

    Example::

        >>> layer = nn.Einsum((5, 6, 7), "abc,cde->abde")
        >>> v = layer.init(core.random.key(0), jnp.ones((3, 4, 5)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (6, 7), 'kernel': (5, 6, 7)}}
    """

    shape: Sequence[int]
    einsum_str: str | None = None
    use_bias: bool = True
    dtype: Any = None
    param_dtype: Any = jnp.float32
    precision: Any = None
    kernel_init: Initializer = default_kernel_init
    bias_init: Initializer = initializers.zeros_init()
    promote_dtype: Callable = promote_dtype
    preferred_element_type: Any = None

    @compact
    def __call__(self, inputs: Array, einsum_str: str | None = None) -> Array:
        """Contracts ``inputs`` with the kernel by ``einsum_str`` and adds the bias.

        Args:
          inputs: the first operand of the einsum.
          einsum_str: the einsum expression ``'inputs,kernel->out'``; None uses the attribute (one
            of the two must be given).

        Returns:
          The result of the einsum (plus bias).
        """
        einsum_str = merge_param("einsum_str", self.einsum_str, einsum_str).replace(" ", "")
        if "->" not in einsum_str:
            raise ValueError('`einsum_str` equation must be explicit and include "->".')
        if einsum_str.count(",") != 1:
            raise ValueError(
                "`einsum_str` equation must have exactly two operands and therefore, exactly one "
                f"comma character, instead of {einsum_str.count(',')}"
            )
        kernel = self.param("kernel", self.kernel_init, tuple(self.shape), self.param_dtype)
        bias = None
        if self.use_bias:
            # Flax's bias: the kernel axes the output keeps, ellipses spelled out for both
            # operands (so an ellipsis of the kernel's may hold some)
            (_, rhs), result = einsum_terms(einsum_str, [jnp.shape(inputs), tuple(self.shape)])
            rhs_axes = {c: i for i, c in enumerate(rhs)}
            bias_shape = [self.shape[rhs_axes[c]] for c in result if c in rhs_axes]
            broadcast = [self.shape[rhs_axes[c]] if c in rhs_axes else 1 for c in result]
            bias = self.param("bias", self.bias_init, tuple(bias_shape), self.param_dtype)
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = jnp.einsum(
            einsum_str,
            inputs,
            kernel,
            precision=self.precision,
            preferred_element_type=self.preferred_element_type,
        )
        if bias is not None:
            y = y + jnp.reshape(bias, broadcast)
        return y


def canonicalize_padding(padding: Any, rank: int) -> Any:
    """Returns ``padding`` as a string or a list of ``(low, high)`` pairs, one per spatial axis."""
    if isinstance(padding, str):
        return padding
    if isinstance(padding, int):
        return [(padding, padding)] * rank
    if isinstance(padding, Sequence) and len(padding) == rank:
        pairs = [(p, p) if isinstance(p, int) else p for p in padding]
        if all(isinstance(p, Sequence) and len(p) == 2 for p in pairs):
            return [tuple(p) for p in pairs]
    raise ValueError(
        f"Invalid padding format: {padding}, should be str, int, or a sequence of len {rank} "
        "where each element is an int or pair of ints.\nUse 'SAME', 'VALID', 'CIRCULAR', "
        f"'CAUSAL', an int, or {rank} ints or (low, high) pairs."
    )


def _dimension_numbers(ndim: int) -> lax.ConvDimensionNumbers:
    """Channels-last specs (`NHWC`, `HWIO`, `NHWC`) for inputs of rank `ndim`, as Flax builds
    them: a `ConvDimensionNumbers`, so `lax`'s checks of the operands' ranks are its shape
    rule's."""
    lhs = (0, ndim - 1, *range(1, ndim - 1))
    return lax.ConvDimensionNumbers(lhs, (ndim - 1, ndim - 2, *range(ndim - 2)), lhs)


def _broadcast(x: int | Sequence[int] | None, n: int) -> tuple[int, ...]:
    if x is None:
        x = 1
    return (x,) * n if isinstance(x, int) else tuple(x)


def _flatten_batch(inputs: Array, n_spatial: int) -> tuple[Array, tuple[int, ...] | None]:
    """Reshapes ``(*batch, *spatial, C)`` to exactly one batch axis (added if missing)."""
    n_batch = inputs.ndim - (n_spatial + 1)
    if n_batch == 1:
        return inputs, None
    batch_shape = inputs.shape[:n_batch]
    return jnp.reshape(inputs, (-1,) + inputs.shape[n_batch:]), batch_shape


def _conv_params(module: Module, kernel_shape: tuple[int, ...], bias_shape: tuple[int, ...]):
    """Creates ``kernel`` (times ``module.mask``) and, with ``use_bias``, ``bias``."""
    if module.mask is not None and tuple(module.mask.shape) != kernel_shape:
        raise ValueError(
            "Mask needs to have the same shape as weights. Shapes are: "
            f"{tuple(module.mask.shape)}, {kernel_shape}"
        )
    kernel = module.param("kernel", module.kernel_init, kernel_shape, module.param_dtype)
    if module.mask is not None:
        kernel = kernel * module.mask
    bias = None
    if module.use_bias:
        bias = module.param("bias", module.bias_init, bias_shape, module.param_dtype)
    return kernel, bias


def _finish_conv(y: Array, bias: Array | None, batch_shape: tuple[int, ...] | None) -> Array:
    """Adds the bias (broadcast over leading axes) and restores the input's batch axes."""
    if bias is not None:
        y = y + jnp.reshape(bias, (1,) * (y.ndim - bias.ndim) + tuple(bias.shape))
    if batch_shape is not None:
        y = jnp.reshape(y, batch_shape + y.shape[1:])
    return y


_PAD_MODES = {"CIRCULAR": "wrap", "REFLECT": "reflect"}


class _Conv(Module):
    """The convolution shared by ``Conv`` (one kernel) and ``ConvLocal`` (one per position);
    the attributes are listed in ``Conv``.
    """

    features: int
    kernel_size: int | Sequence[int]
    strides: int | Sequence[int] | None = 1
    padding: Any = "SAME"
    input_dilation: int | Sequence[int] | None = 1
    kernel_dilation: int | Sequence[int] | None = 1
    feature_group_count: int = 1
    use_bias: bool = True
    mask: Array | None = None
    dtype: Any = None
    param_dtype: Any = jnp.float32
    precision: Any = None
    kernel_init: Initializer = default_kernel_init
    bias_init: Initializer = initializers.zeros_init()
    promote_dtype: Callable = promote_dtype
    conv_general_dilated: Callable | None = None
    conv_general_dilated_cls: Any = None

    @property
    def shared_weights(self) -> bool:
        """Whether all output positions share one kernel (``Conv``) or not (``ConvLocal``)."""
        raise NotImplementedError

    @compact
    def __call__(self, inputs: Array) -> Array:
        """Convolves channels-last ``inputs`` of shape ``(*batch, *spatial, features)``.

        Any number of batch axes (also none) is accepted; they are merged for the convolution.

        Args:
          inputs: ``(*batch, *spatial, in_features)``; without batch axes a batch of one is assumed
            and removed again.

        Returns:
          ``(*batch, *out_spatial, features)``.
        """
        kernel_size = _as_tuple(self.kernel_size)
        n = len(kernel_size)
        inputs, batch_shape = _flatten_batch(inputs, n)
        strides = _broadcast(self.strides, n)
        input_dilation = _broadcast(self.input_dilation, n)
        kernel_dilation = _broadcast(self.kernel_dilation, n)
        padding = canonicalize_padding(self.padding, n)
        if isinstance(padding, str) and padding in _PAD_MODES:
            dilated = [(k - 1) * d + 1 for k, d in zip(kernel_size, kernel_dilation)]
            pads = [(0, 0)] + [((k - 1) // 2, k // 2) for k in dilated] + [(0, 0)]
            inputs = jnp.pad(inputs, pads, mode=_PAD_MODES[padding])
            padding = "VALID"
        elif padding == "CAUSAL":
            if n != 1:
                raise ValueError("Causal padding is only implemented for 1D convolutions.")
            inputs = jnp.pad(
                inputs, [(0, 0), (kernel_dilation[0] * (kernel_size[0] - 1), 0), (0, 0)]
            )
            padding = "VALID"
        conv_args = dict(
            window_strides=strides,
            padding=padding,
            lhs_dilation=input_dilation,
            rhs_dilation=kernel_dilation,
            dimension_numbers=_dimension_numbers(inputs.ndim),
        )
        if self.shared_weights:
            y, bias = self._shared_conv(inputs, kernel_size, conv_args)
        else:
            y, bias = self._local_conv(inputs, kernel_size, conv_args)
        return _finish_conv(y, bias, batch_shape)

    def _shared_conv(self, inputs: Array, kernel_size: tuple[int, ...], conv_args: dict):
        in_features = inputs.shape[-1]
        if in_features % self.feature_group_count:
            raise errors.ConvFeatureGroupError(in_features, self.feature_group_count)
        kernel_shape = kernel_size + (in_features // self.feature_group_count, self.features)
        kernel, bias = _conv_params(self, kernel_shape, (self.features,))
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        if self.conv_general_dilated_cls is not None:
            conv = self.conv_general_dilated_cls()
        else:
            conv = self.conv_general_dilated or lax.conv_general_dilated
        y = conv(
            inputs,
            kernel,
            feature_group_count=self.feature_group_count,
            precision=self.precision,
            **conv_args,
        )
        return y, bias

    def _local_conv(self, inputs: Array, kernel_size: tuple[int, ...], conv_args: dict):
        """``lax.conv_general_dilated_local``: each output position has its own kernel.

        The kernel is ``(*out_spatial, in_features * prod(kernel_size), features)``; its input
        axis is ordered (channel, *window) like the patches of
        ``lax.conv_general_dilated_patches``, as in JAX.
        """
        if self.feature_group_count != 1:
            raise errors.ConvLocalFeatureGroupError(self.feature_group_count)

        def patches(x: Array) -> Array:
            return lax.conv_general_dilated_patches(x, kernel_size, **conv_args)

        # Float stand-in for the shape: the patches are taken after dtype promotion.
        probe = core.ShapeDtypeStruct(inputs.shape, jnp.float32)
        out_spatial = tuple(core.eval_shape(patches, probe).shape[1:-1])
        patch_size = int(np.prod(kernel_size)) * inputs.shape[-1]
        kernel, bias = _conv_params(
            self, out_spatial + (patch_size, self.features), out_spatial + (self.features,)
        )
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        n = len(kernel_size)
        spatial = tuple(range(n))
        y = lax.dot_general(
            patches(inputs),
            kernel,
            (((n + 1,), (n,)), (tuple(a + 1 for a in spatial), spatial)),
            precision=self.precision,
        )
        return jnp.moveaxis(y, n, 0), bias  # (*spatial, N, features) -> (N, *spatial, features)


class Conv(_Conv):
    """An N-d convolution over channels-last inputs (``lax.conv_general_dilated``).

    The kernel is ``(*kernel_size, in // groups, features)`` and the bias ``(features,)``.

    Attributes:
      features: the number of output channels.
      kernel_size: the window shape (an int means a 1-D window).
      strides: the window strides (int or per-axis).
      padding: ``'SAME'``, ``'VALID'``, ``'CIRCULAR'``, ``'REFLECT'``, ``'CAUSAL'`` (1-D), an
        int, or per-axis ints or ``(low, high)`` pairs.
      input_dilation: the input (``lhs``) dilation.
      kernel_dilation: the kernel (``rhs``, atrous) dilation.
      feature_group_count: splits input channels into groups (depthwise when equal to them).
      use_bias: whether to add a bias.
      mask: multiplied into the kernel (same shape).
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      precision: passed to the convolution.
      kernel_init: initializer of the kernel.
      bias_init: initializer of the bias.
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).
      conv_general_dilated: the convolution function (default ``lax.conv_general_dilated``;
        Flax's hook for quantized convolutions). ``ConvLocal`` does not use it.
      conv_general_dilated_cls: a factory called with no arguments for that function
        (takes precedence over ``conv_general_dilated``).

    Example::

        >>> layer = nn.Conv(features=4, kernel_size=(3, 3))
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 8, 8, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (4,), 'kernel': (3, 3, 3, 4)}}
    """

    @property
    def shared_weights(self) -> bool:
        return True


class ConvLocal(_Conv):
    """A locally connected ("unshared") convolution: a different kernel at each output position.

    Same attributes as ``Conv`` (``feature_group_count`` must be 1). The kernel is
    ``(*out_spatial, in * prod(kernel_size), features)`` and the bias
    ``(*out_spatial, features)``, as in Flax.

    Example::

        >>> layer = nn.ConvLocal(features=4, kernel_size=(3,), padding="VALID")
        >>> y, v = layer.init_with_output(core.random.key(0), jnp.ones((1, 8, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v), y.shape
        ({'params': {'bias': (6, 4), 'kernel': (6, 9, 4)}}, (1, 6, 4))
    """

    @property
    def shared_weights(self) -> bool:
        return False


class ConvTranspose(Module):
    """A transposed ("fractionally strided") convolution over channels-last inputs.

    Attributes:
      features: the number of output channels.
      kernel_size: the window shape.
      strides: the upsampling strides (default 1).
      padding: ``'SAME'``, ``'VALID'``, ``'CIRCULAR'`` or explicit pairs.
      kernel_dilation: the kernel dilation.
      use_bias: whether to add a bias.
      mask: multiplied into the kernel.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      precision: passed to the convolution.
      kernel_init: initializer of the ``(*kernel_size, in, features)`` kernel.
      bias_init: initializer of the bias.
      transpose_kernel: flip the kernel like the gradient of a ``Conv`` does.
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).
      preferred_element_type: the convolution's accumulation and result dtype
        (``lax.conv_transpose``'s).

    Example::

        >>> layer = nn.ConvTranspose(features=4, kernel_size=(3, 3), strides=(2, 2))
        >>> v = layer.init(core.random.key(0), jnp.ones((1, 4, 4, 3)))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'bias': (4,), 'kernel': (3, 3, 3, 4)}}
    """

    features: int
    kernel_size: int | Sequence[int]
    strides: Sequence[int] | None = None
    padding: Any = "SAME"
    kernel_dilation: Sequence[int] | None = None
    use_bias: bool = True
    mask: Array | None = None
    dtype: Any = None
    param_dtype: Any = jnp.float32
    precision: Any = None
    kernel_init: Initializer = default_kernel_init
    bias_init: Initializer = initializers.zeros_init()
    transpose_kernel: bool = False
    promote_dtype: Callable = promote_dtype
    preferred_element_type: Any = None

    @compact
    def __call__(self, inputs: Array) -> Array:
        """Applies the transposed convolution to channels-last ``inputs``.

        Args:
          inputs: ``(*batch, *spatial, in_features)``.

        Returns:
          ``(*batch, *out_spatial, features)``.
        """
        kernel_size = _as_tuple(self.kernel_size)
        n = len(kernel_size)
        inputs, batch_shape = _flatten_batch(inputs, n)
        strides = _broadcast(self.strides, n)
        kernel_dilation = _broadcast(self.kernel_dilation, n)
        in_features = inputs.shape[-1]
        if self.transpose_kernel:
            kernel_shape = kernel_size + (self.features, in_features)
        else:
            kernel_shape = kernel_size + (in_features, self.features)
        kernel, bias = _conv_params(self, kernel_shape, (self.features,))
        padding = canonicalize_padding(self.padding, n)
        inputs, kernel, bias = self.promote_dtype(inputs, kernel, bias, dtype=self.dtype)
        y = lax.conv_transpose(
            inputs,
            kernel,
            strides,
            "VALID" if padding == "CIRCULAR" else padding,
            rhs_dilation=kernel_dilation,
            dimension_numbers=_dimension_numbers(inputs.ndim),
            transpose_kernel=self.transpose_kernel,
            precision=self.precision,
            preferred_element_type=self.preferred_element_type,
        )
        if padding == "CIRCULAR":
            y = self._wrap_circular(y, inputs.shape[1:-1], strides)
        return _finish_conv(y, bias, batch_shape)

    def _wrap_circular(self, y: Array, in_spatial: tuple, strides: tuple) -> Array:
        """Folds a 'VALID' transposed output periodically onto ``input size * stride``."""
        scaled = [x * s for x, s in zip(in_spatial, strides)]
        diffs = [-(yd - xd) % (2 * xd) for yd, xd in zip(y.shape[1:-1], scaled)]
        if self.transpose_kernel:
            pads = [(d // 2, (d + 1) // 2) for d in diffs]
        else:
            pads = [((d + 1) // 2, d // 2) for d in diffs]
        y = jnp.pad(y, [(0, 0)] + pads + [(0, 0)])
        for i in range(1, y.ndim - 1):
            y = jnp.reshape(y, y.shape[:i] + (-1, scaled[i - 1]) + y.shape[i + 1 :]).sum(axis=i)
        return y


class Embed(Module):
    """A lookup table of ``num_embeddings`` vectors of size ``features``.

    Attributes:
      num_embeddings: the number of rows (vocabulary size).
      features: the embedding size.
      dtype: the computation dtype.
      param_dtype: the parameter dtype.
      embedding_init: initializer of the ``(num_embeddings, features)`` table.
      promote_dtype: ``(*arrays, dtype=, inexact=) -> list`` casting the inputs and
        parameters to the computation dtype (default ``nn.dtypes.promote_dtype``).

    Example::

        >>> layer = nn.Embed(num_embeddings=5, features=3)
        >>> v = layer.init(core.random.key(0), jnp.arange(4))
        >>> core.tree_util.tree_map(jnp.shape, v)
        {'params': {'embedding': (5, 3)}}
    """

    num_embeddings: int
    features: int
    dtype: Any = None
    param_dtype: Any = jnp.float32
    embedding_init: Initializer = default_embed_init
    promote_dtype: Callable = promote_dtype

    def setup(self) -> None:
        self.embedding = self.param(
            "embedding",
            self.embedding_init,
            (self.num_embeddings, self.features),
            self.param_dtype,
        )

    def __call__(self, inputs: Array) -> Array:
        """Looks up the rows ``inputs`` (integers; output shape ``inputs.shape + (features,)``).

        Args:
          inputs: an integer array of indices into the table.

        Returns:
          The embedding vectors, ``inputs.shape + (features,)``.
        """
        if jnp.issubdtype(inputs.dtype, jnp.integer):
            table = self.promote_dtype(self.embedding, dtype=self.dtype, inexact=False)[0]
            # A one-row table is its own lookup for every index (as Flax, even out-of-range
            # ones); otherwise a gather, which fills out-of-range rows with NaN.
            if self.num_embeddings != 1:
                return jnp.take(table, inputs, axis=0)
            return jnp.broadcast_to(table, (*inputs.shape, self.features))
        raise ValueError(
            f"Input type must be an integer or unsigned integer.\nEmbed got {inputs.dtype}."
        )

    def attend(self, query: Array) -> Array:
        """Scores ``query`` (last axis ``features``) against every row: ``query @ embedding.T``."""
        query, embedding = self.promote_dtype(query, self.embedding, dtype=self.dtype)
        return jnp.dot(query, embedding.T)
