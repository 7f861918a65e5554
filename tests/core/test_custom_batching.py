"""`custom_vmap` and `sequential_vmap` (core/custom_batching.py) give JAX 0.10.2's values: the
rule runs under `vmap` (at the axis it batches, with batched arguments' axes in front and
JAX's `in_batched` lists), the function itself elsewhere; wrong rule outputs and a missing rule
raise JAX's classes and messages."""

import numpy as np
import pytest

import core as jax
import core.numpy as jnp
from core import errors
from core.custom_batching import custom_vmap, sequential_vmap


def _product_rule_add():
    """`x + y`, whose vmap rule (deliberately different) multiplies and logs its calls."""
    calls = []

    @custom_vmap
    def f(x, y):
        return x + y

    @f.def_vmap
    def rule(axis_size, in_batched, xs, ys):
        calls.append((axis_size, in_batched))
        return xs * ys, in_batched[0] or in_batched[1]

    return f, calls


def test_outside_vmap_the_function_runs():
    f, calls = _product_rule_add()
    out = f(1.0, 2.0)
    assert (float(out), out.dtype, out.weak_type) == (3.0, np.float32, True)
    np.testing.assert_array_equal(f(jnp.ones(2), 2), [3.0, 3.0])
    assert calls == []


@pytest.mark.parametrize("staged", [False, True], ids=["eager", "jit"])
def test_vmap_calls_the_rule_with_the_batch_axis_in_front(staged):
    f, calls = _product_rule_add()
    g = jax.vmap(f, in_axes=(1, None))
    g = jax.jit(g) if staged else g
    out = g(jnp.arange(6.0).reshape(2, 3), 2.0)
    np.testing.assert_array_equal(out, [[0.0, 6.0], [2.0, 8.0], [4.0, 10.0]])
    assert calls == [(3, [True, False])]


def test_nested_vmap_calls_the_rule_once_at_the_inner_axis():
    f, calls = _product_rule_add()
    out = jax.vmap(jax.vmap(f))(jnp.ones((2, 3)), 3 * jnp.ones((2, 3)))
    np.testing.assert_array_equal(out, np.full((2, 3), 3.0))
    assert calls == [(3, [True, True])]


def test_jvp_differentiates_the_function():
    f, _ = _product_rule_add()
    y, t = jax.jvp(f, (1.0, 2.0), (1.0, 1.0))
    assert (float(y), float(t)) == (3.0, 2.0)


def test_sequential_vmap_maps_the_batched_arguments():
    @sequential_vmap
    def g(x, y):
        return jnp.sum(x) * y, x

    s, x = jax.vmap(g, in_axes=(0, None))(jnp.arange(6.0).reshape(3, 2), 2.0)
    np.testing.assert_array_equal(s, [2.0, 10.0, 18.0])
    np.testing.assert_array_equal(x, np.arange(6.0).reshape(3, 2))


def test_rule_output_structure_errors():
    @custom_vmap
    def h(x):
        return x

    @h.def_vmap
    def hr(n, b, x):
        return (x, x), True

    with pytest.raises(ValueError, match=r"\(hr\) do not match") as e:
        jax.vmap(h)(jnp.ones(2))
    assert isinstance(e.value, errors.CustomVmapRuleOutputError)
    assert str(e.value).startswith(
        "structure of output value and output batching specification returned by custom "
        "vmap rule (hr) do not match.\nOutput values: PyTreeDef((*, *))\n"
        "Batching spec: PyTreeDef(*)"
    )

    @h.def_vmap
    def hr2(n, b, x):
        return (x, x), (True, True)

    with pytest.raises(ValueError, match="does not match that of original custom-vmapped"):
        jax.vmap(h)(jnp.ones(2))


def test_missing_rule():
    @custom_vmap
    def k(x):
        return x

    with pytest.raises(AttributeError) as e:
        k(1.0)
    assert isinstance(e.value, errors.CustomVmapRuleMissingError)
    assert str(e.value).startswith(
        "No batching rule defined for custom_vmap function k using def_vmap."
    )


def test_jit_compiles_the_function_and_vmap_of_jit_keeps_the_rule():
    @custom_vmap
    def f(x):
        return jnp.sin(x) * 2

    @f.def_vmap
    def rule(n, in_batched, x):
        return x * 3, in_batched[0]

    np.testing.assert_allclose(jax.jit(f)(jnp.ones(3)), [1.6829419] * 3, rtol=1e-6)
    np.testing.assert_array_equal(jax.vmap(jax.jit(f))(jnp.ones(3)), [3.0, 3.0, 3.0])
