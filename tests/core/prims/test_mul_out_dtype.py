"""`lax.mul(x, y, out_dtype=...)` and the `mul` primitive's `out_dtype` parameter against JAX
0.10.2's recorded answers (`mul_out_dtype_cases.py`, `jax_mul_out_dtype.json`): one
`mul[out_dtype=...]` equation whose operands may have different dtypes, printed as JAX prints
it, computing as JAX's lowering does (convert each operand, then multiply), through jvp,
transposition and batching, eagerly and under `jit`; every other `mul` equation holds
`out_dtype=None`, which JAX's printer leaves out."""

import json
import pathlib
import types
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from tests.core.prims.mul_out_dtype_cases import JIT, cases

_RECORD = json.loads((pathlib.Path(__file__).parent / "jax_mul_out_dtype.json").read_text())
JAX = _RECORD["cases"]
CASES = cases(types.SimpleNamespace(jax=core, jnp=jnp, lax=lax))


def _check(name, outs):
    got = []
    for o in core.tree.leaves(outs):
        a = np.asarray(o)
        weak = bool(getattr(o, "weak_type", False))
        got.append(
            {"dtype": str(a.dtype), "weak": weak, "shape": list(a.shape), "hex": a.tobytes().hex()}
        )
    assert got == JAX[name]["results"], name


def test_table_is_recorded():
    assert _RECORD["jax"] == "0.10.2"
    assert set(CASES) == set(JAX)
    assert set(JIT) <= {k for k, v in JAX.items() if "error" not in v}


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxpr_and_values_match_jax(name):
    fun, args = CASES[name]
    want = JAX[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "error" in want:
            with pytest.raises(TypeError) as info:
                core.make_jaxpr(fun)(*args)
            assert str(info.value).startswith(want["error"][1])  # numbax's fix may follow
            with pytest.raises(TypeError):
                fun(*args)
            return
        assert str(core.make_jaxpr(fun)(*args)) == want["jaxpr"]
        _check(name, fun(*args))


@pytest.mark.parametrize("name", JIT)
def test_jit_matches_jax(name):
    fun, args = CASES[name]
    _check(name, core.jit(fun)(*args))


def test_every_mul_equation_holds_out_dtype():
    # JAX: `{'out_dtype': None}` for a product numbax's own code stages, its own value given
    eqn = core.make_jaxpr(lambda x: x * 2.0)(np.float32(1)).eqns[0]
    assert eqn.params == {"out_dtype": None}
    eqn = core.make_jaxpr(lambda x: lax.mul(x, x, out_dtype=np.float16))(np.float32(1)).eqns[0]
    assert eqn.params == {"out_dtype": np.float16}


def test_bind_with_out_dtype():
    x = np.array([1.5, 2.25], np.float16)
    out = lax.mul_p.bind(x, x, out_dtype=jnp.float32)
    assert out.dtype == np.float32 and out.tolist() == [2.25, 5.0625]
    assert lax.mul_p.bind(x, x).dtype == np.float16
