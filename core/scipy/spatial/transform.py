"""`core.scipy.spatial.transform`: 3-D rotations (`Rotation`) and their interpolation (`Slerp`).

As in JAX, a `Rotation` is a NamedTuple over unit quaternions `quat` (`(4,)` or `(N, 4)`,
scalar last), so it is a pytree for `jit`/`vmap`/`grad`. Every conversion is written for one
quaternion and lifted to stacks with `jnp.vectorize` and a gufunc signature; the formulas
(including the small-angle series of `from_rotvec`/`as_rotvec` and the Euler-angle extraction
with its gimbal-lock cases) are JAX's, which follow scipy's. `Slerp` stores per interval the
start rotation and the rotation vector to the next key, and interpolates by scaling it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core.scipy.errors import (
    ModeError,
    NotARotationError,
    ShapeMismatchError,
    SingleRotationError,
    UnsupportedOptionError,
)

__all__ = ["Rotation", "Slerp"]


def _check_seq(seq: str, sizes: tuple[int, ...]) -> tuple[bool, bool]:
    """Validates an Euler axis sequence; returns (intrinsic, extrinsic)."""
    if len(seq) not in sizes:
        first = (
            f"Expected {sizes[0]} axes, got {seq}."
            if len(sizes) == 1
            else f"Expected axis specification to be a non-empty string of upto 3 characters, "
            f"got {seq}"
        )
        raise ModeError(f"{first}\npass {' or '.join(map(str, sizes))} of 'xyz' or 'XYZ'.")
    intrinsic = re.match(r"^[XYZ]{1,3}$", seq) is not None
    extrinsic = re.match(r"^[xyz]{1,3}$", seq) is not None
    if not (intrinsic or extrinsic):
        raise ModeError(
            f"Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got {seq}"
        )
    if any(seq[i] == seq[i + 1] for i in range(len(seq) - 1)):
        raise ModeError(f"Expected consecutive axes to be different, got {seq}")
    return intrinsic, extrinsic


def _axes(seq: str) -> Any:
    return jnp.array(["xyz".index(axis) for axis in seq.lower()])


class Rotation(NamedTuple):
    """Rotations in 3 dimensions (`jax.scipy.spatial.transform.Rotation`).

    Attributes:
        quat: unit quaternions, scalar last, `(4,)` for one rotation or `(N, 4)`.
    """

    quat: Any

    @classmethod
    def concatenate(cls, rotations: Sequence[Rotation]) -> Rotation:
        """Concatenates a sequence of stacks of rotations."""
        return cls(jnp.concatenate([rotation.quat for rotation in rotations]))

    @classmethod
    def from_euler(cls, seq: str, angles: Any, degrees: bool = False) -> Rotation:
        """From Euler angles: `seq` of 1-3 axes, "xyz" extrinsic or "XYZ" intrinsic."""
        intrinsic, _ = _check_seq(seq, (1, 2, 3))
        angles = jnp.atleast_1d(angles)
        return cls(_elementary_quat_compose(angles, _axes(seq), intrinsic, degrees))

    @classmethod
    def from_matrix(cls, matrix: Any) -> Rotation:
        """From rotation matrices `(..., 3, 3)`."""
        return cls(_from_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp: Any) -> Rotation:
        """From Modified Rodrigues Parameters `(..., 3)`."""
        return cls(_from_mrp(mrp))

    @classmethod
    def from_quat(cls, quat: Any) -> Rotation:
        """From quaternions `(..., 4)` (scalar last), normalized."""
        return cls(_normalize_quaternion(quat))

    @classmethod
    def from_rotvec(cls, rotvec: Any, degrees: bool = False) -> Rotation:
        """From rotation vectors `(..., 3)` (axis times angle)."""
        return cls(_from_rotvec(rotvec, degrees))

    @classmethod
    def identity(cls, num: int | None = None, dtype: Any = float) -> Rotation:
        """The identity rotation (`num` must be None, as in JAX)."""
        assert num is None
        return cls(jnp.array([0.0, 0.0, 0.0, 1.0], dtype=dtype))

    @classmethod
    def random(cls, random_key: Any, num: int | None = None) -> Rotation:
        """Not implemented (as in JAX)."""
        raise UnsupportedOptionError("Rotation.random is not implemented (as in JAX).")

    def __getitem__(self, indexer: Any) -> Rotation:
        if self.single:
            raise SingleRotationError("Single rotation is not subscriptable.")
        return Rotation(self.quat[indexer])

    def __len__(self) -> int:
        if self.single:
            raise SingleRotationError("Single rotation has no len().")
        return self.quat.shape[0]

    def __mul__(self, other: Rotation) -> Rotation:
        """The composition: `self` applied after `other`."""
        return Rotation.from_quat(_compose_quat(self.quat, other.quat))

    def apply(self, vectors: Any, inverse: bool = False) -> Any:
        """Rotates `vectors` `(..., 3)` (by the inverse rotation if `inverse`)."""
        return _apply(self.as_matrix(), vectors, inverse)

    def as_euler(self, seq: str, degrees: bool = False) -> Any:
        """Euler angles for a 3-axis `seq` ("xyz" extrinsic, "XYZ" intrinsic)."""
        _, extrinsic = _check_seq(seq, (3,))
        return _euler_from_quat(self.quat, seq, extrinsic, degrees)

    def as_matrix(self) -> Any:
        """Rotation matrices `(..., 3, 3)`."""
        return _as_matrix(self.quat)

    def as_mrp(self) -> Any:
        """Modified Rodrigues Parameters `(..., 3)`."""
        return _as_mrp(self.quat)

    def as_rotvec(self, degrees: bool = False) -> Any:
        """Rotation vectors `(..., 3)`."""
        return _as_rotvec(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False) -> Any:
        """Quaternions; `canonical` picks the sign with w >= 0 (then x, y, z break ties)."""
        quat = _make_canonical(self.quat) if canonical else self.quat
        return jnp.roll(quat, shift=1, axis=-1) if scalar_first else quat

    def inv(self) -> Rotation:
        """The inverse rotation(s)."""
        return Rotation(_inv(self.quat))

    def magnitude(self) -> Any:
        """The rotation angle(s) in radians, in [0, pi]."""
        return _magnitude(self.quat)

    def mean(self, weights: Any = None) -> Rotation:
        """The (weighted) mean rotation: the top eigenvector of `sum w q q^T`."""
        n = self.quat.shape[0]
        w = (
            jnp.ones(n, dtype=self.quat.dtype)
            if weights is None
            else jnp.asarray(weights, dtype=self.quat.dtype)
        )
        if w.ndim != 1:
            raise ShapeMismatchError(
                f"Expected `weights` to be 1 dimensional, got shape {w.shape}."
            )
        if w.shape[0] != len(self):
            raise ShapeMismatchError(
                "Expected `weights` to have number of values equal to number of rotations, got "
                f"{w.shape[0]} values and {len(self)} rotations."
            )
        K = jnp.dot(w[np.newaxis, :] * self.quat.T, self.quat)
        _, v = jnp.linalg.eigh(K)
        return Rotation(v[:, -1])

    @property
    def single(self) -> bool:
        """Whether this holds one rotation (`quat` of shape `(4,)`)."""
        return self.quat.ndim == 1


class Slerp(NamedTuple):
    """Spherical linear interpolation of rotations (`jax.scipy.spatial.transform.Slerp`).

    Build with `Slerp.init(times, rotations)`, then call with times.

    Attributes:
        times: the key times `(N,)`.
        timedelta: their differences `(N - 1,)`.
        rotations: the start rotation of each interval.
        rotvecs: the rotation vector from each key rotation to the next.
    """

    times: Any
    timedelta: Any
    rotations: Rotation
    rotvecs: Any

    @classmethod
    def init(cls, times: Any, rotations: Rotation) -> Slerp:
        """Sets up the interpolation between key `rotations` at increasing `times`.

        Args:
            times: the key times, 1-D, strictly increasing (not checked, as in JAX).
            rotations: a stack of at least 2 rotations, one per time.

        Returns:
            The `Slerp`.
        """
        if not isinstance(rotations, Rotation):
            raise NotARotationError("`rotations` must be a `Rotation` instance.")
        if rotations.single or len(rotations) == 1:
            raise ShapeMismatchError("`rotations` must be a sequence of at least 2 rotations.")
        times = jnp.asarray(times, dtype=rotations.quat.dtype)
        if times.ndim != 1:
            raise ShapeMismatchError(
                f"Expected times to be specified in a 1 dimensional array, got {times.ndim} "
                "dimensions."
            )
        if times.shape[0] != len(rotations):
            raise ShapeMismatchError(
                "Expected number of rotations to be equal to number of timestamps given, got "
                f"{len(rotations)} rotations and {times.shape[0]} timestamps."
            )
        starts = Rotation(rotations.as_quat()[:-1])
        return cls(
            times=times,
            timedelta=jnp.diff(times),
            rotations=starts,
            rotvecs=(starts.inv() * Rotation(rotations.as_quat()[1:])).as_rotvec(),
        )

    def __call__(self, times: Any) -> Rotation:
        """The interpolated rotation(s) at `times` (a scalar or 1-D)."""
        compute_times = jnp.asarray(times, dtype=self.times.dtype)
        if compute_times.ndim > 1:
            raise ShapeMismatchError("`times` must be at most 1-dimensional.")
        single_time = compute_times.ndim == 0
        compute_times = jnp.atleast_1d(compute_times)
        ind = jnp.maximum(jnp.searchsorted(self.times, compute_times) - 1, 0)
        alpha = (compute_times - self.times[ind]) / self.timedelta[ind]
        result = self.rotations[ind] * Rotation.from_rotvec(self.rotvecs[ind] * alpha[:, None])
        return result[0] if single_time else result


def _vectorized(signature: str):
    return functools.partial(jnp.vectorize, signature=signature)


@_vectorized("(m,m),(m),()->(m)")
def _apply(matrix: Any, vector: Any, inverse: Any) -> Any:
    return jnp.where(inverse, matrix.T, matrix) @ vector


@_vectorized("(m)->(n,n)")
def _as_matrix(quat: Any) -> Any:
    x, y, z, w = quat[0], quat[1], quat[2], quat[3]
    x2, y2, z2, w2 = x * x, y * y, z * z, w * w
    xy, zw, xz, yw, yz, xw = x * y, z * w, x * z, y * w, y * z, x * w
    return jnp.array(
        [
            [+x2 - y2 - z2 + w2, 2 * (xy - zw), 2 * (xz + yw)],
            [2 * (xy + zw), -x2 + y2 - z2 + w2, 2 * (yz - xw)],
            [2 * (xz - yw), 2 * (yz + xw), -x2 - y2 + z2 + w2],
        ]
    )


@_vectorized("(m)->(n)")
def _as_mrp(quat: Any) -> Any:
    sign = jnp.where(quat[3] < 0, -1.0, 1.0)
    return sign * quat[:3] / (1.0 + sign * quat[3])


@_vectorized("(m),()->(n)")
def _as_rotvec(quat: Any, degrees: Any) -> Any:
    quat = jnp.where(quat[3] < 0, -quat, quat)  # w >= 0 keeps the angle in [0, pi]
    angle = 2.0 * jnp.arctan2(_vector_norm(quat[:3]), quat[3])
    angle2 = angle * angle
    small_scale = 2 + angle2 / 12 + 7 * angle2 * angle2 / 2880
    large_scale = angle / jnp.sin(angle / 2)
    scale = jnp.where(angle <= 1e-3, small_scale, large_scale)
    scale = jnp.where(degrees, jnp.rad2deg(scale), scale)
    return scale * jnp.array(quat[:3])


@_vectorized("(n),(n)->(n)")
def _compose_quat(p: Any, q: Any) -> Any:
    cross = jnp.cross(p[:3], q[:3])
    return jnp.array(
        [
            p[3] * q[0] + q[3] * p[0] + cross[0],
            p[3] * q[1] + q[3] * p[1] + cross[1],
            p[3] * q[2] + q[3] * p[2] + cross[2],
            p[3] * q[3] - p[0] * q[0] - p[1] * q[1] - p[2] * q[2],
        ]
    )


def _euler_from_quat(quat: Any, seq: str, extrinsic: bool, degrees: bool) -> Any:
    """Euler angles `(..., 3)` of quaternions `(..., 4)` (x, y, z, w) for the axis sequence
    `seq`, by the direct method of Bernardes and Viollet (2022), which scipy uses.

    The sequence is read in extrinsic order (an intrinsic one reversed). The quaternion's
    components, permuted (and for Tait-Bryan sequences rotated by 45 degrees) into the frame
    of the sequence's axes, give four numbers a, b, c, d: the middle angle is
    2 atan2(|(c, d)|, |(a, b)|) and the outer two are the sum and difference of the half
    angles atan2(b, a) and atan2(d, c). Within 1e-7 of gimbal lock (middle angle 0 or pi)
    the outer angles are not separable: the last one is 0 and the first takes the rotation.
    """
    first, middle, last = ("xyz".index(a) for a in (seq if extrinsic else seq[::-1]).lower())
    proper = first == last  # proper Euler angles (zxz): `last` becomes the remaining axis
    if proper:
        last = 3 - first - middle
    parity = (first - middle) * (middle - last) * (last - first) // 2  # +-1: axis order
    w, u, v = quat[..., 3], quat[..., first], quat[..., middle]
    t = quat[..., last] * np.asarray(parity, quat.dtype)
    if proper:
        a, b, c, d = w, u, v, t
    else:
        a, b, c, d = w - v, u + t, v + w, t - u
    middle_angle = 2 * jnp.arctan2(jnp.hypot(c, d), jnp.hypot(a, b))
    half_sum, half_diff = jnp.arctan2(b, a), jnp.arctan2(d, c)
    at_zero = jnp.abs(middle_angle) <= 1e-7
    locked = at_zero | (jnp.abs(middle_angle - np.pi) <= 1e-7)
    # at gimbal lock the whole rotation goes to the angle about the first extrinsic axis
    locked_angle = jnp.where(at_zero, 2 * half_sum, 2 * half_diff * (-1 if extrinsic else 1))
    outer_first = jnp.where(locked, 0 if not extrinsic else locked_angle, half_sum - half_diff)
    outer_last = jnp.where(locked, locked_angle if not extrinsic else 0, half_sum + half_diff)
    # (an intrinsic sequence's angles come out last-first, and its locked angle is the last)
    if not proper:
        outer_last = outer_last * parity
        middle_angle = middle_angle - np.pi / 2
    outer = (outer_first, outer_last) if extrinsic else (outer_last, outer_first)
    angles = jnp.stack([outer[0], middle_angle, outer[1]], axis=-1)
    angles = (angles + np.pi) % (2 * np.pi) - np.pi
    return jnp.rad2deg(angles) if degrees else angles


@_vectorized("(m),(m),(),()->(n)")
def _elementary_quat_compose(angles: Any, axes: Any, intrinsic: Any, degrees: Any) -> Any:
    angles = jnp.where(degrees, jnp.deg2rad(angles), angles)
    result = _make_elementary_quat(axes[0], angles[0])
    for idx in range(1, len(axes)):
        quat = _make_elementary_quat(axes[idx], angles[idx])
        result = jnp.where(intrinsic, _compose_quat(result, quat), _compose_quat(quat, result))
    return result


@_vectorized("(m),()->(n)")
def _from_rotvec(rotvec: Any, degrees: Any) -> Any:
    rotvec = jnp.where(degrees, jnp.deg2rad(rotvec), rotvec)
    angle = _vector_norm(rotvec)
    angle2 = angle * angle
    small_scale = 0.5 - angle2 / 48 + angle2 * angle2 / 3840
    large_scale = jnp.sin(angle / 2) / angle
    scale = jnp.where(angle <= 1e-3, small_scale, large_scale)
    return jnp.hstack([scale * rotvec, jnp.cos(angle / 2)])


@_vectorized("(m,m)->(n)")
def _from_matrix(matrix: Any) -> Any:
    trace = matrix[0, 0] + matrix[1, 1] + matrix[2, 2]
    decision = jnp.array([matrix[0, 0], matrix[1, 1], matrix[2, 2], trace], dtype=matrix.dtype)
    choice = jnp.argmax(decision)
    i = choice
    j = (i + 1) % 3
    k = (j + 1) % 3
    quat_012 = jnp.empty(4, dtype=matrix.dtype)
    quat_012 = quat_012.at[i].set(1 - decision[3] + 2 * matrix[i, i])
    quat_012 = quat_012.at[j].set(matrix[j, i] + matrix[i, j])
    quat_012 = quat_012.at[k].set(matrix[k, i] + matrix[i, k])
    quat_012 = quat_012.at[3].set(matrix[k, j] - matrix[j, k])
    quat_3 = jnp.empty(4, dtype=matrix.dtype)
    quat_3 = quat_3.at[0].set(matrix[2, 1] - matrix[1, 2])
    quat_3 = quat_3.at[1].set(matrix[0, 2] - matrix[2, 0])
    quat_3 = quat_3.at[2].set(matrix[1, 0] - matrix[0, 1])
    quat_3 = quat_3.at[3].set(1 + decision[3])
    return _normalize_quaternion(jnp.where(choice != 3, quat_012, quat_3))


@_vectorized("(m)->(n)")
def _from_mrp(mrp: Any) -> Any:
    mrp_squared_plus_1 = jnp.dot(mrp, mrp) + 1
    return jnp.hstack([2 * mrp[:3], (2 - mrp_squared_plus_1)]) / mrp_squared_plus_1


@_vectorized("(n)->(n)")
def _inv(quat: Any) -> Any:
    return quat * jnp.array([-1, -1, -1, 1], dtype=quat.dtype)


@_vectorized("(n)->()")
def _magnitude(quat: Any) -> Any:
    return 2.0 * jnp.arctan2(_vector_norm(quat[:3]), jnp.abs(quat[3]))


@_vectorized("(),()->(n)")
def _make_elementary_quat(axis: Any, angle: Any) -> Any:
    quat = jnp.zeros(4, dtype=angle.dtype)
    quat = quat.at[3].set(jnp.cos(angle / 2.0))
    return quat.at[axis].set(jnp.sin(angle / 2.0))


@_vectorized("(n)->(n)")
def _normalize_quaternion(quat: Any) -> Any:
    return quat / _vector_norm(quat)


@_vectorized("(n)->()")
def _vector_norm(vector: Any) -> Any:
    return jnp.sqrt(jnp.dot(vector, vector))


@_vectorized("(n)->(n)")
def _make_canonical(quat: Any) -> Any:
    is_neg = quat < 0
    is_zero = quat == 0
    neg = (
        is_neg[3]
        | (is_zero[3] & is_neg[0])
        | (is_zero[3] & is_zero[0] & is_neg[1])
        | (is_zero[3] & is_zero[0] & is_zero[1] & is_neg[2])
    )
    return jnp.where(neg, -quat, quat)
