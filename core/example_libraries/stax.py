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


def _stateless(output_shape: Callable[[Any], Any], forward: Callable[[Any], Any]) -> Layer:
    """A layer without parameters: its params are `()` and `rng=`/other keywords are ignored."""

    def init_fun(rng, input_shape):
        return output_shape(input_shape), ()

    def apply_fun(params, inputs, **kwargs):
        return forward(inputs)

    return init_fun, apply_fun


def _same_shape(shape: Any) -> Any:
    return shape


def _two_params(
    shapes: Callable[[Any], tuple[Any, Any, Any]],
    inits: tuple[Callable | None, Callable | None],
    forward: Callable[[Any, Any, Any], Any],
) -> Layer:
    """A layer whose params are a pair, each drawn from its own half of one key split.

    `shapes(input_shape)` gives `(output_shape, first_shape, second_shape)`; an initializer of
    `None` leaves that param as `()`; `forward(first, second, inputs)` is the layer.
    """

    def init_fun(rng, input_shape):
        output_shape, *param_shapes = shapes(input_shape)
        keys = random.split(rng)
        params = tuple(
            () if init is None else init(key, shape)
            for init, key, shape in zip(inits, keys, param_shapes)
        )
        return output_shape, params

    def apply_fun(params, inputs, **kwargs):
        return forward(*params, inputs)

    return init_fun, apply_fun


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

    def shapes(input_shape):
        *leading, in_dim = input_shape
        return (*leading, out_dim), (in_dim, out_dim), (out_dim,)

    def forward(W, b, inputs):
        return jnp.dot(inputs, W) + b

    return _two_params(shapes, (W_init, b_init), forward)


def _kernel_shape(specs: tuple[str, str, str], input_shape: Any, out_chan: int, window: Any):
    """The kernel's shape in `specs[1]`'s layout: 'O' out_chan, 'I' the input's channels, the
    spatial letters `window` in order."""
    in_chan = input_shape[specs[0].index("C")]
    spatial = iter(window)
    sizes = {"O": out_chan, "I": in_chan}
    return [sizes[letter] if letter in sizes else next(spatial) for letter in specs[1]]


def _convolution_family(name: str, output_shape: Callable, convolve: Callable) -> Callable:
    """A `GeneralConv`-like constructor: `output_shape` is the lax shape rule and
    `convolve(inputs, W, strides, padding, dimension_numbers)` the operation."""

    def constructor(
        dimension_numbers: tuple[str, str, str],
        out_chan: int,
        filter_shape: Sequence[int],
        strides: Sequence[int] | None = None,
        padding: Any = "VALID",
        W_init: Callable | None = None,
        b_init: Callable = _CONV_B_INIT,
    ) -> Layer:
        kernel_layout, out_layout = dimension_numbers[1], dimension_numbers[2]
        strides = strides or (1,) * len(filter_shape)
        if W_init is None:
            W_init = glorot_normal(kernel_layout.index("I"), kernel_layout.index("O"))

        def shapes(input_shape):
            kernel = _kernel_shape(dimension_numbers, input_shape, out_chan, filter_shape)
            out = output_shape(input_shape, kernel, strides, padding, dimension_numbers)
            bias = [out_chan if letter == "C" else 1 for letter in out_layout]
            return out, kernel, bias

        def forward(W, b, inputs):
            return convolve(inputs, W, strides, padding, dimension_numbers) + b

        return _two_params(shapes, (W_init, b_init), forward)

    constructor.__name__ = constructor.__qualname__ = name
    return constructor


def _dilated(inputs, W, strides, padding, dimension_numbers):
    unit = (1,) * (W.ndim - 2)
    return lax.conv_general_dilated(
        inputs, W, strides, padding, unit, unit, dimension_numbers=dimension_numbers
    )


def _transposed(inputs, W, strides, padding, dimension_numbers):
    return lax.conv_transpose(inputs, W, strides, padding, dimension_numbers=dimension_numbers)


GeneralConv = _convolution_family("GeneralConv", lax.conv_general_shape_tuple, _dilated)
GeneralConv.__doc__ = """A convolution layer `GeneralConv(dimension_numbers, out_chan,
filter_shape, strides=None, padding='VALID', W_init=None, b_init=normal(1e-6))`; params
`(W, b)` with `W` laid out as `dimension_numbers[1]` (glorot normal by default)."""
Conv = functools.partial(GeneralConv, ("NHWC", "HWIO", "NHWC"))

GeneralConvTranspose = _convolution_family(
    "GeneralConvTranspose", lax.conv_transpose_shape_tuple, _transposed
)
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
    reduced = (axis,) if jnp.isscalar(axis) else tuple(axis)

    def kept(shape):
        return tuple(size for dim, size in enumerate(shape) if dim not in reduced)

    def shapes(input_shape):
        return input_shape, kept(input_shape), kept(input_shape)

    def forward(beta, gamma, x):
        to_input = tuple(None if dim in reduced else slice(None) for dim in range(jnp.ndim(x)))
        out = standardize(x, reduced, epsilon=epsilon)
        if scale:
            out = gamma[to_input] * out
        if center:
            out = out + beta[to_input]
        return out

    inits = (beta_init if center else None, gamma_init if scale else None)
    return _two_params(shapes, inits, forward)


def elementwise(fun: Callable, **fun_kwargs: Any) -> Layer:
    """A parameterless layer applying `fun(inputs, **fun_kwargs)`.

    Args:
      fun: the function.
      **fun_kwargs: keyword arguments passed to `fun`.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """
    return _stateless(_same_shape, lambda inputs: fun(inputs, **fun_kwargs))


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


def _batch_and_channel(rank: int, spec: str | None) -> tuple[int, int]:
    """The positions of N and C in a pooling input of `rank` axes (`N...C` when no spec)."""
    return (0, rank - 1) if spec is None else (spec.index("N"), spec.index("C"))


def _fill_spatial(rank: int, fixed: tuple[int, int], spatial: Sequence[int]) -> tuple:
    """A `rank`-tuple with 1 at the `fixed` positions and `spatial` in order elsewhere."""
    values = iter(spatial)
    return tuple(1 if dim in fixed else next(values) for dim in range(rank))


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
        window = tuple(window_shape)
        steps = tuple(strides or (1,) * len(window))
        rank = len(window) + 2
        fixed = _batch_and_channel(rank, spec)
        full_window = _fill_spatial(rank, fixed, window)
        full_steps = _fill_spatial(rank, fixed, steps)

        def output_shape(input_shape):
            pads = lax.padtype_to_pads(input_shape, full_window, full_steps, padding)
            unit = (1,) * rank
            return lax.reduce_window_shape_tuple(
                input_shape, full_window, full_steps, pads, unit, unit
            )

        def counts(inputs):
            # How many real (unpadded) inputs each window covers, broadcastable to the output.
            where = _batch_and_channel(inputs.ndim, spec)
            spatial = [size for dim, size in enumerate(inputs.shape) if dim not in where]
            ones_ = jnp.ones(spatial, inputs.dtype)
            covered = lax.reduce_window(ones_, 0.0, lax.add, window, steps, padding)
            return covered.reshape(_fill_spatial(inputs.ndim, where, covered.shape))

        def pool(inputs):
            out = lax.reduce_window(inputs, init_val, reducer, full_window, full_steps, padding)
            return out / counts(inputs) if average else out

        return _stateless(output_shape, pool)

    return PoolingLayer


MaxPool = _pooling_layer(lax.max, -jnp.inf)
SumPool = _pooling_layer(lax.add, 0.0)
AvgPool = _pooling_layer(lax.add, 0.0, average=True)


Flatten = _stateless(
    lambda shape: (shape[0], math.prod(shape[1:])),
    lambda inputs: jnp.reshape(inputs, (inputs.shape[0], -1)),
)
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
    return _stateless(lambda shape: [shape] * num, lambda inputs: [inputs] * num)


FanInSum = _stateless(lambda shapes: shapes[0], sum)
"""Sums a list of inputs."""


def FanInConcat(axis: int = -1) -> Layer:
    """Concatenates a list of inputs along `axis`.

    Args:
      axis: the concatenation axis.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def output_shape(shapes):
        first = tuple(shapes[0])
        at = axis % len(first)
        joined = sum(shape[at] for shape in shapes)
        return (*first[:at], joined, *first[at + 1 :])

    return _stateless(output_shape, lambda inputs: jnp.concatenate(inputs, axis))


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
    init_fun, _ = _stateless(_same_shape, _same_shape)

    def apply_fun(params, inputs, **kwargs):
        key = kwargs.get("rng")
        if key is None:
            raise DropoutRngError()
        if mode != "train":
            return inputs
        kept = random.bernoulli(key, rate, inputs.shape)
        return jnp.where(kept, inputs / rate, 0)

    return init_fun, apply_fun


def _unzip_layers(layers: tuple[Layer, ...]) -> tuple[tuple[InitFun, ...], tuple[ApplyFun, ...]]:
    inits, applies = zip(*layers)
    return inits, applies


def _keys_per_layer(kwargs: dict, count: int) -> Sequence[Any]:
    """Takes `rng` out of `kwargs` and splits it into one key per layer (`None`s without it)."""
    key = kwargs.pop("rng", None)
    return [None] * count if key is None else random.split(key, count)


def serial(*layers: Layer) -> Layer:
    """Composes layers one after the other.

    `init_fun` splits its key before each layer (`rng, layer_rng = split(rng)`); `apply_fun`
    splits `rng=` into one key per layer. Params are a list with one entry per layer.

    Args:
      *layers: `(init_fun, apply_fun)` pairs.

    Returns:
      The composed `(init_fun, apply_fun)` pair.
    """
    inits, applies = _unzip_layers(layers)

    def init_fun(rng, input_shape):
        shape, params = input_shape, []
        for init in inits:
            rng, layer_key = random.split(rng)
            shape, layer_params = init(layer_key, shape)
            params.append(layer_params)
        return shape, params

    def apply_fun(params, inputs, **kwargs):
        keys = _keys_per_layer(kwargs, len(applies))
        out = inputs
        for apply, layer_params, key in zip(applies, params, keys):
            out = apply(layer_params, out, rng=key, **kwargs)
        return out

    return init_fun, apply_fun


def parallel(*layers: Layer) -> Layer:
    """Applies layer `i` to input `i` of a sequence (use with `FanOut` and `FanInSum`).

    Args:
      *layers: `(init_fun, apply_fun)` pairs.

    Returns:
      The `(init_fun, apply_fun)` pair mapping a sequence of inputs to a list of outputs;
      `init_fun` returns `(output_shapes, params)` as two tuples, like JAX's.
    """
    inits, applies = _unzip_layers(layers)

    def init_fun(rng, input_shape):
        keys = random.split(rng, len(inits))
        shapes, params = [], []
        for init, key, shape in zip(inits, keys, input_shape):
            out_shape, layer_params = init(key, shape)
            shapes.append(out_shape)
            params.append(layer_params)
        return tuple(shapes), tuple(params)

    def apply_fun(params, inputs, **kwargs):
        keys = _keys_per_layer(kwargs, len(applies))
        branches = zip(applies, params, inputs, keys)
        return [apply(p, x, rng=key, **kwargs) for apply, p, x, key in branches]

    return init_fun, apply_fun


def shape_dependent(make_layer: Callable[[Any], Layer]) -> Layer:
    """Delays building a layer until the input shape is known.

    Args:
      make_layer: maps an input shape to an `(init_fun, apply_fun)` pair.

    Returns:
      The `(init_fun, apply_fun)` pair.
    """

    def init_fun(rng, input_shape):
        layer_init, _ = make_layer(input_shape)
        return layer_init(rng, input_shape)

    def apply_fun(params, inputs, **kwargs):
        _, layer_apply = make_layer(inputs.shape)
        return layer_apply(params, inputs, **kwargs)

    return init_fun, apply_fun
