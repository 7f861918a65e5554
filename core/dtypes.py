"""JAX's dtype rules: 32-bit defaults, weak types and the type-promotion lattice.

NumPy decides result dtypes by its own rules; JAX does not, and neither do we. Every value has a
dtype and a `weak_type` flag. Python scalars are weakly typed: they take the dtype of whatever they
meet (`f32 + 1.0 -> f32`, `i32 + 1.5 -> f32`). Promotion is the least upper bound in the lattice

    b1 -> i* -> u8 -> u16 -> u32 -> u64 -> f*      i* -> i8 -> i16 -> i32 -> i64 -> f*
    u8 -> i16, u16 -> i32, u32 -> i64              f* -> f16 -> f32 -> f64, f* -> c* -> c64 -> c128
    f* -> bf16 -> f32, f32 -> c64, f64 -> c128, f* -> each float8/float6/float4

where i*, f*, c* are the weak Python int/float/complex. Without x64 (`config.enable_x64`),
64-bit types are canonicalized to 32-bit ones.

The small floats of `ml_dtypes` (the float8 types, float6, float4) and its sub-byte integers
(int1/2/4, uint1/2/4) sit on the lattice with nothing above them, as in JAX: the small floats
mix with Python scalars, booleans and integers, the sub-byte integers with Python scalars and
booleans, but `float8 + float32`, `int4 + int8` (or two different such types) raise
`TypePromotionError`, and the program casts explicitly. bfloat16 and these types are
`ml_dtypes`' (those JAX uses): numpy dtypes whose ufuncs work (floats computing in float32 and
rounding once, as XLA does; integers wrapping in their width) but whose numpy kind is 'V', so
kind checks go through `kind`, `is_float`, `is_integer` and `issubdtype`, which call
them floats and integers. numba cannot compile them: jit falls back to numpy.
"""

from __future__ import annotations

import functools
import warnings
from typing import Any

import ml_dtypes
import numpy as np

from core.config import config
from core.errors import ExplicitX64DtypeError, InvalidJaxTypeError, TypePromotionError

bool_ = np.dtype(np.bool_)
int8, int16, int32, int64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (np.dtype(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (np.dtype(t) for t in (np.float16, np.float32, np.float64))
bfloat16 = np.dtype(ml_dtypes.bfloat16)
complex64, complex128 = np.dtype(np.complex64), np.dtype(np.complex128)
# The small floats, in JAX's order: 8-bit (their names say exponent and mantissa bits, `fn` =
# finite (no infinities), `uz` = unsigned zero (one NaN, no -0)), then 6- and 4-bit ones.
FLOAT8_NAMES = (
    "float8_e3m4",
    "float8_e4m3",
    "float8_e4m3b11fnuz",
    "float8_e4m3fn",
    "float8_e4m3fnuz",
    "float8_e5m2",
    "float8_e5m2fnuz",
    "float8_e8m0fnu",
)
SMALL_FLOAT_NAMES = (*FLOAT8_NAMES, "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn")
SMALL_FLOATS = tuple(np.dtype(getattr(ml_dtypes, name)) for name in SMALL_FLOAT_NAMES)
# The sub-byte integers of `ml_dtypes` (JAX's int1/int2/int4 and unsigned ones): numpy dtypes of
# kind 'V' whose ufuncs compute and wrap in their own width. Like the small floats they sit on
# the lattice with nothing above them: they mix with Python scalars and booleans only.
INTN_NAMES = ("int1", "int2", "int4", "uint1", "uint2", "uint4")
INTN = tuple(np.dtype(getattr(ml_dtypes, name)) for name in INTN_NAMES)
_SIGNED_INTN = frozenset(INTN[:3])
float0 = np.dtype([("float0", np.void, 0)])  # tangent dtype of int/bool values (like JAX)


class extended(np.generic):  # noqa: N801  (JAX's name; a numpy scalar type, as in JAX)
    """The abstract scalar type of dtypes numpy does not have (`jax.dtypes.extended`)."""


class prng_key(extended):  # noqa: N801  (JAX's name)
    """The abstract scalar type of typed PRNG keys: `issubdtype(key.dtype, prng_key)`."""


class KeyDType:
    """The dtype of a typed key array, printed `key<tag>`: `key<fry>` for threefry2x32 keys,
    `key<rbg>`/`key<urbg>` for the `rbg`/`unsafe_rbg` ones, as in JAX.

    Not a numpy dtype: a key array's data is `uint32[..., words]` (`core/prng_key.py`).
    """

    type = prng_key
    kind = "V"

    def __init__(self, tag: str = "fry", words: int = 2) -> None:
        self.tag = tag
        self.name = f"key<{tag}>"
        self.itemsize = 4 * words

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeyDType) and other.tag == self.tag

    def __hash__(self) -> int:
        return hash((KeyDType, self.tag))


key_fry = KeyDType()
key_rbg = KeyDType("rbg", 4)
key_urbg = KeyDType("urbg", 4)

_SUPPORTED = {bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64}
_SUPPORTED |= {float16, bfloat16, float32, float64, complex64, complex128, *SMALL_FLOATS, *INTN}
_FLOATS = frozenset({float16, bfloat16, float32, float64, *SMALL_FLOATS})
# The float types of `ml_dtypes`: numpy calls them kind 'V' (or 'f'), not `np.floating`.
_ML_FLOATS = frozenset({bfloat16, *SMALL_FLOATS})
_ML_FLOAT_TYPES = frozenset(dt.type for dt in _ML_FLOATS)
_TO_32 = {int64: int32, uint64: uint32, float64: float32, complex128: complex64}

# The lattice: each node lists the nodes directly above it.
_LATTICE: dict[Any, list] = {
    bool_: ["i*"],
    "i*": [uint8, int8, *INTN],
    **{t: [] for t in INTN},
    uint8: [int16, uint16],
    uint16: [int32, uint32],
    uint32: [int64, uint64],
    uint64: ["f*"],
    int8: [int16],
    int16: [int32],
    int32: [int64],
    int64: ["f*"],
    "f*": [*SMALL_FLOATS, bfloat16, float16, "c*"],
    **{t: [] for t in SMALL_FLOATS},
    float16: [float32],
    bfloat16: [float32],
    float32: [float64, complex64],
    float64: [complex128],
    "c*": [complex64],
    complex64: [complex128],
    complex128: [],
}


def _upper_set(node, lattice: dict) -> frozenset:
    seen, todo = {node}, [node]
    while todo:
        for up in lattice[todo.pop()]:
            if up not in seen:
                seen.add(up)
                todo.append(up)
    return frozenset(seen)


_UPPER = {node: _upper_set(node, _LATTICE) for node in _LATTICE}
# `jax_numpy_dtype_promotion='strict'`: a weak type still meets any type of its kind or a
# higher one, two different strong types never meet.
_STRICT_LATTICE: dict[Any, list] = {
    "i*": ["f*", uint8, uint16, uint32, uint64, int8, int16, int32, int64, *INTN],
    "f*": ["c*", *_FLOATS],
    "c*": [complex64, complex128],
    **{t: [] for t in _SUPPORTED},
}
_STRICT_UPPER = {node: _upper_set(node, _STRICT_LATTICE) for node in _STRICT_LATTICE}
FLOAT8 = frozenset(SMALL_FLOATS[: len(FLOAT8_NAMES)])
_FLOAT6 = frozenset(SMALL_FLOATS[len(FLOAT8_NAMES) : -1])


def x64_enabled() -> bool:
    """Whether 64-bit types are enabled (`config.enable_x64`)."""
    return config.enable_x64


def default_float() -> np.dtype:
    return float64 if config.enable_x64 else float32


def default_int() -> np.dtype:
    return int64 if config.enable_x64 else int32


def default_uint() -> np.dtype:
    return uint64 if config.enable_x64 else uint32


def default_complex() -> np.dtype:
    return complex128 if config.enable_x64 else complex64


def canonicalize_dtype(dtype: Any) -> np.dtype:
    """Returns the dtype values of `dtype` really have: 64-bit types become 32-bit without x64;
    a key dtype (`key<fry>`) is its own, as JAX's extended dtypes.

    Raises:
      TypeError: for dtypes numbax does not support (strings, objects, int4...).
    """
    if type(dtype) is KeyDType:
        return dtype
    return _canonicalize(np.dtype(dtype), config.enable_x64)


def check_user_dtype(dtype: Any, fun_name: str | None = None) -> np.dtype:
    """`canonicalize_dtype` of a dtype a user asked for, with JAX's UserWarning when it is a
    64-bit type that x64 being off truncates (not Python's `int`/`float`/`complex`, which stand
    for the default dtypes).

    Args:
      dtype: the requested dtype.
      fun_name: the function it was requested in, named in the warning if given.

    Returns:
      The canonical dtype.
    """
    if getattr(dtype, "aval", None) is not None:  # a jax array or a tracer, as JAX refuses
        raise ValueError(
            "Passing an array as a dtype argument is no longer supported; instead of dtype=arr "
            "use dtype=arr.dtype."
        )
    if isinstance(dtype, np.ndarray):  # (numpy's error, which JAX's `np.dtype` call raises)
        raise TypeError("Cannot construct a dtype from an array")
    if fun_name and (_is_object_dtype(dtype) or _is_structured_dtype(dtype)):
        raise TypeError(
            f"JAX only supports number, bool, and string dtypes, got dtype {dtype} in {fun_name}"
        )
    dt = canonicalize_dtype(dtype)
    if type(dt) is KeyDType:
        return dt
    requested = np.dtype(dtype)
    if dt != requested and not any(dtype is t for t in (int, float, complex)):  # the defaults
        where = f"requested in {fun_name} " if fun_name else ""
        if config.explicit_x64_dtypes == "error":
            raise ExplicitX64DtypeError(  # JAX's words (its missing space too)
                f"Explicitly requested dtype {requested} {where}is not available. To enable more "
                "dtypes, set the jax_enable_x64 or allow_explicit_x64_dtypes configuration "
                "options.See https://github.com/jax-ml/jax#current-gotchas for more."
            )
        warnings.warn(
            f"Explicitly requested dtype {requested} {where}is not available, and will be "
            f"truncated to dtype {dt}. To enable more dtypes, set the jax_enable_x64 "
            "configuration option or the JAX_ENABLE_X64 shell environment variable. See "
            "https://github.com/jax-ml/jax#current-gotchas for more.",
            stacklevel=3,
        )
    return dt


def _is_object_dtype(dtype: Any) -> bool:
    """Whether `dtype` asks for numpy's object dtype (`object`, `np.object_`, 'O')."""
    if isinstance(dtype, np.dtype):
        return dtype.kind == "O"
    return dtype is object or dtype is np.object_ or dtype in ("O", "object")


def _is_structured_dtype(dtype: Any) -> bool:
    """Whether `dtype` is a numpy structured dtype (`[('a', '<i4'), ...]`)."""
    try:
        return np.dtype(dtype).fields is not None
    except TypeError:
        return False


@functools.cache
def _canonicalize(dt: np.dtype, x64: bool) -> np.dtype:
    if dt not in _SUPPORTED:
        raise TypeError(
            f"dtype {dt} is not supported by numbax; use one of bool, (u)int8/16/32/64, "
            "bfloat16, float16/32/64, complex64/128, a float8/float6/float4 type or "
            "(u)int1/2/4."
        )
    return dt if x64 else _TO_32.get(dt, dt)


def _node(dtype: np.dtype, weak: bool):
    if not weak:
        return dtype
    if dtype.kind in "iu" or dtype in INTN:  # (a weak int4 is a weak int, as in JAX)
        return "i*"
    if dtype in _FLOATS:
        return "f*"
    if dtype.kind == "c":
        return "c*"
    return dtype


def _node_to_dtype(node) -> tuple[np.dtype, bool]:
    if node == "i*":
        return default_int(), True
    if node == "f*":
        return default_float(), True
    if node == "c*":
        return default_complex(), True
    return canonicalize_dtype(node), False


_WEAK_NAMES = {"i*": "<class 'int'>", "f*": "<class 'float'>", "c*": "<class 'complex'>"}


def _join(a, b):
    """The least upper bound of two lattice nodes, in the promotion mode
    (`config.numpy_dtype_promotion`) in force."""
    return _join_in(a, b, config._strict_promotion)


@functools.cache
def _join_in(a, b, strict: bool):
    upper = _STRICT_UPPER if strict else _UPPER
    common = upper[a] & upper[b]
    for node in common:
        if upper[node] == common:
            return node
    names = tuple(_WEAK_NAMES.get(n, str(n)) for n in (a, b))  # type: ignore[call-overload]
    if strict:
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path when "
            "jax_numpy_dtype_promotion=strict. Try explicitly casting inputs to the desired "
            "output type, or set jax_numpy_dtype_promotion=standard."
        )
    if a in INTN or b in INTN:
        raise TypePromotionError(
            f"Input dtypes {names} have no available implicit dtype promotion path. To avoid "
            "unintended promotion, 1-bit, 2-bit and 4-bit integers do not support implicit "
            "promotion. If you'd like your inputs to be promoted to another type, you can do "
            "so explicitly using e.g. x.astype('int32')"
        )
    bits = 8 if a in FLOAT8 or b in FLOAT8 else 6 if {a, b} & _FLOAT6 else 4
    raise TypePromotionError(
        f"Input dtypes {names} have no available implicit dtype promotion path. To avoid "
        f"unintended promotion, {bits}-bit floats do not support implicit promotion. If you'd "
        "like your inputs to be promoted to another type, you can do so explicitly using e.g. "
        "x.astype('float32')"
    )  # only small floats have no common upper bound with other types


def promote_types(a: Any, b: Any) -> np.dtype:
    """The dtype of `a op b` for two strongly typed dtypes (like `jnp.promote_types`)."""
    node = _join(np.dtype(a), np.dtype(b))
    return _node_to_dtype(node)[0]


_WEAK_TO_64 = {"i*": int64, "f*": float64, "c*": complex128}


def join(a: np.dtype, b: np.dtype, a_weak: bool = False, b_weak: bool = False) -> np.dtype:
    """The least upper bound of two dtypes in JAX's promotion lattice, not canonicalized (as
    `jnp.promote_types`: a weak float is float64, int8 and uint64 join to float64, even
    without x64; only uint32 with a narrower signed integer, int64 with x64, is int32
    without it, as JAX's lattice then has no path from 32-bit inputs to a 64-bit type)."""
    node = _join(_node(a, a_weak), _node(b, b_weak))
    if node is int64 and not config.enable_x64 and not {a, b} & {int64, uint64}:
        return int32
    return _WEAK_TO_64.get(node, node)  # type: ignore[arg-type]


def is_weakly_typed(x: Any) -> bool:
    """Python scalars are weak; arrays carry their own `weak_type` flag."""
    t = type(x)
    if t in (int, float, complex):
        return True
    if t is bool:
        return False
    return getattr(x, "weak_type", False) is True


def python_scalar_dtype(x: Any) -> np.dtype:
    """The canonical dtype a Python scalar takes (weakly)."""
    t = type(x)
    if t is bool:
        return bool_
    if t is int:
        return default_int()
    if t is float:
        return default_float()
    if t is complex:
        return default_complex()
    raise TypeError(f"{x!r} is not a Python scalar")


def dtype_and_weak(x: Any) -> tuple[np.dtype, bool]:
    """Returns (dtype, weak_type) of any array-like value, with canonical dtypes."""
    if type(x) in (bool, int, float, complex):
        return python_scalar_dtype(x), type(x) is not bool
    aval = getattr(x, "aval", None)
    if aval is not None:
        return aval.dtype, aval.weak_type
    if hasattr(x, "weak_type") and isinstance(getattr(x, "dtype", None), np.dtype):
        return x.dtype, x.weak_type  # an abstract value (ShapedArray)
    if isinstance(x, (np.ndarray, np.generic)):
        if x.dtype.kind in "OUS":  # numpy's object and string arrays: no JAX values
            raise InvalidJaxTypeError(x)
        return canonicalize_dtype(x.dtype), False
    if isinstance(x, (list, tuple)):
        return canonicalize_dtype(np.asarray(x).dtype), False
    if hasattr(x, "__jax_array__"):  # a value that converts itself, as JAX takes it
        return dtype_and_weak(x.__jax_array__())
    raise InvalidJaxTypeError(x)


def _arg_dtype_and_weak(a: Any) -> tuple[Any, bool]:
    """The (dtype, weak_type) one argument of `result_type` stands for."""
    if a is int or a is float or a is complex:  # Python's types are weak, as their values
        return dtype_and_weak(a(0))
    if isinstance(a, (np.dtype, type, str)):
        return canonicalize_dtype(a), False
    if callable(a) and isinstance(getattr(a, "dtype", None), np.dtype):
        return canonicalize_dtype(a.dtype), False  # a scalar type (`jnp.bfloat16`)
    if type(a) is KeyDType:
        return a, False
    return dtype_and_weak(a)


def result_type_and_weak(*args: Any) -> tuple[np.dtype, bool]:
    """The promoted (dtype, weak_type) of values and dtypes, by JAX's lattice, with JAX's two
    shortcuts: one argument keeps its own dtype and weak type, and weakly typed arguments only
    join their dtypes (a weak int16 and a weak int8 give a weak int16, not the default int).
    Key dtypes (`key<fry>`) promote only with themselves (`TypePromotionError` otherwise)."""
    if not args:
        raise ValueError("at least one array or dtype is required")
    pairs = [_arg_dtype_and_weak(a) for a in args]
    if len(pairs) == 1:
        dt, weak = pairs[0]
    elif len({d for d, _ in pairs}) == 1 and not all(w for _, w in pairs):
        dt, weak = pairs[0][0], False
    elif all(w for _, w in pairs) and not config._strict_promotion:
        dt = functools.reduce(_join, [d for d, _ in pairs])
        dt, weak = canonicalize_dtype(dt), True
    else:
        node = None
        for d, w in pairs:
            n = _node(d, w)
            if node is None:
                node = n
            elif type(n) is KeyDType or type(node) is KeyDType:  # keys meet only their own
                bad = n if type(n) is KeyDType else node
                raise TypePromotionError(
                    f"dtype={bad} is not a valid dtype for JAX type promotion."
                )
            else:
                node = _join(node, n)
        if type(node) is KeyDType:
            return node, False
        dt, weak = _node_to_dtype(node)
    return dt, weak and dt != bool_


# JAX's private name (`jax._src.dtypes.lattice_result_type`), which programs import.
lattice_result_type = result_type_and_weak


def result_type(*args: Any, return_weak_type_flag: bool = False) -> Any:
    """`jax.dtypes.result_type`: the dtype of an operation combining `args`; a weakly typed
    result is the default dtype of its kind, and `None` stands for the default float.

    Args:
      *args: arrays, scalars, dtypes or scalar types.
      return_weak_type_flag: also return whether the result is weakly typed.

    Returns:
      The dtype, or `(dtype, weak_type)` with `return_weak_type_flag`.
    """
    dt, weak = result_type_and_weak(*(default_float() if a is None else a for a in args))
    if weak:  # the default dtype of its kind (a weak uint8 is uint32, a weak bfloat16 float32)
        dt = {"u": default_uint, "i": default_int, "f": default_float}.get(
            kind(dt), default_complex
        )()
    return (dt, weak) if return_weak_type_flag else dt


def _ml_float(x: Any) -> np.dtype | None:
    """The `ml_dtypes` float dtype `x` names (its scalar type, dtype, name or `jnp` type), or
    None."""
    if isinstance(x, type):
        return np.dtype(x) if x in _ML_FLOAT_TYPES else None
    if isinstance(x, str):
        return np.dtype(x) if x in _ML_FLOAT_NAMES else None
    dt = getattr(x, "dtype", x)
    return dt if isinstance(dt, np.dtype) and dt in _ML_FLOATS else None


_ML_FLOAT_NAMES = frozenset(dt.name for dt in _ML_FLOATS)


def issubdtype(arg1: Any, arg2: Any) -> bool:
    """`np.issubdtype`, with bfloat16 and the small floats subtypes of `np.floating` (and its
    parents), and the key dtype a subtype of `prng_key` and `extended` (and nothing else), as in
    JAX (and its argument names).

    Args:
      arg1: the dtype (or type) to test.
      arg2: the dtype, type or abstract class (`np.floating`...) it may be a subtype of.

    Returns:
      Whether `arg1` is a subtype of `arg2`.
    """
    a, b = arg1, arg2
    if isinstance(a, KeyDType) or a is prng_key or a is extended:
        a = a.type if isinstance(a, KeyDType) else a
        b = b.type if isinstance(b, KeyDType) else b
        return isinstance(b, type) and issubclass(a, b)
    if isinstance(b, KeyDType) or b is prng_key or b is extended:
        return False
    ml_a = _ml_float(a)
    if ml_a is not None:
        ml_b = _ml_float(b)
        if ml_b is not None:
            return ml_a == ml_b
        return isinstance(b, type) and np.issubdtype(np.floating, b)  # not `object`
    intn_a = _intn(a)
    if intn_a is not None:
        intn_b = _intn(b)
        if intn_b is not None:
            return intn_a == intn_b
        parent = np.signedinteger if intn_a in _SIGNED_INTN else np.unsignedinteger
        return isinstance(b, type) and np.issubdtype(parent, b)
    if _intn(b) is not None:
        return False
    return np.issubdtype(a, b)


_INTN_TYPES = frozenset(dt.type for dt in INTN)


def _intn(x: Any) -> np.dtype | None:
    """The sub-byte integer dtype `x` names (scalar type, dtype, name or `jnp` type), or None."""
    if isinstance(x, type):
        return np.dtype(x) if x in _INTN_TYPES else None
    if isinstance(x, str):
        return np.dtype(getattr(ml_dtypes, x)) if x in INTN_NAMES else None
    dt = getattr(x, "dtype", x)
    return dt if isinstance(dt, np.dtype) and dt in INTN else None


def kind(dtype: np.dtype) -> str:
    """numpy's one-letter `dtype.kind`, but "f" for the `ml_dtypes` floats (numpy says "V", as
    for structs)."""
    k = dtype.kind
    if k != "V":
        return k
    if dtype in _ML_FLOATS:
        return "f"
    if dtype in INTN:
        return "i" if dtype in _SIGNED_INTN else "u"
    return k


def is_ml_float(dtype: Any) -> bool:
    """Whether `dtype` is bfloat16 or a small float: numpy computes them through `ml_dtypes`,
    and reductions accumulate them in float32, as XLA does on the CPU."""
    return np.dtype(dtype) in _ML_FLOATS


def is_float(dtype: Any) -> bool:
    return np.dtype(dtype) in _FLOATS


def is_inexact(dtype: Any) -> bool:
    dt = np.dtype(dtype)
    return dt in _FLOATS or dt.kind == "c"


def is_integer(dtype: Any) -> bool:
    return kind(np.dtype(dtype)) in "iu"


def finfo(dtype: Any) -> np.finfo:
    """`jnp.finfo`: of the dtype as given, not canonicalized (`finfo(float)` and
    `finfo(jnp.float64)` describe float64 without x64, as in JAX); an array gives its dtype's;
    bfloat16's and the small floats' come from `ml_dtypes.finfo` (a `np.finfo` subclass)."""
    dt = dtype.dtype if isinstance(getattr(dtype, "dtype", None), np.dtype) else np.dtype(dtype)
    return ml_dtypes.finfo(dt) if dt in _ML_FLOATS else np.finfo(dt)


def iinfo(dtype: Any) -> np.iinfo:
    """`jnp.iinfo` (`ml_dtypes.iinfo`, as JAX's): of the dtype as given, not canonicalized
    (`iinfo(int)` and `iinfo(1)` describe int64), the sub-byte integers' included."""
    if isinstance(getattr(dtype, "dtype", None), np.dtype):
        dtype = dtype.dtype  # an array or a scalar type (`jnp.int16`)
    return ml_dtypes.iinfo(dtype)


def int_info(dtype: np.dtype) -> Any:
    """`np.iinfo` of a dtype as it is (not canonicalized), the sub-byte integers' included."""
    return ml_dtypes.iinfo(dtype) if dtype in INTN else np.iinfo(dtype)


def short_name(dtype: np.dtype) -> str:
    """JAX's short dtype names for printing: f32, i32, u8, bool, bf16, f8_e4m3fn, key<fry>..."""
    if isinstance(dtype, KeyDType):
        return dtype.name
    dt = np.dtype(dtype)
    if dt == bool_:
        return "bool"
    if dt == bfloat16:
        return "bf16"
    if dt in SMALL_FLOATS:
        return dt.name.replace("float", "f")
    if dt in INTN:
        return dt.name.replace("uint", "u").replace("int", "i")
    return {"f": "f", "i": "i", "u": "u", "c": "c"}[dt.kind] + str(dt.itemsize * 8)


def itemsize_bits(dtype: Any) -> int:
    """The bits one element of `dtype` takes (`jax.dtypes.itemsize_bits`): 6 for float6, 4 for
    float4, `8 * itemsize` otherwise (8 for bool)."""
    if dtype is None:  # (numpy reads None as float64)
        raise ValueError("dtype cannot be None.")
    dt = np.dtype(dtype)
    if dt in INTN:
        return ml_dtypes.iinfo(dt).bits
    return ml_dtypes.finfo(dt).bits if dt in SMALL_FLOATS else dt.itemsize * 8


def scalar_type_of(x: Any) -> type:
    """The Python scalar type of `x`'s dtype: bool, int, float or complex
    (`jax.dtypes.scalar_type_of`).

    Raises:
      TypeError: `x` has no such dtype.
    """
    if type(x) in (bool, int, float, complex):
        return type(x)
    dt = np.dtype(getattr(x, "dtype", x))
    if dt in _ML_FLOATS:
        return float
    for kinds, typ in (("b", bool), ("iu", int), ("f", float), ("c", complex)):
        if kind(dt) in kinds:
            return typ
    raise TypeError(f"Invalid scalar value {x}")
