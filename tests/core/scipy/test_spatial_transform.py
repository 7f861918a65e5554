"""core.scipy.spatial.transform (Rotation, Slerp) against JAX's recorded results
(spatial_answers.py): every constructor and conversion, Euler sequences intrinsic/extrinsic and
symmetric, degrees, small-angle rotation vectors, composition, apply, mean, Slerp; plus
jit/vmap/grad and the errors."""

import numpy as np
import pytest

import core
from core.scipy.errors import (
    ModeError,
    NotARotationError,
    ShapeMismatchError,
    SingleRotationError,
)
from core.scipy.spatial.transform import Rotation as R
from core.scipy.spatial.transform import Slerp
from tests.core.scipy.spatial_answers import RESULTS

EUL = np.float32([[0.3, -1.2, 2.0], [1.0, 0.5, -0.25], [0.0, 0.0, 0.0], [-2.5, 0.7, 3.0]])
Q = np.float32(
    [[0.1, -0.4, 0.3, 0.8], [0.5, 0.5, -0.5, -0.5], [0.0, 0.0, -0.6, 0.0], [1.0, 2.0, 3.0, 4.0]]
)
RV = np.float32([[0.2, -0.1, 0.4], [1e-4, 0.0, 2e-4], [2.0, 1.0, -1.5]])
V = np.float32([[1.0, 2.0, 3.0], [-0.5, 0.3, 0.8], [0.0, 1.0, 0.0], [2.0, -1.0, 0.5]])
W = np.float32([1.0, 2.0, 0.5, 0.25])
TIMES = np.float32([0.0, 1.0, 3.0, 3.5])


def _slerp():
    return Slerp.init(TIMES, R.from_quat(Q))


CASES = [
    lambda: R.from_euler("xyz", EUL).as_quat(),
    lambda: R.from_euler("ZXZ", EUL).as_quat(),
    lambda: R.from_euler("zy", EUL[:, :2] * 40, degrees=True).as_quat(),
    lambda: R.from_euler("y", np.float32(0.7)).as_quat(),
    lambda: R.from_quat(Q).as_euler("xyz"),
    lambda: R.from_quat(Q).as_euler("YXY", degrees=True),
    lambda: R.from_quat(Q).as_euler("ZYX"),
    lambda: R.from_quat(Q).as_matrix(),
    lambda: R.from_matrix(np.asarray(R.from_quat(Q).as_matrix())).as_quat(),
    lambda: R.from_quat(Q).as_rotvec(),
    lambda: R.from_quat(Q).as_rotvec(degrees=True),
    lambda: R.from_rotvec(RV).as_quat(),
    lambda: R.from_rotvec(RV * 30, degrees=True).as_quat(),
    lambda: R.from_quat(Q).as_mrp(),
    lambda: R.from_mrp(RV).as_quat(),
    lambda: R.from_quat(Q).as_quat(canonical=True, scalar_first=True),
    lambda: R.from_quat(Q).inv().as_quat(),
    lambda: R.from_quat(Q).magnitude(),
    lambda: (R.from_quat(Q) * R.from_euler("xyz", EUL)).as_quat(),
    lambda: R.from_quat(Q).apply(V),
    lambda: R.from_quat(Q).apply(V, inverse=True),
    lambda: R.from_quat(Q[0]).apply(V),
    lambda: R.from_quat(Q).mean(W).as_quat(),
    lambda: R.concatenate([R.from_quat(Q[:2]), R.from_quat(Q[2:])]).as_quat(),
    lambda: _slerp()(np.float32([0.0, 0.25, 1.0, 2.2, 3.5])).as_quat(),
    lambda: _slerp()(np.float32(0.6)).as_quat(),
]


# Euler angles (cases 4-6) are compared modulo a turn: an angle of exactly pi comes out as pi or
# -pi depending on the last bit (Q[1] is such a rotation).
PERIOD = {4: 2 * np.pi, 5: 360.0, 6: 2 * np.pi}


@pytest.mark.parametrize("i", range(len(CASES)))
def test_matches_jax(i):
    got = np.asarray(CASES[i]())
    want = RESULTS[i]
    assert got.dtype == want.dtype and got.shape == want.shape
    if i in PERIOD:
        half = PERIOD[i] / 2
        got = want + (got - want + half) % PERIOD[i] - half
    np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)


def test_transformations():
    got = core.jit(lambda q, v: R.from_quat(q).apply(v))(Q, V)
    np.testing.assert_allclose(got, RESULTS[19], rtol=2e-5, atol=2e-5)
    got = core.vmap(lambda q: R.from_quat(q).as_matrix())(Q)
    np.testing.assert_allclose(got, RESULTS[7], rtol=2e-5, atol=2e-5)
    # A rotation keeps lengths: d/dv |R v|^2 = 2 v.
    g = core.grad(lambda v: (R.from_quat(Q[0]).apply(v) ** 2).sum())(V[0])
    np.testing.assert_allclose(g, 2 * V[0], rtol=1e-5)


def test_errors():
    single = R.from_quat(Q[0])
    with pytest.raises(SingleRotationError, match="not subscriptable"):
        single[0]
    with pytest.raises(SingleRotationError, match="no len"):
        len(single)
    with pytest.raises(ModeError, match="consecutive axes"):
        R.from_euler("xxy", EUL)
    with pytest.raises(ModeError, match="from \\['x', 'y', 'z'\\]"):
        R.from_euler("xYz", EUL)
    with pytest.raises(ModeError, match="Expected 3 axes, got xy"):
        R.from_quat(Q).as_euler("xy")
    with pytest.raises(NotARotationError):
        Slerp.init(TIMES, Q)
    with pytest.raises(ShapeMismatchError, match="4 rotations and 3 timestamps"):
        Slerp.init(TIMES[:3], R.from_quat(Q))
    with pytest.raises(ShapeMismatchError, match="2 values and 4 rotations"):
        R.from_quat(Q).mean(W[:2])
    # JAX's first lines (JAX 0.10.2; its jnp.vectorize's), then numbax's fix
    with pytest.raises(ShapeMismatchError, match="core dimension 'm': 3 vs 2 on vectorized"):
        R.from_euler("xyz", EUL[0, :2])
    with pytest.raises(ValueError, match=r"shapes=\[\(4,\), \(3,\), \(\)\]"):
        R.from_quat(Q).apply(V[:3])


def test_quaternions_are_strongly_typed():
    # JAX 0.10.2: from_euler of integer or Python-float angles gives strong float32
    for seq, angles in (("xy", np.array([1, 2])), ("x", 0.5)):
        quat = R.from_euler(seq, angles).as_quat()
        assert quat.dtype == np.float32 and not quat.weak_type


def test_composing_stacks_of_different_lengths_names_both_shapes():
    # JAX 0.10.2: ValueError "Incompatible shapes for broadcasting: shapes=[(2,), (3,)]"
    first = r"^Incompatible shapes for broadcasting: shapes=\[\(2,\), \(3,\)\]"
    with pytest.raises(ValueError, match=first):
        R.from_quat(np.ones((2, 4))) * R.from_quat(np.ones((3, 4)))


def test_from_mrp_reads_the_first_three_entries():
    # JAX 0.10.2: Rotation.from_mrp(jnp.ones((2, 4))).as_quat() -> [[0.4, 0.4, 0.4, -0.6]] * 2
    # (its norm sums all four entries, its vector part takes the first three)
    np.testing.assert_allclose(
        R.from_mrp(np.ones((2, 4), np.float32)).as_quat(), [[0.4, 0.4, 0.4, -0.6]] * 2, rtol=1e-6
    )
