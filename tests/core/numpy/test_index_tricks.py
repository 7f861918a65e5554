"""core.numpy index tricks (mgrid, ogrid, r_, c_, ix_, block, ...) against JAX's answers."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError, ShapeError
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    ("mgrid1", lambda: jnp.mgrid[0:4], ([0, 1, 2, 3], "int32", False)),
    (
        "mgrid2",
        lambda: jnp.mgrid[0:3, 0:2],
        ([[[0, 0], [1, 1], [2, 2]], [[0, 1], [0, 1], [0, 1]]], "int32", False),
    ),
    ("mgrid_c", lambda: jnp.mgrid[0:1:5j], ([0.0, 0.25, 0.5, 0.75, 1.0], "float32", False)),
    (
        "mgrid_mix",
        lambda: jnp.mgrid[0:2, 0:1:3j],
        (
            [[[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]], [[0.0, 0.5, 1.0], [0.0, 0.5, 1.0]]],
            "float32",
            False,
        ),
    ),
    ("mgrid_f", lambda: jnp.mgrid[0:2:0.5], ([0.0, 0.5, 1.0, 1.5], "float32", False)),
    (
        "ogrid2",
        lambda: jnp.ogrid[0:3, 0:2],
        [([[0], [1], [2]], "int32", False), ([[0, 1]], "int32", False)],
    ),
    ("ogrid1", lambda: jnp.ogrid[1:5:2], ([1, 3], "int32", False)),
    ("r_basic", lambda: jnp.r_[1:4, [7, 8], 9], ([1, 2, 3, 7, 8, 9], "int32", False)),
    ("r_float", lambda: jnp.r_[1, 2.5, jnp.array([3, 4])], ([1.0, 2.5, 3.0, 4.0], "float32", True)),
    ("r_lin", lambda: jnp.r_[0:1:3j, 5], ([0.0, 0.5, 1.0, 5.0], "float32", False)),
    (
        "r_dir",
        lambda: jnp.r_["0,2", [1, 2, 3], [4, 5, 6]],
        ([[1, 2, 3], [4, 5, 6]], "int32", False),
    ),
    (
        "r_dir2",
        lambda: jnp.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
        ([[1], [2], [3], [4], [5], [6]], "int32", False),
    ),
    (
        "r_dir3",
        lambda: jnp.r_["1,2,0", [1, 2, 3], [4, 5, 6]],
        ([[1, 4], [2, 5], [3, 6]], "int32", False),
    ),
    ("r_r", lambda: jnp.r_["r", [1, 2, 3], [4, 5, 6]], ([[1, 2, 3, 4, 5, 6]], "int32", False)),
    (
        "r_c",
        lambda: jnp.r_["c", [1, 2, 3], [4, 5, 6]],
        ([[1], [2], [3], [4], [5], [6]], "int32", False),
    ),
    (
        "c_basic",
        lambda: jnp.c_[jnp.array([1, 2, 3]), jnp.array([4, 5, 6])],
        ([[1, 4], [2, 5], [3, 6]], "int32", False),
    ),
    (
        "c_2d",
        lambda: jnp.c_[jnp.ones((2, 2), jnp.int32), jnp.zeros((2, 1), jnp.int32)],
        ([[1, 1, 0], [1, 1, 0]], "int32", False),
    ),
    ("c_scal", lambda: jnp.c_[[1, 2], [3.0, 4.0]], ([[1.0, 3.0], [2.0, 4.0]], "float32", False)),
    (
        "ix",
        lambda: jnp.ix_(jnp.array([0, 1]), jnp.array([2, 4, 3])),
        [([[0], [1]], "int32", False), ([[2, 4, 3]], "int32", False)],
    ),
    (
        "ix_empty",
        lambda: jnp.ix_(jnp.array([], dtype=jnp.float32), jnp.array([1, 2])),
        [(np.zeros((0, 1)), "int32", False), ([[1, 2]], "int32", False)],
    ),
    (
        "diag_from",
        lambda: jnp.diag_indices_from(jnp.zeros((3, 3, 3))),
        [([0, 1, 2], "int32", False), ([0, 1, 2], "int32", False), ([0, 1, 2], "int32", False)],
    ),
    (
        "mask_idx",
        lambda: jnp.mask_indices(3, jnp.triu),
        [([0, 0, 0, 1, 1, 2], "int32", False), ([0, 1, 2, 1, 2, 2], "int32", False)],
    ),
    (
        "mask_idx_k",
        lambda: jnp.mask_indices(3, jnp.tril, -1),
        [([1, 2, 2], "int32", False), ([0, 0, 1], "int32", False)],
    ),
    (
        "mask_idx_size",
        lambda: jnp.mask_indices(3, jnp.triu, 1, size=5),
        [([0, 0, 1, 0, 0], "int32", False), ([1, 2, 2, 0, 0], "int32", False)],
    ),
    (
        "block1",
        lambda: jnp.block([jnp.ones(2), jnp.zeros(3)]),
        ([1.0, 1.0, 0.0, 0.0, 0.0], "float32", False),
    ),
    (
        "block2",
        lambda: jnp.block(
            [[jnp.eye(2), jnp.zeros((2, 1))], [jnp.ones((1, 2)), jnp.array([[7.0]])]]
        ),
        ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 7.0]], "float32", False),
    ),
    ("block_scal", lambda: jnp.block([[1, 2], [3, 4]]), ([[1, 2], [3, 4]], "int32", True)),
    ("c_slice", lambda: jnp.c_[1:3], ([[1], [2]], "int32", False)),
    ("mgrid_empty", lambda: jnp.mgrid[()], ([], "int32", False)),
    ("ogrid_empty", lambda: jnp.ogrid[()], []),
    ("block_scalar", lambda: jnp.block(3.0), (3.0, "float32", True)),
    ("block_w", lambda: jnp.block([1, 2.0]), ([1.0, 2.0], "float32", True)),
    ("r_scal_only", lambda: jnp.r_[3, 4.5], ([3.0, 4.5], "float32", True)),
    (
        "mask_idx_tril",
        lambda: jnp.mask_indices(2, jnp.tril),
        [([0, 1, 1], "int32", False), ([0, 0, 1], "int32", False)],
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


@pytest.mark.parametrize(
    "key",
    [np.s_[0:5], np.s_[1:7:2], np.s_[-2:2:0.5], np.s_[0:3, 1:4], np.s_[0:1:4j, 0:2]],
    ids=["stop", "step", "float", "2d", "complex-step"],
)
def test_mgrid_ogrid_match_numpy(key):
    np.testing.assert_allclose(np.asarray(jnp.mgrid[key]), np.mgrid[key], rtol=1e-6)
    got, want = jnp.ogrid[key], np.ogrid[key]
    for g, w in zip(
        got if isinstance(got, list) else [got], want if isinstance(want, tuple | list) else [want]
    ):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-6)


def test_s_and_index_exp_are_numpys():
    assert jnp.s_[1:3, ::2] == (slice(1, 3), slice(None, None, 2))
    assert jnp.index_exp[2] == (2,)


def test_ix_selects_a_subgrid():
    x = np.arange(20).reshape(4, 5)
    rows, cols = np.array([3, 0]), np.array([4, 1, 1])
    np.testing.assert_array_equal(
        np.asarray(jnp.asarray(x)[jnp.ix_(rows, cols)]), x[np.ix_(rows, cols)]
    )


@pytest.mark.parametrize("func, k", [(jnp.triu, 0), (jnp.triu, 1), (jnp.tril, -1), (jnp.tril, 2)])
def test_mask_indices_match_numpy(func, k):
    want = np.mask_indices(4, getattr(np, func.__name__), k)
    for g, w in zip(jnp.mask_indices(4, func, k), want):
        np.testing.assert_array_equal(np.asarray(g), w)


@pytest.mark.parametrize(
    "blocks",
    [
        [[np.ones((2, 2)), np.zeros((2, 3))], [np.full((1, 2), 2.0), np.full((1, 3), 3.0)]],
        [np.arange(3.0), np.arange(2.0)],
        [[[np.ones((1, 1, 2))], [np.zeros((1, 1, 2))]]],
        [[1.0, 2.0], [3.0, 4.0]],
    ],
    ids=["2x2", "1d", "3-deep", "scalars"],
)
def test_block_matches_numpy(blocks):
    np.testing.assert_array_equal(np.asarray(jnp.block(blocks)), np.block(blocks))


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: jnp.block(([1.0], [2.0])), ValueError),
        (lambda: jnp.block([]), ValueError),
        (lambda: jnp.block([[1.0], 2.0]), ValueError),
        (lambda: jnp.block([[np.ones((2, 2)), 5]]), ShapeError),
        (lambda: jnp.ix_(np.zeros((2, 2), np.int32)), ValueError),
        (lambda: jnp.ix_(np.array([True, False])), NotImplementedError),
        (lambda: jnp.diag_indices_from(np.zeros((2, 3))), ValueError),
        (lambda: jnp.diag_indices_from(np.zeros(3)), ValueError),
        (lambda: jnp.r_["x,y", [1]], ValueError),
        (lambda: jnp.r_[[1], "0"], ValueError),
    ],
    ids=[
        "tuple",
        "empty",
        "depths",
        "shapes",
        "ix-2d",
        "ix-bool",
        "diag-rect",
        "diag-1d",
        "directive",
        "late-directive",
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_traced_slice_bound_raises():
    with pytest.raises(ConcretizationTypeError, match="slice stop of jnp.mgrid"):
        core.jit(lambda n: jnp.mgrid[0:n])(3)


def test_under_jit():
    def f(a, b):
        return jnp.block([[a, b]]) + jnp.r_[0:2, 5.0] + jnp.c_[a, b][0, 0] + jnp.mgrid[0:3][1]

    a, b = jnp.ones((1, 1)), jnp.full((1, 2), 2.0)
    np.testing.assert_allclose(np.asarray(core.jit(f)(a, b)), np.asarray(f(a, b)))
    np.testing.assert_allclose(np.asarray(f(a, b)), [[3.0, 5.0, 9.0]])


# JAX 0.10.2 reads the first item of `r_[...]`/`c_[...]` unchecked: an empty key is its
# IndexError.
@pytest.mark.parametrize("grammar", [jnp.r_, jnp.c_])
def test_concatenating_nothing_is_jaxs_index_error(grammar):
    with pytest.raises(IndexError, match="^tuple index out of range"):
        grammar[()]


def test_grids_promote_as_standard_under_strict_promotion():
    # JAX's mgrid/ogrid promote their 1-D grids under "standard" whatever the config says
    with core.numpy_dtype_promotion("strict"):
        dense = jnp.mgrid[0:2, 0.0:1:3j]
        open_grid = jnp.ogrid[0:2, 0.0:1:3j]
    assert dense.dtype == jnp.float32 and dense.shape == (2, 2, 3)
    assert [g.dtype for g in open_grid] == [jnp.float32, jnp.float32]
    np.testing.assert_allclose(dense, np.mgrid[0:2, 0.0:1:3j])
