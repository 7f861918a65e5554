"""The compiled cache-hit path: packed outputs, numpy inputs, views, no aliasing."""

import numpy as np

import core
import core.numpy as jnp
from core.jit.codegen import output_layout


def many_outputs(x, n):
    return {
        "scalars": [x.sum(), x.max(), n + 1, (x > 0).any()],
        "rows": (x[:4] * 2, x[4:8] + 1, x[:4] - x[4:8]),
        "big": jnp.tile(x, 200),
    }


def test_small_outputs_are_packed_and_unpacked_to_the_right_values():
    x = jnp.arange(8.0) - 3
    n = jnp.int32(4)
    expected = core.jit(many_outputs, backend="python")(x, n)
    f = core.jit(many_outputs)
    for _ in range(2):  # trace + compile, then the cache-hit path
        got = f(x, n)
        for a, b in zip(core.tree_util.tree_leaves(got), core.tree_util.tree_leaves(expected)):
            assert a.dtype == b.dtype and a.shape == b.shape and a.weak_type == b.weak_type
            np.testing.assert_array_equal(a, b)
    jaxpr = core.make_jaxpr(many_outputs)(x, n).jaxpr
    packs, singles = output_layout(jaxpr.outvars)
    sizes = sorted(len(g) for g in packs)
    assert sizes == [2, 3]  # the float32 scalars, the three rows
    assert len(singles) == 3  # int32 scalar, bool scalar, the big tile


def test_outputs_never_alias_numpy_inputs():
    a = np.arange(6, dtype=np.float32)
    f = core.jit(lambda x: (x, x.reshape(2, 3)))
    for _ in range(2):
        y, z = f(a)
        a[0] = 100.0
        assert float(y[0]) == 0.0 and float(z[0, 0]) == 0.0
        a[0] = 0.0


def test_views_and_numpy_inputs_on_the_compiled_path():
    f = core.jit(lambda x, y: x * 2 + y)
    x = jnp.arange(6.0).reshape(2, 3)
    ref = np.arange(6.0).reshape(2, 3).T * 2 + 1
    for _ in range(2):
        np.testing.assert_array_equal(f(x.T, np.ones((3, 2), np.float32)), ref)
        np.testing.assert_array_equal(f(np.asarray(x).T, np.ones((3, 2))), ref)  # float64 in
    g = core.jit(lambda s, m: s * m)  # a 0-d input next to a view
    for _ in range(2):
        np.testing.assert_array_equal(g(np.float32(2), np.asarray(x).T), ref - 1)


class _Scaled:
    """A pytree node whose aux data is a dict (unhashable), as JAX's sharp-bits doc registers."""

    def __init__(self, x, mul):
        self.x, self.mul = x, mul


core.tree_util.register_pytree_node(
    _Scaled, lambda s: ((s.x,), {"mul": s.mul}), lambda aux, kids: _Scaled(*kids, **aux)
)


def test_unhashable_aux_data_in_an_argument_is_compared_not_hashed():
    f = core.jit(lambda s, y: s.x * y if s.mul else y, backend="python")
    assert int(f(_Scaled(2, True), 3)) == 6
    assert int(f(_Scaled(2, True), 3)) == 6  # the cache-hit path
    assert int(f(_Scaled(2, False), 3)) == 3  # other aux data: retraced
    assert int(f(_Scaled(jnp.array(5), True), 3)) == 15
