"""Operators and methods of `Array` and `Tracer`, attached to `ArrayBase` (as JAX does).

Both concrete arrays and tracers get the same `+`, `@`, `x[idx]`, `.sum()`, `.reshape()`,
`.astype()`, `.at[...]`, so user code runs unchanged under every transformation.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from core.array_base import ArrayBase
from core.numpy import linalg_ops, reductions, shapes, ufuncs, where


def _swap(fn):
    return lambda self, other: fn(other, self)


def _forward(fn):
    return lambda self, other: fn(self, other)


def _reshape(self, *shape, order="C"):
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        shape = shape[0]
    return shapes.reshape(self, shape, order)


def _transpose(self, *axes):
    if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
        axes = axes[0]
    return shapes.transpose(self, axes or None)


def _astype(self, dtype, copy=False, device=None):
    from core import dtypes
    from core.prims import shapes as sh

    return sh.convert_element_type(self, dtypes.canonicalize_dtype(dtype))


def _getitem(self, idx):
    from core.numpy.indexing import getitem

    return getitem(self, idx)


def _at(self):
    from core.numpy.indexing import AtIndexer

    return AtIndexer(self)


_BINARY = {
    "add": ufuncs.add, "sub": ufuncs.subtract, "mul": ufuncs.multiply,
    "truediv": ufuncs.true_divide, "floordiv": ufuncs.floor_divide, "mod": ufuncs.remainder,
    "pow": ufuncs.power, "matmul": linalg_ops.matmul, "and": ufuncs.bitwise_and,
    "or": ufuncs.bitwise_or, "xor": ufuncs.bitwise_xor,
}


def _divmod(a, b):
    return ufuncs.floor_divide(a, b), ufuncs.remainder(a, b)


def _lshift(a, b):
    from core.prims import elementwise as ew
    from core.numpy._util import promote_args

    return ew.shift_left(*promote_args("left_shift", a, b))


def _rshift(a, b):
    from core.prims import elementwise as ew
    from core.numpy._util import promote_args

    x, y = promote_args("right_shift", a, b)
    if x.dtype.kind == "u":
        return ew.shift_right_logical(x, y)
    return ew.shift_right_arithmetic(x, y)


def install() -> None:
    """Attaches operators and methods to `ArrayBase` (idempotent)."""
    for name, fn in {**_BINARY, "divmod": _divmod, "lshift": _lshift, "rshift": _rshift}.items():
        setattr(ArrayBase, f"__{name}__", _forward(fn))
        setattr(ArrayBase, f"__r{name}__", _swap(fn))
    ArrayBase.__eq__ = _forward(ufuncs.equal)
    ArrayBase.__ne__ = _forward(ufuncs.not_equal)
    ArrayBase.__lt__ = _forward(ufuncs.less)
    ArrayBase.__le__ = _forward(ufuncs.less_equal)
    ArrayBase.__gt__ = _forward(ufuncs.greater)
    ArrayBase.__ge__ = _forward(ufuncs.greater_equal)
    ArrayBase.__neg__ = lambda self: ufuncs.negative(self)
    ArrayBase.__pos__ = lambda self: self
    ArrayBase.__abs__ = lambda self: ufuncs.abs(self)
    ArrayBase.__invert__ = lambda self: ufuncs.invert(self)
    ArrayBase.__getitem__ = _getitem
    ArrayBase.at = property(_at)
    ArrayBase.T = property(lambda self: shapes.transpose(self))
    ArrayBase.mT = property(lambda self: shapes.matrix_transpose(self))
    ArrayBase.reshape = _reshape
    ArrayBase.transpose = _transpose
    ArrayBase.astype = _astype
    ArrayBase.ravel = lambda self, order="C": shapes.ravel(self)
    ArrayBase.flatten = ArrayBase.ravel
    ArrayBase.squeeze = lambda self, axis=None: shapes.squeeze(self, axis)
    ArrayBase.swapaxes = lambda self, a, b: shapes.swapaxes(self, a, b)
    ArrayBase.sum = reductions.sum
    ArrayBase.prod = reductions.prod
    ArrayBase.max = reductions.max
    ArrayBase.min = reductions.min
    ArrayBase.mean = reductions.mean
    ArrayBase.var = reductions.var
    ArrayBase.std = reductions.std
    ArrayBase.any = reductions.any
    ArrayBase.all = reductions.all
    ArrayBase.argmax = reductions.argmax
    ArrayBase.argmin = reductions.argmin
    ArrayBase.clip = lambda self, min=None, max=None: where.clip(self, min, max)  # noqa: A002
    ArrayBase.dot = lambda self, b: linalg_ops.dot(self, b)
    ArrayBase.copy = lambda self: self
    ArrayBase.conj = ArrayBase.conjugate = lambda self: self
    ArrayBase.real = property(lambda self: self)
    ArrayBase.__jax_array__ = lambda self: self



install()
