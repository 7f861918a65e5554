"""JAX's docstring examples outside jax.numpy (jax.lax, jax.nn, jax.random, jax.scipy, the
top-level API, jax.tree_util, ...) give JAX's actual outputs on numbax: every example of an
object, run in order with JAX's names mapped to numbax's, prints what JAX 0.10.2 printed
(`jax_api.json`, recorded by `record.py api`) up to float32 round-off, or raises the same
exception class. Objects whose examples still differ are strict xfails with the reason."""

import pytest

from tests.docexamples.examples import differences, objects

# object -> why its examples do not give JAX's outputs yet
DIFFERS = {
    "jax.errors.UnexpectedTracerError": "checking_leaks raises core.errors.LeakedTracerError "
    "(an Exception subclass with JAX's message) where JAX raises a plain Exception",
    "jax.export.Exported.in_shardings_jax": "numbax's exports are for one device (no sharded "
    "exports, in_shardings_jax gives None)",
    "jax.export.export": "the reference JAX lacks flatbuffers, so its recorded serialize() "
    "raised ImportError; numbax prints the docstring's outputs",
    "jax.scipy.linalg.rsf2csf": "numbax's real Schur form standardizes a 2x2 block with the "
    "other off-diagonal sign than LAPACK's gees (both valid Schur forms)",
}


@pytest.mark.parametrize("name", objects("api", DIFFERS))
def test_docstring_examples_give_jaxs_outputs(name):
    differ = differences("api", name)
    assert not differ, "\n".join(differ)
