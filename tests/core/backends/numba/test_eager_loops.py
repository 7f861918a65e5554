"""The eager transcendental loops (core/backends/numba/eager_loops.py): a lean shell by default,
numba's compiled loop with lean loops off, the same bits either way (one and two operands,
float32 and float64, empty and odd sizes)."""

import numpy as np
import pytest

from core.backends.llvm import shells
from core.backends.numba import eager_loops
from core.config import config

RNG = np.random.default_rng(3)
# kernel, operands, of sizes 0, 1 and 37
CASES = [("exp_f32", 1), ("tanh_f32", 1), ("atan2_f32", 2), ("log1p_f64", 1), ("pow_f64", 2)]


@pytest.mark.parametrize("kernel, nargs", CASES)
@pytest.mark.parametrize("size", [0, 1, 37])
def test_shell_equals_numbas_loop(kernel, nargs, size, monkeypatch):
    dtype = np.float64 if kernel.endswith("_f64") else np.float32
    xs = [np.abs(RNG.standard_normal(size)).astype(dtype) + 0.5 for _ in range(nargs)]
    monkeypatch.setattr(eager_loops, "_computes", {})
    lean = eager_loops.compute(kernel, nargs)
    assert shells.is_shell(lean.__closure__[0].cell_contents)  # the builtin `run` calls
    monkeypatch.setattr(eager_loops, "_computes", {})
    with config.override("jit_lean_loops", False):
        plain = eager_loops.compute(kernel, nargs)
    got, want = lean(*xs), plain(*xs)
    assert got.dtype == want.dtype == dtype and got.shape == (size,)
    assert got.tobytes() == want.tobytes()
