"""The n-ary elementwise primitives broadcast rank-0 operands and size-1 axes, as JAX's lax
does (`core/prims/elementwise.py`, `Primitive.broadcasting`): every transformation of a call
with mixed shapes must give what the same call on operands broadcast beforehand gives (the
path every rule was checked on), eagerly and under `jit`; mismatched shapes raise JAX's
errors; the staged jaxpr keeps the rank-0 literal (`mul a 2.0:f32[]`), as JAX's. `lax.clamp`,
a primitive with rank-0 bounds, likewise."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import ShapeError
from core.prims import elementwise as ew

# (name, lax function, numpy reference); float operands
OPS = [
    ("add", lax.add, np.add),
    ("sub", lax.sub, np.subtract),
    ("mul", lax.mul, np.multiply),
    ("div", lax.div, np.divide),
    ("max", lax.max, np.maximum),
    ("min", lax.min, np.minimum),
    ("pow", lax.pow, np.power),
    ("atan2", lax.atan2, np.arctan2),
]
SHAPES = [((3,), ()), ((), (2, 3)), ((2, 1), (1, 3)), ((2, 3), (1, 3)), ((1,), (4,))]


def _operands(shapes):
    rng = np.random.default_rng(sum(len(s) for s in shapes))
    return [rng.uniform(0.5, 2.0, size=s).astype(np.float32) for s in shapes]


def _explicit(fn):
    """`fn` on operands broadcast to the result's shape first (the old, same-shape path)."""

    def run(x, y):
        shape = np.broadcast_shapes(np.shape(x), np.shape(y))
        return fn(jnp.broadcast_to(x, shape), jnp.broadcast_to(y, shape))

    return run


@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name,fn,ref", OPS, ids=[o[0] for o in OPS])
def test_values_grads_and_vmap_equal_the_explicit_broadcast(name, fn, ref, shapes):
    x, y = _operands(shapes)
    got = fn(x, y)
    np.testing.assert_allclose(np.asarray(got), ref(x, y), rtol=2e-6)
    np.testing.assert_array_equal(np.asarray(got), np.asarray(_explicit(fn)(x, y)))
    w = np.linspace(0.5, 1.5, got.size, dtype=np.float32).reshape(got.shape)

    def loss(f):
        return lambda a, b: jnp.sum(f(a, b) * w)

    grads = core.grad(loss(fn), argnums=(0, 1))(x, y)
    want = core.grad(loss(_explicit(fn)), argnums=(0, 1))(x, y)
    for g, v, a in zip(grads, want, (x, y)):
        assert g.shape == a.shape
        np.testing.assert_allclose(np.asarray(g), np.asarray(v), rtol=1e-6, atol=1e-7)
    jitted = core.jit(core.grad(loss(fn), argnums=(0, 1)))(x, y)
    for g, v in zip(jitted, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(v), rtol=1e-6, atol=1e-7)
    # vmap over the second operand, a batch of two
    ys = np.stack([y, y * 1.5])
    batched = core.vmap(fn, in_axes=(None, 0))(x, ys)
    np.testing.assert_array_equal(np.asarray(batched), np.stack([fn(x, b) for b in ys]))


def test_jvp_of_a_scalar_operand_has_the_results_shape():
    x = np.arange(3, dtype=np.float32)
    out, tangent = core.jvp(lambda s: lax.add(x, s), (np.float32(2.0),), (np.float32(1.0),))
    np.testing.assert_array_equal(np.asarray(out), x + 2)
    np.testing.assert_array_equal(np.asarray(tangent), np.ones(3, np.float32))


def test_a_scalar_literal_stays_rank_0_in_the_jaxpr():
    text = str(core.make_jaxpr(lambda x: x * 2.0 + 1.0)(jnp.ones(3)))
    assert "mul a 2.0:f32[]" in text and "broadcast_in_dim" not in text
    vm = str(
        core.make_jaxpr(core.vmap(lambda a, s: a * s, in_axes=(None, 0)))(jnp.ones(3), jnp.ones(4))
    )
    assert "f32[1,3]" in vm and "f32[4,1]" in vm and "f32[4,3] = mul" in vm


@pytest.mark.parametrize(
    "shapes,message",
    [
        (((3,), (4,)), "add got incompatible shapes for broadcasting: (3,), (4,)."),
        (((3,), (2, 3)), "add: arrays must have the same number of dimensions, got {1, 2}"),
    ],
)
def test_shapes_that_do_not_broadcast_raise_jaxs_type_error(shapes, message):
    x, y = (jnp.ones(s, np.float32) for s in shapes)
    for run in (lambda: lax.add(x, y), lambda: core.jit(lax.add)(x, y)):
        with pytest.raises(TypeError) as info:
            run()
        assert isinstance(info.value, ShapeError)
    with pytest.raises(ShapeError) as info:  # the primitive itself: JAX's text, then the fix
        ew.add_p.bind(x, y)
    assert str(info.value).startswith(message)


# lax.clamp: a primitive as in JAX (min(max(x, lo), hi); rank-0 bounds broadcast)
CLAMP_X = np.array([np.nan, -1.0, 0.0, 0.25, 1.0, 2.0, np.inf], np.float32)


@pytest.mark.parametrize(
    "lo,hi", [(0.0, 1.0), (1.0, 0.0), (np.full(7, 0.5, np.float32), 1.0)], ids=str
)
def test_clamp_values_eager_and_jitted(lo, hi):
    want = np.minimum(np.maximum(CLAMP_X, lo), hi)  # XLA's order: NaN stays, lo > hi gives hi
    for fn in (lax.clamp, core.jit(lax.clamp)):
        np.testing.assert_array_equal(np.asarray(fn(lo, CLAMP_X, hi)), want)


def test_clamp_gradients_follow_jaxs_rule():
    # the tangent of whichever operand is strictly the result; at a bound nobody's (JAX)
    x = jnp.array([0.1, 0.2, 0.5, 0.6, 0.9])
    grads = core.grad(lambda lo, x, hi: lax.clamp(lo, x, hi).sum(), argnums=(0, 1, 2))(0.2, x, 0.6)
    np.testing.assert_array_equal(np.asarray(grads[0]), 1.0)
    np.testing.assert_array_equal(np.asarray(grads[1]), [0, 0, 1, 0, 0])
    np.testing.assert_array_equal(np.asarray(grads[2]), 1.0)


def test_clamp_jaxprs_and_errors_are_jaxs():
    text = str(core.make_jaxpr(lambda x: lax.clamp(0.0, x, 1.0))(jnp.ones(3)))
    assert text == "{ lambda ; a:f32[3]. let b:f32[3] = clamp 0.0:f32[] a 1.0:f32[] in (b,) }"
    vm = core.make_jaxpr(core.vmap(lambda lo, x: lax.clamp(lo, x, 1.0)))(
        jnp.ones(2), jnp.ones((2, 3))
    )
    assert str(vm).splitlines()[-2].strip() == "e:f32[2,3] = clamp d b c"
    batched = core.vmap(lambda lo, x: lax.clamp(lo, x, 1.0))(
        jnp.array([0.0, 0.5]), jnp.zeros((2, 3))
    )
    np.testing.assert_array_equal(np.asarray(batched), [[0, 0, 0], [0.5, 0.5, 0.5]])
    with pytest.raises(TypeError, match=r"clamp requires min.shape == operand.shape or min.shape"):
        lax.clamp(jnp.ones(2), jnp.ones(3), 1.0)
    with pytest.raises(TypeError, match="lax.clamp requires arguments to have the same dtypes"):
        lax.clamp(0, jnp.ones(3), 1.0)
