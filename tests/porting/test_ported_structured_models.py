"""Structured, implicit and reinforcement-learning models written as JAX/Flax/Optax users write
them (a linear-chain CRF with Viterbi decoding, soft actor-critic and TD3, a decision
transformer, word2vec with negative sampling, SIREN and a hypernetwork, a neural cellular
automaton), ported by rewriting their imports only, give JAX's, Flax's and Optax's
numbers against `answers/` (`checks.py` runs and compares; the programs are in `programs/`,
grouped in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("structured_models"))
def test_ported_model_gives_jaxs_numbers(name):
    check(name)
