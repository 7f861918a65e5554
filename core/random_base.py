"""Keys, bits and the basic samplers of `core.random`: JAX's counter-based PRNG, bit for bit.

`key(seed)` returns a typed key array (shape (), dtype `key<fry>`: `core/prng_key.py`, whose
data is the key's `uint32[2]`), `PRNGKey(seed)` the raw `uint32[2]` data, as in JAX. Every
function takes either, and returns typed keys from typed ones. Inside, keys are key avals of
JAX's key primitives (a typed key as it is, raw data through `random_wrap`; then `random_bits`,
`random_split`, `random_fold_in`: `core/prims/prng.py`, which computes them with the
`threefry2x32` hash), so every function works under `jit`, `vmap` (e.g. over `split(key, n)`)
and `grad`, and the samplers JAX jits (`_normal`, `_normal_real`, `_uniform`, `_bernoulli`,
`_randint`, `_gumbel`, `_shuffle`) are `library_jit`s of JAX's names taking key avals, so
`make_jaxpr` prints JAX's nesting. Partial: the other samplers bind the key primitives without
JAX's nesting, and helpers shared with them take key avals or checked key data (`_as_keys`).

Bits follow JAX's default "partitionable" Threefry mode: element `i` of an array of shape `s`
hashes the 64-bit counter `i` as the word pair `(i >> 32, i & 0xFFFFFFFF)`, so
`split(key, n)[i] == fold_in(key, i)`. 32-bit samples are `y0 ^ y1`, 64-bit samples `y0 << 32 | y1`.
The samplers then use JAX's formulas (uniform from mantissa bits, normal by `erf_inv`, randint
from two words, permutation by sorting on fresh random keys, ...), so the same key gives the same
numbers as JAX. The other distributions (gamma family, Poisson, binomial, ...) are written on
these helpers in `core/random_distributions.py`; `core.random` re-exports both modules.

`key(seed, impl="rbg")` and `impl="unsafe_rbg"` keys are JAX's other implementations: `uint32[4]`
data, two threefry keys, whose bits are XLA's `lax.rng_bit_generator`; `rbg`
splits and folds in each half as threefry does, `unsafe_rbg` draws new keys from the bits.
Helpers get bare key data, whose implementation is the typed key's of the outermost
`core.random` call (`key_scope`); raw data outside one is threefry's, as in JAX.
"""

from __future__ import annotations

import contextvars
import math
import operator
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

import core.numpy as jnp
from core import dtypes
from core.array import Array
from core.config import config
from core.errors import (
    ArgumentOverflowError,
    BatchedKeyError,
    PRNGKeyError,
    RandomArgumentError,
    RandomArgumentTypeError,
    ShapeError,
    TypePromotionError,
)
from core.jit.library import library_jit, staging
from core.lax.composites import broadcast_to_rank, clz
from core.lax.composites import complex as lax_complex
from core.named_sharding import takes_out_sharding
from core.numpy._util import (
    broadcast_shapes,
    broadcast_to,
    canonical_shape,
    canonicalize_axis,
    ensure_array,
    promote_dtypes_inexact,
    promote_shapes,
)
from core.numpy.reductions import argmax
from core.numpy.ufuncs import clip
from core.prims import elementwise as ew
from core.prims import indexing as ix
from core.prims import prng, sorting
from core.prims import reductions as red
from core.prims import shapes as sh
from core.prims.gather import gather
from core.prims.random_bits import bitcast_convert_type
from core.prng_key import PRNGKeyArray
from core.trace import get_aval

__all__ = [
    "PRNGKey",
    "PRNGKeyArray",
    "bernoulli",
    "bits",
    "categorical",
    "choice",
    "exponential",
    "fold_in",
    "gumbel",
    "key",
    "key_data",
    "laplace",
    "logistic",
    "multivariate_normal",
    "normal",
    "orthogonal",
    "permutation",
    "rademacher",
    "randint",
    "split",
    "truncated_normal",
    "uniform",
    "wrap_key_data",
]

_UINT = {8: dtypes.uint8, 16: dtypes.uint16, 32: dtypes.uint32, 64: np.dtype(np.uint64)}

# ---------------------------------------------------------------------------------------------
# Keys


# The implementations (`core/prims/prng.py`), by name. `rbg` and `unsafe_rbg` keys are two
# threefry keys whose bits come from XLA's bit generator (`lax.rng_bit_generator`, Philox on
# CPU); `rbg` splits and folds in each half as threefry does, `unsafe_rbg` splits by drawing new
# keys from the bits.
_IMPLS = prng.IMPLS
# The implementation of the typed key a function of `core.random` runs on (`key_scope`): the
# keys it passes around internally, as bare data, are keys of that implementation (None
# outside one: `jax_default_prng_impl`'s, as is the program's raw key data).
_IMPL = contextvars.ContextVar("prng_impl", default=None)
# Whether a function of `core.random` is running (`key_scope`): the raw keys it passes to others
# are not the program's (`check_legacy_key`).
_IN_CALL = contextvars.ContextVar("random_call", default=False)


def key(seed: Any, *, impl: str | None = None, dtype: Any = None) -> PRNGKeyArray:
    """A typed PRNG key from an integer seed: shape (), dtype `key<fry>`, over the data
    `[seed >> 32, seed & 0xFFFFFFFF]` (`key_data`); for `impl="rbg"`/`"unsafe_rbg"`, dtype
    `key<rbg>`/`key<urbg>` over those words twice.

    Python ints are read as int64, then, without x64, wrapped to int32 as JAX does
    (`key_data(key(-1)) == [0, 4294967295]`, `key(2**32 + 5) == key(5)`).

    Args:
      seed: a Python int or an integer scalar array (may be traced).
      impl: None (the default, `jax_default_prng_impl`: `"threefry2x32"` unless set), an
        implementation's name (`"threefry2x32"`, `"threefry4x32"`, `"philox2x32"`,
        `"philox4x32"`, `"rbg"`, `"unsafe_rbg"`), or a key dtype.
      dtype: the key dtype (`key_dtype()`) or its implementation's name, instead of `impl`.

    Returns:
      The key array.

    Raises:
      RandomArgumentError: both `impl` and `dtype` are given.
    """
    if dtype is not None and impl is not None:
        raise RandomArgumentError(
            "Cannot specify both `impl` and `dtype` arguments to jax.random.key"
        )
    # The implementation is resolved (and checked) before the seed is read.
    chosen = _IMPLS[_check_impl(impl if dtype is None else dtype)]
    return prng.random_seed(_seed("key", seed), chosen)


def PRNGKey(seed: Any, *, impl: str | None = None) -> Any:  # noqa: N802  (JAX's name)
    """A raw PRNG key from an integer seed: the `uint32[2]` array `[seed >> 32, seed &
    0xFFFFFFFF]` (JAX's legacy keys; `key` makes a typed one); `uint32[4]`, those words twice,
    for `impl="rbg"`/`"unsafe_rbg"`; a typed key, as `key`'s, under `jax_enable_custom_prng`.

    Args:
      seed: a Python int or an integer scalar array (may be traced).
      impl: as in `key`.

    Returns:
      The key data, a `uint32[2]` (or `uint32[4]`) array.
    """
    impl = _IMPLS[_check_impl(impl)]
    keys = prng.random_seed(_seed("PRNGKey", seed), impl)
    return keys if config.enable_custom_prng else prng.random_unwrap(keys)


def _seed(ctor_name: str, seed: Any) -> Any:
    """The seed `ctor_name` (`key` or `PRNGKey`) takes, checked as JAX's: an integer scalar (a
    Python int as int64, int32 without x64)."""
    if typed(seed):
        raise PRNGKeyError(
            f"{ctor_name} accepts a scalar seed, but was given a PRNG key.\n"
            "Split or fold in the key instead (random.split(key), random.fold_in(key, i))."
        )
    shape = seed.aval.shape if hasattr(seed, "aval") else np.shape(seed)
    if shape:
        raise PRNGKeyError(
            f"{ctor_name} accepts a scalar seed, but was given an array of shape {shape} != (). "
            "Use jax.vmap for batching\nvmap the constructor to make a batch of keys "
            f"(vmap(random.{ctor_name})(seeds))."
        )
    if isinstance(seed, (bool, np.bool_)) or (
        not isinstance(seed, int) and getattr(seed, "dtype", np.dtype(float)).kind not in "iu"
    ):
        raise PRNGKeyError(
            f"PRNG key seed must be an integer; got {seed!r}\nGive an int, or an integer "
            "array (seed.astype(jnp.int32))."
        )
    if isinstance(seed, int):
        seed = Array(np.asarray(np.int64(seed), dtype=dtypes.canonicalize_dtype(np.int64)))
    offset = config.random_seed_offset  # JAX's jax_random_seed_offset: added to every seed
    return ew.add(seed, ew.full_like(seed, offset)) if offset else seed


def _check_impl(impl: Any) -> str:
    """The implementation's name from `impl`: None (threefry2x32), a name, a key dtype or a
    `PRNGImpl` (JAX takes any)."""
    if impl is None:
        return config.default_prng_impl
    if isinstance(impl, prng.PRNGImpl):  # JAX's implementation objects
        if _IMPLS.get(impl.name) != impl:
            prng.register_impl(impl)
        return impl.name
    name = prng.impl_of(impl).name if isinstance(impl, dtypes.KeyDType) else impl
    if not isinstance(name, str):
        raise RandomArgumentTypeError(
            f"unrecognized type {type(impl)} for specifying PRNG implementation.\nGive an "
            f"implementation's name ({', '.join(_IMPLS)}), a key dtype or a PRNGImpl."
        )
    if name not in _IMPLS:
        names = ", ".join(f'"{n}"' for n in _IMPLS)
        raise RandomArgumentError(
            f'unrecognized PRNG implementation "{impl}". Did you mean one of: {names}?'
        )
    return name


def key_data(keys: Any) -> Any:
    """The `uint32[..., 2]` data of a key array (of a raw key: the key itself).

    Args:
      keys: a typed key array or raw key data.

    Returns:
      The data, a `uint32[*keys.shape, 2]` array.
    """
    check_legacy_key("key_data", keys)
    keys = _check_key("key_data", keys, batched=True)
    return prng.random_unwrap(keys) if typed(keys) else keys


def wrap_key_data(
    key_bits_array: Any, *, impl: str | None = None, dtype: Any = None
) -> PRNGKeyArray:
    """A typed key array from its `uint32[..., words]` data.

    Args:
      key_bits_array: the data, a uint32 array whose last axis has the implementation's words
        (2 for threefry2x32, 4 for rbg and unsafe_rbg).
      impl: None (threefry2x32) or an implementation's name (see `key`).
      dtype: None or the key dtype (`key.dtype`, `key<fry>`), instead of `impl`.

    Returns:
      The key array, of shape `key_bits_array.shape[:-1]`.
    """
    if dtype is not None and impl is not None:
        raise RandomArgumentError(
            "Cannot specify both `impl` and `dtype` arguments to jax.random.wrap_key_data; "
            "give one."
        )
    name = _check_impl(impl if dtype is None else dtype)
    if typed(key_bits_array):
        raise PRNGKeyError(
            "wrap_key_data takes uint32 key data, but was given a key array; it is a key "
            "array already (key_data(keys) is its data)."
        )
    data = _check_data("wrap_key_data", ensure_array(key_bits_array), _words(name), name)
    return prng.random_wrap(data, _IMPLS[name])


def typed(key: Any) -> bool:
    """Whether `key` is a typed key array (or a traced one), not raw key data."""
    return type(getattr(key, "dtype", None)) is dtypes.KeyDType


def _typed_like(key: Any, keys: Any) -> Any:
    """New keys `keys` (a key aval) as `key` was given: typed, or as raw data."""
    return keys if typed(key) else prng.random_unwrap(keys)


def _words(name: str) -> int:
    return math.prod(_IMPLS[name].key_shape)


def _impl(key: Any) -> prng.PRNGImpl:
    """The implementation of `key`: a typed key's, else that of the `key_scope` (raw data)."""
    return prng.impl_of(key.dtype) if typed(key) else _IMPLS[scope_impl()]


def scope_impl() -> str:
    """The implementation of bare key data: the `key_scope`'s, else the default
    (`jax_default_prng_impl`)."""
    return _IMPL.get() or config.default_prng_impl


def _wrap(data: Any) -> Any:
    """Checked key data as key avals of the implementation in scope (2 words: threefry)."""
    impl = _IMPLS[scope_impl()]
    if get_aval(data).shape[-1] != math.prod(impl.key_shape):
        impl = _IMPLS["threefry2x32" if get_aval(data).shape[-1] == 2 else "rbg"]
    return prng.random_wrap(data, impl)


def _key_arg(name: str, key: Any) -> Any:
    """JAX's `_check_prng_key`: a single key (typed, or raw data in scope) as a key aval."""
    return _as_keys(_check_key(name, key))


def _as_keys(key: Any) -> Any:
    """A key aval from a key aval or checked key data (the helpers take either)."""
    return key if prng.is_key(get_aval(key)) else _wrap(key)


def _unstack_keys(keys: Any, num: int) -> list[Any]:
    """The `num` keys of a key array of shape `(num,)`, as JAX unpacks one (slice, squeeze)."""
    return [sh.squeeze(ix.slice(keys, (i,), (i + 1,), (1,)), (0,)) for i in range(num)]


def key_scope(key: Any) -> Any:
    """The context a `core.random` function runs in: on a typed key, bare key data inside it
    (the keys the function splits and passes on) is data of that key's implementation."""
    return _Scope(prng.impl_of(key.dtype).name if typed(key) else None)


def impl_scope(name: str) -> Any:
    """The context in which bare key data is data of implementation `name`."""
    return _Scope(name)


class _Scope:
    __slots__ = ("_call", "_impl", "_token")

    def __init__(self, impl: str | None) -> None:
        self._impl = impl

    def __enter__(self) -> None:
        self._token = _IMPL.set(self._impl) if self._impl else None
        self._call = _IN_CALL.set(True)

    def __exit__(self, *exc: Any) -> None:
        _IN_CALL.reset(self._call)
        if self._token is not None:
            _IMPL.reset(self._token)


def split(key: Any, num: int | Sequence[int] = 2) -> Any:
    """Splits a key into `num` new keys (an int or a shape): keys of shape `num` (typed keys
    from a typed key; from raw data, the data `uint32[*num, 2]`).

    `split(key, n)[i] == fold_in(key, i)` for threefry2x32 keys; an rbg key splits each of its
    two threefry halves so; an unsafe_rbg key takes every tenth row of XLA's random bits.
    """
    keys = _key_arg("split", key)
    # JAX's `operator.index` of each size: `split(key, 3.0)` is Python's TypeError
    shape = _shape(tuple(operator.index(n) for n in (num if isinstance(num, Sequence) else (num,))))
    return _typed_like(key, prng.random_split(keys, shape))


def fold_in(key: Any, data: Any) -> Any:
    """A new key from `key` and a 32-bit integer `data` (the hash of counter `[0, data]`; of
    each half of an rbg key; an unsafe_rbg key is xored with bits drawn from `data`)."""
    keys = _key_arg("fold_in", key)
    if isinstance(data, int):
        data = Array(np.asarray(data, dtype=dtypes.uint32))  # raises OverflowError like JAX
    data = sh.convert_element_type(ensure_array(data), dtypes.uint32)
    if get_aval(data).shape:
        raise PRNGKeyError(  # JAX's text, its missing space included
            f"fold_in accepts a scalar, but was given an array ofshape {get_aval(data).shape} "
            "!= (). Use jax.vmap for batching.\nMap over the data: "
            "vmap(lambda d: fold_in(key, d))(data)."
        )
    return _typed_like(key, prng.random_fold_in(keys, data))


def _check_key(name: str, key: Any, batched: bool = False) -> Any:
    """`key` checked: a typed key array (or traced keys) as it is, raw data (threefry's, or
    inside `key_scope` that implementation's) checked to be `uint32[..., words]`; a single key
    unless `batched`."""
    if typed(key):
        if not batched and get_aval(key).ndim != 0:
            raise BatchedKeyError(_batched_message(name, get_aval(key).shape))
        return key
    _check_arraylike(name, key)
    data = _check_data(name, ensure_array(key), _words(scope_impl()), None)
    if not batched and get_aval(data).ndim != 1:
        raise BatchedKeyError(_batched_message(name, get_aval(data).shape))
    return data


_LEGACY_KEY = (
    "Legacy uint32 key array passed as key to jax.random function. Please create keys using "
    'jax.random.key(). If use of a raw key array was intended, set jax_legacy_prng_key="allow".'
)


def check_legacy_key(name: str, key: Any) -> None:
    """JAX's answer to raw key data given to the `core.random` function `name` by the program
    (not by another `core.random` function) under `jax_legacy_prng_key` 'warn' (a UserWarning)
    or 'error' (ValueError); `clone` takes any key."""
    level = config.legacy_prng_key
    if level == "allow" or _IN_CALL.get() or name == "clone" or not hasattr(key, "dtype"):
        return
    if typed(key):
        return
    _check_data(name, ensure_array(key), _words(scope_impl()), None)  # JAX: invalid data first
    if level == "error":
        raise ValueError(_LEGACY_KEY)
    warnings.warn(_LEGACY_KEY, UserWarning, stacklevel=3)


def _check_arraylike(name: str, key: Any) -> None:
    """JAX's first checks of a raw key: an array (or a value with ``__jax_array__``), else a
    Python or numpy scalar (which has no key shape), else an unexpected type."""
    if hasattr(key, "shape") and hasattr(key, "dtype") or hasattr(key, "__jax_array__"):
        return
    fix = f"{name} requires a PRNG key: core.random.key(seed)."
    if np.isscalar(key):
        raise PRNGKeyError(
            "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, and "
            f"dtype attributes. Got {key}\n{fix}"
        )
    raise PRNGKeyError(f"unexpected PRNG key type {type(key)}\n{fix}")


def _batched_message(name: str, shape: tuple[int, ...]) -> str:
    """JAX's message for a batch of keys given to a function of one key, and the fix."""
    return (
        f"{name} accepts a single key, but was given a key array of shape {shape} != (). "
        f"Use jax.vmap for batching.\nMap over the keys: vmap(lambda k: {name}(k, ...))(keys)."
    )


def _check_data(name: str, data: Any, words: int, impl: str | None) -> Any:
    """`data`, checked to be `uint32[..., words]` key data (JAX's checks and first lines:
    rank, then the key shape, then the dtype)."""
    aval = get_aval(data)
    if aval.ndim == 0:
        problem = f"expected key_data.ndim >= 1; got ndim={aval.ndim}"
    elif aval.shape[-1] != words:
        problem = (
            f"expected key_data.shape to end with ({words},); got shape={aval.shape} for "
            f"impl={impl or 'threefry2x32'}"
        )
    elif aval.dtype != dtypes.uint32:
        problem = f"expected key_data.dtype = uint32; got dtype={aval.dtype}"
    else:
        return data
    what = f"{impl} key data is" if impl else "core.random.key(seed), or its data:"
    raise PRNGKeyError(
        f"JAX encountered invalid PRNG key data: {problem}\n{name} requires a PRNG key ({what} "
        f"a uint32 array of shape ({words},)), got {aval.str_short(short_dtypes=True)}."
    )


def _split_keys(key: Any, num: int = 2) -> list[Any]:
    """`split(key, num)` as a list of `num` keys."""
    keys = split(key, num)
    if typed(keys):
        return _unstack_keys(keys, num)
    words = get_aval(keys).shape[-1]
    return [sh.reshape(ix.slice(keys, (i, 0), (i + 1, words)), (words,)) for i in range(num)]


# ---------------------------------------------------------------------------------------------
# Bits and argument checks


@takes_out_sharding
def bits(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Uniform random bits as unsigned integers (uint32 by default; uint64 with x64).

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: uint8, uint16, uint32 or uint64.

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _check_key("bits", key)
    dt = _dtype_arg("bits", dtype, "u")
    return _random_bits(key, dt.itemsize * 8, _shape(shape))


def _random_bits(key: Any, bit_width: int, shape: tuple[int, ...]) -> Any:
    """Random bits from a key aval or checked key data."""
    return prng.random_bits(_as_keys(key), bit_width, shape)


def _shape(shape: Any) -> tuple[int, ...]:
    """A sampler's shape argument: JAX's canonical shape (concrete ints; an int is one axis),
    without negative sizes."""
    out = canonical_shape(shape)
    if any(d < 0 for d in out):
        raise ShapeError(  # JAX's text where a sampler broadcasts to the shape
            "Only non-negative indices are allowed when broadcasting static shapes, but got "
            f"shape {out}.\nA shape's sizes are counts of elements (0 or more)."
        )
    return out


def _sample_shape(shape: Any, *params: Any) -> tuple[int, ...]:
    """`shape`, or the broadcast of the parameters' shapes when `shape` is None."""
    if shape is None:
        return broadcast_shapes(*(get_aval(ensure_array(p)).shape for p in params))
    return _shape(shape)


# The dtype kinds a sampler's `dtype` argument may take: their default and name in errors.
_DTYPE_KINDS = {
    "f": (dtypes.default_float, "a float"),
    "fc": (dtypes.default_float, "a float or complex"),
    "iu": (dtypes.default_int, "an int"),
    "u": (dtypes.default_uint, "an unsigned int"),
}


def _dtype_arg(name: str, dtype: Any, kind: str = "f") -> np.dtype:
    """The `dtype` argument of sampler `name`, checked to be of `kind` (default if None)."""
    default, what = _DTYPE_KINDS[kind]
    dt = default() if dtype is None else dtypes.check_user_dtype(dtype)
    if dtypes.kind(dt) not in kind:
        raise RandomArgumentError(f"dtype argument to `{name}` must be {what} dtype, got {dt}")
    return dt


def _setup(
    name: str, key: Any, shape: Any, dtype: Any, *params: Any, kind: str = "f", cast: bool = True
) -> tuple[Any, ...]:
    """The arguments of float sampler `name`: its checked key, its sample shape (`shape`, or
    the broadcast of `params`' shapes when None), its dtype (of `kind`, see `_dtype_arg`) and
    `params` broadcast to the shape; with `cast`, JAX's check that every parameter converts to
    the dtype without losing precision (`_check_all_safe_to_cast`)."""
    key = _check_key(name, key)
    dtype = _dtype_arg(name, dtype, kind)
    params = tuple(ensure_array(p) for p in params)
    if shape is None:
        shape = _sample_shape(None, *params)
    else:
        shape = _shape(shape)
        _check_param_shape(name, shape, *(get_aval(p).shape for p in params))
    if cast:
        _check_safe_cast(name, dtype, params)
    return (key, shape, dtype, *(_param(p, dtype, shape, name) for p in params))


def _check_safe_cast(name: str, dtype: np.dtype, params: Sequence[Any]) -> None:
    """JAX's `_check_all_safe_to_cast`: each parameter's dtype is `dtype` or promotes to it
    (weak Python scalars do; a float32 array does not go to float16)."""
    for p in params:
        src = get_aval(p).dtype
        if src != dtype and dtypes.result_type(p, dtype) != dtype:
            raise TypePromotionError(
                f"In arguments to {name}, cannot safely cast argument of type {src} to {dtype}\n"
                f"Give the parameters in {dtype} (x.astype(jnp.{dtype})) or sample in {src}."
            )


def _param(x: Any, dtype: np.dtype, shape: tuple[int, ...], name: str) -> Any:
    """A distribution parameter converted to `dtype` and broadcast to the sample shape."""
    x = sh.convert_element_type(ensure_array(x), dtype)
    _check_param_shape(name, shape, get_aval(x).shape)
    return broadcast_to(x, shape)


# ---------------------------------------------------------------------------------------------
# Continuous distributions


@takes_out_sharding
def uniform(
    key: Any, shape: Sequence[int] = (), dtype: Any = None, minval: Any = 0.0, maxval: Any = 1.0
) -> Any:
    """Uniform floats in `[minval, maxval)`.

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: a float dtype (float32 by default, float64 with x64).
      minval: inclusive lower bound, broadcast-compatible with `shape`.
      maxval: exclusive upper bound, broadcast-compatible with `shape`.

    Returns:
      An array of `shape` and `dtype`.
    """
    key, dtype = _key_arg("uniform", key), _dtype_arg("uniform", dtype)
    return _uniform(key, _shape(shape), dtype, minval, maxval)


def _uniform(key: Any, shape: tuple[int, ...], dtype: np.dtype, minval: Any, maxval: Any) -> Any:
    """Uniform floats from a key (or checked key data), as JAX's `_uniform` (a nested
    `jit[name=_uniform]` when staged)."""
    span = broadcast_shapes(*(get_aval(ensure_array(b)).shape for b in (minval, maxval)))
    try:
        broadcast_shapes(shape, span)
    except ShapeError:  # JAX checks no shapes here: its `floats * (maxval - minval)` raises
        raise ShapeError(
            f"mul got incompatible shapes for broadcasting: {shape}, {span}.\n"
            "minval and maxval must broadcast to the sample shape."
        ) from None
    _check_param_shape("uniform", shape, span)
    return _uniform_jit(_as_keys(key), minval, maxval, shape=shape, dtype=dtype)


@library_jit(static_argnames=("shape", "dtype"), name="_uniform")
def _uniform_jit(key: Any, minval: Any, maxval: Any, shape: tuple, dtype: np.dtype) -> Any:
    # Random mantissa bits under the exponent of 1.0 give a float in [1, 2); minus 1 is [0, 1).
    minval, maxval = (sh.convert_element_type(x, dtype) for x in (minval, maxval))
    minval, maxval = (broadcast_to_rank(x, len(shape)) for x in (minval, maxval))
    # Like JAX, types with fewer than 8 mantissa bits (bfloat16) draw 8 random bits, not 16.
    finfo = dtypes.finfo(dtype)
    nbits = finfo.bits
    rng_bits = 8 if finfo.nmant < 8 else nbits
    uint = _UINT[nbits]
    raw = prng.random_bits(key, rng_bits, shape)
    if rng_bits != nbits:
        raw = sh.convert_element_type(raw, uint)
    one_bits = int(np.array(1.0, dtype).view(uint))
    float_bits = ew.bitwise_or(ew.shift_right_logical(raw, rng_bits - finfo.nmant), one_bits)
    floats = ew.sub(bitcast_convert_type(float_bits, dtype), 1.0)
    span = ew.sub(maxval, minval)
    # XLA's CPU back end computes `floats * span + minval` as one FMA (float32, float64); staged,
    # the program holds JAX's `mul` and `add`, which `jit` contracts (`core/jit/simplify.py`).
    if finfo.nmant < 16 or staging():  # float16/bfloat16: XLA rounds each step in the type
        out = ew.add(ew.mul(floats, span), minval)
        # JAX's `lax.reshape` to `shape` binds a reshape for a scalar (it skips equal shapes
        # only for arrays of rank 1 or more)
        return ew.max(minval, out if shape else sh.reshape_p.bind(out, new_sizes=()))
    return ew.max(minval, prng.fma(floats, span, minval))


def _check_param_shape(name: str, shape: tuple[int, ...], *pshapes: tuple[int, ...]) -> None:
    """JAX's `_check_shape`: the parameters' shapes broadcast (all at once, as JAX's message
    lists them) to exactly `shape`."""
    full = broadcast_shapes(shape, *pshapes)
    if full != shape:
        raise ShapeError(
            f"{name} parameter shapes must be broadcast-compatible with shape argument, and the "
            f"result of broadcasting the shapes must equal the shape argument, but got result "
            f"{full} for shape argument {shape}."
        )


def _int_bound(name: str, bound: Any) -> Any:
    """A `randint` bound as an array; a Python int out of its default dtype's range raises
    JAX's OverflowError (its jitted `randint` parsing the argument)."""
    try:
        return ensure_array(bound)
    except OverflowError:
        raise ArgumentOverflowError(
            "An overflow was encountered while parsing an argument to a jitted computation, "
            f"whose argument path is {name}. Got {type(bound)} with value {bound}\n"
            "Give the bound as an array of the sample dtype (jnp.uint32(...)) or in int32 range."
        ) from None


@takes_out_sharding
def normal(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard normal floats: `sqrt(2) * erf_inv(u)` with `u` uniform in `(-1, 1)`.

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: a float or complex dtype (float32 by default); complex draws are
        `(re + 1j * im) / sqrt(2)` of two real draws from the halves of `split(key)`, as JAX.

    Returns:
      An array of `shape` and `dtype`.
    """
    key, dtype = _key_arg("normal", key), _dtype_arg("normal", dtype, "fc")
    return _normal(key, _shape(shape), dtype)


@library_jit(static_argnums=(1, 2))
def _normal(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    key = _as_keys(key)
    if dtypes.kind(dtype) != "c":
        return _normal_real(key, shape, dtype)
    real = np.zeros((), dtype).real.dtype
    inv = real.type(1) / real.type(np.sqrt(2))  # XLA divides by the complex sqrt(2) this way
    halves = _unstack_keys(prng.random_split(key, (2,)), 2)
    re, im = (ew.mul(_normal_real(k, shape, real), inv) for k in halves)
    return lax_complex(re, im)


@library_jit(static_argnums=(1, 2))
def _normal_real(key: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    lo = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    u = _uniform(key, shape, dtype, lo, np.array(1.0, dtype))
    return ew.mul(np.array(np.sqrt(2), dtype), ew.erf_inv(u))


@takes_out_sharding
def truncated_normal(
    key: Any, lower: Any, upper: Any, shape: Sequence[int] | None = None, dtype: Any = None
) -> Any:
    """Standard normal floats truncated to the open interval `(lower, upper)`.

    Args:
      key: a PRNG key.
      lower: lower bound(s), broadcast-compatible with `shape`.
      upper: upper bound(s), broadcast-compatible with `shape`.
      shape: the result shape (default: the broadcast of the bounds' shapes).
      dtype: a float dtype (float32 by default).

    Returns:
      An array of `shape` and `dtype`.
    """
    key, shape, dtype, lower, upper = _setup(
        "truncated_normal", key, shape, dtype, lower, upper, cast=False
    )
    sqrt2 = float(np.sqrt(2).astype(dtype))
    a = ew.erf(ew.div(lower, sqrt2))
    b = ew.erf(ew.div(upper, sqrt2))
    out = ew.mul(ew.erf_inv(_uniform(key, shape, dtype, a, b)), sqrt2)
    # Keep rounding (or u == a) from landing on or outside the bounds.
    lo = _nextafter(ew.stop_gradient_prim(lower), up=True)
    hi = _nextafter(ew.stop_gradient_prim(upper), up=False)
    return ew.min(ew.max(out, lo), hi)


def _nextafter(x: Any, up: bool) -> Any:
    """The next float after `x` towards +inf (`up`) or -inf, from its bit pattern."""
    dt = get_aval(x).dtype
    uint = _UINT[dt.itemsize * 8]
    b = bitcast_convert_type(x, uint)
    zero = ew.full_like(x, 0.0)
    away = ew.gt(x, zero) if up else ew.lt(x, zero)  # moving away from zero: magnitude + 1
    stepped = ew.select_n(away, ew.sub(b, 1), ew.add(b, 1))
    tiniest = int(np.array(dtypes.finfo(dt).smallest_subnormal * (1 if up else -1), dt).view(uint))
    stepped = ew.select_n(ew.eq(x, zero), stepped, ew.full_like(b, tiniest))
    limit = ew.full_like(x, np.inf if up else -np.inf)
    fixed = ew.bitwise_or(ew.eq(x, limit), ew.ne(x, x))  # +-inf towards itself, NaN
    return ew.select_n(fixed, bitcast_convert_type(stepped, dt), x)


@takes_out_sharding
def gumbel(key: Any, shape: Sequence[int] = (), dtype: Any = None, mode: str | None = None) -> Any:
    """Standard Gumbel floats: `-log(-log(u))` with `u` uniform in `[tiny, 1)`.

    Args:
      key: a PRNG key.
      shape: the result shape.
      dtype: a float dtype (float32 by default).
      mode: how many random bits each sample uses: "low" (one uniform draw: float32 samples
        stop near 16), "high" (two: near 32) or "highest" (float32 only: 64 bits read as a
        fixed-point number; other dtypes take "high"); None reads the
        `jax_high_dynamic_range_gumbel` flag ("high" when set, else "low").

    Returns:
      An array of `shape` and `dtype`.
    """
    key, dtype = _key_arg("gumbel", key), _dtype_arg("gumbel", dtype)
    return _gumbel(key, _shape(shape), dtype, _gumbel_mode(mode))


def _gumbel_mode(mode: str | None) -> str:
    if mode is None:
        return "high" if config.high_dynamic_range_gumbel else "low"
    if mode not in ("highest", "high", "low"):
        raise RandomArgumentError(f"Must provide valid mode for gumbel got: {mode}")
    return mode


@library_jit(static_argnums=(1, 2, 3))
def _gumbel(key: Any, shape: tuple[int, ...], dtype: np.dtype, mode: str = "low") -> Any:
    finfo = dtypes.finfo(dtype)
    if mode == "highest" and dtype == np.float32:
        return _gumbel_highest(key, shape)
    if mode in ("high", "highest"):
        high, low = _pair(_uniform(key, (2, *shape), dtype, 0.0, 1.0), shape)
        fine = ew.add(
            ew.add(high, ew.mul(ew.full_like(low, 2.0**-finfo.nmant), low)), float(finfo.tiny)
        )
        x = ew.select_n(ew.ge(high, ew.full_like(high, 0.5)), fine, high)
        return ew.neg(ew.log(ew.neg(ew.log1p(ew.neg(x)))))
    key = _as_keys(key)  # by name, as JAX calls it (its operands print maxval first)
    u = _uniform_jit(key, minval=np.array(finfo.tiny, dtype), maxval=1.0, shape=shape, dtype=dtype)
    return ew.neg(ew.log(ew.neg(ew.log(u))))


def _gumbel_highest(key: Any, shape: tuple[int, ...]) -> Any:
    """float32 Gumbel samples from 64 random bits (JAX's `mode="highest"`): the bits as a
    fixed-point number `x` in (0, 1) (or `1 - x`), converted to float32 without losing the
    leading zeros, then `-log(-log1p(-x))` below 1/2 and `-log(-log(x))` above."""
    hi_bits, lo_bits = _pair(_random_bits(key, 32, (2, *shape)), shape)

    def c(value: int) -> Any:
        return ew.full_like(hi_bits, value)

    # 1 - bits in 64-bit fixed point: the complement plus one, with the carry into the high word
    neg_hi, neg_lo = ew.bitwise_not(hi_bits), ew.bitwise_not(lo_bits)
    carry = sh.convert_element_type(ew.eq(neg_lo, c(0xFFFFFFFF)), dtypes.uint32)
    neg_hi, neg_lo = ew.add(neg_hi, carry), ew.add(neg_lo, c(1))
    flip = ew.lt(hi_bits, c(1 << 31))
    hi = ew.select_n(flip, neg_hi, hi_bits)
    lo = ew.select_n(flip, neg_lo, lo_bits)
    hiclz, loclz = clz(hi), clz(lo)
    all_zero = ew.eq(hiclz, c(32))
    shifted_lo = ew.select_n(
        all_zero, ew.shift_right_logical(lo, ew.sub(c(32), hiclz)), ew.shift_left(lo, loclz)
    )
    mantissa = ew.bitwise_or(ew.shift_left(hi, hiclz), shifted_lo)
    mantissa = ew.bitwise_and(ew.shift_right_logical(mantissa, c(8)), c((1 << 23) - 1))
    zeros = ew.select_n(all_zero, hiclz, ew.add(loclz, c(32)))
    exp = ew.shift_left(ew.sub(c(126), zeros), c(23))
    exp = ew.bitwise_and(exp, c((1 << 30) - (1 << 22)))
    x = bitcast_convert_type(ew.bitwise_or(exp, mantissa), np.dtype(np.float32))
    below = ew.neg(ew.log(ew.neg(ew.log1p(ew.neg(x)))))
    above = ew.neg(ew.log(ew.neg(ew.log(x))))
    return ew.select_n(flip, above, below)


@takes_out_sharding
def exponential(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard exponential floats: `-log1p(-u)`."""
    key, shape, dtype = _setup("exponential", key, shape, dtype)
    u = _uniform(key, shape, dtype, 0.0, 1.0)
    return ew.neg(ew.log1p(ew.neg(u)))


@takes_out_sharding
def laplace(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard Laplace floats: `sign(u) * log1p(-|u|)` with `u` uniform in `(-1, 1)`."""
    key, shape, dtype = _setup("laplace", key, shape, dtype)
    u = _uniform(key, shape, dtype, -1.0 + float(dtypes.finfo(dtype).epsneg), 1.0)
    return ew.mul(ew.sign(u), ew.log1p(ew.neg(ew.abs(u))))


@takes_out_sharding
def logistic(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """Standard logistic floats: `log(u) - log1p(-u)`."""
    key, shape, dtype = _setup("logistic", key, shape, dtype)
    u = _uniform(key, shape, dtype, float(dtypes.finfo(dtype).tiny), 1.0)
    return ew.sub(ew.log(u), ew.log1p(ew.neg(u)))


@takes_out_sharding
def multivariate_normal(
    key: Any,
    mean: Any,
    cov: Any,
    shape: Sequence[int] | None = None,
    dtype: Any = None,
    method: str = "cholesky",
) -> Any:
    """Multivariate normal samples `mean + factor @ z`, with `factor @ factor.T = cov`.

    Args:
      key: a PRNG key.
      mean: mean vectors, shape `(..., n)`.
      cov: positive-definite covariances, shape `(..., n, n)` (may be traced).
      shape: the batch shape (default: the broadcast of the batch shapes of mean and cov).
      dtype: a float dtype (default: mean's, promoted to float).
      method: the factorization of `cov`: "cholesky" (default), "eigh" or "svd", as JAX.

    Returns:
      An array of shape `shape + (n,)`.
    """
    key = _check_key("multivariate_normal", key)
    if method not in ("svd", "eigh", "cholesky"):
        raise ValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    # As JAX: `cov` is factored in the promoted dtype of `mean` and `cov`; `dtype` is the
    # standard normal draws' (the result is their promoted sum: float16 draws of a float32
    # `cov` give float32 samples)
    mean, cov = promote_dtypes_inexact(mean, cov)
    dtype = _dtype_arg("multivariate_normal", get_aval(mean).dtype if dtype is None else dtype)
    mshape, cshape = get_aval(mean).shape, get_aval(cov).shape
    if not mshape or len(cshape) < 2 or cshape[-2:] != (mshape[-1], mshape[-1]):
        raise ShapeError(
            "multivariate_normal requires cov.shape == (..., n, n) for "
            f"n={mshape[-1] if mshape else 0}, "
            f"but got cov.shape == {cshape}.\nmean.shape is {mshape}: give mean (..., n) and cov "
            "(..., n, n)."
        )
    shape = broadcast_shapes(mshape[:-1], cshape[:-2]) if shape is None else _shape(shape)
    if method == "svd":
        u, s, _ = jnp.linalg.svd(cov)
        factor = u * jnp.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = jnp.linalg.eigh(cov)
        factor = v * jnp.sqrt(w[..., None, :])
    else:
        factor = jnp.linalg.cholesky(cov)
    z = _normal(key, (*shape, mshape[-1]), dtype)
    samples = jnp.einsum("...ij,...j->...i", factor, z)
    # broadcast explicitly: JAX samples with rank promotion allowed whatever the config says
    full = broadcast_shapes(mshape, get_aval(samples).shape)
    return jnp.broadcast_to(mean, full) + jnp.broadcast_to(samples, full)


@takes_out_sharding
def orthogonal(
    key: Any, n: int, shape: Sequence[int] = (), dtype: Any = None, m: int | None = None
) -> Any:
    """A random orthogonal `n x m` matrix (Haar measure), by QR of a normal matrix.

    Args:
      key: a PRNG key.
      n: rows.
      shape: leading batch shape.
      dtype: a float or complex dtype (float32 by default; complex: unitary).
      m: columns (default `n`).

    Returns:
      An array of shape `shape + (n, m)`.
    """
    key, shape, dtype = _setup("orthogonal", key, shape, dtype, kind="fc")
    m = n if m is None else int(m)
    n = int(n)
    q, r = jnp.linalg.qr(_normal(key, (*shape, max(n, m), min(n, m)), dtype))
    x = q * jnp.expand_dims(jnp.sign(jnp.diagonal(r, 0, -2, -1)), -2)
    return jnp.swapaxes(x, -1, -2) if n < m else x


# ---------------------------------------------------------------------------------------------
# Discrete distributions


@takes_out_sharding
def bernoulli(key: Any, p: Any = 0.5, shape: Sequence[int] | None = None, mode: str = "low") -> Any:
    """Booleans that are True with probability `p`: `uniform(key, shape, dtype(p)) < p`.

    Args:
      key: a PRNG key.
      p: probabilities (a float or float array), broadcast-compatible with `shape`.
      shape: the result shape (default `p`'s shape).
      mode: "low" (one uniform draw per sample: float32 probabilities below about 1e-7 come
        out wrong) or "high" (two draws, `u2 * 2**-nmant < p - u1`: right down to about
        1e-14).

    Returns:
      A bool array of `shape`.
    """
    if mode not in ("high", "low"):
        raise RandomArgumentError(f"got mode={mode!r}, expected 'high' or 'low'")
    key = _key_arg("bernoulli", key)
    p = ensure_array(p)
    dtype = get_aval(p).dtype
    if dtypes.kind(dtype) != "f":
        raise RandomArgumentError(
            f"bernoulli probability `p` must have a floating dtype, got {dtype}."
        )
    if shape is not None:
        shape = _shape(shape)
        _check_param_shape("bernoulli", shape, get_aval(p).shape)
    return _bernoulli(key, p, shape=shape, mode=mode)


@library_jit(static_argnames=("shape", "mode"))
def _bernoulli(key: Any, p: Any, shape: tuple[int, ...] | None, mode: str) -> Any:
    shape = get_aval(p).shape if shape is None else shape
    dtype = get_aval(p).dtype
    # `p` of a lower rank gets leading unit axes as jnp's `<` gives them ((4,) -> (1, 4)); a
    # scalar `p` stays as it is ('': JAX's rank-promotion check is not reported here)
    if mode == "low":
        u = _uniform(key, shape, dtype, 0.0, 1.0)
        return ew.lt(*promote_shapes("", [u, p], lax_shapes=True))
    u1, u2 = _pair(_uniform(key, (2, *shape), dtype, 0.0, 1.0), shape)
    u2 = ew.mul(u2, ew.full_like(u2, 2.0 ** -dtypes.finfo(dtype).nmant))
    return ew.lt(u2, ew.sub(*promote_shapes("", [p, u1], lax_shapes=True)))


def _pair(draws: Any, shape: tuple[int, ...]) -> tuple[Any, Any]:
    """The two halves of `draws` of shape `(2, *shape)`."""
    return tuple(sh.reshape(ix.slice_in_dim(draws, i, i + 1, axis=0), shape) for i in (0, 1))


@takes_out_sharding
def rademacher(key: Any, shape: Sequence[int] = (), dtype: Any = None) -> Any:
    """-1 or +1 with equal probability (int32 by default)."""
    key = _check_key("rademacher", key)
    dtype = dtypes.default_int() if dtype is None else dtypes.check_user_dtype(dtype)
    b = sh.convert_element_type(bernoulli(key, 0.5, _shape(shape)), dtype)
    return ew.sub(ew.mul(b, 2), 1)


@takes_out_sharding
def randint(key: Any, shape: Sequence[int], minval: Any, maxval: Any, dtype: Any = None) -> Any:
    """Uniform integers in `[minval, maxval)` (JAX's two-word modulus method).

    Args:
      key: a PRNG key.
      shape: the result shape.
      minval: inclusive lower bound(s), broadcast-compatible with `shape`.
      maxval: exclusive upper bound(s); `maxval <= minval` gives `minval`.
      dtype: an integer dtype (int32 by default, int64 with x64).

    Returns:
      An array of `shape` and `dtype`.
    """
    key = _key_arg("randint", key)
    dtype = dtypes.default_int() if dtype is None else dtypes.check_user_dtype(dtype)
    if dtype.kind not in "iu":
        raise RandomArgumentTypeError(
            f"randint only accepts integer dtypes, got {dtype}\nSample integers (dtype=jnp.int32), "
            "then convert them (.astype(...))."
        )
    shape = _shape(shape)
    minval, maxval = (_int_bound(name, b) for name, b in (("minval", minval), ("maxval", maxval)))
    _check_param_shape("randint", shape, get_aval(minval).shape, get_aval(maxval).shape)
    info = np.iinfo(dtype)
    if info.bits >= 32:
        return _randint(key, minval, maxval, shape=shape, dtype=dtype)
    # Narrow types sample in int32 (less bias), then cast.
    i32 = dtypes.int32
    lo = clip(sh.convert_element_type(minval, i32), int(info.min), int(info.max))
    hi = clip(sh.convert_element_type(maxval, i32), int(info.min), int(info.max) + 1)
    return sh.convert_element_type(_randint(key, lo, hi, shape=shape, dtype=i32), dtype)


def _clip_convert(x: Any, dtype: np.dtype) -> Any:
    """Converts an integer array to `dtype`, saturating instead of wrapping (JAX's
    `_convert_and_clip_integer`)."""
    aval = get_aval(x)
    lo = max(int(np.iinfo(aval.dtype).min), int(np.iinfo(dtype).min))
    hi = min(int(np.iinfo(aval.dtype).max), int(np.iinfo(dtype).max))
    # JAX's `lax._const`: bounds of a weakly typed scalar are Python ints, else of its dtype
    const = int if aval.weak_type and not aval.shape else lambda v: np.array(v, aval.dtype)
    return sh.convert_element_type(clip(x, const(lo), const(hi)), dtype)


@library_jit(static_argnames=("shape", "dtype"))
def _randint(key: Any, minval: Any, maxval: Any, shape: tuple[int, ...], dtype: np.dtype) -> Any:
    default_int = dtypes.default_int()
    if get_aval(minval).dtype.kind not in "iu":
        minval = sh.convert_element_type(minval, default_int)
    if get_aval(maxval).dtype.kind not in "iu":
        maxval = sh.convert_element_type(maxval, default_int)
    # maxval above the dtype's range (e.g. 256 for uint8) widens the span by one.
    top = _clip_convert(Array(np.array(np.iinfo(dtype).max, dtype)), get_aval(maxval).dtype)
    out_of_range = ew.gt(maxval, top)
    minval, maxval = _clip_convert(minval, dtype), _clip_convert(maxval, dtype)
    minval, maxval = (broadcast_to_rank(x, len(shape)) for x in (minval, maxval))

    nbits = np.iinfo(dtype).bits
    k1, k2 = _unstack_keys(prng.random_split(key, (2,)), 2)
    higher, lower = prng.random_bits(k1, nbits, shape), prng.random_bits(k2, nbits, shape)
    unsigned = _UINT[nbits]
    span = sh.convert_element_type(ew.sub(maxval, minval), unsigned)
    span = ew.select_n(ew.le(maxval, minval), span, ew.full_like(span, 1))
    widen = ew.bitwise_and(out_of_range, ew.gt(maxval, minval))
    span = ew.select_n(widen, span, ew.add(span, np.array(1, unsigned)))
    # (hi * 2**nbits + lo) % span without overflow: 2**nbits % span == (2**(nbits/2) % span)**2.
    mult = ew.rem(np.array(2 ** (nbits // 2), unsigned), span)
    mult = ew.rem(ew.mul(mult, mult), span)
    offset = ew.add(ew.mul(ew.rem(higher, span), mult), ew.rem(lower, span))
    offset = ew.rem(offset, span)
    return ew.add(minval, sh.convert_element_type(offset, dtype))


@takes_out_sharding
def categorical(
    key: Any,
    logits: Any,
    axis: int = -1,
    shape: Sequence[int] | None = None,
    replace: bool = True,
    mode: str | None = None,
) -> Any:
    """Samples category indices from unnormalized log-probabilities: Gumbel-max with
    replacement, Gumbel top-k without.

    Args:
      key: a PRNG key.
      logits: log-probabilities (up to a constant) along `axis`.
      axis: the category axis.
      shape: the result shape; must end with the batch shape (logits' shape without `axis`).
      replace: sample with replacement (without: the leading dimensions of `shape` before
        the batch shape hold at most as many draws as there are categories).
      mode: the Gumbel sampler's mode (see `gumbel`).

    Returns:
      int32 indices of `shape`.
    """
    key = _key_arg("categorical", key)
    mode = _gumbel_mode(mode)
    logits = ensure_array(logits)
    lshape = get_aval(logits).shape
    ndim = len(lshape)
    axis = canonicalize_axis(axis, ndim)
    batch_shape = lshape[:axis] + lshape[axis + 1 :]
    shape = batch_shape if shape is None else _shape(shape)
    if broadcast_shapes(shape, batch_shape) != shape:
        raise ShapeError(
            f"categorical shape {shape} must end with the logits' batch shape {batch_shape}"
        )
    prefix = shape[: len(shape) - len(batch_shape)]
    dtype = get_aval(logits).dtype
    if dtypes.kind(dtype) != "f":
        dtype = dtypes.default_float()
        logits = sh.convert_element_type(logits, dtype)
    if not replace:
        return _categorical_without_replacement(key, logits, axis, shape, prefix, mode)
    sample_shape = (
        *prefix,
        *shape[len(prefix) : axis + len(prefix)],
        lshape[axis],
        *shape[axis + len(prefix) :],
    )
    g = _gumbel(key, sample_shape, dtype, mode)
    dims = tuple(range(len(prefix), len(sample_shape)))
    return argmax(
        ew.add(g, sh.broadcast_in_dim(logits, sample_shape, dims)), axis=axis + len(prefix)
    )


def _categorical_without_replacement(
    key: Any, logits: Any, axis: int, shape: tuple[int, ...], prefix: tuple[int, ...], mode: str
) -> Any:
    """JAX's Gumbel top-k: the `prod(prefix)` largest of `logits + gumbel` along `axis`, the
    draws' axis moved to the front and split into `prefix`."""
    lshape = get_aval(logits).shape
    k = math.prod(prefix)
    if k > lshape[axis]:
        raise RandomArgumentError(
            f"Number of samples without replacement ({k}) cannot exceed number of "
            f"categories ({lshape[axis]})."
        )
    perturbed = ew.add(logits, _gumbel(key, lshape, get_aval(logits).dtype, mode))
    _, indices = sorting.top_k(jnp.moveaxis(perturbed, axis, -1), k)
    ndim = get_aval(indices).ndim
    return sh.reshape(sh.transpose(indices, (ndim - 1, *range(ndim - 1))), shape)


@takes_out_sharding
def permutation(key: Any, x: Any, axis: int = 0, independent: bool = False) -> Any:
    """A random permutation of `arange(x)` (int `x`) or of `x` along `axis`.

    Like JAX, this sorts by fresh 32-bit random keys in `ceil(3 ln(n) / ln(2**32 - 1))` rounds
    (not Fisher-Yates), so results match `jax.random.permutation`.

    Args:
      key: a PRNG key.
      x: an int, or an array to shuffle.
      axis: the axis to shuffle along.
      independent: shuffle each slice along `axis` independently.

    Returns:
      The permuted array.
    """
    key = _key_arg("permutation", key)
    if _ndim(x) == 0:
        if not isinstance(x, (int, np.integer)) and get_aval(x).dtype.kind not in "iu":
            raise RandomArgumentTypeError(
                "x must be an integer or at least 1-dimensional\nGive the number of elements "
                "as an int (permutation(key, 5)) or an array to shuffle."
            )
        return _shuffle(key, sh.iota(dtypes.default_int(), (int(x),)), 0)
    x = ensure_array(x)
    axis = canonicalize_axis(axis, get_aval(x).ndim)
    if independent or get_aval(x).ndim == 1:
        return _shuffle(key, x, axis)
    ind = _shuffle(key, sh.iota(dtypes.default_int(), (get_aval(x).shape[axis],)), 0)
    return _take(x, ind, axis)


def _ndim(x: Any) -> int:
    aval = getattr(x, "aval", None)
    return np.ndim(x) if aval is None else aval.ndim


@library_jit(static_argnums=(2,))
def _shuffle(key: Any, x: Any, axis: int) -> Any:
    """`x` sorted along `axis` by fresh random keys of its shape, in rounds (JAX's)."""
    size = math.prod(get_aval(x).shape)
    rounds = int(np.ceil(3 * np.log(max(1, size)) / np.log(np.iinfo(np.uint32).max)))
    for _ in range(rounds):
        key, subkey = _unstack_keys(prng.random_split(key, (2,)), 2)
        sort_keys = prng.random_bits(subkey, 32, get_aval(x).shape)
        _, x = sorting.sort_key_val(sort_keys, x, axis)
    return x


def choice(
    key: Any,
    a: Any,
    shape: Sequence[int] = (),
    replace: bool = True,
    p: Any = None,
    axis: int = 0,
    mode: str | None = None,
) -> Any:
    """Random samples from `arange(a)` (int `a`) or from the slices of `a` along `axis`.

    Args:
      key: a PRNG key.
      a: an int, or an array to sample from.
      shape: the sample shape.
      replace: sample with replacement.
      p: probabilities of each entry (1-D, length `a` or `a.shape[axis]`); uniform if None.
      axis: the axis of `a` to sample along.
      mode: the Gumbel sampler's mode (see `gumbel`) for `p` without replacement.

    Returns:
      `shape` samples (for an array `a`: `a.shape[:axis] + shape + a.shape[axis+1:]`).
    """
    key = _check_key("choice", key)
    mode = _gumbel_mode(mode)
    if not isinstance(shape, Sequence):
        raise ShapeError(f"shape argument of choice must be a sequence, got {shape}")
    shape = _shape(shape)
    scalar = _ndim(a) == 0
    arr = None if scalar else ensure_array(a)
    if scalar:
        n_inputs = int(a)
    else:
        axis = canonicalize_axis(axis, get_aval(arr).ndim)
        n_inputs = get_aval(arr).shape[axis]
    n_draws = math.prod(shape)
    out_dtype = dtypes.default_int() if scalar else get_aval(arr).dtype
    if n_draws == 0:
        return sh.full(shape, 0, out_dtype)
    if n_inputs <= 0:
        raise RandomArgumentError("a must be greater than 0 unless no samples are taken")
    if not replace and n_draws > n_inputs:
        raise RandomArgumentError(
            f"Cannot take a larger sample (size {n_draws}) than population (size {n_inputs}) "
            "when 'replace=False'"
        )
    if p is None and not replace:
        perm = permutation(key, n_inputs if scalar else arr, axis)
        ashape = get_aval(perm).shape
        result = ix.slice_in_dim(perm, 0, n_draws, axis=axis)
        out_shape = shape if scalar else (*ashape[:axis], *shape, *ashape[axis + 1 :])
        return sh.reshape(result, out_shape)
    if p is None:
        ind = randint(key, shape, 0, n_inputs)
    else:
        p = ensure_array(p)
        if dtypes.kind(get_aval(p).dtype) != "f":
            p = sh.convert_element_type(p, dtypes.default_float())
        if get_aval(p).shape != (n_inputs,):
            raise ShapeError(
                "p must be None or a 1D vector with the same size as a.shape[axis]. "
                f"p has shape {get_aval(p).shape} and a.shape[axis] is {n_inputs}."
            )
        ind = _choice_p(key, p, shape, n_draws, replace, mode)
    if scalar:
        return ind
    return _take(arr, ind, axis)


def _choice_p(
    key: Any, p: Any, shape: tuple[int, ...], n_draws: int, replace: bool, mode: str
) -> Any:
    dtype = get_aval(p).dtype
    n = get_aval(p).shape[0]
    if replace:
        # searchsorted(cumsum(p), r): the number of cumulative sums below r.
        cuml = sorting.cumsum(p, 0)
        total = sh.reshape(ix.slice(cuml, (n - 1,), (n,)), ())
        u = _uniform(key, shape, dtype, 0.0, 1.0)
        r = ew.mul(sh.broadcast_in_dim(total, shape, ()), ew.sub(1.0, u))
        below = ew.lt(
            sh.broadcast_in_dim(cuml, (*shape, n), (len(shape),)),
            sh.broadcast_in_dim(r, (*shape, n), tuple(range(len(shape)))),
        )
        counts = red.reduce_sum(sh.convert_element_type(below, dtypes.default_int()), (len(shape),))
        return counts
    # Gumbel top-k: the k largest of gumbel + log(p) are a sample without replacement.
    g = ew.add(_gumbel(key, (n,), dtype, mode), ew.log(p))
    _, ind = sorting.top_k(g, n_draws)
    return sh.reshape(sh.convert_element_type(ind, dtypes.default_int()), shape)


def _take(arr: Any, ind: Any, axis: int) -> Any:
    """`arr` indexed along `axis` by in-bounds `ind` (result dims of `ind` replace `axis`)."""
    ishape = get_aval(ind).shape
    out = gather(arr, sh.reshape(ind, (*ishape, 1)), (axis,))
    # gather puts the index dims first; move them to `axis`.
    k = len(ishape)
    rest = get_aval(arr).ndim - 1
    perm = (*range(k, k + axis), *range(k), *range(k + axis, k + rest))
    return sh.transpose(out, perm)
