"""Errors of `lax.switch`, `lax.map`, `lax.fori_loop` and `lax.scan` with JAX 0.10.2's classes
and first lines (recorded from JAX 0.10.2; numbax's fix follows on later lines)."""

import pytest

import core.numpy as jnp
from core import lax

# (call, JAX 0.10.2's exception class, its message's first line)
CASES = [
    (lambda: lax.switch(1, lambda: 1), TypeError, "'function' object is not iterable"),
    (
        lambda: lax.map(lambda x: x * 2, jnp.arange(5.0), batch_size=-1),
        TypeError,
        "reshape new_sizes must all be positive, got (-5, -1).",
    ),
    (
        lambda: lax.map(lambda x: x * 2, jnp.arange(5.0), batch_size=-2),
        TypeError,
        "cannot reshape array of shape (5,) (size 5) into shape (-3, -2) (size 6)",
    ),
    (
        lambda: lax.fori_loop(0, jnp.array([3]), lambda i, c: c + 1, 0),
        TypeError,
        "cond_fun must return a boolean scalar, but got output type(s) [ShapedArray(bool[1])].",
    ),
    (
        lambda: lax.fori_loop(0, jnp.ones((2, 2), int), lambda i, c: c + 1, 0),
        TypeError,
        "cond_fun must return a boolean scalar, but got output type(s) [ShapedArray(bool[2,2])].",
    ),
]


@pytest.mark.parametrize("call, cls, first_line", CASES)
def test_errors_start_with_jaxs_line(call, cls, first_line):
    with pytest.raises(cls) as info:
        call()
    assert str(info.value).split("\n")[0] == first_line


@pytest.mark.parametrize(
    "xs, cls",
    [(jnp.float32(3.0), IndexError), (3.0, ValueError)],  # JAX 0.10.2's classes
)
def test_scan_over_a_scalar(xs, cls):
    with pytest.raises(cls, match="no leading axis"):
        lax.scan(lambda c, x: (c, x), 0.0, xs)
