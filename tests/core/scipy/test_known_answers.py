"""Every `core.scipy` function against values recorded from `jax.scipy` (known_answers.py)."""

import functools

import numpy as np
import pytest

import core.scipy
from tests.core.scipy.known_answers import CASES


def _resolve(path: str):
    return functools.reduce(getattr, path.split("."), core.scipy)


@pytest.mark.parametrize(
    "path,args,kwargs,want", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)]
)
def test_matches_jax(path, args, kwargs, want):
    got = _resolve(path)(*args, **kwargs)
    assert got.dtype == np.float32
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=2e-5, atol=1e-6)
