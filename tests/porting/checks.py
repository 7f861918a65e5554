"""How a ported program is checked: `flaxport.port` rewrites its imports, `run()` runs on
numbax, and its summary must equal JAX's recorded one (`answers/<name>.json`). The programs are
checked by a test file per group of `common.program_group`; under `--dist loadfile` each
program is a unit of its own, longest first (tests/xdist_schedule.py)."""

import json
import sys
import types

import numpy as np
import pytest

from flaxport.port import port_source
from tests.porting.common import PROGRAMS, answer_path, program_group, program_names, summary

# Run with --runslow only: from empty caches ode_integration takes 75 s of CPU (6 s warm): each
# of its five right-hand sides and two adjoint solves is odeint's while loop inside a scan,
# numba's compile of its kernels; core.experimental.ode has its own tests without compiles.
SLOW = {"ode_integration"}
# Programs whose numbers amplify round-off beyond `assert_same`'s 2e-4, by relative tolerance:
# unet_segmentation's Adam steps on near-zero gradients (its own comment: the initial parameters
# moved by 1e-7 move its evaluation logits by 1e-3 on JAX itself); its sixth multiclass loss
# moved from 1.4e-5 to 2.7e-4 of JAX's when numbax's products took OpenBLAS's AVX2 kernels
# (core/jit/gemm.py), its earlier steps 1e-5 to 5e-5 either way.
RTOL = {"unet_segmentation": 1e-3}


def ported_run(name: str):
    """Program `name` ported by its imports, run."""
    source, missing = port_source((PROGRAMS / f"{name}.py").read_text())
    assert missing == []
    module = types.ModuleType(f"ported_{name}")
    sys.modules[module.__name__] = module
    try:
        exec(compile(source, str(PROGRAMS / f"{name}.py"), "exec"), module.__dict__)
        return module.run()
    finally:
        del sys.modules[module.__name__]


def assert_same(got, want, path="run()", rtol=2e-4):
    """`got` (a summary) equals `want`: containers and exact values equal, arrays of the same
    dtype and shape with values within float32 round-off of JAX's (`rtol`)."""
    if isinstance(want, dict) and "dtype" in want and "head" in want:
        assert (got["dtype"], got["shape"]) == (want["dtype"], want["shape"]), path
        np.testing.assert_allclose(got["head"], want["head"], rtol=rtol, atol=1e-5, err_msg=path)
        scale = max(1.0, float(np.prod(want["shape"])) ** 0.5)
        np.testing.assert_allclose(got["sum"], want["sum"], rtol=rtol, atol=1e-5 * scale,
                                   err_msg=path)  # fmt: skip
    elif isinstance(want, dict):
        assert sorted(got) == sorted(want), path
        for key in want:
            assert_same(got[key], want[key], f"{path}[{key!r}]", rtol)
    elif isinstance(want, list):
        assert len(got) == len(want), path
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{path}[{i}]", rtol)
    else:
        assert got == want, path


def cases(group: str) -> list:
    """The programs of `group` as pytest parameters, the slow ones marked `slow`."""
    names = [n for n in program_names() if program_group(n) == group]
    return [pytest.param(n, marks=pytest.mark.slow) if n in SLOW else n for n in names]


def check(name: str) -> None:
    """Program `name`, ported and run, gives JAX's recorded numbers."""
    want = json.loads(answer_path(name).read_text())
    assert_same(summary(ported_run(name)), want, rtol=RTOL.get(name, 2e-4))
