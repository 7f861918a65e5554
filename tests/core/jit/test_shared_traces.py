"""`make_jaxpr`, `eval_shape`, `jit` and `jit(f).trace` share one trace cache, as JAX 0.10.2's
(whose `make_jaxpr` and `eval_shape` are `jit(f).trace`): the number of traces in each case of
`shared_traces_cases.py` is JAX's recorded one (`jax_shared_traces.json`), and what each
shows is unchanged by the other having traced first."""

import json
import pathlib
import types
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from tests.core.jit.shared_traces_cases import cases, counting

_RECORD = json.loads((pathlib.Path(__file__).parent / "jax_shared_traces.json").read_text())
JAX = _RECORD["traces"]
CASES = cases()
M = types.SimpleNamespace(jax=core, jnp=jnp)


def test_table_is_recorded():
    assert _RECORD["jax"] == "0.10.2"
    assert set(CASES) == set(JAX)


@pytest.mark.parametrize("name", sorted(CASES))
def test_traces_as_many_times_as_jax(name):
    f, traces = counting(M)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # donation's warning (numbax reuses no buffer)
        CASES[name](M, f)
    assert len(traces) == JAX[name]


def test_make_jaxpr_keeps_unused_equations_after_jit():
    def f(x):
        _ = jnp.sin(x)
        return x * 2.0

    x = np.float32(1)
    assert core.jit(f)(x) == 2.0
    text = "{ lambda ; a:f32[]. let _:f32[] = sin a; b:f32[] = mul a 2.0:f32[] in (b,) }"
    assert str(core.make_jaxpr(f)(x)) == text
    assert str(core.jit(f).trace(x).jaxpr) == text  # JAX's traced program keeps them too
    assert core.jit(f)(x) == 2.0


def test_make_jaxpr_closes_over_constants_after_jit():
    c = np.arange(3, dtype=np.float32)

    def f(x):
        return x + c

    assert core.jit(f)(np.ones(3, np.float32)).tolist() == [1.0, 2.0, 3.0]
    closed = core.make_jaxpr(f)(np.ones(3, np.float32))
    assert len(closed.consts) == 1 and len(closed.jaxpr.constvars) == 1
    assert [v.aval.shape for v in closed.jaxpr.invars] == [(3,)]


def test_axis_env_is_part_of_the_key():
    f, traces = counting(M)
    staged = core.make_jaxpr(f, axis_env=[("i", 2)])
    staged(np.ones(3, np.float32))
    staged(np.ones(3, np.float32))
    assert len(traces) == 1  # JAX's: one trace per axis environment
    core.jit(f)(np.ones(3, np.float32))
    assert len(traces) == 2
