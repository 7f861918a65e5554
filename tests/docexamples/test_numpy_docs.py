"""JAX's docstring examples of `jax.numpy` (with `jax.numpy.fft`, `jax.numpy.linalg` and the
methods of `jax.Array` and `jnp.ufunc`) give JAX's actual outputs on numbax: every example of
an object, run in order with JAX's names mapped to numbax's, prints what JAX 0.10.2 printed
(`jax_numpy.json`, recorded by `record.py numpy`) up to float32 round-off, or raises the same
exception class. Objects whose examples still differ are strict xfails with the reason."""

import pytest

from tests.docexamples.examples import differences, objects

# object -> why its examples do not give JAX's outputs yet
DIFFERS = {
    "jax.numpy.einsum_path": "numbax prints numpy's einsum_path report, JAX opt_einsum's",
    "jax.numpy.ufunc.reduceat": "an array axis raises TypeError (int() of an array); JAX's "
    "static-argument hashing raises ValueError",
}


@pytest.mark.parametrize("name", objects("numpy", DIFFERS))
def test_docstring_examples_give_jaxs_outputs(name):
    differ = differences("numpy", name)
    assert not differ, "\n".join(differ)
