"""Examples of our own (`cases/flax*.txt`) give the real libraries' outputs on numbax."""

import pytest

from tests.api_examples.examples import differences, objects


@pytest.mark.parametrize(("name", "obj"), objects("flax"))
def test_examples_give_the_real_outputs(name, obj):
    differ = differences(name, obj)
    assert not differ, "\n".join(differ)
