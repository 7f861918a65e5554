"""`nn.core`'s scope-level lifted transforms (`flax.core.lift`: `vmap`, `scan`, `jit`,
`remat`, `while_loop`, `vjp`, `jvp`, `remat_scan`, `lazy_init`, `custom_vjp`) on functional
programs: init outputs, parameters, apply outputs and gradients equal Flax 0.12.8's (values
recorded once with the reference venv, rounded to 5 decimals)."""

import numpy as np

import core
import core.numpy as jnp
from core import random, tree_util
from nn import core as fc
from nn import core_nn, lift
from nn import initializers as init


def dense(scope, x, features=2):
    k = scope.param("kernel", init.lecun_normal(), (x.shape[-1], features))
    return x @ k


def noisy(scope, x):
    return dense(scope, x) + random.normal(scope.make_rng("noise"), (2,))


def step(scope, c, x):
    h = dense(scope.push("cell"), jnp.concatenate([c, x]), 2)
    return jnp.tanh(h), h.sum()


def model(scope, x):
    v = fc.vmap(
        noisy,
        variable_axes={"params": 0},
        split_rngs={"params": True, "noise": True},
        in_axes=0,
    )(scope.push("v"), x)
    c, ys = fc.scan(step, variable_broadcast="params", split_rngs={"params": False})(
        scope.push("s"), jnp.zeros(2), x
    )
    j = fc.jit(lambda s, key, x: dense(s, x))(scope.push("j"), "key", x)
    r = fc.remat(noisy)(scope.push("r"), x[0])
    return v, c, ys, j, r


INIT_OUT = (
    [-1.07511, -2.72151, -2.03043, 3.01373, 4.27906, -1.32472],
    [-0.9988, -0.84769],
    [-1.14726, -3.10226, -4.95862],
    [-1.20722, 0.54236, -3.50481, -0.70554, -5.80241, -1.95343],
    [1.73123, 1.20005],
)
VARIABLES = {
    "params": {
        "j": {"kernel": [0.05842, -1.1663, -1.20722, 0.54236]},
        "r": {"kernel": [-0.8078, -0.06142, 0.06009, -0.00746]},
        "s": {
            "cell": {
                "kernel": [0.36467, -0.14877, 0.0194, 0.3189, 0.04525, 0.26042, -0.70433, -0.44293]
            }
        },
        "v": {
            "kernel": [
                -0.00319,
                0.18841,
                -0.30958,
                -0.96629,
                0.52869,
                -0.55715,
                -0.90457,
                1.08866,
                0.51936,
                0.98673,
                0.44221,
                -1.16085,
            ]
        },
    }
}
APPLY_OUT = (
    [-1.83817, -1.75925, -2.20302, 1.44366, 4.24016, -2.82529],
    [-0.9988, -0.84769],
    [-1.14726, -3.10226, -4.95862],
    [-1.20722, 0.54236, -3.50481, -0.70554, -5.80241, -1.95343],
    [-0.8917, 0.25205],
)
GRADS = {
    "j": {"kernel": [6.0, 6.0, 9.0, 9.0]},
    "r": {"kernel": [0.0, 0.0, 1.0, 1.0]},
    "s": {
        "cell": {
            "kernel": [-1.59215, -1.99619, -1.11211, -1.39485, 6.02471, 7.57276, 9.15174, 11.41652]
        }
    },
    "v": {"kernel": [0.0, 0.0, 1.0, 1.0, 2.0, 2.0, 3.0, 3.0, 4.0, 4.0, 5.0, 5.0]},
}


def _close(ours, expected):
    leaves = tree_util.tree_leaves(ours)
    flat = tree_util.tree_leaves(expected, is_leaf=lambda x: isinstance(x, list))
    assert len(leaves) == len(flat)
    for a, b in zip(leaves, flat):
        np.testing.assert_allclose(np.asarray(a, np.float64).ravel(), b, atol=2e-5)


def test_lifted_transforms_match_flax():
    x = jnp.arange(6.0).reshape(3, 2)
    y, variables = fc.init(model)({"params": random.key(0), "noise": random.key(1)}, x)
    _close(y, INIT_OUT)
    _close(variables, VARIABLES)
    out = fc.apply(model)(variables, x, rngs={"noise": random.key(2)})
    _close(out, APPLY_OUT)

    def loss(p):
        outs = fc.apply(model)({"params": p}, x, rngs={"noise": random.key(2)})
        return sum(o.sum() for o in outs)

    _close(core.grad(loss)(variables["params"]), GRADS)


def test_flax_core_names():
    import flaxport

    assert flaxport.core.vmap is fc.vmap and flaxport.core.lift.scan is fc.scan
    assert fc.broadcast is not None and fc.Array is core.Array


def test_while_loop_vjp_jvp_match_flax():
    """`nn.core.while_loop` (carried 'state', split noise), `vjp` and `jvp` of functions of a
    scope; Flax 0.12.8's values on the same program (recorded, 5 decimals)."""

    def model(scope, x):
        y0 = dense(scope.push("d"), x)

        def body(s, c):
            i, h = c
            count = s.variable("state", "count", lambda: jnp.zeros(()))
            count.value = count.value + 1
            noise = random.normal(s.make_rng("noise"), (2,))
            return i + 1, jnp.tanh(dense(s.push("d"), h)) + noise

        _, h = fc.while_loop(
            lambda s, c: c[0] < 3,
            body,
            scope,
            (0, x),
            carry_variables="state",
            split_rngs={"noise": True},
        )
        y, bwd = fc.vjp(lambda s, x: dense(s.push("d"), x).sum() * x, scope, x)
        tangents = {"params": {"d": {"kernel": jnp.ones((2, 2))}}}
        jy, jt = fc.jvp(lambda s, x: dense(s.push("d"), x), scope, (x,), (jnp.ones(2),), tangents)
        return y0, h, y, bwd(jnp.ones(2)), jy, jt

    x = jnp.array([0.3, -0.7])
    params = fc.init(lambda s, x: dense(s.push("d"), x))({"params": random.key(0)}, x)[1]
    variables = {"params": params["params"], "state": {"count": jnp.zeros(())}}
    out, mutated = fc.apply(model, mutable="state")(variables, x, rngs={"noise": random.key(3)})
    expected = (
        [0.26241, -0.3055],
        [-1.36702, 1.13461],
        [-0.01293, 0.03016],
        ({"params": {"d": {"kernel": [-0.12, -0.12, 0.28, 0.28]}}}, [-0.45193, -0.24293]),
        [0.26241, -0.3055],
        [0.08445, 0.63725],
    )
    _close(out, expected)
    assert float(mutated["state"]["count"]) == 3.0


def test_remat_scan_matches_flax():
    """`nn.core.remat_scan` with lengths (2, 3): one kernel per step (stacked (2, 3, 2, 2)),
    output and gradients equal to Flax 0.12.8's (recorded, 5 decimals)."""

    def body(scope, c):
        return jnp.tanh(dense(scope, c)) + random.normal(scope.make_rng("params"), (2,)) * 0.1

    def model(scope, x):
        return fc.remat_scan(body, lengths=(2, 3))(scope, x)

    x = jnp.array([0.3, -0.7])
    y, variables = fc.init(model)({"params": random.key(0)}, x)
    assert variables["params"]["kernel"].shape == (2, 3, 2, 2)
    _close(y, [-0.10093, 0.00232])
    _close(variables["params"]["kernel"][0, 0], [0.20997, -0.81087, -1.44667, 0.21786])
    grads = core.grad(
        lambda p: fc.apply(model)({"params": p}, x, rngs={"params": random.key(1)}).sum()
    )(variables["params"])
    _close(grads["kernel"][1, 2], [-0.04197, -0.04155, 0.1527, 0.15119])


def test_lazy_init_takes_shapes():
    def f(scope, x):
        return dense(scope, x, 3) * 2

    variables = fc.lazy_init(f)(random.key(0), core.ShapeDtypeStruct((1, 4), jnp.float32))
    # Flax 0.12.8 (recorded): the same kernel as init with an array input.
    _close(variables["params"]["kernel"].ravel()[:4], [0.04131, -0.8247, -0.85363, 0.3835])
    _, eager = fc.init(f)(random.key(0), jnp.ones((1, 4)))
    np.testing.assert_array_equal(variables["params"]["kernel"], eager["params"]["kernel"])


def test_lazy_init_refuses_values_from_shapes():
    import pytest

    from nn.errors import LazyInitError

    def f(scope, x):
        return scope.param("w", lambda key: x.sum())

    with pytest.raises(LazyInitError, match="depends on a ShapeDtypeStruct"):
        fc.lazy_init(f)(random.key(0), core.ShapeDtypeStruct((3,), jnp.float32))


def test_custom_vjp_matches_flax():
    """`nn.core.custom_vjp`: the backward pass gives the variables' and inputs' gradients
    (3 x and 2 k g, not the true ones); Flax 0.12.8's values (recorded)."""

    def fwd(scope, x):
        return dense(scope, x), (x, scope.get_variable("params", "kernel"))

    def bwd(res, g):
        x, k = res
        return {"params": {"kernel": 3.0 * jnp.outer(x, g)}}, 2.0 * (k @ g)

    f = fc.custom_vjp(dense, fwd, bwd)
    x = jnp.array([0.3, -0.7])
    y, variables = fc.init(f)({"params": random.key(0)}, x)
    _close(y, [0.86258, -0.72954])
    gp, gx = core.grad(lambda p, x: fc.apply(f)({"params": p}, x).sum(), argnums=(0, 1))(
        variables["params"], x
    )
    _close(gp, {"kernel": [0.9, 0.9, -2.1, -2.1]})
    _close(gx, [-2.21577, -1.32972])


def test_tracers():
    import flaxport

    assert fc.current_trace() == fc.current_trace()
    seen = []
    core.jit(lambda x: seen.append(fc.current_trace()) or x)(1.0)
    assert seen[0] != fc.current_trace()
    assert fc.check_trace_level(fc.current_trace()) is None
    assert flaxport.core.tracers.current_trace is fc.current_trace


def _noisy(scope, key, x):
    a = random.normal(scope.make_rng("noise"), (2,))
    w = scope.param("w", lambda k, s: random.normal(k, s), (2,))
    return x + a + random.normal(scope.make_rng("noise"), (2,)) * w


def _jitted_thrice(scope, x):
    j = fc.jit(_noisy)
    ys = [j(scope.push("j", reuse=i > 0), "key", x) for i in range(3)]
    after = random.normal(scope.push("j", reuse=True).make_rng("noise"), (2,))
    return (*ys, after)


def test_jit_moves_rng_counters_on_cached_calls_as_flax():
    # Flax 0.12.8: a call served by the compiled body reuses the keys of its trace, and the
    # scope's counters move on as far as the traced call moved them (_restore_rng_counters)
    x = jnp.ones(2)
    out, variables = fc.init(_jitted_thrice)({"params": random.key(0), "noise": random.key(1)}, x)
    want = [
        [2.584515333175659, 3.096862316131592],
        [0.3871178925037384, 0.9434990882873535],
        [0.3871178925037384, 0.9434990882873535],
        [0.42823824286460876, 1.1444717645645142],
    ]
    np.testing.assert_allclose(np.array(out), want, rtol=1e-6)
    out = fc.apply(_jitted_thrice)(variables, x, rngs={"noise": random.key(5)})
    want = [[2.690401792526245, 3.5794448852539062]] * 3 + [
        [2.40616774559021, -0.39312422275543213]
    ]
    np.testing.assert_allclose(np.array(out), want, rtol=1e-6)


def test_cond_and_switch_lift_the_branches_variables():
    """`nn.core.lift.cond`/`switch`: a branch's variable writes come back; Flax 0.12.8's
    values for the same program."""

    def f(scope, x, index):
        scope.variable("state", "a", lambda: 0)
        scope.variable("state", "b", lambda: 0)

        def a_fn(scope, x):
            scope.variable("state", "a").value += 1
            return core_nn.dense(scope.push("dense"), x, 2)

        def b_fn(scope, x):
            scope.variable("state", "b").value += 1
            return -2 * core_nn.dense(scope.push("dense"), x, 2)

        y = lift.cond(index == 0, a_fn, b_fn, scope, x)
        return y + 3 * lift.switch(index, [b_fn, a_fn], scope, x)

    x = jnp.ones((1, 3))
    y, v = fc.init(f)(random.key(0), x, 0)
    _close(y, [-8.841074, -5.242764])
    assert v["state"] == {"a": 1, "b": 1}
    y, v = fc.apply(f, mutable="state")(v, x, 1)
    _close(y, [1.7682147, 1.0485528])
    assert v["state"] == {"a": 2, "b": 2}


def _transposed(fn):
    def flip(v):
        return tree_util.tree_map(lambda x: x.T, v)

    return lift.map_variables(fn, "params", map_in_fn=flip, map_out_fn=flip, mutable=True)


def test_map_variables_ties_an_autoencoders_weights():
    """`nn.core.lift.map_variables`: the decoder reads the encoder's kernel transposed (and
    creates it transposed when it runs first); Flax 0.12.8's values."""

    def autoencoder(scope, x):
        z = core_nn.dense(scope, x, 2, bias=False)
        return _transposed(core_nn.dense)(scope, z, 4, bias=False)

    y, v = fc.init(autoencoder)(random.key(0), jnp.ones((1, 4)))
    assert v["params"]["kernel"].shape == (4, 2)
    _close(y, [-0.4010556, 0.28068894, 0.15204597, 0.2120869])
    decoder = fc.init(lambda s, z: _transposed(core_nn.dense)(s, z, 4, bias=False))
    y, v = decoder(random.key(0), jnp.ones((1, 2)))
    assert v["params"]["kernel"].shape == (4, 2)
    _close(y, [0.91846263, -0.5169608, -1.0780983, 1.1967025])


def test_nested_scopes_lift_once():
    """A scope lifted beside its parent is lifted inside it (Flax's `_dedup_scopes`): the
    inner child is a child of the inner parent, and a write through it is seen by both (Flax
    0.12.8 gives the same result)."""

    def f(scope):
        a = scope.push("a")

        def g(scopes, key, x):
            s, a = scopes
            a.put_variable("state", "n", x + 1.0)
            return s.get_variable("state", "a")["n"], a.parent is s

        return lift.jit(g)((scope, a), "k", jnp.ones(()))

    (seen, is_child), variables = fc.init(f, mutable=True)(random.key(0))
    assert float(seen) == 2.0 and is_child
    assert tree_util.tree_map(float, variables) == {"state": {"a": {"n": 2.0}}}
