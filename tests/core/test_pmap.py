"""core.pmap on one CPU device: a mapped axis of size 1 runs as jit(vmap(f)) with collectives over
axis_name; larger axes raise PmapDeviceCountError (a ValueError naming the device count);
in_axes/out_axes/static_broadcasted_argnums/axis_size/kwargs; the single-process queries."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.pmap import PmapArgumentError, PmapDeviceCountError


def test_psum_over_axis_name():
    f = core.pmap(lambda x: lax.psum(x, "i") + lax.axis_index("i"), axis_name="i")
    out = f(jnp.arange(3.0).reshape(1, 3))
    assert out.shape == (1, 3)
    np.testing.assert_array_equal(np.asarray(out), [[0.0, 1.0, 2.0]])


@pytest.mark.parametrize("size", [2, 8])
def test_more_elements_than_devices_raise(size):
    with pytest.raises(PmapDeviceCountError, match=f"requires {size} replicas.*only 1 XLA"):
        core.pmap(lambda x: x * 2)(jnp.ones((size, 3)))
    assert issubclass(PmapDeviceCountError, ValueError)


@pytest.mark.parametrize(
    "kwargs,args,expected",
    [
        ({"in_axes": (0, None)}, (np.ones((1, 3), np.float32), 2.0), [[2.0, 2.0, 2.0]]),
        (
            {"in_axes": (1, None), "out_axes": 1},
            (np.full((3, 1), 3.0, np.float32), 1.0),
            [[3.0]] * 3,
        ),
        ({"static_broadcasted_argnums": 1}, (np.ones((1, 3), np.float32), 4), [[4.0] * 3]),
        ({"axis_size": 1}, (np.ones((1, 2), np.float32), np.ones((1, 2), np.float32)), [[1, 1]]),
    ],
)
def test_axes_and_statics(kwargs, args, expected):
    out = core.pmap(lambda x, y: x * y, **kwargs)(*args)
    np.testing.assert_array_equal(np.asarray(out), expected)


def test_pytrees_kwargs_and_static_with_pytree_in_axes():
    f = core.pmap(
        lambda x, n, y: {"out": x * n + y["a"]},
        in_axes=(0, None, {"a": None}),
        static_broadcasted_argnums=1,
    )
    out = f(jnp.ones((1, 2)), 3, {"a": 1.0})
    np.testing.assert_array_equal(np.asarray(out["out"]), [[4.0, 4.0]])
    g = core.pmap(lambda x, y: x - y)
    np.testing.assert_array_equal(np.asarray(g(jnp.ones((1, 2)), y=jnp.ones((1, 2)))), [[0, 0]])


@pytest.mark.parametrize(
    "kwargs,args,match",
    [
        ({"in_axes": None}, (np.ones(3),), "at least one argument with a mapped axis"),
        ({"axis_size": 2}, (np.ones((1, 3)),), "axis_size 2 doesn't match received axis_size 1"),
        ({"static_broadcasted_argnums": 1}, (np.ones((1, 3)),), "static_broadcasted_argnums"),
        ({"in_axes": (0, 0)}, (np.ones((1, 3)),), "one entry per positional argument"),
        ({"in_axes": 2}, (np.ones((1, 3)),), "out of bounds"),
    ],
)
def test_argument_errors(kwargs, args, match):
    with pytest.raises(PmapArgumentError, match=match):
        core.pmap(lambda *a: a[0], **kwargs)(*args)


def test_empty_devices_rejected():
    with pytest.raises(ValueError, match="non-empty"):
        core.pmap(lambda x: x, devices=[])


def test_composes_with_grad_jit_vmap():
    f = core.pmap(jnp.sin)
    g = core.grad(lambda x: f(x).sum())(jnp.zeros((1, 2)))
    np.testing.assert_allclose(np.asarray(g), [[1.0, 1.0]])
    np.testing.assert_allclose(np.asarray(core.jit(f)(jnp.zeros((1, 2)))), [[0.0, 0.0]])
    assert core.vmap(f)(jnp.zeros((3, 1, 2))).shape == (3, 1, 2)


def test_single_process_queries():
    assert core.process_count() == 1 and core.process_index() == 0
    assert core.host_count() == 1 and core.host_id() == 0
    assert core.effects_barrier() is None
    assert core.live_arrays() == []
