"""`core.nn` activations, like `jax.nn`: compositions of `core.numpy`, with JAX's values and
JAX's gradients at the kinks: relu and relu6 are `custom_jvp`s as JAX's (relu'(0) = 0,
relu6'(0) = relu6'(6) = 0), the others `where`-based formulations. softmax, log_softmax and
logsumexp subtract the (gradient-stopped) maximum for stability. The tanh gelu has a
`custom_jvp` whose tangent is its derivative as one expression, so that its gradient keeps one
array of the forward pass instead of four (see `_tanh_gelu_jvp`); on bfloat16 and float16,
whose roundings expose the order of operations, it differentiates through its operations as
JAX's does, so its gradients are JAX's bits."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes
from core.custom_derivatives import custom_jvp
from core.errors import ConcretizationTypeError, traced_shape
from core.jit.library import library_jit
from core.lax.special import erfc
from core.numpy._util import (
    canonicalize_axis,
    check_arraylike,
    ensure_array,
    promote_args_inexact,
)
from core.numpy.logsumexp import logsumexp
from core.prims import elementwise as ew
from core.prims import shapes as sh
from core.prims.collectives.names import axis_size
from core.prims.collectives.wrappers import axis_index
from core.trace import Tracer, get_aval


def _stop_gradient(x: Any) -> Any:
    return ew.stop_gradient_prim(x)


@library_jit
def identity(x: Any) -> Any:
    """Returns `x` unchanged (as an array)."""
    return _arraylike("identity", x)


def tanh(x: Any) -> Any:
    """Hyperbolic tangent (`jax.nn.tanh` is `jnp.tanh`)."""
    return jnp.tanh(x)


@custom_jvp
@library_jit
def relu(x: Any) -> Any:
    """`max(x, 0)` (JAX's `maximum(x, 0)`: NaN propagates, a bool gives int32), a `custom_jvp`
    as JAX's: its tangent is the incoming one where x > 0, else 0 (gradient 0 at 0)."""
    check_arraylike("maximum", x)  # JAX's name: its relu is `jnp.maximum(x, 0)`
    return jnp.maximum(x, 0)


relu.defjvps(lambda t, ans, x: ew.select(x > 0, t, ew.full_like(t, 0)))


def _arraylike(name: str, x: Any) -> Any:
    """`x` as an array of its own dtype: JAX's activations that do not promote compute
    integer inputs in their dtype (wrapping) before a float operation promotes them."""
    check_arraylike(name, x)
    return ensure_array(x)


def _weak_float(name: str, x: Any) -> Any:
    """`x` as an inexact array: integers and bools become weakly typed default floats, as in
    JAX's activations, whose arithmetic with Python floats promotes them."""
    check_arraylike(name, x)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) in "biu":
        return sh.convert_element_type(x, dtypes.default_float(), True)
    return promote_args_inexact(name, x)[0]


@custom_jvp
@library_jit
def relu6(x: Any) -> Any:
    """`min(max(x, 0), 6)` (integers give weak floats, NaN propagates), a `custom_jvp` as JAX's:
    its tangent is the incoming one where 0 < x < 6, else 0 (gradient 0 at 0 and 6)."""
    check_arraylike("maximum", x)  # JAX's name, as in `relu`
    return jnp.minimum(jnp.maximum(x, 0), 6.0)


relu6.defjvps(lambda t, ans, x: ew.select((x > 0) & (x < 6), t, ew.full_like(t, 0)))


def sigmoid(x: Any) -> Any:
    """The logistic function `1 / (1 + exp(-x))`."""
    # Integers raise, as JAX's `lax.logistic` does.
    return ew.logistic(_arraylike("sigmoid", x))


@library_jit
def silu(x: Any) -> Any:
    """`x * sigmoid(x)` (also called swish)."""
    x = _arraylike("silu", x)  # integers raise, as JAX's `lax.logistic` does
    return ew.mul(x, ew.logistic(x))


swish = silu


@library_jit
def softplus(x: Any) -> Any:
    """`log(1 + exp(x))`, computed stably."""
    return jnp.logaddexp(x, 0)


@library_jit
def sparse_plus(x: Any) -> Any:
    """0 for x <= -1, `(x + 1)**2 / 4` for -1 < x < 1, x for x >= 1."""
    x = _weak_float("sparse_plus", x)
    return jnp.where(x <= -1.0, jnp.zeros_like(x), jnp.where(x >= 1.0, x, (x + 1.0) ** 2 / 4))


@library_jit
def sparse_sigmoid(x: Any) -> Any:
    """`clip((x + 1) / 2, 0, 1)`: the derivative of `sparse_plus`."""
    x = _weak_float("sparse_sigmoid", x)
    return 0.5 * jnp.clip(x + 1.0, 0.0, 2.0)


@library_jit
def log1mexp(x: Any) -> Any:
    """`log(1 - exp(-x))` computed stably (Maechler's switch at log 2); undefined for x < 0.

    Both branches differentiate to JAX's rule `1 / expm1(x)`.
    """
    x = _arraylike("log1mexp", x)
    c = float(np.log(2.0))  # weak: the result keeps x's dtype and weak type, as in JAX
    small = x < c
    # Integers negate in their dtype (unsigned ones wrap), then promote, as in JAX.
    (neg,) = promote_args_inexact("log1mexp", jnp.negative(x))
    # Each branch sees a safe input where it is not selected, so its gradient stays finite.
    near = jnp.log(-jnp.expm1(jnp.where(small, neg, -c)))
    far = jnp.log1p(-jnp.exp(jnp.where(small, -c, neg)))
    return jnp.where(small, near, far)


@library_jit
def log_sigmoid(x: Any) -> Any:
    """`log(sigmoid(x))`, computed stably."""
    x = _arraylike("log_sigmoid", x)  # integers compute as in JAX: -x wraps
    return jnp.negative(softplus(jnp.negative(x)))


@library_jit
def soft_sign(x: Any) -> Any:
    """`x / (|x| + 1)`."""
    x = _arraylike("soft_sign", x)  # integers: |x| + 1 in their dtype, as in JAX
    return x / (jnp.abs(x) + 1)


def gelu(x: Any, approximate: bool = True) -> Any:
    """Gaussian error linear unit: the tanh approximation by default, `x * Phi(x)` if exact."""
    (x,) = promote_args_inexact("gelu", x)
    if approximate:
        if get_aval(x).dtype in (dtypes.bfloat16, dtypes.float16):
            return x * _tanh_gelu_parts(x)[1]  # JAX's gradient, bit for bit
        return _tanh_gelu(x)
    # JAX's: x Phi(x) = x erfc(-x / sqrt(2)) / 2, accurate in the negative tail
    dtype = get_aval(x).dtype
    return jnp.array(0.5 * x * erfc(-x * np.sqrt(0.5).astype(dtype)), dtype=dtype)


def _tanh_gelu_parts(x: Any) -> tuple[Any, Any, Any]:
    """`(tanh(u), 0.5 * (1 + tanh(u)), sqrt(2 / pi))` for u = sqrt(2 / pi) (x + 0.044715 x^3)."""
    c = np.sqrt(2 / np.pi).astype(get_aval(x).dtype)
    th = jnp.tanh(c * (x + 0.044715 * (x**3)))
    return th, 0.5 * (1.0 + th), c


@custom_jvp
def _tanh_gelu(x: Any) -> Any:
    return x * _tanh_gelu_parts(x)[1]


@_tanh_gelu.defjvp
def _tanh_gelu_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    """The derivative as one expression of `x`: differentiated through its operations, the
    tanh approximation left four arrays the size of `x` (the tanh's derivative, the cdf, ...)
    to its gradient, which a train step writes in the forward pass and reads back in the
    backward one (the transformer's MLP blocks: 2 MB each per layer); this rule leaves one, the
    slope (its value equals the chain rule's up to rounding)."""
    (x,), (t,) = primals, tangents
    th, cdf, c = _tanh_gelu_parts(x)
    slope = cdf + 0.5 * x * (1.0 - th * th) * c * (1.0 + 3 * 0.044715 * (x * x))
    return x * cdf, slope * t


@library_jit
def elu(x: Any, alpha: Any = 1.0) -> Any:
    """`x` if x > 0 else `alpha * (exp(x) - 1)`."""
    x = _weak_float("elu", x)
    return jnp.where(x > 0, x, alpha * jnp.expm1(jnp.where(x > 0, 0.0, x)))


@library_jit
def celu(x: Any, alpha: Any = 1.0) -> Any:
    """Continuously-differentiable ELU: `max(x, 0) + alpha * expm1(min(x, 0) / alpha)`."""
    check_arraylike("maximum", x)  # JAX's name, as in `relu`
    x = _weak_float("celu", x)
    return jnp.maximum(x, 0.0) + alpha * jnp.expm1(jnp.minimum(x, 0.0) / alpha)


@library_jit
def selu(x: Any) -> Any:
    """Scaled ELU with the self-normalizing constants."""
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    return scale * elu(x, alpha)


@library_jit
def leaky_relu(x: Any, negative_slope: Any = 1e-2) -> Any:
    """`x` if x >= 0 else `negative_slope * x`."""
    x = _weak_float("leaky_relu", x)
    return jnp.where(x >= 0, x, negative_slope * x)


@library_jit
def hard_tanh(x: Any) -> Any:
    """`clip(x, -1, 1)`."""
    check_arraylike("hard_tanh", x)
    x = ensure_array(x)
    return jnp.where(x > 1, 1, jnp.where(x < -1, -1, x))


@library_jit
def hard_sigmoid(x: Any) -> Any:
    """`relu6(x + 3) / 6`."""
    check_arraylike("hard_sigmoid", x)
    return relu6(ensure_array(x) + 3.0) / 6.0  # an integer x gives weak floats, as in JAX


@library_jit
def hard_silu(x: Any) -> Any:
    """`x * hard_sigmoid(x)` (also called hard_swish)."""
    x = _weak_float("hard_silu", x)
    return x * hard_sigmoid(x)


hard_swish = hard_silu


@library_jit
def mish(x: Any) -> Any:
    """`x * tanh(softplus(x))` (not promoted first, as in JAX: a bool `x` times the weak
    float `tanh(softplus(x))` gives a weak float)."""
    check_arraylike("mish", x)
    x = ensure_array(x)
    return x * jnp.tanh(softplus(x))


@library_jit
def squareplus(x: Any, b: Any = 4) -> Any:
    """`(x + sqrt(x**2 + b)) / 2`."""
    x = _arraylike("squareplus", x)  # integers: x**2 + b in their dtype, as in JAX
    return (x + jnp.sqrt(jnp.square(x) + b)) / 2


@library_jit(static_argnames=("axis",))
def glu(x: Any, axis: int = -1) -> Any:
    """Gated linear unit: the two halves `a, b` of `x` along `axis` give `a * sigmoid(b)`."""
    check_arraylike("glu", x)
    x = ensure_array(x)
    size = get_aval(x).shape[axis]
    if size % 2:
        raise AssertionError(  # JAX's assert
            f"axis size must be divisible by 2\nglu splits axis {axis} of shape "
            f"{get_aval(x).shape} in halves: give it an even size"
        )
    a, b = jnp.split(x, 2, axis)
    return a * sigmoid(b)


def _reduce_max(x: Any, axis: Any, where: Any, keepdims: bool = True) -> Any:
    return jnp.max(x, axis, keepdims=keepdims, where=where, initial=-jnp.inf)


def _masked(x: Any, where: Any) -> Any:
    """`x` with the entries outside `where` at -inf, as JAX's softmaxes take it: a large
    masked-out entry must not overflow `exp` (its inf times a zero cotangent is NaN)."""
    return x if where is None else jnp.where(where, x, -jnp.inf)


@library_jit(static_argnames=("axis", "keepdims"))
def logmeanexp(x: Any, axis: Any = None, where: Any = None, keepdims: bool = False) -> Any:
    """`log(mean(exp(x)))` over `axis` (only the entries in `where`), stably."""
    lse = logsumexp(x, axis=axis, where=where, keepdims=keepdims)
    ones = jnp.ones_like(x, dtype=get_aval(lse).dtype)
    count = jnp.sum(ones, axis, keepdims=keepdims, where=where)
    return lse - jnp.log(count)


def softmax(x: Any, axis: Any = -1, where: Any = None, initial: Any = None) -> Any:
    """`exp(x) / sum(exp(x))` along `axis` (entries outside `where` are 0)."""
    x = _arraylike("max", x)  # JAX's name: its softmax starts with `jnp.max(x)`
    x_max = _stop_gradient(_reduce_max(x, axis, where))
    unnormalized = jnp.exp(_masked(x, where) - x_max)
    result = unnormalized / jnp.sum(unnormalized, axis, where=where, keepdims=True)
    if where is not None:
        result = jnp.where(where, result, jnp.zeros_like(result))
    return result


@library_jit(static_argnames=("axis",))
def log_softmax(x: Any, axis: Any = -1, where: Any = None, initial: Any = None) -> Any:
    """`x - logsumexp(x)` along `axis` (entries outside `where` are -inf)."""
    x = _arraylike("log_softmax", x)  # integers: x - max(x) in their dtype, as in JAX
    x_max = _stop_gradient(_reduce_max(x, axis, where))
    shifted = _masked(x, where) - x_max
    lse = jnp.log(jnp.sum(jnp.exp(shifted), axis, where=where, keepdims=True))
    result = shifted - lse
    if where is not None:
        result = jnp.where(where, result, jnp.full_like(result, -jnp.inf))
    return result


@library_jit(static_argnames=("axis", "algorithm"))
def standardize(
    x: Any,
    axis: Any = -1,
    mean: Any = None,
    variance: Any = None,
    epsilon: Any = 1e-5,
    where: Any = None,
    *,
    algorithm: str = "fast",
) -> Any:
    """`(x - mean) / sqrt(variance + epsilon)` with the statistics taken along `axis`.

    Args:
      x: the array.
      axis: the axis or axes of the statistics.
      mean: a precomputed mean (else taken over `axis`).
      variance: a precomputed variance (else taken over `axis`).
      epsilon: added to the variance.
      where: the elements taken into the statistics.
      algorithm: "fast" (`mean(x^2) - mean(x)^2`, clipped at 0, as JAX's default) or "stable"
        (`mean((x - mean)^2)`).

    Returns:
      The standardized array.
    """
    if algorithm not in ("fast", "stable"):
        raise ValueError(f"Unknown algorithm {algorithm!r}. Expected 'fast' or 'stable'.")
    x = _arraylike("standardize", x)  # integers: x**2 in their dtype, as in JAX
    if mean is None:
        mean = jnp.mean(x, axis, keepdims=True, where=where)
    if variance is None:
        if algorithm == "stable":
            variance = jnp.mean(jnp.square(x - mean), axis, keepdims=True, where=where)
        else:  # may cancel to a small negative number: clipped, as in JAX
            variance = jnp.mean(jnp.square(x), axis, keepdims=True, where=where)
            variance = jnp.clip(variance - jnp.square(mean), 0)
    return (x - mean) * ew.rsqrt(*promote_args_inexact("standardize", variance + epsilon))


normalize = standardize


def one_hot(x: Any, num_classes: int, *, dtype: Any = None, axis: Any = -1) -> Any:
    """One-hot encoding of the integers `x` (out-of-range values give all-zero rows).

    Args:
      x: the class indices (JAX 0.10 warns, a `DeprecationWarning`, for a non-integer `x`).
      num_classes: the number of classes, a concrete integer (a traced one raises JAX's
        `ConcretizationTypeError` naming this argument).
      dtype: the output dtype (default: the default float).
      axis: the new axis, or a named (vmap/pmap) axis.

    Returns:
      The one-hot array.
    """
    dt = dtypes.default_float() if dtype is None else dtypes.canonicalize_dtype(dtype)
    if isinstance(num_classes, Tracer):
        concrete = num_classes.to_concrete_value()
        if concrete is None:
            raise ConcretizationTypeError(
                traced_shape(get_aval(num_classes)),
                "The error arose in jax.nn.one_hot argument `num_classes`.",
            )
        num_classes = concrete
    num_classes = operator.index(num_classes)
    x = ensure_array(x)
    if dtypes.kind(get_aval(x).dtype) not in "iu":
        warnings.warn(
            f"jax.nn.one_hot input should be integer-typed; got dtype={get_aval(x).dtype}",
            DeprecationWarning,
            stacklevel=2,
        )
    if isinstance(axis, (str, tuple)):
        # a named (vmap/pmap) axis: each example is one class position along it, as JAX
        size = axis_size(axis)
        if num_classes != size:
            raise ValueError(
                f"Expected num_classes to match the size of axis {axis}, but "
                f"{num_classes} != {size}"
            )
        return jnp.asarray(x == axis_index(axis), dtype=dt)
    # JAX's checks: an integer count (3.0 is a TypeError), an axis of the output's rank
    axis = canonicalize_axis(axis, get_aval(x).ndim + 1)
    return _one_hot(x, num_classes, dtype=dt, axis=axis)


@library_jit(static_argnames=("num_classes", "dtype", "axis"))
def _one_hot(x: Any, num_classes: int, *, dtype: Any, axis: Any) -> Any:
    nd = get_aval(x).ndim
    lhs = jnp.expand_dims(x, axis)
    # the classes in x's dtype, as JAX's broadcasted_iota (no iota of booleans)
    classes = sh.iota(get_aval(x).dtype, (*(1,) * axis, num_classes, *(1,) * (nd - axis)), axis)
    return jnp.asarray(lhs == classes, dtype=dtype)
