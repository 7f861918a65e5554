"""dynamic_slice and dynamic_update_slice check their operands with JAX 0.10.2's messages
(recorded from JAX)."""

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
    with pytest.raises(TypeError, match="window size 0 or 1"):
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
