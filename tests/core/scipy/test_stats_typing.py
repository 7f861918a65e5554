"""`core.scipy.stats` against JAX 0.10.2's dtypes, weak types, values and errors
(`jax_stats_typing.json`, recorded by `record_stats_typing.py` from the cases of
`stats_typing_cases.py`; JAX is not imported here).

JAX's results are strongly typed wherever a constant of its formula (`lax._const`) enters
them, so an int or bool array with Python-float parameters gives a strong float32 and a Python
scalar point a weak one; a few functions add JAX's edge values (a NaN point of `truncnorm.cdf`,
the incomplete gamma at `a == 0`) and errors (`norm.ppf` does not promote integers).
"""

import builtins
import json
import math
import pathlib
import sys

import numpy as np
import pytest

import core.numpy as jnp
from core.scipy import stats

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from stats_typing_cases import CASES  # noqa: E402

ANSWERS = json.loads((pathlib.Path(__file__).parent / "jax_stats_typing.json").read_text())["cases"]


def _arg(kind, value):
    return value if kind == "py" else jnp.asarray(value, kind)


@pytest.mark.parametrize("label, module, fn, args", CASES, ids=[c[0] for c in CASES])
def test_against_jax(label, module, fn, args):
    want = ANSWERS[label]
    call = getattr(getattr(stats, module), fn)
    if "error" in want:
        with pytest.raises(getattr(builtins, want["error"])) as info:
            call(*(_arg(*a) for a in args))
        assert str(info.value).split("\n")[0] == want["message"]
        return
    got = call(*(_arg(*a) for a in args))
    assert (list(got.shape), str(got.dtype)) == (want["shape"], want["dtype"])
    assert got.weak_type == want["weak_type"]
    values = [math.nan if v is None else v for v in want["values"]]
    np.testing.assert_allclose(np.ravel(np.asarray(got, np.float64)), values, rtol=2e-6, atol=1e-7)
