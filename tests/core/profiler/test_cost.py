"""FLOP counts against XLA's: `jax.jit(f).lower(*args).cost_analysis()` values recorded with JAX
0.8 (the reference interpreter), for the same functions and shapes."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.profiler.cost import equation_cost, jaxpr_flops

V = jnp.ones((4, 128))
IMG = jnp.ones((2, 8, 8, 3))
KER = jnp.ones((3, 3, 3, 16))


def _conv(padding):
    return lambda a, b: lax.conv_general_dilated(
        a, b, (1, 1), padding, dimension_numbers=("NHWC", "HWIO", "NHWC")
    )


# (name, function, args, XLA flops, XLA transcendentals)
CASES = [
    ("dot", lambda x, w: x @ w, (jnp.ones((4, 784)), jnp.ones((784, 128))), 802816, 0),
    ("add", lambda a, b: a + b, (V, V), 512, 0),
    ("add_broadcast", lambda a, b: a + b, (V, jnp.ones(128)), 512, 0),
    ("mul", lambda a, b: a * b, (V, V), 512, 0),
    ("div", lambda a, b: a / b, (V, V), 512, 0),
    ("neg", lambda a: -a, (V,), 512, 0),
    ("maximum", lambda a: jnp.maximum(a, 0.0), (V,), 512, 0),
    ("exp", jnp.exp, (V,), 0, 512),
    ("tanh", jnp.tanh, (V,), 0, 512),
    ("sqrt", jnp.sqrt, (V,), 0, 512),
    ("log", jnp.log, (V,), 0, 512),
    ("rsqrt", lax.rsqrt, (V,), 0, 512),
    ("sigmoid", core.nn.sigmoid, (V,), 1536, 512),
    ("sum", jnp.sum, (V,), 511, 0),
    ("sum0", lambda a: a.sum(0), (V,), 384, 0),
    ("max1", lambda a: a.max(1), (V,), 508, 0),
    ("where", lambda a: jnp.where(a > 0, a, 1.0), (V,), 1024, 0),
    # XLA's simplifier removes `x * 1`, `x + 0` and `x - 0`, but not `0 - x` nor `x * 0`
    ("times_one", lambda a: 1.0 * jnp.exp(a) * 1.0 + 0.0 - 0.0, (V,), 0, 512),
    ("zero_minus", lambda a: 0.0 - a, (V,), 512, 0),
    ("times_zero", lambda a: a * 0.0, (V,), 512, 0),
    ("int_times_one", lambda a: a.astype(jnp.int32) * 1, (V,), 512, 0),
    ("convert", lambda a: a.astype(jnp.int32), (V,), 512, 0),
    ("square", lambda a: a**2, (V,), 512, 0),
    ("cube", lambda a: lax.integer_pow(a, 3), (V,), 1024, 0),
    ("transpose", lambda a: a.T, (V,), 0, 0),
    (
        "batched_dot",
        lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
        (jnp.ones((3, 4, 5)), jnp.ones((3, 5, 6))),
        720,
        0,
    ),  # fmt: skip
    ("conv_same", _conv("SAME"), (IMG, KER), 92928, 0),
    ("conv_valid", _conv("VALID"), (IMG, KER), 62208, 0),
    ("cumsum", lambda a: jnp.cumsum(a, 1), (V,), 65024, 0),
    (
        "avg_pool",
        lambda a: lax.reduce_window(a, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"),
        (IMG,),
        288,
        0,
    ),  # fmt: skip
    (
        "dense_vjp",
        lambda w, x: core.vjp(lambda w, x: x @ w, w, x)[1](jnp.ones((4, 128))),
        (jnp.ones((784, 128)), jnp.ones((4, 784))),
        1605632,
        0,
    ),  # fmt: skip
]


@pytest.mark.parametrize("name,fun,args,flops,transcendentals", CASES, ids=[c[0] for c in CASES])
def test_flops_match_xla_cost_analysis(name, fun, args, flops, transcendentals):
    jaxpr = core.make_jaxpr(fun)(*args).jaxpr
    assert jaxpr_flops(jaxpr) == flops
    assert sum(equation_cost(e).transcendentals or 0 for e in jaxpr.eqns) == transcendentals


def test_bytes_read_and_written():
    jaxpr = core.make_jaxpr(lambda a, b: a @ b)(jnp.ones((4, 8)), jnp.ones((8, 2))).jaxpr
    cost = equation_cost(jaxpr.eqns[0])
    assert (cost.bytes_read, cost.bytes_written) == (4 * 8 * 4 + 8 * 2 * 4, 4 * 2 * 4)
    # An operand read twice is read once.
    sq = core.make_jaxpr(lambda a: a * a)(jnp.ones(10, jnp.float32)).jaxpr.eqns[0]
    assert equation_cost(sq).bytes_read == 40


def test_unknown_costs_are_none_not_zero():
    jaxpr = core.make_jaxpr(jnp.sort)(jnp.ones(5)).jaxpr
    assert equation_cost(jaxpr.eqns[-1]).flops is None
    np.testing.assert_equal(jaxpr_flops(jaxpr), 0)


# (name, function, args, `jax.jit(f).lower(*args).cost_analysis()` of JAX 0.10.2: its flops,
# transcendentals and bytes accessed, None where numbax's bytes differ from XLA's)
PROGRAMS = [
    ("dot", lambda x, w: x @ w, (jnp.ones((4, 784)), jnp.ones((784, 128))), 802816, 0, 416000),
    ("add", lambda a, b: a + b, (V, V), 512, 0, 6144),
    ("tanh", jnp.tanh, (V,), 0, 512, 4096),
    ("times_one", lambda a: jnp.tanh(a) * 1.0 + 0.0, (V,), 0, 512, 4096),
    ("elu", core.nn.elu, (V,), 2048, 512, None),  # alpha * expm1(...) at alpha 1: no mul
    ("sum", jnp.sum, (V,), 511, 0, 2056),  # the reduction's initial value is read too
    ("mlp", lambda w, x: jnp.tanh(x @ w).sum(), (jnp.ones((16, 8)), jnp.ones((4, 16))), 1055, 32,
     1288),
    ("while", lambda x: lax.while_loop(lambda c: c.sum() < 10, lambda c: c * 2.0, x), (V,), 1024,
     0, 10261),  # the condition and the body once
    ("cond", lambda x: lax.cond(x.sum() > 0, lambda c: c * 2.0, jnp.tanh, x), (V,), 1025, 512,
     None),  # every branch
]  # fmt: skip


@pytest.mark.parametrize("name,fun,args,flops,transcendentals,nbytes", PROGRAMS)
def test_cost_analysis_gives_xlas_counts(name, fun, args, flops, transcendentals, nbytes):
    got = core.jit(fun).lower(*args).cost_analysis()
    assert got.get("flops", 0) == flops and got.get("transcendentals", 0) == transcendentals
    assert "flops" in got if flops else "flops" not in got  # XLA leaves zero counts out
    if nbytes is not None:
        assert got["bytes accessed"] == nbytes
    assert all(isinstance(v, float) for v in got.values())
