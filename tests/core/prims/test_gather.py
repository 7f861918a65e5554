"""dynamic_slice and dynamic_update_slice check their operands with JAX 0.10.2's messages
(recorded from JAX)."""

import re

import numpy as np
import pytest

import core
import core.numpy as jnp
from core import lax
from core.prims.dynamic_slice import dynamic_slice_p
from core.prims.gather_points import point_gather_p

A = jnp.arange(10).reshape(2, 5)


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda: lax.dynamic_slice(A, (0, 0), (3, 2)),
            "slice slice_sizes must be less than or equal to operand shape, got slice_sizes "
            "(3, 2) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_slice(A, (0, 0), (1, -1)),
            "slice slice_sizes must be greater than or equal to zero, got slice_sizes of (1, -1).",
        ),
        (
            lambda: lax.dynamic_slice(A, (0,), (1, 2)),
            "Length of slice indices must match number of operand dimensions (1 vs (2, 5))",
        ),
        (
            lambda: lax.dynamic_slice(A, (0, 1.0), (1, 2)),
            "index arguments to dynamic_slice must be integers of the same type, got: int32, "
            "float32",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.array([[7.5]]), (0, 0)),
            "lax.dynamic_update_slice requires arguments to have the same dtypes, got int32, "
            "float32.",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.array([7]), (0, 0)),
            "dynamic_update_slice update must have the same rank as operand, got update shape "
            "(1,) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.ones((3, 1), jnp.int32), (0, 0)),
            "dynamic_update_slice update shape must be smaller than operand shape, got update "
            "shape (3, 1) for operand shape (2, 5).",
        ),
        (
            lambda: lax.dynamic_update_slice(A, jnp.ones((1, 1), jnp.int32), (0,)),
            "Length of slice indices must match number of operand dimensions (1 vs (2, 5))",
        ),
    ],
)
def test_dynamic_slice_errors(call, message):
    with pytest.raises((TypeError, ValueError)) as e:
        call()
    assert str(e.value).split("\n")[0] == message


def test_vmapped_dynamic_slice_takes_start_indices_of_two_integer_dtypes():
    """The primitive's batching rule gathers with the starts' common dtype as the index vector
    when they differ (int64 and int32 under x64). `lax.dynamic_slice` refuses such starts, as
    JAX's dtype rule does, and its `*_in_dim` forms make the other starts in the index's dtype
    (a loop counter in `solve_triangular`'s substitution, vmapped by
    `gaussian_kde.integrate_kde`)."""
    with core.enable_x64():
        x = np.arange(24.0).reshape(2, 3, 4)
        i = np.array([0, 2], np.int64)
        f = lambda x, i: dynamic_slice_p.bind(x, i, jnp.int32(1), slice_sizes=(1, 2))  # noqa: E731
        got = core.vmap(f)(x, i)
        np.testing.assert_array_equal(got, np.stack([x[0, 0:1, 1:3], x[1, 2:3, 1:3]]))
        in_dim = core.vmap(lambda x, i: core.lax.dynamic_index_in_dim(x, i.astype(np.int32)))
        np.testing.assert_array_equal(in_dim(x, i), np.stack([x[0, 0:1], x[1, 2:3]]))
        with pytest.raises(TypeError, match="got: int64, int32"):
            core.vmap(lambda x, i: core.lax.dynamic_slice(x, (i, np.int32(1)), (1, 2)))(x, i)


@pytest.mark.parametrize("in_axes", [(0, None), (None, 0), (0, 0), (2, 1)])
@pytest.mark.parametrize("mode", ["clip", "fill"])
def test_point_gather_batches_as_a_loop_over_the_batch(in_axes, mode):
    # jit's loop rewrites (scan_motion) vmap jaxprs already lowered to point gathers
    def f(x, idx):
        return point_gather_p.bind(x, idx, axes=(1, 2), mode=mode, fill_value=-1.0)

    x = np.arange(2 * 2 * 3 * 4, dtype=np.float32).reshape(2, 2, 3, 4)  # batch 2 on axis 0
    idx = np.array([[[1, 2], [0, 5], [2, 0]], [[0, 0], [1, 3], [4, 1]]], np.int32)
    xs = x if in_axes[0] == 0 else np.moveaxis(x, 0, 2) if in_axes[0] == 2 else x[0]
    ids = idx if in_axes[1] == 0 else np.moveaxis(idx, 0, 1) if in_axes[1] == 1 else idx[0]
    got = core.vmap(f, in_axes=in_axes)(xs, ids)
    want = [
        np.asarray(f(x[b] if in_axes[0] is not None else x[0],
                     idx[b] if in_axes[1] is not None else idx[0]))
        for b in range(2)
    ]  # fmt: skip
    np.testing.assert_array_equal(got, np.stack(want))


BATCHED = lax.GatherDimensionNumbers(
    offset_dims=(),
    collapsed_slice_dims=(1,),
    start_index_map=(1,),
    operand_batching_dims=(0,),
    start_indices_batching_dims=(0,),
)


def test_gather_batching_dims_take_windows_of_0_or_1():
    """As XLA: an empty batching dimension takes window 0 (jnp.take_along_axis on an empty
    batch does), a window above 1 is a TypeError (JAX 0.10.2's values)."""
    empty = lax.gather(
        jnp.zeros((0, 3)), jnp.zeros((0, 1), jnp.int32), BATCHED, slice_sizes=(0, 1), mode="fill"
    )
    assert empty.shape == (0,) and empty.dtype == jnp.float32
    rows = jnp.arange(6.0).reshape(2, 3)
    got = lax.gather(rows, jnp.array([[2], [0]]), BATCHED, slice_sizes=(1, 1), mode="fill")
    np.testing.assert_array_equal(np.asarray(got), [2.0, 3.0])
    with pytest.raises(TypeError, match="operand batching dims with bound 0/1, but bound is 2"):
        lax.gather(rows, jnp.zeros((2, 1), jnp.int32), BATCHED, slice_sizes=(2, 1), mode="fill")


@pytest.mark.parametrize(
    "call, shape",
    [  # JAX 0.10.2: empty float32 results of these shapes
        (lambda: core.vmap(lambda x, i: x.at[i].set(3.0))(jnp.zeros((0, 2)), jnp.zeros(0, int)),
         (0, 2)),
        (lambda: core.vmap(lambda x, i: x.at[i].add(1.0))(jnp.zeros((0, 2)), jnp.zeros(0, int)),
         (0, 2)),
        (lambda: jnp.linalg.solve(jnp.zeros((0, 2, 2)), jnp.zeros((0, 2, 1))), (0, 2, 1)),
        (lambda: core.vmap(jnp.linalg.solve)(jnp.zeros((0, 2, 2)), jnp.zeros((0, 2))), (0, 2)),
        (lambda: jnp.linalg.inv(jnp.zeros((0, 2, 2))), (0, 2, 2)),
    ],
)  # fmt: skip
def test_scatter_over_an_empty_vmapped_batch(call, shape):
    """A vmap over zero rows scatters with an empty operand batching dimension (window 1, no
    indices), as XLA allows; it raised a window-size ShapeError."""
    out = call()
    assert out.shape == shape and out.dtype == jnp.float32


_SCATTER_DN = lax.ScatterDimensionNumbers(
    update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
)


@pytest.mark.parametrize("op", [lax.scatter, lax.scatter_add, lax.scatter_max, lax.scatter_mul])
@pytest.mark.parametrize(
    ("updates", "first"),
    [  # JAX 0.10.2's TypeError first lines
        (
            jnp.ones(3),
            "Bounds of the scatter dimensions of updates must be the same as the bounds of the "
            "corresponding dimensions of scatter indices. For scatter dimension 0, updates bound "
            "is 3, indices bound is 1.",
        ),
        (
            jnp.ones(1, jnp.int32),
            "lax.scatter requires arguments to have the same dtypes, got float32, int32.",
        ),
    ],
)
def test_scatter_errors_are_jaxs(op, updates, first):
    with pytest.raises(TypeError) as info:
        op(jnp.ones(3), jnp.array([[0]]), updates, _SCATTER_DN)
    assert str(info.value).splitlines()[0] == first


# Found by JAX's lax_test (its gather/scatter shape-checking rules): numbax checked the same
# things with its own messages, in another order. Each row: indices shape, (updates shape,)
# the five dimension-number fields in JAX's order, (slice sizes,) the start of JAX's message.
# Operand: float32[4, 3, 2].
# fmt: off
GATHER_ERRORS = [
    ((5, 2), ((2, 1), (0,), (0, 1), (), ()), (1, 3, 2),
     "offset_dims in gather op must be sorted; got (2, 1)"),
    ((5, 2), ((1, 1), (0,), (0, 1), (), ()), (1, 3, 2),
     "offset_dims in gather op must not repeat; got: (1,"),
    ((5, 2), ((1, 3), (0,), (0, 1), (), ()), (1, 3, 2),
     "Offset dimension 1 in gather op is out of bounds;"),
    ((5, 2), ((1, 2), (0,), (0,), (), ()), (1, 3, 2),
     "Gather op has 1 elements in start_index_map and the"),
    ((5, 2), ((1, 2), (0,), (0, 3), (), ()), (1, 3, 2),
     "Invalid start_index_map; domain is [0, 3), got:"),
    ((5, 2), ((1, 2), (0,), (1, 1), (), ()), (1, 3, 2),
     "start_index_map in gather op must not repeat; got:"),
    ((5, 2), ((1,), (1, 0), (0, 1), (), ()), (1, 1, 2),
     "collapsed_slice_dims in gather op must be sorted;"),
    ((5, 2), ((1,), (0, 3), (0, 1), (), ()), (1, 1, 2),
     "Invalid collapsed_slice_dims set in gather op;"),
    ((5, 2), ((1,), (0, 0), (0, 1), (), ()), (1, 1, 2),
     "collapsed_slice_dims in gather op must not repeat;"),
    ((4, 2), ((1,), (1,), (1, 2), (0, 0), (0,)), (1, 1, 2),
     "operand_batching_dims in gather op must not repeat;"),
    ((4, 2), ((1,), (1,), (1, 2), (1,), (0,)), (1, 1, 2),
     "collapsed_slice_dims and operand_batching_dims in"),
    ((4, 2), ((1,), (1,), (0, 2), (0,), (0,)), (1, 1, 2),
     "start_index_map and operand_batching_dims in gather"),
    ((4, 2), ((1,), (1,), (1, 2), (0,), (1,)), (1, 1, 2),
     "Gather op cannot have the index vector dimension as"),
    ((4, 2), ((1,), (1,), (1, 2), (0,), (2,)), (1, 1, 2),
     "Invalid start_indices_batching_dims set in gather"),
    ((4, 2), ((1,), (1,), (1, 2), (0,), ()), (1, 1, 2),
     "Gather op requires equal numbers of"),
    ((3, 2), ((1,), (1,), (1, 2), (0,), (0,)), (1, 1, 2),
     "Gather op requires operand batching dimensions and"),
    ((5, 2), ((1, 2), (0,), (0, 1), (), ()), (1, 3),
     "Gather op must have one slice size for every input"),
    ((5, 2), ((1,), (0,), (0, 1), (), ()), (1, 3, 2),
     "All components of the offset index in a gather op"),
    ((5, 2), ((1, 2), (0,), (0, 1), (), ()), (1, 4, 2),
     "Slice size at index 1 in gather op is out of range,"),
    ((5, 2), ((1, 2), (0,), (0, 1), (), ()), (2, 3, 2),
     "Gather op can only collapse slice dims with bound"),
    ((4, 2), ((1,), (1,), (1, 2), (0,), (0,)), (2, 1, 2),
     "Gather op can only have operand batching dims with"),
    ((), ((0, 1, 2), (), (), (), ()), (4, 3, 2),
     "Gather index leaf dimension must be within [0,"),
]
SCATTER_ERRORS = [
    ((5, 2), (5, 3, 2), ((2, 1), (0,), (0, 1), (), ()),
     "update_window_dims in scatter op must be sorted;"),
    ((5, 2), (5, 3, 2), ((1, 1), (0,), (0, 1), (), ()),
     "update_window_dims in scatter op must not repeat;"),
    ((5, 2), (5, 3, 2), ((1, 3), (0,), (0, 1), (), ()),
     "Invalid update_window_dims set in scatter op; valid"),
    ((5, 2), (5, 2), ((1,), (1, 0), (0, 1), (), ()),
     "inserted_window_dims in scatter op must be sorted;"),
    ((5, 2), (5, 2), ((1,), (0, 0), (0, 1), (), ()),
     "inserted_window_dims in scatter op must not repeat;"),
    ((5, 2), (5, 2), ((1,), (0, 3), (0, 1), (), ()),
     "Invalid inserted_window_dims set in scatter op;"),
    ((4, 2), (4, 2), ((1,), (1,), (1, 2), (0, 0), (0,)),
     "operand_batching_dims in scatter op must not"),
    ((4, 2), (4, 2), ((1,), (0,), (1, 2), (0,), (0,)),
     "inserted_window_dims and operand_batching_dims in"),
    ((4, 2), (4, 2), ((1,), (1,), (0, 2), (0,), (0,)),
     "scatter_dims_to_operand_dims and"),
    ((4, 2), (4, 2), ((1,), (1,), (1, 2), (0,), (1,)),
     "Scatter op cannot have the index vector dimension"),
    ((4, 2), (4, 2), ((1,), (1,), (1, 2), (0,), ()),
     "Scatter op requires equal numbers of"),
    ((3, 2), (3, 2), ((1,), (1,), (1, 2), (0,), (0,)),
     "Scatter op requires operand batching dimensions and"),
    ((5, 2), (5, 2), ((1,), (), (0, 1), (), ()),
     "Scatter op has window of size 1; doesn't match"),
    ((5, 2), (5, 3, 2), ((1, 2), (0,), (0,), (), ()),
     "Scatter op has 1 elements in"),
    ((5, 2), (5, 3, 2), ((1, 2), (0,), (0, 5), (), ()),
     "Invalid scatter_dims_to_operand_dims mapping;"),
    ((5, 2), (5, 3, 2), ((1, 2), (0,), (1, 1), (), ()),
     "scatter_dims_to_operand_dims in scatter op must not"),
    ((5, 2), (5, 4, 2), ((1, 2), (0,), (0, 1), (), ()),
     "Bounds of the window dimensions of updates must not"),
    ((5, 2), (6, 3, 2), ((1, 2), (0,), (0, 1), (), ()),
     "Bounds of the scatter dimensions of updates must be"),
    ((5, 2), (5, 3, 2, 1), ((1, 2), (0,), (0, 1), (), ()),
     "Updates tensor must be of rank 3; got 4."),
]
# fmt: on


@pytest.mark.parametrize("ishape, dims, slice_sizes, message", GATHER_ERRORS)
def test_gather_shape_errors_as_jax(ishape, dims, slice_sizes, message):
    x, idx = jnp.zeros((4, 3, 2)), jnp.zeros(ishape, jnp.int32)
    with pytest.raises(TypeError, match=re.escape(message)):
        lax.gather(x, idx, lax.GatherDimensionNumbers(*dims), slice_sizes)


@pytest.mark.parametrize("ishape, ushape, dims, message", SCATTER_ERRORS)
def test_scatter_shape_errors_as_jax(ishape, ushape, dims, message):
    x, idx, upd = jnp.zeros((4, 3, 2)), jnp.zeros(ishape, jnp.int32), jnp.zeros(ushape)
    with pytest.raises(TypeError, match=re.escape(message)):
        lax.scatter(x, idx, upd, lax.ScatterDimensionNumbers(*dims))


def test_vmap_of_scalar_dynamic_slices():
    # JAX's batching_test (issue 3883): a scalar operand has no start indices; the batching
    # rule's empty index vector raised numpy's "at least one array or dtype is required"
    xs = jnp.array([1, 2, 3, 4])
    got = core.vmap(lambda x: lax.dynamic_slice(x, [], []))(xs)
    np.testing.assert_array_equal(np.asarray(got), [1, 2, 3, 4])
    got = core.vmap(lambda x: lax.dynamic_update_slice(x, 7, []))(xs)
    np.testing.assert_array_equal(np.asarray(got), [7, 7, 7, 7])
