"""`core.checking_leaks` (`jax.checking_leaks`) and `check_tracer_leaks`: a traced function
that keeps a tracer raises `LeakedTracerError` with JAX's message (JAX 0.10.2 raises
"Exception: Leaked trace DynamicJaxprTrace. Leaked tracer(s):"); clean programs, custom
derivatives and control flow inside raise nothing."""

from __future__ import annotations

import gc
from unittest import mock

import pytest

import core
import core.numpy as jnp
from core.array import placement
from core.errors import LeakedTracerError


def test_leak_is_reported():
    outs = []

    @core.jit
    def side_effecting(x):
        y = x + 1
        outs.append(y)

    with pytest.raises(LeakedTracerError) as info, core.checking_leaks():
        side_effecting(1)
    assert str(info.value).startswith("Leaked trace DynamicJaxprTrace. Leaked tracer(s):\n")
    assert "JitTracer(~int32[])" in str(info.value)
    outs.clear()
    with pytest.raises(LeakedTracerError), core.check_tracer_leaks():
        core.make_jaxpr(lambda x: outs.append(x) or x)(1.0)


def test_no_false_leaks():
    outs = []
    with core.checking_leaks():
        outs.append(core.jit(lambda x: x + 1)(1))
        core.grad(lambda x: core.lax.scan(lambda c, a: (c * a, c), x, jnp.arange(3.0))[0])(2.0)
        core.vmap(core.jit(core.nn.relu))(jnp.ones(3))
        core.jit(core.grad(lambda x: core.nn.gelu(core.nn.softplus(x))))(1.0)
        core.make_jaxpr(lambda x: core.lax.cond(x > 0, jnp.sin, jnp.cos, x))(1.0)
    assert int(outs[0]) == 2
    # outside the context manager nothing is checked
    core.jit(lambda x: outs.append(x) or x)(1.0)


@pytest.mark.parametrize("committed", [False, True])
def test_nested_jits_leave_no_cycle_holding_the_outer_tracers(committed, monkeypatch):
    """A `jit` traced inside another leaves no reference cycle that reaches the outer trace's
    tracers: the check finds none with the collector off. Its scope and the closure binding
    Refs referred to each other, and the scope to the trace, which keeps the values its
    arguments stand for once an array was committed to a device
    (`placement.committed_to_device`): CI's worker found a Dense kernel's tracers alive in
    tests/nn/test_module.py after other files had committed arrays."""
    monkeypatch.setattr(placement, "committed_to_device", committed)
    inner = core.jit(lambda x, y: x * y + 1.0)

    @core.jit
    def outer(xs, y):
        return core.vmap(lambda x: inner(x, y))(xs) + inner(y, y)

    with mock.patch.object(gc, "collect", return_value=0), core.checking_leaks():
        out = outer(jnp.ones(3), jnp.float32(2.0))
    assert out.tolist() == [8.0, 8.0, 8.0]
