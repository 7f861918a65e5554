"""JAX's key primitives (`core/prims/prng.py`) against JAX 0.10.2's recorded results and
`make_jaxpr` texts (`record_prng.py`, cases in `prng_cases.py`): eagerly, under `jit` (their
physical rules compiled) and on the numpy back end, and printed as JAX prints them."""

import json
import pathlib
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import random
from core.errors import KeyPhysicalRuleError
from core.extend import random as xrandom
from core.prims import prng
from tests.core.prims.prng_cases import K, cases

RECORDED = json.loads((pathlib.Path(__file__).with_name("jax_prng.json")).read_text())
CASES = cases(core)


def test_table_is_recorded():
    assert set(CASES) == set(RECORDED)


def _check(name, out):
    want = RECORDED[name]
    out = np.asarray(out)
    assert str(out.dtype) == want["dtype"]
    np.testing.assert_array_equal(out, np.asarray(want["value"], out.dtype))


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_are_jaxs(name):
    fun, args = CASES[name]
    _check(name, fun(*args))


@pytest.mark.parametrize("backend", ["numba", "python"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_jit_values_are_jaxs(name, backend):
    fun, args = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _check(name, core.jit(fun, backend=backend)(*args))


@pytest.mark.parametrize("name", sorted(CASES))
def test_jaxpr_text_is_jaxs(name):
    fun, args = CASES[name]
    assert str(core.make_jaxpr(fun)(*args)) == RECORDED[name]["jaxpr"]


# (function of a key, JAX 0.10.2's message) for the misuse of key arrays
MISUSE = {
    "add": (lambda k: k + 1, "add does not accept dtypes key<fry>, int32."),
    "radd": (lambda k: 1 + k, "add does not accept dtypes int32, key<fry>."),
    "subtract": (lambda k: k - 1, "subtract does not accept dtypes key<fry>, int32."),
    "multiply": (lambda k: k * 2, "multiply does not accept dtypes key<fry>, int32."),
    "true_divide": (lambda k: k / 2, "true_divide does not accept dtypes key<fry>, int32."),
    "bitwise_and": (lambda k: k & 1, "bitwise_and does not accept dtypes key<fry>, int32."),
    "equal": (lambda k: k == 1, "equal does not accept dtypes key<fry>, int32."),
    "jnp_add": (lambda k: jnp.add(k, 1), "add does not accept dtypes key<fry>, int32."),
    "jnp_add_keys": (
        lambda k: jnp.add(k, k),
        "add does not accept dtype key<fry> at position 0. Accepted dtypes at position 0 are "
        "subtypes of integer, floating, complexfloating.",
    ),
    "neg": (
        lambda k: -k,
        "neg does not accept dtype key<fry>. Accepted dtypes are subtypes of integer, floating, "
        "complexfloating.",
    ),
    "abs": (
        abs,
        "abs does not accept dtype key<fry>. Accepted dtypes are subtypes of floating, "
        "complexfloating, signedinteger.",
    ),
    "asarray": (
        np.asarray,
        "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
        "jax.random.key_data(arr) if you wish to extract the underlying integer array.",
    ),
    "grad": (
        core.grad(lambda k: 1.0),
        "grad requires real- or complex-valued inputs (input dtype that is a sub-dtype of "
        "np.inexact), but got key<fry>.",
    ),
}


@pytest.mark.parametrize("name", sorted(MISUSE))
def test_misuse_of_keys_raises_type_errors(name):
    fun, message = MISUSE[name]
    with pytest.raises(TypeError) as info:
        fun(random.key(0))
    assert str(info.value).startswith(message)


def test_key_avals_print_and_compare_as_jaxs():
    aval = random.split(random.key(0), 2).aval
    assert aval.str_short(short_dtypes=True) == "key<fry>[2]" and str(aval) == "key<fry>[2]"
    assert aval == core.ShapedArray((2,), random.key(1).dtype)
    assert prng.physical_aval(aval).str_short(short_dtypes=True) == "u32[2,2]"


def test_jvp_gives_keys_and_bits_zero_tangents():
    # keys are not differentiable: their tangents and those of their bits are symbolic zeros
    zero = np.zeros((), core.dtypes.float0)
    out, tangent = core.jvp(lambda x: random.bits(random.PRNGKey(x), (2,)), (3,), (zero,))
    np.testing.assert_array_equal(np.asarray(out), np.asarray(random.bits(random.PRNGKey(3), (2,))))
    assert np.asarray(tangent).dtype == core.dtypes.float0


def test_primitives_without_a_physical_rule_raise():
    keys = prng.random_wrap(np.asarray(random.split(K, 3)), prng.threefry_prng_impl)
    with pytest.raises(KeyPhysicalRuleError, match="does not accept key arrays"):
        core.lax.pad(keys, keys[0], ((1, 0, 0),))  # (JAX's compiler fails on it)


def _toy_impl():
    """A program's implementation (JAX's `define_prng_impl`) of simple formulas on one key."""

    def seed(s):
        return jnp.stack([jnp.uint32(7), s.astype(jnp.uint32)])

    def split(k, shape):
        n = int(np.prod(shape))
        new = k[None, :] * jnp.uint32(3) + jnp.arange(n, dtype=jnp.uint32)[:, None]
        return new.reshape(*shape, 2)

    def bits(k, bit_width, shape):
        n = int(np.prod(shape))
        return (k[0] ^ (k[1] + jnp.arange(n, dtype=jnp.uint32))).reshape(shape)

    return xrandom.define_prng_impl(
        key_shape=(2,), seed=seed, split=split, random_bits=bits, fold_in=lambda k, d: k ^ d,
        name="toy", tag="toy",
    )  # fmt: skip


# JAX 0.10.2's results of these calls on `_toy_impl`'s keys
TOY = {
    "key": (lambda k: random.key_data(k), [7, 5]),
    "split": (lambda k: random.key_data(random.split(k, 3)), [[21, 15], [22, 16], [23, 17]]),
    "fold_in": (lambda k: random.key_data(random.fold_in(k, 9)), [14, 12]),
    "bits": (lambda k: random.bits(k, (4,)), [2, 1, 0, 15]),
    "vmap_bits": (
        lambda k: core.vmap(lambda k: random.bits(k, (2,)))(random.split(k, 3)),
        [[26, 5], [6, 7], [6, 5]],
    ),
    "vmap_split": (
        lambda k: random.key_data(core.vmap(random.split)(random.split(k, 2))),
        [[[63, 45], [64, 46]], [[66, 48], [67, 49]]],
    ),
    "jit_fold_in_bits": (
        core.jit(lambda k: random.bits(random.fold_in(k, 2), (3,))),
        [2, 13, 12],
    ),
}


@pytest.mark.parametrize("name", sorted(TOY))
def test_define_prng_impl_keys_are_jaxs(name):
    fun, want = TOY[name]
    key = random.key(5, impl=_toy_impl())
    assert str(key.dtype) == "key<toy>"
    np.testing.assert_array_equal(np.asarray(fun(key)), np.asarray(want, np.uint32))


def test_builtin_impls_and_seeds_are_jaxs():
    assert (str(xrandom.threefry_prng_impl), xrandom.unsafe_rbg_prng_impl.tag) == ("fry", "urbg")
    keys = xrandom.random_seed(jnp.arange(3), xrandom.threefry_prng_impl)
    np.testing.assert_array_equal(np.asarray(random.key_data(keys)), [[0, 0], [0, 1], [0, 2]])
    key = xrandom.seed_with_impl(xrandom.rbg_prng_impl, 3)
    assert str(key.dtype) == "key<rbg>"
    np.testing.assert_array_equal(np.asarray(random.key_data(key)), [0, 3, 0, 3])
