"""core.numpy element selection (choose, compress, extract, trim_zeros) against JAX's answers
and numpy."""

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import ConcretizationTypeError
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "choose",
        lambda: jnp.choose(
            jnp.array([0, 1, 2, 1]), [jnp.arange(4), jnp.arange(4) * 10, jnp.arange(4) * 100]
        ),
        ([0, 10, 200, 30], "int32", False),
    ),
    (
        "choose_wrap",
        lambda: jnp.choose(
            jnp.array([0, 4, -1]), [jnp.array([1, 2, 3]), jnp.array([4.0, 5, 6])], mode="wrap"
        ),
        ([1.0, 2.0, 6.0], "float32", False),
    ),
    (
        "choose_clip",
        lambda: jnp.choose(jnp.array([[0], [5]]), [jnp.array([1, 2, 3]), 7], mode="clip"),
        ([[1, 2, 3], [7, 7, 7]], "int32", False),
    ),
    (
        "compress",
        lambda: jnp.compress(jnp.array([True, False, True]), jnp.arange(6).reshape(3, 2), axis=0),
        ([[0, 1], [4, 5]], "int32", False),
    ),
    (
        "compress_ax1",
        lambda: jnp.compress(jnp.array([0, 1]), jnp.arange(6).reshape(3, 2), axis=1),
        ([[1], [3], [5]], "int32", False),
    ),
    (
        "compress_none",
        lambda: jnp.compress(jnp.array([1, 0, 1, 1]), jnp.arange(6.0).reshape(3, 2)),
        ([0.0, 2.0, 3.0], "float32", False),
    ),
    (
        "compress_size",
        lambda: jnp.compress(
            jnp.array([False, True, True]), jnp.arange(3.0), size=3, fill_value=-1
        ),
        ([1.0, 2.0, -1.0], "float32", False),
    ),
    (
        "extract",
        lambda: jnp.extract(
            jnp.arange(6).reshape(2, 3) % 2 == 0, jnp.arange(6).reshape(2, 3) * 1.5
        ),
        ([0.0, 3.0, 6.0], "float32", True),
    ),
    (
        "extract_size",
        lambda: jnp.extract(jnp.array([1, 0, 0]), jnp.array([4, 5, 6]), size=2, fill_value=9),
        ([4, 9], "int32", False),
    ),
    (
        "trim",
        lambda: jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0, 3, 0])),
        ([1, 2, 0, 3], "int32", False),
    ),
    (
        "trim_f",
        lambda: jnp.trim_zeros(jnp.array([0, 0, 1, 2, 0, 3, 0]), "f"),
        ([1, 2, 0, 3, 0], "int32", False),
    ),
    (
        "trim_b",
        lambda: jnp.trim_zeros(jnp.array([0.0, 1.0, 0.0]), "b"),
        ([0.0, 1.0], "float32", False),
    ),
    ("trim_all0", lambda: jnp.trim_zeros(jnp.zeros(3)), ([], "float32", False)),
    (
        "trim_2d",
        lambda: jnp.trim_zeros(jnp.array([[0, 0, 0], [0, 1, 0], [0, 0, 0]])),
        ([[1]], "int32", False),
    ),
    ("choose_scal", lambda: jnp.choose(1, [2, 3.0]), (3.0, "float32", False)),
    (
        "choose_w",
        lambda: jnp.choose(jnp.array([0, 1]), [jnp.array([1.0, 2.0]), 3]),
        ([1.0, 3.0], "float32", False),
    ),
    (
        "compress_bool_arr",
        lambda: jnp.compress(jnp.array([True, True]), jnp.array([[1, 2], [3, 4]]), axis=1, size=1),
        ([[1], [3]], "int32", False),
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    if name == "trim_all0":
        want = (np.zeros(0), "float32", False)
    check(thunk(), want)


A = np.arange(12, dtype=np.float32).reshape(3, 4)


@pytest.mark.parametrize(
    "cond, axis",
    [([1, 0, 1], 0), ([0, 1, 1, 0], 1), ([True] * 5, None), ([False, True], -1), ([], 0)],
)
def test_compress_matches_numpy(cond, axis):
    cond = np.asarray(cond, bool)
    np.testing.assert_array_equal(
        np.asarray(jnp.compress(cond, A, axis=axis)), np.compress(cond, A, axis=axis)
    )


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
def test_choose_matches_numpy(mode):
    idx = np.array([[0, 2, 1, 0]]) if mode == "raise" else np.array([[0, 5, -1, 2]])
    choices = [A, A * 10, np.float32(-1.0)]
    np.testing.assert_array_equal(
        np.asarray(jnp.choose(idx, choices, mode=mode)), np.choose(idx, choices, mode=mode)
    )


@pytest.mark.parametrize("trim", ["fb", "f", "b", "F"])
@pytest.mark.parametrize("x", [[0, 0, 3, 0, 1, 0], [5, 0], [0, 0]])
def test_trim_zeros_matches_numpy(x, trim):
    x = np.asarray(x, np.int32)
    np.testing.assert_array_equal(np.asarray(jnp.trim_zeros(x, trim)), np.trim_zeros(x, trim))


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: jnp.choose(np.array([0, 3]), [A[0], A[1]]), ValueError),
        (lambda: jnp.choose(np.array([0.0]), [A[0]]), ValueError),
        (lambda: jnp.choose(np.array([0]), [A[0]], mode="bad"), ValueError),
        (lambda: jnp.choose(np.array([0]), [A[0]], out=A), NotImplementedError),
        (lambda: jnp.compress(np.ones((2, 2), bool), A), ValueError),
        (lambda: jnp.compress(np.ones(5, bool), A, axis=0), ValueError),
        (lambda: jnp.compress(np.ones(3, bool), A, axis=0, size=4), ValueError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()


def test_traced_values_that_decide_shapes_raise():
    with pytest.raises(ConcretizationTypeError):
        core.jit(lambda c: jnp.compress(c, jnp.arange(3.0)))(jnp.array([True, False, True]))
    with pytest.raises(ConcretizationTypeError):
        core.jit(jnp.trim_zeros)(jnp.array([0.0, 1.0]))
    with pytest.raises(ConcretizationTypeError, match="mode='wrap'"):
        core.jit(lambda i: jnp.choose(i, [jnp.zeros(2), jnp.ones(2)]))(jnp.array([0, 1]))


def test_under_jit_and_vmap():
    def f(c, x):
        return jnp.extract(c, x, size=2, fill_value=-1.0) + jnp.choose(
            jnp.array([0, 3]), [x[0], x[1]], mode="clip"
        )

    c, x = jnp.array([[True, False], [False, False]]), jnp.array([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(np.asarray(core.jit(f)(c, x)), [2.0, 3.0])
    rows = core.vmap(lambda m: jnp.compress(m, jnp.arange(3.0), size=2))(
        jnp.array([[True, False, True], [False, True, False]])
    )
    np.testing.assert_array_equal(np.asarray(rows), [[0.0, 2.0], [1.0, 0.0]])


def test_array_methods_compress_and_choose_are_the_functions():
    a = jnp.arange(6).reshape(2, 3)
    cond = jnp.array([True, False, True])
    np.testing.assert_array_equal(a.compress(cond, axis=1), jnp.compress(cond, a, axis=1))
    np.testing.assert_array_equal(
        a.compress(jnp.array([True, False]), axis=0, size=2, fill_value=-1),
        [[0, 1, 2], [-1, -1, -1]],
    )
    idx = jnp.array([0, 1, 0])
    choices = [jnp.arange(3), 10 + jnp.arange(3)]
    np.testing.assert_array_equal(idx.choose(choices), [0, 11, 2])
    np.testing.assert_array_equal(jnp.array([3, -1, 0]).choose(choices, mode="clip"), [10, 1, 2])


@pytest.mark.parametrize(  # JAX 0.10.2's second line under jit with mode="raise"
    "fn, what",
    [
        (lambda a: jnp.choose(a, [jnp.zeros(2), jnp.ones(2)], mode="raise"), "jnp.choose"),
        (lambda a: jnp.ravel_multi_index((a, a), (3, 3), mode="raise"), "ravel_multi_index"),
    ],
)
def test_raise_mode_under_jit(fn, what):
    with pytest.raises(ConcretizationTypeError) as info:
        core.jit(fn)(jnp.array([0, 1]))
    assert str(info.value).splitlines()[1] == (
        f"The error occurred because {what} was jit-compiled with mode='raise'. Use mode='wrap' "
        "or mode='clip' instead."
    )
