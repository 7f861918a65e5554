"""JAX's key primitives: `random_seed`, `random_wrap`, `random_unwrap`, `random_bits`,
`random_split`, `random_fold_in` and `random_clone`, on key avals (`key<fry>[]`, `key<fry>[2]`).

A key aval is a `ShapedArray` whose dtype is a `dtypes.KeyDType`; its value is a
`core.prng_key.PRNGKeyArray` over `uint32[*shape, words]` data, its *physical* value. Each
primitive has a physical rule (`physical`): the same computation on the data, written with
ordinary primitives around the `threefry2x32` hash (or XLA's bit generator for `rbg` keys;
the Philox-2x32, Philox-4x32 and Threefry-4x32 hashes, in elementwise primitives, for JAX
0.10's `philox2x32`, `philox4x32` and `threefry4x32` keys), as JAX lowers its key primitives.
So:

- eagerly, `EvalTrace` hands an equation with a key operand or result to `eval_on_keys`, which
  runs the physical rule on the data and wraps the key results (`core/trace.py`);
- under `jit`, `core/jit/simplify.py` replaces each equation touching keys by the jaxpr of its
  physical rule before code generation, so no lowering sees a key;
- `vmap` has batching rules (keys batch along their leading axes, as in JAX), `jvp` gives keys
  and bits zero tangents (keys are not differentiable, as in JAX), and none is linear.

The shape primitives that JAX applies to keys (`slice`, `squeeze`, `reshape`,
`broadcast_in_dim`, `transpose`, `concatenate`, `stack`, `unstack`, `split`, `tile`, `rev`,
`select_n`, `copy`, `dynamic_slice`, `dynamic_update_slice`, `gather`, `scatter`) and `eq`/`ne`
have physical rules here too: the data's word axis stays last (a gather's out-of-bounds keys
have data 0xFFFFFFFF, as JAX's). `full_keys` is JAX's `full` of a key dtype (`zeros_like`). A
higher-order primitive with key operands or results (`jit`, `scan`, `while`, `cond`,
`remat2`, ...) is bound again with its jaxprs made physical (`physicalize`, memoized per
jaxpr), so a user's `scan` carrying keys or `cond` returning them runs (and compiles) on the
data. Other primitives raise JAX's dtype errors in their abstract evaluation (sorts,
reductions, `dot_general`, a combining scatter) or, with none (`pad`, on which JAX's compiler
fails), `KeyPhysicalRuleError`.
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from core import dtypes, prng_key, trace
from core.avals import ShapedArray
from core.errors import KeyPhysicalRuleError, PRNGKeyError
from core.interpreters import batching
from core.interpreters.jvp import defjvp_zero
from core.interpreters.partial_eval import trace_to_jaxpr
from core.ir import ClosedJaxpr, Jaxpr, Literal
from core.primitive import Primitive
from core.prims import dynamic_slice as ds
from core.prims import elementwise as ew
from core.prims import gather
from core.prims import indexing as ix
from core.prims import reductions as red
from core.prims import rev as rv
from core.prims import shapes as sh
from core.prims.random_bits import threefry2x32, unsigned_mulhi
from core.prims.rng_bit_generator import rng_bit_generator
from core.prng_key import PRNGKeyArray
from core.trace import get_aval

_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: np.dtype(np.uint64)}


# ---------------------------------------------------------------------------------------------
# The physical functions: on key data `uint32[*batch, words]`


def _words(data: Any, nb: int, shape: tuple[int, ...]) -> list[Any]:
    """The words of keys `data` (`uint32[*batch, words]`), broadcast to `(*batch, *shape)`."""
    batch = get_aval(data).shape[:nb]
    out = []
    for i in range(get_aval(data).shape[-1]):
        w = sh.reshape(ix.slice(data, (0,) * nb + (i,), (*batch, i + 1)), batch)
        out.append(sh.broadcast_in_dim(w, (*batch, *shape), tuple(range(nb))))
    return out


def _counters(data: Any, shape: tuple[int, ...]) -> list[Any]:
    """The row-major counters 0..size-1 of `shape` as 64-bit numbers (hi word, lo word), of
    shape `(*batch, *shape)` for keys `data` (`uint32[*batch, words]`)."""
    nb = get_aval(data).ndim - 1
    batch = get_aval(data).shape[:nb]
    size = math.prod(shape)
    if size >= 2**32:
        raise PRNGKeyError(f"random arrays of 2**32 or more elements are unsupported: {shape}")
    full = (*batch, *shape)
    lo = sh.reshape(sh.iota(dtypes.uint32, (size,)), shape)
    return [
        sh.full(full, 0, dtypes.uint32),
        sh.broadcast_in_dim(lo, full, tuple(range(nb, len(full)))),
    ]


def _hash_counters(data: Any, shape: tuple[int, ...]) -> list[Any]:
    """threefry2x32 of the row-major counters 0..size-1 of `shape` under each key of `data`
    (hi word, lo word), of shape `(*batch, *shape)`: JAX's partitionable Threefry."""
    nb = get_aval(data).ndim - 1
    return threefry2x32(*_words(data, nb, shape), *_counters(data, shape))


def stack_words(*words: Any) -> Any:
    """Words of one shape stacked along a new last axis: key data."""
    shape = get_aval(words[0]).shape
    return ix.concatenate([sh.reshape(w, (*shape, 1)) for w in words], len(shape))


def _threefry_seed(seeds: Any) -> Any:
    aval = get_aval(seeds)
    lo = sh.convert_element_type(seeds, dtypes.uint32)
    if aval.dtype.itemsize == 8:
        hi = sh.convert_element_type(ew.shift_right_logical(seeds, 32), dtypes.uint32)
    else:
        hi = sh.full(aval.shape, 0, dtypes.uint32)
    return stack_words(hi, lo)


def _threefry_split(data: Any, shape: tuple[int, ...]) -> Any:
    return stack_words(*_hash_counters(data, shape))


def _threefry_fold_in(data: Any, msgs: Any) -> Any:
    data, msgs = _broadcast_keys_msgs(data, msgs)
    k0, k1 = _words(data, get_aval(msgs).ndim, ())
    zero = sh.full(get_aval(msgs).shape, 0, dtypes.uint32)
    return stack_words(*threefry2x32(k0, k1, zero, msgs))


def _broadcast_keys_msgs(data: Any, msgs: Any) -> tuple[Any, Any]:
    """Keys `uint32[*k, w]` and messages `uint32[*m]` (`k` and `m` equal, or one of them
    empty: JAX's fold-in batches either) broadcast to one batch shape."""
    kshape, mshape = get_aval(data).shape[:-1], get_aval(msgs).shape
    shape = kshape or mshape
    return _to_batch(data, kshape, shape), _to_batch(msgs, mshape, shape)


def _to_batch(x: Any, batch: tuple[int, ...], shape: tuple[int, ...]) -> Any:
    """`x` of shape `(*batch, *rest)`, with `batch` empty or `shape`, as `(*shape, *rest)`."""
    if batch == shape:
        return x
    rest = get_aval(x).shape[len(batch) :]
    return sh.broadcast_in_dim(x, (*shape, *rest), tuple(range(len(shape), len(shape) + len(rest))))


def _threefry_bits(data: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    y0, y1 = _hash_counters(data, shape)
    return _join64(y0, y1) if bit_width == 64 else _narrow(ew.bitwise_xor(y0, y1), bit_width)


def _first_key(data: Any) -> Any:
    """The first key of `uint32[*batch, 4]` keys: XLA's bit generator takes one key, and JAX's
    batching of it (`lax.rng_bit_generator` under `vmap`) draws a batch of bits from the first
    key of the batch."""
    batch = get_aval(data).shape[:-1]
    first = ix.slice(data, (0,) * (len(batch) + 1), (*(1,) * len(batch), 4))
    return sh.reshape(first, (4,))


def _halves(data: Any) -> list[Any]:
    """The two threefry keys of 4-word keys."""
    batch = get_aval(data).shape[:-1]
    nb = len(batch)
    return [ix.slice(data, (0,) * nb + (i,), (*batch, i + 2)) for i in (0, 2)]


def _rbg_seed(seeds: Any) -> Any:
    half = _threefry_seed(seeds)
    return ix.concatenate([half, half], get_aval(half).ndim - 1)


def _rbg_split(data: Any, shape: tuple[int, ...]) -> Any:
    halves = [_threefry_split(h, shape) for h in _halves(data)]
    return ix.concatenate(halves, get_aval(halves[0]).ndim - 1)


def _rbg_fold_in(data: Any, msgs: Any) -> Any:
    data, msgs = _broadcast_keys_msgs(data, msgs)
    halves = [_threefry_fold_in(h, msgs) for h in _halves(data)]
    return ix.concatenate(halves, get_aval(halves[0]).ndim - 1)


def _rbg_bits(data: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    batch = get_aval(data).shape[:-1]
    return rng_bit_generator(_first_key(data), (*batch, *shape), dtype=_UINT[bit_width])[1]


def _unsafe_rbg_split(data: Any, shape: tuple[int, ...]) -> Any:
    # ten rows of XLA's bits per new key (JAX's "hash function"), every tenth kept
    batch = get_aval(data).shape[:-1]
    nb, size = len(batch), math.prod(shape)
    rows = rng_bit_generator(_first_key(data), (*batch, 10 * size, 4), dtype=dtypes.uint32)[1]
    rows = ix.slice(rows, (0,) * (nb + 2), (*batch, 10 * size, 4), (*(1,) * nb, 10, 1))
    return sh.reshape(rows, (*batch, *shape, 4))


def _unsafe_rbg_fold_in(data: Any, msgs: Any) -> Any:
    # the last of ten rows of XLA's bits from the message (batched messages: the first
    # message's bits, a row per message, as JAX's batching of the generator draws them)
    mshape = get_aval(msgs).shape
    seed = _rbg_seed(sh.reshape(ix.slice(msgs, (0,) * len(mshape), (1,) * len(mshape)), ()))
    bits = rng_bit_generator(seed, (*mshape, 10, 4), dtype=dtypes.uint32)[1]
    nm = len(mshape)
    last = sh.reshape(ix.slice(bits, (0,) * nm + (9, 0), (*mshape, 10, 4)), (*mshape, 4))
    kshape = get_aval(data).shape[:-1]
    shape = kshape or mshape
    return ew.bitwise_xor(_to_batch(data, kshape, shape), _to_batch(last, mshape, shape))


# ---------------------------------------------------------------------------------------------
# JAX's other counter-based implementations (`philox2x32`, `philox4x32`, `threefry4x32`): a
# hash of counter words under key words, written with elementwise primitives as JAX lowers it.
# Seeds are the words `(seed >> 32, seed & 0xFFFFFFFF)` hashed; a split hashes the counters of
# `shape`, a fold-in the message, and the bits the counters, each at its own counter words.

_PHILOX_MULTIPLIERS = {2: (0xD256D193,), 4: (0xD2511F53, 0xCD9E8D57)}
_PHILOX_WEYL = (0x9E3779B9, 0xBB67AE85)
_THREEFRY4_ROTATIONS = (
    (10, 26),
    (11, 21),
    (13, 27),
    (23, 5),
    (6, 20),
    (17, 11),
    (25, 10),
    (18, 20),
)


def _const(x: Any, value: int) -> Any:
    return ew.full_like(x, value)


def _philox(keys: list[Any], xs: list[Any]) -> list[Any]:
    """Random123's Philox (10 rounds) of counter words `xs` (2 or 4) under key words `keys`
    (1 or 2), all uint32 of one shape."""
    keys, xs = list(keys), list(xs)
    mults = _PHILOX_MULTIPLIERS[len(xs)]
    for rnd in range(10):
        if rnd:
            keys = [ew.add(k, _const(k, w)) for k, w in zip(keys, _PHILOX_WEYL)]
        # the products of the first word (and, of four, the third) with the multipliers
        lo, hi = [], []
        for x, m in zip(xs[::2], mults):
            lo.append(ew.mul(_const(x, m), x))
            hi.append(unsigned_mulhi(_const(x, m), x))
        if len(xs) == 2:
            xs = [ew.bitwise_xor(ew.bitwise_xor(hi[0], xs[1]), keys[0]), lo[0]]
        else:
            xs = [
                ew.bitwise_xor(ew.bitwise_xor(hi[1], xs[1]), keys[0]),
                lo[1],
                ew.bitwise_xor(ew.bitwise_xor(hi[0], xs[3]), keys[1]),
                lo[0],
            ]
    return xs


def _rotl(x: Any, r: int) -> Any:
    return ew.bitwise_or(
        ew.shift_left(x, _const(x, r)), ew.shift_right_logical(x, _const(x, 32 - r))
    )


def _threefry4x32(keys: list[Any], xs: list[Any]) -> list[Any]:
    """Random123's Threefry-4x32 (20 rounds) of counter words `xs` under key words `keys`
    (four of each, uint32 of one shape)."""
    parity = _const(keys[0], 0x1BD11BDA)
    for k in keys:
        parity = ew.bitwise_xor(parity, k)
    ks = [*keys, parity]
    x = [ew.add(a, k) for a, k in zip(xs, ks)]
    for rnd in range(20):
        r0, r1 = _THREEFRY4_ROTATIONS[rnd % 8]
        # even rounds mix (0, 1) and (2, 3), odd rounds (0, 3) and (2, 1)
        b, d = (1, 3) if rnd % 2 == 0 else (3, 1)
        x[0] = ew.add(x[0], x[b])
        x[b] = ew.bitwise_xor(_rotl(x[b], r0), x[0])
        x[2] = ew.add(x[2], x[d])
        x[d] = ew.bitwise_xor(_rotl(x[d], r1), x[2])
        if rnd % 4 == 3:
            i = rnd // 4
            x = [ew.add(a, ks[(j + 1 + i) % 5]) for j, a in enumerate(x)]
            x[3] = ew.add(x[3], _const(x[3], i + 1))
    return x


def _xor_all(words: list[Any]) -> Any:
    return functools.reduce(ew.bitwise_xor, words)


def _join64(hi: Any, lo: Any) -> Any:
    hi, lo = (sh.convert_element_type(w, _UINT[64]) for w in (hi, lo))
    return ew.bitwise_or(ew.shift_left(hi, 32), lo)


def _narrow(bits32: Any, bit_width: int) -> Any:
    return sh.convert_element_type(bits32, _UINT[bit_width])


class _Hashed(NamedTuple):
    """A key implementation from a hash (key words, counter words) -> output words: where the
    seed's words go (in the key, else at counter words 0 and 1), at which counter words a
    split's counters and the bits' counters go, and how many output words a key keeps."""

    hash: Callable
    key_words: int
    counter_words: int
    seed_in_key: bool
    split_at: int
    bits_at: int
    kept: int

    def _run(self, keys: list[Any], at: int, words: list[Any]) -> list[Any]:
        """The hash under `keys` of counters zero but `words` from counter word `at` on."""
        zero = sh.full(get_aval(words[0]).shape, 0, dtypes.uint32)
        xs = [zero] * at + list(words)
        xs += [zero] * (self.counter_words - len(xs))
        return self.hash(keys, xs)

    def seed(self, seeds: Any) -> Any:
        words = _words(_threefry_seed(seeds), get_aval(seeds).ndim, ())
        zero = sh.full(get_aval(seeds).shape, 0, dtypes.uint32)
        if self.seed_in_key:
            out = self._run(words + [zero] * (self.key_words - 2), 0, [zero])
        else:
            out = self._run([zero] * self.key_words, 0, words)
        return stack_words(*out[: self.kept])

    def split(self, data: Any, shape: tuple[int, ...]) -> Any:
        keys = _words(data, get_aval(data).ndim - 1, shape)
        return stack_words(*self._run(keys, self.split_at, _counters(data, shape))[: self.kept])

    def fold_in(self, data: Any, msgs: Any) -> Any:
        data, msgs = _broadcast_keys_msgs(data, msgs)
        keys = _words(data, get_aval(msgs).ndim, ())
        return stack_words(*self._run(keys, self.counter_words - 1, [msgs])[: self.kept])

    def hashed_bits(self, data: Any, shape: tuple[int, ...]) -> list[Any]:
        keys = _words(data, get_aval(data).ndim - 1, shape)
        return self._run(keys, self.bits_at, _counters(data, shape))


def _philox2x32_bits(data: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    y0, y1 = _PHILOX2.hashed_bits(data, shape)
    return _join64(y0, y1) if bit_width == 64 else _narrow(ew.bitwise_xor(y0, y1), bit_width)


def _philox4x32_bits(data: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    y = _PHILOX4.hashed_bits(data, shape)
    return _join64(y[0], y[1]) if bit_width == 64 else _narrow(_xor_all(y), bit_width)


def _threefry4x32_bits(data: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    y = _THREEFRY4.hashed_bits(data, shape)
    if bit_width == 64:
        return _join64(ew.bitwise_xor(y[0], y[2]), ew.bitwise_xor(y[1], y[3]))
    return _narrow(_xor_all(y), bit_width)


_PHILOX2 = _Hashed(_philox, 1, 2, False, 0, 0, 1)
_PHILOX4 = _Hashed(_philox, 2, 4, False, 2, 0, 2)
_THREEFRY4 = _Hashed(_threefry4x32, 4, 4, True, 2, 0, 4)


class PRNGImpl(NamedTuple):
    """A PRNG implementation (`jax.extend.random.PRNGImpl`): its key data's shape and its
    functions on key data. Printed as its tag (`random_seed[impl=fry]`)."""

    key_shape: tuple[int, ...]
    seed: Callable
    split: Callable
    random_bits: Callable
    fold_in: Callable
    name: str = "<unnamed>"
    tag: str = "?"

    def __str__(self) -> str:
        return self.tag

    def pprint(self) -> str:
        return self.tag


threefry_prng_impl = PRNGImpl(
    (2,), _threefry_seed, _threefry_split, _threefry_bits, _threefry_fold_in, "threefry2x32", "fry"
)
rbg_prng_impl = PRNGImpl((4,), _rbg_seed, _rbg_split, _rbg_bits, _rbg_fold_in, "rbg", "rbg")
unsafe_rbg_prng_impl = PRNGImpl(
    (4,), _rbg_seed, _unsafe_rbg_split, _rbg_bits, _unsafe_rbg_fold_in, "unsafe_rbg", "urbg"
)
philox2x32_prng_impl = PRNGImpl(
    (1,), _PHILOX2.seed, _PHILOX2.split, _philox2x32_bits, _PHILOX2.fold_in, "philox2x32", "phx2"
)
philox4x32_prng_impl = PRNGImpl(
    (2,), _PHILOX4.seed, _PHILOX4.split, _philox4x32_bits, _PHILOX4.fold_in, "philox4x32", "phx4"
)
threefry4x32_prng_impl = PRNGImpl(
    (4,),
    _THREEFRY4.seed,
    _THREEFRY4.split,
    _threefry4x32_bits,
    _THREEFRY4.fold_in,
    "threefry4x32",
    "fry4",
)
# By name (JAX's order), and by the tag of their key dtypes (`key<fry>`); `define_prng_impl`
# adds to both.
IMPLS = {
    i.name: i
    for i in (
        philox2x32_prng_impl,
        philox4x32_prng_impl,
        threefry_prng_impl,
        rbg_prng_impl,
        unsafe_rbg_prng_impl,
        threefry4x32_prng_impl,
    )
}
_BY_TAG = {i.tag: i for i in IMPLS.values()}


def key_dtype(impl: PRNGImpl) -> dtypes.KeyDType:
    """The key dtype of `impl`: `key<tag>`."""
    return dtypes.KeyDType(impl.tag, math.prod(impl.key_shape))


def impl_of(dtype: dtypes.KeyDType) -> PRNGImpl:
    """The implementation of key dtype `dtype`."""
    return _BY_TAG[dtype.tag]


def register_impl(impl: PRNGImpl) -> None:
    """Makes `impl` known by its name and tag (`define_prng_impl`)."""
    IMPLS[impl.name] = impl
    _BY_TAG[impl.tag] = impl
    prng_key.register_dtype(impl.name, key_dtype(impl))


for _impl in (philox2x32_prng_impl, philox4x32_prng_impl, threefry4x32_prng_impl):
    prng_key.register_dtype(_impl.name, key_dtype(_impl))


def is_key(aval: Any) -> bool:
    return type(getattr(aval, "dtype", None)) is dtypes.KeyDType


def physical_aval(aval: ShapedArray) -> ShapedArray:
    """The aval of the data of a key aval (others are their own)."""
    if not is_key(aval):
        return aval
    return ShapedArray((*aval.shape, *impl_of(aval.dtype).key_shape), dtypes.uint32)


# ---------------------------------------------------------------------------------------------
# The key primitives


def _key_aval(shape: tuple[int, ...], impl: PRNGImpl) -> ShapedArray:
    return ShapedArray(shape, key_dtype(impl))


def _check_keys(name: str, aval: ShapedArray) -> PRNGImpl:
    if not is_key(aval):
        raise PRNGKeyError(  # JAX's words (random_unwrap's), then the fix
            f"{name} takes key array operand, got {aval.str_short(short_dtypes=True)}\n"
            "Give it typed keys: random.wrap_key_data(data)."
        )
    return impl_of(aval.dtype)


def _seed_abstract_eval(seeds, *, impl):
    if seeds.dtype.kind not in "iu":
        raise PRNGKeyError(
            f"random_seed requires integer seeds, got {seeds.str_short(short_dtypes=True)}"
        )
    return _key_aval(seeds.shape, impl)


def _wrap_abstract_eval(data, *, impl):
    words = impl.key_shape
    if data.dtype != dtypes.uint32 or data.shape[data.ndim - len(words) :] != words:
        raise PRNGKeyError(
            f"random_wrap of {impl.name} keys requires uint32 data whose last axis has "
            f"{words[0]} words, got {data.str_short(short_dtypes=True)}"
        )
    return _key_aval(data.shape[: data.ndim - len(words)], impl)


def _unwrap_abstract_eval(keys):
    _check_keys("random_unwrap", keys)
    return physical_aval(keys)


def _bits_abstract_eval(keys, *, bit_width, shape):
    _check_keys("random_bits", keys)
    if bit_width not in _UINT:
        raise PRNGKeyError(f"random_bits requires a bit width of 8, 16, 32 or 64, got {bit_width}")
    return ShapedArray((*keys.shape, *shape), _UINT[bit_width])


def _split_abstract_eval(keys, *, shape):
    _check_keys("random_split", keys)
    return ShapedArray((*keys.shape, *shape), keys.dtype)


def _fold_in_abstract_eval(keys, msgs):
    _check_keys("random_fold_in", keys)
    if msgs.dtype != dtypes.uint32:
        raise PRNGKeyError(
            f"random_fold_in requires uint32 messages, got {msgs.str_short(short_dtypes=True)}"
        )
    if keys.shape != msgs.shape and msgs.shape != () and keys.shape != ():
        raise PRNGKeyError(
            "random_fold_in requires keys and messages of one shape, got "
            f"{keys.str_short(short_dtypes=True)} "
            f"and {msgs.str_short(short_dtypes=True)}"
        )
    return ShapedArray(keys.shape or msgs.shape, keys.dtype)


def _clone_abstract_eval(keys):
    _check_keys("random_clone", keys)
    return keys


def _bits_physical(avals, data, *, bit_width, shape):
    return impl_of(avals[0].dtype).random_bits(data, bit_width, shape)


def _fold_in_physical(avals, data, msgs):
    return impl_of(avals[0].dtype).fold_in(data, msgs)


random_seed_p = Primitive("random_seed")
random_wrap_p = Primitive("random_wrap")
random_unwrap_p = Primitive("random_unwrap")
random_bits_p = Primitive("random_bits")
random_split_p = Primitive("random_split")
random_fold_in_p = Primitive("random_fold_in")
random_clone_p = Primitive("random_clone")

# prim -> (abstract eval, physical rule (logical avals, *physical operands, **params))
_KEY_PRIMS = {
    random_seed_p: (_seed_abstract_eval, lambda avals, s, *, impl: impl.seed(s)),
    random_wrap_p: (_wrap_abstract_eval, lambda avals, d, *, impl: d),
    random_unwrap_p: (_unwrap_abstract_eval, lambda avals, d: d),
    random_bits_p: (_bits_abstract_eval, _bits_physical),
    random_split_p: (
        _split_abstract_eval,
        lambda avals, d, *, shape: impl_of(avals[0].dtype).split(d, shape),
    ),
    random_fold_in_p: (_fold_in_abstract_eval, _fold_in_physical),
    random_clone_p: (_clone_abstract_eval, lambda avals, d: d),
}


def _vectorized(prim):
    """JAX's `defvectorized` batching: the primitive maps over leading key (or seed) axes, so
    the batch axis stays where it is."""

    def rule(args, dims, **params):
        return prim.bind(*args, **params), dims[0]

    return rule


def _batch_at_front(prim):
    """Batching: the batched operands' batch axes moved to the front (an unbatched `fold_in`
    operand broadcast along it unless a scalar, which the primitive broadcasts), the primitive
    applied to the batch of keys."""

    def rule(args, dims, **params):
        size = batching.batch_size(args, dims)
        moved = [
            batching.moveaxis(a, d, 0, size) if d is not None or get_aval(a).shape else a
            for a, d in zip(args, dims)
        ]
        return prim.bind(*moved, **params), 0

    return rule


# ---------------------------------------------------------------------------------------------
# Physical rules of the shape primitives on keys: the data's word axes stay last


def _slice_physical(avals, data, *, start_indices, limit_indices, strides):
    n = len(physical_aval(avals[0]).shape) - avals[0].ndim
    w = physical_aval(avals[0]).shape[avals[0].ndim :]
    return ix.slice_p.bind(
        data,
        start_indices=(*start_indices, *(0,) * n),
        limit_indices=(*limit_indices, *w),
        strides=None if strides is None else (*strides, *(1,) * n),
    )


def _reshape_physical(avals, data, *, new_sizes, **params):
    w = physical_aval(avals[0]).shape[avals[0].ndim :]
    return sh.reshape_p.bind(data, new_sizes=(*new_sizes, *w), **params)


def _broadcast_physical(avals, data, *, shape, broadcast_dimensions, **params):
    w = physical_aval(avals[0]).shape[avals[0].ndim :]
    dims = (*broadcast_dimensions, *range(len(shape), len(shape) + len(w)))
    return sh.broadcast_in_dim_p.bind(data, shape=(*shape, *w), broadcast_dimensions=dims, **params)


def _transpose_physical(avals, data, *, permutation):
    nd = avals[0].ndim
    extra = range(nd, physical_aval(avals[0]).ndim)
    return sh.transpose_p.bind(data, permutation=(*permutation, *extra))


def _select_n_physical(avals, pred, *cases):
    out = physical_aval(avals[1])
    if avals[0].shape:
        pred = sh.broadcast_in_dim(pred, out.shape, tuple(range(avals[0].ndim)))
    return ew.select_n_p.bind(pred, *cases)


def _words_of(aval: ShapedArray) -> tuple[int, ...]:
    """The shape of one key's data (`(2,)` for threefry keys)."""
    return physical_aval(aval).shape[aval.ndim :]


def _dynamic_slice_physical(avals, data, *starts, slice_sizes):
    w = _words_of(avals[0])
    zeros = [np.zeros((), get_aval(starts[0]).dtype if starts else np.int32)] * len(w)
    return ds.dynamic_slice_p.bind(data, *starts, *zeros, slice_sizes=(*slice_sizes, *w))


def _dynamic_update_slice_physical(avals, data, update, *starts):
    zeros = [np.zeros((), get_aval(starts[0]).dtype if starts else np.int32)]
    return ds.dynamic_update_slice_p.bind(data, update, *starts, *zeros * len(_words_of(avals[0])))


def _gather_physical(avals, data, idx, *, dimension_numbers, slice_sizes, **params):
    # the words: a window axis of full size, the output's last
    w = _words_of(avals[0])
    rank = avals[1].ndim - 1 + len(dimension_numbers.offset_dims)
    offsets = (*dimension_numbers.offset_dims, *range(rank, rank + len(w)))
    return gather.gather_p.bind(
        data,
        idx,
        dimension_numbers=dimension_numbers._replace(offset_dims=offsets),
        slice_sizes=(*slice_sizes, *w),
        **params,
    )


def _scatter_physical(avals, data, idx, upd, *, dimension_numbers, **params):
    # the words: an update window axis of full size, the updates' last
    rank, w = avals[2].ndim, _words_of(avals[0])
    windows = (*dimension_numbers.update_window_dims, *range(rank, rank + len(w)))
    dn = dimension_numbers._replace(update_window_dims=windows)
    return gather.scatter_p.bind(data, idx, upd, dimension_numbers=dn, **params)


def _tile_physical(avals, data, *, reps):
    return ix.tile_p.bind(data, reps=(*reps, *(1,) * len(_words_of(avals[0]))))


def _compare_physical(prim: Primitive, reduce: Primitive) -> Callable:
    """`eq`/`ne` of keys: of their data, reduced over the word axes (all words equal)."""

    def rule(avals, x, y):
        big = max(avals, key=lambda a: a.ndim)  # a rank-0 operand broadcasts, as lax's does
        shape, nd = physical_aval(big).shape, big.ndim
        words = tuple(range(nd, len(shape)))
        x, y = (
            d if a.ndim == nd else sh.broadcast_in_dim(d, shape, words)
            for d, a in zip((x, y), avals)
        )
        return reduce.bind(prim.bind(x, y), axes=words)

    return rule


_PHYSICAL: dict[str, Callable] = {
    "slice": _slice_physical,
    "squeeze": lambda avals, d, *, dimensions: sh.squeeze_p.bind(d, dimensions=dimensions),
    "reshape": _reshape_physical,
    "broadcast_in_dim": _broadcast_physical,
    "transpose": _transpose_physical,
    "concatenate": lambda avals, *ds, dimension: ix.concatenate_p.bind(*ds, dimension=dimension),
    "select_n": _select_n_physical,
    "copy": lambda avals, d: d,
    "stack": lambda avals, *ds_, axis: ix.stack_p.bind(*ds_, axis=axis),
    "unstack": lambda avals, d, *, axis: ix.unstack_p.bind(d, axis=axis),
    "dynamic_slice": _dynamic_slice_physical,
    "dynamic_update_slice": _dynamic_update_slice_physical,
    "gather": _gather_physical,
    "scatter": _scatter_physical,
    "rev": lambda avals, d, *, dimensions: rv.rev_p.bind(d, dimensions=dimensions),
    "split": lambda avals, d, *, sizes, axis: ix.split_p.bind(d, sizes=sizes, axis=axis),
    "tile": _tile_physical,
    "eq": _compare_physical(ew.eq_p, red.reduce_and_p),
    "ne": _compare_physical(ew.ne_p, red.reduce_or_p),
}


def def_physical(prim: Primitive, rule: Callable) -> None:
    """Makes `prim` a primitive on keys defined outside this module (`random_gamma`): `rule`
    (logical avals, *physical operands, **params) computes it on the keys' data, eagerly
    (`eval_on_keys`) and under `jit`."""
    _PHYSICAL[prim.name] = rule
    prim.on_keys = True
    prim.def_impl(functools.partial(_impl, prim))


def def_physical_like(prim: Primitive) -> None:
    """Makes `prim`, defined outside this module, take keys as it takes their data (a value
    that passes through, as `device_put`'s)."""
    _PHYSICAL[prim.name] = lambda avals, *data, **params: prim.bind(*data, **params)


def touches_keys(eqn: Any) -> bool:
    """Whether an equation has a key operand or result."""
    return any(is_key(x.aval) for x in eqn.inputs) or any(is_key(v.aval) for v in eqn.outputs)


def physical(prim: Primitive, avals: list, args: list, params: dict) -> Any:
    """`prim` applied to the data of its key operands (`args`: physical values; `avals`: the
    operands' logical avals): the data of its results.

    Raises:
      KeyPhysicalRuleError: `prim` has no physical rule (partial: see the module docstring).
    """
    entry = _KEY_PRIMS.get(prim)
    rule = entry[1] if entry is not None else _PHYSICAL.get(prim.name)
    if rule is None and prim.higher_order:
        params = {k: _physical_param(v) for k, v in params.items()}
        return prim.bind(*args, **params)
    if rule is None:
        raise KeyPhysicalRuleError(
            f"{prim.name} does not accept key arrays "
            f"({', '.join(a.str_short(short_dtypes=True) for a in avals)})"
            " in numbax; apply it to random.key_data(keys) and wrap the result with "
            "random.wrap_key_data."
        )
    return rule(avals, *args, **params)


def has_keys(jaxpr: Jaxpr) -> bool:
    """Whether a jaxpr takes or returns keys."""
    return any(is_key(v.aval) for v in (*jaxpr.constvars, *jaxpr.invars, *jaxpr.outvars))


# jaxpr -> (its consts' ids, its physical jaxpr and consts): one physical jaxpr per jaxpr, so
# the caches keyed on jaxprs (compiled programs, eager control flow) hit on the next call
_physical_memo: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def physicalize(jaxpr: Jaxpr, consts: list = ()) -> tuple[Jaxpr, list]:
    """`jaxpr` on its keys' data: its key variables become their `uint32[..., words]` data and
    its equations on keys their physical rules (`run_physical`, traced on the data's avals).

    Args:
      jaxpr: the jaxpr (unchanged if it neither takes nor returns keys).
      consts: the values of its constvars (key arrays among them).

    Returns:
      The physical jaxpr and the values of its constvars.
    """
    if not has_keys(jaxpr):
        return jaxpr, list(consts)
    ids = tuple(map(id, consts))
    found = _physical_memo.get(jaxpr)
    if found is not None and found[0] == ids:
        return found[1], found[2]
    data = [c._base if isinstance(c, PRNGKeyArray) else c for c in consts]
    avals = [physical_aval(v.aval) for v in jaxpr.invars]
    out, out_consts = trace_to_jaxpr(lambda *xs: run_physical(jaxpr, data, xs), avals, dce=False)
    _physical_memo[jaxpr] = (ids, out, out_consts)
    return out, out_consts


def _physical_param(value: Any) -> Any:
    """A higher-order primitive's parameter with its jaxprs physical (`physicalize`)."""
    if isinstance(value, ClosedJaxpr):
        return ClosedJaxpr(*physicalize(value.jaxpr, value.consts))
    if isinstance(value, Jaxpr):
        out, consts = physicalize(value)
        if consts:
            raise AssertionError("the physical rules of a constvar-free jaxpr close over arrays")
        return out
    if isinstance(value, tuple) and any(isinstance(v, (Jaxpr, ClosedJaxpr)) for v in value):
        return tuple(_physical_param(v) for v in value)
    return value


def run_physical(jaxpr: Jaxpr, consts: list, args: list) -> list:
    """Runs `jaxpr` on physical values: its equations touching keys by their physical rules,
    the others bound as they are."""
    env: dict = dict(zip(jaxpr.constvars, consts))
    env.update(zip(jaxpr.invars, args, strict=True))
    read = lambda x: x.as_array() if isinstance(x, Literal) else env[x]  # noqa: E731
    for eqn in jaxpr.eqns:
        ins = [read(x) for x in eqn.inputs]
        if touches_keys(eqn):
            out = physical(eqn.prim, [x.aval for x in eqn.inputs], ins, eqn.params)
        else:
            out = eqn.prim.bind(*ins, **eqn.params)
        env.update(zip(eqn.outputs, out if eqn.prim.multiple_results else [out], strict=True))
    return [read(x) for x in jaxpr.outvars]


def eval_on_keys(prim: Primitive, args: tuple, params: dict, out_aval: Any) -> Any:
    """The eager evaluation of an equation touching keys (`core/trace.py`'s `EvalTrace`):
    its physical rule on the key arrays' data, its key results wrapped."""
    avals = [get_aval(a) for a in args]
    data = [a._base if isinstance(a, PRNGKeyArray) else a for a in args]
    out = physical(prim, avals, data, params)
    outs, out_avals = (out, out_aval) if prim.multiple_results else ([out], [out_aval])
    wrapped = [
        PRNGKeyArray(o, impl_of(a.dtype).name) if is_key(a) else o for o, a in zip(outs, out_avals)
    ]
    return wrapped if prim.multiple_results else wrapped[0]


def _impl(prim: Primitive, *args: Any, **params: Any) -> Any:
    """A key primitive on concrete key arrays (or data): `eval_on_keys`."""
    out_aval = prim.abstract_eval(*[get_aval(a) for a in args], **params)
    return eval_on_keys(prim, args, params, out_aval)


# JAX batches these with the batch axis at the front (`random_wrap`: data's axes end in the
# words; `random_fold_in`: keys and messages broadcast); the others are vectorized
_AT_FRONT = {random_wrap_p, random_fold_in_p}
for _prim, (_abstract_eval, _) in _KEY_PRIMS.items():
    _prim.on_keys = True
    _prim.def_impl(functools.partial(_impl, _prim))
    _prim.def_abstract_eval(_abstract_eval)
    _prim.def_batch(_batch_at_front(_prim) if _prim in _AT_FRONT else _vectorized(_prim))
    defjvp_zero(_prim)
trace.on_keys = eval_on_keys


# ---------------------------------------------------------------------------------------------
# uniform's multiply-add


def fma(a: Any, b: Any, c: Any) -> Any:
    """`a * b + c` rounded once, as XLA's CPU back end computes it (it contracts the multiply
    and add of `uniform`'s affine map into an FMA instruction): Dekker's exact product
    `a * b = p + e` and Knuth's exact sum `p + c = s + t`, then `s + (t + e)`.

    Every product here is exact by construction, so compilers contracting multiply-adds leave
    the result unchanged; it equals the fused result except in double-rounding cases (never
    seen on 230,000 JAX draws)."""
    nmant = dtypes.finfo(get_aval(a).dtype).nmant
    factor = float(2 ** ((nmant + 2) // 2) + 1)  # Veltkamp's splitter: halves of the mantissa

    def split(x):
        t = ew.mul(ew.full_like(x, factor), x)
        hi = ew.sub(t, ew.sub(t, x))
        return hi, ew.sub(x, hi)

    p = ew.mul(a, b)
    (ah, al), (bh, bl) = split(a), split(b)
    e = ew.add(ew.sub(ew.mul(ah, bh), p), ew.mul(ah, bl))
    e = ew.add(ew.add(e, ew.mul(al, bh)), ew.mul(al, bl))
    s = ew.add(p, c)
    bb = ew.sub(s, p)
    t = ew.add(ew.sub(p, ew.sub(s, bb)), ew.sub(c, bb))
    return ew.add(s, ew.add(t, e))


# ---------------------------------------------------------------------------------------------
# The functions binding them


def random_seed(seeds: Any, impl: PRNGImpl) -> Any:
    """Keys from integer seeds (`random_seed[impl=fry]`)."""
    return random_seed_p.bind(seeds, impl=impl)


def random_wrap(data: Any, impl: PRNGImpl) -> Any:
    """Keys over `uint32[..., words]` data (`random_wrap[impl=fry]`)."""
    return random_wrap_p.bind(data, impl=impl)


def random_unwrap(keys: Any) -> Any:
    """The `uint32[..., words]` data of keys."""
    return random_unwrap_p.bind(keys)


def random_bits(keys: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """Random unsigned integers of `bit_width` bits and shape `(*keys.shape, *shape)`."""
    return random_bits_p.bind(keys, bit_width=bit_width, shape=tuple(shape))


def random_split(keys: Any, shape: tuple[int, ...]) -> Any:
    """New keys, `shape` of them per key."""
    return random_split_p.bind(keys, shape=tuple(shape))


def random_fold_in(keys: Any, msgs: Any) -> Any:
    """New keys from keys and uint32 messages."""
    return random_fold_in_p.bind(keys, msgs)


def random_clone(keys: Any) -> Any:
    """The same keys (`jax.random.clone`)."""
    return random_clone_p.bind(keys)


def full_keys(shape: tuple[int, ...], fill_value: Any, dtype: dtypes.KeyDType) -> Any:
    """JAX's `full` of a key dtype (`jnp.zeros_like(keys)`, `jnp.full(shape, key)`): keys of
    `shape` over data broadcast from the key `fill_value`, or filled with the number
    `fill_value` in every word (`zeros_like` gives keys of data 0)."""
    impl = impl_of(dtype)
    shape = (*shape, *impl.key_shape)
    if is_key(get_aval(fill_value)):
        data = random_unwrap(fill_value)
        n = get_aval(data).ndim
        data = sh.broadcast_in_dim(data, shape, tuple(range(len(shape) - n, len(shape))))
    else:
        data = sh.full(shape, fill_value, dtypes.uint32)
    return random_wrap(data, impl)
