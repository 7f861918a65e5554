"""jnp.diagonal (one strided slice of the flattened planes): values against numpy for every
offset and axis pair, and its gradient against JAX's (recorded)."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.sharding import NamedSharding
from core.sharding import PartitionSpec as P

X = np.arange(24.0).reshape(2, 3, 4)


@pytest.mark.parametrize("axes", [(0, 1), (1, 2), (2, 0), (-1, -2)])
@pytest.mark.parametrize("offset", range(-4, 6))
def test_diagonal_matches_numpy(offset, axes):
    got = jnp.diagonal(X, offset, *axes)
    want = np.diagonal(X, offset, *axes)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_diagonal_gradient_and_jit():
    # jax.grad(lambda v: jnp.diagonal(v, -1, 0, 2).sum())(jnp.ones((3, 2, 4)))
    want = np.zeros((3, 2, 4))
    want[1, :, 0] = want[2, :, 1] = 1.0
    got = core.grad(lambda v: jnp.diagonal(v, -1, 0, 2).sum())(jnp.ones((3, 2, 4)))
    np.testing.assert_array_equal(got, want)
    jitted = core.jit(lambda v: jnp.diagonal(v, 1, 1, 2), backend="python")
    np.testing.assert_array_equal(jitted(X), np.diagonal(X, 1, 1, 2))


def test_diagonal_rejects_equal_axes():
    # JAX 0.10.2 raises TypeError (from the transpose it builds)
    with pytest.raises(TypeError, match="pass two different axes"):
        jnp.diagonal(X, 0, 1, -2)


@pytest.mark.parametrize(  # JAX 0.10.2's paths (opt_einsum)
    "shapes, optimize, path",
    [
        (((2, 3), (3, 4), (4, 5)), "auto", [(0, 1), (0, 1)]),
        (((20, 3), (3, 40), (40, 5)), "auto", [(1, 2), (0, 1)]),
        (((20, 3), (3, 40), (40, 5)), "greedy", [(1, 2), (0, 1)]),
        (((20, 3), (3, 40), (40, 5)), False, [(0, 1), (0, 1)]),
        (((20, 3), (3, 40), (40, 5)), [(0, 1), (0, 1)], [(0, 1), (0, 1)]),
        (((20, 3), (3, 40), (40, 5), (5, 6)), "auto", [(1, 2), (1, 2), (0, 1)]),
    ],
)
def test_einsum_path(shapes, optimize, path):
    subscripts = ",".join(["ij", "jk", "kl", "lm"][: len(shapes)])
    subscripts += "->i" + "jklm"[len(shapes) - 1]
    operands = [jnp.ones(s) for s in shapes]
    got, report = jnp.einsum_path(subscripts, *operands, optimize=optimize)
    assert got == path and "Complete contraction" in str(report)
    assert jnp.einsum(subscripts, *operands, optimize=got).shape == (shapes[0][0], shapes[-1][1])


@pytest.mark.parametrize("product", [jnp.dot, jnp.matmul])
@pytest.mark.parametrize("spec", [P("x", None), P("x")])
def test_out_sharding_places_the_product_as_jax_does(product, spec):
    """JAX 0.10.2 records a spec of one entry per axis: P('x', None) for both specs."""
    mesh = core.make_mesh((4, 2), ("x", "y"))
    a = np.arange(8 * 16.0, dtype=np.float32).reshape(8, 16)
    b = np.arange(16 * 4.0, dtype=np.float32).reshape(16, 4)
    a_placed = core.device_put(a, NamedSharding(mesh, P("x", "y")))
    with core.set_mesh(mesh):
        out = product(a, b, out_sharding=spec)
        jitted = core.jit(lambda u, v: product(u, v, out_sharding=spec))(a_placed, b)
    for got in (out, jitted):
        assert got.sharding == NamedSharding(mesh, P("x", None))
        np.testing.assert_allclose(got, a @ b)


@pytest.mark.parametrize(  # JAX 0.10.2: zeros of shape (2, 3); a size 1 broadcasts to 0
    "x_shape, y_shape",
    [((2, 0), (0, 3)), ((2, 0), (1, 3)), ((2, 1), (0, 3))],
)
def test_einsum_contracts_an_empty_label_to_zeros(x_shape, y_shape):
    out = jnp.einsum("ij,jk->ik", jnp.ones(x_shape), jnp.ones(y_shape))
    np.testing.assert_array_equal(out, np.zeros((2, 3), np.float32))


@pytest.mark.parametrize(  # JAX's vecdot: `axis` in each operand's own rank, the rest broadcast
    "s1, s2, axis",
    [((4, 1, 3), (4,), 0), ((3, 2), (1, 2, 3), 1), ((2, 4, 3), (2, 3), 0), ((4,), (4, 3), 0)],
)
def test_vecdot_axis_counts_in_each_operand(s1, s2, axis):
    x = np.arange(np.prod(s1), dtype=np.float32).reshape(s1) - 3
    y = np.arange(np.prod(s2), dtype=np.float32).reshape(s2) * 0.5
    want = np.sum(np.moveaxis(x, axis, -1) * np.moveaxis(y, axis, -1), axis=-1)
    with core.numpy_rank_promotion("allow"):
        got = jnp.vecdot(x, y, axis=axis)
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize(  # JAX 0.10.2's classes and messages
    "call, error, message",
    [
        (lambda a, b: jnp.tensordot(a, b, axes=2), TypeError, r"Number of tensordot axes \(axes"),
        (lambda a, b: jnp.tensordot(a, b, axes=([0], [0, 1])), TypeError, "equal length, got"),
        (lambda a, b: jnp.tensordot(a, b, axes=("bad", "axes")), TypeError,
         "tensordot requires both axes lists to be either ints, tuples or lists, got bad and axes"),
        (lambda a, b: jnp.tensordot(a, b, axes="badaxes"), TypeError,
         "tensordot axes argument must be an int, a pair of ints, or a pair of lists/tuples"),
        (lambda a, b: jnp.tensordot(a, b, axes=(0, [0])), TypeError, "either ints, tuples or"),
        (lambda a, b: jnp.trace(a, axis1=1, axis2=-2), ValueError,
         "axis1 and axis2 can not be same. axis1=1 and axis2=-2"),
    ],
)  # fmt: skip
def test_product_argument_errors(call, error, message):
    with pytest.raises(error, match=message):
        call(np.ones((3, 2, 2)), np.ones((2,)))


def test_tensordot_pair_of_ints():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
    np.testing.assert_allclose(jnp.tensordot(a, b, axes=(1, 0)), np.tensordot(a, b, axes=(1, 0)))
