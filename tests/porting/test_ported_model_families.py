"""Model families written as Flax users write them (windowed and shifted attention, an
encoder-decoder with relative position buckets decoded by beam search through attention
caches, inverted residual blocks of depthwise convolutions, set and linear attention, a
segmentation U-Net), ported by rewriting their imports only, give JAX's, Flax's and Optax's
numbers against `answers/` (`checks.py` runs and compares; the programs are in `programs/`,
grouped in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("model_families"))
def test_ported_model_gives_jaxs_numbers(name):
    check(name)
