"""`core.scipy.spatial.transform`: 3-D rotations (`Rotation`) and their interpolation (`Slerp`).

As in JAX, a `Rotation` is a NamedTuple over unit quaternions `quat` (`(4,)` or `(N, 4)`,
scalar last), so it is a pytree for `jit`/`vmap`/`grad`. The conversions are quaternion
arithmetic on the last axis, written once for stacks of any leading shape: Shepperd's method
from matrices, Taylor series for small rotation vectors, and the direct Euler-angle extraction
of Bernardes and Viollet (2022), as scipy computes them. `Slerp` stores per interval the start
rotation and the rotation vector to the next key, and interpolates by scaling it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

import core.numpy as jnp
from core.numpy._util import broadcast_shapes
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
        if angles.shape[-1] != len(seq):
            raise ShapeMismatchError(  # JAX's first line (its jnp.vectorize's), then the fix
                f"inconsistent size for core dimension 'm': {len(seq)} vs {angles.shape[-1]} "
                "on vectorized function with excluded=frozenset() and "
                "signature='(m),(m),(),()->(n)'\n"
                f"pass `angles` of shape (..., {len(seq)}): one angle per axis of {seq!r}."
            )
        return cls(_quat_of_euler(angles, seq, intrinsic, degrees))

    @classmethod
    def from_matrix(cls, matrix: Any) -> Rotation:
        """From rotation matrices `(..., 3, 3)`."""
        return cls(_quat_of_matrix(matrix))

    @classmethod
    def from_mrp(cls, mrp: Any) -> Rotation:
        """From Modified Rodrigues Parameters `(..., 3)`."""
        return cls(_quat_of_mrp(mrp))

    @classmethod
    def from_quat(cls, quat: Any) -> Rotation:
        """From quaternions `(..., 4)` (scalar last), normalized."""
        return cls(_normalized(jnp.asarray(quat)))

    @classmethod
    def from_rotvec(cls, rotvec: Any, degrees: bool = False) -> Rotation:
        """From rotation vectors `(..., 3)` (axis times angle)."""
        return cls(_quat_of_rotvec(rotvec, degrees))

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
        # JAX broadcasts the stacks' shapes first (its error names both)
        broadcast_shapes(self.quat.shape[:-1], other.quat.shape[:-1])
        return Rotation.from_quat(_hamilton(self.quat, other.quat))

    def apply(self, vectors: Any, inverse: bool = False) -> Any:
        """Rotates `vectors` `(..., 3)` (by the inverse rotation if `inverse`)."""
        return _rotate(self.as_matrix(), vectors, inverse)

    def as_euler(self, seq: str, degrees: bool = False) -> Any:
        """Euler angles for a 3-axis `seq` ("xyz" extrinsic, "XYZ" intrinsic)."""
        _, extrinsic = _check_seq(seq, (3,))
        return _euler_from_quat(self.quat, seq, extrinsic, degrees)

    def as_matrix(self) -> Any:
        """Rotation matrices `(..., 3, 3)`."""
        return _matrix_of(self.quat)

    def as_mrp(self) -> Any:
        """Modified Rodrigues Parameters `(..., 3)`."""
        return _mrp_of(self.quat)

    def as_rotvec(self, degrees: bool = False) -> Any:
        """Rotation vectors `(..., 3)`."""
        return _rotvec_of(self.quat, degrees)

    def as_quat(self, canonical: bool = False, scalar_first: bool = False) -> Any:
        """Quaternions; `canonical` picks the sign with w >= 0 (then x, y, z break ties)."""
        quat = _canonical(self.quat) if canonical else self.quat
        return jnp.roll(quat, shift=1, axis=-1) if scalar_first else quat

    def inv(self) -> Rotation:
        """The inverse rotation(s)."""
        return Rotation(_conjugate(self.quat))

    def magnitude(self) -> Any:
        """The rotation angle(s) in radians, in [0, pi]."""
        return _angle(self.quat)

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
        queried = jnp.asarray(times, dtype=self.times.dtype)
        if queried.ndim not in (0, 1):
            raise ShapeMismatchError("`times` must be at most 1-dimensional.")
        at = jnp.atleast_1d(queried)
        # The interval each time falls in (times before the first key use the first interval,
        # times after the last use the last), and how far into it, as a fraction.
        interval = jnp.maximum(jnp.searchsorted(self.times, at) - 1, 0)
        fraction = (at - self.times[interval]) / self.timedelta[interval]
        turn = Rotation.from_rotvec(self.rotvecs[interval] * fraction[:, None])
        rotated = self.rotations[interval] * turn
        return rotated if queried.ndim else rotated[0]


# Quaternion arithmetic. Every helper works on stacks: the components are the last axis
# (x, y, z, w), any leading axes broadcast, and Python branches stand in for the options.


def _split(quat: Any) -> tuple[Any, Any, Any, Any]:
    """The components x, y, z, w of quaternions `(..., 4)`."""
    return quat[..., 0], quat[..., 1], quat[..., 2], quat[..., 3]


def _norm(vector: Any) -> Any:
    """Euclidean norms over the last axis."""
    return jnp.sqrt(jnp.sum(vector * vector, axis=-1))


def _normalized(quat: Any) -> Any:
    return quat / _norm(quat)[..., None]


def _hamilton(p: Any, q: Any) -> Any:
    """The product p q: the rotation q followed by p."""
    px, py, pz, pw = _split(p)
    qx, qy, qz, qw = _split(q)
    return jnp.stack(
        [
            pw * qx + qw * px + (py * qz - pz * qy),
            pw * qy + qw * py + (pz * qx - px * qz),
            pw * qz + qw * pz + (px * qy - py * qx),
            pw * qw - px * qx - py * qy - pz * qz,
        ],
        axis=-1,
    )


def _conjugate(quat: Any) -> Any:
    return quat * np.array([-1, -1, -1, 1], dtype=quat.dtype)


def _matrix_of(quat: Any) -> Any:
    """Rotation matrices `(..., 3, 3)` of unit quaternions."""
    x, y, z, w = _split(quat)
    xx, yy, zz, ww = x * x, y * y, z * z, w * w
    rows = [
        [xx - yy - zz + ww, 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), -xx + yy - zz + ww, 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), -xx - yy + zz + ww],
    ]
    return jnp.stack([jnp.stack(row, axis=-1) for row in rows], axis=-2)


def _rotate(matrix: Any, vectors: Any, inverse: bool) -> Any:
    """`matrix @ vectors` (its transpose if `inverse`) over broadcast stacks."""
    vectors = jnp.asarray(vectors)
    broadcast_shapes(matrix.shape[:-2], vectors.shape[:-1], ())  # JAX's error for a mismatch
    if inverse:
        matrix = jnp.swapaxes(matrix, -1, -2)
    return jnp.sum(matrix * vectors[..., None, :], axis=-1)


def _angle(quat: Any) -> Any:
    """Rotation angles in [0, pi]."""
    return 2.0 * jnp.arctan2(_norm(quat[..., :3]), jnp.abs(quat[..., 3]))


def _rotvec_of(quat: Any, degrees: bool) -> Any:
    """Rotation vectors: the axis times the angle (Taylor series of angle / sin(angle / 2)
    below 1e-3 rad)."""
    quat = jnp.where(quat[..., 3:] < 0, -quat, quat)  # w >= 0 keeps the angle in [0, pi]
    angle = _angle(quat)
    sq = angle * angle
    factor = jnp.where(angle <= 1e-3, 2 + sq / 12 + 7 * sq * sq / 2880, angle / jnp.sin(angle / 2))
    if degrees:
        factor = jnp.rad2deg(factor)
    return factor[..., None] * quat[..., :3]


def _quat_of_rotvec(rotvec: Any, degrees: bool) -> Any:
    """Unit quaternions of rotation vectors (Taylor series of sin(angle / 2) / angle below
    1e-3 rad)."""
    rotvec = jnp.asarray(rotvec)
    if degrees:
        rotvec = jnp.deg2rad(rotvec)
    angle = _norm(rotvec)
    sq = angle * angle
    factor = jnp.where(angle <= 1e-3, 0.5 - sq / 48 + sq * sq / 3840, jnp.sin(angle / 2) / angle)
    return jnp.concatenate([factor[..., None] * rotvec, jnp.cos(angle / 2)[..., None]], axis=-1)


def _mrp_of(quat: Any) -> Any:
    """Modified Rodrigues parameters xyz / (1 + w), of the quaternion with w >= 0."""
    sign = jnp.where(quat[..., 3:] < 0, -1.0, 1.0)
    return sign * quat[..., :3] / (1.0 + sign * quat[..., 3:])


def _quat_of_mrp(mrp: Any) -> Any:
    mrp = jnp.asarray(mrp)
    denominator = jnp.sum(mrp * mrp, axis=-1, keepdims=True) + 1
    # the first three entries, as JAX reads them (its norm sums the whole last axis)
    return jnp.concatenate([2 * mrp[..., :3], 2 - denominator], axis=-1) / denominator


def _quat_of_matrix(matrix: Any) -> Any:
    """Unit quaternions of rotation matrices by Shepperd's method: of the four formulas (one
    led by each diagonal entry, one by the trace), take the one whose leading term is largest,
    which keeps the division well away from zero."""
    matrix = jnp.asarray(matrix)
    m = [[matrix[..., r, c] for c in range(3)] for r in range(3)]
    trace = m[0][0] + m[1][1] + m[2][2]
    candidates = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        quat = [None] * 4
        quat[i] = 1 - trace + 2 * m[i][i]
        quat[j] = m[j][i] + m[i][j]
        quat[k] = m[k][i] + m[i][k]
        quat[3] = m[k][j] - m[j][k]
        candidates.append(jnp.stack(quat, axis=-1))
    candidates.append(
        jnp.stack([m[2][1] - m[1][2], m[0][2] - m[2][0], m[1][0] - m[0][1], 1 + trace], axis=-1)
    )
    lead = jnp.argmax(jnp.stack([m[0][0], m[1][1], m[2][2], trace], axis=-1), axis=-1)
    chosen = jnp.take_along_axis(jnp.stack(candidates, axis=-2), lead[..., None, None], axis=-2)[
        ..., 0, :
    ]
    return _normalized(chosen)


def _quat_of_euler(angles: Any, seq: str, intrinsic: bool, degrees: bool) -> Any:
    """Unit quaternions of Euler angles `(..., len(seq))`: the product of one rotation about
    each axis, in the order the sequence applies them."""
    if degrees:
        angles = jnp.deg2rad(angles)
    result = None
    for n, axis in enumerate(seq.lower()):
        half = angles[..., n] / 2.0
        # strong zeros: the quaternions are strongly typed whatever the angles' weak type
        parts = [jnp.zeros(half.shape, half.dtype)] * 3 + [jnp.cos(half)]
        parts["xyz".index(axis)] = jnp.sin(half)
        about_axis = jnp.stack(parts, axis=-1)
        if result is None:
            result = about_axis
        else:
            result = _hamilton(result, about_axis) if intrinsic else _hamilton(about_axis, result)
    return result


def _canonical(quat: Any) -> Any:
    """The sign of each quaternion with w > 0, or (w = 0) the first nonzero of x, y, z
    positive."""
    x, y, z, w = _split(quat)
    flip = (w < 0) | ((w == 0) & ((x < 0) | ((x == 0) & ((y < 0) | ((y == 0) & (z < 0))))))
    return jnp.where(flip[..., None], -quat, quat)


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
