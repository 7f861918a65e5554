"""Programs of array APIs as JAX users write them (tensor-network contractions, windowed
reductions and patches, ...), ported by rewriting their imports only, give JAX's numbers
against `answers/` (`checks.py` runs and compares; the programs are in `programs/`, grouped
in `common.MODEL_GROUPS`)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("array_computing"))
def test_ported_program_gives_jaxs_numbers(name):
    check(name)
