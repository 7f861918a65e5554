"""`jnp.float32` and friends: dtype objects that are also callable, as in JAX.

`jnp.float32(x)` makes a float32 array; everywhere a dtype is expected the object works as one
(numpy reads its `dtype` attribute), and it compares equal to the numpy dtype. numpy's aliases
(`float_`, `double`, `int_`, `uint`, `single`, `cdouble`, ...) are the same objects as the sized
types, as in JAX. `bfloat16` and the float8/float6/float4 types are `ml_dtypes`' (the types JAX
uses); the int2/int4 types of `ml_dtypes` are absent.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from core import dtypes
from core.numpy.creation import asarray


class ScalarType:
    """A numpy dtype that can be called to make an array of that dtype."""

    def __init__(self, np_type: Any, name: str | None = None):
        self.dtype = np.dtype(np_type)
        self.__name__ = name or self.dtype.name

    def __call__(self, x: Any) -> Any:
        return asarray(x, dtype=self.dtype)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScalarType):
            return self.dtype == other.dtype
        try:
            return self.dtype == np.dtype(other)
        except TypeError:
            return False

    def __hash__(self) -> int:
        # the numpy scalar type's hash, as JAX's: `{np.int64: ...}[jnp.int64]` finds the entry
        return hash(self.dtype.type)

    def __instancecheck__(self, instance: Any) -> bool:
        # `isinstance(np.float32(1), jnp.float32)`, as JAX's classes answer
        return isinstance(instance, self.dtype.type)

    def __getattr__(self, name: str) -> Any:
        if "dtype" not in self.__dict__:  # a half-built copy looking up a protocol method
            raise AttributeError(name)
        return getattr(self.__dict__["dtype"], name)

    def __copy__(self) -> ScalarType:
        return self  # one object per type, as JAX's classes

    def __deepcopy__(self, memo: dict) -> ScalarType:
        return self

    def __repr__(self) -> str:
        return f"<class 'core.numpy.{self.__name__}'>"


bool_ = ScalarType(np.bool_, "bool")
int8, int16, int32, int64 = (ScalarType(t) for t in (np.int8, np.int16, np.int32, np.int64))
uint8, uint16, uint32, uint64 = (ScalarType(t) for t in (np.uint8, np.uint16, np.uint32, np.uint64))
float16, float32, float64 = (ScalarType(t) for t in (np.float16, np.float32, np.float64))
complex64, complex128 = ScalarType(np.complex64), ScalarType(np.complex128)
bfloat16 = ScalarType(ml_dtypes.bfloat16)
float8_e3m4, float8_e4m3, float8_e4m3b11fnuz, float8_e4m3fn = (
    ScalarType(getattr(ml_dtypes, n)) for n in dtypes.SMALL_FLOAT_NAMES[:4]
)
float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, float8_e8m0fnu = (
    ScalarType(getattr(ml_dtypes, n)) for n in dtypes.SMALL_FLOAT_NAMES[4:8]
)
float6_e2m3fn, float6_e3m2fn, float4_e2m1fn = (
    ScalarType(getattr(ml_dtypes, n)) for n in dtypes.SMALL_FLOAT_NAMES[8:]
)
int1, int2, int4, uint1, uint2, uint4 = (
    ScalarType(getattr(ml_dtypes, n)) for n in dtypes.INTN_NAMES
)

# numpy's platform-style aliases, bound to the same objects as in JAX: `float_`/`double` are
# float64 and `int_` int64, so without x64 `jnp.float_(1)` canonicalizes to a float32 array.
float_ = double = float64
single = float32
int_ = int64
uint = uint64
complex_ = cdouble = complex128
csingle = complex64

# Abstract numpy types with no array counterpart, re-exported for `issubdtype` checks.
character, flexible, object_ = np.character, np.flexible, np.object_
ComplexWarning = np.exceptions.ComplexWarning
