"""The layers users lean on most (Dense, Conv, norms, attention, Dropout, pooling, recurrent
cells, RNN, lifted transforms) give Flax 0.12.8's variable trees (collections, names, shapes,
dtypes) and values: `init` with the same key and `apply` with the same inputs and rngs, against
`flax_layer_answers.json` (recorded by `record_flax_layers.py` from `flax_layer_cases.py`).

Values agree to float32 round-off, not bit for bit: the normal and truncated-normal
initializers go through `erf_inv`, whose float32 result differs from XLA's in about one
element in 40 by one ulp (XLA's own `log1p` and FMA contraction); outputs then differ by
round-off of the sums."""

import json
from pathlib import Path

import numpy as np
import pytest

import core
import core.numpy as jnp
import nn
from tests.nn.flax_layer_cases import CASES, summary

ANSWERS = json.loads(Path(__file__).with_name("flax_layer_answers.json").read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_layers_give_flaxs_variables_and_outputs(name):
    got, want = summary(CASES[name](nn, core, jnp)), ANSWERS[name]
    assert sorted(got) == sorted(want)
    for path, (dtype, shape, values) in want.items():
        assert got[path][:2] == [dtype, shape], path
        rtol = 2e-3 if dtype in ("float16", "bfloat16") else 2e-5
        scale = max(1.0, float(np.max(np.abs(values), initial=0.0)))
        np.testing.assert_allclose(got[path][2], values, rtol=rtol, atol=rtol * scale,
                                   err_msg=path)  # fmt: skip
