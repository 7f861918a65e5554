"""Flax's linen guides, ported by rewriting their imports only, give Flax's numbers against
`answers/` (recorded on Flax 0.12.8 by `record_answers.py`; `checks.py` runs and
compares). The programs are in `programs/` (see its README for where each comes from)."""

import pytest

from tests.porting.checks import cases, check


@pytest.mark.parametrize("name", cases("linen"))
def test_ported_guide_gives_flaxs_numbers(name):
    check(name)
