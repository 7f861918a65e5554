"""`jnp.linspace` bit for bit against JAX 0.10.2's recorded results (`linspace_cases.py`,
`jax_linspace.json`): XLA's CPU code computes JAX's `start * (1 - t) + stop * t` with t = i *
(1 / div), a scalar stop's product as `i * (stop * (1 / div))`, one of the two products fused
into the sum (an FMA), and for at most 33 steps a peeled second iteration (`creation.
_linspace_fused`); the step is `(stop - start) * (1 / div)`. Eager results (under a user's
`jit` numbax's compiler rewrites the constant products of the exact-FMA arithmetic)."""

import json
import pathlib

import numpy as np
import pytest

import core.numpy as jnp
from tests.core.numpy.linspace_cases import cases

_RECORD = json.loads((pathlib.Path(__file__).parent / "jax_linspace.json").read_text())
JAX = _RECORD["cases"]
CASES = cases()
# one element of a scalar start beside an array stop along the last axis in a short loop: XLA's
# vectorised loop fuses the other product there, with no rule the samples show
DIFFERENT = {"array1_-1_5_False"}


def test_table_is_recorded():
    assert _RECORD["jax"] == "0.10.2"
    assert set(CASES) == set(JAX)
    assert set(CASES) >= DIFFERENT


@pytest.mark.parametrize("name", sorted(CASES))
def test_linspace_bits_match_jax(name):
    if name in DIFFERENT:
        pytest.xfail("XLA's choice of the fused product in this loop nest")
    start, stop, kw = CASES[name]
    out = jnp.linspace(start, stop, **kw)
    outs = out if kw.get("retstep") else [out]
    got = [
        [str(np.asarray(o).dtype), list(np.shape(o)), np.asarray(o).tobytes().hex()] for o in outs
    ]
    assert got == JAX[name]
