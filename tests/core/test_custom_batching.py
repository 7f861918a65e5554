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


def _sin_with_cos_rule(seen=None):
    """`sin`, whose (deliberately different) vmap rule is `cos`, logging `in_batched`."""

    @custom_vmap
    def f(x):
        return jnp.sin(x)

    @f.def_vmap
    def rule(axis_size, in_batched, xs):
        if seen is not None:
            seen.append((axis_size, in_batched))
        return jnp.cos(xs), in_batched[0]

    return f


_X3 = jnp.arange(3.0)

JVP_OF_RULE = {  # case: (run(f), want, rule calls), JAX 0.10.2: the jvp keeps the rule
    "vmap_of_jvp": (
        lambda f: jax.vmap(lambda x, t: jax.jvp(f, [x], [t]))(_X3, 2 * _X3),
        (np.cos(_X3), -np.sin(_X3) * 2 * _X3),
        [(3, [True])],
    ),
    "jvp_of_vmap": (
        lambda f: jax.jvp(jax.vmap(f), [_X3], [2 * _X3]),
        (np.cos(_X3), -np.sin(_X3) * 2 * _X3),
        [(3, [True])],
    ),
    "extra_batched_tangents": (
        lambda f: jax.vmap(
            lambda x, t: jax.jvp(f, [x], [t]), in_axes=(None, 0), out_axes=(None, 0)
        )(jnp.float32(1.0), 2.0 + _X3),
        (np.cos(np.float32(1.0)), -np.sin(np.float32(1.0)) * (2.0 + _X3)),
        [(3, [False])],
    ),
    "extra_batched_primals": (
        lambda f: jax.vmap(lambda x, t: jax.jvp(f, [x], [t]), in_axes=(0, None))(_X3, 2.0),
        (np.cos(_X3), -np.sin(_X3) * 2.0),
        [(3, [False])],
    ),
    "jacfwd": (lambda f: jax.jacfwd(f)(_X3 + 0.72), -np.diag(np.sin(_X3 + 0.72)), [(3, [False])]),
    # numbax's reverse mode differentiates the function (JAX refuses grad of custom_vmap)
    "grad": (lambda f: jax.grad(f)(0.5), np.cos(0.5), []),
}


@pytest.mark.parametrize("case", JVP_OF_RULE)
def test_jvp_of_a_custom_vmap_function_keeps_its_rule(case):
    run, want, want_seen = JVP_OF_RULE[case]
    seen = []
    got = run(_sin_with_cos_rule(seen))
    jax.tree.map(lambda g, w: np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6), got, want)
    assert seen == want_seen


def test_a_closed_over_array_is_an_input_of_the_call():
    # JAX 0.10.2: z + sin(x) outside vmap, the rule's z + cos(xs) under it
    z = jnp.array([2.0, 1.0, 3.0])

    @custom_vmap
    def f(x):
        return z + jnp.sin(x)

    f.def_vmap(lambda size, batched, xs: (z + jnp.cos(xs), batched[0]))
    np.testing.assert_allclose(f(jnp.float32(1.0)), z + np.sin(np.float32(1.0)), rtol=1e-6)
    np.testing.assert_allclose(jax.vmap(f)(_X3), z + np.cos(_X3), rtol=1e-6)


def test_def_methods_are_forwarded_to_the_wrapped_function():
    # JAX 0.10.2: custom_vmap(custom_jvp(f)).defjvp and custom_jvp(custom_vmap(f)).def_vmap
    f = custom_vmap(jax.custom_jvp(lambda x: 2.0 * x))
    f.def_vmap(lambda size, batched, xs: (3.0 * xs, batched[0]))
    f.defjvp(lambda p, t: (2.0 * p[0], 5.0 * t[0]))
    assert float(jax.jvp(f, (1.0,), (1.0,))[1]) == 5.0
    np.testing.assert_array_equal(jax.vmap(f)(jnp.ones(2)), [3.0, 3.0])
    g = jax.custom_jvp(custom_vmap(lambda x: x + 1.0))
    assert callable(g.def_vmap) and callable(g.defjvp)
    with pytest.raises(AttributeError):
        f.nonexistent  # noqa: B018


def test_grad_of_vmap_of_sequential_vmap_differentiates_the_function():
    # JAX 0.10.2 refuses (its linearization error); numbax differentiates the function, the
    # jvp calls in the rule's loop body inlined when linearized: d/dx 2 sin(x) = 2 cos(x)
    f = sequential_vmap(lambda x, y: jnp.sin(x) * y)
    g = jax.grad(lambda x: jax.vmap(lambda x: f(x, 2.0))(x).sum())(_X3)
    np.testing.assert_allclose(g, 2 * np.cos(_X3), rtol=1e-6)
    ys, ts = jax.vmap(lambda x, t: jax.jvp(lambda x: f(x, 2.0), (x,), (t,)))(_X3, _X3)
    np.testing.assert_allclose(ts, 2 * np.cos(_X3) * _X3, rtol=1e-6)  # JAX 0.10.2's values
