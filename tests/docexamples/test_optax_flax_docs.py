"""Optax's and Flax's docstring examples (optax and its submodules; flax.linen,
flax.training, flax.traverse_util, flax.serialization, flax.core, flax.struct, flax.jax_utils)
give Optax 0.2.8's and Flax 0.12.8's actual outputs on numbax's `optim`, `nn` and `train`:
every example of an object, run in order with the imports ported (`flaxport.port`), prints
what the real libraries printed (`jax_optax_flax.json`, recorded by `record.py optax_flax`)
up to float32 round-off, or raises the same exception class: optimizer steps, schedules,
losses, parameter trees, module reprs, tabulate tables. Objects whose examples still differ
are strict xfails with the reason."""

import pytest

from tests.docexamples.examples import compare, load, numbax_namespace, numbax_port, run, start

RECORDED = load("optax_flax")

# object -> why its examples do not give Optax's or Flax's outputs yet
DIFFERS: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=DIFFERS[n]))
        if n in DIFFERS
        else n
        for n in sorted(RECORDED)
    ],
)
def test_docstring_examples_give_optax_and_flax_outputs(name):
    cases = RECORDED[name]
    namespace = start("optax_flax", numbax_namespace(), numbax_port)
    outputs = run([c["source"] for c in cases], namespace, numbax_port)
    differ = [
        f">>> {c['source']}real:\n{c['jax']}numbax:\n{got}"
        for c, got in zip(cases, outputs)
        if compare(got, c["jax"]) == "differs"
    ]
    assert not differ, "\n".join(differ)
