"""`make_jaxpr`'s text against JAX 0.10.2's for a table of common calls (`jaxpr_cases.py`,
recorded by `record_jaxprs.py` into `jax_jaxprs.json`; JAX is not imported here), and the
dtypes, shapes and weak types of the results (which the text does not show).

The cases numbax prints as JAX does must stay equal; the others are listed in `DIFFERENT` with
the reasons, as strict expected failures (one that starts matching is to be moved out of it)."""

import json
import pathlib
import types
import warnings

import pytest

import core
import core.numpy as jnp
import core.scipy.linalg  # noqa: F401  (core.scipy.linalg for the table)
import core.scipy.special  # noqa: F401  (core.scipy.special for the table)
import nn as linen
import optim as optax
from core import lax, nn
from tests.core.jaxpr_cases import cases, out_types

_RECORD = json.loads((pathlib.Path(__file__).parent / "jax_jaxprs.json").read_text())
RECORDED, RECORDED_TYPES = _RECORD["jaxprs"], _RECORD["out_types"]
CASES = cases(types.SimpleNamespace(jax=core, jnp=jnp, lax=lax, nn=nn, linen=linen, optax=optax))

# Why numbax's text differs, the most common first:
CUSTOM = (
    "numbax's tanh gelu is a custom_jvp (JAX's is not): differentiated through its operations, "
    "a jitted train step's forward loop writes 4 arrays for the backward (tanh, 1 - tanh, cdf, "
    "out), the custom rule 2 (out and the slope)"
)
NP_INT = "JAX prints numpy ints of parameters (vmap's, a transpose's, jnp.pad's) as `np.int64(2)`"
OTHER = "another decomposition (einsum's trace, edge padding, optax's bias correction, ...)"
LINALG = (
    "custom_linear_solve prints numbax's parameters (a call_jaxpr, its jaxprs as a tuple), and "
    "dot_general does not keep precision=HIGHEST"
)
DIAGONAL = "jnp.diagonal is one strided slice (JAX: a jit of an iota mask and a platform cond)"
CALL_NAME = "a custom_jvp's call_jaxpr is named after its function (JAX names it `jaxpr`)"
TRIANGLE = "jnp.tril and jnp.triu close over constant masks (JAX: jits of iotas)"
CONJ = "fft's transposes build complex(real, -imag), not a conj equation"
JNP_JITS = "jnp.trace and jnp.isinf are not jits of their own (JAX: jit[name=trace], isinf)"
TRANSPOSE_JIT = "fft's transposes are not wrapped in JAX's jits (_rfft_transpose, fft)"
JIT_ZERO_RES = (
    "a jit's partial eval: JAX's known half returns the instantiated zero tangent of a constant "
    "operand (jnp.where's 0.0) as a residual the unknown half does not read"
)

DIFFERENT = {
    "linspace": [OTHER],
    "gelu": [CUSTOM],
    "grad_mean_var": [JIT_ZERO_RES],
    "grad_pad": [OTHER, NP_INT],
    "optax_adam": [OTHER],
    "optax_adamw": [OTHER],
    "linalg_solve": [LINALG],
    "linalg_inv": [LINALG],
    "linalg_slogdet": [DIAGONAL, CALL_NAME],
    "linalg_slogdet_2x2": [CALL_NAME],
    "linalg_det_4x4": [DIAGONAL, CALL_NAME],
    "grad_linalg_det_4x4": [DIAGONAL, JNP_JITS],
    "scipy_lu": [TRIANGLE],
    "jvp_lax_lu": [TRIANGLE],
    "grad_rfft": [TRANSPOSE_JIT, CONJ],
    "ad_grad_where_weak": [JIT_ZERO_RES],
}


def test_table_is_recorded():
    assert set(CASES) == set(RECORDED)
    assert set(DIFFERENT) <= set(CASES)
    assert set(DIFFERENT_TYPES) <= set(RECORDED_TYPES) <= set(CASES)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="; ".join(DIFFERENT[n])))
        if n in DIFFERENT
        else n
        for n in sorted(CASES)
    ],
)
def test_jaxpr_text_is_jaxs(name):
    fun, args = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        text = str(core.make_jaxpr(fun)(*args))
    assert text == RECORDED[name]


# Why a result's dtype, shape or weak type differs from JAX's:
DIFFERENT_TYPES = {
    "ad_jvp_weak_strong_tangent": [
        "a strong tangent of a weak primal: JAX's jnp functions are jits whose tangent inputs are "
        "typed by the primals (weak), so the tangent comes out weak; numbax's stays strong"
    ],
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="; ".join(DIFFERENT_TYPES[n])))
        if n in DIFFERENT_TYPES
        else n
        for n in sorted(RECORDED_TYPES)
    ],
)
def test_out_types_are_jaxs(name):
    fun, args = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        closed = core.make_jaxpr(fun)(*args)
    assert out_types(closed) == RECORDED_TYPES[name]


def test_pretty_print_is_the_printed_program():
    # JAX 0.10.2: make_jaxpr(f)(x).pretty_print(use_color=False) for a custom_jvp function
    f = core.custom_jvp(lambda x: x + 1)

    def f_jvp(primals, tangents):
        return f(*primals), tangents[0]

    f.defjvp(f_jvp)
    closed = core.make_jaxpr(f)(jnp.array([4.2], dtype=jnp.float32))
    text = closed.pretty_print(use_color=False)
    assert text == str(closed) == closed.jaxpr.pretty_print(source_info=False)
    assert text == (
        "{ lambda ; a:f32[1]. let\n"
        "    b:f32[1] = custom_jvp_call[\n"
        "      name=<lambda>\n"
        "      call_jaxpr={ lambda ; c:f32[1]. let d:f32[1] = add c 1.0:f32[] in (d,) }\n"
        "      jvp=f_jvp\n"
        "      symbolic_zeros=False\n"
        "    ] a\n"
        "  in (b,) }"
    )
