"""core.numpy functions of functions (vectorize, apply_along_axis, apply_over_axes,
fromfunction, piecewise) against JAX's answers and numpy."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from tests.core.numpy.known_answers import check

# (id, thunk, expected) with expected values/dtypes/weak types recorded from JAX 0.10.2.
KNOWN = [
    (
        "piecewise",
        lambda: jnp.piecewise(
            jnp.array([-2.0, -0.5, 0.0, 1.5]),
            [jnp.array([-2.0, -0.5, 0.0, 1.5]) < 0, jnp.array([-2.0, -0.5, 0.0, 1.5]) >= 0],
            [lambda x: -x, lambda x: x**2],
        ),
        ([2.0, 0.5, 0.0, 2.25], "float32", False),
    ),
    (
        "piecewise_default",
        lambda: jnp.piecewise(
            jnp.arange(5), [jnp.arange(5) < 2, jnp.arange(5) > 3], [lambda x: x * 10, 7, -1]
        ),
        ([0, 10, -1, -1, 7], "int32", False),
    ),
    (
        "piecewise_one",
        lambda: jnp.piecewise(jnp.arange(4.0), [jnp.arange(4.0) > 1], [1.5]),
        ([0.0, 0.0, 1.5, 1.5], "float32", False),
    ),
    (
        "aaa",
        lambda: jnp.apply_along_axis(lambda v: v.sum() * 2, 1, jnp.arange(6.0).reshape(2, 3)),
        ([6.0, 24.0], "float32", False),
    ),
    (
        "aaa0",
        lambda: jnp.apply_along_axis(lambda v: v[::-1], 0, jnp.arange(6).reshape(2, 3)),
        ([[3, 4, 5], [0, 1, 2]], "int32", False),
    ),
    (
        "aaa_outer",
        lambda: jnp.apply_along_axis(lambda v: jnp.outer(v, v), 1, jnp.arange(4.0).reshape(2, 2)),
        ([[[0.0, 0.0], [0.0, 1.0]], [[4.0, 6.0], [6.0, 9.0]]], "float32", False),
    ),
    (
        "aoa",
        lambda: jnp.apply_over_axes(jnp.sum, jnp.arange(24).reshape(2, 3, 4), [0, 2]),
        ([[[60], [92], [124]]], "int32", False),
    ),
    (
        "vec_scalar",
        lambda: jnp.vectorize(lambda a, b: a * b + 1)(
            jnp.arange(3.0), jnp.arange(2.0).reshape(2, 1)
        ),
        ([[1.0, 1.0, 1.0], [1.0, 2.0, 3.0]], "float32", False),
    ),
    (
        "vec_sig",
        lambda: jnp.vectorize(lambda m, v: m @ v, signature="(n,k),(k)->(n)")(
            jnp.arange(12.0).reshape(2, 2, 3), jnp.arange(3.0)
        ),
        ([[5.0, 14.0], [23.0, 32.0]], "float32", False),
    ),
    (
        "vec_excl",
        lambda: jnp.vectorize(lambda a, p: a**p, excluded={1})(jnp.arange(3.0), 2),
        ([0.0, 1.0, 4.0], "float32", False),
    ),
    (
        "vec_tuple",
        lambda: jnp.vectorize(lambda a: (a, a * 2))(jnp.arange(3)),
        [([0, 1, 2], "int32", False), ([0, 2, 4], "int32", False)],
    ),
    (
        "vec_sig_out",
        lambda: jnp.vectorize(lambda v: (v.sum(), v.max()), signature="(n)->(),()")(
            jnp.arange(6.0).reshape(2, 3)
        ),
        [([3.0, 12.0], "float32", False), ([2.0, 5.0], "float32", False)],
    ),
    (
        "vec_bcast1",
        lambda: jnp.vectorize(lambda a, b: a - b)(jnp.ones((1, 3)), jnp.arange(2.0).reshape(2, 1)),
        ([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], "float32", False),
    ),
    (
        "fromfunction",
        lambda: jnp.fromfunction(lambda i, j: i * 10 + j, (2, 3)),
        ([[0.0, 1.0, 2.0], [10.0, 11.0, 12.0]], "float32", False),
    ),
    (
        "fromfunction_int",
        lambda: jnp.fromfunction(lambda i, j: i - j, (3, 2), dtype=jnp.int32),
        ([[0, -1], [1, 0], [2, 1]], "int32", False),
    ),
    (
        "piecewise_0d",
        lambda: jnp.piecewise(2.0, [True], [lambda v: v * 2]),
        (4.0, "float32", False),
    ),
    (
        "piecewise_int",
        lambda: jnp.piecewise(jnp.arange(3), [jnp.arange(3) > 0], [lambda v: v * 2.7]),
        ([0, 2, 5], "int32", False),
    ),
    ("aaa_sum", lambda: jnp.apply_along_axis(jnp.sum, 0, jnp.ones(3)), (3.0, "float32", False)),
    ("vec_scalar_in", lambda: jnp.vectorize(lambda a: a * 2)(1.0), (2.0, "float32", True)),
    (
        "fromfunction_1d",
        lambda: jnp.fromfunction(lambda i: i * 2, 3),
        ([0.0, 2.0, 4.0], "float32", False),
    ),
]


@pytest.mark.parametrize("name, thunk, want", KNOWN, ids=[c[0] for c in KNOWN])
def test_known_answers(name, thunk, want):
    check(thunk(), want)


X = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize(
    "func1d",
    [lambda v: v.sum(), lambda v: v[::-1] * 2, lambda v: v[:2]],
    ids=["reduce", "same-length", "shorter"],
)
def test_apply_along_axis_matches_numpy(func1d, axis):
    got = jnp.apply_along_axis(func1d, axis, X)
    np.testing.assert_allclose(np.asarray(got), np.apply_along_axis(func1d, axis, X))


@pytest.mark.parametrize("axes", [[0], [1, 2], [2, 0, 1]])
def test_apply_over_axes_matches_numpy(axes):
    got = jnp.apply_over_axes(jnp.sum, X, axes)
    np.testing.assert_allclose(np.asarray(got), np.apply_over_axes(np.sum, X, axes))


@pytest.mark.parametrize(
    "signature, shapes",
    [
        ("(n)->()", [(2, 3, 4)]),
        ("(n),(n)->()", [(3, 4), (2, 1, 4)]),
        ("(m,n),(n)->(m)", [(2, 3, 4), (4,)]),
        ("(),()->()", [(2, 1), (3,)]),
    ],
)
def test_vectorize_signature_matches_numpy(signature, shapes):
    def f(*args):
        if signature == "(m,n),(n)->(m)":
            return args[0] @ args[1]
        return sum(a.sum() if hasattr(a, "sum") else a for a in args) if len(args) else 0

    args = [np.arange(np.prod(s), dtype=np.float32).reshape(s) for s in shapes]
    got = jnp.vectorize(f, signature=signature)(*args)
    np.testing.assert_allclose(np.asarray(got), np.vectorize(f, signature=signature)(*args))


def test_vectorize_keywords_and_excluded_names():
    f = jnp.vectorize(
        lambda x, scale=1.0, mode="add": x + scale if mode == "add" else x * scale,
        excluded={"mode"},
    )
    np.testing.assert_allclose(
        np.asarray(f(jnp.arange(3.0), scale=2.0, mode="mul")), [0.0, 2.0, 4.0]
    )
    g = jnp.vectorize(lambda x, y: x - y if y is not None else x)
    np.testing.assert_allclose(np.asarray(g(jnp.arange(3.0), None)), [0.0, 1.0, 2.0])


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: jnp.vectorize(lambda x: x, excluded={1.5}), TypeError, "exclude"),
        (lambda: jnp.vectorize(lambda x: x, excluded={-1}), ValueError, "negative"),
        (
            lambda: jnp.vectorize(lambda x: x, signature="(n)->")(jnp.ones(2)),
            ValueError,
            "signature",
        ),
        (
            lambda: jnp.vectorize(lambda x: x.sum(), signature="(n,k)->()")(jnp.ones(2)),
            ValueError,
            "core",
        ),
        (
            lambda: jnp.vectorize(lambda x, y: x, signature="(n),(n)->(n)")(
                jnp.ones(2), jnp.ones(3)
            ),
            ValueError,
            "inconsistent",
        ),
        (
            lambda: jnp.vectorize(lambda x: x.sum(), signature="(n)->(n)")(jnp.ones(2)),
            ValueError,
            "output shape",
        ),
        (
            lambda: jnp.vectorize(lambda x: x, signature="(n)->(),()")(jnp.ones(2)),
            TypeError,
            "tuple",
        ),
        (
            lambda: jnp.vectorize(lambda x: x, signature="(n)->()")(jnp.ones(2), jnp.ones(2)),
            TypeError,
            "positional",
        ),
        (lambda: jnp.piecewise(jnp.ones(2), [jnp.ones(2) > 0], [1, 2, 3]), ValueError, "functions"),
        (
            lambda: jnp.apply_over_axes(lambda a, ax: a.sum(), jnp.ones((2, 2, 2)), [0]),
            ValueError,
            "shape",
        ),
    ],
)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_piecewise_matches_numpy():
    x = np.linspace(-2, 2, 9).astype(np.float32)
    conds = [x < -1, (x >= -1) & (x < 1), x >= 1]
    funcs = [lambda v: -v, lambda v: v**2, 5.0]
    np.testing.assert_allclose(
        np.asarray(jnp.piecewise(x, conds, funcs)), np.piecewise(x, conds, funcs)
    )


def test_under_jit_vmap_grad():
    mv = jnp.vectorize(lambda m, v: m @ v, signature="(n,k),(k)->(n)")
    m, v = jnp.arange(12.0).reshape(2, 2, 3), jnp.arange(3.0)
    np.testing.assert_allclose(np.asarray(core.jit(mv)(m, v)), np.asarray(mv(m, v)))
    np.testing.assert_allclose(
        np.asarray(core.vmap(mv, (None, 0))(m, jnp.stack([v, v]))[1]), np.asarray(mv(m, v))
    )
    g = core.grad(lambda x: jnp.piecewise(x, [x < 2], [lambda t: t**2, lambda t: 3 * t]).sum())(
        jnp.arange(4.0)
    )
    np.testing.assert_allclose(np.asarray(g), [0.0, 2.0, 3.0, 3.0])
    g = core.grad(lambda x: jnp.apply_along_axis(lambda r: (r * r).sum(), 1, x).sum())(
        jnp.ones((2, 2))
    )
    np.testing.assert_allclose(np.asarray(g), 2 * np.ones((2, 2)))


_ADD = jnp.vectorize(jnp.add, signature="(),()->()")
_DOT = jnp.vectorize(lambda a, b: a @ b, signature="(n),(n)->()")


# (function, its signature, shapes, whether JAX 0.10.2 checks them): only loop dimensions of
# different ranks count, scalars never
@pytest.mark.parametrize(
    "fn, sig, s1, s2, checked",
    [
        (_ADD, "(),()->()", (2, 3), (3,), True),
        (_ADD, "(),()->()", (2, 3), (), False),
        (_ADD, "(),()->()", (2, 3), (1, 3), False),
        (_DOT, "(n),(n)->()", (2, 3), (3,), True),
        (_DOT, "(n),(n)->()", (4, 2, 3), (2, 3), True),
        (jnp.vectorize(jnp.add), None, (2, 3), (3,), True),
    ],
)
def test_vectorize_checks_rank_promotion(fn, sig, s1, s2, checked):
    text = (
        f"operands with shapes {[s1, s2]} require rank promotion for jnp.vectorize function "
        f"with signature {sig}. Set the jax_numpy_rank_promotion config option to 'allow' to "
        "disable this message; for more information, see "
        "https://docs.jax.dev/en/latest/rank_promotion_warning.html."
    )
    x, y = jnp.zeros(s1), jnp.zeros(s2)
    want = np.broadcast_shapes(
        s1[: len(s1) - (sig == "(n),(n)->()")], s2[: len(s2) - (sig == "(n),(n)->()")]
    )
    with core.numpy_rank_promotion("raise"):
        if checked:
            with pytest.raises(ValueError) as info:
                fn(x, y)
            assert str(info.value) == text
        else:
            assert fn(x, y).shape == want
    with core.numpy_rank_promotion("warn"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fn(x, y).shape == want
    assert [str(w.message) for w in caught] == ([text] if checked else [])
    assert all(w.category is UserWarning for w in caught)
