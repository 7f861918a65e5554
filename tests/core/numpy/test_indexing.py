"""Indexing: x[idx] against numpy, JAX's out-of-bounds rules, .at[] updates, take, nonzero,
and gradients / vmap through gather and scatter."""

import warnings

import numpy as np
import pytest

import core
import core.numpy as jnp
from core.errors import NonConcreteBooleanIndexError

XN = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
X = jnp.asarray(XN)

INDICES = [
    0,
    -1,
    (1, 2),
    (Ellipsis, 1),
    (0, None, slice(1, None), slice(None, None, -2)),
    (slice(None), None, [0, 1], None),
    ([0], None, [0]),
    (0, slice(None), [1, 2]),
    ([[0, 1]], [[1], [2]]),
    (1, slice(None, None, -1)),
    (slice(5, 1, -1),),
    (slice(1, 1),),
    (slice(None), [2, -1]),
    (Ellipsis, np.array([3, 0])),
    (slice(None), 1, [0, 3]),
    np.array([True, False]),
    (XN > 10),
    (1, np.array([True, False, True])),
    (None,),
    (),
    (slice(None), [0, 1, 2], Ellipsis, [0, 1, 2]),  # an empty Ellipsis parts them: dims first
]


@pytest.mark.parametrize("idx", INDICES, ids=[str(i)[:40] for i in range(len(INDICES))])
def test_getitem_matches_numpy(idx):
    got = np.asarray(X[idx])
    want = XN[idx]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_out_of_bounds_gather_clamps_and_take_fills():
    x = jnp.arange(5.0)
    np.testing.assert_array_equal(x[jnp.array([7, -1, -7])], [4.0, 4.0, 0.0])
    np.testing.assert_array_equal(jnp.take(x, jnp.array([7, -1])), [np.nan, 4.0])
    np.testing.assert_array_equal(jnp.take(x, jnp.array([7]), mode="clip"), [4.0])
    np.testing.assert_array_equal(jnp.take(x, jnp.array([7]), mode="wrap"), [2.0])
    np.testing.assert_array_equal(jnp.take(jnp.arange(5), jnp.array([7])), [-2147483648])
    np.testing.assert_array_equal(
        x.at[jnp.array([1, 9])].get(mode="fill", fill_value=-1.0), [1.0, -1.0]
    )
    np.testing.assert_array_equal([x[5], x[-9]], [4.0, 0.0])  # static ints clamp too (JAX)


def test_scatter_drops_out_of_bounds_and_accumulates():
    x = jnp.arange(5.0)
    idx = jnp.array([7, -1, -7, 1, 1])
    np.testing.assert_array_equal(x.at[idx].add(10.0), [0.0, 21.0, 2.0, 3.0, 14.0])
    np.testing.assert_array_equal(x.at[idx].set(10.0), [0.0, 10.0, 2.0, 3.0, 10.0])
    np.testing.assert_array_equal(x.at[jnp.array([9])].set(1.0, mode="clip"), [0, 1, 2, 3, 1.0])


@pytest.mark.parametrize(
    "method, np_fn",
    [
        ("set", lambda a, v: v),
        ("add", np.add),
        ("subtract", np.subtract),
        ("multiply", np.multiply),
        ("divide", np.divide),
        ("power", np.power),
        ("min", np.minimum),
        ("max", np.maximum),
    ],
)
@pytest.mark.parametrize("idx", [(0, slice(None), 1), (Ellipsis, 0), (1, [0, 2])])
def test_at_methods(method, np_fn, idx):
    v = np.float32(3.0)
    want = XN.copy()
    want[idx] = np_fn(want[idx], v)
    got = getattr(X.at[idx], method)(v)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-6)


def test_at_apply_and_immutability():
    np.testing.assert_array_equal(jnp.zeros(3).at[1].apply(lambda v: v + 2), [0.0, 2.0, 0.0])
    with pytest.raises(TypeError, match=r"\.at\[idx\]"):
        X[0] = 1.0


# JAX 0.10.2's scatter_apply: an element named k times gets func applied k times (recorded).
_ROWS = jnp.arange(12.0).reshape(3, 4) + 1
_APPLY_CASES = [
    (_ROWS, [0, 0, 1], lambda v: v + 1, {}, [[3, 4, 5, 6], [6, 7, 8, 9], [9, 10, 11, 12]]),
    (
        _ROWS,
        [0, 5, 0],
        lambda v: v * 2,
        {"mode": "drop"},
        [[4, 8, 12, 16], [5, 6, 7, 8], [9, 10, 11, 12]],
    ),
    (jnp.arange(6), [1, 1, 1], lambda v: v * 3, {}, [0, 27, 2, 3, 4, 5]),
    (jnp.arange(6), [-1, 5, 1], lambda v: v * 3, {}, [0, 3, 2, 3, 4, 45]),
    (jnp.arange(6.0), [1, 1, 1], lambda v: v * 3, {"unique_indices": True}, [0, 27, 2, 3, 4, 5]),
]


@pytest.mark.parametrize("x, idx, func, kwargs, want", _APPLY_CASES)
@pytest.mark.parametrize("jitted", [False, True])
def test_at_apply_repeats_func_for_repeated_indices(x, idx, func, kwargs, want, jitted):
    def apply(x, i):
        return x.at[i].apply(func, **kwargs)

    got = (core.jit(apply) if jitted else apply)(x, jnp.array(idx))
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, np.asarray(want, x.dtype))


def test_take_along_axis_and_nonzero():
    idx = np.argsort(XN, axis=1)[:, ::-1]
    np.testing.assert_array_equal(jnp.take_along_axis(X, idx, 1), np.take_along_axis(XN, idx, 1))
    m = np.array([[0, 1, 0], [2, 0, 3]])
    for g, w in zip(jnp.nonzero(m), np.nonzero(m)):
        np.testing.assert_array_equal(g, w)
    np.testing.assert_array_equal(jnp.nonzero(m, size=4, fill_value=-1)[1], [1, 0, 2, -1])
    np.testing.assert_array_equal(jnp.argwhere(m), np.argwhere(m))
    np.testing.assert_array_equal(jnp.where(m), np.nonzero(m))
    np.testing.assert_array_equal(jnp.unique(np.array([3, 1, 1]), size=4), [1, 3, 1, 1])


def test_traced_boolean_mask_raises_with_fix():
    with pytest.raises(NonConcreteBooleanIndexError, match="size="):
        core.vmap(lambda x: x[x > 0])(jnp.ones((2, 3)))
    # With size=, nonzero works under vmap.
    out = core.vmap(lambda m: jnp.nonzero(m, size=2)[0])(jnp.array([[0, 1, 1], [1, 0, 0]]))
    np.testing.assert_array_equal(out, [[1, 2], [0, 0]])


def test_gradients_through_indexing():
    x = jnp.arange(5.0)
    g = core.grad(lambda x: x[jnp.array([1, 1, 3, 9])].sum())(x)
    # 9 reads x[4] (clamped) but, as in JAX, its cotangent is dropped, not sent to x[4]
    np.testing.assert_array_equal(g, [0.0, 2.0, 0.0, 1.0, 0.0])
    g = core.grad(lambda x: x[1:4:2].sum() + x[::-1][0])(x)
    np.testing.assert_array_equal(g, [0.0, 1.0, 0.0, 1.0, 1.0])
    g = core.grad(lambda x: (x.at[1].set(7.0) * x).sum())(x)
    np.testing.assert_array_equal(g, [0.0, 7.0, 4.0, 6.0, 8.0])
    g = core.grad(lambda x, i: x[i] * 2.0)(x, 2)
    np.testing.assert_array_equal(g, [0.0, 0.0, 2.0, 0.0, 0.0])


def test_vmap_through_indexing():
    x = jnp.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(
        core.vmap(lambda r, i: r[i])(x, jnp.array([0, 3, -1])), [0.0, 7.0, 11.0]
    )
    out = core.vmap(lambda r, i: r.at[i].add(1.0))(x, jnp.array([0, 2, 9]))
    want = np.arange(12.0).reshape(3, 4)
    want[0, 0] += 1
    want[1, 2] += 1
    np.testing.assert_array_equal(out, want)


def test_dynamic_slice_and_update():
    from core.prims.gather import dynamic_slice, dynamic_update_slice

    x = jnp.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(dynamic_slice(x, (2, 3), (2, 2)), [[6.0, 7.0], [10.0, 11.0]])
    out = dynamic_update_slice(x, jnp.zeros((2, 2)), (5, 0))
    np.testing.assert_array_equal(out[1:, :2], np.zeros((2, 2)))
    out = core.vmap(lambda i: dynamic_slice(x, (i, i), (2, 2)))(jnp.arange(3))
    np.testing.assert_array_equal(out[2], [[6.0, 7.0], [10.0, 11.0]])
    g = core.grad(lambda x: dynamic_slice(x, (1, 1), (2, 2)).sum())(x)
    assert float(g.sum()) == 4.0 and float(g[1, 1]) == 1.0


# JAX 0.10.2's answers (eager and jit agree): static ints clamp, out-of-bounds updates drop,
# Python bools add an axis, lists are refused, boolean masks must match the indexed shape.
_X5 = jnp.arange(5.0)
_Y34 = jnp.arange(12.0).reshape(3, 4)
_LIST_MSG = "non-tuple sequence for multidimensional indexing"
_MASK_MSG = r"boolean index did not match shape of indexed array in index {}: got \({}\)"


@pytest.mark.parametrize(
    "index, want",
    [
        (lambda x, y: x[10], 4.0),
        (lambda x, y: x[-10], 0.0),
        (lambda x, y: y[7], [8.0, 9.0, 10.0, 11.0]),
        (lambda x, y: y[1, 9], 7.0),
        (lambda x, y: y[:, 9], [3.0, 7.0, 11.0]),
        (lambda x, y: y[..., -20], [0.0, 4.0, 8.0]),
        (lambda x, y: y[None, 5], [[8.0, 9.0, 10.0, 11.0]]),
        (lambda x, y: x[jnp.array(10)], 4.0),
        (lambda x, y: x.at[10].get(), 4.0),
        (lambda x, y: x.at[10].get(mode="fill"), np.nan),
        (lambda x, y: x.at[10].set(7.0), [0.0, 1.0, 2.0, 3.0, 4.0]),
        (lambda x, y: x.at[-10].add(7.0), [0.0, 1.0, 2.0, 3.0, 4.0]),
        (lambda x, y: y.at[1, 9].set(0.0)[1], [4.0, 5.0, 6.0, 7.0]),
        (lambda x, y: x[(0, 2),], [0.0, 2.0]),
        (lambda x, y: y[[0, 1], [1, 2]], [1.0, 6.0]),
        (lambda x, y: x[True], [[0.0, 1.0, 2.0, 3.0, 4.0]]),
        (lambda x, y: x[False].shape, (0, 5)),
        (lambda x, y: y[..., True].shape, (3, 4, 1)),
        (lambda x, y: y[True, 1], [[4.0, 5.0, 6.0, 7.0]]),
        (lambda x, y: y[jnp.array(True)].shape, (1, 3, 4)),  # a 0-d Array as a Python bool
        (lambda x, y: y[1, jnp.array(False)].shape, (0, 4)),
        (
            lambda x, y: y[np.array([[True, False, True, False]] * 3)],
            [0.0, 2.0, 4.0, 6.0, 8.0, 10.0],
        ),
        (lambda x, y: x[[0, 2]], (TypeError, _LIST_MSG)),
        (lambda x, y: x[[True, False, True, False, True]], (TypeError, _LIST_MSG)),
        (lambda x, y: x.at[[0, 1]].set(1.0), (TypeError, _LIST_MSG)),
        (lambda x, y: x[np.array([True, False])], (IndexError, _MASK_MSG.format(0, "2,"))),
        (lambda x, y: x[jnp.array([True, False])], (IndexError, _MASK_MSG.format(0, "2,"))),
        (lambda x, y: y[np.array([[True, False]])], (IndexError, _MASK_MSG.format(0, "1, 2"))),
        (lambda x, y: y[:, np.array([True, False, True])], (IndexError, _MASK_MSG.format(1, "3,"))),
        (lambda x, y: jnp.zeros((0, 3))[0], (IndexError, "out of bounds for axis 0 with size 0")),
    ],
)
@pytest.mark.parametrize("jitted", [False, True])
def test_index_forms_follow_jax(index, want, jitted):
    fn = core.jit(index, backend="python") if jitted else index  # tracing is what differs
    if isinstance(want, tuple) and isinstance(want[0], type):
        with pytest.raises(want[0], match=want[1]):
            fn(_X5, _Y34)
        return
    got = fn(_X5, _Y34)
    if isinstance(want, tuple):
        assert tuple(got) == want
    else:
        np.testing.assert_array_equal(got, want)


def test_static_int_out_of_bounds_is_a_dynamic_slice_as_in_jax():
    """JAX slices statically by in-bounds ints only; an out-of-bounds int is a `dynamic_slice`
    start (which `checkify`'s index_checks report, as in debugging.md's `checked_f(x, 100)`)."""

    def prims(f):
        return [e.prim.name for e in core.make_jaxpr(f)(_X5).jaxpr.eqns]

    assert "dynamic_slice" in prims(lambda x: x[100]) and "slice" not in prims(lambda x: x[100])
    assert "dynamic_slice" in prims(lambda x: x[-7])
    assert "slice" in prims(lambda x: x[3]) and "dynamic_slice" not in prims(lambda x: x[3])


def test_out_of_bounds_index_gradients_follow_jax():
    x = jnp.arange(5.0)
    np.testing.assert_array_equal(core.grad(lambda x: x[10])(x), [0, 0, 0, 0, 1.0])  # clamped
    np.testing.assert_array_equal(core.grad(lambda x: x[-7])(x), [1.0, 0, 0, 0, 0])
    y = jnp.arange(12.0).reshape(3, 4)
    one_at = lambda i, j: np.eye(12, dtype=np.float32)[4 * i + j].reshape(3, 4)  # noqa: E731
    # an out-of-bounds array index reads the clamped element but its cotangent is dropped
    g = core.grad(lambda y: y[1, jnp.array([5, 1])].sum())(y)
    np.testing.assert_array_equal(g, one_at(1, 1))
    np.testing.assert_array_equal(core.grad(lambda y: y[7, jnp.array([5, 1])].sum())(y), 0 * y)
    np.testing.assert_array_equal(core.grad(lambda y: y[7, 9])(y), one_at(2, 3))


@pytest.mark.parametrize(
    "i,expected",  # JAX 0.10.2: a traced start wraps once, then the slice clamps
    [(-5, 0.0), (-4, 0.0), (-3, 0.0), (-1, 2.0), (0, 0.0), (2, 2.0), (3, 2.0), (7, 2.0)],
)
def test_traced_scalar_index_wraps_negatives_once(i, expected):
    f = core.jit(lambda x, j: x[j], backend="python")
    assert float(f(jnp.arange(3.0), jnp.int32(i))) == expected


def test_at_without_wrapping_negative_indices():
    # JAX 0.10.2's answers: negative indices are out of bounds (dropped, filled or clipped to 0)
    x = jnp.arange(5.0)
    kw = {"wrap_negative_indices": False}
    assert x.at[-1].set(99, **kw, mode="drop").tolist() == [0, 1, 2, 3, 4]
    assert x.at[jnp.array([-1, 2])].set(7, **kw, mode="drop").tolist() == [0, 1, 7, 3, 4]
    assert x.at[-1].get(**kw, mode="fill", fill_value=-3).tolist() == -3
    assert x.at[jnp.array([-2, 1])].get(**kw, mode="clip").tolist() == [0, 1]
    add = core.jit(lambda x, i: x.at[i].add(1, **kw, mode="drop"))
    assert add(x, -1).tolist() == [0, 1, 2, 3, 4]
    assert add(x, 1).tolist() == [0, 2, 2, 3, 4]
    assert x.at[-1].set(99).tolist() == [0, 1, 2, 3, 99]


_I34 = jnp.arange(12).reshape(3, 4)
_B3 = jnp.array([True, False, True])
_BOOL_MSG = "{} does not accept dtype bool at position 0. Accepted dtypes at position 0 are " \
    "subtypes of integer, floating, complexfloating."  # fmt: skip
_SEQ_MSG = "Using a non-tuple sequence for multidimensional indexing is not allowed; use " \
    "`arr[{}(seq)]` instead of `arr[seq]`. See https://github.com/jax-ml/jax/issues/4564 for " \
    "more information."  # fmt: skip


# (call, exception class, first line of JAX 0.10.2's message) from a differential run
# (tools/jax_differential).
@pytest.mark.parametrize(
    "run, cls, first",
    [(lambda: _I34[[0, 1]], TypeError, _SEQ_MSG.format("array")),
     (lambda: _I34[[True, False, True]], TypeError, _SEQ_MSG.format("array")),
     (lambda: _I34[[[0, 1], [1, 2]]], TypeError, _SEQ_MSG.format("tuple")),
     (lambda: _I34[[0, [1, 2]]], TypeError, _SEQ_MSG.format("tuple")),
     (lambda: _I34["a"], TypeError, "JAX does not support string indexing; got idx='a'"),
     (lambda: _I34[0, "abc"], TypeError, "JAX does not support string indexing; got idx='abc'"),
     (lambda: core.jit(lambda i: _I34[i])((0, 0.0)), TypeError,
      "Indexer must have integer or boolean type, got indexer with type float32"),
     (lambda: _I34[0, 0, 0], IndexError, "Too many indices: array is 2-dimensional, but 3 were "
      "indexed"),
     (lambda: _I34.at[jnp.array([0, 5])].get(mode="bogus"), ValueError,
      'Unknown gather mode "bogus"'),
     (lambda: _I34.at[3].add(7, mode="bogus"), ValueError, 'Unknown gather mode "bogus"'),
     (lambda: _B3.at[1].add(True), TypeError, _BOOL_MSG.format("add")),
     (lambda: _B3.at[1].multiply(True), TypeError, _BOOL_MSG.format("mul")),
     (lambda: _B3.at[1].divide(True), TypeError, _BOOL_MSG.format("mul")),
     (lambda: _B3.at[1].subtract(True), TypeError, _BOOL_MSG.format("sub"))],
)  # fmt: skip
def test_index_errors_have_jaxs_first_lines(run, cls, first):
    with pytest.raises(cls) as info:
        run()
    assert str(info.value).split("\n")[0] == first


@pytest.mark.parametrize(
    "x, want",  # JAX 0.10.2: x.at[1].subtract(True) subtracts 1 in x's dtype
    [(_I34[0], [0, 0, 2, 3]),
     (jnp.arange(4, dtype=jnp.uint8), [0, 0, 2, 3]),
     (jnp.arange(3.0, dtype=jnp.float16), [0.0, 0.0, 2.0])],
)  # fmt: skip
def test_subtract_converts_values_first(x, want):
    got = x.at[1].subtract(True)
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(
    "run, want",  # JAX 0.10.2: the scatter runs in the promoted dtype, then converts back
    [(lambda: _I34.at[1].multiply(2.7), [0, 1, 2, 3, 10, 13, 16, 18, 8, 9, 10, 11]),
     (lambda: _I34.at[1].subtract(2.7), [0, 1, 2, 3, 1, 2, 3, 4, 8, 9, 10, 11]),
     (lambda: _I34.at[1].set(2.7), [0, 1, 2, 3, 2, 2, 2, 2, 8, 9, 10, 11]),
     (lambda: jnp.arange(4, dtype=jnp.uint8).at[1].subtract(2.7), [0, 0, 2, 3]),
     (lambda: _B3.at[1].add(2), [True, True, True]),
     (lambda: _B3.at[1].min(-1), [True, True, True]),
     (lambda: _B3.at[1].max(-1), [True, False, True])],
)  # fmt: skip
def test_updates_compute_in_the_promoted_dtype(run, want):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = run()
    assert not got.weak_type
    np.testing.assert_array_equal(np.asarray(got).ravel(), want)


def test_ds_slices_compare_by_fields():
    # jax.ds(0, 3) == jax.ds(0, 3) (JAX's Slice is a dataclass, not hashable)
    from core.numpy.indexing import ds

    assert ds(0, 3) == ds(0, 3) and ds(1, 4, 2) != ds(1, 4)
    with pytest.raises(TypeError):
        hash(ds(0, 3))


# Scalar booleans are numpy's 0-d advanced indices (an axis of 1 or 0 that broadcasts with the
# other advanced indices, ints included); empty masks match any size. JAX 0.10.2 agrees.
_BOOL_INDICES = [
    (0, slice(None, 2), True),
    (0, slice(None, 2), False),
    (slice(None, 2), 0, False),
    (slice(None), np.array([0, 2]), True),
    (np.array([1, 0]), slice(None), True),
    (True, slice(None), True, np.array(True)),
    (Ellipsis, False),
    (True,),
    np.empty((0,), bool),
    np.empty((2, 0), bool),
    np.empty((0, 3), bool),
]


@pytest.mark.parametrize("idx", _BOOL_INDICES, ids=[str(i) for i in range(len(_BOOL_INDICES))])
@pytest.mark.parametrize("update_ndim", [0, 2])
def test_scalar_bool_and_empty_mask_indices_match_numpy(idx, update_ndim):
    want = XN[idx]
    got = X[idx]
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    update = np.arange(int(np.prod(want.shape[-update_ndim:])) if update_ndim else 1) + 100.0
    update = update.reshape(want.shape[-update_ndim:] if update_ndim else ())
    expected = XN.copy()
    expected[idx] = update
    np.testing.assert_array_equal(X.at[idx].set(update), expected)


@pytest.mark.parametrize(
    "shape, idx, first",  # JAX 0.10.2 under jax_check_static_indices (x[idx], jit, .at[].get)
    [((2,), -4, "index -4 out of bounds for axis 0 with size 2"),
     ((2, 3), (Ellipsis, -4), "index -4 out of bounds for axis 1 with size 3"),
     ((2, 3, 5), (slice(None), [1, 2], 6), "index 6 out of bounds for axis 2 with size 5"),
     ((2, 3, 5), (np.arange(3), 6, None), "index 6 out of bounds for axis 1 with size 3")],
)  # fmt: skip
def test_check_static_indices_raises_for_out_of_bounds_ints(shape, idx, first):
    x = jnp.zeros(shape)
    with core.config.override("check_static_indices", True):
        for run in (lambda: x[idx], lambda: core.jit(lambda y: y[idx])(x), x.at[idx].get):
            with pytest.raises(IndexError) as info:
                run()
            assert str(info.value) == first
        x.at[idx].get(mode="clip")  # the check is for the default mode only, as in JAX
    x[idx]  # without the flag the index clamps, as in JAX


def test_python_int_updates_take_the_arrays_integer_dtype():
    # JAX 0.10.2: 2**32 - 1 fits uint32 (no int32 overflow); 300 into uint8 wraps to 44
    assert int(jnp.zeros(1, jnp.uint32).at[0].set(2**32 - 1)[0]) == 2**32 - 1
    assert int(jnp.zeros(1, jnp.uint8).at[0].set(300)[0]) == 44


@pytest.mark.parametrize("idx", [([0, 1],), ([[0], [-1]], [[2, 1, 0]])])
def test_jit_argument_lists_of_ints_index_as_arrays(idx):
    # under jit the ints of a list are traced: the list is one index array, as numpy reads it
    got = core.jit(lambda x, i: x[i])(X, idx)
    np.testing.assert_array_equal(got, XN[tuple(np.asarray(i) for i in idx)])


def test_traced_index_of_an_empty_axis_raises_jaxs_index_error():
    x = jnp.ones((2, 0))
    with pytest.raises(IndexError) as info:
        core.jit(lambda i: x[0, i])(0)
    assert str(info.value).split("\n")[0] == "index is out of bounds for axis 1 with size 0"


def test_updates_through_advanced_indices_parted_by_an_empty_ellipsis():
    idx = (slice(None), np.array([0, 1, 2]), Ellipsis, np.array([0, 1, 2]))
    want = XN.copy()
    want[idx] *= np.arange(3, dtype=np.float32)[:, None]  # numpy's (3, 2) indexed shape
    np.testing.assert_array_equal(X.at[idx].multiply(np.arange(3.0)[:, None]), want)
