"""Operators and methods of `Array` and `Tracer`, attached to `ArrayBase` (as JAX does).

Both concrete arrays and tracers get the same `+`, `@`, `x[idx]`, `.sum()`, `.reshape()`,
`.astype()`, `.at[...]`, so user code runs unchanged under every transformation.
"""

from __future__ import annotations

import numpy as np

from core import dtypes
from core.array_base import ArrayBase
from core.numpy import (
    _util,
    creation,
    linalg_ops,
    logic,
    lookup,
    nonzero,
    reductions,
    shapes,
    sorting,
    ufuncs,
)
from core.numpy import linalg_ops as lo
from core.numpy.indexing import AtIndexer, getitem
from core.numpy.selection import choose, compress
from core.placement import device_put
from core.prims import elementwise as ew
from core.prims.random_bits import bitcast_convert_type
from core.prims.rev import rev
from core.prng_key import PRNGKeyArray

# JAX's operators take these operands; these others raise TypeError; anything else gets
# NotImplemented, so Python tries the other operand's method (then `==` compares identities:
# `x == None` is False).
_ACCEPTED = (int, float, complex, np.generic, np.ndarray, ArrayBase, PRNGKeyArray)
_REJECTED = (list, tuple, set, dict)

_SYMBOLS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%",
    "pow": "**", "matmul": "@", "and": "&", "or": "|", "xor": "^", "divmod": "divmod()",
    "lshift": "<<", "rshift": ">>", "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">",
    "ge": ">=",
}  # fmt: skip


def _deferring(fn, name: str, swap: bool = False):
    """Operator `name` of `fn`, deferring to an operand JAX does not recognize (JAX's
    `_defer_to_unrecognized_arg`)."""

    def op(self, other):
        if hasattr(other, "__jax_array__"):
            other = other.__jax_array__()
        args = (other, self) if swap else (self, other)
        if isinstance(other, _ACCEPTED):
            return fn(*args)
        if type(other) in _REJECTED:  # exactly: a NamedTuple's own operators get their turn
            names = " and ".join(repr(type(a).__name__) for a in args)
            raise TypeError(f"unsupported operand type(s) for {_SYMBOLS[name]}: {names}")
        return NotImplemented

    return op


def _reshape(self, *shape, order="C"):
    if len(shape) == 1:  # one int or one sequence, as given (JAX's messages show it so)
        shape = shape[0]
    return shapes.reshape(self, shape, order)


def _transpose(self, *axes):
    if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
        axes = axes[0]
    return shapes.transpose(self, axes or None)


def _astype(self, dtype, copy=False, device=None):
    return logic.astype(self, dtype, copy=copy, device=device)


def _getitem(self, idx):
    return getitem(self, idx)


def _at(self):
    return AtIndexer(self)


_BINARY = {
    "add": ufuncs.add,
    "sub": ufuncs.subtract,
    "mul": ufuncs.multiply,
    "truediv": ufuncs.true_divide,
    "floordiv": ufuncs.floor_divide,
    "mod": ufuncs.remainder,
    "pow": ufuncs.power,
    "matmul": linalg_ops.matmul,
    "and": ufuncs.bitwise_and,
    "or": ufuncs.bitwise_or,
    "xor": ufuncs.bitwise_xor,
    "lshift": ufuncs.left_shift,  # (bools promote to ints, as JAX's `b << True`)
    "rshift": ufuncs.right_shift,
}


def _divmod(a, b):
    return ufuncs.floor_divide(a, b), ufuncs.remainder(a, b)


def install() -> None:
    """Attaches operators and methods to `ArrayBase` (idempotent); the operators to key arrays
    too, so eager keys raise the errors traced ones do (JAX's)."""
    binary = {**_BINARY, "divmod": _divmod}
    for cls in (ArrayBase, PRNGKeyArray):
        for name, fn in binary.items():
            setattr(cls, f"__{name}__", _deferring(fn, name))
            setattr(cls, f"__r{name}__", _deferring(fn, name, swap=True))
        cls.__eq__ = _deferring(ufuncs.equal, "eq")
        cls.__ne__ = _deferring(ufuncs.not_equal, "ne")
        cls.__lt__ = _deferring(ufuncs.less, "lt")
        cls.__le__ = _deferring(ufuncs.less_equal, "le")
        cls.__gt__ = _deferring(ufuncs.greater, "gt")
        cls.__ge__ = _deferring(ufuncs.greater_equal, "ge")
        cls.__neg__ = lambda self: ufuncs.negative(self)
        cls.__pos__ = lambda self: self
        cls.__abs__ = lambda self: ufuncs.abs(self)
        cls.__invert__ = lambda self: ufuncs.invert(self)
    PRNGKeyArray.traced_getitem = _getitem
    PRNGKeyArray.at = property(_at)
    ArrayBase.__getitem__ = _getitem
    ArrayBase.at = property(_at)
    ArrayBase.T = property(lambda self: shapes.transpose(self))
    ArrayBase.mT = property(lambda self: shapes.matrix_transpose(self))
    ArrayBase.reshape = _reshape
    ArrayBase.transpose = _transpose
    ArrayBase.astype = _astype
    ArrayBase.ravel = lambda self, order="C": shapes.ravel(self, order)
    ArrayBase.flatten = ArrayBase.ravel
    ArrayBase.squeeze = lambda self, axis=None: shapes.squeeze(self, axis)
    ArrayBase.swapaxes = PRNGKeyArray.swapaxes = lambda self, a, b: shapes.swapaxes(self, a, b)
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
    ArrayBase.clip = lambda self, min=None, max=None: ufuncs.clip(self, min, max)  # noqa: A002
    ArrayBase.dot = lambda self, b, *, precision=None, preferred_element_type=None: linalg_ops.dot(
        self, b, precision=precision, preferred_element_type=preferred_element_type
    )
    ArrayBase.copy = ArrayBase.__copy__ = lambda self: creation.copy(self)
    ArrayBase.__deepcopy__ = lambda self, memo: creation.copy(self)  # a new buffer, as JAX's
    ArrayBase.__contains__ = _contains
    ArrayBase.conj = ArrayBase.conjugate = lambda self: ufuncs.conj(self)
    ArrayBase.real = property(lambda self: ufuncs.real(self))
    ArrayBase.__jax_array__ = lambda self: self
    _install_more()


def _install_more() -> None:
    ArrayBase.cumsum = reductions.cumsum
    ArrayBase.cumprod = reductions.cumprod
    ArrayBase.ptp = reductions.ptp
    ArrayBase.nonzero = lambda self, *, size=None, fill_value=None: nonzero.nonzero(
        self, size=size, fill_value=fill_value
    )
    ArrayBase.take = PRNGKeyArray.take = lookup.take
    ArrayBase.searchsorted = lookup.searchsorted
    ArrayBase.sort = lambda self, axis=-1, *, stable=True, descending=False: sorting.sort(
        self, axis, stable=stable, descending=descending
    )
    ArrayBase.argsort = lambda self, axis=-1, *, stable=True, descending=False: sorting.argsort(
        self, axis, stable=stable, descending=descending
    )
    ArrayBase.argpartition = lambda self, kth, axis=-1: sorting.argpartition(self, kth, axis)
    ArrayBase.diagonal = lo.diagonal
    ArrayBase.trace = lo.trace
    ArrayBase.repeat = lambda self, repeats, axis=None, *, total_repeat_length=None: shapes.repeat(
        self, repeats, axis, total_repeat_length=total_repeat_length
    )
    ArrayBase.round = lambda self, decimals=0, out=None: ufuncs.round(self, decimals)
    ArrayBase.__round__ = _operator_round
    ArrayBase.compress = _compress
    ArrayBase.choose = _choose
    ArrayBase.imag = property(lambda self: ufuncs.imag(self))
    ArrayBase.to_device = _to_device
    ArrayBase.view = _view
    ArrayBase.byteswap = _byteswap


def _to_device(self, device, *, stream=None):
    """`x.to_device(device)`: a copy committed to `device` (a `Device` or a `Sharding`), as
    JAX's `device_put`; a `stream` is JAX's NotImplementedError."""
    if stream is not None:
        raise NotImplementedError(  # JAX's words, then the fix
            "stream argument of array.to_device()\nOmit it: numbax's devices have no streams."
        )
    return device_put(self, device)


def _operator_round(self, ndigits=None):
    """Python's `round(x[, ndigits])`, as JAX's: `jnp.round`, then an int array (not a Python
    int) when `ndigits` is None."""
    out = ufuncs.round(self, ndigits or 0)
    return out.astype(int) if ndigits is None else out


def _compress(self, condition, axis=None, *, size=None, fill_value=0, out=None):
    return compress(condition, self, axis, size=size, fill_value=fill_value, out=out)


def _contains(self, other):
    """`other in x`, JAX's: `x` 1-D and `other` a scalar, true when an element equals it."""
    if other is None or isinstance(other, str):
        raise TypeError(f"Array.__contains__: unsupported operand type {type(other)}.")
    _util.check_arraylike("Array.__contains__", other)
    query = _util.ensure_array(other)
    if self.ndim != 1:
        raise ValueError(
            f"Array.__contains__: search array must be one-dimensional, got arr.shape={self.shape}."
        )
    if query.ndim != 0:
        raise ValueError(
            f"Array.__contains__: query value must be a scalar, got query.shape={query.shape}"
        )
    return reductions.any(ufuncs.equal(self, query))


def _choose(self, choices, out=None, mode="raise"):
    return choose(self, choices, out, mode)


def _view(self, dtype=None, type=None):  # noqa: A002  (numpy's name)
    """`x.view(dtype)`, JAX's bitcast: the same bits as `dtype`, the last axis resized when the
    widths differ; bool counts as uint8, complex as pairs of floats."""
    if type is not None:
        raise NotImplementedError("`type` argument of array.view() is not supported.")
    if dtype is None:
        return self
    dtype = dtypes.canonicalize_dtype(np.dtype(dtype))
    bits_in, bits_out = dtypes.itemsize_bits(self.dtype), dtypes.itemsize_bits(dtype)
    if 4 in (bits_in, bits_out) and bits_in != bits_out and self.ndim:
        return _view_nibbles(self, dtype, bits_in == 4)
    n_in, n_out = self.dtype.itemsize, dtype.itemsize
    if self.ndim == 0:
        if n_in != n_out:
            raise ValueError("view() of a 0d array is only supported if the itemsize is unchanged.")
        return _view(self.reshape(1), dtype).reshape(())
    if (self.shape[-1] * n_in) % n_out:
        raise ValueError(
            "When changing to a larger dtype, its size must be a divisor of the total size in "
            "bytes of the last axis of the array."
        )
    if self.dtype == dtype:
        return self
    if self.dtype == np.bool_:
        return _view(self.astype(np.uint8), dtype)
    if self.dtype.kind == "c":
        pairs = shapes.stack([ufuncs.real(self), ufuncs.imag(self)], -1)
        return _view(pairs.reshape(*self.shape[:-1], 2 * self.shape[-1]), dtype)
    if dtype == np.bool_:
        return _view(self, np.uint8).astype(np.bool_)
    if dtype.kind == "c":
        out = _view(self, np.dtype(f"f{n_out // 2}"))
        return (out[..., 0::2] + 1j * out[..., 1::2]).astype(dtype)
    if n_in < n_out:
        out = self.reshape(*self.shape[:-1], self.shape[-1] * n_in // n_out, n_out // n_in)
        return bitcast_convert_type(out, dtype)
    out = bitcast_convert_type(self, dtype)
    return out.reshape(*self.shape[:-1], self.shape[-1] * n_in // n_out)


def _view_nibbles(x, dtype, packing):
    """`view` to or from a 4-bit dtype, as JAX's: two 4-bit values per byte, the first in the
    low half."""
    u8 = np.dtype(np.uint8)
    if packing:  # 4-bit values to bytes, then to `dtype`
        if x.shape[-1] % 2:
            raise ValueError(
                "When changing to a larger dtype, its size must be a divisor of the total size "
                "in bytes of the last axis of the array."
            )
        nibbles = ufuncs.bitwise_and(x.astype(u8), np.uint8(15))
        pairs = nibbles.reshape(*x.shape[:-1], x.shape[-1] // 2, 2)
        packed = ufuncs.bitwise_or(pairs[..., 0], ufuncs.left_shift(pairs[..., 1], np.uint8(4)))
        return _view(packed, dtype)
    b = _view(x, u8)
    halves = shapes.stack(
        [ufuncs.bitwise_and(b, np.uint8(15)), ufuncs.right_shift(b, np.uint8(4))], -1
    )
    nibbles = halves.reshape(*b.shape[:-1], 2 * b.shape[-1])
    if dtypes.kind(dtype) == "i":  # sign-extend the 4-bit two's complement
        nibbles = ufuncs.subtract(
            ufuncs.bitwise_xor(nibbles.astype(np.int8), np.int8(8)), np.int8(8)
        )
    return nibbles.astype(dtype)


def _byteswap(self):
    """`x.byteswap()`: each element's bytes reversed (JAX's takes no arguments: numpy's
    `inplace` is a TypeError, as in JAX)."""
    if self.dtype.kind == "c":
        # the parts swapped apart and put together by `complex` (no promotion of a weak 1j,
        # which strict promotion refuses)
        return ew.complex_p.bind(ufuncs.real(self).byteswap(), ufuncs.imag(self).byteswap())
    if self.dtype.itemsize == 1:
        return self.copy()
    swapped = rev(bitcast_convert_type(self, np.uint8), (self.ndim,))
    return bitcast_convert_type(swapped, self.dtype)


install()
