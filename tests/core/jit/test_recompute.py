"""Cheap broadcast values recomputed where they are read (core/jit/recompute.py): which
equations are copied, that a layer norm's kernels no longer store `rstd * scale` and `x - mean`
for the backward pass, and that the gradients keep their bits."""

import numpy as np

import core
import core.numpy as jnp
import nn
from core.config import config
from core.jit import partition, recompute, simplify

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 8)).astype(np.float32)
R = rng.standard_normal((4, 1)).astype(np.float32)
C = rng.standard_normal(8).astype(np.float32)


def _simplified(f, *args) -> list:
    closed = core.make_jaxpr(f)(*args)
    return simplify.simplify(closed.jaxpr.eqns, closed.jaxpr.outvars)[0]


def _products(eqns) -> list:
    return [e for e in eqns if e.prim.name == "mul"]


def test_a_broadcast_product_is_copied_for_its_second_reader():
    def f(x, r, c):
        scale = r * c  # (4, 8) from (4, 1) and (8,): a copy costs a multiplication
        return jnp.exp(x) * scale, jnp.sum(jnp.tanh(x) + scale, axis=0)

    eqns = _simplified(f, X, R, C)
    scale = [e for e in _products(eqns) if e.inputs[0] is not e.inputs[1]]
    assert len(_products(eqns)) == 3  # the product, its copy, the first output's product
    assert len({e.outputs[0] for e in scale}) == 3
    users = [e for e in eqns if e.prim.name == "add"]
    (add,) = users
    made = {e.outputs[0]: k for k, e in enumerate(eqns)}
    copy = next(x for x in add.inputs if x in made and eqns[made[x]].prim.name == "mul")
    assert made[copy] == eqns.index(add) - 1  # just before its reader


def test_values_read_elsewhere_or_from_an_unstored_operand_stay():
    # read by a product (not a loop over it): stored anyway, so no copy
    def read_by_a_product(x, r, c):
        scale = r * c
        return jnp.exp(x) * scale, scale @ x.T

    assert len(_products(_simplified(read_by_a_product, X, R, C))) == 2

    # a full operand read only by the cheap value (a product's bias add): copying would store it
    def bias_of_a_product(x, c):
        h = x @ np.eye(8, dtype=np.float32) + c
        return jnp.exp(h), jnp.tanh(h)

    eqns = _simplified(bias_of_a_product, X, C)
    assert len([e for e in eqns if e.prim.name == "add"]) == 1
    # a program output keeps its one equation
    assert len(_products(_simplified(lambda x, r, c: (r * c, jnp.exp(x) * (r * c)), X, R, C))) == 2
    assert recompute.CHEAP  # exp, tanh, divisions are never copied


def _layer_norm_grad():
    """A layer norm before a product (as in a transformer block): its backward pass runs in
    kernels of its own, after the product's."""
    x = rng.standard_normal((16, 64, 128)).astype(np.float32)
    w = rng.standard_normal((128, 128)).astype(np.float32) / 16
    ln = nn.LayerNorm()
    params = ln.init(core.random.PRNGKey(0), x)

    def loss(p, x):
        return jnp.sum(jnp.tanh(ln.apply(p, x) @ w))

    return core.value_and_grad(loss, argnums=(0, 1)), (params, x)


def _full_outputs(f, args) -> int:
    """How many (16, 64, 128) arrays the kernels of `f`'s program pass to other kernels."""
    closed = core.make_jaxpr(f)(*args)
    program = partition.partition(closed.jaxpr)
    outs = {v for k in program.kernels for v in k.outvars}
    return sum(getattr(v, "aval", None) is not None and v.aval.shape == (16, 64, 128) for v in outs)


def test_a_layer_norm_keeps_its_bits_and_stores_two_arrays_fewer(monkeypatch):
    f, args = _layer_norm_grad()
    with config.override("jit_kernels", "many"):
        new = core.tree_util.tree_leaves(core.jit(f)(*args))
        fewer = _full_outputs(f, args)
        monkeypatch.setattr(recompute, "recomputed", lambda eqns, outvars: eqns)
        old = core.tree_util.tree_leaves(core.jit(lambda *a: f(*a))(*args))
        assert _full_outputs(f, args) == fewer + 2  # `rstd * scale` and `x - mean`
    for a, b in zip(new, old, strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
