"""Sequence, set and field models (a WaveNet, a linear recurrent unit, a Perceiver, a NeRF)
written as Flax users write them, ported by rewriting their imports only, give JAX's, Flax's
and Optax's numbers against `answers/` (`checks.py` runs and compares; the programs are in
`programs/`, grouped in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("sequence_and_field_models"))
def test_ported_model_gives_jaxs_numbers(name):
    check(name)
