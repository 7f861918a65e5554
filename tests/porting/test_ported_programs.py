"""Our programs in the style of JAX's and Flax's examples and JAX's documentation, ported by
rewriting their imports only, give JAX's, Flax's and Optax's numbers: losses, parameters after
a few steps, dtypes, shapes and shardings, against `answers/` (recorded on JAX 0.10.2 by
`record_answers.py`; `checks.py` runs and compares). The programs are in `programs/` (see its
README); the Flax model programs are checked by the files of their `common.MODEL_GROUPS`."""

import pytest

from tests.porting.checks import cases, check
from tests.porting.common import answer_names, program_names


@pytest.mark.parametrize("name", cases("examples"))
def test_ported_program_gives_jaxs_numbers(name):
    check(name)


def test_every_program_has_answers():
    assert answer_names() == program_names()
