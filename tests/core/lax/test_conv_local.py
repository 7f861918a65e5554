"""`lax.conv_general_dilated_local` (unshared-filter convolution) gives JAX 0.10.2's outputs,
filter gradients and jitted outputs (`jax_conv_local.npz`, recorded by `record_conv_local.py`)
and JAX's error for a precision it cannot split."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import core
from core import lax
from tests.core.lax.conv_local_cases import run

ANSWERS = np.load(pathlib.Path(__file__).parent / "jax_conv_local.npz")


@pytest.fixture(scope="module")
def got():
    return run(core, lax)


@pytest.mark.parametrize("case", ["nchw", "nhwc", "grad", "jit"])
def test_values_are_jaxs(got, case):
    np.testing.assert_allclose(got[case], ANSWERS[case], rtol=1e-5, atol=1e-5)


def test_precision_pairs_only():
    x, w = np.ones((1, 1, 3, 3), np.float32), np.ones((1, 4, 2, 2), np.float32)
    with pytest.raises(ValueError, match="Unsupported precision for conv_general_dilated_local"):
        lax.conv_general_dilated_local(x, w, (1, 1), "VALID", (2, 2), precision=(None,) * 3)
