"""`core.dlpack` (`jax.dlpack`): `from_dlpack` of numpy arrays and PyTorch tensors (when torch
is installed) gives JAX's values and canonical dtypes, numbax arrays go back out through
`__dlpack__`, `is_supported_dtype` is JAX's list, and JAX's TypeErrors."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import core
import core.numpy as jnp
from core import dlpack


def test_from_numpy_canonicalizes_as_jax():
    a = dlpack.from_dlpack(np.arange(3.0))  # JAX 0.10.2: Array([0., 1., 2.], dtype=float32)
    assert isinstance(a, core.Array)
    assert a.dtype == jnp.float32
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0])
    assert dlpack.from_dlpack(np.arange(3)).dtype == jnp.int32


def test_torch_round_trip():
    torch = pytest.importorskip("torch")
    a = dlpack.from_dlpack(torch.arange(4.0))  # JAX: Array([0., 1., 2., 3.], dtype=float32)
    np.testing.assert_array_equal(a, [0.0, 1.0, 2.0, 3.0])
    back = torch.from_dlpack(jnp.arange(3.0) * 2)
    assert back.tolist() == [0.0, 2.0, 4.0]


def test_supported_dtypes_and_errors():
    assert dlpack.is_supported_dtype(np.float32)
    assert dlpack.is_supported_dtype(ml_dtypes.bfloat16)
    assert not dlpack.is_supported_dtype(np.dtype("O"))
    with pytest.raises(TypeError, match="Expected a string or dtype-like object"):
        dlpack.is_supported_dtype(None)
    with pytest.raises(TypeError, match="must have __dlpack__ and __dlpack_device__"):
        dlpack.from_dlpack([1, 2])
