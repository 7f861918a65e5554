"""Density models, differentiable solvers and physics-informed fields written as JAX/Flax
users write them (a Gumbel-softmax VAE, a mixture density network, a masked autoregressive
flow, neural ODEs (one regularised by Taylor-mode `jet`), a PINN, Sinkhorn transport, a Kalman
smoother), ported by rewriting their imports only, give JAX's, Flax's and Optax's numbers
against `answers/` (`checks.py` runs and compares; the programs are in `programs/`, grouped
in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("densities_and_fields"))
def test_ported_model_gives_jaxs_numbers(name):
    check(name)
