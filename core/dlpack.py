"""`jax.dlpack`: arrays from other libraries through the DLPack protocol.

``from_dlpack(x)`` takes any CPU array with ``__dlpack__`` and ``__dlpack_device__`` (a
PyTorch tensor, a numpy array, a CuPy array copied to the host first...) and gives a numbax
`Array`, with the dtype canonicalized as JAX does (float64 becomes float32 unless x64 is
enabled). The other way, `Array.__dlpack__` lets ``torch.from_dlpack(a)`` or
``np.from_dlpack(a)`` read a numbax array.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from core import numpy as jnp
from core.placement import device_put

__all__ = ["from_dlpack", "is_supported_dtype"]

_SUPPORTED = frozenset(
    np.dtype(d)
    for d in (
        np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
        np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
        ml_dtypes.bfloat16,
    )
)  # fmt: skip


def is_supported_dtype(dtype: Any) -> bool:
    """Whether DLPack can carry arrays of ``dtype`` (JAX's list).

    Args:
      dtype: a dtype-like.

    Returns:
      True for the bool, integer, float16/32/64, bfloat16 and complex dtypes.

    Raises:
      TypeError: for ``None``, as JAX.
    """
    if dtype is None:
        raise TypeError(f"Expected a string or dtype-like object; got {dtype=}")
    return np.dtype(dtype) in _SUPPORTED


def from_dlpack(external_array: Any, device: Any = None, copy: bool | None = None) -> Any:
    """A numbax array from an object implementing the DLPack protocol.

    Args:
      external_array: an array with ``__dlpack__`` and ``__dlpack_device__`` on the CPU.
      device: where to place the result (`core.device_put`'s argument), default the default
        device.
      copy: JAX's copy flag; numbax's arrays own their memory, so the values are always copied.

    Returns:
      An `Array`.

    Raises:
      TypeError: if ``external_array`` does not implement the protocol (JAX's message).
      JaxRuntimeError: if its strides are not a contiguous array's with permuted axes.
    """
    del copy
    out = jnp.from_dlpack(external_array)
    if device is not None:
        out = device_put(out, device)
    return out
