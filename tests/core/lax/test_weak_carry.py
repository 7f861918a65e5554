"""Loop carries that start as Python scalars (weakly typed) take the body's dtype, as in JAX:
`fori_loop(0, n, lambda i, c: c + x, 0)` with a float `x` is a float loop (x64 off here, unlike
test_control_flow.py)."""

import pytest

import core
import core.numpy as jnp
from core import lax


def _float16_one(i, c):
    return c + jnp.ones((), jnp.float16)


# A weakly typed initial carry (a Python scalar) whose body output has another dtype takes the
# promoted dtype, as in JAX (recorded from JAX 0.10.2: (dtype, weak_type, value)).
_WEAK_CARRIES = [
    (lambda: lax.fori_loop(0, 3, lambda i, c: c * 2.5, 1), ("float32", False, 15.625)),
    (lambda: lax.fori_loop(0, 2, _float16_one, 0.0), ("float16", False, 2.0)),
    (lambda: lax.fori_loop(0, 2, lambda i, c: c + jnp.ones((), jnp.int8), 1), ("int8", False, 3)),
    (
        lambda: lax.fori_loop(jnp.int32(0), jnp.int32(3), lambda i, c: c + 0.5, 0),
        ("float32", False, 1.5),
    ),
    (lambda: lax.fori_loop(0, 3, lambda i, c: c + i, 0.0), ("float32", True, 3.0)),
    (lambda: lax.scan(lambda c, x: (c + x, c), 0, jnp.arange(4.0))[0], ("float32", False, 6.0)),
    (
        lambda: lax.scan(lambda c, x: ((c[0] + x, c[1]), None), (0, 1), jnp.arange(3.0))[0][0],
        ("float32", False, 3.0),
    ),
    (lambda: lax.while_loop(lambda c: c < 10, lambda c: c * 2.5, 1), ("float32", False, 15.625)),
    (
        lambda: core.jit(lambda x: lax.fori_loop(0, 3, lambda i, c: c + x, 0))(jnp.float32(1.5)),
        ("float32", False, 4.5),
    ),
    # Of the body's dtype but strongly typed out: the carry stays weak inside the body (its
    # stacked values too), the final carry is strong.
    (lambda: lax.scan(lambda c, x: (c + x, c), 0.0, jnp.ones(3))[1][2], ("float32", True, 2.0)),
    (lambda: lax.scan(lambda c, x: (c + x, c), 0.0, jnp.ones(3))[0], ("float32", False, 3.0)),
    (
        lambda: core.jit(lambda xs: lax.scan(lambda c, x: (c + x, c), 0.0, xs)[1][2])(jnp.ones(3)),
        ("float32", True, 2.0),
    ),
    (
        lambda: lax.while_loop(lambda c: c < 3, lambda c: c + jnp.float32(1), 0.0),
        ("float32", False, 3.0),
    ),
]


@pytest.mark.parametrize("run,want", _WEAK_CARRIES)
def test_weak_initial_carry_is_promoted(run, want):
    out = run()
    assert (str(out.dtype), bool(out.weak_type), out.item()) == want


def test_strong_carry_of_another_dtype_is_an_error():
    with pytest.raises(lax.CarryTypeError):
        lax.scan(lambda c, x: (c.astype(jnp.int32), c), jnp.float32(1.5), jnp.arange(4.0))
    with pytest.raises(lax.CarryTypeError):
        lax.fori_loop(0, 2, lambda i, c: c + jnp.ones(2), 0.0)


_XS = jnp.arange(1.0, 4.0)


def _pair_scan(a, b, which):
    out = lax.scan(lambda c, x: ((c[0] * x, c[1] + c[0]), None), (a, b), _XS)[0]
    return out[which]


# Gradients through carries that start as Python floats (recorded from JAX 0.10.2: each
# gradient's (weak_type, value)). The carry `a` reaches `out[1]` only through the other carry,
# whose (weak) cotangent the transposed body adds the other terms to (`add_any` has its first
# operand's type); for `out[0]` the other carry is dead and no weak zero reaches `a`'s gradient.
_WEAK_CARRY_GRADS = [
    (lambda: core.grad(_pair_scan, argnums=(0, 1))(1.0, 0.0, 1), [(True, 4.0), (True, 1.0)]),
    (lambda: core.grad(_pair_scan, argnums=(0, 1))(1.0, 0.0, 0), [(False, 6.0), (True, 0.0)]),
    (
        lambda: core.grad(lambda c: _pair_scan(c["a"], c["b"], 1))({"a": 1.0, "b": 0.0}),
        {"a": (True, 4.0), "b": (True, 1.0)},
    ),
    (
        lambda: core.grad(lambda a: lax.scan(lambda c, x: (c * x, None), a, _XS)[0])(1.0),
        (False, 6.0),
    ),
]


@pytest.mark.parametrize("run,want", _WEAK_CARRY_GRADS)
def test_gradient_weak_types_through_weak_carries(run, want):
    got = core.tree_util.tree_map(lambda g: (bool(g.weak_type), g.item()), run())
    if isinstance(want, list):
        got = list(got)
    assert got == want
