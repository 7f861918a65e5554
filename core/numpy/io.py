"""Input/output and printing: `load`, `save`, `savez`, `frombuffer`, `fromstring`, `fromiter`,
`fromfile`, `from_dlpack`, `array_str`, `array_repr`, `iterable` and numpy's print options.

As in JAX these delegate to numpy: data is read with numpy and turned into an array with
`asarray` (so float64/int64 data is canonicalized to 32 bits unless x64 is on), and arrays
are written/printed through their `__array__`. `fromiter` and `fromfile` raise, like JAX's,
because consuming an iterator (reading a file) is a side effect that transformations cannot
replay.
"""

from __future__ import annotations

import os
from typing import IO, Any

import numpy as np
from numpy import (  # noqa: F401  (re-exported unchanged, as jax.numpy does)
    array_str,
    get_printoptions,
    iterable,
    printoptions,
    save,
    savez,
    set_printoptions,
)

from core import dtypes
from core.array import Array
from core.errors import JaxRuntimeError
from core.numpy.creation import asarray


class ArrayImpl(np.ndarray):
    """A numpy view class named as JAX's concrete array class, which `numpy.array_repr`
    writes as the prefix of JAX arrays' representations (``ArrayImpl([1, 2], dtype=int32)``)."""


def array_repr(
    arr: Any,
    max_line_width: int | None = None,
    precision: int | None = None,
    suppress_small: bool | None = None,
) -> str:
    """`numpy.array_repr` of `arr`, an Array shown as JAX shows one (``ArrayImpl(...)``).

    Args:
      arr: an Array, numpy array or array-like.
      max_line_width: the line width to wrap at (numpy's print option by default).
      precision: the digits of floating-point values (numpy's print option by default).
      suppress_small: print values very close to zero as zero.

    Returns:
      The representation as a string.
    """
    if isinstance(arr, Array):
        arr = np.asarray(arr).view(ArrayImpl)
    return np.array_repr(arr, max_line_width, precision, suppress_small)


def load(file: IO[bytes] | str | os.PathLike[Any], *args: Any, **kwargs: Any) -> Any:
    """Loads `.npy`/`.npz` data with `numpy.load`; a single array becomes an Array.

    Args:
      file: a path or binary file object.
      *args: further positional arguments of `numpy.load`.
      **kwargs: further keyword arguments of `numpy.load` (e.g. `allow_pickle`).

    Returns:
      An Array for `.npy` data of a supported dtype; otherwise what `numpy.load` returns
      (an `NpzFile` for `.npz`, a numpy array for unsupported dtypes).
    """
    loaded = np.load(file, *args, **kwargs)
    if not isinstance(loaded, np.ndarray):  # an .npz archive, a pickled object
        return loaded
    # numpy writes bfloat16, a dtype it does not know, as 2-byte voids.
    data = loaded.view(dtypes.bfloat16) if loaded.dtype == "V2" else loaded
    try:
        return asarray(data)
    except TypeError:  # unsupported dtype (object, strings): numpy's array as it is
        return data


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0) -> Any:
    """A 1-D array read from the bytes of `buffer` (like `numpy.frombuffer`).

    Args:
      buffer: an object exposing the buffer interface (bytes, bytearray, memoryview...).
      dtype: the dtype of the data in the buffer (float64 by default; canonicalized after).
      count: the number of items to read (-1: all).
      offset: the byte offset to start from.

    Returns:
      The array.
    """
    return asarray(np.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def fromstring(string: str, dtype: Any = float, count: int = -1, *, sep: str) -> Any:
    """A 1-D array parsed from text separated by `sep` (like `numpy.fromstring`).

    Args:
      string: the text.
      dtype: the dtype of the values (float by default; canonicalized after).
      count: the number of items to read (-1: all).
      sep: the separator (required; the binary mode of numpy is deprecated).

    Returns:
      The array.
    """
    return asarray(np.fromstring(string, dtype=dtype, count=count, sep=sep))


def fromiter(*args: Any, **kwargs: Any) -> Any:
    """Not implemented, as in JAX: consuming an iterable is a side effect.

    Raises:
      NotImplementedError: always; use `jnp.asarray(np.fromiter(...))` outside transformations.
    """
    raise NotImplementedError(
        "jnp.fromiter() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromiter(...)) "
        "instead, although care should be taken if np.fromiter is used within a jax "
        "transformations because of its potential side-effect of consuming the iterable object; "
        "for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def fromfile(*args: Any, **kwargs: Any) -> Any:
    """Not provided, as in JAX (reading a file is a side effect transformations cannot
    replay): use `jnp.asarray(np.fromfile(...))`.

    Raises:
      NotImplementedError: always, with JAX's message.
    """
    raise NotImplementedError(
        "jnp.fromfile() is not implemented because it may be non-pure and thus unsafe for use "
        "with JIT and other JAX transformations. Consider using jnp.asarray(np.fromfile(...)) "
        "instead, although care should be taken if np.fromfile is used within a jax "
        "transformations because of its potential side-effect of consuming the file object; "
        "for more information see "
        "https://docs.jax.dev/en/latest/notebooks/Common_Gotchas_in_JAX.html#pure-functions"
    )


def from_dlpack(x: Any, /, *, device: Any = None, copy: bool | None = None) -> Any:
    """An array from an object exporting DLPack (`__dlpack__`: numpy, PyTorch CPU tensors...),
    as `jnp.from_dlpack`; its dtype is canonicalized (float64 -> float32 without x64).

    Args:
      x: the DLPack exporter.
      device: accepted for compatibility (numbax's arrays live in host memory).
      copy: False refuses a conversion that copies; True and None copy (numbax's arrays own
        their memory).

    Returns:
      the Array.

    Raises:
      TypeError: `x` does not implement the protocol.
      JaxRuntimeError: its strides are not a contiguous array's with permuted axes (as XLA's).
    """
    del device
    if not (hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__")):
        raise TypeError(
            "The array passed to from_dlpack must have __dlpack__ and __dlpack_device__ methods."
        )
    if copy is False:
        raise ValueError("from_dlpack with copy=False: numbax's arrays own their memory")
    value = np.from_dlpack(x)
    _check_compact(value)
    return asarray(np.array(value, copy=True))


def _check_compact(value: np.ndarray) -> None:
    """Raises JAX's error for a DLPack tensor whose strides are not those of a contiguous
    array with its axes permuted (a slice with a step, a reversed array, ...)."""
    if value.size == 0:
        return
    item = value.itemsize
    steps = [(s // item if s % item == 0 else -1, n) for s, n in zip(value.strides, value.shape)]
    expected = 1
    for step, n in sorted(p for p in steps if p[1] > 1):
        if step != expected:
            dims = ",".join(str(n) for n in value.shape)
            strides = ",".join(str(s // item) for s in value.strides)
            raise JaxRuntimeError(
                "UNIMPLEMENTED: Only DLPack tensors with trivial (compact) striding are "
                "supported; i.e., tensors whose striding represents a transposition of the "
                f"underlying buffer but not broadcasting. Dimensions were: [{dims}], strides "
                f"were [{strides}].\nPass a contiguous copy instead (np.ascontiguousarray(x), "
                "torch's x.contiguous())."
            )
        expected *= n
