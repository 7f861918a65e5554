"""`core.nn.initializers`, like `jax.nn.initializers`: every initializer is a function
`init(key, shape, dtype=float32, out_sharding=None) -> Array` built on `core.random`, with JAX's
formulas (so the same key gives the same numbers as JAX). An `out_sharding` places the result
after it is drawn: numbax's random bits do not depend on the sharding, as JAX's partitionable
threefry's do not."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes, random
from core.named_sharding import resharded
from core.numpy._util import canonical_shape

Initializer = Callable[..., Any]


def _float(dtype: Any) -> np.dtype:
    return dtypes.default_float() if dtype is None else dtypes.canonicalize_dtype(dtype)


def _placed(out: Any, out_sharding: Any) -> Any:
    """`out` placed by an initializer's `out_sharding` (None: as it is)."""
    return out if out_sharding is None else resharded(out, out_sharding, "initializer")


def _shape(shape: Any) -> tuple[int, ...]:
    """JAX's canonical shape (a float size is its TypeError)."""
    return canonical_shape(shape)


def zeros(key: Any, shape: Any, dtype: Any = None, out_sharding: Any = None) -> Any:
    """An initializer returning zeros (sharded by `out_sharding`, as `jnp.zeros`)."""
    return jnp.zeros(_shape(shape), _float(dtype), out_sharding=out_sharding)


def ones(key: Any, shape: Any, dtype: Any = None, out_sharding: Any = None) -> Any:
    """An initializer returning ones (sharded by `out_sharding`, as `jnp.ones`)."""
    return jnp.ones(_shape(shape), _float(dtype), out_sharding=out_sharding)


def constant(value: Any, dtype: Any = None) -> Initializer:
    """An initializer returning arrays filled with `value`."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        return jnp.full(_shape(shape), value, _float(dtype), out_sharding=out_sharding)

    return init


def uniform(scale: Any = 1e-2, dtype: Any = None) -> Initializer:
    """Uniform values in `[0, scale)`."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        dt = _float(dtype)
        return _placed(random.uniform(key, _shape(shape), dt) * jnp.array(scale, dt), out_sharding)

    return init


def normal(stddev: Any = 1e-2, dtype: Any = None) -> Initializer:
    """Normal values with standard deviation `stddev`."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        dt = _float(dtype)
        return _placed(random.normal(key, _shape(shape), dt) * jnp.array(stddev, dt), out_sharding)

    return init


def truncated_normal(
    stddev: Any = 1e-2, dtype: Any = None, lower: Any = -2.0, upper: Any = 2.0
) -> Initializer:
    """Normal values truncated to `[lower, upper]` (in standard deviations), times `stddev`."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        dt = _float(dtype)
        out = random.truncated_normal(key, lower, upper, _shape(shape), dt) * jnp.array(stddev, dt)
        return _placed(out, out_sharding)

    return init


def _axes_size(shape: tuple[int, ...], axes: int | Sequence[int]) -> int:
    if isinstance(axes, int):
        return shape[axes]
    return math.prod(shape[i] for i in axes)


def compute_fans(
    shape: Sequence[int],
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
) -> tuple[float, float]:
    """Effective (fan_in, fan_out): other axes count as the receptive field."""
    shape = tuple(shape)
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise ValueError(
            f"Can't compute input and output sizes of a {len(shape)}-dimensional weights tensor "
            "with default in_axis. Must be at least 2D or specify in_axis explicitly."
        )
    in_size = _axes_size(shape, in_axis)
    out_size = _axes_size(shape, out_axis)
    batch_size = _axes_size(shape, batch_axis)
    receptive = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive, out_size * receptive


def variance_scaling(
    scale: float,
    mode: str,
    distribution: str,
    in_axis: int | Sequence[int] = -2,
    out_axis: int | Sequence[int] = -1,
    batch_axis: int | Sequence[int] = (),
    dtype: Any = None,
) -> Initializer:
    """Samples with variance `scale / fan` (mode: fan_in, fan_out, fan_avg, fan_geo_avg;
    distribution: truncated_normal, normal, uniform). As JAX's, `mode` and `distribution` are
    checked when the initializer is called; for a complex (or any non-float) dtype, "uniform"
    draws from a disk and "truncated_normal" from a complex normal truncated in modulus."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        shape = _shape(shape)
        dt = _float(dtype)
        fan_in, fan_out = compute_fans(shape, in_axis, out_axis, batch_axis)
        denominators = {
            "fan_in": fan_in,
            "fan_out": fan_out,
            "fan_avg": (fan_in + fan_out) / 2,
            "fan_geo_avg": (fan_in * fan_out) ** 0.5,
        }
        if mode not in denominators:
            raise ValueError(
                f"invalid mode for variance scaling initializer: {mode}\nThe modes are "
                f"{', '.join(denominators)}."
            )
        variance = jnp.array(scale / denominators[mode], dtype=dt)
        real = dtypes.kind(dt) == "f"
        if distribution == "truncated_normal" and real:
            stddev = jnp.sqrt(variance) / jnp.array(0.87962566103423978, dt)
            out = random.truncated_normal(key, -2, 2, shape, dt) * stddev
        elif distribution == "truncated_normal":
            stddev = jnp.sqrt(variance) / jnp.array(0.95311164380491208, dt)
            out = _complex_truncated_normal(key, 2, shape, dt) * stddev
        elif distribution == "normal":
            out = random.normal(key, shape, dt) * jnp.sqrt(variance)
        elif distribution == "uniform" and real:
            out = random.uniform(key, shape, dt, -1) * jnp.sqrt(3 * variance)
        elif distribution == "uniform":
            out = _complex_uniform(key, shape, dt) * jnp.sqrt(variance)
        else:
            raise ValueError(
                f"invalid distribution for variance scaling initializer: {distribution}\n"
                "The distributions are truncated_normal, normal, uniform."
            )
        return _placed(out, out_sharding)

    return init


def _complex_of(real_dtype: np.dtype) -> np.dtype:
    """JAX's `to_complex_dtype`: complex64 for floats (and ints) of up to 32 bits, else
    complex128."""
    return np.dtype(np.complex64 if real_dtype.itemsize <= 4 else np.complex128)


def _complex_polar(key: Any, shape: tuple[int, ...], dtype: Any, radius: Callable) -> Any:
    """Complex draws `radius(u) * exp(i theta)` with `u` and `theta / (2 pi)` uniform on
    [0, 1) (independent halves of `key`, drawn in `dtype`'s real precision); `radius` gets the
    real `u` and the complex dtype."""
    radius_key, angle_key = random.split(key)
    real = np.array(0, dtype).real.dtype
    complex_dtype = _complex_of(real)
    modulus = radius(random.uniform(radius_key, shape, real), complex_dtype)
    angle = 2 * np.pi * random.uniform(angle_key, shape, real).astype(complex_dtype)
    return modulus * jnp.exp(1j * angle)


def _complex_uniform(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    """JAX's uniform draws on the complex disk of zero mean and unit variance: radius
    `sqrt(2 u)`, angle `2 pi u'` (a non-complex `dtype` fails in `random.uniform`, as JAX's)."""

    def radius(u, complex_dtype):
        return jnp.sqrt(2 * u).astype(complex_dtype)

    return _complex_polar(key, shape, dtype, radius)


def _complex_truncated_normal(key: Any, upper: float, shape: tuple[int, ...], dtype: Any) -> Any:
    """JAX's complex normal draws (unit variance before truncation) of modulus below `upper`,
    by the inverse CDF of the modulus and a uniform angle."""

    def radius(u, complex_dtype):
        # The modulus r of a unit complex normal has P(r < x) = 1 - exp(-x^2).
        below_upper = 1 - jnp.exp(jnp.array(-(upper**2), complex_dtype))
        return jnp.sqrt(-jnp.log(1 - below_upper * u.astype(complex_dtype)))

    return _complex_polar(key, shape, dtype, radius)


def glorot_uniform(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis, out_axis, batch_axis, dtype)


def glorot_normal(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(
        1.0, "fan_avg", "truncated_normal", in_axis, out_axis, batch_axis, dtype
    )


def lecun_uniform(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(1.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def lecun_normal(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(1.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


def he_uniform(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(2.0, "fan_in", "uniform", in_axis, out_axis, batch_axis, dtype)


def he_normal(
    in_axis: Any = -2, out_axis: Any = -1, batch_axis: Any = (), dtype: Any = None
) -> Initializer:
    return variance_scaling(2.0, "fan_in", "truncated_normal", in_axis, out_axis, batch_axis, dtype)


xavier_uniform, xavier_normal = glorot_uniform, glorot_normal
kaiming_uniform, kaiming_normal = he_uniform, he_normal


def orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """A (semi-)orthogonal matrix along `column_axis`, from the QR of a normal matrix."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        shape = _shape(shape)
        dt = _float(dtype)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        if 0 in shape:  # JAX's: nothing to orthogonalize
            return _placed(jnp.zeros(shape, dt), out_sharding)
        n_rows, n_cols = math.prod(shape) // shape[column_axis], shape[column_axis]
        matrix_shape = (n_cols, n_rows) if n_rows < n_cols else (n_rows, n_cols)
        a = random.normal(key, matrix_shape, dt)
        q, r = jnp.linalg.qr(a)
        q = q * jnp.sign(jnp.diag(r))[None, :]
        if n_rows < n_cols:
            q = q.T
        rest = tuple(np.delete(np.array(shape), column_axis))
        q = jnp.reshape(q, (*rest, shape[column_axis]))
        q = jnp.moveaxis(q, -1, column_axis)
        return _placed(jnp.asarray(scale, dt) * q, out_sharding)

    return init


def delta_orthogonal(scale: Any = 1.0, column_axis: int = -1, dtype: Any = None) -> Initializer:
    """Orthogonal in the channel dims at the kernel centre, zero elsewhere (3-5D conv kernels)."""

    def init(key: Any, shape: Any, dtype: Any = dtype, out_sharding: Any = None) -> Any:
        shape = _shape(shape)
        dt = _float(dtype)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-1] < shape[-2]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale, column_axis, dt)(key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        return _placed(jnp.zeros(shape, dt).at[(*centre, Ellipsis)].set(ortho), out_sharding)

    return init
