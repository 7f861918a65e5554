"""`core/jit/library.py`: JAX's jitted library functions nest as `jit` equations only while
staging; eagerly (and under eager `grad`/`vmap`) they run as plain functions, and a staged
program evaluated eagerly interprets them, so neither traces nor compiles anything new.
Values are checked against numpy; the printed jaxprs against JAX's in `test_jaxpr_text.py`."""

import numpy as np

import core
import core.numpy as jnp
from core import nn
from core.ir import eval_jaxpr
from core.jit.api import compile_count, trace_count

X = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5) / 3  # off the kinks (0, +-1)


def _f(x):
    return jnp.sum(jnp.clip(x, -1.0, 1.0) * jnp.where(x > 0, x, 0.0)) + nn.relu(x).mean()


def _numpy_f(x):
    return np.sum(np.clip(x, -1, 1) * np.where(x > 0, x, 0)) + np.maximum(x, 0).mean()


def _grad_numpy_f(x):
    pos = x > 0
    d_clip_times_where = np.where(np.abs(x) < 1, 1.0, 0.0) * np.where(pos, x, 0)
    return d_clip_times_where + np.clip(x, -1, 1) * pos + pos / x.size


def test_eager_calls_neither_trace_nor_compile():
    before = compile_count(), trace_count()
    np.testing.assert_allclose(_f(X), _numpy_f(X), rtol=1e-6)
    np.testing.assert_allclose(core.grad(_f)(X), _grad_numpy_f(X), rtol=1e-6)
    rows = core.vmap(lambda r: jnp.clip(r, -1.0, 1.0))(X)
    np.testing.assert_array_equal(rows, np.clip(X, -1, 1))
    assert (compile_count(), trace_count()) == before


def test_staged_calls_nest_and_evaluate_without_compiling():
    closed = core.make_jaxpr(_f)(X)
    names = [e.params.get("name") for e in closed.jaxpr.eqns if e.prim.name == "jit"]
    assert names == ["clip", "_where"]  # relu's jit is inside its custom_jvp, as JAX's
    before = compile_count()
    (out,) = eval_jaxpr(closed.jaxpr, closed.consts, X)
    np.testing.assert_allclose(out, _numpy_f(X), rtol=1e-6)
    assert compile_count() == before


def test_jit_compiles_one_program_with_the_nested_calls_inlined():
    before = compile_count()
    np.testing.assert_allclose(core.jit(_f)(X), _numpy_f(X), rtol=1e-6)
    np.testing.assert_allclose(core.jit(core.grad(_f))(X), _grad_numpy_f(X), rtol=1e-6)
    assert compile_count() == before + 2
