"""`lax.rng_bit_generator` bit for bit against JAX's recorded values (eagerly and under jit,
every algorithm, dtype and a table of shapes and keys), and `lax.rng_uniform`'s contract."""

import json
import pathlib
import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.errors import (
    DTypeError,
    PrimitiveRuleError,
    RngBitGeneratorKeyError,
    RngUniformArgumentError,
)
from tests.core.prims import rng_bit_generator_cases as cases

JAX = json.loads((pathlib.Path(__file__).parent / "jax_rng_bit_generator.json").read_text())


def _check(name, got_key, got_bits, dtype):
    want = JAX[name]
    assert np.asarray(got_bits).dtype == np.dtype(dtype), name
    assert np.asarray(got_key).tolist() == want["key"], name
    assert np.asarray(got_bits).ravel().tolist() == want["bits"], name


def _draws(key, alg, combos):
    algorithm = getattr(lax.RandomAlgorithm, alg)
    return [lax.rng_bit_generator(key, s, dtype=d, algorithm=algorithm) for s, d in combos]


_COMBOS = [(s, d) for s in cases.SHAPES for d in cases.DTYPES]


@pytest.mark.parametrize("alg", cases.ALGORITHMS)
@pytest.mark.parametrize("key_name", list(cases.KEYS))
def test_eager_matches_jax(alg, key_name):
    key = jnp.asarray(np.array(cases.KEYS[key_name], np.uint32))
    for (shape, dtype), (new_key, bits) in zip(_COMBOS, _draws(key, alg, _COMBOS)):
        assert bits.shape == shape
        _check(f"{key_name}|{shape}|{dtype}|{alg}", new_key, bits, dtype)


@pytest.mark.parametrize("alg", ["RNG_THREE_FRY", "RNG_PHILOX"])
def test_jit_matches_jax(alg):
    # one program per algorithm, every shape and dtype in it
    outs = core.jit(lambda k: _draws(k, alg, _COMBOS))(np.array(cases.KEYS["carry"], np.uint32))
    for (shape, dtype), (new_key, bits) in zip(_COMBOS, outs):
        _check(f"carry|{shape}|{dtype}|{alg}", new_key, bits, dtype)


def test_uint64_bits_and_keys_with_x64():
    combos = [(s, d) for s in cases.X64_SHAPES for d in ("uint32", "uint64")]
    with core.enable_x64():
        for alg in cases.ALGORITHMS:
            for name, words in cases.X64_KEYS.items():
                key = jnp.asarray(np.array(words, np.uint64))
                for (shape, dtype), (new_key, bits) in zip(combos, _draws(key, alg, combos)):
                    assert new_key.dtype == np.uint64
                    _check(f"{name}|{shape}|{dtype}|{alg}", new_key, bits, dtype)
            carry = np.array(cases.KEYS["carry"], np.uint32)
            wide = [(s, "uint64") for s in cases.X64_SHAPES]
            for (shape, dtype), (new_key, bits) in zip(
                wide, core.jit(lambda k, a=alg, w=wide: _draws(k, a, w))(carry)
            ):
                _check(f"carry|{shape}|{dtype}|{alg}", new_key, bits, dtype)


def test_vmap_draws_the_batch_from_the_first_key():
    keys = np.array([cases.KEYS["small"], cases.KEYS["carry"]], np.uint32)
    new_keys, bits = core.vmap(lambda k: lax.rng_bit_generator(k, (3,)))(keys)
    assert np.asarray(new_keys).tolist() == JAX["vmap"]["key"]
    assert np.asarray(bits).tolist() == JAX["vmap"]["bits"]


def test_bind_takes_jaxs_parameters():
    key = np.array(cases.KEYS["small"], np.uint32)
    params = dict(shape=(2, 3), dtype=np.dtype("uint16"), out_sharding=None)
    new_key, bits = lax.rng_bit_generator_p.bind(
        key, algorithm=lax.RandomAlgorithm.RNG_PHILOX, **params
    )
    _check("small|(2, 3)|uint16|RNG_PHILOX", new_key, bits, "uint16")
    assert lax.rng_uniform_p.bind(np.float32(0), np.float32(1), shape=(3,)).shape == (3,)


def test_jaxpr_params_and_zero_derivative():
    key = np.array(cases.KEYS["small"], np.uint32)
    text = str(core.make_jaxpr(lambda k: lax.rng_bit_generator(k, (2,)))(key))
    assert "rng_bit_generator[" in text and "algorithm=RNG_DEFAULT" in text
    assert "out_sharding=None" in text and "shape=(2,)" in text

    def f(x):
        return lax.rng_bit_generator(key, (3,))[1].astype(np.float32).sum() * x

    bits = np.asarray(lax.rng_bit_generator(key, (3,))[1]).astype(np.float32).sum()
    assert float(core.grad(f)(1.0)) == bits


@pytest.mark.parametrize(
    "key, shape, dtype, error, match",
    [
        (np.zeros(2, np.uint32), (2,), "uint32", RngBitGeneratorKeyError, "u32\\[2\\]"),
        (np.zeros(4, np.int32), (2,), "uint32", RngBitGeneratorKeyError, "i32\\[4\\]"),
        (np.zeros((2, 2), np.uint32), (2,), "uint32", AssertionError, "uint32\\[4\\]"),
        (np.zeros(4, np.uint32), (2,), "int32", DTypeError, "unsupported dtype int32"),
        (np.zeros(4, np.uint32), (2,), "float32", TypeError, "unsupported dtype float32"),
    ],
)
def test_errors(key, shape, dtype, error, match):
    with pytest.raises(error, match=match):
        lax.rng_bit_generator(key, shape, dtype=dtype)


def test_uint64_without_x64_warns_and_truncates():
    key = np.array(cases.KEYS["small"], np.uint32)
    with pytest.warns(UserWarning, match="requested in rng_bit_generator"):
        new_key, bits = lax.rng_bit_generator(key, (2,), dtype=np.uint64)
    assert (
        bits.dtype == np.uint32
        and bits.tolist() == JAX["small|(2, 3)|uint32|RNG_DEFAULT"]["bits"][:2]
    )


# ---------------------------------------------------------------------------------------------
# rng_uniform: XLA's stateful RNG (its numbers are not JAX's: XLA keys each executable from its
# compiler's state); what is JAX's is the range, dtype, weak type, streams and errors.


@pytest.mark.parametrize(
    "a, b, dtype",
    [(0.0, 1.0, np.float32), (-2.0, 3.0, np.float32), (0, 10, np.int32), (-5, -1, np.int32)],
)
def test_rng_uniform_range_and_stream(a, b, dtype):
    x = lax.rng_uniform(dtype(a), dtype(b), (400,))
    y = lax.rng_uniform(dtype(a), dtype(b), (400,))
    assert x.dtype == dtype and x.shape == (400,)
    xs = np.asarray(x)
    assert (xs >= a).all() and (xs < b).all()
    assert not np.array_equal(xs, np.asarray(y))  # each call continues the stream
    if dtype is np.int32:
        assert set(xs.tolist()) == set(range(a, b))


def test_rng_uniform_under_jit_continues_its_own_stream():
    f = core.jit(lambda a: lax.rng_uniform(a, 1.0, (64,)))
    x, y = np.asarray(f(0.5)), np.asarray(f(0.5))
    assert x.dtype == np.float32 and (x >= 0.5).all() and (x < 1).all()
    assert not np.array_equal(x, y)
    text = str(core.make_jaxpr(lambda: lax.rng_uniform(0.0, 1.0, (4,)))())
    assert "rng_uniform[shape=(4,)] 0.0:f32[] 1.0:f32[]" in text


def test_rng_uniform_weak_type():
    assert core.eval_shape(lambda: lax.rng_uniform(0.0, 1.0, (2,))).weak_type
    assert not lax.rng_uniform(np.float32(0), 1.0, (2,)).weak_type


@pytest.mark.parametrize(
    "a, b, match",
    [
        (np.float32(0), np.int32(1), "must have identical dtypes, got float32 and int32"),
        (np.zeros(2, np.float32), np.float32(1), "must be scalars; got shapes \\(2,\\) and"),
    ],
)
def test_rng_uniform_errors(a, b, match):
    with pytest.raises(RngUniformArgumentError, match=match):
        lax.rng_uniform(a, b, (3,))


def test_rng_uniform_has_no_derivative():
    with warnings.catch_warnings(), pytest.raises(PrimitiveRuleError, match="rng_uniform"):
        core.grad(lambda a: lax.rng_uniform(a, 2.0, ()))(1.0)
