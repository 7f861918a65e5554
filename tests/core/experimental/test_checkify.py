"""`core.experimental.checkify` against JAX 0.10.2's outcomes (`jax_checkify.json`, recorded by
`record_checkify.py` from the cases of `checkify_cases.py`; JAX is not imported here): user
checks, NaN / division / index checks, first-error-wins, checks inside `jit`, `cond`, `scan`,
`fori_loop`, `while_loop`, under `grad` and `vmap`, eager checks and their errors (a `check`
that `jit` compiles without `checkify` is JAX's ValueError)."""

import json
import math
import pathlib
import sys
import types

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import TracerBoolConversionError
from core.experimental import checkify

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import checkify_cases  # noqa: E402

ANSWERS = json.loads((pathlib.Path(__file__).parent / "jax_checkify.json").read_text())["cases"]
NS = types.SimpleNamespace(jax=core, jnp=jnp, lax=lax, checkify=checkify)
CASES = checkify_cases.cases(NS)


def _same(got, want):
    if isinstance(want, float) and math.isnan(want):
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, list):
        return len(got) == len(want) and all(_same(g, w) for g, w in zip(got, want))
    if isinstance(want, dict):
        return got.keys() == want.keys() and all(_same(got[k], want[k]) for k in want)
    if isinstance(want, float):
        return got == pytest.approx(want, rel=1e-6)
    return got == want


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_matches_jax(name):
    got, want = CASES[name](), ANSWERS[name]
    if name == "non_scalar_pred":  # the message ends with the tracer's repr (JAX's JitTracer)
        assert got["raised"] == want["raised"] and got["message"].startswith(
            "check takes a scalar pred as argument, got"
        )
        return
    assert _same(got, want), f"{got} != {want}"


def test_error_is_a_pytree_and_jit_compiles_it():
    def f(x):
        checkify.check(x > 0, "{} is not positive", x)
        return x * 2

    err, out = core.jit(checkify.checkify(f))(jnp.float32(-1.0))
    assert err.get() == "-1.0 is not positive (`check` failed)" and float(out) == -2.0
    leaves = core.tree_util.tree_leaves(err)
    assert [str(leaf.dtype) for leaf in leaves] == ["bool", "int32", "float32"]
    with pytest.raises(checkify.JaxRuntimeError, match="not positive") as info:
        err.throw()
    assert isinstance(info.value, ValueError)


def test_categories():
    assert checkify.float_checks == checkify.nan_checks | checkify.div_checks
    assert checkify.all_checks == checkify.automatic_checks | checkify.user_checks
    assert checkify.init_error.get() is None


def test_get_of_a_traced_error_is_a_bool_conversion_error():
    # JAX 0.10.2: jit(lambda x: checkify(f)(x)[0].get())(x) -> TracerBoolConversionError
    # "Attempted boolean conversion of traced array with shape bool[]."
    def f(x):
        checkify.check(x > 0, "x must be positive")
        return x

    for transform, x in ((core.jit, jnp.float32(1)), (core.vmap, jnp.ones(2))):
        with pytest.raises(TracerBoolConversionError, match="^Attempted boolean conversion"):
            transform(lambda x: checkify.checkify(f)(x)[0].get())(x)


def test_python_scalar_outputs_come_back_as_they_are():
    # JAX 0.10.2: checkify closes over its arguments, so a Python scalar returned unchanged
    # (or any other Python constant output) is handed back as a Python scalar
    def f(x):
        checkify.check(x > 0, "first")
        return {"x": x, "n": 1, "y": jnp.ones(2) * x}

    err, out = checkify.checkify(f)(-3.0)
    assert err.get() == "first (`check` failed)"
    assert type(out["x"]) is float and out["x"] == -3.0 and type(out["n"]) is int
    assert out["y"].dtype == np.float32


@pytest.mark.parametrize("update", [lambda r: r.get(), lambda r: r.add(1.0)])
def test_index_checks_of_a_2d_index_under_rank_promotion_raise(update):
    # JAX 0.10.2 printed this message; numbax's bounds check broadcast a (2,) against (2, 2)
    x, idx = jnp.ones((2, 3, 7)), jnp.array([[0, 5], [1, 1]])
    with core.numpy_rank_promotion("raise"):
        f = checkify.checkify(core.jit(lambda x, i: update(x.at[i])), errors=checkify.index_checks)
        err, _ = f(x, idx)
    want = "out-of-bounds indexing for array of shape (2, 3, 7): index 5 is out of bounds"
    assert err.get().startswith(want + " for axis 0 with size 2.")


@pytest.mark.parametrize("jit", [False, True])
def test_checks_inside_checkpoint_are_functionalized(jit):
    # JAX 0.10.2 (its issue 23867): checkify sees through remat, also under jit and grad
    def fn(x):
        checkify.check(jnp.all(x > 0), "x must be positive")
        return x + 1

    f = core.jit(core.remat(fn)) if jit else core.remat(fn)
    err, y = checkify.checkify(f)(jnp.array([1, 2, 3]))
    assert err.get() is None and y.tolist() == [2, 3, 4]
    err, _ = checkify.checkify(f)(jnp.array([0, 2, 3]))
    assert err.get().startswith("x must be positive (`check` failed)")
    grad = core.grad(lambda x: core.remat(fn)(x).sum())
    err, g = checkify.checkify(grad)(jnp.array([-1.0, 2.0]))
    assert err.get().startswith("x must be positive") and g.tolist() == [1.0, 1.0]
