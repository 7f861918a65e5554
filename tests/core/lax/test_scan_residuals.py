"""Which residuals reverse-mode `scan` stacks per iteration.

Partial evaluation of a scan must stack only per-step values: closed-over consts, values
computed from consts only (hoisted out of the loop) and known xs are passed to the linear scan
as they are. Checked on the jaxpr of `grad` (no scan reads or writes a `(length, *W.shape)` or
re-stacked xs array) and on the values (against the same function written as a Python loop).
"""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax

T, B, IN, H = 16, 2, 4, 8
_rng = np.random.RandomState(0)
W = (_rng.standard_normal((H, 4 * H)) * 0.3).astype(np.float32)  # (8, 32)
WI = (_rng.standard_normal((IN, 4 * H)) * 0.3).astype(np.float32)
XS = _rng.standard_normal((T, B, IN)).astype(np.float32)


def _lstm_cell(w, carry, x):
    h, c = carry
    z = x @ WI + h @ w
    i, f, g, o = jnp.split(z, 4, axis=-1)
    c = lax.logistic(f) * c + lax.logistic(i) * jnp.tanh(g)
    h = lax.logistic(o) * jnp.tanh(c)
    return (h, c), h


def _invariant_cell(w, carry, x):
    # sin(w) and cos(w) depend on the const only: residuals to hoist, not to stack.
    h, c = carry
    z = jnp.tanh(h @ jnp.sin(w) + x @ WI)
    return (z[:, :H] * x[:, :1], c + z[:, H : 2 * H]), jnp.sum(z, axis=-1)


def _init():
    return jnp.zeros((B, H)), jnp.zeros((B, H))


def _scan_loss(cell, reverse):
    def loss(w, xs):
        _, ys = lax.scan(lambda c, x: cell(w, c, x), _init(), xs, reverse=reverse)
        return jnp.sum(ys * ys)

    return loss


def _loop_loss(cell, reverse):
    def loss(w, xs):
        carry, total = _init(), 0.0
        for t in reversed(range(T)) if reverse else range(T):
            carry, y = cell(w, carry, xs[t])
            total = total + jnp.sum(y * y)
        return total

    return loss


CASES = [
    ("lstm", _lstm_cell, False),
    ("lstm_reverse", _lstm_cell, True),
    ("const_only_values", _invariant_cell, False),
]


@pytest.mark.parametrize("name,cell,reverse", CASES, ids=[c[0] for c in CASES])
def test_grad_stacks_no_loop_invariant_residual(name, cell, reverse):
    jaxpr = core.make_jaxpr(core.grad(_scan_loss(cell, reverse)))(W, XS)
    scans = [e for e in jaxpr.eqns if e.prim.name == "scan"]
    assert len(scans) == 2  # the known (forward) scan and the transposed linear scan
    shapes = [v.aval.shape for e in scans for v in [*e.inputs, *e.outputs]]
    assert (T, *W.shape) not in shapes
    # The xs reach the backward scan as they are, not as a stacked copy made by the forward one.
    assert XS.shape not in [v.aval.shape for v in scans[0].outputs]


@pytest.mark.parametrize("name,cell,reverse", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("argnums", [0, (0, 1)])
@pytest.mark.parametrize("jitted", [False, True])
def test_grad_matches_python_loop(name, cell, reverse, argnums, jitted):
    grad = core.grad(_scan_loss(cell, reverse), argnums=argnums)
    want = core.grad(_loop_loss(cell, reverse), argnums=argnums)(W, XS)
    got = (core.jit(grad) if jitted else grad)(W, XS)
    if argnums == 0:
        got, want = [got], [want]
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=2e-5, atol=2e-5)


def test_an_effect_in_the_body_stays_in_the_loop(capsys):
    # A print of the carry is not loop-invariant: the known scan keeps it (it ran before the
    # hoisting as a stray equation). JAX 0.10.2: (3.0, 1.0), printing c = 1.0 then c = 2.0.
    def body(c, _):
        core.debug.print("c = {c}", c=c, ordered=True)
        return c + 1, None

    value, grad = core.value_and_grad(lambda x: lax.scan(body, x, length=2)[0])(1.0)
    core.effects_barrier()
    assert (float(value), float(grad)) == (3.0, 1.0)
    assert capsys.readouterr().out == "c = 1.0\nc = 2.0\n"
