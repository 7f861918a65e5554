"""cumsum and cumprod of floats bit for bit against JAX's recorded results, eagerly and under
jit: XLA's CPU folds each output from the identity in increasing index order and scans axes
longer than 16 in blocks of 16 (`core.prims.sorting.xla_order_scan`); a sequential running sum
differs from it in the last bits after 17 elements."""

import hashlib
import json
import pathlib

import numpy as np
import pytest

import core
from core import lax
from tests.core.prims import cumulative_cases as cases

JAX = json.loads((pathlib.Path(__file__).parent / "jax_cumulative.json").read_text())
CASES = cases.cases()
JIT = [c for c in CASES if (c[5], c[2]) in cases.JIT[c[1]]]


def _check(name, out, dtype):
    out = np.asarray(out)
    assert out.dtype == cases.operand(name, dtype, (1,), "cumsum").dtype, name
    ends = out.ravel()[[0, -1]].astype(np.complex128)
    assert [[v.real, v.imag] for v in ends.tolist()] == JAX[name]["ends"], name
    assert hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest() == JAX[name]["sha256"]


def test_recorded_cases_are_the_table():
    assert set(JAX) == {c[0] for c in CASES}


@pytest.mark.parametrize("name, dtype, shape, axis, reverse, op", CASES, ids=[c[0] for c in CASES])
def test_eager_matches_jax(name, dtype, shape, axis, reverse, op):
    with core.enable_x64(True):
        x = cases.operand(name, dtype, shape, op)
        _check(name, getattr(lax, op)(x, axis=axis, reverse=reverse), dtype)


@pytest.mark.parametrize("name, dtype, shape, axis, reverse, op", JIT, ids=[c[0] for c in JIT])
def test_jit_matches_jax(name, dtype, shape, axis, reverse, op):
    with core.enable_x64(True):
        x = cases.operand(name, dtype, shape, op)
        f = core.jit(getattr(lax, op), static_argnames=("axis", "reverse"))
        _check(name, f(x, axis=axis, reverse=reverse), dtype)
