"""Scientific programs written as JAX users write them (hidden Markov models, particle
filters, molecular dynamics, lattice Monte Carlo, spectral and finite-difference PDE solvers,
option Greeks, nonlinear least squares, matrix functions of linear systems, neural tangent
kernels, matrix factorisation), ported by rewriting their imports only, give JAX's numbers
against `answers/` (`checks.py` runs and compares; the programs are in `programs/`, grouped
in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("scientific_computing"))
def test_ported_program_gives_jaxs_numbers(name):
    check(name)
