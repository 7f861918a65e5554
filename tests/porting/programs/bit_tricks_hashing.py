"""Bit manipulation as JAX users write it for hashing, sketches and packed storage.

- an integer hash (xorshift-multiply on `uint32`, wrapping products, `shift_right_logical`)
  feeding a count-min sketch built by `.at[].add` and queried by `min`, under `jit`;
- `lax.population_count`, `lax.clz`, `jnp.bitwise_count`, `jnp.left_shift`/`right_shift` on
  signed and unsigned types, `jnp.invert`, `bitwise_xor` reductions (`jnp.bitwise_xor.reduce`);
- `lax.bitcast_convert_type` between `float32`/`int32`/`uint8` (the fast inverse square root,
  a float's sign/exponent/mantissa fields), `jnp.frexp`/`jnp.ldexp`, `jnp.nextafter`,
  `jnp.spacing`;
- 4-bit quantised weights packed two per byte and unpacked, `jnp.packbits`/`unpackbits` with
  `bitorder=` and `axis=`, `count=`;
- `random.bits` of several widths.
"""

import jax
import jax.numpy as jnp
from jax import lax, random


def mix32(x):
    x = x.astype(jnp.uint32)
    x = x ^ lax.shift_right_logical(x, jnp.uint32(16))
    x = x * jnp.uint32(0x7FEB352D)
    x = x ^ lax.shift_right_logical(x, jnp.uint32(15))
    x = x * jnp.uint32(0x846CA68B)
    return x ^ lax.shift_right_logical(x, jnp.uint32(16))


@jax.jit
def sketch(items, seeds):
    width = 16
    rows = jax.vmap(lambda s: mix32(items ^ s) % width)(seeds)  # (depth, n)
    table = jnp.zeros((seeds.shape[0], width), jnp.int32)
    depth = jnp.arange(seeds.shape[0])[:, None]
    return table.at[depth, rows].add(1), rows


def hashing(out):
    items = jnp.array([3, 7, 3, 11, 3, 7, 42, 1000, 3, 5], jnp.uint32)
    seeds = jnp.array([0x9E3779B9, 0x85EBCA6B, 0xC2B2AE35], jnp.uint32)
    table, rows = sketch(items, seeds)
    out["hashes"] = mix32(items)
    out["table"] = table
    queries = jnp.array([3, 7, 42, 99], jnp.uint32)
    qrows = jax.vmap(lambda s: mix32(queries ^ s) % 16)(seeds)
    out["estimates"] = jnp.min(jnp.take_along_axis(table, qrows, axis=1), axis=0)
    out["wrapping_product"] = jnp.uint32(0xFFFFFFFF) * jnp.uint32(3)
    out["int8_wrap"] = jnp.int8(100) + jnp.int8(100)


def bit_counts(out):
    v = jnp.array([0, 1, 2, 3, 255, -1, -128, 1 << 20], jnp.int32)
    out["popcount"] = lax.population_count(v)
    out["clz"] = lax.clz(v)
    out["bitwise_count"] = jnp.bitwise_count(v)
    u8 = jnp.array([0, 1, 128, 255], jnp.uint8)
    out["popcount_u8"] = lax.population_count(u8)
    out["clz_u8"] = lax.clz(u8)
    out["shifts"] = [jnp.left_shift(v, 3), jnp.right_shift(v, 2), lax.shift_right_logical(v, 2)]
    out["shift_u8"] = [jnp.left_shift(u8, 1), jnp.right_shift(u8, 3)]
    out["invert"] = [jnp.invert(v), jnp.invert(u8), jnp.invert(jnp.array([True, False]))]
    out["xor_reduce"] = jnp.bitwise_xor.reduce(v)
    out["or_reduce_axis"] = jnp.bitwise_or.reduce(v.reshape(2, 4), axis=0)
    # A Gray code and its inverse by repeated xor-shifts.
    n = jnp.arange(16, dtype=jnp.uint32)
    gray = n ^ (n >> 1)
    back = gray
    for s in (1, 2, 4, 8, 16):
        back = back ^ (back >> s)
    out["gray"] = gray
    out["gray_inverse_ok"] = bool(jnp.all(back == n))


def float_bits(out):
    x = jnp.array([0.15625, 1.0, 2.0, 10.0, 1e-3, 3.0e7], jnp.float32)
    i = lax.bitcast_convert_type(x, jnp.int32)
    out["float_bits"] = i
    out["sign_exp_mant"] = [i >> 31 & 1, (i >> 23) & 0xFF, i & 0x7FFFFF]
    # The fast inverse square root with one Newton step.
    y = lax.bitcast_convert_type(jnp.int32(0x5F3759DF) - (i >> 1), jnp.float32)
    y = y * (1.5 - 0.5 * x * y * y)
    out["fast_rsqrt"] = y
    out["rsqrt_rel_err"] = jnp.abs(y * jnp.sqrt(x) - 1.0) < 2e-3
    out["to_bytes"] = lax.bitcast_convert_type(jnp.float32(1.5), jnp.uint8)
    out["from_bytes"] = lax.bitcast_convert_type(
        jnp.array([[0, 0, 192, 63]], jnp.uint8), jnp.float32
    )
    out["f16_bits"] = lax.bitcast_convert_type(jnp.array([1.0, -2.5], jnp.float16), jnp.uint16)
    m, e = jnp.frexp(x)
    out["frexp"] = [m, e]
    out["ldexp"] = jnp.ldexp(m, e)
    out["ldexp_int"] = jnp.ldexp(jnp.float32(0.75), jnp.arange(-2, 3))
    out["nextafter"] = jnp.nextafter(jnp.float32(1.0), jnp.array([2.0, 0.0], jnp.float32)) - 1.0
    out["spacing"] = jnp.spacing(jnp.array([1.0, 1024.0], jnp.float32))


def packing(out):
    w = random.normal(random.key(0), (4, 6))
    scale = jnp.max(jnp.abs(w), axis=1, keepdims=True) / 7.0
    q = jnp.clip(jnp.round(w / scale), -8, 7).astype(jnp.int8)
    nib = (q & 0xF).astype(jnp.uint8)
    packed = nib[:, 0::2] | (nib[:, 1::2] << 4)
    lo = (packed & 0xF).astype(jnp.int8)
    hi = (packed >> 4).astype(jnp.int8)
    unpacked = jnp.stack([lo, hi], -1).reshape(q.shape)
    unpacked = jnp.where(unpacked > 7, unpacked - 16, unpacked)
    out["q"] = q
    out["packed"] = packed
    out["roundtrip"] = bool(jnp.all(unpacked == q))
    out["dequant_err"] = jnp.max(jnp.abs(unpacked * scale - w))
    bits = jnp.array([[1, 0, 1, 1, 0, 0, 1, 0, 1], [0, 1, 1, 1, 1, 0, 0, 0, 0]], jnp.uint8)
    out["packbits"] = jnp.packbits(bits, axis=1)
    out["packbits_little"] = jnp.packbits(bits, axis=1, bitorder="little")
    out["packbits_flat"] = jnp.packbits(bits)
    by = jnp.array([178, 3], jnp.uint8)
    out["unpackbits"] = jnp.unpackbits(by)
    out["unpackbits_count"] = jnp.unpackbits(by, count=5, bitorder="little")
    out["unpackbits_axis"] = jnp.unpackbits(by[:, None], axis=1)
    bool_bits = jnp.array([True, False, True])
    out["packbits_bool"] = jnp.packbits(bool_bits)


def random_bits(out):
    key = random.key(3)
    out["bits32"] = random.bits(key, (4,))
    out["bits8"] = random.bits(key, (4,), jnp.uint8)
    out["bits16"] = random.bits(key, (2, 2), jnp.uint16)
    out["bits_dtype"] = str(random.bits(key).dtype)


def run():
    out = {}
    hashing(out)
    bit_counts(out)
    float_bits(out)
    packing(out)
    random_bits(out)
    return out
