"""bfloat16 and float16 under `jit` on the numba back end (`core/jit/narrow.py`) against JAX
0.10.2's jitted bits (`record_narrow.py`, `jax_bfloat16.npz`, `jax_float16.npz`): a table of
programs, and Flax `Dense`/`Conv`/`LayerNorm` train steps in mixed precision (loss, gradients,
one Adam step)."""

import pathlib
import types
import warnings

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
import optim
from core import lax, random
from core.jit import narrow
from core.jit.errors import NumpyFallbackWarning
from core.prims.narrow import ROUNDING
from tests.core.jit import narrow_cases as cases

BF = np.dtype(ml_dtypes.bfloat16)
F16 = np.dtype(np.float16)
DTYPES = (BF, F16)
ANSWERS = {d: np.load(pathlib.Path(__file__).parent / cases.answers_file(d)) for d in DTYPES}


def _m(dtype) -> types.SimpleNamespace:
    return types.SimpleNamespace(
        jnp=jnp,
        lax=lax,
        nn=core.nn,
        random=random,
        linen=nn,
        optax=optim,
        value_and_grad=core.value_and_grad,
        narrow=dtype,
    )


def _ulps(a: np.ndarray, b: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """ulps of `dtype` between the uint16 bit patterns `a` and `b` (NaNs equal to NaNs)."""
    ia, ib = (
        np.where(x & 0x8000, -(x & 0x7FFF).astype(np.int64), x.astype(np.int64)) for x in (a, b)
    )
    nan = lambda x: np.isnan(x.view(dtype).astype(np.float32))  # noqa: E731
    return np.where(nan(a) & nan(b), 0, np.abs(ia - ib))


def _check(name: str, got, expected: np.ndarray, tol: float) -> None:
    """`got` against JAX's `expected` (bits for 16-bit floats): see `narrow_cases` for `tol`."""
    got = np.asarray(got)
    if got.dtype in DTYPES:
        assert expected.dtype == np.uint16, name
        if isinstance(tol, float):
            e = expected.view(got.dtype).astype(np.float32)
            np.testing.assert_allclose(got.astype(np.float32), e, rtol=tol, atol=tol, err_msg=name)
            return
        diff = _ulps(got.view(np.uint16), expected, got.dtype)
        assert diff.max(initial=0) <= tol, (name, np.flatnonzero(diff > tol)[:10])
    elif got.dtype.kind == "f" and tol:
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6, err_msg=name)
    else:
        np.testing.assert_array_equal(got, expected, err_msg=name)


@pytest.fixture(autouse=True)
def _no_fallback():
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumpyFallbackWarning)
        yield


def _table(of) -> list:
    return [pytest.param(d, name, id=f"{d.name}-{name}") for d in DTYPES for name in sorted(of(d))]


@pytest.mark.parametrize("dtype, name", _table(cases.programs))
def test_program_matches_jax_bits(dtype, name):
    program, specs, tol = cases.programs(dtype)[name]
    args = [cases.inputs(s, dtype) for s in specs]
    f = core.jit(program(_m(dtype)))
    if dtype == F16 and name in cases.FLOAT16_FALLS_BACK:
        with pytest.warns(NumpyFallbackWarning, match="float16"):
            f(*args)
        return
    results = f(*args)
    results = results if isinstance(results, tuple) else (results,)
    for k, r in enumerate(results):
        _check(f"{name}:{k}", r, ANSWERS[dtype][f"{name}:{k}"], tol)


def _tree(answers, prefix: str) -> dict:
    tree: dict = {}
    for key in answers.files:
        if key.startswith(prefix):
            *path, leaf = key[len(prefix) :].split("/")
            node = tree
            for p in path:
                node = node.setdefault(p, {})
            node[leaf] = answers[key]
    return tree


@pytest.mark.parametrize("dtype, name", _table(cases.train_steps))
def test_flax_train_step_matches_jax(dtype, name):
    model_of, specs = cases.train_steps(dtype)[name]
    m, answers = _m(dtype), ANSWERS[dtype]
    model = model_of(m)
    x, labels = cases.inputs(specs[0], dtype), cases.labels_of(name)
    raw = _tree(answers, f"{name}:params:")
    params = core.tree.map(lambda a: jnp.asarray(a.view(dtype) if a.dtype == np.uint16 else a), raw)
    assert core.tree.structure(params) == core.tree.structure(
        model.init(random.PRNGKey(0), x)["params"]
    )
    opt, step = cases.train_step(m, model)
    loss, grads, new = core.jit(step)(params, opt.init(params), x, labels)
    # On 2026-12-04 all equal JAX's bits but the float32 ones of the convolution's kernel
    # gradient and of Adam's float32 updates (rel. 4e-7: summation orders, FMA); the
    # tolerances leave room for the first call's quick-tier code (`core/jit/README.md`).
    np.testing.assert_allclose(np.asarray(loss), answers[f"{name}:loss"], rtol=1e-6)
    partials = cases.PARTIAL_TRAIN.get(name, {}) if dtype == F16 else {}
    for kind, tree in (("grads", grads), ("new", new)):
        for path, g in core.tree_util.tree_flatten_with_path(tree)[0]:
            key = "/".join(str(getattr(p, "key", p)) for p in path)
            e, g = answers[f"{name}:{kind}:{key}"], np.asarray(g)
            partial = partials.get(key) if kind == "grads" else None
            if partial:
                e = e.view(dtype) if g.dtype == dtype else e
                rtol, atol = partial
                np.testing.assert_allclose(
                    g.astype(np.float32), e.astype(np.float32), rtol=rtol, atol=atol
                )
            elif g.dtype == dtype:
                assert _ulps(g.view(np.uint16), e, dtype).max() <= 1, (kind, key)
            else:
                np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-7, err_msg=f"{kind} {key}")


def test_float32_programs_are_not_rewritten():
    jaxpr = core.make_jaxpr(lambda x: jnp.tanh(x) * 2)(jnp.ones(3)).jaxpr
    assert narrow.widen(jaxpr) is None


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_widened_program_holds_no_16_bit_floats(dtype):
    jaxpr = core.make_jaxpr(lambda x: (x * 3 + 1).sum(0))(jnp.ones((40, 3), dtype)).jaxpr
    wide = narrow.widen(jaxpr)
    dts = {v.aval.dtype for e in wide.jaxpr.eqns for v in (*e.inputs, *e.outputs)}
    assert not dts & set(DTYPES)
    assert [v.aval.dtype for v in wide.jaxpr.invars] == [np.uint16]
    assert [v.aval.dtype for v in wide.jaxpr.outvars] == [np.uint16]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_jit_returning_a_16_bit_constant(dtype):
    # only a literal output holds the 16-bit dtype (optax's inject_hyperparams with
    # hyperparam_dtype=bfloat16 returns such constants); JAX: 0.9 rounds to 0.8984375 in
    # bfloat16, 0.89990234375 in float16
    got = core.jit(lambda x: (jnp.asarray(0.9, dtype), x + 1))(jnp.ones(2))
    assert got[0].dtype == dtype and float(got[0]) == float(np.asarray(0.9, dtype))
    np.testing.assert_array_equal(got[1], np.full(2, 2, np.float32))


# float32 values around the roundings' edges: ties, overflow, float16's subnormal range, NaNs
_EDGES = [0x3F808000, 0x3F818000, 0x3F801000, 0x3F803000, 0x7F7FFFFF, 0x477FEFFF, 0x477FF000]
_EDGES += [0x33000000, 0x33000001, 0x33C00000, 0x387FF000, 0x38800000, 0x00000001, 0x80000000]
_EDGES += [0x7F800000, 0x7F800001, 0xFFFFFFFF]


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_rounding_impl_is_ml_dtypes(dtype):
    x = np.array(_EDGES, np.uint32).view(np.float32)
    out = ROUNDING[dtype].impl(x)
    with np.errstate(invalid="ignore", over="ignore"):
        expected = x.astype(dtype).astype(np.float32)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(expected))
    ok = ~np.isnan(out)
    np.testing.assert_array_equal(out[ok].view(np.uint32), expected[ok].view(np.uint32))


def _nan(x: np.ndarray) -> np.ndarray:
    return np.isnan(x.astype(np.float32))


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_compiled_rounding_and_bits_are_numpy_conversions(dtype):
    # every 16-bit pattern through the compiled load and store, and float32 edges rounded
    bits = np.arange(2**16, dtype=np.uint16).view(dtype)
    edges = np.array(_EDGES, np.uint32).view(np.float32)
    got_bits, got_edges = core.jit(lambda b, e: (b * 1, e.astype(dtype)))(bits, edges)
    same = lambda a, b: np.where(_nan(a), _nan(b), a.view(np.uint16) == b.view(np.uint16))  # noqa: E731
    assert same(np.asarray(got_bits), bits).all()
    with np.errstate(invalid="ignore", over="ignore"):
        assert same(np.asarray(got_edges), edges.astype(dtype)).all()


# JAX 0.10.2 printed the bits of jit(jnp.nextafter) (the same eagerly) of these operands
NEXTAFTER_X = [0.0, -0.0, 1.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 2.5, 0.0, 3.0]
NEXTAFTER_Y = [1.0, -1.0, 2.0, 0.0, -2.0, 0.0, 0.0, 1.0, np.nan, -0.0, 3.0]
NEXTAFTER_BITS = {
    BF: [1, 32769, 16257, 16255, 49089, 32639, 65407, 32704, 32704, 32768, 16448],
    F16: [1, 32769, 15361, 15359, 48641, 31743, 64511, 32256, 32256, 32768, 16896],
}


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_nextafter_steps_the_16_bit_value(dtype):
    """XLA steps the 16-bit bits: computed in float32 and rounded back it gave x itself."""
    x, y = (jnp.asarray(np.array(v, np.float32)).astype(dtype) for v in (NEXTAFTER_X, NEXTAFTER_Y))
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumpyFallbackWarning)  # float16 compiles it too
        got = core.jit(jnp.nextafter)(x, y)
    assert got.dtype == dtype
    np.testing.assert_array_equal(np.asarray(got).view(np.uint16), NEXTAFTER_BITS[dtype])
