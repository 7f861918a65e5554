"""`core.numpy`: the `jax.numpy` API, written on the primitives (see `core/numpy/_util.py`)."""

import numpy as _np

from core import dtypes as _dtypes
from core.dtypes import (
    bool_, complex64, complex128, finfo, float16, float32, float64, iinfo, int8, int16, int32,
    int64, issubdtype, promote_types, result_type, uint8, uint16, uint32, uint64,
)
from core.array import Array as ndarray
from core.numpy import array_methods as _array_methods  # noqa: F401  (installs operators)
from core.numpy._util import broadcast_shapes, broadcast_to
from core.numpy.creation import (
    arange, array, asarray, copy, empty, empty_like, eye, full, full_like, identity, linspace,
    ones, ones_like, tri, zeros, zeros_like,
)
from core.numpy.linalg_ops import dot, inner, matmul, outer, tensordot, vdot
from core.numpy.reductions import (
    all, amax, amin, any, argmax, argmin, max, mean, min, prod, std, sum, var,
)
from core.numpy.shapes import (
    atleast_1d, atleast_2d, broadcast_arrays, concat, concatenate, expand_dims, matrix_transpose,
    moveaxis, ndim, permute_dims, ravel, reshape, shape, size, squeeze, stack, swapaxes, transpose,
)
from core.numpy.ufuncs import (
    abs, absolute, acos, acosh, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh,
    asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_invert, bitwise_not, bitwise_or,
    bitwise_xor, cbrt, ceil, cos, cosh, divide, equal, exp, exp2, expm1, float_power, floor,
    floor_divide, fmod, greater, greater_equal, invert, isfinite, isinf, isnan, less, less_equal,
    log, log1p, logaddexp, logical_and, logical_not, logical_or, logical_xor, maximum, minimum,
    mod, multiply, negative, not_equal, positive, power, reciprocal, remainder, sign, sin, sinh,
    sqrt, square, subtract, tan, tanh, true_divide,
)
from core.numpy.where import clip, where

bool = bool_  # noqa: A001
inf, nan, pi, e, euler_gamma = _np.inf, _np.nan, _np.pi, _np.e, _np.euler_gamma
newaxis = None
dtype = _np.dtype
floating, integer, inexact, number = _np.floating, _np.integer, _np.inexact, _np.number
signedinteger, unsignedinteger, complexfloating = (
    _np.signedinteger, _np.unsignedinteger, _np.complexfloating)
generic = _np.generic
