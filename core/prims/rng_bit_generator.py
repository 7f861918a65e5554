"""XLA's bit generators as primitives: `lax.rng_bit_generator` and `lax.rng_uniform`.

`rng_bit_generator(key, shape, dtype, algorithm)` is XLA's RngBitGenerator as XLA:CPU expands
it (`rng_bit_generator_expander.cc` over `prng.cc`), bit for bit. The key is JAX's `uint32[4]`
(or `uint64[2]`): two little-endian 64-bit words, a Philox/Threefry key `k` and a counter `s`.
`RNG_DEFAULT` is Philox on CPU.

* Philox-4x32-10 hashes the 128-bit counters `(s, k) + i` (low word `s`) under `k`; each hash
  gives four 32-bit words (two 64-bit ones for uint64), laid out in order: element `e` is word
  `e % 4` of counter `e // 4`. The new key is `[k, s + counters used]`.
* Threefry-2x32-20 hashes the 64-bit counters `s + i` under `k`. For 32 bits or less, the shape
  is halved along its first even axis (else its longest): element `j` of that axis is word
  `j % 2` of the counter of element `j // 2` of the halved shape (row-major); a 0-d result is
  word 0 of counter `s`. For 64 bits, element `i` is `y0 | y1 << 32` of counter `s + i`.
  The new key is `[k, s + counters used]`.

uint8/uint16 take the low bits of the 32-bit words. Under `vmap` a batched key draws the whole
batch from its first key, which alone is updated, as JAX's batching rule does. Both outputs are
integers, so derivatives are zero.

`rng_uniform(a, b, shape)` is XLA's stateful RNG op: every compiled instance (each eager
signature, each equation of each compiled program) keeps a 128-bit counter that starts at XLA:CPU's
`0x7012395` and advances by the result's number of 32-bit words per call, hashed with Philox
under a key of its own; floats are XLA's `mantissa bits * 2**-mant * (b - a) + a`, integers
`a + (bits % (b - a))` as XLA's `ConvertRandomBitsToUniformInt`. XLA derives each instance's key
from its compiler's global state, so the numbers differ from JAX's (JAX documents them as
implementation-defined); the distribution, dtypes and errors are JAX's. It has no derivative and no
batching rule, as in JAX.

Numba lowering (`core/backends/numba/rules/rng_bit_generator.py`): `rng_bit_generator` fills
its output with loops over the `rt.philox4x32`/`rt.threefry2x32` hashes; `rng_uniform` is a
host call of its site's `impl`.
"""

from __future__ import annotations

import math
import operator
import threading
from typing import Any

import numpy as np

from core import dtypes
from core.avals import ShapedArray
from core.errors import DTypeError, RngBitGeneratorKeyError, RngUniformArgumentError
from core.interpreters import batching
from core.interpreters.jvp import defjvp_zero
from core.primitive import Primitive
from core.prims.indexing import concatenate, slice_in_dim
from core.prims.options import RandomAlgorithm
from core.prims.random_bits import _threefry_impl
from core.prims.shapes import reshape
from core.trace import as_value, get_aval

_U32, _U64 = np.dtype(np.uint32), np.dtype(np.uint64)
_BIT_DTYPES = tuple(np.dtype(f"u{n}") for n in (1, 2, 4, 8))
_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)
_PHILOX_MUL = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_PHILOX_BUMP = (np.uint32(0x9E3779B9), np.uint32(0xBB67AE85))
_RNG_STATE_START = 0x7012395  # XLA:CPU's first counter of a stateful RNG op


def _philox4x32(key: tuple[int, int], x: list[np.ndarray]) -> list[np.ndarray]:
    """Philox-4x32 with 10 rounds (Random123; XLA's `Philox4x32`) of the uint32 counter words
    `x` (four arrays of one shape) under the key words `key`."""
    k = [np.full(1, w, np.uint32) for w in key]  # arrays: numpy wraps their overflow silently
    for _ in range(10):
        p0 = x[0].astype(np.uint64) * _PHILOX_MUL[0]
        p1 = x[2].astype(np.uint64) * _PHILOX_MUL[1]
        x = [
            (p1 >> _S32).astype(np.uint32) ^ x[1] ^ k[0],
            p1.astype(np.uint32),
            (p0 >> _S32).astype(np.uint32) ^ x[3] ^ k[1],
            p0.astype(np.uint32),
        ]
        k = [k[0] + _PHILOX_BUMP[0], k[1] + _PHILOX_BUMP[1]]
    return x


def _split64(w: np.ndarray) -> list[np.ndarray]:
    return [(w & _M32).astype(np.uint32), (w >> _S32).astype(np.uint32)]


def _join64(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    return lo.astype(np.uint64) | (hi.astype(np.uint64) << _S32)


def _philox_words(key: int, lo: int, hi: int, n: int, wide: bool) -> np.ndarray:
    """The Philox words of the 128-bit counters `(lo, hi) + [0, n)`, in order: `4 n` uint32
    words, or `2 n` uint64 ones if `wide`."""
    low = np.uint64(lo) + np.arange(n, dtype=np.uint64)
    high = np.where(low < np.uint64(lo), np.uint64((hi + 1) % 2**64), np.uint64(hi))
    y = _philox4x32((key & 0xFFFFFFFF, key >> 32), _split64(low) + _split64(high))
    if wide:
        y = [_join64(y[0], y[1]), _join64(y[2], y[3])]
    return np.stack(y, axis=1).reshape(-1)


def threefry_split(shape: tuple, concrete: tuple[int, ...]) -> tuple[Any, Any, Any]:
    """`(outer, n, inner)`: XLA's Threefry halves a shape along its first even axis (else its
    longest; a 0-d shape is `(1, 1, 1)`) of size `n`, with `outer` elements before it and
    `inner` after. The axis is chosen on the sizes `concrete`; the products are taken of
    `shape` (the same sizes, or a lowering's size variables)."""
    if not concrete:
        return 1, 1, 1
    axis = next((i for i, d in enumerate(concrete) if d % 2 == 0), None)
    if axis is None:
        axis = max(range(len(concrete)), key=lambda i: (concrete[i], -i))
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])


def _threefry(key: int, counters: np.ndarray) -> list[np.ndarray]:
    return _threefry_impl(key & 0xFFFFFFFF, key >> 32, *_split64(counters))


def _threefry_bits(key: int, state: int, shape: tuple, width: int) -> tuple[np.ndarray, int]:
    if width == 64:
        n = math.prod(shape)
        y0, y1 = _threefry(key, np.uint64(state) + np.arange(n, dtype=np.uint64))
        return _join64(y0, y1), n
    outer, nd, inner = threefry_split(shape, shape)
    half = (outer, (nd + 1) // 2, inner)
    n = math.prod(half)
    y = _threefry(key, (np.uint64(state) + np.arange(n, dtype=np.uint64)).reshape(half))
    bits = np.stack(y, axis=2).reshape(outer, 2 * half[1], inner)[:, :nd]
    return bits, n


def _philox_bits(key: int, state: int, shape: tuple, width: int) -> tuple[np.ndarray, int]:
    size = math.prod(shape)
    n = -(-size // (2 if width == 64 else 4))
    # XLA's counter of a 2-word state is (state, key): its low word, then the key as high word.
    return _philox_words(key, state, key, n, width == 64)[:size], n


def _key_words(key: np.ndarray) -> tuple[int, int]:
    """The 64-bit key and counter words of a `uint32[4]` or `uint64[2]` key."""
    words = np.ascontiguousarray(key).view(np.uint64)  # little-endian word pairs, as XLA:CPU
    return int(words[0]), int(words[1])


def _rbg_impl(key, *, shape, dtype, algorithm, out_sharding):
    k, s = _key_words(key)
    width = np.dtype(dtype).itemsize * 8
    gen = _threefry_bits if algorithm == RandomAlgorithm.RNG_THREE_FRY else _philox_bits
    bits, used = gen(k, s, tuple(shape), width)
    new = np.array([k, (s + used) % 2**64], np.uint64).view(key.dtype)
    return [new, np.asarray(bits).reshape(shape).astype(dtype)]


def _rbg_abstract_eval(key, *, shape, dtype, algorithm, out_sharding):
    if (key.shape, key.dtype) not in (((4,), _U32), ((2,), _U64)):
        raise RngBitGeneratorKeyError(key.str_short(short_dtypes=True))
    return [ShapedArray(key.shape, key.dtype, key.weak_type), ShapedArray(shape, dtype)]


def _rbg_batch(args, dims, *, shape, dtype, algorithm, out_sharding):
    (keys,), (d,) = args, dims
    keys = batching.moveaxis(keys, d, 0, None)
    size = get_aval(keys).shape[0]
    first = reshape(slice_in_dim(keys, 0, 1, 1, 0), get_aval(keys).shape[1:])
    new_key, bits = rng_bit_generator_p.bind(
        first, shape=(size, *shape), dtype=dtype, algorithm=algorithm, out_sharding=out_sharding
    )
    rest = slice_in_dim(keys, 1, size, 1, 0)
    new_keys = concatenate([reshape(new_key, (1, *get_aval(new_key).shape)), rest], 0)
    return [new_keys, bits], [0, 0]


rng_bit_generator_p = Primitive("rng_bit_generator", multiple_results=True)
rng_bit_generator_p.def_impl(_rbg_impl)
rng_bit_generator_p.def_abstract_eval(_rbg_abstract_eval)
rng_bit_generator_p.def_batch(_rbg_batch)
defjvp_zero(rng_bit_generator_p)


def rng_bit_generator(
    key: Any,
    shape: Any,
    dtype: Any = np.uint32,
    algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT,
    *,
    out_sharding: Any = None,
) -> tuple[Any, Any]:
    """Stateless random bits of XLA's generators, like `lax.rng_bit_generator`.

    Args:
      key: a `uint32[4]` (or `uint64[2]`) key.
      shape: the shape of the bits.
      dtype: uint8, uint16, uint32 or uint64 (uint32 without x64).
      algorithm: a `RandomAlgorithm`; `RNG_DEFAULT` is Philox on CPU.
      out_sharding: accepted for JAX's signature (one device).

    Returns:
      `(new_key, bits)`: the advanced key (the input's shape and dtype) and the bits.
    """
    shape = tuple(operator.index(d) for d in shape)
    dt = dtypes.check_user_dtype(dtype, "rng_bit_generator")
    if dt not in _BIT_DTYPES:
        raise DTypeError(f"rng_bit_generator: unsupported dtype {np.dtype(dtype)}")
    key = as_value(key)
    _rbg_abstract_eval(get_aval(key), shape=shape, dtype=dt, algorithm=None, out_sharding=None)
    out = rng_bit_generator_p.bind(
        key, shape=shape, dtype=dt, algorithm=RandomAlgorithm(algorithm), out_sharding=out_sharding
    )
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# rng_uniform: XLA's stateful uniform RNG


class RngSite:
    """One compiled instance of `rng_uniform`: its Philox key and its 128-bit counter."""

    _count = 0
    _lock = threading.Lock()

    def __init__(self) -> None:
        with RngSite._lock:
            RngSite._count += 1
            self.key = (RngSite._count * 0x9E3779B97F4A7C15) % 2**64
        self.counter = _RNG_STATE_START
        self._mu = threading.Lock()

    def draw(self, a: np.ndarray, b: np.ndarray, shape: tuple) -> np.ndarray:
        """The next uniform sample of `shape` in `[a, b)` (dtype of `a`); advances the counter."""
        dt = a.dtype
        wide = dt.itemsize == 8
        size = math.prod(shape)
        with self._mu:
            counter = self.counter
            self.counter = (counter + size * (2 if wide else 1)) % 2**128
        n = -(-size // (2 if wide else 4))
        bits = _philox_words(self.key, counter % 2**64, counter >> 64, n, wide)[:size]
        bits = bits.reshape(shape)
        if dt.kind in "iu":  # 1-element arrays: numpy wraps their overflow silently
            lo, hi = (np.full(1, v, dt) for v in (a, b))
            span = hi.view(bits.dtype) - lo.view(bits.dtype)
            dist = bits % span if span[0] else bits  # XLA: x % 0 == x
            half = dist >> bits.dtype.type(1)
            return (lo + half.view(dt) + (dist - half).view(dt)).reshape(shape)
        f = np.dtype(np.float64 if wide else np.float32)
        mant = np.finfo(f).nmant
        unit = (bits >> bits.dtype.type(bits.dtype.itemsize * 8 - mant)).astype(f) * f.type(
            2.0**-mant
        )
        return (unit * (f.type(b) - f.type(a)) + f.type(a)).astype(dt)


_EAGER_SITES: dict[tuple, RngSite] = {}


def _rng_uniform_impl(a, b, *, shape, site=None):
    """Eagerly one site per signature (JAX's executable cache); `site` from a lowering."""
    if site is None:
        sig = (np.dtype(a.dtype), tuple(shape))
        site = _EAGER_SITES.get(sig) or _EAGER_SITES.setdefault(sig, RngSite())
    return site.draw(np.asarray(a), np.asarray(b), tuple(shape))


def _rng_uniform_abstract_eval(a, b, *, shape):
    if a.dtype != b.dtype:
        raise RngUniformArgumentError(
            f"Arguments to rng_uniform must have identical dtypes, got {a.dtype} and {b.dtype}."
        )
    if a.shape != () or b.shape != ():
        raise RngUniformArgumentError(
            f"Arguments to rng_uniform must be scalars; got shapes {a.shape} and {b.shape}."
        )
    if a.dtype.kind not in "iuf" or (a.dtype.kind in "iu" and a.dtype.itemsize < 4):
        raise DTypeError(
            f"rng_uniform draws floats and 32- or 64-bit integers, got {a.dtype}; convert "
            "the bounds (a.astype(jnp.int32))."
        )
    return ShapedArray(shape, a.dtype, a.weak_type and b.weak_type)


rng_uniform_p = Primitive("rng_uniform", effectful=True)
rng_uniform_p.def_impl(_rng_uniform_impl)
rng_uniform_p.def_abstract_eval(_rng_uniform_abstract_eval)


def rng_uniform(a: Any, b: Any, shape: Any) -> Any:
    """Stateful uniform random numbers in `[a, b)`, like `lax.rng_uniform` (XLA's RNG op).

    Each call of one compiled instance (an eager signature, or an equation of a compiled
    program) continues that instance's stream; use `core.random` for reproducible numbers.

    Args:
      a: the scalar lower bound (float, or 32/64-bit integer).
      b: the scalar upper bound, of `a`'s dtype.
      shape: the result shape.

    Returns:
      An array of `shape` and `a`'s dtype.
    """
    shape = tuple(operator.index(d) for d in shape)
    a, b = as_value(a), as_value(b)
    _rng_uniform_abstract_eval(get_aval(a), get_aval(b), shape=shape)
    return rng_uniform_p.bind(a, b, shape=shape)
