"""`nn.partitioning`'s lifted transformations (`flax.linen.partitioning`): `scan_with_axes`
stacks the logical axis names of the scanned parameters, `vmap_with_axes` adds the vmapped
axis's, `remat` takes static arguments counted after the module; outputs, axis names,
gradients and shapes are Flax 0.12.8's (`flax_partitioning_transforms.json`, recorded by
`record_partitioning_transforms.py`)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from nn import partitioning
from tests.nn.partitioning_transforms_cases import run

ANSWERS = json.loads(
    (pathlib.Path(__file__).parent / "flax_partitioning_transforms.json").read_text()
)


@pytest.fixture(scope="module")
def got():
    return run(core, jnp, nn, partitioning)


@pytest.mark.parametrize("case", sorted(ANSWERS))
def test_values_are_flax(got, case):
    want, have = ANSWERS[case], got[case]
    assert have["axes"] == want["axes"]
    assert have["shapes"] == want["shapes"]
    np.testing.assert_allclose(have["y"], want["y"], rtol=1e-6, atol=1e-6)
    for g, w in zip(have["grads"], want["grads"], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_concrete_is_refused():
    with pytest.raises(NotImplementedError, match="concrete argument is deprecated"):
        partitioning.remat(nn.Dense, concrete=True)
    with pytest.raises(NotImplementedError, match="concrete argument is deprecated"):
        partitioning.core_remat_static(lambda scope, x: x, concrete=True)
