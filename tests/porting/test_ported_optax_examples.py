"""Optax's examples, ported by rewriting their imports only, give Optax's numbers against
`answers/` (recorded on Optax 0.2.8 by `record_answers.py`; `checks.py` runs and
compares). The programs are in `programs/` (see its README for where each comes from)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("optax"))
def test_ported_example_gives_optaxs_numbers(name):
    check(name)
