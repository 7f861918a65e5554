"""`make_jaxpr`'s text against JAX 0.10.2's for a table of common calls (`jaxpr_cases.py`,
recorded by `record_jaxprs.py` into `jax_jaxprs.json`; JAX is not imported here).

The cases numbax prints as JAX does must stay equal; the others are listed in `DIFFERENT` with
the reasons, as strict expected failures (one that starts matching is to be moved out of it)."""

import json
import pathlib
import types
import warnings

import pytest

import core
import core.numpy as jnp
from core import lax, nn
from tests.core.jaxpr_cases import cases

RECORDED = json.loads((pathlib.Path(__file__).parent / "jax_jaxprs.json").read_text())["jaxprs"]
CASES = cases(types.SimpleNamespace(jax=core, jnp=jnp, lax=lax, nn=nn))

# Why numbax's text differs, the most common first:
SCALAR = "scalar operands broadcast first (JAX: a rank-0 literal operand, `add a 1.0:f32[]`)"
RANK = "operands broadcast to the full shape (JAX: to size-1 axes, `f32[1,4]`, then implicitly)"
JIT = "JAX's jnp/nn/random functions are jitted: their jaxpr nests in a `jit[name=...]`"
GATHER = "numbax's gather/scatter take `axes`/`mode`/`kind` (JAX: XLA's dimension numbers)"
KEYS = "raw keys are expanded into threefry2x32 (JAX: random_wrap, random_bits on key<fry>)"
CUSTOM = "custom_jvp functions built otherwise (JAX's relu is one, numbax's gelu; logaddexp's)"
PRIM = "JAX has a primitive numbax composes (split, tile, unstack, erfc, copy)"
NP_INT = "JAX prints numpy ints of parameters (vmap's, a transpose's, jnp.pad's) as `np.int64(2)`"
OTHER = "another decomposition (einsum's trace, matmul's batch broadcast, slice strides, ...)"

DIFFERENT = {
    "split": [PRIM],
    "array_split": [PRIM],
    "tile": [PRIM],
    "roll": [OTHER],
    "pad": [NP_INT],
    "pad_tuple": [NP_INT],
    "pad_edge": [OTHER],
    "linspace": [OTHER],
    "eye": [OTHER],
    "pow_float": [SCALAR],
    "logaddexp": [CUSTOM],
    "index_array": [SCALAR, GATHER],
    "index_array_col": [SCALAR, GATHER],
    "index_traced_int": [OTHER],
    "take": [GATHER],
    "take_along_axis": [GATHER],
    "at_set": [GATHER],
    "at_set_array": [SCALAR, GATHER],
    "at_add": [SCALAR, GATHER],
    "at_mul": [GATHER],
    "at_get": [SCALAR, GATHER],
    "at_max": [SCALAR, GATHER],
    "matmul_batched": [OTHER],
    "einsum_trace": [OTHER],
    "top_k": [OTHER],
    "gelu": [CUSTOM],
    "gelu_exact": [PRIM],
    "softplus": [SCALAR, CUSTOM],
    "logsumexp": [OTHER],
    "random_normal": [KEYS, JIT],
    "random_uniform": [KEYS, JIT],
    "random_split": [KEYS],
    "random_bernoulli": [KEYS, JIT],
    "random_randint": [KEYS, JIT],
    "random_categorical": [KEYS, JIT],
    "random_permutation": [KEYS, JIT],
    "random_fold_in": [KEYS],
    "grad_logsumexp": [SCALAR],
    "grad_softmax_ce": [OTHER, NP_INT],
    "grad_relu": [CUSTOM],
    "grad_index": [NP_INT],
    "grad_expand_dims": [OTHER],
    "grad_stack": [PRIM],
    "grad_mean_var": [OTHER],
    "vmap_sum": [NP_INT],
    "vmap_expand_dims": [NP_INT],
    "vmap_stack": [OTHER],
    "vmap_index": [SCALAR, GATHER],
}


def test_table_is_recorded():
    assert set(CASES) == set(RECORDED)
    assert set(DIFFERENT) <= set(CASES)


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
