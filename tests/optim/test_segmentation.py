"""`optim.losses` dice losses against Optax 0.2.8 (`optax_segmentation.json`, recorded by
`record_segmentation.py` from `segmentation_cases.py`; Optax is not imported here): values and
gradients, and Optax's ValueErrors."""

import json
import pathlib
import sys

import numpy as np
import pytest

import core
import core.numpy as jnp
from optim import losses
from optim.errors import LossArgumentError

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from segmentation_cases import CASES, inputs  # noqa: E402

ANSWERS = json.loads((pathlib.Path(__file__).parent / "optax_segmentation.json").read_text())


@pytest.mark.parametrize("label, fn, kwargs", CASES, ids=[c[0] for c in CASES])
def test_matches_optax(label, fn, kwargs):
    preds, targets = (jnp.asarray(a) for a in inputs(label))
    loss = getattr(losses, fn)
    want = ANSWERS["cases"][label]
    np.testing.assert_allclose(loss(preds, targets, **kwargs), want["out"], rtol=2e-6, atol=1e-7)
    grad = core.grad(lambda p: loss(p, targets, **kwargs).sum())(preds)
    np.testing.assert_allclose(np.ravel(grad), want["grad"], rtol=2e-5, atol=1e-7)


def test_errors():
    preds, targets = (jnp.asarray(a) for a in inputs("dice"))
    with pytest.raises(ValueError, match=r"Shape mismatch: got \(2, 4, 3, 3\) and \(2, 4, 3, 2\)"):
        losses.dice_loss(preds, targets[..., :2])
    with pytest.raises(LossArgumentError, match="Unsupported reduction: max"):
        losses.dice_loss(preds, targets, reduction="max")
    with pytest.raises(ValueError, match="must be valid probability distributions"):
        losses.dice_loss(preds, targets, apply_softmax=False)
