"""Optax's and Flax's docstring examples (optax and its submodules; flax.linen,
flax.training, flax.traverse_util, flax.serialization, flax.core, flax.struct, flax.jax_utils)
give Optax 0.2.8's and Flax 0.12.8's actual outputs on numbax's `optim`, `nn` and `train`:
every example of an object, run in order with the imports ported (`flaxport.port`), prints
what the real libraries printed (`jax_optax_flax.json`, recorded by `record.py optax_flax`)
up to float32 round-off, or raises the same exception class: optimizer steps, schedules,
losses, parameter trees, module reprs, tabulate tables. Objects whose examples still differ
are strict xfails with the reason."""

import pytest

from tests.docexamples.examples import differences, objects

# object -> why its examples do not give Optax's or Flax's outputs yet
DIFFERS: dict[str, str] = {}


@pytest.mark.parametrize("name", objects("optax_flax", DIFFERS))
def test_docstring_examples_give_optax_and_flax_outputs(name):
    differ = differences("optax_flax", name)
    assert not differ, "\n".join(differ)
