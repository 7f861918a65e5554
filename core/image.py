"""Image resampling, like `jax.image`: `resize`, `scale_and_translate` and `ResizeMethod`.

As in JAX, resampling is separable: for every spatial dimension a weight matrix
`w[input_index, output_index]` is computed from the method's kernel evaluated at the distance
between each output pixel's sample location (half-centred pixels, inverse warp) and each input
pixel, normalized to sum to one, and the image is contracted with it one dimension at a time.
With `antialias`, a downscaling kernel is stretched by `1 / scale` (a low-pass filter). Output
samples that fall outside the input get zero weight. The weights are built with `core.numpy`,
so a traced `scale`/`translation` works under jit and grad flows to the image and to them.
Nearest-neighbour resizing is a gather of `floor((i + 0.5) * in / out)`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes
from core.errors import ScaleTranslateArgumentError
from core.numpy._util import canonical_shape

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]


class ResizeMethod(enum.Enum):
    """Image resize methods (the values of JAX's enum).

    NEAREST: nearest neighbour. LINEAR: linear (triangle) interpolation. LANCZOS3 / LANCZOS5:
    Lanczos resampling with radius 3 / 5. CUBIC: Keys cubic kernel (a = -0.5). CUBIC_PYTORCH:
    PyTorch's bicubic (a = -0.75, edges repeated) without antialiasing, CUBIC with it. AREA: the
    average of the input pixels each output pixel covers.
    """

    NEAREST = 0
    LINEAR = 1
    LANCZOS3 = 2
    LANCZOS5 = 3
    CUBIC = 4
    CUBIC_PYTORCH = 5
    AREA = 6

    @staticmethod
    def from_string(s: str) -> ResizeMethod:
        """The method named `s` ("nearest", "linear"/"bilinear"/..., "cubic", "lanczos3"...)."""
        method = _NAMES.get(s)
        if method is None:
            raise ValueError(  # JAX's first line, the names after it
                f'Unknown resize method "{s}"\nexpected one of {sorted(_NAMES)}.'
            )
        return method


_NAMES = {
    "nearest": ResizeMethod.NEAREST,
    "linear": ResizeMethod.LINEAR,
    "bilinear": ResizeMethod.LINEAR,
    "trilinear": ResizeMethod.LINEAR,
    "triangle": ResizeMethod.LINEAR,
    "lanczos3": ResizeMethod.LANCZOS3,
    "lanczos5": ResizeMethod.LANCZOS5,
    "cubic": ResizeMethod.CUBIC,
    "bicubic": ResizeMethod.CUBIC,
    "tricubic": ResizeMethod.CUBIC,
    "cubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
    "bicubic-pytorch": ResizeMethod.CUBIC_PYTORCH,
    "area": ResizeMethod.AREA,
}


def _lanczos(radius: float) -> Callable[[Any], Any]:
    def kernel(x: Any) -> Any:
        y = radius * jnp.sin(np.pi * x) * jnp.sin(np.pi * x / radius)
        # sin(pi x) sin(pi x / r) r / (pi x)^2, with its limit 1 near x = 0
        out = jnp.where(x > 1e-3, y / jnp.where(x != 0, np.pi**2 * x**2, 1), 1)
        return jnp.where(x > radius, 0.0, out)

    return kernel


def _cubic(a: float) -> Callable[[Any], Any]:
    """The cubic convolution kernel with parameter `a` (Keys: -0.5, OpenCV/PyTorch: -0.75)."""

    def kernel(x: Any) -> Any:
        if a == -0.5:  # JAX's Horner form of the Keys kernel (same rounding)
            out = ((1.5 * x - 2.5) * x) * x + 1.0
            far = ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0
        else:
            out = ((a + 2.0) * x - (a + 3.0)) * x * x + 1.0
            far = ((a * x - 5.0 * a) * x + 8.0 * a) * x - 4.0 * a
        out = jnp.where(x >= 1.0, far, out)
        return jnp.where(x >= 2.0, 0.0, out)

    return kernel


def _triangle(x: Any) -> Any:
    return jnp.maximum(0, 1 - jnp.abs(x))


_AREA = object()  # marker: the area "kernel" integrates pixel overlaps instead

# method -> (kernel radius, kernel)
_KERNELS: dict[ResizeMethod, tuple[int, Any]] = {
    ResizeMethod.LINEAR: (1, _triangle),
    ResizeMethod.LANCZOS3: (3, _lanczos(3.0)),
    ResizeMethod.LANCZOS5: (5, _lanczos(5.0)),
    ResizeMethod.CUBIC: (2, _cubic(-0.5)),
    ResizeMethod.CUBIC_PYTORCH: (2, _cubic(-0.75)),
    ResizeMethod.AREA: (1, _AREA),
}

_EPS = 1000.0 * float(np.finfo(np.float32).eps)  # smaller weight sums count as zero


def _normalize(weights: Any) -> Any:
    total = jnp.sum(weights, axis=0, keepdims=True)
    return jnp.where(jnp.abs(total) > _EPS, weights / jnp.where(total != 0, total, 1), 0)


def _weight_matrix(
    input_size: int,
    output_size: int,
    scale: Any,
    translation: Any,
    kernel: Any,
    antialias: bool,
    edge_padding: bool,
    radius: int,
) -> Any:
    """The `(input_size, output_size)` resampling weights of one dimension."""
    dtype = dtypes.result_type(scale, translation)
    inv_scale = 1.0 / scale
    kernel_scale = jnp.maximum(inv_scale, 1.0) if antialias else 1.0
    sample_f = (
        (jnp.arange(output_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale - 0.5
    )
    k = 0
    if edge_padding:  # the kernel also reads `k` repeated edge pixels on each side
        k = math.ceil(radius * max(1.0 / float(scale), 1.0)) if antialias else radius
    expanded = jnp.arange(-k, input_size + k, dtype=dtype)
    if kernel is _AREA:
        left = jnp.arange(output_size, dtype=dtype) * inv_scale - translation * inv_scale
        right = left + inv_scale
        in_left = jnp.arange(input_size, dtype=dtype)
        overlap = jnp.minimum(right[None, :], in_left[:, None] + 1.0) - jnp.maximum(
            left[None, :], in_left[:, None]
        )
        weights = jnp.maximum(0.0, overlap)
    else:
        weights = kernel(jnp.abs(sample_f[None, :] - expanded[:, None]) / kernel_scale)
    if edge_padding:
        rows = jnp.clip(expanded.astype(jnp.int32), 0, input_size - 1)
        cols = jnp.broadcast_to(jnp.arange(output_size), (expanded.shape[0], output_size))
        mat = jnp.zeros((input_size, output_size), dtype=dtype)
        return _normalize(mat.at[rows[:, None], cols].add(weights))
    weights = _normalize(weights)
    inside = (sample_f >= -0.5) & (sample_f <= input_size - 0.5)
    return jnp.where(inside[None, :], weights, 0)


def _resample(
    x: Any,
    shape: tuple[int, ...],
    spatial_dims: Sequence[int],
    scale: Any,
    translation: Any,
    method: ResizeMethod,
    antialias: bool,
) -> Any:
    if method == ResizeMethod.CUBIC_PYTORCH and antialias:
        method = ResizeMethod.CUBIC
    radius, kernel = _KERNELS[method]
    edge_padding = method == ResizeMethod.CUBIC_PYTORCH and not antialias
    for i, d in enumerate(spatial_dims):
        d = d % x.ndim
        w = _weight_matrix(
            x.shape[d], shape[d], scale[i], translation[i], kernel, antialias, edge_padding, radius
        ).astype(x.dtype)
        x = jnp.moveaxis(jnp.tensordot(x, w, axes=([d], [0])), -1, d)
    return x


def _check(image: Any, shape: Sequence[int], method: str | ResizeMethod) -> tuple:
    image = jnp.asarray(image)
    shape = canonical_shape(shape)  # JAX's TypeError for a fractional size
    if len(shape) != image.ndim:
        raise ValueError(
            # JAX's words, its two spaces included
            "shape must have length equal to the number of dimensions of x;  "
            f"{shape} vs {image.shape}"
        )
    if isinstance(method, str):
        method = ResizeMethod.from_string(method)
    if not isinstance(method, ResizeMethod):
        raise TypeError(f"method must be a string or a ResizeMethod, got {method!r}.")
    return image, shape, method


def _inexact(x: Any) -> Any:
    return x if dtypes.is_inexact(x.dtype) else x.astype(dtypes.default_float())


def scale_and_translate(
    image: Any,
    shape: Sequence[int],
    spatial_dims: Sequence[int],
    scale: Any,
    translation: Any,
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: Any = None,
) -> Any:
    """Resamples `image` to `shape` under a scale and translation, like
    `jax.image.scale_and_translate`.

    A location `x` of the input maps to `x * scale + translation` in the output (half-centred
    pixels); each output pixel samples the input at the inverse map. Output pixels whose sample
    falls outside the input are zero.

    Args:
      image: the input array.
      shape: the output shape (one entry per dimension of `image`).
      spatial_dims: the K dimensions that `scale` and `translation` apply to.
      scale: K scale factors (may be traced).
      translation: K translations, in output pixels (may be traced).
      method: any `ResizeMethod` (or its name) except NEAREST.
      antialias: widen the kernel when downscaling (a low-pass filter).
      precision: accepted for compatibility (float32 CPU matmuls are full precision).

    Returns:
      The resampled image, of shape `shape` and an inexact dtype.
    """
    image, shape, method = _check(image, shape, method)
    if method == ResizeMethod.NEAREST:
        raise ValueError(
            "Nearest neighbor resampling is not currently supported for scale_and_translate.\n"
            "Use resize(..., method='nearest'), or another method here (e.g. 'linear')."
        )
    spatial_dims = tuple(spatial_dims)
    scale = _inexact(jnp.asarray(scale))
    translation = _inexact(jnp.asarray(translation))
    if scale.shape != (len(spatial_dims),) or translation.shape != (len(spatial_dims),):
        raise ScaleTranslateArgumentError(
            f"scale and translation need one entry per spatial dim {spatial_dims}; got shapes "
            f"{scale.shape} and {translation.shape}."
        )
    common = dtypes.result_type(scale, translation)
    scale, translation = scale.astype(common), translation.astype(common)
    return _resample(_inexact(image), shape, spatial_dims, scale, translation, method, antialias)


def _resize_nearest(x: Any, shape: tuple[int, ...]) -> Any:
    for d, (m, n) in enumerate(zip(x.shape, shape)):
        if m == n:
            continue
        offsets = (jnp.arange(n, dtype=jnp.float32) + 0.5) * m / n
        index = [slice(None)] * x.ndim
        index[d] = jnp.floor(offsets).astype(jnp.int32)
        x = x[tuple(index)]
    return x


def resize(
    image: Any,
    shape: Sequence[int],
    method: str | ResizeMethod,
    antialias: bool = True,
    precision: Any = None,
) -> Any:
    """Resizes `image` to `shape`, like `jax.image.resize`.

    Every dimension whose size changes is resampled (so put batch and channel dimensions in
    `shape` unchanged). Methods: "nearest"; "linear" ("bilinear", "trilinear", "triangle");
    "cubic" ("bicubic", "tricubic": Keys kernel); "cubic-pytorch"; "lanczos3"; "lanczos5";
    "area"; or a `ResizeMethod`.

    Args:
      image: the input array.
      shape: the output shape (one entry per dimension of `image`).
      method: the resampling method.
      antialias: widen the kernel when downscaling (ignored by "nearest").
      precision: accepted for compatibility (float32 CPU matmuls are full precision).

    Returns:
      The resized image; "nearest" keeps the dtype, the others return an inexact dtype.
    """
    image, shape, method = _check(image, shape, method)
    if method == ResizeMethod.NEAREST:
        return _resize_nearest(image, shape)
    spatial_dims = tuple(d for d in range(image.ndim) if image.shape[d] != shape[d])
    scale = [1.0 if shape[d] == 0 else shape[d] / image.shape[d] for d in spatial_dims]
    translation = [0.0] * len(spatial_dims)
    return _resample(_inexact(image), shape, spatial_dims, scale, translation, method, antialias)
