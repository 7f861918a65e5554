"""Cheap broadcast values recomputed where they are read (core/jit/recompute.py): which
equations are copied, that a layer norm's kernels no longer store `rstd * scale` and `x - mean`
for the backward pass, and that the gradients keep their bits."""

import numpy as np

import core
import core.numpy as jnp
import nn
from core.config import config
from core.jit import partition, recompute, simplify
from core.prims import elementwise

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 8)).astype(np.float32)
R = rng.standard_normal((4, 1)).astype(np.float32)
C = rng.standard_normal(8).astype(np.float32)


def _simplified(f, *args) -> list:
    closed = core.make_jaxpr(f)(*args)
    return simplify.simplify(closed.jaxpr.eqns, closed.jaxpr.outvars)[0]


def _products(eqns) -> list:
    return [e for e in eqns if e.prim.name == "mul"]


W = rng.standard_normal((8, 8)).astype(np.float32)


def test_a_broadcast_product_is_copied_for_its_readers_after_a_product():
    def f(x, r, c):
        scale = r * c  # (4, 8) from (4, 1) and (8,): a copy costs a multiplication
        y = jnp.exp(x) * scale
        z = jnp.tanh(y @ W)
        return jnp.sum(z * scale, axis=0) + jnp.sum(z - scale, axis=0)

    eqns = _simplified(f, X, R, C)
    made = {e.outputs[0]: k for k, e in enumerate(eqns)}
    scales = [e for e in eqns if e.prim.name == "mul" and e.inputs[0] is not e.inputs[1]]
    scales = [e for e in scales if all(made.get(x) is not None for x in e.inputs)]
    dot = next(k for k, e in enumerate(eqns) if e.prim.name == "dot_general")
    first, copy = sorted(made[e.outputs[0]] for e in scales if e.inputs == scales[0].inputs)
    assert first < dot < copy  # one copy, after the product, for both readers there
    readers = [e for e in eqns[copy:] if eqns[copy].outputs[0] in e.inputs]
    assert [e.prim.name for e in readers] == ["mul", "sub"]


def test_a_reader_that_also_reads_its_reduction_gets_a_copy():
    """A softmax's masked logits: `x - max(x)` loops apart from the max, so it recomputes the
    mask's select instead of reading it stored."""
    mask = np.arange(8) < 6  # broadcast over the rows, as a causal mask over the heads

    def f(x):
        masked = jnp.where(mask, x @ W, -np.inf)
        return jnp.exp(masked - jnp.max(masked, axis=-1, keepdims=True))

    eqns = _simplified(f, X)
    assert [e.prim.name for e in eqns].count("select_n") == 2


def test_values_read_elsewhere_or_from_an_unstored_operand_stay():
    def after(x, r, c):
        scale = r * c
        return scale, jnp.tanh(x @ W) * scale

    # a program output keeps its one equation
    assert len(_products(_simplified(after, X, R, C))) == 2

    # read by a product too (not a loop over it): stored anyway, so no copy
    def read_by_a_product(x, r, c):
        scale = r * c
        return jnp.tanh(x @ W) * scale, scale @ W

    assert len(_products(_simplified(read_by_a_product, X, R, C))) == 2  # no copy

    # a full operand that only the cheap value's loop reads: a copy would make it stored
    def unstored(x, c):
        h = jnp.exp(x) + c
        return jnp.tanh(h @ W) * h

    eqns = _simplified(unstored, X, C)
    assert [e.prim.name for e in eqns].count("add") == 1
    assert elementwise.exp_p not in recompute.CHEAP  # nor any transcendental


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
