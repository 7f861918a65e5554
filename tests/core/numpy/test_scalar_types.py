"""The numpy-style type aliases of core.numpy (float_, int_, double, ...) against JAX."""

import numpy as np
import pytest

import core.numpy as jnp
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    ("float_", lambda: jnp.float_(1), (1.0, "float32", False)),
    ("int_", lambda: jnp.int_(2.7), (2, "int32", False)),
    ("uint", lambda: jnp.uint(3), (3, "uint32", False)),
    ("double", lambda: jnp.double([1, 2]), ([1.0, 2.0], "float32", False)),
    ("single", lambda: jnp.single(1), (1.0, "float32", False)),
    ("float_dt", lambda: jnp.zeros(2, jnp.float_), ([0.0, 0.0], "float32", False)),
    ("int_dt", lambda: jnp.zeros(2, dtype=jnp.int_), ([0, 0], "int32", False)),
    ("uint_dt", lambda: jnp.arange(3, dtype=jnp.uint), ([0, 1, 2], "uint32", False)),
    (
        "issub",
        lambda: [
            jnp.issubdtype(jnp.float32, jnp.flexible),
            jnp.issubdtype(np.str_, jnp.character),
            jnp.issubdtype(np.dtype(object), jnp.object_),
            jnp.float_ == np.float64,
            jnp.int_ == np.int64,
        ],
        [False, True, True, True, True],
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


# In JAX, each alias is the same object as the sized type (x64 off only changes the arrays made).
ALIASES = [
    ("float_", "float64"),
    ("double", "float64"),
    ("single", "float32"),
    ("int_", "int64"),
    ("uint", "uint64"),
    ("complex_", "complex128"),
    ("cdouble", "complex128"),
    ("csingle", "complex64"),
]


@pytest.mark.parametrize("alias, target", ALIASES)
def test_aliases_are_the_sized_types(alias, target):
    assert getattr(jnp, alias) is getattr(jnp, target)
    assert getattr(jnp, alias) == np.dtype(target)


@pytest.mark.parametrize(
    "name, numpy_type",
    [("character", np.character), ("flexible", np.flexible), ("object_", np.object_)],
)
def test_abstract_types_are_numpys(name, numpy_type):
    assert getattr(jnp, name) is numpy_type


def test_complex_warning_is_a_warning():
    assert issubclass(jnp.ComplexWarning, RuntimeWarning)
    assert jnp.ComplexWarning is np.exceptions.ComplexWarning


def test_complex_aliases_make_complex_arrays():
    out = jnp.csingle(2)
    assert out.dtype == np.complex64
    np.testing.assert_array_equal(np.asarray(jnp.cdouble([1, 2])), [1 + 0j, 2 + 0j])


# JAX 0.10.2: `isinstance` against a scalar type checks numpy's scalar type, and a scalar type
# hashes as numpy's (a dict keyed by np.int64 finds jnp.int64)
@pytest.mark.parametrize(
    "call, expected",
    [
        (lambda: isinstance(np.float32(1), jnp.float32), True),
        (lambda: isinstance(jnp.float32(1), jnp.float32), False),
        (lambda: isinstance(1.0, jnp.float32), False),
        (lambda: isinstance(np.int8(1), jnp.int16), False),
        (lambda: isinstance(np.dtype(jnp.bfloat16).type(1), jnp.bfloat16), True),
        (lambda: {np.int64: 1}.get(jnp.int64), 1),
        (lambda: {jnp.uint8: 2}.get(np.uint8), 2),
    ],
)
def test_isinstance_and_hash_follow_numpys_scalar_types(call, expected):
    assert call() == expected
