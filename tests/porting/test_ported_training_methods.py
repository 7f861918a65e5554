"""Training methods beyond plain supervised steps written as JAX/Flax/Optax users write them
(contrastive image-text training, evolution strategies and REINFORCE, a Hamiltonian network,
influence functions, quantization-aware training, SVGD and SGLD), ported by rewriting their
imports only, give JAX's, Flax's and Optax's numbers against `answers/` (`checks.py` runs and
compares; the programs are in `programs/`, grouped in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("training_methods"))
def test_ported_model_gives_jaxs_numbers(name):
    check(name)
