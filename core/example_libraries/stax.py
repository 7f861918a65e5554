"""Stax: JAX's small combinator library of neural-network layers (`jax.example_libraries.stax`).

A layer is an `(init_fun, apply_fun)` pair:

* `init_fun(rng, input_shape) -> (output_shape, params)` computes shapes only (the output shape
  through the `lax` shape helpers), so a network is initialized without running it;
* `apply_fun(params, inputs, **kwargs) -> outputs`; `rng=key` reaches the layers that need
  randomness (`Dropout`), split per layer by `serial`/`parallel` exactly as in JAX.

Constructors are CamelCase (`Dense(10)`, `Conv(32, (3, 3))`); parameterless layers are the pair
itself (`Relu`, `Flatten`, `Identity`, `FanInSum`). Names, defaults, parameter layouts and the
key splitting match JAX, so the same key gives the same parameters as JAX. JAX's quirks are
kept for ported code: `Dropout(rate)` *keeps* each input with probability `rate`.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import core.numpy as jnp
from core import lax, random
from core.example_libraries.errors import DropoutRngError
from core.nn import (
    elu,
    gelu,
    leaky_relu,
    log_softmax,
    relu,
    selu,
    sigmoid,
    softmax,
    softplus,
    standardize,
)
from core.nn.initializers import glorot_normal, normal, ones, zeros

InitFun = Callable[[Any, Any], tuple[Any, Any]]
ApplyFun = Callable[..., Any]
Layer = tuple[InitFun, ApplyFun]

_DENSE_W_INIT = glorot_normal()
_DENSE_B_INIT = normal()
_CONV_B_INIT = normal(1e-6)

# JAX's backwards-compatible aliases.
glorot = glorot_normal
randn = normal
logsoftmax = log_softmax


def Dense(
    out_dim: int, W_init: Callable = _DENSE_W_INIT, b_init: Callable = _DENSE_B_INIT
) -> Layer:
    """A fully connected layer: `inputs @ W + b`, params `(W, b)`.

    Args:
      out_dim: the number of output features.
      W_init: initializer of the `(in_dim, out_dim)` kernel.
      b_init: initializer of the `(out_dim,)` bias.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        output_shape = tuple(input_shape[:-1]) + (out_dim,)
        k1, k2 = random.split(rng)
        return output_shape, (W_init(k1, (input_shape[-1], out_dim)), b_init(k2, (out_dim,)))

    def apply_fun(params, inputs, **kwargs):
        W, b = params
        return jnp.dot(inputs, W) + b

    return init_fun, apply_fun


def _conv_layer(shape_fn: Callable, conv_fn: Callable) -> Callable[..., Layer]:
    """A general (transposed) convolution constructor over `shape_fn`/`conv_fn`."""

    def constructor(
        dimension_numbers: tuple[str, str, str],
        out_chan: int,
        filter_shape: Sequence[int],
        strides: Sequence[int] | None = None,
        padding: Any = "VALID",
        W_init: Callable | None = None,
        b_init: Callable = _CONV_B_INIT,
    ) -> Layer:
        lhs_spec, rhs_spec, out_spec = dimension_numbers
        one = (1,) * len(filter_shape)
        strides = strides or one
        W_init = W_init or glorot_normal(rhs_spec.index("I"), rhs_spec.index("O"))

        def init_fun(rng, input_shape):
            filters = iter(filter_shape)
            kernel_shape = [
                out_chan
                if c == "O"
                else input_shape[lhs_spec.index("C")]
                if c == "I"
                else next(filters)
                for c in rhs_spec
            ]
            output_shape = shape_fn(input_shape, kernel_shape, strides, padding, dimension_numbers)
            bias_shape = [out_chan if c == "C" else 1 for c in out_spec]
            k1, k2 = random.split(rng)
            return output_shape, (W_init(k1, kernel_shape), b_init(k2, bias_shape))

        def apply_fun(params, inputs, **kwargs):
            W, b = params
            return conv_fn(inputs, W, strides, padding, one, dimension_numbers) + b

        return init_fun, apply_fun

    return constructor


def _conv(inputs, W, strides, padding, one, dimension_numbers):
    return lax.conv_general_dilated(
        inputs, W, strides, padding, one, one, dimension_numbers=dimension_numbers
    )


def _conv_transpose(inputs, W, strides, padding, one, dimension_numbers):
    return lax.conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers)


GeneralConv = _conv_layer(lax.conv_general_shape_tuple, _conv)
GeneralConv.__doc__ = """A convolution layer `GeneralConv(dimension_numbers, out_chan,
filter_shape, strides=None, padding='VALID', W_init=None, b_init=normal(1e-6))`; params
`(W, b)` with `W` laid out as `dimension_numbers[1]` (glorot normal by default)."""
Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))

GeneralConvTranspose = _conv_layer(lax.conv_transpose_shape_tuple, _conv_transpose)
GeneralConvTranspose.__doc__ = """A transposed-convolution layer, with the arguments of
`GeneralConv`."""
Conv1DTranspose = functools.partial(GeneralConvTranspose, ("NHC", "HIO", "NHC"))
ConvTranspose = functools.partial(GeneralConvTranspose, ("NHWC", "HWIO", "NHWC"))


def BatchNorm(
    axis: int | Sequence[int] = (0, 1, 2),
    epsilon: float = 1e-5,
    center: bool = True,
    scale: bool = True,
    beta_init: Callable = zeros,
    gamma_init: Callable = ones,
) -> Layer:
    """Batch normalization over `axis` with the batch's own statistics (no running averages).

    Args:
      axis: the axes statistics are taken over; the params have the other axes' sizes.
      epsilon: added to the variance.
      center: learn an offset `beta` (else its param is `()`).
      scale: learn a scale `gamma` (else its param is `()`).
      beta_init: initializer of `beta`.
      gamma_init: initializer of `gamma`.

    Returns:
      The `(init_fun, apply_fun)` pair; params `(beta, gamma)`.
    """
    axis = (axis,) if jnp.isscalar(axis) else tuple(axis)

    def init_fun(rng, input_shape):
        shape = tuple(d for i, d in enumerate(input_shape) if i not in axis)
        k1, k2 = random.split(rng)
        beta = beta_init(k1, shape) if center else ()
        gamma = gamma_init(k2, shape) if scale else ()
        return input_shape, (beta, gamma)

    def apply_fun(params, x, **kwargs):
        beta, gamma = params
        expand = tuple(None if i in axis else slice(None) for i in range(jnp.ndim(x)))
        z = standardize(x, axis, epsilon=epsilon)
        if scale:
            z = gamma[expand] * z
        if center:
            z = z + beta[expand]
        return z

    return init_fun, apply_fun


def elementwise(fun: Callable, **fun_kwargs: Any) -> Layer:
    """A parameterless layer applying `fun(inputs, **fun_kwargs)`.

    Args:
      fun: the function.
      **fun_kwargs: keyword arguments passed to `fun`.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        return fun(inputs, **fun_kwargs)

    return init_fun, apply_fun


Tanh = elementwise(jnp.tanh)
Relu = elementwise(relu)
Exp = elementwise(jnp.exp)
LogSoftmax = elementwise(log_softmax, axis=-1)
Softmax = elementwise(softmax, axis=-1)
Softplus = elementwise(softplus)
Sigmoid = elementwise(sigmoid)
Elu = elementwise(elu)
LeakyRelu = elementwise(leaky_relu)
Selu = elementwise(selu)
Gelu = elementwise(gelu)


def _window_sizes(inputs, window_shape, strides, padding, spec) -> Any:
    """How many input elements each output window of a pooling covers (for averages)."""
    non_spatial = (0, inputs.ndim - 1) if spec is None else (spec.index("N"), spec.index("C"))
    spatial = tuple(d for i, d in enumerate(inputs.shape) if i not in non_spatial)
    sizes = lax.reduce_window(
        jnp.ones(spatial, inputs.dtype), 0.0, lax.add, window_shape, strides, padding
    )
    for i in sorted(non_spatial):
        sizes = jnp.expand_dims(sizes, i)
    return sizes


def _pooling_layer(reducer: Callable, init_val: float, average: bool = False) -> Callable:
    def PoolingLayer(
        window_shape: Sequence[int],
        strides: Sequence[int] | None = None,
        padding: str = "VALID",
        spec: str | None = None,
    ) -> Layer:
        """A pooling layer over the spatial axes of `spec` (default: `N...C`, NHWC in 2-d).

        Args:
          window_shape: the window's spatial size.
          strides: the spatial strides (default: 1).
          padding: 'VALID', 'SAME' or explicit pairs over the spatial axes.
          spec: the input's layout string, e.g. 'NCHW'.

        Returns:
          The `(init_fun, apply_fun)` pair.
        """
        spatial_window, spatial_strides = (
            tuple(window_shape),
            tuple(strides or (1,) * len(window_shape)),
        )
        non_spatial = (
            (0, len(window_shape) + 1) if spec is None else (spec.index("N"), spec.index("C"))
        )
        dims, steps = list(spatial_window), list(spatial_strides)
        for i in sorted(non_spatial):
            dims.insert(i, 1)
            steps.insert(i, 1)
        dims, steps = tuple(dims), tuple(steps)

        def init_fun(rng, input_shape):
            pads = lax.padtype_to_pads(input_shape, dims, steps, padding)
            ones_ = (1,) * len(dims)
            return lax.reduce_window_shape_tuple(input_shape, dims, steps, pads, ones_, ones_), ()

        def apply_fun(params, inputs, **kwargs):
            out = lax.reduce_window(inputs, init_val, reducer, dims, steps, padding)
            if average:
                out = out / _window_sizes(inputs, spatial_window, spatial_strides, padding, spec)
            return out

        return init_fun, apply_fun

    return PoolingLayer


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)
AvgPool = _pooling_layer(lax.add, 0.0, average=True)


def _flatten() -> Layer:
    def init_fun(rng, input_shape):
        return (input_shape[0], math.prod(input_shape[1:])), ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.reshape(inputs, (inputs.shape[0], -1))

    return init_fun, apply_fun


Flatten = _flatten()
"""Flattens all but the leading (batch) axis."""

Identity = elementwise(lambda x: x)
"""Returns its inputs."""


def FanOut(num: int) -> Layer:
    """Copies its input into a list of `num` inputs (for `parallel`).

    Args:
      num: the number of copies.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        return [input_shape] * num, ()

    def apply_fun(params, inputs, **kwargs):
        return [inputs] * num

    return init_fun, apply_fun


def _fan_in_sum() -> Layer:
    def init_fun(rng, input_shape):
        return input_shape[0], ()

    def apply_fun(params, inputs, **kwargs):
        return sum(inputs)

    return init_fun, apply_fun


FanInSum = _fan_in_sum()
"""Sums a list of inputs."""


def FanInConcat(axis: int = -1) -> Layer:
    """Concatenates a list of inputs along `axis`.

    Args:
      axis: the concatenation axis.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        ax = axis % len(input_shape[0])
        size = sum(shape[ax] for shape in input_shape)
        first = tuple(input_shape[0])
        return first[:ax] + (size,) + first[ax + 1 :], ()

    def apply_fun(params, inputs, **kwargs):
        return jnp.concatenate(inputs, axis)

    return init_fun, apply_fun


def Dropout(rate: float, mode: str = "train") -> Layer:
    """Dropout as JAX's stax does it: `rate` is the probability of *keeping* an input.

    In 'train' mode each input is kept with probability `rate` and scaled by `1 / rate`;
    `apply_fun` needs `rng=key`. Any other mode returns the inputs.

    Args:
      rate: the keep probability (JAX's stax semantics, the reverse of `nn.Dropout`'s).
      mode: 'train' or anything else (evaluation).

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = kwargs.get("rng")
        if rng is None:
            raise DropoutRngError()
        if mode != "train":
            return inputs
        keep = random.bernoulli(rng, rate, inputs.shape)
        return jnp.where(keep, inputs / rate, 0)

    return init_fun, apply_fun


def _split_rngs(kwargs: dict, n: int) -> Sequence[Any]:
    rng = kwargs.pop("rng", None)
    return random.split(rng, n) if rng is not None else (None,) * n


def serial(*layers: Layer) -> Layer:
    """Composes layers one after the other.

    `init_fun` splits its key before each layer (`rng, layer_rng = split(rng)`); `apply_fun`
    splits `rng=` into one key per layer. Params are a list with one entry per layer.

    Args:
      *layers: `(init_fun, apply_fun)` pairs.

    Returns:
      The composed `(init_fun, apply_fun)` pair.
    """
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        params = []
        for init in init_funs:
            rng, layer_rng = random.split(rng)
            input_shape, param = init(layer_rng, input_shape)
            params.append(param)
        return input_shape, params

    def apply_fun(params, inputs, **kwargs):
        rngs = _split_rngs(kwargs, len(layers))
        for fun, param, rng in zip(apply_funs, params, rngs):
            inputs = fun(param, inputs, rng=rng, **kwargs)
        return inputs

    return init_fun, apply_fun


def parallel(*layers: Layer) -> Layer:
    """Applies layer `i` to input `i` of a sequence (use with `FanOut` and `FanInSum`).

    Args:
      *layers: `(init_fun, apply_fun)` pairs.

    Returns:
      The `(init_fun, apply_fun)` pair mapping a sequence of inputs to a list of outputs;
      `init_fun` returns `(output_shapes, params)` as two tuples, like JAX's.
    """
    init_funs, apply_funs = zip(*layers)

    def init_fun(rng, input_shape):
        rngs = random.split(rng, len(layers))
        results = [init(r, shape) for init, r, shape in zip(init_funs, rngs, input_shape)]
        return tuple(zip(*results))

    def apply_fun(params, inputs, **kwargs):
        rngs = _split_rngs(kwargs, len(layers))
        return [f(p, x, rng=r, **kwargs) for f, p, x, r in zip(apply_funs, params, inputs, rngs)]

    return init_fun, apply_fun


def shape_dependent(make_layer: Callable[[Any], Layer]) -> Layer:
    """Delays building a layer until the input shape is known.

    Args:
      make_layer: maps an input shape to an `(init_fun, apply_fun)` pair.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        return make_layer(input_shape)[0](rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        return make_layer(inputs.shape)[1](params, inputs, **kwargs)

    return init_fun, apply_fun
