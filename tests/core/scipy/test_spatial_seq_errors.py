"""Rotation's Euler-sequence errors keep JAX 0.10.2's first line (recorded from JAX; found by
tools/jax_differential's scipy_more area)."""

import pytest

import core.numpy as jnp
from core.scipy.errors import ModeError
from core.scipy.spatial.transform import Rotation

ANGLES = jnp.array([0.1, 0.2, 0.3])
IDENT = Rotation.from_quat(jnp.array([0.0, 0.0, 0.0, 1.0]))

# (call, JAX's first line)
CASES = [
    (
        lambda: Rotation.from_euler("xyzz", jnp.array([0.1, 0.2, 0.3, 0.4])),
        "Expected axis specification to be a non-empty string of upto 3 characters, got xyzz",
    ),
    (lambda: IDENT.as_euler("xy"), "Expected 3 axes, got xy."),
    (
        lambda: Rotation.from_euler("xxy", ANGLES),
        "Expected consecutive axes to be different, got xxy",
    ),
    (
        lambda: Rotation.from_euler("xYz", ANGLES),
        "Expected axes from `seq` to be from ['x', 'y', 'z'] or ['X', 'Y', 'Z'], got xYz",
    ),
]


@pytest.mark.parametrize("call, first", CASES)
def test_first_line_is_jax(call, first):
    with pytest.raises(ModeError) as info:
        call()
    assert str(info.value).split("\n")[0] == first
